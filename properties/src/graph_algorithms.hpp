// Graph algorithms the analyses share, on a compressed copy of the explored
// graph. They know nothing of games: states are numbers, moves are Edges, and
// every analysis says which edges count (non-progress moves, moves among
// doomed states) through a predicate. Kept separate so they can be tested on
// hand-made graphs of a few states.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "loophole/checker/explored.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::properties::detail {

using checker::Edge;
using checker::StateId;

// Out-edges of state v are edges[offsets[v] .. offsets[v + 1]).
struct Digraph {
  std::vector<std::uint64_t> offsets{0};
  std::vector<Edge> edges;

  [[nodiscard]] std::size_t size() const { return offsets.size() - 1; }
  [[nodiscard]] std::span<const Edge> out(StateId v) const {
    return {edges.data() + offsets[v], edges.data() + offsets[v + 1]};
  }
  void add_state(std::span<const Edge> out_edges) {
    edges.insert(edges.end(), out_edges.begin(), out_edges.end());
    offsets.push_back(edges.size());
  }
};

using EdgePredicate = std::function<bool(StateId from, const Edge& e)>;
using StatePredicate = std::function<bool(StateId v)>;

// The strongly connected components of the subgraph of kept edges that have
// a cycle (several states, or one with a kept self-loop); members ascending,
// components ordered by their smallest member.
std::vector<std::vector<StateId>> cyclic_components(const Digraph& g, const EdgePredicate& keep);

// The shortest path of kept edges from `entry` back to `entry` that stays
// within `members` (sorted) and uses at least one edge satisfying `must`
// (any kept edge when `must` is empty). Empty when there is none.
std::vector<Edge> shortest_cycle(const Digraph& g, StateId entry,
                                 const std::vector<StateId>& members, const EdgePredicate& keep,
                                 const EdgePredicate& must = {});

// The shortest path of kept edges from `from` to the nearest state satisfying
// `goal` (zero edges if `from` satisfies it) through states satisfying
// `inside`. Returns false when no goal state is reachable.
bool shortest_path(const Digraph& g, StateId from, const StatePredicate& goal,
                   const StatePredicate& inside, const EdgePredicate& keep,
                   std::vector<Edge>& path);

// For every state: whether some state in `targets` can be reached from it
// along kept edges (targets included).
std::vector<bool> can_reach(const Digraph& g, const std::vector<bool>& targets,
                            const EdgePredicate& keep = {});

// For every state: whether an endless path starts there (a cycle can be
// reached from it). The same as can_reach of the cyclic components' members,
// without building the components: see graph_algorithms.cpp.
std::vector<bool> can_go_on_forever(const Digraph& g);

// Who keeps a cycle going: the choice points on it are the states with more
// than one move; see LoopClass.
struct LoopChoice {
  LoopClass loop = LoopClass::mandatory;
  int player = -1;           // for optional_one
  std::vector<int> players;  // every player choosing on the cycle, ascending
};
LoopChoice classify_cycle(const Digraph& g, StateId entry, const std::vector<Edge>& cycle);

}  // namespace loophole::properties::detail
