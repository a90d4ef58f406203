// The Promela export's escaping (checker/promela/src/promela_text.hpp) on
// hostile text: whatever a name holds, it stays inside its comment, as
// printable ASCII, and ordinary names pass unchanged.
#include "promela_text.hpp"

#include <string>

#include <gtest/gtest.h>

#include "hostile_names.hpp"

namespace loophole::promela::detail {
namespace {

// What could end the comment or reach the preprocessor from inside it.
void expect_inert(const std::string& escaped) {
  for (const char ch : escaped) {
    const auto byte = static_cast<unsigned char>(ch);
    EXPECT_TRUE(byte >= 0x20 && byte < 0x7f) << escaped;
  }
  for (const char* bad : {"*/", "/*", "??", "\\\n"}) {
    EXPECT_EQ(escaped.find(bad), std::string::npos) << bad << " in " << escaped;
  }
  // A backslash only ever starts a spelled byte.
  for (std::size_t i = escaped.find('\\'); i != std::string::npos; i = escaped.find('\\', i + 1)) {
    ASSERT_LT(i + 3, escaped.size()) << escaped;
    EXPECT_EQ(escaped[i + 1], 'x') << escaped;
  }
}

TEST(PromelaText, OrdinaryNamesPassUnchanged) {
  for (const std::string name :
       {"cosmere", "Speed Biomes (pool game)", "rulesets/cosmere.yaml", "life[P1]",
        "field[P2][0].damage", "a - b + c", "x*y/z", "what?", "100%"}) {
    EXPECT_EQ(comment_text(name), name);
  }
}

TEST(PromelaText, CommentTextCannotCloseOrSpliceTheComment) {
  EXPECT_EQ(comment_text("*/ c_code { x } /*"), "*\\x2f c_code { x } /\\x2a");
  EXPECT_EQ(comment_text("**/"), "**\\x2f");
  EXPECT_EQ(comment_text("a\\"), "a\\x5c");
  EXPECT_EQ(comment_text("line\nbreak"), "line\\x0abreak");
  EXPECT_EQ(comment_text("cr\r"), "cr\\x0d");
  EXPECT_EQ(comment_text("?\?/"), "?\\x3f/");
  EXPECT_EQ(comment_text("???"), "?\\x3f\\x3f");
  EXPECT_EQ(comment_text("\x1b[31m"), "\\x1b[31m");
  EXPECT_EQ(comment_text("\xc3\xb6"), "\\xc3\\xb6");
  EXPECT_EQ(comment_text(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(comment_text("%s%n"), "%s%n");
  EXPECT_EQ(comment_text(""), "");
  for (const std::string& name : test_support::hostile_names("/tmp/marker")) {
    SCOPED_TRACE(name);
    expect_inert(comment_text(name));
    // Followed by what the export writes after it, the comment still ends once.
    const std::string comment = "/* '" + comment_text(name) + "' */";
    EXPECT_EQ(comment.find("*/"), comment.size() - 2);
  }
}

TEST(PromelaText, IdentifierTailsAreLettersDigitsAndUnderscores) {
  EXPECT_EQ(identifier_tail("ctl.active"), "ctl_active");
  EXPECT_EQ(identifier_tail("field[P2][0].damage"), "field_P2_0_damage");
  EXPECT_EQ(identifier_tail("*/ c_code { x } /*"), "c_code_x");
  EXPECT_EQ(identifier_tail("\xc3\xb6\n\x1b"), "");
  for (const std::string& name : test_support::hostile_names("/tmp/marker")) {
    const std::string tail = identifier_tail(name);
    EXPECT_LE(tail.size(), 40U);
    EXPECT_TRUE(tail.empty() || tail.front() != '_') << tail;
    for (const char ch : tail) {
      EXPECT_TRUE((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '_')
          << tail;
    }
  }
}

}  // namespace
}  // namespace loophole::promela::detail
