// Ties: when the game ends, the semantics takes the first end condition that
// holds (in declaration order, players from the active one). If several hold
// at once and they name no single winner (both players win, both lose, one
// wins while the same one loses), the rules have not said who wins and the
// declaration order silently decides: a rule gap of its own. Only states in
// which the game is over are read (few of them), each once.
#include <map>
#include <set>

#include <fmt/format.h>

#include "analyses.hpp"

namespace loophole::properties::detail {
namespace {

std::string outcome(const model::EndCondition& end, int p) {
  return fmt::format("'{}' ({} {})", end.name, Context::player(p), end.win ? "wins" : "loses");
}

}  // namespace

void find_ties(const Context& cx, std::vector<Finding>& out) {
  const auto& conditions = cx.game.end_conditions;
  const int players = cx.game.players;
  if (conditions.size() < 1) return;
  // The set of (condition, player) pairs that hold together -> its earliest state.
  std::map<std::vector<std::pair<int, int>>, StateId> ties;
  std::vector<std::pair<int, int>> holding;
  checker::StateVec state;
  for (StateId v = 0; v < cx.size(); ++v) {
    if (cx.interrupted()) return;
    if (cx.points[v].over != 1) continue;
    holding.clear();
    cx.graph.state_into(v, state);
    cx.semantics.end_conditions_holding(state, holding);
    if (holding.size() < 2) continue;
    // Who can still be the winner: a win names its player, a loss everyone else.
    std::vector<bool> winner(static_cast<std::size_t>(players), true);
    for (const auto& [c, p] : holding) {
      for (int q = 0; q < players; ++q) {
        if ((q == p) != conditions[c].win) winner[q] = false;
      }
    }
    bool someone = false;
    for (const bool w : winner) someone = someone || w;
    if (someone) continue;
    auto [it, fresh] = ties.try_emplace(holding, v);
    if (!fresh && cx.earlier(v, it->second)) it->second = v;
  }
  std::set<std::set<int>> reported;  // one finding per set of conditions
  for (const auto& [pairs, v] : ties) {
    std::set<int> names;
    for (const auto& pc : pairs) names.insert(pc.first);
    if (!reported.insert(names).second) continue;
    const auto& [c0, p0] = pairs.front();
    Finding f = cx.finding(Kind::tie, Severity::error);
    f.rule = fmt::format("end:{}/{}", conditions[c0].name, Context::player(p0));
    f.where = conditions[c0].where;
    std::string all;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (i > 0) all += i + 1 == pairs.size() ? " and " : ", ";
      all += outcome(conditions[pairs[i].first], pairs[i].second);
    }
    f.message = fmt::format("{} hold at once and the rules do not say who wins", all);
    f.details.push_back(
        fmt::format("the first in declaration order decides: {}", outcome(conditions[c0], p0)));
    f.trace = cx.trace(v);
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
