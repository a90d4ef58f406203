// Unreachable end conditions: for every end condition and every player, is
// there a reachable state in which it holds? One pass over all states asks
// the semantics which conditions hold there (whether or not the state is
// already over, so a condition pre-empted by an earlier one still counts as
// reachable), and stops as soon as every pair has been seen. What is never
// seen is reported; after an incomplete exploration that is only unknown.
#include <fmt/format.h>

#include "loophole/checker/questions.hpp"

#include "analyses.hpp"

namespace loophole::properties::detail {

void find_unreachable_wins(const Context& cx, std::vector<Finding>& out) {
  const auto& conditions = cx.game.end_conditions;
  const int players = cx.game.players;
  if (conditions.empty()) return;
  std::vector<bool> seen(conditions.size() * static_cast<std::size_t>(players), false);
  std::size_t missing = seen.size();
  std::vector<std::pair<int, int>> holding;
  checker::StateVec state;
  for (StateId v = 0; v < cx.size() && missing > 0; ++v) {
    if (cx.interrupted()) return;
    holding.clear();
    cx.graph.state_into(v, state);
    cx.semantics.end_conditions_holding(state, holding);
    for (const auto& [c, p] : holding) {
      const auto i = static_cast<std::size_t>(c) * static_cast<std::size_t>(players) +
                     static_cast<std::size_t>(p);
      if (i < seen.size() && !seen[i]) {
        seen[i] = true;
        --missing;
      }
    }
  }
  for (std::size_t c = 0; c < conditions.size(); ++c) {
    const model::EndCondition& end = conditions[c];
    for (int p = 0; p < players; ++p) {
      if (seen[c * static_cast<std::size_t>(players) + static_cast<std::size_t>(p)]) continue;
      Finding f = cx.absence(Kind::unreachable_win, end.win ? Severity::error : Severity::warning);
      f.rule = checker::question::end_rule(end, p);
      f.where = end.where;
      f.message = checker::question::end_never_message(end, p);
      if (cx.complete) {
        f.details.push_back(
            fmt::format("its condition holds for {} in none of the {} reachable states",
                        Context::player(p), cx.size()));
      } else {
        f.details.push_back(
            fmt::format("its condition holds for {} in none of the states explored; {}",
                        Context::player(p), cx.incomplete_reason()));
      }
      out.push_back(std::move(f));
    }
  }
}

}  // namespace loophole::properties::detail
