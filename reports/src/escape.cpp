// The escaping layer of the reports (escape.hpp): one function per target
// language, each built on the UTF-8 repair below, so a renderer never writes
// a byte of untrusted text that its format does not treat as plain text.
#include "loophole/reports/escape.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "loophole/model/source.hpp"

namespace loophole::reports {
namespace {

constexpr std::string_view replacement = "\xEF\xBF\xBD";  // U+FFFD

// Calls `emit(character, first_byte)` for each character of valid_utf8(text).
template <typename Emit>
void each_character(std::string_view text, Emit&& emit) {
  const std::string valid = valid_utf8(text);
  const std::string_view v(valid);
  for (std::size_t at = 0; at < v.size();) {
    const auto c = static_cast<unsigned char>(v[at]);
    const std::size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    emit(v.substr(at, n), c);
    at += n;
  }
}

// C0 controls, DEL and the C1 controls (U+0080..U+009F: C2 80..C2 9F).
bool is_control(std::string_view ch, unsigned char first) {
  if (ch.size() == 1) return first < 0x20 || first == 0x7F;
  return ch.size() == 2 && first == 0xC2 && static_cast<unsigned char>(ch[1]) <= 0x9F;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t bad; (bad = model::invalid_utf8_at(text)) != std::string_view::npos;) {
    out += text.substr(0, bad);
    out += replacement;
    text.remove_prefix(bad + 1);
  }
  out += text;
  return out;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  each_character(text, [&](std::string_view ch, unsigned char c) {
    switch (c) {
      case '&':
        out += "&amp;";
        return;
      case '<':
        out += "&lt;";
        return;
      case '>':
        out += "&gt;";
        return;
      case '"':
        out += "&quot;";
        return;
      case '\'':
        out += "&#39;";
        return;
      case '\n':
      case '\t':
        out += ch;
        return;
      default:
        out += is_control(ch, c) ? replacement : ch;
    }
  });
  return out;
}

std::string markdown_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  each_character(text, [&](std::string_view ch, unsigned char c) {
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
      case '~':
      case '!':
      case '#':
        out += '\\';
        out += ch;
        return;
      case '<':
        out += "&lt;";
        return;
      case '>':
        out += "&gt;";
        return;
      case '&':
        out += "&amp;";
        return;
      case '@':
        out += "&#64;";
        return;
      default:
        out += is_control(ch, c) ? std::string_view(" ") : ch;
    }
  });
  return out;
}

namespace {

std::size_t longest_backtick_run(std::string_view text) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string markdown_code(std::string_view text) {
  std::string body;
  each_character(text, [&](std::string_view ch, unsigned char c) {
    body += is_control(ch, c) ? std::string_view(" ") : ch;
  });
  const std::size_t run = longest_backtick_run(body);
  if (run == 0) return fmt::format("`{}`", body);
  const std::string fence(run + 1, '`');
  return fmt::format("{} {} {}", fence, body, fence);
}

std::string markdown_fence(std::string_view text) {
  return std::string(std::max<std::size_t>(3, longest_backtick_run(text) + 1), '`');
}

std::string uri_reference(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (plain) {
      out += ch;
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string json_dump(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace loophole::reports
