// load_native() (native.hpp): compile the generated C into the cache, or
// find it there, and load it. The file name is a hash of the source and of
// the compiler command, so an edited rule, another scope or another
// compiler compile anew; a compilation writes to a file of its own and
// renames it into place, so that runs side by side never load half a file.
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "native.hpp"

namespace loophole::checker {

namespace fs = std::filesystem;

NativeCode::~NativeCode() {
  if (handle != nullptr) dlclose(handle);
}

namespace {

// Bump when the frame or the exported symbols change: old cache entries
// are then never loaded.
constexpr int abi = 2;

constexpr std::array<const char*, 5> flags = {"-O2", "-fPIC", "-shared", "-w", "-std=c99"};

std::uint64_t fnv1a(const std::string& s, std::uint64_t h = 14695981039346656037ULL) {
  for (const unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

fs::path cache_dir() {
  if (const std::string d = env("LOOPHOLE_CACHE"); !d.empty()) return d;
  if (const std::string d = env("XDG_CACHE_HOME"); !d.empty()) return fs::path(d) / "loophole";
  if (const std::string d = env("HOME"); !d.empty()) return fs::path(d) / ".cache" / "loophole";
  return fs::temp_directory_path() / ("loophole-" + std::to_string(getuid()));
}

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Runs argv with stdout and stderr into `log` (posix_spawnp: safe while
// other threads run, unlike a fork that would then allocate). Returns the
// exit status, -1 for a signal; throws NativeError when it cannot start, or
// when `stop` says so first (the compiler then killed with the processes it
// started: it runs in a process group of its own).
int run(const std::vector<std::string>& argv, const fs::path& log, const NativeStop& stop) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  // (environ: from unistd.h, which declares it with _GNU_SOURCE, as g++ and
  // clang++ define it.)
  const int e = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (e != 0) {
    throw NativeError("native: cannot run the C compiler '" + argv[0] + "': " + std::strerror(e));
  }
  int status = 0;
  const bool poll = stop.cancel != nullptr || stop.deadline;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, poll ? WNOHANG : 0);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return -1;
    if (r != 0) continue;
    const bool cancelled = stop.cancel != nullptr && stop.cancel->load(std::memory_order_relaxed);
    if (cancelled || (stop.deadline && std::chrono::steady_clock::now() >= *stop.deadline)) {
      ::kill(-pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      throw NativeError(cancelled ? "native: cancelled"
                                  : "native: the C compiler did not finish within the time limit");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string first_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) return line;
  }
  return {};
}

std::shared_ptr<NativeCode> open(const fs::path& library, std::string& why) {
  void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* e = dlerror();
    why = e != nullptr ? e : "dlopen failed";
    return nullptr;
  }
  auto code = std::make_shared<NativeCode>();
  code->handle = h;
  code->library = library.string();
  code->run = reinterpret_cast<NativeRun>(dlsym(h, "loophole_run"));
  code->enabled = reinterpret_cast<NativeEnabled>(dlsym(h, "loophole_enabled"));
  code->exprs = static_cast<const NativeExpr*>(dlsym(h, "loophole_exprs"));
  const auto* id = static_cast<const int*>(dlsym(h, "loophole_abi"));
  if (code->run == nullptr || code->enabled == nullptr || code->exprs == nullptr || id == nullptr ||
      *id != abi) {
    why =
        "the library does not export loophole_run, loophole_enabled, loophole_exprs and "
        "loophole_abi " +
        std::to_string(abi);
    return nullptr;
  }
  return code;
}

// Where the code for a source is, or goes, and how it is compiled.
struct Target {
  std::string source;             // with the ABI stamp
  std::vector<std::string> argv;  // the compiler: $LOOPHOLE_NATIVE_CC split into words, or cc
  std::string command;            // it and the flags, as one line (hashed, and quoted in errors)
  std::string name;               // native-HASH
  fs::path dir, library;
};

Target target(const std::string& body) {
  Target t;
  t.source = body + "const int loophole_abi = " + std::to_string(abi) + ";\n";
  std::string cc = env("LOOPHOLE_NATIVE_CC");
  if (cc.empty()) cc = "cc";
  t.argv = split(cc);
  if (t.argv.empty()) throw NativeError("native: LOOPHOLE_NATIVE_CC names no compiler");
  for (const auto& a : t.argv) t.command += a + " ";
  for (const char* f : flags) t.command += std::string(f == flags[0] ? "" : " ") + f;
  char name[32];
  std::snprintf(name, sizeof name, "native-%016llx",
                static_cast<unsigned long long>(fnv1a(t.command, fnv1a(t.source))));
  t.name = name;
  t.dir = cache_dir();
  t.library = t.dir / (t.name + ".so");
  return t;
}

// Code is loaded from the cache: only from a directory of this user's that
// nobody else may write (not, say, a /tmp/loophole-UID someone else made).
bool safe(const fs::path& dir) {
  struct stat st {};
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::getuid() &&
         (st.st_mode & 022) == 0;
}

// The name is a 64-bit FNV-1a hash, which anyone can make collide: a
// ruleset crafted to share another's name would have its code loaded for
// the other (wrong verdicts, from a cache shared between pull requests). So
// a library is loaded only beside the source it was compiled from (kept as
// NAME.c), and only when that source is byte for byte the one wanted.
bool compiled_from(const Target& t) {
  std::ifstream in(t.dir / (t.name + ".c"), std::ios::binary);
  if (!in) return false;
  std::string kept;
  kept.resize(t.source.size() + 1);
  in.read(kept.data(), static_cast<std::streamsize>(kept.size()));
  return static_cast<std::size_t>(in.gcount()) == t.source.size() &&
         kept.compare(0, t.source.size(), t.source) == 0;
}

}  // namespace

std::shared_ptr<const NativeCode> find_native(const std::string& body) {
  const Target t = target(body);
  std::error_code ec;
  if (!safe(t.dir) || !fs::exists(t.library, ec) || !compiled_from(t)) return nullptr;
  std::string why;
  auto code = open(t.library, why);
  if (code) code->cached = true;
  return code;
}

std::shared_ptr<const NativeCode> load_native(const std::string& body, const NativeStop& stop) {
  const Target t = target(body);
  const fs::path& dir = t.dir;
  const fs::path& library = t.library;
  const std::string& name = t.name;
  std::error_code ec;
  if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);
  if (!ec && ::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    ec = std::error_code(errno, std::generic_category());
  }
  if (ec) {
    throw NativeError("native: cannot create the cache " + dir.string() + ": " + ec.message());
  }
  if (!safe(dir)) {
    throw NativeError("native: the cache " + dir.string() +
                      " is not a directory of this user's that only they may write");
  }
  std::string why;
  if (fs::exists(library, ec) && compiled_from(t)) {
    if (auto code = open(library, why)) {
      code->cached = true;
      return code;
    }
  }
  // Compile into files of this compilation's own (two threads of a process
  // may compile the same source), then rename the library into place
  // (atomic: a concurrent run loads the old file or the new one).
  static std::atomic<unsigned> compilations{0};
  const std::string own = name + "." + std::to_string(getpid()) + "." +
                          std::to_string(compilations.fetch_add(1, std::memory_order_relaxed));
  const fs::path c_file = dir / (own + ".c");
  const fs::path tmp = dir / (own + ".so");
  const fs::path log = dir / (own + ".log");
  {
    std::ofstream out(c_file, std::ios::binary);
    out << t.source;
    if (!out.flush()) throw NativeError("native: cannot write " + c_file.string());
  }
  std::vector<std::string> argv = t.argv;
  for (const char* f : flags) argv.emplace_back(f);
  argv.push_back("-o");
  argv.push_back(tmp.string());
  argv.push_back(c_file.string());
  int status = -1;
  try {
    status = run(argv, log, stop);
  } catch (const NativeError&) {
    fs::remove(c_file, ec);
    fs::remove(tmp, ec);
    fs::remove(log, ec);
    throw;
  }
  fs::rename(c_file, dir / (name + ".c"), ec);  // kept for the curious
  if (status != 0) {
    fs::remove(tmp, ec);
    const std::string line = first_line(log);
    const fs::path kept = dir / (name + ".log");
    fs::rename(log, kept, ec);
    throw NativeError("native: '" + t.command + "' failed (" +
                      (status < 0 ? std::string("killed") : "exit " + std::to_string(status)) +
                      ")" + (line.empty() ? "" : ": " + line) + "; see " + kept.string());
  }
  fs::rename(tmp, library, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw NativeError("native: cannot move the library into " + library.string());
  }
  fs::remove(log, ec);
  auto code = open(library, why);
  if (!code) throw NativeError("native: cannot load " + library.string() + ": " + why);
  return code;
}

}  // namespace loophole::checker
