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

namespace loophole::properties {

Finding deadlock_finding(const checker::Semantics& sem, const checker::StateVec& first,
                         std::uint64_t states, const std::string& engine) {
  const model::Game& game = sem.game();
  const checker::Layout& layout = sem.layout();
  const int step_id = first[layout.step];
  const bool in_window = first[layout.stage] == static_cast<int>(checker::Stage::window);
  Finding f;
  f.kind = Kind::deadlock;
  f.severity = Severity::error;
  f.verdict = Verdict::violated;
  f.engine = engine;
  f.rule = game.step_rule(step_id);
  const model::Step* step = step_id >= 0 && static_cast<std::size_t>(step_id) < game.steps.size()
                                ? &game.steps[static_cast<std::size_t>(step_id)]
                                : nullptr;
  if (step != nullptr) {
    f.where = in_window && step->window_where.known() ? step->window_where : step->where;
  } else {
    f.where = game.where;
  }
  const std::string where = game.step_label(step_id);
  if (in_window && step != nullptr && step->window >= 0) {
    const model::Window& w = game.windows[static_cast<std::size_t>(step->window)];
    const char* holds = w.protocol == model::Protocol::priority ? "holds priority" : "is to move";
    f.message = fmt::format("in '{}', {} {} and can neither act nor pass", where,
                            detail::Context::player(first[layout.window_holder]), holds);
  } else {
    f.message = fmt::format("in '{}', no move is possible", where);
  }
  if (states > 1) {
    f.details.push_back(fmt::format("{} reachable states are stuck at this point", states));
  }
  return f;
}

}  // namespace loophole::properties

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
