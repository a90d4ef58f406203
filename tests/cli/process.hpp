// Helpers for the end-to-end tests of the `loophole` binary (LOOPHOLE_BINARY):
// run it and collect its exit code and output, or signal it while it runs.
#pragma once

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <pty.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace loophole::test {

// The binary compiles native code into a cache (by default once a search
// runs long): the tests' (native_cache.hpp), not the user's, unless the
// environment names one.
inline const bool native_cache_chosen = [] {
  ::setenv("LOOPHOLE_CACHE", LOOPHOLE_TEST_NATIVE_CACHE, 0);
  return true;
}();

struct Outcome {
  int code = -1;  // the exit code, or 128 + the signal that ended it
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A directory of this test process's own (ctest runs tests side by side),
// removed with what is in it when the process exits.
inline std::filesystem::path temp_dir() {
  struct Dir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("loophole-cli-" + std::to_string(::getpid()));
    Dir() { std::filesystem::create_directories(path); }
    Dir(const Dir&) = delete;
    Dir& operator=(const Dir&) = delete;
    ~Dir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  return dir.path;
}

// Runs a shell command with stdin from /dev/null.
inline Outcome run_command(const std::string& cmd) {
  const auto out = temp_dir() / "stdout";
  const auto err = temp_dir() / "stderr";
  const int status =
      std::system((cmd + " >" + out.string() + " 2>" + err.string() + " </dev/null").c_str());
  Outcome r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// Sends `sig` to process `pid` and waits for it: its exit code (or 128 +
// the signal that ended it) and the seconds from the signal to its end.
struct Ended {
  int code = -1;
  double seconds = 0;
};
inline Ended signal_and_wait(pid_t pid, int sig) {
  const auto sent = std::chrono::steady_clock::now();
  ::kill(pid, sig);
  int status = 0;
  ::waitpid(pid, &status, 0);
  Ended e;
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  e.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return e;
}

// Runs `loophole ARGS` in directory cwd, or in the current one.
inline Outcome run_in(const std::filesystem::path& cwd, const std::string& args) {
  return run_command("cd '" + cwd.string() + "' && " + std::string(LOOPHOLE_BINARY) + " " + args);
}
inline Outcome run(const std::string& args) {
  return run_command(std::string(LOOPHOLE_BINARY) + " " + args);
}

// Runs loophole with its stdout on a pseudo-terminal, as in a designer's
// terminal, with `env` ("NAME=VALUE") added to its environment; stderr goes
// to the terminal too when `stderr_too`, else to /dev/null. Returns what the
// terminal showed.
inline std::string run_on_terminal(std::vector<std::string> args,
                                   const std::vector<std::string>& env = {},
                                   bool stderr_too = false) {
  args.insert(args.begin(), LOOPHOLE_BINARY);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) return "forkpty failed";
  if (pid == 0) {
    for (const auto& e : env) {
      const auto eq = e.find('=');
      ::setenv(e.substr(0, eq).c_str(), e.substr(eq + 1).c_str(), 1);
    }
    if (!stderr_too) {
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, STDERR_FILENO);
    }
    execv(LOOPHOLE_BINARY, argv.data());
    _exit(127);
  }
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(master, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child closed the terminal
    }
  }
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  return out;
}

// Whether process `pid` catches SIGINT, from the SigCgt mask in /proc; waits
// up to 20 s for it. A SIGINT sent before loophole installs its handler would
// kill it instead of stopping the exploration, so tests wait for this first.
inline bool wait_for_sigint_handler(pid_t pid) {
  for (int i = 0; i < 2000; ++i) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("SigCgt:", 0) != 0) continue;
      const auto mask = std::stoull(line.substr(7), nullptr, 16);
      if ((mask & (1ull << (SIGINT - 1))) != 0) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace loophole::test
