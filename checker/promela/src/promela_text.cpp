// The Promela export's escaping (promela_text.hpp): the reduction of user text
// to what may stand in a comment, and the sanitising of generated names.
#include "promela_text.hpp"

namespace loophole::promela::detail {

std::string comment_text(std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  char before = '\0';  // the previous byte of `text` (what the reader sees it follow)
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    const bool printable = byte >= 0x20 && byte < 0x7f;
    const bool breaks = ch == '\\' || (before == '*' && ch == '/') ||
                        (before == '/' && ch == '*') || (before == '?' && ch == '?');
    if (printable && !breaks) {
      out += ch;
    } else {
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 0xf];
    }
    before = ch;
  }
  return out;
}

std::string identifier_tail(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    const bool ok =
        (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    if (ok) {
      out += ch;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.size() > 40) out.resize(40);
  return out;
}

}  // namespace loophole::promela::detail
