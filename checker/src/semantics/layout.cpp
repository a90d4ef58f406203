// The state layout: the data slots of the Game, then only the control fields
// this game can use (docs/semantics.md, "State"). A field that can never hold
// anything but 0 would only multiply states that no rule can tell apart, so
// the window, stack, leaving, pending and uses fields exist only when some
// rule needs them. The order of the control fields is the one of the table
// in the doc; every engine reads the indices from Layout, never assumes them.
#include <algorithm>

#include "prepared.hpp"

namespace loophole::checker::semantics {
namespace {

// Whether some statement of s has kind k (reverse_turn_order, skip_next).
bool uses(const model::Stmt* s, model::StmtKind k) {
  if (s == nullptr) return false;
  if (s->kind == k) return true;
  return std::any_of(s->bodies.begin(), s->bodies.end(),
                     [&](const model::StmtPtr& b) { return uses(b.get(), k); });
}

bool game_uses(const model::Game& game, model::StmtKind k) {
  if (uses(game.setup.get(), k)) return true;
  for (const auto& st : game.steps) {
    if (uses(st.effects.get(), k)) return true;
  }
  for (const auto& a : game.actions) {
    if (uses(a.cost.get(), k) || uses(a.effect.get(), k)) return true;
  }
  for (const auto& t : game.triggers) {
    if (uses(t.effect.get(), k)) return true;
  }
  return false;
}

void fired_events(const model::Stmt* s, std::vector<bool>& fired) {
  if (s == nullptr) return;
  if (s->kind == model::StmtKind::fire && s->ref >= 0 && s->ref < static_cast<int>(fired.size())) {
    fired[s->ref] = true;
  }
  for (const auto& b : s->bodies) fired_events(b.get(), fired);
}

bool is_end_event(model::EventDecl::Kind k) {
  using K = model::EventDecl::Kind;
  return k == K::end_step || k == K::end_phase || k == K::end_turn;
}

}  // namespace

void build_layout(const model::Game& game, const GapTable& gaps, Layout& layout, Controls& ctl) {
  const int n = game.players;
  auto add = [&](std::string name, std::int32_t lo, std::int32_t hi) {
    layout.fields.push_back(Field{std::move(name), lo, hi});
    return static_cast<int>(layout.fields.size()) - 1;
  };
  auto pname = [](int p) { return "P" + std::to_string(p + 1); };

  for (const auto& slot : game.slots) add(slot.name, slot.lo, slot.hi);
  layout.data_fields = layout.fields.size();

  // Which windows are opened by some step, and what they need.
  bool any_window = false, any_priority = false, any_sequence = false, needs_acted = false;
  int seats = 1;
  std::vector<bool> priority_window(game.windows.size(), false);
  for (const auto& step : game.steps) {
    if (step.window < 0) continue;
    const auto& w = game.windows[step.window];
    any_window = true;
    if (w.protocol == model::Protocol::priority) {
      any_priority = true;
      priority_window[step.window] = true;
      for (const auto& r : w.roles) needs_acted = needs_acted || r.lead_if_active_idle;
    } else if (w.protocol == model::Protocol::sequence) {
      any_sequence = true;
      seats = std::max(seats, static_cast<int>(w.order.size()));
      for (auto t : w.order)
        needs_acted = needs_acted || t == model::SequenceTurn::active_if_answered;
      needs_acted = needs_acted || w.must_act;  // a seat passes only after acting
    }
  }
  // The stack exists when an answerable action can be taken in a priority window.
  bool stack = false;
  for (const auto& a : game.actions) {
    if (!a.answerable) continue;
    if (a.windows.empty()) {
      stack = stack || any_priority;
    } else {
      for (int w : a.windows) stack = stack || (w >= 0 && priority_window[w]);
    }
  }
  // Leaving exists when a trigger listens to an end event; pending bits exist
  // for triggers whose event can fire (built-in, or named by some `fire`).
  std::vector<bool> fired(game.events.size(), false);
  fired_events(game.setup.get(), fired);
  for (const auto& st : game.steps) fired_events(st.effects.get(), fired);
  for (const auto& a : game.actions) {
    fired_events(a.cost.get(), fired);
    fired_events(a.effect.get(), fired);
  }
  for (const auto& t : game.triggers) fired_events(t.effect.get(), fired);
  bool leaving = false;
  std::vector<bool> trigger_live(game.triggers.size(), false);
  for (std::size_t t = 0; t < game.triggers.size(); ++t) {
    const int e = game.triggers[t].event;
    if (e < 0 || e >= static_cast<int>(game.events.size())) continue;
    const auto kind = game.events[e].kind;
    trigger_live[t] = kind != model::EventDecl::Kind::custom || fired[e];
    leaving = leaving || (trigger_live[t] && is_end_event(kind));
  }

  const int steps = std::max(1, static_cast<int>(game.steps.size()));
  const int gap_count = static_cast<int>(gaps.sites.size());
  ctl.over = layout.over = add("ctl.over", 0, 2);
  if (gap_count > 0) ctl.gap = layout.gap = add("ctl.gap", 0, gap_count);
  ctl.active = layout.active = add("ctl.active", 0, n - 1);
  ctl.turn = layout.turn = add("ctl.turn", 1, std::max(1, game.scope.turns));
  ctl.step = layout.step = add("ctl.step", 0, steps - 1);
  ctl.stage = layout.stage = add("ctl.stage", 0, 4);
  // The turn order and a pending skip are state only where a rule changes them.
  if (game_uses(game, model::StmtKind::reverse_order)) ctl.order = add("ctl.order", 0, 1);
  if (game_uses(game, model::StmtKind::skip_next)) ctl.skip = add("ctl.skip", 0, 1);
  if (leaving) {
    ctl.target = add("ctl.target", 0, steps - 1);
    ctl.new_turn = add("ctl.new_turn", 0, 1);
  }
  if (any_window) ctl.holder = layout.window_holder = add("ctl.holder", 0, n - 1);
  if (any_priority) ctl.passes = add("ctl.passes", 0, n - 1);
  if (needs_acted) ctl.acted = add("ctl.acted", 0, 1);
  if (any_sequence) ctl.seat = add("ctl.seat", 0, seats - 1);
  if (stack) {
    ctl.stack_capacity = std::max(0, game.scope.stack);
    ctl.stack_size = layout.stack_size = add("ctl.stack_size", 0, ctl.stack_capacity);
    const int actions = std::max(1, static_cast<int>(game.actions.size()));
    for (int i = 0; i < ctl.stack_capacity; ++i) {
      const std::string entry = "ctl.stack[" + std::to_string(i) + "]";
      const int f = add(entry + ".action", 0, actions - 1);
      add(entry + ".controller", 0, n - 1);
      if (i == 0) ctl.stack_base = f;
    }
    // The targets chosen on cast (`targets:`), one field per position of
    // the longest list, each as wide as the values any action puts there.
    std::vector<std::pair<std::int32_t, std::int32_t>> spans;
    for (const auto& a : game.actions) {
      for (std::size_t j = 0; j < a.targets.size(); ++j) {
        if (spans.size() <= j) spans.emplace_back(0, 0);
        spans[j].first = std::min(spans[j].first, a.targets[j].lo);
        spans[j].second = std::max(spans[j].second, a.targets[j].hi);
      }
    }
    ctl.stack_target_count = static_cast<int>(spans.size());
    for (int i = 0; i < ctl.stack_capacity && !spans.empty(); ++i) {
      for (std::size_t j = 0; j < spans.size(); ++j) {
        const int f = add("ctl.stack[" + std::to_string(i) + "].target[" + std::to_string(j) + "]",
                          spans[j].first, spans[j].second);
        if (i == 0 && j == 0) ctl.stack_targets = f;
      }
    }
  }
  ctl.pending.assign(game.triggers.size(), -1);
  for (std::size_t t = 0; t < game.triggers.size(); ++t) {
    if (!trigger_live[t]) continue;
    for (int p = 0; p < n; ++p) {
      const int f = add("ctl.pending[" + game.triggers[t].name + "][" + pname(p) + "]", 0, 1);
      if (p == 0) ctl.pending[t] = f;
    }
  }
  // A pending trigger keeps the arguments of the event that made it pending
  // when it binds them (`on: damaged(p, n)`), one field per argument.
  ctl.pending_args.assign(game.triggers.size(), -1);
  for (std::size_t t = 0; t < game.triggers.size(); ++t) {
    const auto& trig = game.triggers[t];
    if (trigger_live[t] && !trig.params.empty()) {
      int first = -1;
      const auto& args = game.events[trig.event].args;
      for (int p = 0; p < n; ++p) {
        for (std::size_t i = 0; i < trig.params.size() && i < args.size(); ++i) {
          const int f =
              add("ctl.pending[" + trig.name + "][" + pname(p) + "]." + trig.params[i],
                  std::min<std::int32_t>(0, args[i].lo), std::max<std::int32_t>(0, args[i].hi));
          if (first < 0) first = f;
        }
      }
      ctl.pending_args[t] = first;
    }
  }
  ctl.turn_uses.assign(game.actions.size(), -1);
  ctl.window_uses.assign(game.actions.size(), -1);
  for (std::size_t a = 0; a < game.actions.size(); ++a) {
    const auto& act = game.actions[a];
    if (act.limit.per_turn > 0) {
      for (int p = 0; p < n; ++p) {
        const int f = add("ctl.uses[" + act.name + "][" + pname(p) + "]", 0, act.limit.per_turn);
        if (p == 0) ctl.turn_uses[a] = f;
      }
    }
    if (act.limit.per_window > 0) {
      for (int p = 0; p < n; ++p) {
        const int f =
            add("ctl.window_uses[" + act.name + "][" + pname(p) + "]", 0, act.limit.per_window);
        if (p == 0) ctl.window_uses[a] = f;
      }
    }
  }
}

}  // namespace loophole::checker::semantics
