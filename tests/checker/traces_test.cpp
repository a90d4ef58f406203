// Traces out of explored graphs of real rulesets: every shortest trace
// replays on the semantics and has the state's BFS depth as its length;
// lassos close their cycle; a trace that does not replay is an internal
// error.
#include <stdexcept>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"

#include "load_ruleset.hpp"

namespace loophole::checker {
namespace {

TEST(Traces, EveryShortestTraceReplays) {
  for (const char* yaml : {testing::windows_yaml, testing::choices_yaml}) {
    const auto r = testing::load_ruleset("game.yaml", yaml);
    ASSERT_TRUE(r->sem);
    const auto g = explore(*r->sem, {});
    ASSERT_EQ(Completion::complete, g->completion());
    const StateId step = g->size() > 300 ? 7 : 1;
    for (StateId id = 0; id < g->size(); id += step) {
      const Trace t = g->trace_to(id);
      ASSERT_EQ(g->depth(id), t.size()) << id;
      EXPECT_EQ(-1, t.loop_start);
      // The moves are the parent links, in order.
      StateId s = id;
      for (std::size_t i = t.size(); i-- > 0;) {
        EXPECT_EQ(g->parent_index(s), t.steps[i].successor) << id;
        s = g->parent(s);
      }
      EXPECT_EQ(g->state(s), r->sem->initial_states()[t.initial]) << id;
    }
  }
}

TEST(Traces, TraceToARuleGap) {
  const auto r = testing::load_ruleset("choices.yaml", testing::choices_yaml);
  ASSERT_TRUE(r->sem);
  const auto g = explore(*r->sem, {});
  const int over = r->sem->layout().over;
  StateId gap = no_state;
  for (StateId id = 0; id < g->size() && gap == no_state; ++id) {
    if (g->state(id)[static_cast<std::size_t>(over)] == 2) gap = id;
  }
  ASSERT_NE(no_state, gap) << "the deck runs dry";
  const Trace t = g->trace_to(gap);
  EXPECT_EQ(g->depth(gap), t.size());
  EXPECT_TRUE(g->edges(gap).empty());
}

// The first cycle found from a state back to one of its BFS ancestors, as
// (the ancestor, the edges of the cycle).
std::pair<StateId, std::vector<Edge>> find_cycle(const ExploredGraph& g) {
  for (StateId u = 0; u < g.size(); ++u) {
    for (const Edge& e : g.edges(u)) {
      std::vector<StateId> down;  // u, parent(u), ..., e.to
      StateId a = u;
      while (a != no_state && a != e.to) {
        down.push_back(a);
        a = g.parent(a);
      }
      if (a != e.to) continue;
      std::vector<Edge> cycle;
      for (std::size_t i = down.size(); i-- > 0;) {
        const StateId child = down[i];
        cycle.push_back(g.edges(g.parent(child))[g.parent_index(child)]);
      }
      cycle.push_back(e);
      return {e.to, cycle};
    }
  }
  return {no_state, {}};
}

TEST(Traces, LassoClosesItsCycle) {
  const auto r = testing::load_ruleset("windows.yaml", testing::windows_yaml);
  ASSERT_TRUE(r->sem);
  const auto g = explore(*r->sem, {});
  const auto [at, cycle] = find_cycle(*g);
  ASSERT_NE(no_state, at);
  const Trace t = g->lasso(at, cycle);
  EXPECT_EQ(static_cast<int>(g->depth(at)), t.loop_start);
  EXPECT_EQ(g->depth(at) + cycle.size(), t.size());
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    EXPECT_EQ(cycle[i].index, t.steps[g->depth(at) + i].successor);
  }
}

TEST(Traces, ACycleThatDoesNotCloseIsAnInternalError) {
  const auto r = testing::load_ruleset("windows.yaml", testing::windows_yaml);
  ASSERT_TRUE(r->sem);
  const auto g = explore(*r->sem, {});
  const auto [at, cycle] = find_cycle(*g);
  ASSERT_NE(no_state, at);
  const std::vector<Edge> away = g->edges(0);  // state 0 (start) only moves on
  ASSERT_FALSE(away.empty());
  ASSERT_NE(0U, away[0].to);
  EXPECT_THROW((void)g->lasso(0, {away[0]}), std::logic_error);
  std::vector<Edge> wrong = cycle;
  wrong.front().index += 1000;
  try {
    (void)g->lasso(at, wrong);
    ADD_FAILURE() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(0,
              std::string(e.what()).rfind("loophole: internal error: trace does not replay: ", 0))
        << e.what();
  }
}

}  // namespace
}  // namespace loophole::checker
