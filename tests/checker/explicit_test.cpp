// The explicit engine on hand-written transition systems: exact state and
// transition counts, the same graph (every state, parent and edge) as a
// naive reference BFS for 1, 2 and 3 threads, shortest depths, and limits
// that stop a run with the right Completion while keeping a consistent
// prefix of the graph.
#include "loophole/checker/explicit.hpp"

#include <atomic>
#include <chrono>

#include <gtest/gtest.h>

#include "loophole/checker/limits.hpp"

#include "fake_systems.hpp"
#include "load_ruleset.hpp"

namespace loophole::checker {
namespace {

using namespace std::chrono_literals;
using testing::ReferenceGraph;

// On several threads every chunk goes to the team, however small (the
// engine runs small chunks on one thread; ChunkingDoesNotChangeTheGraph
// covers that mix).
std::unique_ptr<ExplicitGraph> run(const TransitionSystem& sys, ExplicitOptions options = {},
                                   int threads = 1) {
  options.threads = threads;
  SearchTuning tuning;
  if (threads > 1) tuning.solo_below = 0;
  return explore_system(sys, options, nullptr, tuning);
}

// Every state, parent, parent index, depth and edge of `g` equals the
// reference's, for the first g.size() states (all of them when complete).
void expect_matches(const ReferenceGraph& ref, const ExplicitGraph& g) {
  ASSERT_LE(g.size(), ref.states.size());
  ASSERT_EQ(ref.initial_count, g.initial_count());
  for (StateId id = 0; id < g.size(); ++id) {
    ASSERT_EQ(ref.states[id], g.state(id)) << "state " << id;
    ASSERT_EQ(ref.parent[id], g.parent(id)) << "state " << id;
    ASSERT_EQ(ref.parent_index[id], g.parent_index(id)) << "state " << id;
    ASSERT_EQ(ref.depth[id], g.depth(id)) << "state " << id;
  }
  for (StateId id = 0; id < g.expanded(); ++id) {
    const std::vector<Edge> edges = g.edges(id);
    ASSERT_EQ(ref.edges[id].size(), edges.size()) << "state " << id;
    for (std::size_t i = 0; i < edges.size(); ++i) {
      ASSERT_TRUE(testing::same_edge(ref.edges[id][i], edges[i]))
          << "state " << id << " edge " << i;
    }
  }
  for (auto id = static_cast<StateId>(g.expanded()); id < g.size(); ++id) {
    ASSERT_TRUE(g.edges(id).empty());
  }
}

TEST(Explicit, TorusHasExactCounts) {
  const testing::Torus torus(5);
  const auto g = run(torus);
  EXPECT_EQ(Completion::complete, g->completion());
  EXPECT_EQ(25U, g->size());
  EXPECT_EQ(25U, g->expanded());
  EXPECT_EQ(1U, g->initial_count());
  const Statistics& s = g->statistics();
  EXPECT_EQ(25U, s.states);
  EXPECT_EQ(50U, s.transitions);
  EXPECT_EQ(9U, s.depth);  // levels 0..8: (4, 4) is 8 moves from (0, 0)
  EXPECT_EQ(1, s.threads);
  EXPECT_GT(s.bytes, 0U);
  EXPECT_DOUBLE_EQ(static_cast<double>(s.bytes) / 25, s.bytes_per_state);
  expect_matches(testing::reference_bfs(torus), *g);
}

TEST(Explicit, EdgesKeepLabels) {
  const testing::Torus torus(3);
  const auto g = run(torus);
  const std::vector<Edge> e = g->edges(0);
  ASSERT_EQ(2U, e.size());
  EXPECT_EQ(1U, e[0].to);  // (1, 0)
  EXPECT_EQ(0U, e[0].index);
  EXPECT_EQ(MoveKind::action, e[0].kind);
  EXPECT_EQ(Chooser::player, e[0].chooser);
  EXPECT_EQ(0, e[0].chooser_player);
  EXPECT_FALSE(e[0].progress);
  EXPECT_EQ(2U, e[1].to);  // (0, 1)
  EXPECT_EQ(1U, e[1].index);
  EXPECT_EQ(MoveKind::advance, e[1].kind);
  EXPECT_EQ(Chooser::none, e[1].chooser);
  EXPECT_EQ(-1, e[1].chooser_player);
  EXPECT_TRUE(e[1].progress);
}

TEST(Explicit, ParentsGiveShortestDepths) {
  const testing::Torus torus(7);
  const auto g = run(torus);
  for (StateId id = 0; id < g->size(); ++id) {
    const StateVec s = g->state(id);
    EXPECT_EQ(static_cast<std::uint32_t>(s[0] + s[1]), g->depth(id)) << id;
    std::uint32_t hops = 0;
    for (StateId p = id; g->parent(p) != no_state; p = g->parent(p)) ++hops;
    EXPECT_EQ(g->depth(id), hops);
  }
}

// A trace's walk asks each state's parent and move once (trace_parent):
// found alone where the level's parents are not kept, and read from them
// where they are; either way parent() and parent_index()'s answer, on every
// state of a graph with several parents per level, on one and two threads.
TEST(Explicit, TraceParentIsParentAndParentIndex) {
  const testing::Scrambled sys(77, 3, 40);
  for (const int threads : {1, 2}) {
    const auto g = run(sys, {}, threads);
    ASSERT_GT(g->size(), 1000U);
    std::uint32_t index = 7;
    EXPECT_EQ(no_state, g->trace_parent(0, index));
    EXPECT_EQ(0U, index);
    // Ids from the top: the levels are not kept yet when the walk asks.
    for (StateId id = static_cast<StateId>(g->size()); id-- > 1;) {
      const StateId p = g->trace_parent(id, index);
      ASSERT_EQ(g->parent(id), p) << id;  // (this keeps id's level)
      ASSERT_EQ(g->parent_index(id), index) << id;
      ASSERT_EQ(p, g->trace_parent(id, index)) << id;  // from the kept level
      ASSERT_EQ(g->parent_index(id), index) << id;
    }
  }
}

// What properties/ relies on when it orders states by id instead of by
// (depth, id): the search numbers them level by level, and says so; and the
// buffer-reusing readers give what state() and edges() give.
// (Scrambled states have eight fields.)
TEST(Explicit, NumbersStatesLevelByLevel) {
  const testing::Scrambled sys(77, 3, 40);
  const auto g = run(sys, {}, 2);
  ASSERT_GT(g->size(), 1000U);
  EXPECT_TRUE(g->numbered_by_depth());
  StateVec s = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // longer than a state: cut back
  std::vector<Edge> e(3);
  for (StateId id = 1; id < g->size(); ++id) {
    ASSERT_LE(g->depth(id - 1), g->depth(id)) << id;
    g->state_into(id, s);
    ASSERT_EQ(g->state(id), s) << id;
    const std::vector<int> which = {2, -1, 0, static_cast<int>(s.size()), 1};
    std::vector<std::int32_t> some(which.size());
    g->fields_into(id, which, -7, some.data());
    ASSERT_EQ((std::vector<std::int32_t>{s[2], -7, s[0], -7, s[1]}), some) << id;
    g->edges_into(id, e);
    const std::vector<Edge> fresh = g->edges(id);
    ASSERT_EQ(fresh.size(), e.size()) << id;
    for (std::size_t i = 0; i < e.size(); ++i) {
      ASSERT_EQ(fresh[i].to, e[i].to) << id;
      ASSERT_EQ(fresh[i].index, e[i].index) << id;
    }
  }
}

TEST(Explicit, IrregularSystemMatchesReferenceForEveryThreadCount) {
  for (const std::uint64_t seed : {1ULL, 2ULL, 77ULL}) {
    const testing::Scrambled sys(seed, 3, 40);
    const ReferenceGraph ref = testing::reference_bfs(sys);
    ASSERT_GT(ref.states.size(), 1000U) << "seed " << seed;
    for (const int threads : {1, 2, 3}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(threads) + " threads");
      const auto g = run(sys, {}, threads);
      EXPECT_EQ(Completion::complete, g->completion());
      EXPECT_EQ(ref.states.size(), g->size());
      EXPECT_EQ(ref.transitions, g->statistics().transitions);
      EXPECT_EQ(threads, g->statistics().threads);
      expect_matches(ref, *g);
    }
  }
}

void expect_identical(const TransitionSystem& sys);

// Large enough for many claim batches, and (the torus) for an index resize
// that rehashes in parallel.
TEST(Explicit, OneAndTwoThreadsGiveIdenticalGraphs) {
  const testing::Scrambled scrambled(5, 2);
  const testing::Torus torus(330);  // 108,900 states: resizes at 98,304
  for (const TransitionSystem* sys : {static_cast<const TransitionSystem*>(&scrambled),
                                      static_cast<const TransitionSystem*>(&torus)}) {
    expect_identical(*sys);
  }
}

void expect_identical(const TransitionSystem& sys) {
  const auto one = run(sys, {}, 1);
  const auto two = run(sys, {}, 2);
  ASSERT_EQ(Completion::complete, one->completion());
  ASSERT_GT(one->size(), 20000U);
  ASSERT_EQ(one->size(), two->size());
  EXPECT_EQ(one->statistics().transitions, two->statistics().transitions);
  EXPECT_EQ(one->statistics().depth, two->statistics().depth);
  StateId first_difference = no_state;
  for (StateId id = 0; id < one->size() && first_difference == no_state; ++id) {
    const auto a = one->edges(id), b = two->edges(id);
    bool same = one->state(id) == two->state(id) && one->parent(id) == two->parent(id) &&
                a.size() == b.size();
    for (std::size_t i = 0; same && i < a.size(); ++i) same = testing::same_edge(a[i], b[i]);
    if (!same) first_difference = id;
  }
  EXPECT_EQ(no_state, first_difference);
}

// Hash compaction: the caches that rebuild states for the analyses count
// in the graph's memory budget, and when the run's limits have no room for
// them, every state is still rebuilt right, in no more than was held.
TEST(Explicit, CompactCachesCountInTheBudget) {
  const testing::Torus sys(60);  // 3600 states, levels up to 60 wide
  const ReferenceGraph ref = testing::reference_bfs(sys);
  {
    ExplicitOptions o;
    o.compact = true;
    const auto g = run(sys, o);
    ASSERT_EQ(ref.states.size(), g->size());
    const std::uint64_t before = g->budget().used();
    expect_matches(ref, *g);  // a pass in id order: a level (two while moving on) held
    EXPECT_GE(g->budget().used(), before + 2 * 60 * sizeof(Word));
  }
  {
    RunLimits limits(1, std::nullopt, nullptr);  // (no room for anything)
    ExplicitOptions o;
    o.compact = true;
    o.limits = &limits;
    const auto g = run(sys, o);
    const std::uint64_t before = g->budget().used();
    expect_matches(ref, *g);
    for (StateId id = g->size(); id-- > 0;) ASSERT_EQ(ref.states[id], g->state(id)) << id;
    EXPECT_EQ(before, g->budget().used());  // nothing reserved: a ring of 64 states
    EXPECT_EQ(Completion::memory_limit, limits.reason());
  }
}

// Numbering must not depend on how levels are cut into chunks and tasks.
TEST(Explicit, ChunkingDoesNotChangeTheGraph) {
  const testing::Scrambled sys(9, 1, 60);
  const ReferenceGraph ref = testing::reference_bfs(sys);
  for (const SearchTuning tuning : {SearchTuning{1, 1, 1, 0}, SearchTuning{50, 3, 40, 0},
                                    SearchTuning{50, 3, 40, 20}, SearchTuning{}}) {
    for (const int threads : {1, 2}) {
      ExplicitOptions o;
      o.threads = threads;
      const auto g = explore_system(sys, o, nullptr, tuning);
      EXPECT_EQ(Completion::complete, g->completion());
      EXPECT_EQ(ref.states.size(), g->size());
      expect_matches(ref, *g);
    }
  }
}

TEST(Explicit, DuplicateInitialStatesAreStoredOnce) {
  const testing::Scrambled sys(1);
  const auto g = run(sys);
  EXPECT_EQ(2U, g->initial_count());
  EXPECT_EQ(no_state, g->parent(0));
  EXPECT_EQ(no_state, g->parent(1));
  EXPECT_EQ(0U, g->depth(1));
}

TEST(Explicit, StateLimitKeepsAPrefixWithExpandedParents) {
  const testing::Torus torus(20);
  const ReferenceGraph ref = testing::reference_bfs(torus);
  for (const int threads : {1, 2}) {
    ExplicitOptions o;
    o.max_states = 100;
    const auto g = run(torus, o, threads);
    EXPECT_EQ(Completion::state_limit, g->completion());
    EXPECT_LE(g->size(), 100U);
    EXPECT_GE(g->size(), 99U);  // each state adds at most two
    EXPECT_LT(g->expanded(), g->size());
    for (StateId id = 1; id < g->size(); ++id) EXPECT_LT(g->parent(id), g->expanded());
    expect_matches(ref, *g);
    EXPECT_EQ(g->statistics().states, g->size());
  }
}

TEST(Explicit, StateLimitEqualToTheStateCountCompletes) {
  const testing::Torus torus(6);
  ExplicitOptions o;
  o.max_states = 36;
  EXPECT_EQ(Completion::complete, run(torus, o)->completion());
  o.max_states = 35;
  EXPECT_EQ(Completion::state_limit, run(torus, o)->completion());
}

TEST(Explicit, StateLimitBelowTheInitialStates) {
  const testing::Scrambled sys(1);
  ExplicitOptions o;
  o.max_states = 1;
  const auto g = run(sys, o);
  EXPECT_EQ(Completion::state_limit, g->completion());
  EXPECT_EQ(1U, g->size());
  EXPECT_EQ(0U, g->expanded());
}

TEST(Explicit, MemoryLimitStopsCleanly) {
  const testing::Scrambled sys(5, 2);
  const auto full = run(sys);
  for (const int threads : {1, 2}) {
    ExplicitOptions o;
    o.max_memory_bytes = 2u << 20;
    const auto g = run(sys, o, threads);
    EXPECT_EQ(Completion::memory_limit, g->completion());
    EXPECT_LE(g->statistics().bytes, o.max_memory_bytes);
    EXPECT_GT(g->size(), 1000U);
    EXPECT_LT(g->size(), full->size());
    for (StateId id = 0; id < g->size(); ++id) {
      ASSERT_EQ(full->state(id), g->state(id));
      ASSERT_EQ(full->parent(id), g->parent(id));
    }
  }
}

TEST(Explicit, MemoryLimitTooSmallForAnything) {
  const testing::Torus torus(4);
  ExplicitOptions o;
  o.max_memory_bytes = 1000;
  const auto g = run(torus, o);
  EXPECT_EQ(Completion::memory_limit, g->completion());
  EXPECT_EQ(0U, g->size());
}

TEST(Explicit, TimeoutStopsCleanly) {
  const testing::Torus torus(100);
  const testing::Slow slow(torus, 200us);
  for (const int threads : {1, 2}) {
    ExplicitOptions o;
    o.timeout_seconds = 0.05;
    const auto t0 = std::chrono::steady_clock::now();
    const auto g = run(slow, o, threads);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
    EXPECT_EQ(Completion::time_limit, g->completion());
    EXPECT_LT(g->size(), 10000U);
    for (StateId id = 1; id < g->size(); ++id) EXPECT_LT(g->parent(id), g->expanded());
  }
}

TEST(Explicit, InterruptStopsCleanly) {
  const testing::Torus torus(100);
  for (const int threads : {1, 2}) {
    std::atomic<bool> interrupt{false};
    const testing::Slow slow(torus, 0us, &interrupt, 500);
    ExplicitOptions o;
    o.interrupt = &interrupt;
    const auto g = run(slow, o, threads);
    EXPECT_EQ(Completion::interrupted, g->completion());
    EXPECT_LT(g->size(), 10000U);
    EXPECT_GE(g->expanded(), 1U);
    expect_matches(testing::reference_bfs(torus), *g);
  }
}

TEST(Explicit, InterruptBeforeTheStart) {
  const testing::Torus torus(10);
  std::atomic<bool> interrupt{true};
  ExplicitOptions o;
  o.interrupt = &interrupt;
  const auto g = run(torus, o);
  EXPECT_EQ(Completion::interrupted, g->completion());
  EXPECT_EQ(1U, g->size());
  EXPECT_EQ(0U, g->expanded());
}

TEST(Explicit, ReportsProgress) {
  const testing::Torus torus(60);
  const testing::Slow slow(torus, 100us);
  int calls = 0;
  Progress last;
  ExplicitOptions o;
  o.progress = [&](const Progress& p) {
    ++calls;
    EXPECT_GE(p.states, last.states);
    last = p;
  };
  const auto g = run(slow, o);
  EXPECT_GE(calls, 1);
  EXPECT_GT(last.states, 0U);
  EXPECT_GT(last.bytes, 0U);
  EXPECT_GT(last.states_per_second, 0);
}

// --- on rules -----------------------------------------------------------

// One step, nothing to do: the start state; turn 1 after entering the step
// (stage post); then advance alternates the active player with the turn
// number saturated at 2: P2's turn 2 and P1's turn 2.
TEST(Explicit, MinimalRulesetHasFourStates) {
  const auto r = testing::load_ruleset("minimal.yaml", testing::minimal_yaml);
  ASSERT_TRUE(r->sem);
  ExplicitOptions concrete;
  concrete.symmetry = false;  // (the players' rotations would store 3)
  const auto g = explore(*r->sem, concrete);
  EXPECT_EQ(Completion::complete, g->completion());
  EXPECT_EQ(4U, g->statistics().states);
  EXPECT_EQ(4U, g->statistics().transitions);
  EXPECT_EQ(4U, g->statistics().depth);
  EXPECT_EQ(&*r->sem, &g->semantics());
}

TEST(Explicit, RulesetsMatchReferenceForEveryThreadCount) {
  struct Case {
    const char* name;
    const char* yaml;
    std::uint64_t states, transitions;
    std::uint32_t initial;
  };
  for (const Case& c : {Case{"windows.yaml", testing::windows_yaml, 260, 353, 1},
                        Case{"choices.yaml", testing::choices_yaml, 1188, 1314, 2}}) {
    SCOPED_TRACE(c.name);
    const auto r = testing::load_ruleset(c.name, c.yaml);
    ASSERT_TRUE(r->sem);
    const SemanticsSystem system(*r->sem);
    const ReferenceGraph ref = testing::reference_bfs(system);
    EXPECT_EQ(c.states, ref.states.size());
    EXPECT_EQ(c.transitions, ref.transitions);
    for (const int threads : {1, 2}) {
      ExplicitOptions o;
      o.threads = threads;
      o.symmetry = false;  // every concrete state, as the reference holds them
      const auto g = explore(*r->sem, o);
      EXPECT_EQ(Completion::complete, g->completion());
      EXPECT_EQ(c.states, g->statistics().states);
      EXPECT_EQ(c.transitions, g->statistics().transitions);
      EXPECT_EQ(c.initial, g->initial_count());
      expect_matches(ref, dynamic_cast<const ExplicitGraph&>(*g));
    }
  }
}

// The language allows 8 players, and a move chosen by P8 must be stored
// (its edge label names chooser player 7; labels once stopped at P7, and
// the engine threw an internal error: found by fuzz_engines). The graph
// must match the reference search on one and two threads. Each turn the
// active player may flip `x` once in a window the others can only pass in.
TEST(Explicit, EightPlayersChooseAndTheirMovesAreStored) {
  const auto r = testing::load_ruleset("eight.yaml", R"(
loophole: 1
game: eight
players: 8
speeds: [1]
scope: {turns: 1}
state:
  x: {type: int, range: [0, 1], init: 0}
turn:
  phases:
    - name: main
      steps:
        - name: act
          window: act
windows:
  act:
    protocol: priority
    active: {lead: [1]}
actions:
  - name: flip
    who: active
    speed: 1
    answerable: false
    limit: {per_window: 1}
    effect: "x := 1 - x"
)");
  ASSERT_TRUE(r->sem);
  const SemanticsSystem system(*r->sem);
  const ReferenceGraph ref = testing::reference_bfs(system);
  for (const int threads : {1, 2}) {
    ExplicitOptions o;
    o.threads = threads;
    o.symmetry = false;  // every concrete state, as the reference holds them
    const auto g = explore(*r->sem, o);
    EXPECT_EQ(Completion::complete, g->completion());
    EXPECT_EQ(ref.states.size(), g->statistics().states);
    EXPECT_EQ(ref.transitions, g->statistics().transitions);
    expect_matches(ref, dynamic_cast<const ExplicitGraph&>(*g));
    int most = -1;
    for (StateId id = 0; id < g->size(); ++id) {
      for (const Edge& e : g->edges(id)) most = std::max<int>(most, e.chooser_player);
    }
    EXPECT_EQ(7, most);
  }
}

TEST(Explicit, GraphWithoutSemanticsRefusesTraces) {
  const testing::Torus torus(2);
  const auto g = run(torus);
  EXPECT_THROW((void)g->semantics(), std::logic_error);
  EXPECT_THROW((void)g->trace_to(3), std::logic_error);
}

}  // namespace
}  // namespace loophole::checker
