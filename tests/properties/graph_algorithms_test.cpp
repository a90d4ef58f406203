// The graph algorithms behind the analyses, on hand-made graphs of a few
// states: components with cycles, shortest cycles (with and without a
// required progress edge), paths, backward reachability, loop classes.
#include "graph_algorithms.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include <gtest/gtest.h>

namespace loophole::properties::detail {
namespace {

using checker::Chooser;

Edge to(StateId target, bool progress = false, Chooser by = Chooser::none, int player = -1) {
  Edge e;
  e.to = target;
  e.progress = progress;
  e.chooser = by;
  e.chooser_player = static_cast<std::int8_t>(player);
  return e;
}

Digraph graph(std::initializer_list<std::vector<Edge>> states) {
  Digraph g;
  for (const auto& out : states) g.add_state(out);
  return g;
}

std::vector<StateId> targets(const std::vector<Edge>& path) {
  std::vector<StateId> t;
  for (const Edge& e : path) t.push_back(e.to);
  return t;
}

const EdgePredicate all = [](StateId, const Edge&) { return true; };
const EdgePredicate quiet = [](StateId, const Edge& e) { return !e.progress; };
const EdgePredicate progress = [](StateId, const Edge& e) { return e.progress; };

TEST(CyclicComponents, FindsCyclesAndSelfLoopsOnly) {
  // 0 -> 1 -> 2 -> 0, 2 -> 3, 3 -> 3 (progress), 3 -> 4; 4 has no move.
  const Digraph g = graph({{to(1)}, {to(2)}, {to(0), to(3)}, {to(3, true), to(4)}, {}});
  const auto with_all = cyclic_components(g, all).nested();
  ASSERT_EQ(2u, with_all.size());
  EXPECT_EQ((std::vector<StateId>{0, 1, 2}), with_all[0]);
  EXPECT_EQ((std::vector<StateId>{3}), with_all[1]);
  const auto without_progress = cyclic_components(g, quiet).nested();
  ASSERT_EQ(1u, without_progress.size());
  EXPECT_EQ((std::vector<StateId>{0, 1, 2}), without_progress[0]);
}

// A member's rank is the number of members below it, across the 64-state
// blocks (searches within the cyclic states index their arrays by it).
TEST(CyclicStates, RankCountsTheMembersBelow) {
  std::vector<bool> member(300, false);
  for (std::size_t v = 0; v < member.size(); ++v) member[v] = v % 3 == 0 || v == 64 || v == 127;
  CyclicStates c;
  c.reset(member.size());
  for (StateId v = 0; v < member.size(); ++v) {
    if (member[v]) c.mark(v);
  }
  c.count_members();
  StateId below = 0;
  for (StateId v = 0; v < member.size(); ++v) {
    EXPECT_EQ(member[v], c.contains(v)) << v;
    if (member[v]) {
      EXPECT_EQ(below, c.rank(v)) << v;
    }
    below += member[v] ? 1 : 0;
  }
  EXPECT_EQ(below, c.count);
}

TEST(CyclicComponents, AcyclicGraphHasNone) {
  const Digraph g = graph({{to(1), to(2)}, {to(2)}, {}});
  EXPECT_TRUE(cyclic_components(g, all).empty());
}

// For every state: whether an endless path starts there (a cycle can be
// reached from it), as the analyses read it from their shared pass:
// reach_through_components with no target set, only its `endless` bit.
std::vector<bool> can_go_on_forever(const Digraph& g) {
  std::vector<std::uint8_t> marks;
  reach_through_components(g, marks, std::uint8_t{1});
  std::vector<bool> endless(marks.size(), false);
  for (std::size_t v = 0; v < marks.size(); ++v) endless[v] = marks[v] != 0;
  return endless;
}

// can_go_on_forever (one pass of the components, reach_through_components)
// against its definition: can_reach of the cyclic components' members, on a
// fixed graph and on random ones, some of them chains that go back to
// earlier states many times.
std::vector<bool> forever_by_definition(const Digraph& g) {
  std::vector<bool> on_cycle(g.size(), false);
  for (const auto& members : cyclic_components(g, [](StateId, const Edge&) { return true; })) {
    for (const StateId v : members) on_cycle[v] = true;
  }
  return can_reach(g, on_cycle);
}

TEST(CanGoOnForever, IsReachingACycle) {
  // 0 -> 1 -> 2 -> 1 (a cycle); 0 -> 3 (stops); 4 self-loop; 5 -> 4.
  const Digraph g = graph({{to(1), to(3)}, {to(2)}, {to(1)}, {}, {to(4)}, {to(4)}});
  EXPECT_EQ(can_go_on_forever(g), (std::vector<bool>{true, true, true, false, true, true}));
  // A chain that leads back to earlier states 40 times: beyond the sweeps.
  Digraph back;
  for (StateId v = 0; v < 40; ++v) {
    if (v == 0) {
      back.add_state(std::vector<Edge>{});
    } else {
      back.add_state(std::vector<Edge>{to(v - 1)});
    }
  }
  EXPECT_EQ(can_go_on_forever(back), std::vector<bool>(40, false));
  std::uint64_t seed = 12345;
  const auto next = [&](std::uint64_t m) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % m;
  };
  for (int round = 0; round < 200; ++round) {
    const auto n = static_cast<StateId>(1 + next(60));
    Digraph r;
    for (StateId v = 0; v < n; ++v) {
      std::vector<Edge> out;
      const auto k = next(3);
      for (std::uint64_t i = 0; i < k; ++i) {
        // Mostly forward edges, as a breadth-first numbering gives.
        const bool back_edge = next(5) == 0;
        const StateId t = back_edge || v + 1 >= n ? static_cast<StateId>(next(n))
                                                  : static_cast<StateId>(v + 1 + next(n - v - 1));
        out.push_back(to(t));
      }
      r.add_state(out);
    }
    EXPECT_EQ(can_go_on_forever(r), forever_by_definition(r)) << "round " << round;
  }
}

TEST(ShortestCycle, ThroughEntryAndThroughARequiredEdge) {
  // 0 -> 1 -> 0 (short, no progress); 0 -> 2 -> 3 -> 0 with 2 -> 3 progress.
  const Digraph g = graph({{to(1), to(2)}, {to(0)}, {to(3, true)}, {to(0)}});
  const std::vector<StateId> members{0, 1, 2, 3};
  EXPECT_EQ((std::vector<StateId>{1, 0}), targets(shortest_cycle(g, 0, members, all)));
  EXPECT_EQ((std::vector<StateId>{2, 3, 0}), targets(shortest_cycle(g, 0, members, all, progress)));
  EXPECT_EQ((std::vector<StateId>{0, 1}), targets(shortest_cycle(g, 1, members, all)));
  // Without the progress edge there is only the short cycle, and none with progress.
  EXPECT_TRUE(shortest_cycle(g, 0, members, quiet, progress).empty());
}

TEST(ShortestCycle, SelfLoopAndStateOutsideTheComponent) {
  const Digraph g = graph({{to(1)}, {to(1), to(0)}});
  EXPECT_EQ((std::vector<StateId>{1}), targets(shortest_cycle(g, 1, std::vector<StateId>{1}, all)));
  EXPECT_TRUE(shortest_cycle(g, 0, std::vector<StateId>{1}, all).empty());
}

TEST(ShortestPath, NearestGoalInside) {
  // 0 -> 1 -> 2, 0 -> 3 -> 4 -> 2
  const Digraph g = graph({{to(1), to(3)}, {to(2)}, {}, {to(4)}, {to(2)}});
  std::vector<Edge> path;
  const auto goal = [](StateId v) { return v == 2; };
  EXPECT_TRUE(shortest_path(
      g, 0, goal, [](StateId) { return true; }, all, path));
  EXPECT_EQ((std::vector<StateId>{1, 2}), targets(path));
  EXPECT_TRUE(shortest_path(
      g, 0, goal, [](StateId v) { return v != 1; }, all, path));
  EXPECT_EQ((std::vector<StateId>{3, 4, 2}), targets(path));
  EXPECT_FALSE(shortest_path(
      g, 0, goal, [](StateId v) { return v == 0; }, all, path));
  EXPECT_TRUE(shortest_path(
      g, 2, goal, [](StateId) { return true; }, all, path));
  EXPECT_TRUE(path.empty());
}

TEST(CanReach, BackwardFromTargets) {
  // 0 -> 1 -> 2 (target); 3 -> 3; 4 -> 1 only through a progress edge
  const Digraph g = graph({{to(1)}, {to(2)}, {}, {to(3)}, {to(1, true)}});
  const std::vector<bool> reach = can_reach(g, {false, false, true, false, false});
  EXPECT_EQ((std::vector<bool>{true, true, true, false, true}), reach);
  const std::vector<bool> quiet_reach = can_reach(g, {false, false, true, false, false}, quiet);
  EXPECT_EQ((std::vector<bool>{true, true, true, false, false}), quiet_reach);
}

// Pseudo-random numbers below `bound`, the same on every run.
struct Xorshift {
  std::uint64_t x;
  std::uint64_t operator()(std::uint64_t bound) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x % bound;
  }
};

