// Tokens of the rules language (private to model/). The lexer turns one YAML
// scalar's text into a token vector up front so the parser can look ahead
// freely. Newlines matter only in statement lists, so they become tokens only
// when asked for, and never inside parentheses or brackets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/source.hpp"

namespace loophole::model {

enum class Tok : std::uint8_t {
  end,  // end of the text
  newline,
  identifier,
  integer,
  // operators and punctuation
  assign,        // :=
  plus_assign,   // +=
  minus_assign,  // -=
  eq,            // ==
  ne,            // !=
  le,            // <=
  ge,            // >=
  lt,            // <
  gt,            // >
  plus,
  minus,
  star,
  slash,
  percent,
  lparen,
  rparen,
  lbracket,
  rbracket,
  comma,
  dot,
  colon,
  semicolon,
  dotdot,  // ..
  // keywords
  kw_and,
  kw_or,
  kw_not,
  kw_if,
  kw_then,
  kw_elif,
  kw_else,
  kw_end,
  kw_for,
  kw_in,
  kw_do,
  kw_choose,
  kw_pick,
  kw_where,
  kw_exists,
  kw_forall,
  kw_count,
  kw_sum,
  kw_true,
  kw_false,
  kw_tag,
};

struct Token {
  Tok kind = Tok::end;
  std::uint32_t offset = 0;  // byte offset in the text
  std::uint32_t length = 0;
  std::string_view text;   // the token as written (empty for `end`)
  std::int64_t value = 0;  // integers
};

// The fixed spelling of an operator or keyword ("'+='", "'then'"), or a
// description for the others ("identifier", "newline", "end of expression").
std::string_view token_name(Tok kind);

// Whether `word` is one of the expression language's keywords ("and", "for").
bool is_keyword(std::string_view word);

// How a concrete token reads in "found ..." messages: "'x'", "'3'", "'do'",
// "newline", "end of expression".
std::string describe(const Token& token);

// Splits `text` into tokens ending with Tok::end. With `keep_newlines`, line
// breaks outside parentheses and brackets become (collapsed) Tok::newline
// tokens; otherwise they are whitespace. On a lexical error (unexpected
// character, malformed or too large integer) reports one diagnostic and
// returns nullopt.
std::optional<std::vector<Token>> lex(std::string_view text, const TextOrigin& origin,
                                      DiagnosticSink& sink, bool keep_newlines);

// Largest integer literal: 2^31 - 1 (every value fits the engines' int32 slots).
inline constexpr std::int64_t k_max_integer_literal = 2147483647;

// Length (2 to 4) of the multibyte UTF-8 sequence starting at text[i], or 0
// if none starts there (ASCII included). The lexer's, and dot_text.cpp's.
[[nodiscard]] std::size_t utf8_length(std::string_view text, std::size_t i);

}  // namespace loophole::model
