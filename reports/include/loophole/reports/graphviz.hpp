// SVG from DOT through Graphviz's `dot` program (package graphviz).
#pragma once

#include <optional>
#include <string>

namespace loophole::reports {

// The SVG `dot -Tsvg` makes of `dot`, or nullopt with `error` set (dot
// missing or failing).
std::optional<std::string> dot_to_svg(const std::string& dot, std::string& error);

}  // namespace loophole::reports