// n states with min_degree..3 edges each, a fifth of them to any state,
// the others forward as breadth-first numbering makes most edges: from
// v + step to v + step + span - 1; a third of them progress edges.
Digraph random_graph(Xorshift& next, StateId n, std::uint64_t min_degree, std::uint64_t step,
                     std::uint64_t span) {
  Digraph g;
  for (StateId v = 0; v < n; ++v) {
    std::vector<Edge> out;
    const auto degree = min_degree + next(4 - min_degree);
    for (std::uint64_t k = 0; k < degree; ++k) {
      const auto target =
          next(5) == 0 ? next(n) : std::min<std::uint64_t>(n - 1, v + step + next(span));
      out.push_back(to(static_cast<StateId>(target), next(3) == 0));
    }
    g.add_state(out);
  }
  return g;
}

// shortest_path keeps only the states reached, level by level, and finds
// each parent again on the way back. Against a breadth-first search that
// records each state's discoverer, on pseudo-random graphs with goals,
// states left out and edges not kept: the same answer and the same path,
// edge for edge (a trace a report shows must not change).
TEST(ShortestPath, SamePathAsABreadthFirstSearchWithParents) {
  const auto reference = [](const Digraph& g, StateId from, const StatePredicate& goal,
                            const StatePredicate& inside, const EdgePredicate& keep,
                            std::vector<Edge>& path) {
    path.clear();
    if (goal(from)) return true;
    std::vector<std::pair<StateId, std::size_t>> queue{{from, 0}};  // state, discoverer
    std::vector<Edge> via{Edge{}};
    std::vector<bool> seen(g.size(), false);
    seen[from] = true;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const StateId u = queue[head].first;
      for (const Edge& e : g.out(u)) {
        if (seen[e.to] || (keep && !keep(u, e))) continue;
        const bool is_goal = goal(e.to);
        if (!is_goal && !inside(e.to)) continue;
        seen[e.to] = true;
        queue.emplace_back(e.to, head);
        via.push_back(e);
        if (!is_goal) continue;
        for (std::size_t at = queue.size() - 1; at != 0; at = queue[at].second) {
          path.push_back(via[at]);
        }
        std::reverse(path.begin(), path.end());
        return true;
      }
    }
    return false;
  };
  Xorshift next{0x5eed5eedULL};
  int found = 0, long_paths = 0;
  for (int round = 0; round < 40; ++round) {
    const StateId n = 100 + static_cast<StateId>(next(400));
    const Digraph g = random_graph(next, n, round % 2, 1, 8);
    std::vector<bool> goal(n), inside(n);
    for (StateId v = 0; v < n; ++v) {
      goal[v] = next(60) == 0;
      inside[v] = next(7) != 0;
    }
    const StatePredicate is_goal = [&](StateId v) { return static_cast<bool>(goal[v]); };
    const StatePredicate is_inside = [&](StateId v) { return static_cast<bool>(inside[v]); };
    const EdgePredicate keep = round % 3 == 0 ? EdgePredicate{} : quiet;
    for (StateId from = 0; from < n; from += 7) {
      std::vector<Edge> want, got;
      const bool a = reference(g, from, is_goal, is_inside, keep, want);
      const bool b = shortest_path(g, from, is_goal, is_inside, keep, got);
      ASSERT_EQ(a, b) << "round " << round << " from " << from;
      if (!a) continue;
      ASSERT_EQ(targets(want), targets(got)) << "round " << round << " from " << from;
      for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(want[i].index, got[i].index);
      ++found;
      long_paths += want.size() >= 4 ? 1 : 0;
    }
  }
  EXPECT_GT(found, 200);
  EXPECT_GT(long_paths, 30);
}

