// --sweep reports each finding once, at the smallest scope that has it, with
// the values it appears at.
#include "sweep.hpp"

#include <gtest/gtest.h>

namespace loophole::cli {
namespace {

using properties::Finding;
using properties::Kind;

Finding finding(Kind kind, const std::string& rule, const std::string& message) {
  Finding f;
  f.kind = kind;
  f.rule = rule;
  f.message = message;
  return f;
}

reports::RulesetReport run(std::int64_t value, std::vector<Finding> findings) {
  reports::RulesetReport r;
  r.file = "rules.yaml";
  r.swept = "deck";
  r.swept_value = value;
  r.findings = std::move(findings);
  return r;
}

TEST(Sweep, FormatsValuesAsRanges) {
  EXPECT_EQ("", format_values({}));
  EXPECT_EQ("3", format_values({3}));
  EXPECT_EQ("1..3", format_values({1, 2, 3}));
  EXPECT_EQ("1, 3..5, 8", format_values({1, 3, 4, 5, 8}));
  EXPECT_EQ("-1..0, 2", format_values({-1, 0, 2}));
}

TEST(Sweep, KeepsEachFindingAtItsSmallestScope) {
  std::vector<reports::RulesetReport> runs;
  runs.push_back(run(1, {finding(Kind::rule_gap, "step:main.draw", "deck 1")}));
  runs.push_back(run(2, {finding(Kind::deadlock, "step:main.play", "deck 2"),
                         finding(Kind::rule_gap, "step:main.draw", "deck 2")}));
  runs.push_back(run(3, {finding(Kind::deadlock, "step:main.play", "deck 3")}));
  runs.push_back(run(4, {finding(Kind::rule_gap, "step:main.draw", "deck 4"),
                         finding(Kind::deadlock, "step:main.play", "deck 4"),
                         finding(Kind::dead_rule, "step:main.play", "deck 4")}));
  merge_sweep(runs);
  ASSERT_EQ(1u, runs[0].findings.size());
  EXPECT_EQ("deck 1", runs[0].findings[0].message);
  EXPECT_EQ(std::vector<std::string>{"appears with deck = 1..2, 4 of the sweep 1..4; smallest "
                                     "scope deck = 1"},
            runs[0].findings[0].details);
  ASSERT_EQ(1u, runs[1].findings.size());
  EXPECT_EQ("deck 2", runs[1].findings[0].message);
  EXPECT_EQ(std::vector<std::string>{"appears with deck = 2..4 of the sweep 1..4; smallest scope "
                                     "deck = 2"},
            runs[1].findings[0].details);
  EXPECT_TRUE(runs[2].findings.empty());
  // The dead rule has the deadlock's rule but another kind: a finding of its own.
  ASSERT_EQ(1u, runs[3].findings.size());
  EXPECT_EQ(Kind::dead_rule, runs[3].findings[0].kind);
  EXPECT_EQ(std::vector<std::string>{"appears with deck = 4 of the sweep 1..4; smallest scope "
                                     "deck = 4"},
            runs[3].findings[0].details);
}

TEST(Sweep, LoopsOfAnotherClassOrPlayerAreOtherFindings) {
  auto optional = [](int player) {
    Finding f = finding(Kind::response_loop, "action:ward", "loop");
    f.loop = properties::LoopClass::optional_one;
    f.loop_player = player;
    return f;
  };
  std::vector<reports::RulesetReport> runs;
  runs.push_back(run(2, {optional(0)}));
  runs.push_back(run(3, {optional(0), optional(1)}));
  merge_sweep(runs);
  ASSERT_EQ(1u, runs[0].findings.size());
  EXPECT_EQ("appears at every value of the sweep deck = 2..3; smallest scope deck = 2",
            runs[0].findings[0].details.at(0));
  ASSERT_EQ(1u, runs[1].findings.size());
  EXPECT_EQ(1, runs[1].findings[0].loop_player);
}

TEST(Sweep, OneValueIsLeftAlone) {
  std::vector<reports::RulesetReport> runs;
  runs.push_back(run(2, {finding(Kind::deadlock, "step:main.play", "x")}));
  merge_sweep(runs);
  EXPECT_TRUE(runs[0].findings[0].details.empty());
}

}  // namespace
}  // namespace loophole::cli
