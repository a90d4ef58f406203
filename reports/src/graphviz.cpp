// Runs Graphviz's `dot` to turn DOT into SVG, for `loophole graph --format svg`
// and the HTML report. `dot` is a program, not a library: it is started
// without a shell (process.hpp), reads the DOT on its standard input and
// writes the SVG to its standard output, so no temporary file exists that
// another user could plant or read.
#include "loophole/reports/graphviz.hpp"

#include <fmt/format.h>

#include "loophole/reports/process.hpp"

namespace loophole::reports {

std::optional<std::string> dot_to_svg(const std::string& dot, std::string& error) {
  std::string why;
  const auto r = run_process({"dot", "-Tsvg"}, dot, why);
  if (!r) {
    error = "cannot run 'dot' (install graphviz)";
    return std::nullopt;
  }
  if (r->exit_code != 0) {
    const std::string& text = r->err.empty() ? r->out : r->err;
    error = fmt::format("'dot' failed: {}", text.substr(0, text.find('\n')));
    return std::nullopt;
  }
  return r->out;
}

}  // namespace loophole::reports