// Whether each state reaches a target, by following every kept path
// (quadratic; for checking can_reach on small graphs).
std::vector<bool> reach_by_closure(const Digraph& g, const std::vector<bool>& targets,
                                   const EdgePredicate& keep) {
  const auto n = static_cast<StateId>(g.size());
  std::vector<bool> reach(n, false);
  for (StateId s = 0; s < n; ++s) {
    std::vector<bool> seen(n, false);
    std::vector<StateId> stack{s};
    seen[s] = true;
    while (!stack.empty() && !reach[s]) {
      const StateId v = stack.back();
      stack.pop_back();
      if (targets[v]) reach[s] = true;
      for (const Edge& e : g.out(v)) {
        if ((!keep || keep(v, e)) && !seen[e.to]) {
          seen[e.to] = true;
          stack.push_back(e.to);
        }
      }
    }
  }
  return reach;
}

// can_reach sweeps the forward edges from the last state to the first, one
// more sweep per edge back to an earlier state, and after 16 sweeps finishes
// with a backward search: a chain that steps back 40 times takes that path,
// a chain that steps back 5 times does not; both must give the closure.
TEST(CanReach, ChainsBackToEarlierStatesAreFollowedPastTheSweeps) {
  for (const StateId length : {StateId{5}, StateId{40}}) {
    // States 0..length: state i + 1 -> state i (backwards), target 0; and a
    // forward branch from each to a sink state that reaches nothing, and
    // state length + 1 -> state length through a progress edge only.
    Digraph g;
    const StateId sink = length + 2;
    g.add_state(std::vector<Edge>{to(sink)});
    for (StateId i = 1; i <= length; ++i) g.add_state(std::vector<Edge>{to(sink), to(i - 1)});
    g.add_state(std::vector<Edge>{to(length, true)});
    g.add_state(std::vector<Edge>{});
    std::vector<bool> targets(g.size(), false);
    targets[0] = true;
    for (const EdgePredicate& keep : {EdgePredicate{}, EdgePredicate{quiet}}) {
      const std::vector<bool> reach = can_reach(g, targets, keep);
      EXPECT_EQ(reach_by_closure(g, targets, keep), reach) << length;
      EXPECT_TRUE(reach[length]) << length;
      EXPECT_EQ(!keep, static_cast<bool>(reach[length + 1])) << length;
      EXPECT_FALSE(reach[sink]) << length;
    }
  }
}

