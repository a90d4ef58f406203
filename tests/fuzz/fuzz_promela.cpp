// libFuzzer target for the Promela export on untrusted rulesets: every input
// that loads is exported (with a hostile file name, as `loophole export` of a
// pull request's file could be) and handed to SPIN's parser, `spin -a` in a
// private directory, as the documented pipeline runs it. A parse error is a
// failure, and so is a name that left its comment (checker/promela/src/
// promela_text.hpp): the export must be printable ASCII, its comments must
// close, and outside them there must be no embedded C (`c_code`, `c_decl`,
// ...) and no preprocessor line but the generator's own. Bounded: games past
// a small scope are skipped, and SPIN gets a few seconds an input.
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loophole/promela/promela.hpp"

#include "fuzz_input.hpp"

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& what, const std::string& text) {
  std::fprintf(stderr, "fuzz_promela: %s\n--- export ---\n%s\n", what.c_str(), text.c_str());
  __builtin_trap();
}

// The export as the C preprocessor sees it once comments are gone: trigraph
// `??/` read as `\`, line splices joined, `/* */` and `//` comments removed.
// Empty with `closed` false when a comment does not end.
std::string without_comments(const std::string& text, bool& closed) {
  std::string spliced;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool trigraph = text.compare(i, 3, "?\?/") == 0;
    const char ch = trigraph ? '\\' : text[i];
    if (trigraph) i += 2;
    if (ch == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      continue;
    }
    spliced += ch;
  }
  std::string out;
  closed = true;
  for (std::size_t i = 0; i < spliced.size(); ++i) {
    if (spliced.compare(i, 2, "/*") == 0) {
      const std::size_t end = spliced.find("*/", i + 2);
      if (end == std::string::npos) {
        closed = false;
        return {};
      }
      out += ' ';
      i = end + 1;
    } else if (spliced.compare(i, 2, "//") == 0) {
      i = spliced.find('\n', i);
      if (i == std::string::npos) break;
      out += '\n';
    } else {
      out += spliced[i];
    }
  }
  return out;
}

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

void check_text(const std::string& text) {
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if (!(byte >= 0x20 && byte < 0x7f) && ch != '\n' && ch != '\t') {
      fail("a byte outside printable ASCII", text);
    }
  }
  bool closed = false;
  const std::string code = without_comments(text, closed);
  if (!closed) fail("a comment that does not close", text);
  for (const std::string_view word : {"c_code", "c_decl", "c_expr", "c_state", "c_track"}) {
    for (std::size_t at = code.find(word); at != std::string::npos; at = code.find(word, at + 1)) {
      const bool starts = at == 0 || !is_word_char(code[at - 1]);
      const bool ends = at + word.size() >= code.size() || !is_word_char(code[at + word.size()]);
      if (starts && ends) fail("embedded C outside a comment: " + std::string(word), text);
    }
  }
  std::size_t line = 0;
  while (line < code.size()) {
    std::size_t end = code.find('\n', line);
    if (end == std::string::npos) end = code.size();
    const std::string_view l(code.data() + line, end - line);
    const std::size_t first = l.find_first_not_of(" \t");
    if (first != std::string_view::npos && l[first] == '#') {
      const std::string_view d = l.substr(first);
      const bool ours = d.starts_with("#define LH_CHECK ") ||
                        d.starts_with("#define LH_DISPATCH ") || d == "#ifdef LH_PROGRESS" ||
                        d == "#else" || d == "#endif";
      if (!ours) fail("a preprocessor line the generator does not write", text);
    }
    line = end + 1;
  }
}

// A private directory for SPIN's files, removed when the fuzzer exits.
const fs::path& work_dir() {
  static const fs::path dir = [] {
    std::string templ = (fs::temp_directory_path() / "loophole-fuzz-promela-XXXXXX").string();
    if (::mkdtemp(templ.data()) == nullptr) {
      std::perror("fuzz_promela: mkdtemp");
      std::abort();
    }
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(work_dir(), ec);
    });
    return fs::path(templ);
  }();
  return dir;
}

// `spin -a model.pml` in the work directory: its exit status (-1 when it did
// not exit), its output in spin.log.
int spin_parse(const std::string& text) {
  const fs::path& dir = work_dir();
  std::ofstream(dir / "model.pml", std::ios::binary | std::ios::trunc) << text;
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::perror("fuzz_promela: fork");
    std::abort();
  }
  if (pid == 0) {
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    const int out = ::open("spin.log", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out >= 0) {
      ::dup2(out, 1);
      ::dup2(out, 2);
    }
    ::alarm(10);  // SPIN gets this long (the fuzzer's -timeout is shorter)
    ::execlp("spin", "spin", "-o2", "-a", "model.pml", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string read_log() {
  std::ifstream in(work_dir() / "spin.log");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16 * 1024) return 0;
  const auto in = loophole::fuzz::load_input(data, size);
  if (!in->game) return 0;
  const loophole::model::Game& game = *in->game;
  // A small scope: the export grows with players, slots and stack.
  if (game.players > 3 || game.slots.size() > 64 || game.scope.stack > 4) return 0;
  std::string text;
  try {
    text =
        loophole::promela::to_promela(game, "rulesets/*/ c_code { abort(); } /*\\\n?\?/fuzz.yaml");
  } catch (const loophole::promela::Unsupported&) {
    return 0;  // values beyond 32 bits: refused, as documented
  }
  if (text.size() > 512 * 1024) return 0;
  check_text(text);
  const int status = spin_parse(text);
  if (status == 127) {
    std::fprintf(stderr, "fuzz_promela: spin is not installed (scripts/setup installs it)\n");
    std::abort();
  }
  if (status != 0) fail("spin -a exited " + std::to_string(status) + ":\n" + read_log(), text);
  return 0;
}
