// Unreachable end conditions: for every end condition and every player, is
// there a reachable state in which it holds? One pass over all states asks
// the semantics which conditions hold there (whether or not the state is
// already over, so a condition pre-empted by an earlier one still counts as
// reachable), and stops as soon as every pair has been seen. What is never
// seen is reported; after an incomplete exploration that is only unknown.
#include <fmt/format.h>

#include "loophole/checker/questions.hpp"
#include "loophole/properties/state_groups.hpp"

#include "analyses.hpp"

namespace loophole::properties::detail {

void find_unreachable_wins(const Context& cx, std::vector<Finding>& out) {
  const auto& conditions = cx.game.end_conditions;
  const int players = cx.game.players;
  if (conditions.empty()) return;
  std::vector<bool> seen(conditions.size() * static_cast<std::size_t>(players), false);
  std::size_t missing = seen.size();
  // A condition that names one player (`win: P1`) is no question for another.
  for (std::size_t c = 0; c < conditions.size(); ++c) {
    for (int p = 0; p < players; ++p) {
      if (checker::question::end_asked(conditions[c], p)) continue;
      seen[c * static_cast<std::size_t>(players) + static_cast<std::size_t>(p)] = true;
      --missing;
    }
  }
  std::vector<GroupKey> reached, keys;
  checker::StateVec state;
  for (StateId v = 0; v < cx.size() && missing > 0; ++v) {
    if (cx.interrupted()) return;
    cx.graph.state_into(v, state);
    keys.clear();
    end_condition_keys(cx.semantics, state, keys);
    for (GroupKey& key : keys) {
      const auto i = static_cast<std::size_t>(key[0]) * static_cast<std::size_t>(players) +
                     static_cast<std::size_t>(key[1]);
      if (i < seen.size() && !seen[i]) {
        seen[i] = true;
        --missing;
        reached.push_back(std::move(key));
      }
    }
  }
  for (auto& f : unreachable_win_findings(cx.game, reached, cx.complete, cx.size(),
                                          cx.complete ? "" : cx.incomplete_reason(), "explicit")) {
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
