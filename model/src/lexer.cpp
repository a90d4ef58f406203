// The lexer of the rules language: a single forward scan producing the whole
// token vector. Errors are lexical only (a character that starts no token, an
// integer that is malformed or exceeds 2^31-1); the first one is reported and
// lexing stops, so the parser never sees a broken stream. Keywords are
// reserved; words with a meaning only in some positions (`players`, `kinds`,
// `skip`, ...) stay identifiers and the parser reads them in context.
#include "lexer.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>

namespace loophole::model {

namespace {

struct Keyword {
  std::string_view word;
  Tok kind;
};

constexpr std::array k_keywords{
    Keyword{"and", Tok::kw_and},       Keyword{"or", Tok::kw_or},
    Keyword{"not", Tok::kw_not},       Keyword{"if", Tok::kw_if},
    Keyword{"then", Tok::kw_then},     Keyword{"elif", Tok::kw_elif},
    Keyword{"else", Tok::kw_else},     Keyword{"end", Tok::kw_end},
    Keyword{"for", Tok::kw_for},       Keyword{"in", Tok::kw_in},
    Keyword{"do", Tok::kw_do},         Keyword{"choose", Tok::kw_choose},
    Keyword{"pick", Tok::kw_pick},     Keyword{"where", Tok::kw_where},
    Keyword{"exists", Tok::kw_exists}, Keyword{"forall", Tok::kw_forall},
    Keyword{"count", Tok::kw_count},   Keyword{"sum", Tok::kw_sum},
    Keyword{"true", Tok::kw_true},     Keyword{"false", Tok::kw_false},
    Keyword{"tag", Tok::kw_tag},
};

struct Symbol {
  std::string_view spelling;
  Tok kind;
};

// Longest spellings first so that `:=` wins over `:` and `..` over `.`.
constexpr std::array k_symbols{
    Symbol{":=", Tok::assign},  Symbol{"+=", Tok::plus_assign}, Symbol{"-=", Tok::minus_assign},
    Symbol{"==", Tok::eq},      Symbol{"!=", Tok::ne},          Symbol{"<=", Tok::le},
    Symbol{">=", Tok::ge},      Symbol{"..", Tok::dotdot},      Symbol{"<", Tok::lt},
    Symbol{">", Tok::gt},       Symbol{"+", Tok::plus},         Symbol{"-", Tok::minus},
    Symbol{"*", Tok::star},     Symbol{"/", Tok::slash},        Symbol{"%", Tok::percent},
    Symbol{"(", Tok::lparen},   Symbol{")", Tok::rparen},       Symbol{"[", Tok::lbracket},
    Symbol{"]", Tok::rbracket}, Symbol{",", Tok::comma},        Symbol{".", Tok::dot},
    Symbol{":", Tok::colon},    Symbol{";", Tok::semicolon},
};

bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_identifier_char(char c) { return is_identifier_start(c) || is_digit(c); }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// A hint for characters that other languages spell differently.
std::string_view hint_for(char c) {
  switch (c) {
    case '=':
      return "use ':=' to assign or '==' to compare";
    case '!':
      return "use 'not' for negation";
    case '&':
      return "use 'and'";
    case '|':
      return "use 'or'";
    default:
      return {};
  }
}

}  // namespace

bool is_keyword(std::string_view word) {
  return std::any_of(k_keywords.begin(), k_keywords.end(),
                     [word](const Keyword& k) { return k.word == word; });
}

std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  std::size_t n = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0U) != 0x80U) return 0;
  }
  return n;
}

std::string_view token_name(Tok kind) {
  switch (kind) {
    case Tok::end:
      return "end of expression";
    case Tok::newline:
      return "newline";
    case Tok::identifier:
      return "identifier";
    case Tok::integer:
      return "integer";
    default:
      break;
  }
  for (const Symbol& s : k_symbols) {
    if (s.kind == kind) return s.spelling;
  }
  for (const Keyword& k : k_keywords) {
    if (k.kind == kind) return k.word;
  }
  return "token";
}

std::string describe(const Token& token) {
  if (token.kind == Tok::end || token.kind == Tok::newline)
    return std::string(token_name(token.kind));
  return "'" + std::string(token.text) + "'";
}

