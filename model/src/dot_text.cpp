// DOT's escaping (dot_text.hpp): one pass over the bytes, UTF-8 sequences
// recognised by the lexer's own test (lexer.hpp) and kept whole.
#include "dot_text.hpp"

#include "lexer.hpp"

namespace loophole::model {

std::string dot_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    const auto byte = static_cast<unsigned char>(ch);
    if (byte >= 0x80) {
      const std::size_t n = utf8_length(text, i);
      if (n == 0) {
        out += '?';
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += '?';
    } else {
      out += ch;
    }
    ++i;
  }
  return out;
}

std::string dot_quoted(std::string_view text) { return '"' + dot_escaped(text) + '"'; }

}  // namespace loophole::model
