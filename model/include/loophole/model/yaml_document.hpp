// Parsing one YAML file of loophole's (a ruleset, an include, the project
// file) into a yaml-cpp node. Every way that can fail is a located
// diagnostic, never an exception and never the text itself: malformed YAML,
// nesting past yaml-cpp's recursion guard, and a second document, which
// yaml-cpp's Load() would silently drop. The ruleset loader and cli/'s
// project file both read through here.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "loophole/model/diagnostics.hpp"

namespace loophole::model {

// `what` names the file in the one-document message: "a ruleset file".
std::optional<YAML::Node> parse_yaml_document(const std::string& path, const std::string& text,
                                              std::string_view what, DiagnosticSink& sink);

}  // namespace loophole::model
