// Parsing of the command line's value syntaxes (`NAME=V`, `NAME=A..B`, `4G`,
// `30s`): small pure functions, so they are unit tested without a process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loophole::cli {

struct ParamAssignment {
  std::string name;
  std::int64_t value = 0;
};

struct Sweep {
  std::string name;
  std::int64_t from = 0, to = 0;
};

// Each returns nullopt and sets `error` (a lowercase message) on bad input.
std::optional<ParamAssignment> parse_param(const std::string& text, std::string& error);
std::optional<Sweep> parse_sweep(const std::string& text, std::string& error);
std::optional<std::uint64_t> parse_bytes(const std::string& text, std::string& error);  // 512M, 4G
std::optional<double> parse_seconds(const std::string& text, std::string& error);  // 30, 30s, 5m

}  // namespace loophole::cli
