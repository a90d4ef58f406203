// Conditions (loophole/checker/conditions.hpp) where the compiler gives up:
// the reference answers instead. (That the compiled answers are the
// reference's on every reachable state of every ruleset the repository has
// is checked by the walk of compiled_test.cpp.)
#include "loophole/checker/conditions.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "disagreement.hpp"
#include "load_ruleset.hpp"

namespace loophole::checker {
namespace {

// Conditions the expression machine cannot run (deeper than its stack) run on
// the reference: one property alone, or, when a rule of the game is that
// deep, every condition (the game does not compile).
TEST(Conditions, WhatTheCompilerDoesNotHandleRunsOnTheReference) {
  std::string deep = "x";
  for (int i = 0; i < 70; ++i) deep = "x + (" + deep + ")";  // 71 * x
  const std::string counter = R"yaml(
loophole: 1
game: counter
players: 2
state:
  x: {type: int, range: [0, 2], init: 0}
turn:
  phases:
    - name: main
      steps:
        - name: only
          do: "x := min(2, x + 1)"
)yaml";
  const auto deep_property = testing::load_ruleset(
      "deep-property", counter + "properties:\n  - name: deep\n    always: \"" + deep +
                           " < 100\"\n  - name: plain\n    reachable: \"x == 2\"\n");
  const auto deep_rule = testing::load_ruleset(
      "deep-rule", counter + "          repeat_while: \"" + deep +
                       " < 0\"\nproperties:\n  - name: plain\n    reachable: \"x == 2\"\n");
  ASSERT_TRUE(deep_property->sem && deep_rule->sem);
  for (const auto* r : {deep_property.get(), deep_rule.get()}) {
    const Semantics& sem = *r->sem;
    const auto exprs = testing::all_conditions(*r->game);
    const Conditions c(sem, exprs);
    EXPECT_EQ(c.compiled(), r == deep_property.get() ? 1U : 0U);
    // Every reachable state (x = 0, 1, 2), both outcomes of the deep one.
    std::vector<StateVec> queue = sem.initial_states();
    std::vector<Successor> next;
    const auto& fields = sem.layout().fields;
    const auto x = static_cast<std::size_t>(
        std::find_if(fields.begin(), fields.end(), [](auto& f) { return f.name == "x"; }) -
        fields.begin());
    ASSERT_LT(x, fields.size());
    testing::ConditionTally tally;
    std::set<int> xs;
    for (std::size_t head = 0; head < queue.size() && head < 100; ++head) {
      const StateVec s = queue[head];
      EXPECT_EQ(testing::condition_disagreement(sem, c, exprs, s, tally), "");
      // (The deep condition: 71 * x < 100 in the first; 71 * x < 0 in the second.)
      EXPECT_EQ(c.holds(r == deep_property.get() ? 0 : 2, s), r == deep_property.get() && s[x] < 2);
      xs.insert(s[x]);
      sem.successors(s, next);
      for (const Successor& succ : next) {
        if (std::find(queue.begin(), queue.end(), succ.state) == queue.end()) {
          queue.push_back(succ.state);
        }
      }
    }
    EXPECT_EQ(xs, (std::set<int>{0, 1, 2}));
    EXPECT_GT(tally.held, 0U);
  }
}

}  // namespace
}  // namespace loophole::checker
