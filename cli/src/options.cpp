// Value syntaxes of the command line. Overflow and junk are rejected with a
// message rather than wrapped or truncated: a scope is part of a verdict.
#include "options.hpp"

#include <charconv>
#include <cmath>

namespace loophole::cli {
namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (const char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

std::optional<std::int64_t> to_int(std::string_view s) {
  std::int64_t v = 0;
  const auto* end = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end || s.empty()) return std::nullopt;
  if (v < -(std::int64_t{1} << 31) || v > (std::int64_t{1} << 31) - 1) return std::nullopt;
  return v;
}

}  // namespace

std::optional<ParamAssignment> parse_param(const std::string& text, std::string& error) {
  const auto eq = text.find('=');
  if (eq == std::string::npos) {
    error = "expected NAME=VALUE, found '" + text + "'";
    return std::nullopt;
  }
  ParamAssignment a{text.substr(0, eq), 0};
  if (!is_identifier(a.name)) {
    error = "invalid param name '" + a.name + "'";
    return std::nullopt;
  }
  const auto v = to_int(std::string_view(text).substr(eq + 1));
  if (!v) {
    error =
        "value of param '" + a.name + "' must be an integer, found '" + text.substr(eq + 1) + "'";
    return std::nullopt;
  }
  a.value = *v;
  return a;
}

std::optional<Sweep> parse_sweep(const std::string& text, std::string& error) {
  const auto eq = text.find('=');
  const auto dots = text.find("..", eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || dots == std::string::npos) {
    error = "expected NAME=FROM..TO, found '" + text + "'";
    return std::nullopt;
  }
  Sweep s{text.substr(0, eq), 0, 0};
  if (!is_identifier(s.name)) {
    error = "invalid param name '" + s.name + "'";
    return std::nullopt;
  }
  const auto from = to_int(std::string_view(text).substr(eq + 1, dots - eq - 1));
  const auto to = to_int(std::string_view(text).substr(dots + 2));
  if (!from || !to) {
    error = "sweep bounds must be integers, found '" + text.substr(eq + 1) + "'";
    return std::nullopt;
  }
  if (*from > *to) {
    error = "empty sweep range " + std::to_string(*from) + ".." + std::to_string(*to);
    return std::nullopt;
  }
  if (*to - *from > 1000) {
    error = "sweep of " + std::to_string(*to - *from + 1) + " values is too large (at most 1001)";
    return std::nullopt;
  }
  s.from = *from;
  s.to = *to;
  return s;
}

std::optional<std::uint64_t> parse_bytes(const std::string& text, std::string& error) {
  std::string digits = text;
  std::uint64_t unit = 1;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K':
      case 'k':
        unit = 1ull << 10;
        digits.pop_back();
        break;
      case 'M':
      case 'm':
        unit = 1ull << 20;
        digits.pop_back();
        break;
      case 'G':
      case 'g':
        unit = 1ull << 30;
        digits.pop_back();
        break;
      default:
        break;
    }
  }
  const auto v = to_int(digits);
  if (!v || *v <= 0) {
    error = "expected a memory size such as 512M or 4G, found '" + text + "'";
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(*v) * unit;
}

std::optional<double> parse_seconds(const std::string& text, std::string& error) {
  std::string digits = text;
  double unit = 1;
  if (digits.size() > 2 && digits.ends_with("ms")) {
    unit = 0.001;
    digits.resize(digits.size() - 2);
  } else if (!digits.empty() &&
             (digits.back() == 's' || digits.back() == 'm' || digits.back() == 'h')) {
    unit = digits.back() == 's' ? 1 : digits.back() == 'm' ? 60 : 3600;
    digits.pop_back();
  }
  const auto v = to_int(digits);
  if (!v || *v <= 0) {
    error = "expected a duration such as 30s or 5m, found '" + text + "'";
    return std::nullopt;
  }
  return static_cast<double>(*v) * unit;
}

}  // namespace loophole::cli