// The same against the closure on pseudo-random graphs of 300 states, with
// and without a predicate.
TEST(CanReach, AgreesWithTheClosureOnRandomGraphs) {
  Xorshift next{0x9E3779B97F4A7C15ULL};
  for (int round = 0; round < 20; ++round) {
    constexpr StateId n = 300;
    const Digraph g = random_graph(next, n, 0, 1, 20);
    std::vector<bool> targets(n, false);
    for (int k = 0; k < 3; ++k) targets[next(n)] = true;
    EXPECT_EQ(reach_by_closure(g, targets, {}), can_reach(g, targets)) << round;
    EXPECT_EQ(reach_by_closure(g, targets, quiet), can_reach(g, targets, quiet)) << round;
  }
}

// can_reach_each against the closure of each set on its own: 11 sets (two
// groups of 8 marks), on random graphs and on chains that step back past
// the 16 sweeps (the fallback to can_reach from the marks so far).
TEST(CanReachEach, AgreesWithTheClosureOfEachSet) {
  Xorshift next{0x3C6EF372FE94F82BULL};
  const auto check = [&](const Digraph& g, int round) {
    const auto n = static_cast<StateId>(g.size());
    std::vector<std::vector<bool>> sets(11, std::vector<bool>(n, false));
    for (std::size_t k = 0; k < sets.size(); ++k) {
      for (std::uint64_t i = 0, count = next(4); i < count; ++i) sets[k][next(n)] = true;
    }
    const std::vector<std::vector<bool>> each = can_reach_each(g, sets);
    ASSERT_EQ(sets.size(), each.size());
    for (std::size_t k = 0; k < sets.size(); ++k) {
      EXPECT_EQ(reach_by_closure(g, sets[k], {}), each[k]) << round << " set " << k;
    }
  };
  for (int round = 0; round < 6; ++round) check(random_graph(next, 200, 0, 1, 20), round);
  Digraph chain;  // 40 -> 39 -> ... -> 0: 40 sweeps' worth of back edges
  chain.add_state(std::vector<Edge>{});
  for (StateId i = 1; i <= 40; ++i) chain.add_state(std::vector<Edge>{to(i - 1)});
  for (int round = 0; round < 3; ++round) check(chain, 100 + round);
  std::vector<std::vector<bool>> first(1, std::vector<bool>(chain.size(), false));
  first[0][0] = true;
  EXPECT_EQ(std::vector<bool>(chain.size(), true), can_reach_each(chain, first)[0]);
}

