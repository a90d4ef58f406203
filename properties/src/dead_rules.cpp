// Dead rules: an action never enabled, a trigger that never fires, a step
// never entered, a window in which nobody ever acts. All four are claims of
// absence over the whole graph, collected in one pass: actions from the
// enabled set in every open window (Semantics::enabled_actions, asked of the
// compiled generator through Conditions), triggers from the trigger and
// decline moves (recomputed only at the states that have one, since edges
// do not name the trigger), steps and windows from the control points and
// the action edges. After an incomplete exploration they are only unknown.
#include <algorithm>

#include <fmt/format.h>

#include "loophole/checker/conditions.hpp"
#include "loophole/properties/state_groups.hpp"

#include "analyses.hpp"

namespace loophole::properties::detail {

void find_dead_rules(const Context& cx, std::vector<Finding>& out) {
  const model::Game& game = cx.game;
  std::vector<bool> enabled(game.actions.size(), false), fired(game.triggers.size(), false),
      reached(game.steps.size(), false), acted(game.windows.size(), false);
  std::size_t unfired = fired.size(), unenabled = enabled.size();
  checker::StateVec state;
  std::vector<int> actions;
  const checker::Conditions conditions(cx.semantics, {});  // (its enabled_actions, compiled)
  std::vector<checker::Successor> succ;
  const auto window_stage = static_cast<std::int8_t>(checker::Stage::window);
  const auto start_stage = static_cast<std::int8_t>(checker::Stage::start);

  const auto& gaps = cx.semantics.gaps();
  std::vector<std::string> step_rules(game.steps.size());
  for (std::size_t s = 0; s < game.steps.size(); ++s)
    step_rules[s] = cx.step_rule(static_cast<int>(s));

  for (StateId v = 0; v < cx.size(); ++v) {
    if (cx.interrupted()) return;
    const Point& p = cx.points[v];
    const bool valid_step = p.step >= 0 && static_cast<std::size_t>(p.step) < game.steps.size();
    if (valid_step && p.stage != start_stage) reached[p.step] = true;
    if (const int gap = cx.gap(v); gap > 0 && static_cast<std::size_t>(gap) <= gaps.size()) {
      // A step whose effects always leave the bounds is still entered.
      const auto it = std::find(step_rules.begin(), step_rules.end(), gaps[gap - 1].rule);
      if (it != step_rules.end()) reached[it - step_rules.begin()] = true;
    }
    if (p.over != 0) continue;
    const auto moves = cx.moves.out(v);
    if (p.stage == window_stage && valid_step) {
      if (unenabled > 0) {  // (once every action was enabled somewhere, no need to ask)
        actions.clear();
        cx.graph.state_into(v, state);
        conditions.enabled_actions(state, actions);
        for (const int a : actions) {
          if (a >= 0 && static_cast<std::size_t>(a) < enabled.size() && !enabled[a]) {
            enabled[a] = true;
            --unenabled;
          }
        }
      }
      const int w = game.steps[p.step].window;
      if (w >= 0 && std::any_of(moves.begin(), moves.end(), [](const Edge& e) {
            return e.kind == checker::MoveKind::action;
          })) {
        acted[w] = true;
      }
    }
    if (unfired > 0 && std::any_of(moves.begin(), moves.end(), [](const Edge& e) {
          return e.kind == checker::MoveKind::trigger || e.kind == checker::MoveKind::decline;
        })) {
      cx.graph.state_into(v, state);
      cx.semantics.successors(state, succ);
      for (const auto& m : succ) {
        const bool trigger_move =
            m.kind == checker::MoveKind::trigger || m.kind == checker::MoveKind::decline;
        if (trigger_move && m.ref >= 0 && static_cast<std::size_t>(m.ref) < fired.size() &&
            !fired[m.ref]) {
          fired[m.ref] = true;
          --unfired;
        }
      }
    }
  }

  std::vector<GroupKey> alive;
  const auto add = [&](std::int64_t what, const std::vector<bool>& flags) {
    for (std::size_t i = 0; i < flags.size(); ++i) {
      if (flags[i]) alive.push_back({what, static_cast<std::int64_t>(i)});
    }
  };
  add(0, reached);
  add(1, acted);
  add(2, enabled);
  add(3, fired);
  for (auto& f : dead_rule_findings(game, alive, cx.complete,
                                    cx.complete ? "" : cx.incomplete_reason(), "explicit")) {
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
