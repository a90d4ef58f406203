// The Promela generator (generator.hpp): the turn structure's control,
// events, steps, windows and the stack, as the semantics' moves.cpp runs them.
#include <algorithm>
#include <string>
#include <vector>

#include "generator.hpp"

namespace loophole::promela::detail {

// ---------------------------------------------------------------------------
// Control: events, steps, windows (mirrors moves.cpp)

void Generator::fire(std::string& out, int event, const std::vector<std::int64_t>& args) const {
  if (event < 0) return;
  bool any = false;
  for (int t : p_.triggers_by_event[event]) any = any || p_.ctl.pending[t] >= 0;
  if (!any) return;
  out += "lh_g = 0;\n";
  out += per_active([&](std::string& o, int a) {
    for (int t : p_.triggers_by_event[event]) {
      const int base = p_.ctl.pending[t];
      if (base < 0) continue;
      const auto& trig = g_.triggers[t];
      const int k = static_cast<int>(trig.params.size());
      const int kept = p_.ctl.pending_args[t];
      for (int i = 0; i < n_; ++i) {
        const int q = (a + i) % n_;
        if (!covers_static(trig.controller, q, a, n_, rev_)) continue;
        Ctx c;
        c.self = q;
        for (int j = 0; j < k; ++j) c.binders[j] = args[static_cast<std::size_t>(j)];
        std::string becomes = f(base + q) + " = 1";
        for (int j = 0; j < k && kept >= 0; ++j) {
          becomes += "; " + f(kept + q * k + j) + " = " + num(args[static_cast<std::size_t>(j)]);
        }
        const std::string gq = test_gap(p_.rules.trigger_condition[t], c);
        o += "if\n:: lh_g == 0 && " + f(base + q) + " == 0 ->\n";
        if (gq != "0") o += "lh_g = " + gq + ";\n";
        o += "if :: lh_g == 0 && (" + test_val(p_.rules.trigger_condition[t], c) + ") -> " +
             becomes + " :: else -> skip fi\n:: else -> skip\nfi;\n";
      }
    }
  });
  out += "if :: lh_g != 0 -> goto lh_gap_" + std::to_string(label_) + " :: else -> skip fi;\n";
}

// `fire(e(...))`: each argument's failure, then (an int) its range, in
// order; then one case per combination of the arguments' values, each
// firing with those values as constants.
void Generator::fire_args(std::string& out, const lowered::Stmt& s, const Ctx& c) const {
  const auto& decl = g_.events[static_cast<std::size_t>(s.a)].args;
  std::vector<std::string> values;
  for (std::size_t i = 0; i < s.conds.size(); ++i) {
    gap_check(out, gap(s.conds[i], c));
    values.push_back(val(s.conds[i], c));
    const auto& a = decl[i];
    if (s.site >= 0 && a.type == model::Type::int_()) {
      gap_check(out, "((" + values.back() + ") < " + num(a.lo) + " || (" + values.back() + ") > " +
                         num(a.hi) + " -> " + site_code(s.site) + " : 0)");
    }
  }
  std::string cases;
  std::vector<std::int64_t> v(decl.size(), 0);
  const auto each = [&](const auto& self, std::size_t i, const std::string& guard) -> void {
    if (i == decl.size()) {
      std::string body;
      fire(body, s.a, v);
      cases += ":: " + guard + " ->\n" + (body.empty() ? "skip;\n" : body);
      return;
    }
    for (std::int64_t x = decl[i].lo; x <= decl[i].hi; ++x) {
      v[i] = x;
      self(self, i + 1, (guard.empty() ? "" : guard + " && ") + "(" + values[i] + ") == " + num(x));
    }
  };
  each(each, 0, "");
  out += "if\n" + cases + "fi;\n";
}

void Generator::emit(std::string& out) const {
  if (g_.end_conditions.empty()) return;
  out += "lh_g = 0;\n";
  out += per_active([&](std::string& o, int a) {
    for (std::size_t e = 0; e < g_.end_conditions.size(); ++e) {
      const auto& end = g_.end_conditions[e];
      const int condition = p_.rules.end_condition[e];
      for (int i = 0; i < n_; ++i) {
        const int q = (a + i) % n_;
        if (!covers_static(end.who, q, a, n_, rev_)) continue;
        Ctx c;
        c.self = q;
        const std::string gq = test_gap(condition, c);
        o += "if\n:: lh_g == 0 && " + f(p_.ctl.over) + " == 0 ->\n";
        if (gq != "0") o += "lh_g = " + gq + ";\n";
        o += "if :: lh_g == 0 && (" + test_val(condition, c) + ") -> " + f(p_.ctl.over) +
             " = 1 :: else -> skip fi\n:: else -> skip\nfi;\n";
      }
    }
  });
  out += "if :: lh_g != 0 -> goto lh_gap_" + std::to_string(label_) + " :: else -> skip fi;\n";
}

void Generator::close_window(std::string& out) const {
  const auto& ctl = p_.ctl;
  set(out, ctl.stage, "3");
  set(out, ctl.holder, "0");
  set(out, ctl.passes, "0");
  set(out, ctl.acted, "0");
  set(out, ctl.seat, "0");
  for (int base : ctl.window_uses) {
    if (base < 0) continue;
    for (int q = 0; q < n_; ++q) set(out, base + q, "0");
  }
}

std::string Generator::enabled_pre(int a, int q, int w) const {
  const auto& act = g_.actions[a];
  const auto& win = g_.windows[w];
  const auto& ctl = p_.ctl;
  std::vector<std::string> parts;
  const std::string who = covers(act.who, q);
  if (who == "0") return "0";
  parts.push_back(who);
  if (win.protocol == Protocol::priority || !win.roles.empty()) {
    const bool prio = win.protocol == Protocol::priority;
    const std::string answering = prio ? "(" + f(ctl.stack_size) + " > 0)" : "0";
    std::string roles;
    for (const auto& r : win.roles) {
      const std::string cov = covers(r.role, q);
      if (cov == "0") continue;
      auto has = [&](const std::vector<int>& speeds) {
        return g_.speeds.empty() ||
               std::find(speeds.begin(), speeds.end(), act.speed) != speeds.end();
      };
      const bool answer_ok = has(r.answer), lead_ok = has(r.lead);
      std::string lead = lead_ok ? "1" : "0";
      if (lead_ok && r.lead_if_active_idle) lead = "(" + f(ctl.acted) + " == 0)";
      std::string allowed;
      if (answering == "0") {
        allowed = lead;
      } else {
        allowed = cond(answering, answer_ok ? "1" : "0", lead);
      }
      if (allowed == "0") continue;
      roles += (roles.empty() ? "" : " || ") + std::string("(") + cov + " && " + allowed + ")";
    }
    if (roles.empty()) return "0";
    parts.push_back("(" + roles + ")");
  }
  if (ctl.turn_uses[a] >= 0) {
    parts.push_back(f(ctl.turn_uses[a] + q) + " < " + std::to_string(act.limit.per_turn));
  }
  if (ctl.window_uses[a] >= 0) {
    parts.push_back(f(ctl.window_uses[a] + q) + " < " + std::to_string(act.limit.per_window));
  }
  if (act.play_kind >= 0) {
    if (g_.hand_zone < 0) return "0";
    parts.push_back(f(g_.zones[g_.hand_zone].slot(q, act.play_kind, kinds_)) + " >= 1");
  }
  std::string out;
  for (const auto& s : parts) out += (out.empty() ? "" : " && ") + s;
  return "(" + out + ")";
}

// Enabled without a failing guard (Run::enabled() > 0).
std::string Generator::enabled(int a, int q, int w) const {
  const std::string pre = enabled_pre(a, q, w);
  if (pre == "0") return "0";
  Ctx c;
  c.self = q;
  const int guard = p_.rules.action_guard[a];
  const std::string gg = test_gap(guard, c);
  std::string out = pre + " && (" + test_val(guard, c) + ")";
  if (gg != "0") out += " && (" + gg + ") == 0";
  return "(" + out + ")";
}

// Run::handover: the first player after `from` (cyclically, `from` last)
// with an enabled action holds the window; a failing guard is the gap.
void Generator::handover(std::string& out, int w, int from) const {
  // Under must_act the next player moves whenever anyone can.
  const bool must_act = g_.windows[w].must_act;
  out += "lh_g = 0; lh_x = 0;\n";
  int q = from;
  for (int i = 1; i <= n_; ++i) {
    q = model::next_in_order(q, rev_, n_);
    for (int a : p_.window_actions[w]) {
      const std::string pre = enabled_pre(a, q, w);
      if (pre == "0") continue;
      Ctx c;
      c.self = q;
      const int guard = p_.rules.action_guard[a];
      const std::string gg = test_gap(guard, c);
      out += "if\n:: lh_x == 0 && lh_g == 0 && " + pre + " ->\n";
      if (gg != "0") out += "lh_g = " + gg + ";\n";
      out += "if :: lh_g == 0 && (" + test_val(guard, c) + ") -> lh_x = 1; " + f(p_.ctl.holder) +
             " = " + std::to_string(must_act ? model::next_in_order(from, rev_, n_) : q) +
             " :: else -> skip fi\n:: else -> skip\nfi;\n";
    }
  }
  std::string close;
  close_window(close);
  out += "if :: lh_x == 0 && lh_g == 0 ->\n" + close + ":: else -> skip\nfi;\n";
  out += "if :: lh_g != 0 -> goto lh_gap_" + std::to_string(label_) + " :: else -> skip fi;\n";
}

void Generator::open_window(std::string& out, int step) const {
  const int w = g_.steps[step].window;
  const auto& win = g_.windows[w];
  const auto& ctl = p_.ctl;
  set(out, ctl.stage, "2");
  set(out, ctl.holder, active());
  switch (win.protocol) {
    case Protocol::priority:
      break;
    case Protocol::alternate:
      out += per_active(
          [&](std::string& o, int a) { handover(o, w, model::next_in_order(a, !rev_, n_)); });
      break;
    case Protocol::sequence: {
      std::size_t seat = 0;
      while (seat < win.order.size() && win.order[seat] == SequenceTurn::active_if_answered) ++seat;
      if (seat >= win.order.size()) {
        close_window(out);
        break;
      }
      set(out, ctl.seat, std::to_string(seat));
      set(out, ctl.holder,
          win.order[seat] == SequenceTurn::opponent ? next_of(active()) : active());
      break;
    }
  }
}

void Generator::after_step_do(std::string& out, int step) const {
  if (g_.steps[step].window < 0) {
    set(out, p_.ctl.stage, "3");
  } else {
    open_window(out, step);
  }
  emit(out);
}

void Generator::step_do(std::string& out, int step) const {
  const int effects = p_.rules.step_effect[step];
  if (effects >= 0) {
    out += per_active([&](std::string& o, int a) {
      Ctx c;
      c.self = a;
      stmt(o, effects, c);
    });
  }
  after_step_do(out, step);
}

void Generator::enter(std::string& out, int target, bool new_turn, bool start,
                      int from_step) const {
  const auto& ctl = p_.ctl;
  if (new_turn) {
    // The next player in the current order; skip_next() skips one more.
    set(out, ctl.active,
        ctl.order < 0 ? "(" + active() + " + 1) % " + std::to_string(n_) : next_of(active()));
    if (ctl.skip >= 0) {
      out += "if :: " + f(ctl.skip) + " != 0 -> " + active() + " = " + next_of(active()) + "; " +
             f(ctl.skip) + " = 0 :: else -> skip fi;\n";
    }
    const int turns = std::max(1, g_.scope.turns);
    out += "if :: " + f(ctl.turn) + " < " + std::to_string(turns) + " -> " + f(ctl.turn) + " = " +
           f(ctl.turn) + " + 1 :: else -> skip fi;\n";
    for (int base : ctl.turn_uses) {
      if (base < 0) continue;
      for (int q = 0; q < n_; ++q) set(out, base + q, "0");
    }
  }
  const int phase = g_.steps[target].phase;
  if (new_turn || start) fire(out, p_.begin_turn_event);
  if (new_turn || start || g_.steps[from_step].phase != phase) {
    fire(out, g_.phases[phase].begin_event);
  }
  fire(out, g_.steps[target].begin_event);
  set(out, ctl.step, std::to_string(target));
  set(out, ctl.stage, "1");
  out += "lh_prog = 1;\n";
  std::string effects;
  step_do(effects, target);
  const std::string pending = any_pending();
  if (pending == "0") {
    out += effects;
  } else {
    std::string stop;
    emit(stop);
    out += "if\n:: " + pending + " ->\n" + (stop.empty() ? "skip;\n" : stop) + ":: else ->\n" +
           effects + "fi;\n";
  }
}

void Generator::advance_to(std::string& out, int step, int target, bool new_turn) const {
  const auto& ctl = p_.ctl;
  const int phase = g_.steps[step].phase;
  fire(out, g_.steps[step].end_event);
  if (new_turn || g_.steps[target].phase != phase) fire(out, g_.phases[phase].end_event);
  if (new_turn) fire(out, p_.end_turn_event);
  std::string entering;
  enter(entering, target, new_turn, false, step);
  const std::string pending = any_pending();
  if (pending == "0") {
    out += entering;
    return;
  }
  std::string leave;
  set(leave, ctl.stage, "4");
  set(leave, ctl.target, std::to_string(target));
  set(leave, ctl.new_turn, new_turn ? "1" : "0");
  emit(leave);
  out += "if\n:: " + pending + " ->\n" + leave + ":: else ->\n" + entering + "fi;\n";
}

void Generator::advance(std::string& out, int step) const {
  const int last = static_cast<int>(g_.steps.size()) - 1;
  Ctx c;
  // repeat_while / end_turn_if see `self` = the active player.
  out += per_active([&](std::string& o, int a) {
    c.self = a;
    const int repeat = p_.rules.step_repeat[step], end_turn = p_.rules.step_end_turn[step];
    const std::string rw = repeat >= 0 ? val(repeat, c) : "0";
    const std::string et = end_turn >= 0 ? val(end_turn, c) : "0";
    const std::string grw = test_gap(repeat, c);
    const std::string get = end_turn >= 0 ? gap(end_turn, c) : "0";
    gap_check(o, combine(grw, cond(rw, "0", get)));
    std::string next, ending, repeating;
    advance_to(repeating, step, step, false);
    advance_to(ending, step, 0, true);
    if (step == last) {
      next = ending;
    } else {
      advance_to(next, step, step + 1, false);
    }
    std::string rest = next;
    if (end_turn >= 0) rest = "if\n:: " + et + " ->\n" + ending + ":: else ->\n" + next + "fi;\n";
    if (repeat >= 0) rest = "if\n:: " + rw + " ->\n" + repeating + ":: else ->\n" + rest + "fi;\n";
    o += rest;
  });
}

void Generator::push(std::string& out, int a, int h) const {
  const auto& ctl = p_.ctl;
  const int b = ctl.stack_capacity;
  out += "if\n:: " + f(ctl.stack_size) + " >= " + std::to_string(b) +
         " -> lh_g = " + std::to_string(p_.push_site[a] + 1) + "; goto lh_gap_" +
         std::to_string(label_) + "\n";
  for (int i = 0; i < b; ++i) {
    out += ":: " + f(ctl.stack_size) + " == " + std::to_string(i) + " -> " + stack_entry(i, 0) +
           " = " + std::to_string(a) + "; " + stack_entry(i, 1) + " = " + std::to_string(h) + "\n";
  }
  out += "fi;\n";
  set(out, ctl.stack_size, f(ctl.stack_size) + " + 1");
  set(out, ctl.holder, next_of(std::to_string(h)));
  set(out, ctl.passes, "0");
}

void Generator::take_action(std::string& out, int w, int a, int h) const {
  const auto& act = g_.actions[a];
  const auto& ctl = p_.ctl;
  Ctx c;
  c.self = h;
  if (act.play_kind >= 0) {
    const int from = g_.zones[g_.hand_zone].slot(h, act.play_kind, kinds_);
    out += f(from) + " = " + f(from) + " - 1;\n";
    if (act.to_zone >= 0) {
      const int to = g_.zones[act.to_zone].slot(h, act.play_kind, kinds_);
      out += f(to) + " = " + f(to) + " + 1;\n";
      const std::string full = over_capacity(act.to_zone, g_.zones[act.to_zone].slot(h, 0, kinds_));
      out += "if :: " + f(to) + " > " + num(g_.slots[to].hi) + (full.empty() ? "" : " || " + full) +
             " -> lh_g = " + std::to_string(p_.play_site[a] + 1) + "; goto lh_gap_" +
             std::to_string(label_) + " :: else -> skip fi;\n";
    }
  }
  stmt(out, p_.rules.action_cost[a], c);
  auto count_use = [&] {
    if (ctl.turn_uses[a] >= 0) {
      const std::string u = f(ctl.turn_uses[a] + h);
      out += u + " = " + u + " + 1;\n";
    }
    if (ctl.window_uses[a] >= 0) {
      const std::string u = f(ctl.window_uses[a] + h);
      out += u + " = " + u + " + 1;\n";
    }
  };
  switch (g_.windows[w].protocol) {
    case Protocol::priority:
      count_use();
      if (ctl.acted >= 0) {
        out += "if :: " + active() + " == " + std::to_string(h) + " -> " + f(ctl.acted) +
               " = 1 :: else -> skip fi;\n";
      }
      if (!act.answerable) {
        stmt(out, p_.rules.action_effect[a], c);
        set(out, ctl.passes, "0");
      } else {
        push(out, a, h);
      }
      break;
    case Protocol::alternate:
      count_use();
      stmt(out, p_.rules.action_effect[a], c);
      out += per_order([&](std::string& o) { handover(o, w, h); });
      break;
    case Protocol::sequence:
      count_use();
      stmt(out, p_.rules.action_effect[a], c);
      set(out, ctl.acted, "1");
      break;
  }
  emit(out);
}

std::string Generator::steps_with_window(int w) const {
  std::string out;
  for (std::size_t k = 0; k < g_.steps.size(); ++k) {
    if (g_.steps[k].window != w) continue;
    out += (out.empty() ? "" : " || ") + f(p_.ctl.step) + " == " + std::to_string(k);
  }
  return out.empty() ? "0" : "(" + out + ")";
}

}  // namespace loophole::promela::detail