// cyclic_components against its definition on pseudo-random graphs: u and
// v share a component when each reaches the other along kept edges, and a
// component counts when it has two states or a kept self-loop. The
// predicates keep every edge (Tarjan's search on all states), the quiet ones,
// or only those out of a few states (on those states alone).
TEST(CyclicComponents, AgreeWithMutualReachabilityOnRandomGraphs) {
  Xorshift next{0x243F6A8885A308D3ULL};
  for (int round = 0; round < 12; ++round) {
    constexpr StateId n = 120;
    // (Even rounds: every state has an edge, so with `all` no state is left out.)
    const Digraph g = random_graph(next, n, round % 2 == 0 ? 1 : 0, 0, 6);
    const EdgePredicate few = [](StateId from, const Edge&) { return from % 7 < 3; };
    for (const EdgePredicate& keep : {EdgePredicate{all}, EdgePredicate{quiet}, few}) {
      // reach[u][v]: v reachable from u along kept edges (u itself included).
      std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
      for (StateId u = 0; u < n; ++u) {
        std::vector<StateId> stack{u};
        reach[u][u] = true;
        while (!stack.empty()) {
          const StateId v = stack.back();
          stack.pop_back();
          for (const Edge& e : g.out(v)) {
            if (keep(v, e) && !reach[u][e.to]) {
              reach[u][e.to] = true;
              stack.push_back(e.to);
            }
          }
        }
      }
      std::vector<std::vector<StateId>> want;
      std::vector<bool> placed(n, false);
      for (StateId u = 0; u < n; ++u) {
        if (placed[u]) continue;
        std::vector<StateId> members;
        for (StateId v = u; v < n; ++v) {
          if (reach[u][v] && reach[v][u]) members.push_back(v);
        }
        for (const StateId v : members) placed[v] = true;
        const bool self_loop = std::any_of(g.out(u).begin(), g.out(u).end(),
                                           [&](const Edge& e) { return e.to == u && keep(u, e); });
        if (members.size() > 1 || self_loop) want.push_back(members);
      }
      EXPECT_EQ(want, cyclic_components(g, keep).nested()) << "round " << round;
    }
  }
}

