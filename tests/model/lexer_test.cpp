// The lexer: every operator and keyword, integers and their limits, comments,
// newline tokens (kept only for statement lists, collapsed, never inside
// brackets), token offsets, and each lexical error rendered exactly.
#include "lexer.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/model/diagnostics.hpp"

namespace loophole::model {
namespace {

// Tokens as "text text ... $" with `\n` for newline tokens and `$` for the end.
std::string dump(std::string_view text, bool keep_newlines = false) {
  DiagnosticSink sink;
  const auto tokens = lex(text, TextOrigin::at_position("t.yaml", 1, 1), sink, keep_newlines);
  if (!tokens) return "<error>";
  std::string out;
  for (const Token& t : *tokens) {
    if (!out.empty()) out += ' ';
    if (t.kind == Tok::newline) {
      out += "\\n";
    } else if (t.kind == Tok::end) {
      out += '$';
    } else {
      out += t.text;
    }
  }
  return out;
}

std::vector<Tok> kinds(std::string_view text) {
  DiagnosticSink sink;
  const auto tokens = lex(text, TextOrigin::at_position("t.yaml", 1, 1), sink, false);
  std::vector<Tok> out;
  if (tokens) {
    for (const Token& t : *tokens) out.push_back(t.kind);
  }
  return out;
}

// The rendered diagnostic for lexing `text` written after "when: " on line 1.
std::string lex_error(const std::string& text) {
  SourceManager sources;
  sources.add("r.yaml", "when: " + text + "\n");
  DiagnosticSink sink;
  const auto tokens = lex(text, TextOrigin::at_position("r.yaml", 1, 7), sink, true);
  EXPECT_FALSE(tokens.has_value());
  EXPECT_EQ(sink.error_count(), 1U);
  return sink.render(sources);
}

TEST(Lexer, Operators) {
  EXPECT_EQ(
      kinds(":= += -= == != <= >= < > + - * / % ( ) [ ] , . : ; .."),
      (std::vector<Tok>{Tok::assign, Tok::plus_assign, Tok::minus_assign, Tok::eq,      Tok::ne,
                        Tok::le,     Tok::ge,          Tok::lt,           Tok::gt,      Tok::plus,
                        Tok::minus,  Tok::star,        Tok::slash,        Tok::percent, Tok::lparen,
                        Tok::rparen, Tok::lbracket,    Tok::rbracket,     Tok::comma,   Tok::dot,
                        Tok::colon,  Tok::semicolon,   Tok::dotdot,       Tok::end}));
}

TEST(Lexer, OperatorsWithoutSpaces) {
  EXPECT_EQ(dump("a:=b+=c-=d==e!=f<=g>=h<i>j"), "a := b += c -= d == e != f <= g >= h < i > j $");
  EXPECT_EQ(dump("1..n"), "1 .. n $");
  EXPECT_EQ(dump("a.b..c"), "a . b .. c $");
  EXPECT_EQ(dump("x:y"), "x : y $");
  EXPECT_EQ(dump("a--b"), "a - - b $");
}

TEST(Lexer, Keywords) {
  EXPECT_EQ(
      kinds("and or not if then elif else end for in do choose pick where exists forall count sum "
            "true false tag"),
      (std::vector<Tok>{Tok::kw_and,    Tok::kw_or,     Tok::kw_not,  Tok::kw_if,    Tok::kw_then,
                        Tok::kw_elif,   Tok::kw_else,   Tok::kw_end,  Tok::kw_for,   Tok::kw_in,
                        Tok::kw_do,     Tok::kw_choose, Tok::kw_pick, Tok::kw_where, Tok::kw_exists,
                        Tok::kw_forall, Tok::kw_count,  Tok::kw_sum,  Tok::kw_true,  Tok::kw_false,
                        Tok::kw_tag,    Tok::end}));
}

TEST(Lexer, ContextualWordsAreIdentifiers) {
  std::vector<Tok> expected(10, Tok::identifier);
  expected.push_back(Tok::end);
  EXPECT_EQ(kinds("players others kinds skip active P1 _x android iff ends"), expected);
}

TEST(Lexer, IdentifierCharacters) { EXPECT_EQ(dump("hand_2 _a Z9 P1"), "hand_2 _a Z9 P1 $"); }

TEST(Lexer, Integers) {
  DiagnosticSink sink;
  const auto tokens = lex("0 42 007 2147483647", TextOrigin::at_position("t", 1, 1), sink, false);
  ASSERT_TRUE(tokens.has_value());
  ASSERT_EQ(tokens->size(), 5U);
  EXPECT_EQ((*tokens)[0].value, 0);
  EXPECT_EQ((*tokens)[1].value, 42);
  EXPECT_EQ((*tokens)[2].value, 7);
  EXPECT_EQ((*tokens)[3].value, 2147483647);
  EXPECT_FALSE(sink.has_errors());
}

TEST(Lexer, OffsetsAndLengths) {
  DiagnosticSink sink;
  const auto tokens = lex("ab := 12 # c\n  x", TextOrigin::at_position("t", 1, 1), sink, true);
  ASSERT_TRUE(tokens.has_value());
  ASSERT_EQ(tokens->size(), 6U);
  EXPECT_EQ((*tokens)[0].offset, 0U);
  EXPECT_EQ((*tokens)[0].length, 2U);
  EXPECT_EQ((*tokens)[1].offset, 3U);
  EXPECT_EQ((*tokens)[1].length, 2U);
  EXPECT_EQ((*tokens)[2].offset, 6U);
  EXPECT_EQ((*tokens)[3].kind, Tok::newline);
  EXPECT_EQ((*tokens)[3].offset, 12U);
  EXPECT_EQ((*tokens)[4].offset, 15U);
  // The end token sits right after the last real token.
  EXPECT_EQ((*tokens)[5].kind, Tok::end);
  EXPECT_EQ((*tokens)[5].offset, 16U);
  EXPECT_EQ((*tokens)[5].length, 0U);
}

TEST(Lexer, EndTokenIgnoresTrailingBlanksAndComments) {
  DiagnosticSink sink;
  const auto tokens = lex("a +   # more\n\n", TextOrigin::at_position("t", 1, 1), sink, true);
  ASSERT_TRUE(tokens.has_value());
  ASSERT_EQ(tokens->size(), 3U);  // trailing newline dropped
  EXPECT_EQ(tokens->back().offset, 3U);
}

TEST(Lexer, Comments) {
  EXPECT_EQ(dump("a # b c\nd"), "a d $");
  EXPECT_EQ(dump("a # b c\nd", true), "a \\n d $");
  EXPECT_EQ(dump("# only a comment"), "$");
  EXPECT_EQ(dump("x := 1 # := $ @ unexpected characters are fine here"), "x := 1 $");
}

TEST(Lexer, NewlinesOnlyWhenKept) {
  EXPECT_EQ(dump("a\nb"), "a b $");
  EXPECT_EQ(dump("a\nb", true), "a \\n b $");
}

TEST(Lexer, NewlinesCollapsedAndTrimmed) {
  EXPECT_EQ(dump("\n\n a \n\n\n b \n\n", true), "a \\n b $");
  EXPECT_EQ(dump("a\r\nb", true), "a \\n b $");
}

TEST(Lexer, NoNewlinesInsideBrackets) {
  EXPECT_EQ(dump("f(a,\n b)\nx[\n1]\ny", true), "f ( a , b ) \\n x [ 1 ] \\n y $");
  // An unbalanced closer does not disable newlines for the rest of the text.
  EXPECT_EQ(dump(")\na", true), ") \\n a $");
}

TEST(Lexer, EmptyText) {
  EXPECT_EQ(dump(""), "$");
  EXPECT_EQ(dump("   \t  "), "$");
}

TEST(Lexer, TokenNamesAndDescriptions) {
  EXPECT_EQ(token_name(Tok::kw_then), "then");
  EXPECT_EQ(token_name(Tok::assign), ":=");
  EXPECT_EQ(token_name(Tok::dotdot), "..");
  EXPECT_EQ(token_name(Tok::end), "end of expression");
  EXPECT_EQ(token_name(Tok::identifier), "identifier");
  EXPECT_EQ(describe(Token{Tok::identifier, 0, 4, "hand", 0}), "'hand'");
  EXPECT_EQ(describe(Token{Tok::kw_do, 0, 2, "do", 0}), "'do'");
  EXPECT_EQ(describe(Token{Tok::newline, 0, 1, "\n", 0}), "newline");
  EXPECT_EQ(describe(Token{Tok::end, 3, 0, "", 0}), "end of expression");
}

TEST(Lexer, UnexpectedCharacter) {
  EXPECT_EQ(lex_error("coins $ 2"),
            "r.yaml:1:13: error: unexpected character '$'\n"
            "    1 | when: coins $ 2\n"
            "      |             ^\n");
}

TEST(Lexer, UnexpectedCharacterWithHint) {
  EXPECT_EQ(lex_error("coins = 2"),
            "r.yaml:1:13: error: unexpected character '='\n"
            "    1 | when: coins = 2\n"
            "      |             ^\n"
            "note: use ':=' to assign or '==' to compare\n");
  EXPECT_EQ(lex_error("a && b"),
            "r.yaml:1:9: error: unexpected character '&'\n"
            "    1 | when: a && b\n"
            "      |         ^\n"
            "note: use 'and'\n");
  EXPECT_EQ(lex_error("!a"),
            "r.yaml:1:7: error: unexpected character '!'\n"
            "    1 | when: !a\n"
            "      |       ^\n"
            "note: use 'not' for negation\n");
}

TEST(Lexer, UnexpectedUtf8Character) {
  // The caret counts the multi-byte character once.
  EXPECT_EQ(lex_error("a \xc3\xa9 b"),
            "r.yaml:1:9: error: unexpected character '\xc3\xa9'\n"
            "    1 | when: a \xc3\xa9 b\n"
            "      |         ^\n");
}

// The quoted line shows a control byte or a stray byte escaped, never raw,
// and the caret underlines the escape.
TEST(Lexer, UnexpectedByte) {
  EXPECT_EQ(lex_error("a \x01"),
            "r.yaml:1:9: error: unexpected byte 0x01\n"
            "    1 | when: a \\x01\n"
            "      |         ^~~~\n");
  EXPECT_EQ(lex_error("a \xff"),
            "r.yaml:1:9: error: unexpected byte 0xff\n"
            "    1 | when: a \\xff\n"
            "      |         ^~~~\n");
}

TEST(Lexer, IntegerTooLarge) {
  EXPECT_EQ(
      lex_error("x > 2147483648"),
      "r.yaml:1:11: error: integer literal '2147483648' is too large (maximum is 2147483647)\n"
      "    1 | when: x > 2147483648\n"
      "      |           ^~~~~~~~~~\n");
  EXPECT_EQ(
      lex_error("99999999999999999999999999"),
      "r.yaml:1:7: error: integer literal '99999999999999999999999999' is too large (maximum is "
      "2147483647)\n"
      "    1 | when: 99999999999999999999999999\n"
      "      |       ^~~~~~~~~~~~~~~~~~~~~~~~~~\n");
}

TEST(Lexer, InvalidInteger) {
  EXPECT_EQ(lex_error("3abc + 1"),
            "r.yaml:1:7: error: invalid integer literal '3abc'\n"
            "    1 | when: 3abc + 1\n"
            "      |       ^~~~\n");
}

TEST(Lexer, ErrorOnLaterLine) {
  SourceManager sources;
  sources.add("r.yaml", "do: |\n  x := 1\n  y := ?\n");
  TextOrigin origin{"r.yaml", {{2, 3}, {3, 3}}};
  DiagnosticSink sink;
  EXPECT_FALSE(lex("x := 1\ny := ?\n", origin, sink, true).has_value());
  EXPECT_EQ(sink.render(sources),
            "r.yaml:3:8: error: unexpected character '?'\n"
            "    3 |   y := ?\n"
            "      |        ^\n");
}

}  // namespace
}  // namespace loophole::model
