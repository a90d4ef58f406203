// Runs Graphviz's `dot` to turn DOT into SVG, for `loophole graph --format svg`
// and the HTML report. `dot` is a program, not a library, so this is the one
// place loophole starts another process: the DOT goes through a temporary
// file, the SVG comes back through a pipe.
#include "loophole/reports/graphviz.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

namespace loophole::reports {

std::optional<std::string> dot_to_svg(const std::string& dot, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path tmp =
      fs::temp_directory_path(ec) /
      fmt::format("loophole-{}-{}.dot", ::getpid(), reinterpret_cast<std::uintptr_t>(&dot));
  {
    std::ofstream f(tmp, std::ios::binary);
    f << dot;
    if (!f) {
      error = fmt::format("cannot write '{}'", tmp.string());
      return std::nullopt;
    }
  }
  const std::string cmd = fmt::format("dot -Tsvg '{}' 2>&1", tmp.string());
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) {
    fs::remove(tmp, ec);
    error = "cannot run 'dot' (install graphviz)";
    return std::nullopt;
  }
  std::string out;
  char buf[8192];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  fs::remove(tmp, ec);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    error = code == 127 ? "cannot run 'dot' (install graphviz)"
                        : fmt::format("'dot' failed: {}", out.substr(0, out.find('\n')));
    return std::nullopt;
  }
  return out;
}

}  // namespace loophole::reports
