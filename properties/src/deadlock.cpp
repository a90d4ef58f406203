// Deadlocks: reachable states that are not over and have no move. Thousands
// of stuck states usually share one cause, so they are grouped by control
// point — the step, its stage and, in a window, the holder's seat relative to
// the active player — and each group is reported once, with the shortest
// trace into it. That keeps "P2 holds priority in combat · fight" one finding
// however many hand contents lead there.
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "loophole/checker/questions.hpp"

#include "analyses.hpp"

namespace loophole::properties::detail {
namespace {

struct Group {
  StateId first = checker::no_state;
  std::size_t states = 0;
};

}  // namespace

void find_deadlocks(const Context& cx, std::vector<Finding>& out) {
  std::map<std::tuple<int, int, int>, Group> groups;
  const int players = cx.game.players;
  for (StateId v = 0; v < cx.size(); ++v) {
    if (cx.interrupted()) return;
    if (!cx.dead_end(v)) continue;
    const Point& p = cx.points[v];
    const int seat = p.holder < 0 ? -1 : (p.holder - p.active + players) % players;
    Group& g = groups[{p.step, p.stage, seat}];
    ++g.states;
    if (g.first == checker::no_state || cx.earlier(v, g.first)) g.first = v;
  }
  for (const auto& [key, group] : groups) {
    const Point& p = cx.points[group.first];
    // The question's words (checker/questions.hpp), as the SMT engine says them.
    const bool in_window = p.stage == static_cast<std::int8_t>(checker::Stage::window);
    Finding f = cx.finding(Kind::deadlock, Severity::error);
    f.rule = checker::question::deadlock_rule(cx.game, p.step);
    f.where = checker::question::deadlock_where(cx.game, p.step, in_window);
    f.message = checker::question::deadlock_message(cx.game, p.step, in_window, p.holder);
    if (group.states > 1) {
      f.details.push_back(fmt::format("{} reachable states are stuck at this point", group.states));
    }
    f.trace = cx.trace(group.first);
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
