// Ties: when the game ends, the semantics takes the first end condition that
// holds (in declaration order, players from the active one). If several hold
// at once and they name no single winner (both players win, both lose, one
// wins while the same one loses), the rules have not said who wins and the
// declaration order silently decides: a rule gap of its own. Only states in
// which the game is over are read (few of them), each once.
#include <map>

#include <fmt/format.h>

#include "loophole/properties/state_groups.hpp"

#include "analyses.hpp"

namespace loophole::properties::detail {

void find_ties(const Context& cx, std::vector<Finding>& out) {
  if (cx.game.end_conditions.empty()) return;
  // The set of (condition, player) pairs that hold together -> its earliest state.
  std::map<GroupKey, StateId> ties;
  std::vector<GroupKey> keys;
  checker::StateVec state;
  for (StateId v = 0; v < cx.size(); ++v) {
    if (cx.interrupted()) return;
    if (cx.points[v].over != 1) continue;
    cx.graph.state_into(v, state);
    keys.clear();
    tie_keys(cx.semantics, state, keys);
    for (GroupKey& key : keys) {
      auto [it, fresh] = ties.try_emplace(std::move(key), v);
      if (!fresh && cx.earlier(v, it->second)) it->second = v;
    }
  }
  std::vector<GroupKey> groups;
  std::vector<StateId> first;
  for (const auto& [key, v] : ties) {
    groups.push_back(key);
    first.push_back(v);
  }
  for (auto& f : tie_findings(
           cx.game, groups, [&](std::size_t i) { return cx.trace(first[i]); }, "explicit")) {
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