// reach_through_components against the closure of each target set (a
// byte of marks, and 4 bytes with sets past the eighth bit), its cyclic
// states against cyclic_components of every edge, its `endless` mark
// against can_reach of those; and cyclic_components searched only within
// the cyclic states against the search over every state, for each
// predicate. Random graphs with and without back edges, and the chain that
// steps back 40 times.
TEST(ReachThroughComponents, AgreesWithTheClosureAndTheComponents) {
  Xorshift next{0x13198A2E03707344ULL};
  const EdgePredicate few = [](StateId from, const Edge&) { return from % 7 < 3; };
  const auto check = [&](const Digraph& g, int round) {
    const auto n = static_cast<StateId>(g.size());
    std::vector<std::vector<bool>> sets(12, std::vector<bool>(n, false));
    std::vector<std::uint8_t> small(n, 0);
    std::vector<std::uint32_t> wide(n, 0);
    for (std::size_t k = 0; k < sets.size(); ++k) {
      for (std::uint64_t i = 0, count = next(4); i < count; ++i) {
        const auto v = static_cast<StateId>(next(n));
        sets[k][v] = true;
        if (k < 7) small[v] |= static_cast<std::uint8_t>(1U << k);
        wide[v] |= 1U << k;
      }
    }
    const CyclicStates cyclic = reach_through_components(g, small, std::uint8_t{0x80});
    const CyclicStates same = reach_through_components(g, wide, std::uint32_t{1} << 20);
    std::vector<bool> on_cycle(n, false);
    std::uint64_t count = 0;
    for (const auto& members : cyclic_components(g, all)) {
      for (const StateId v : members) on_cycle[v] = true;
      count += members.size();
    }
    const auto members_of = [&](const CyclicStates& c) {
      std::vector<bool> out(n);
      for (StateId v = 0; v < n; ++v) out[v] = c.contains(v);
      return out;
    };
    EXPECT_EQ(on_cycle, members_of(cyclic)) << round;
    EXPECT_EQ(count, cyclic.count) << round;
    EXPECT_EQ(on_cycle, members_of(same)) << round;
    const std::vector<bool> endless = can_reach(g, on_cycle);
    EXPECT_EQ(endless, can_go_on_forever(g)) << round;
    for (std::size_t k = 0; k <= sets.size(); ++k) {
      const std::vector<bool> want = k < sets.size() ? reach_by_closure(g, sets[k], {}) : endless;
      std::vector<bool> wide_got(n), small_got(n);
      for (StateId v = 0; v < n; ++v) {
        wide_got[v] = ((wide[v] >> (k < sets.size() ? k : 20)) & 1U) != 0;
        small_got[v] = ((small[v] >> (k < sets.size() ? k : 7)) & 1U) != 0;
      }
      EXPECT_EQ(want, wide_got) << round << " set " << k;
      if (k < 7 || k == sets.size()) {
        EXPECT_EQ(want, small_got) << round << " set " << k;
      }
    }
    for (const EdgePredicate& keep : {EdgePredicate{all}, EdgePredicate{quiet}, few}) {
      EXPECT_EQ(cyclic_components(g, keep).nested(), cyclic_components(g, keep, &cyclic).nested())
          << round;
    }
  };
  for (int round = 0; round < 12; ++round) {
    check(random_graph(next, 150, round % 2 == 0 ? 1 : 0, round % 3 == 0 ? 0 : 1, 12), round);
  }
  Digraph chain;  // 40 -> 39 -> ... -> 0, and 0 -> 0
  chain.add_state(std::vector<Edge>{to(0)});
  for (StateId i = 1; i <= 40; ++i) chain.add_state(std::vector<Edge>{to(i - 1)});
  check(chain, 100);
  const Digraph acyclic = graph({{to(1), to(2)}, {to(2)}, {}});
  std::vector<std::uint8_t> none(acyclic.size(), 0);
  EXPECT_EQ(0U, reach_through_components(acyclic, none, std::uint8_t{1}).count);
  EXPECT_EQ((std::vector<std::uint8_t>{0, 0, 0}), none);
}

