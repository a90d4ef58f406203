// Deadlocks: reachable states that are not over and have no move. Thousands
// of stuck states usually share one cause, so they are grouped by control
// point — the step, its stage and, in a window, the holder's seat relative to
// the active player — and each group is reported once, with the shortest
// trace into it. That keeps "P2 holds priority in combat · fight" one finding
// however many hand contents lead there.
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "analyses.hpp"

namespace loophole::properties::detail {
namespace {

struct Group {
  StateId first = checker::no_state;
  std::size_t states = 0;
};

std::string stuck_message(const Context& cx, StateId v) {
  const Point& p = cx.points[v];
  const std::string where = cx.step_label(p.step);
  const model::Step* step = p.step >= 0 && static_cast<std::size_t>(p.step) < cx.game.steps.size()
                                ? &cx.game.steps[p.step]
                                : nullptr;
  if (p.stage == static_cast<std::int8_t>(checker::Stage::window) && step != nullptr &&
      step->window >= 0) {
    const model::Window& w = cx.game.windows[step->window];
    const char* holds = w.protocol == model::Protocol::priority ? "holds priority" : "is to move";
    return fmt::format("in '{}', {} {} and can neither act nor pass", where,
                       Context::player(p.holder), holds);
  }
  return fmt::format("in '{}', no move is possible", where);
}

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
    Finding f = cx.finding(Kind::deadlock, Severity::error);
    f.rule = cx.step_rule(p.step);
    if (p.step >= 0 && static_cast<std::size_t>(p.step) < cx.game.steps.size()) {
      const model::Step& step = cx.game.steps[p.step];
      const bool in_window = p.stage == static_cast<std::int8_t>(checker::Stage::window);
      f.where = in_window && step.window_where.known() ? step.window_where : step.where;
    } else {
      f.where = cx.game.where;
    }
    f.message = stuck_message(cx, group.first);
    if (group.states > 1) {
      f.details.push_back(fmt::format("{} reachable states are stuck at this point", group.states));
    }
    f.trace = cx.trace(group.first);
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
