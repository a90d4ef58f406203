// The command line's value syntaxes: what is accepted, and the exact message
// for what is not.
#include "options.hpp"

#include <gtest/gtest.h>

namespace loophole::cli {
namespace {

TEST(ParseParam, AcceptsNameEqualsInteger) {
  std::string error;
  const auto a = parse_param("deck=4", error);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->name, "deck");
  EXPECT_EQ(a->value, 4);
  const auto b = parse_param("hand_limit=-2", error);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->value, -2);
}

TEST(ParseParam, RejectsMissingEquals) {
  std::string error;
  EXPECT_FALSE(parse_param("deck", error).has_value());
  EXPECT_EQ(error, "expected NAME=VALUE, found 'deck'");
}

TEST(ParseParam, RejectsNonInteger) {
  std::string error;
  EXPECT_FALSE(parse_param("deck=four", error).has_value());
  EXPECT_EQ(error, "value of param 'deck' must be an integer, found 'four'");
  EXPECT_FALSE(parse_param("deck=", error).has_value());
  EXPECT_EQ(error, "value of param 'deck' must be an integer, found ''");
}

TEST(ParseParam, RejectsOverflowAndBadNames) {
  std::string error;
  EXPECT_FALSE(parse_param("deck=99999999999", error).has_value());
  EXPECT_EQ(error, "value of param 'deck' must be an integer, found '99999999999'");
  EXPECT_FALSE(parse_param("9deck=1", error).has_value());
  EXPECT_EQ(error, "invalid param name '9deck'");
}

TEST(ParseSweep, AcceptsRange) {
  std::string error;
  const auto s = parse_sweep("deck=1..8", error);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->name, "deck");
  EXPECT_EQ(s->from, 1);
  EXPECT_EQ(s->to, 8);
}

TEST(ParseSweep, RejectsEmptyAndHugeRanges) {
  std::string error;
  EXPECT_FALSE(parse_sweep("deck=8..1", error).has_value());
  EXPECT_EQ(error, "empty sweep range 8..1");
  EXPECT_FALSE(parse_sweep("deck=1..5000", error).has_value());
  EXPECT_EQ(error, "sweep of 5000 values is too large (at most 1001)");
  EXPECT_FALSE(parse_sweep("deck=1-8", error).has_value());
  EXPECT_EQ(error, "expected NAME=FROM..TO, found 'deck=1-8'");
}

TEST(ParseBytes, Units) {
  std::string error;
  EXPECT_EQ(parse_bytes("512M", error), 512ull << 20);
  EXPECT_EQ(parse_bytes("4G", error), 4ull << 30);
  EXPECT_EQ(parse_bytes("100", error), 100ull);
  EXPECT_FALSE(parse_bytes("lots", error).has_value());
  EXPECT_EQ(error, "expected a memory size such as 512M or 4G, found 'lots'");
  EXPECT_FALSE(parse_bytes("0G", error).has_value());
}

TEST(ParseSeconds, Units) {
  std::string error;
  EXPECT_EQ(parse_seconds("30", error), 30.0);
  EXPECT_EQ(parse_seconds("30s", error), 30.0);
  EXPECT_EQ(parse_seconds("5m", error), 300.0);
  EXPECT_EQ(parse_seconds("1500ms", error), 1.5);
  EXPECT_FALSE(parse_seconds("ms", error).has_value());
  EXPECT_FALSE(parse_seconds("-1", error).has_value());
  EXPECT_EQ(error, "expected a duration such as 30s or 5m, found '-1'");
}

}  // namespace
}  // namespace loophole::cli