TEST(ClassifyCycle, MandatoryWhenNoStateOnTheCycleHasAChoice) {
  const Digraph g = graph({{to(1)}, {to(0)}});
  const auto c = classify_cycle(g, 0, {g.out(0)[0], g.out(1)[0]});
  EXPECT_EQ(LoopClass::mandatory, c.loop);
  EXPECT_EQ(-1, c.player);
}

TEST(ClassifyCycle, OptionalWhenOnePlayerMakesEveryChoice) {
  // State 0: P2 (index 1) takes the loop or leaves; state 1: forced.
  const Digraph g =
      graph({{to(1, false, Chooser::player, 1), to(2, true, Chooser::player, 1)}, {to(0)}, {}});
  const auto c = classify_cycle(g, 0, {g.out(0)[0], g.out(1)[0]});
  EXPECT_EQ(LoopClass::optional_one, c.loop);
  EXPECT_EQ(1, c.player);
}

TEST(ClassifyCycle, SeveralPlayersAndChance) {
  const Digraph g = graph({{to(1, false, Chooser::player, 0), to(2, false, Chooser::player, 0)},
                           {to(0, false, Chooser::player, 1), to(2, false, Chooser::player, 1)},
                           {to(0, false, Chooser::nature), to(1, false, Chooser::nature)}});
  const auto several = classify_cycle(g, 0, {g.out(0)[0], g.out(1)[0]});
  EXPECT_EQ(LoopClass::several_players, several.loop);
  EXPECT_EQ((std::vector<int>{0, 1}), several.players);
  const auto chance = classify_cycle(g, 0, {g.out(0)[1], g.out(2)[0]});
  EXPECT_EQ(LoopClass::chance, chance.loop);
}

// A state's start is 2 bytes past its group's base (64 states); one that
// lies 65,535 edges or more past it is found in a list of its own. State 1
// has 70,000 edges (69,999 to state 2), so states 2..63 start past 16 bits;
// every state's edges read back, and the algorithms see them.
TEST(Digraph, StartsPastSixteenBitsReadBack) {
  constexpr StateId n = 80;
  Digraph g;
  for (StateId v = 0; v < n; ++v) {
    std::vector<Edge> out(v == 1 ? 70000 : 1, to(2));
    out.back() = to(v / 2, true);  // the last edge of each: back to v / 2
    g.add_state(out);
  }
  ASSERT_EQ(n, g.size());
  EXPECT_EQ(70000U + n - 1, g.edge_count());
  for (StateId v = 0; v < n; ++v) {
    const auto out = g.out(v);
    ASSERT_EQ(v == 1 ? 70000U : 1U, out.size()) << v;
    EXPECT_EQ(v / 2, out[out.size() - 1].to) << v;
    EXPECT_EQ(out.size() - 1, out[out.size() - 1].index) << v;
  }
  // Cycles: 0's self-loop and 1 <-> 2 (2 -> 1 a progress edge); every other
  // state only goes down to v / 2.
  EXPECT_TRUE(cyclic_components(g, quiet).empty());
  const auto all_of = cyclic_components(g, all).nested();
  ASSERT_EQ(2U, all_of.size());
  EXPECT_EQ((std::vector<StateId>{0}), all_of[0]);
  EXPECT_EQ((std::vector<StateId>{1, 2}), all_of[1]);
}

}  // namespace
}  // namespace loophole::properties::detail
