// The escaping layer of the reports (escape.hpp): one function per target
// language, each built on the UTF-8 repair below, so a renderer never writes
// a byte of untrusted text that its format does not treat as plain text.
#include "loophole/reports/escape.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace loophole::reports {
namespace {

constexpr std::string_view replacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the well-formed UTF-8 sequence at the start of `s`, or 0.
std::size_t sequence_length(std::string_view s) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong forms
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // no overlong forms
    if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < n || b(1) < lo || b(1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i) {
    if (b(i) < 0x80 || b(i) > 0xBF) return 0;
  }
  return n;
}

// Calls `emit(code_point_text, first_byte)` for each well-formed sequence of
// `text` and `emit(replacement, 0)` for each byte that is not part of one.
template <typename Emit>
void each_character(std::string_view text, Emit&& emit) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t n = sequence_length(text.substr(at));
    if (n == 0) {
      emit(replacement, 0);
      ++at;
    } else {
      emit(text.substr(at, n), static_cast<unsigned char>(text[at]));
      at += n;
    }
  }
}

// C1 controls (U+0080..U+009F) are two bytes in UTF-8: C2 80..C2 9F.
bool is_c1(std::string_view ch) {
  return ch.size() == 2 && static_cast<unsigned char>(ch[0]) == 0xC2 &&
         static_cast<unsigned char>(ch[1]) <= 0x9F;
}

bool is_control(std::string_view ch, unsigned char first) {
  return (ch.size() == 1 && (first < 0x20 || first == 0x7F)) || is_c1(ch);
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  each_character(text, [&](std::string_view ch, unsigned char) { out += ch; });
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

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  each_character(text, [&](std::string_view ch, unsigned char c) {
    if (c == '\n' || c == '\t' || !is_control(ch, c)) {
      out += ch;
    } else if (ch.size() == 1) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(ch[1]));
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

std::string json_dump(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace loophole::reports
