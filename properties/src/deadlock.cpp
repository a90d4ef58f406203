// Deadlocks: reachable states that are not over and have no move. Thousands
// of stuck states usually share one cause, so they are grouped by control
// point — the step, its stage and, in a window, the holder's seat relative to
// the active player — and each group is reported once, with the shortest
// trace into it. That keeps "P2 holds priority in combat · fight" one finding
// however many hand contents lead there.
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "loophole/properties/state_groups.hpp"

#include "analyses.hpp"

namespace loophole::properties::detail {

void find_deadlocks(const Context& cx, std::vector<Finding>& out) {
  struct Group {
    StateId first = checker::no_state;
    std::size_t states = 0;
  };
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
    Finding f =
        deadlock_finding(cx.semantics, cx.graph.state(group.first), group.states, "explicit");
    f.trace = cx.trace(group.first);
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