std::optional<std::vector<Token>> lex(std::string_view text, const TextOrigin& origin,
                                      DiagnosticSink& sink, bool keep_newlines) {
  std::vector<Token> tokens;
  if (text.size() > UINT32_MAX) {  // offsets are 32-bit
    sink.error(origin.at(text, 0, 0), "expression text is too long");
    return std::nullopt;
  }
  std::size_t i = 0;
  int nesting = 0;  // open ( and [: newlines inside them are whitespace
  auto push = [&](Tok kind, std::size_t begin, std::size_t end, std::int64_t value = 0) {
    tokens.push_back(Token{kind, static_cast<std::uint32_t>(begin),
                           static_cast<std::uint32_t>(end - begin), text.substr(begin, end - begin),
                           value});
  };
  auto fail = [&](std::size_t begin, std::size_t length,
                  std::string message) -> std::optional<std::vector<Token>> {
    sink.error(origin.at(text, begin, length), std::move(message));
    return std::nullopt;
  };

  while (i < text.size()) {
    const char c = text[i];
    if (is_blank(c)) {
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '\n') {
      if (keep_newlines && nesting == 0 && !tokens.empty() && tokens.back().kind != Tok::newline) {
        push(Tok::newline, i, i + 1);
      }
      ++i;
      continue;
    }
    if (is_identifier_start(c)) {
      const std::size_t begin = i;
      while (i < text.size() && is_identifier_char(text[i])) ++i;
      const std::string_view word = text.substr(begin, i - begin);
      Tok kind = Tok::identifier;
      for (const Keyword& k : k_keywords) {
        if (k.word == word) kind = k.kind;
      }
      push(kind, begin, i);
      continue;
    }
    if (is_digit(c)) {
      const std::size_t begin = i;
      std::int64_t value = 0;
      bool too_large = false;
      while (i < text.size() && is_digit(text[i])) {
        value = value * 10 + (text[i] - '0');
        if (value > k_max_integer_literal) {
          too_large = true;
          value = k_max_integer_literal;  // keep accumulating safely
        }
        ++i;
      }
      if (i < text.size() && is_identifier_char(text[i])) {
        while (i < text.size() && is_identifier_char(text[i])) ++i;
        return fail(begin, i - begin,
                    "invalid integer literal '" + std::string(text.substr(begin, i - begin)) + "'");
      }
      if (too_large) {
        return fail(begin, i - begin,
                    "integer literal '" + std::string(text.substr(begin, i - begin)) +
                        "' is too large (maximum is " + std::to_string(k_max_integer_literal) +
                        ")");
      }
      push(Tok::integer, begin, i, value);
      continue;
    }
    const Symbol* symbol = nullptr;
    for (const Symbol& s : k_symbols) {
      if (text.substr(i, s.spelling.size()) == s.spelling) {
        symbol = &s;
        break;
      }
    }
    if (symbol != nullptr) {
      if (symbol->kind == Tok::lparen || symbol->kind == Tok::lbracket) ++nesting;
      if ((symbol->kind == Tok::rparen || symbol->kind == Tok::rbracket) && nesting > 0) --nesting;
      push(symbol->kind, i, i + symbol->spelling.size());
      i += symbol->spelling.size();
      continue;
    }
    if (const std::size_t n = utf8_length(text, i); n != 0) {
      return fail(i, n, "unexpected character '" + std::string(text.substr(i, n)) + "'");
    }
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F) {
      constexpr std::string_view digits = "0123456789abcdef";
      std::string hex = "0x";
      hex += digits[byte >> 4U];
      hex += digits[byte & 0xFU];
      return fail(i, 1, "unexpected byte " + hex);
    }
    Diagnostic& d =
        sink.error(origin.at(text, i, 1), "unexpected character '" + std::string(1, c) + "'");
    if (const std::string_view hint = hint_for(c); !hint.empty())
      DiagnosticSink::note(d, SourceSpan{}, std::string(hint));
    return std::nullopt;
  }
  // A trailing newline separates nothing. The end token sits right after the
  // last real token, so "unexpected end" points at the text, not past it.
  if (!tokens.empty() && tokens.back().kind == Tok::newline) tokens.pop_back();
  const std::size_t end_offset = tokens.empty() ? 0 : tokens.back().offset + tokens.back().length;
  push(Tok::end, end_offset, end_offset);
  return tokens;
}

}  // namespace loophole::model
