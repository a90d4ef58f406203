// The transition relation: the rules' lowered form run symbolically, once,
// over the template state x, with the turn structure of the reference
// semantics (checker/src/semantics/moves.cpp, effects.cpp) over the lowered
// form's tables. The executor has the same shape as semantics::Run — statements in
// continuation-passing style, the tail of a move dispatched in finish() — but
// where Run reads a concrete value it either keeps a term (data) or splits
// into one case per value (control fields, players, stack entries), and
// where Run enumerates outcomes (a draw's multisets) it introduces choice
// constants constrained to the legal outcomes. Every complete path appends a
// Path; a move's existence condition (before its effects run) is kept apart
// so that "no move" (deadlock) needs no quantifier over outcomes.
#include <algorithm>
#include <functional>
#include <tuple>
#include <utility>

#include "encoding.hpp"
#include "exec.hpp"

namespace loophole::smt::detail {
namespace symbolic {

void Exec::start_move(const z3::expr& cond) {
  pc_ = cond;
  en_.move_conds.push_back(cond);
}

void Exec::run() {
  const auto& ctl = p_.ctl;
  const int n = en_.players;
  const auto& x = en_.x;
  const Saved initial = save();
  // One case per active player and turn order.
  for (int ao = 0; ao < n * en_.orders(); ++ao) {
    const int a = ao / en_.orders(), o = ao % en_.orders();
    restore(initial);
    w_ = x;
    at(ctl.over) = num(0);
    at(ctl.active) = num(a);
    active_ = a;
    z3::expr base =
        x[static_cast<std::size_t>(ctl.over)] == 0 && x[static_cast<std::size_t>(ctl.active)] == a;
    if (ctl.order >= 0) {
      at(ctl.order) = num(o);
      base = base && x[static_cast<std::size_t>(ctl.order)] == o;
    }
    const Saved base_state = save();
    // Pending triggers first: the first controller in turn order from the
    // active player who has one chooses among them.
    std::vector<z3::expr> any(static_cast<std::size_t>(n), c_.bool_val(false));
    for (int c = 0; c < n; ++c) {
      for (int b : ctl.pending) {
        const int slot = b + c;
        if (b >= 0) any[c] = any[c] || x[static_cast<std::size_t>(slot)] == 1;
      }
    }
    z3::expr none_before = c_.bool_val(true);
    for (int i = 0; i < n; ++i) {
      const int c = (a + i) % n;
      for (std::size_t t = 0; t < ctl.pending.size(); ++t) {
        const int b = ctl.pending[t];
        if (b < 0) continue;
        const auto& trig = en_.game.triggers[t];
        const int effect = p_.rules.trigger_effect[t];
        for (int decline = 0; decline < (trig.optional ? 2 : 1); ++decline) {
          restore(base_state);
          move_ref_ = static_cast<int>(t);
          move_player_ = c;
          const int slot = b + c;
          start_move(base && none_before && x[static_cast<std::size_t>(slot)] == 1);
          at(b + c) = num(0);
          // The arguments its event fired with: locals 0..k-1 of its effect.
          const int kept = ctl.pending_args[t];
          const int k = static_cast<int>(trig.params.size());
          const int first = kept + c * k;
          if (decline == 1) {
            for (int j = 0; j < k && kept >= 0; ++j) at(first + j) = num(0);
            emit();
          } else if (kept >= 0) {
            with_kept_args(first, 0, k, [&] { run_effect(effect, c, Tail::emit); });
          } else {
            run_effect(effect, c, Tail::emit);
          }
        }
      }
      none_before = none_before && !any[static_cast<std::size_t>(c)];
    }
    const z3::expr quiet = base && none_before;
    const z3::expr stage = x[static_cast<std::size_t>(ctl.stage)];
    const z3::expr step = x[static_cast<std::size_t>(ctl.step)];
    const int steps = static_cast<int>(en_.game.steps.size());
    move_ref_ = -1;
    move_player_ = -1;
    restore(base_state);
    start_move(quiet && stage == static_cast<int>(Stage::start));
    enter(0, false, true);
    for (int st = 0; st < steps; ++st) {
      const z3::expr here = quiet && step == st;
      restore(base_state);
      at(ctl.step) = num(st);
      start_move(here && stage == static_cast<int>(Stage::pre));
      at(ctl.stage) = num(static_cast<int>(Stage::pre));
      run_step_do();

      restore(base_state);
      at(ctl.step) = num(st);
      start_move(here && stage == static_cast<int>(Stage::post));
      at(ctl.stage) = num(static_cast<int>(Stage::post));
      advance();

      restore(base_state);
      at(ctl.step) = num(st);
      start_move(here && stage == static_cast<int>(Stage::leaving));
      at(ctl.stage) = num(static_cast<int>(Stage::leaving));
      with_field(ctl.target, [&](int target) {
        with_field(ctl.new_turn, [&](int nt) {
          put(ctl.target, num(0));
          put(ctl.new_turn, num(0));
          enter(target, nt != 0, false);
        });
      });

      if (en_.game.steps[static_cast<std::size_t>(st)].window < 0) continue;
      const int holders = ctl.holder < 0 ? 1 : n;
      for (int h = 0; h < holders; ++h) {
        restore(base_state);
        at(ctl.step) = num(st);
        at(ctl.stage) = num(static_cast<int>(Stage::window));
        z3::expr cond = here && stage == static_cast<int>(Stage::window);
        if (ctl.holder >= 0) {
          cond = cond && x[static_cast<std::size_t>(ctl.holder)] == h;
          at(ctl.holder) = num(h);
        }
        window_moves(st, h, cond);
      }
    }
  }
}

std::pair<z3::expr, z3::expr> Exec::enabled(int a, int p, int window) {
  const auto& act = en_.game.actions[static_cast<std::size_t>(a)];
  const auto& win = en_.game.windows[static_cast<std::size_t>(window)];
  const auto& ctl = p_.ctl;
  const z3::expr no = c_.bool_val(false);
  if (!covers(act.who, p)) return {no, num(-1)};
  z3::expr pre = c_.bool_val(true);
  if (win.protocol == Protocol::priority || !win.roles.empty()) {
    const z3::expr answering =
        win.protocol == Protocol::priority ? en_.field(w_, ctl.stack_size) > 0 : c_.bool_val(false);
    const z3::expr acted = en_.field(w_, ctl.acted) != 0;
    auto speed_in = [&](const std::vector<int>& speeds) {
      return en_.game.speeds.empty() ||
             std::find(speeds.begin(), speeds.end(), act.speed) != speeds.end();
    };
    z3::expr allowed = no;
    for (const auto& r : win.roles) {
      if (!covers(r.role, p)) continue;
      z3::expr lead = c_.bool_val(speed_in(r.lead));
      if (r.lead_if_active_idle) lead = lead && !acted;
      allowed = allowed || (answering && c_.bool_val(speed_in(r.answer))) || (!answering && lead);
    }
    pre = pre && allowed;
  }
  if (ctl.turn_uses[a] >= 0) pre = pre && at(ctl.turn_uses[a] + p) < act.limit.per_turn;
  if (ctl.window_uses[a] >= 0) pre = pre && at(ctl.window_uses[a] + p) < act.limit.per_window;
  if (act.play_kind >= 0) {
    if (en_.game.hand_zone < 0) return {no, num(-1)};
    pre = pre && en_.zone_slot_value(w_, en_.game.hand_zone, num(p), act.play_kind) >= 1;
  }
  pre = pre.simplify();
  if (pre.is_false()) return {no, num(-1)};
  Ev ev = en_.env(w_, b_, active_, p);
  ev.reach = pre;
  const z3::expr g = en_.guard(p_.rules.action_guard[static_cast<std::size_t>(a)], ev);
  return {(pre && g).simplify(), ev.err.simplify()};
}

void Exec::window_moves(int step, int h, const z3::expr& base) {
  const int w = en_.game.steps[static_cast<std::size_t>(step)].window;
  const auto& win = en_.game.windows[static_cast<std::size_t>(w)];
  const Saved sv = save();
  z3::expr any_action = c_.bool_val(false);
  move_player_ = h;
  for (int a : p_.window_actions[static_cast<std::size_t>(w)]) {
    restore(sv);
    const auto [en, err] = enabled(a, h, w);
    move_ref_ = a;
    const z3::expr failed = (err != -1).simplify();
    if (!failed.is_false()) {
      restore(sv);
      start_move(base && failed);
      gap(err);
    }
    const z3::expr ok = (en && err == -1).simplify();
    any_action = any_action || ok;
    if (ok.is_false()) continue;
    restore(sv);
    start_move(base && ok);
    take_action();
  }
  restore(sv);
  move_ref_ = -1;
  switch (win.protocol) {
    case Protocol::priority:
      if (!win.may_pass) return;
      start_move(base);
      return pass();
    case Protocol::alternate:
      if (win.must_act) return;
      start_move(win.may_pass ? base : (base && !any_action).simplify());
      return pass();
    case Protocol::sequence:
      start_move(win.must_act ? (base && at(p_.ctl.acted) != 0).simplify() : base);
      return pass();
  }
}

void Exec::fire(int event, z3::expr& err) {
  if (event < 0) return;
  for (int t : p_.triggers_by_event[static_cast<std::size_t>(event)]) {
    const int base = p_.ctl.pending[static_cast<std::size_t>(t)];
    if (base < 0) continue;
    const auto& trig = en_.game.triggers[static_cast<std::size_t>(t)];
    const int k = static_cast<int>(trig.params.size());
    const int kept = p_.ctl.pending_args[static_cast<std::size_t>(t)];
    for (int i = 0; i < en_.players; ++i) {
      const int c = (active_ + i) % en_.players;
      if (!covers(trig.controller, c)) continue;
      const z3::expr bit = at(base + c);
      // The condition sees the arguments as locals 0..k-1 (the effect's own
      // locals are put back after).
      const std::vector<std::int64_t> locals = b_;
      for (int j = 0; j < k; ++j) b_[static_cast<std::size_t>(j)] = event_args_[j];
      Ev ev = env(c);
      ev.reach = bit == 0 && err == -1;
      const z3::expr h = en_.guard(p_.rules.trigger_condition[static_cast<std::size_t>(t)], ev);
      b_ = locals;
      err = z3::ite(err == -1, ev.err, err).simplify();
      const z3::expr becomes = bit == 0 && h;
      put(base + c, z3::ite(becomes, num(1), bit));
      for (int j = 0; j < k && kept >= 0; ++j) {
        const int f = kept + c * k + j;
        put(f, z3::ite(becomes, num(static_cast<int>(event_args_[j])), at(f)));
      }
    }
  }
}

void Exec::enter(int target, bool new_turn, bool start) {
  const auto& ctl = p_.ctl;
  const int from_phase =
      start ? -1 : step_phase(static_cast<int>(at(ctl.step).simplify().get_numeral_int64()));
  if (new_turn && ctl.skip >= 0 && !at(ctl.skip).simplify().is_numeral()) {
    return with_field(ctl.skip, [&](int) { enter(target, new_turn, start); });
  }
  if (new_turn) {
    // The next player in the current order; skip_next() skips one more.
    active_ = next_player(active_);
    if (ctl.skip >= 0 && at(ctl.skip).simplify().get_numeral_int64() != 0) {
      active_ = next_player(active_);
      at(ctl.skip) = num(0);
    }
    at(ctl.active) = num(active_);
    const int turns = std::max(1, en_.game.scope.turns);
    const z3::expr t = at(ctl.turn) + 1;
    put(ctl.turn, z3::ite(t > turns, num(turns), t));
    for (int base : ctl.turn_uses) {
      if (base < 0) continue;
      for (int p = 0; p < en_.players; ++p) at(base + p) = num(0);
    }
  }
  const int phase = step_phase(target);
  z3::expr err = num(-1);
  if (new_turn || start) fire(p_.begin_turn_event, err);
  if (new_turn || start || phase != from_phase) {
    fire(en_.game.phases[static_cast<std::size_t>(phase)].begin_event, err);
  }
  fire(en_.game.steps[static_cast<std::size_t>(target)].begin_event, err);
  branch(
      err != -1, [&] { gap(err); },
      [&] {
        at(ctl.step) = num(target);
        at(ctl.stage) = num(static_cast<int>(Stage::pre));
        z3::expr pending = c_.bool_val(false);
        for (int base : ctl.pending) {
          if (base < 0) continue;
          for (int p = 0; p < en_.players; ++p) pending = pending || at(base + p) != 0;
        }
        branch(
            pending, [&] { emit(); }, [&] { run_step_do(); });
      });
}

void Exec::run_step_do() {
  const int step = static_cast<int>(at(p_.ctl.step).simplify().get_numeral_int64());
  run_effect(p_.rules.step_effect[static_cast<std::size_t>(step)], active_, Tail::after_step_do);
}

void Exec::advance() {
  const auto& ctl = p_.ctl;
  const int step = static_cast<int>(at(ctl.step).simplify().get_numeral_int64());
  const auto& st = en_.game.steps[static_cast<std::size_t>(step)];
  const int steps = static_cast<int>(en_.game.steps.size());
  Ev ev = env(active_);
  const int repeat_node = p_.rules.step_repeat[static_cast<std::size_t>(step)];
  const int end_turn_node = p_.rules.step_end_turn[static_cast<std::size_t>(step)];
  const z3::expr repeat = repeat_node >= 0 ? en_.eval_bool(repeat_node, ev) : c_.bool_val(false);
  ev.reach = !repeat;
  const z3::expr end_turn =
      end_turn_node >= 0 ? en_.eval_bool(end_turn_node, ev) : c_.bool_val(false);
  const z3::expr err0 = ev.err;
  auto go = [&](int target, bool new_turn) {
    const int phase = st.phase;
    z3::expr err = num(-1);
    fire(st.end_event, err);
    if (new_turn || step_phase(target) != phase) {
      fire(en_.game.phases[static_cast<std::size_t>(phase)].end_event, err);
    }
    if (new_turn) fire(p_.end_turn_event, err);
    branch(
        err != -1, [&] { gap(err); },
        [&] {
          z3::expr pending = c_.bool_val(false);
          for (int base : ctl.pending) {
            if (base < 0) continue;
            for (int p = 0; p < en_.players; ++p) pending = pending || at(base + p) != 0;
          }
          branch(
              pending,
              [&] {
                at(ctl.stage) = num(static_cast<int>(Stage::leaving));
                put(ctl.target, num(target));
                put(ctl.new_turn, num(new_turn ? 1 : 0));
                emit();
              },
              [&] { enter(target, new_turn, false); });
        });
  };
  branch(
      err0 != -1, [&] { gap(err0); },
      [&] {
        branch(
            repeat, [&] { go(step, false); },
            [&] {
              const bool last = step + 1 == steps;
              branch(
                  end_turn, [&] { go(0, true); }, [&] { go(last ? 0 : step + 1, last); });
            });
      });
}

void Exec::open_window(int window) {
  const auto& ctl = p_.ctl;
  const auto& win = en_.game.windows[static_cast<std::size_t>(window)];
  at(ctl.stage) = num(static_cast<int>(Stage::window));
  put(ctl.holder, num(active_));
  switch (win.protocol) {
    case Protocol::priority:
      return emit();
    case Protocol::alternate:
      return handover(model::next_in_order(active_, !reversed(), en_.players), [&] { emit(); });
    case Protocol::sequence: {
      std::size_t seat = 0;
      while (seat < win.order.size() && win.order[seat] == SequenceTurn::active_if_answered) ++seat;
      if (seat >= win.order.size()) {
        close_window();
        return emit();
      }
      put(ctl.seat, num(static_cast<int>(seat)));
      put(ctl.holder,
          num(win.order[seat] == SequenceTurn::opponent ? next_player(active_) : active_));
      return emit();
    }
  }
}

void Exec::close_window() {
  const auto& ctl = p_.ctl;
  at(ctl.stage) = num(static_cast<int>(Stage::post));
  put(ctl.holder, num(0));
  put(ctl.passes, num(0));
  put(ctl.acted, num(0));
  put(ctl.seat, num(0));
  for (int base : ctl.window_uses) {
    if (base < 0) continue;
    for (int p = 0; p < en_.players; ++p) at(base + p) = num(0);
  }
}

// The first player after `from` (cyclically, `from` last) with an enabled
// action gets the turn; a guard that fails on the way is a gap; nobody: the
// window closes. One decision list, three cases.
template <class K>
void Exec::handover(int from, K&& k) {
  const int window =
      en_.game.steps[static_cast<std::size_t>(at(p_.ctl.step).simplify().get_numeral_int64())]
          .window;
  z3::expr reached = c_.bool_val(true);
  z3::expr site = num(-1);
  z3::expr holder = num(0);
  z3::expr failed = c_.bool_val(false), found = c_.bool_val(false);
  std::vector<std::tuple<z3::expr, z3::expr, int>> items;
  int seat = from;
  for (int i = 1; i <= en_.players; ++i) {
    seat = next_player(seat);
    const int p = seat;
    for (int a : p_.window_actions[static_cast<std::size_t>(window)]) {
      const auto [en, err] = enabled(a, p, window);
      const z3::expr g = reached && err != -1;
      const z3::expr f = reached && err == -1 && en;
      items.emplace_back(g, err, -1);
      items.emplace_back(f, num(0), p);
      failed = failed || g;
      found = found || f;
      reached = reached && err == -1 && !en;
    }
  }
  for (auto it = items.rbegin(); it != items.rend(); ++it) {
    const auto& [cond, err, p] = *it;
    if (p < 0) {
      site = z3::ite(cond, err, site);
    } else {
      holder = z3::ite(cond, num(p), holder);
    }
  }
  // Under must_act the next player moves whenever anyone can.
  if (en_.game.windows[static_cast<std::size_t>(window)].must_act) {
    holder = num(next_player(from));
  }
  branch(
      failed, [&] { gap(site); },
      [&] {
        branch(
            found,
            [&] {
              put(p_.ctl.holder, holder);
              k();
            },
            [&] {
              close_window();
              k();
            });
      });
}

void Exec::count_use(int a, int p) {
  const auto& ctl = p_.ctl;
  if (ctl.turn_uses[a] >= 0) put(ctl.turn_uses[a] + p, at(ctl.turn_uses[a] + p) + 1);
  if (ctl.window_uses[a] >= 0) put(ctl.window_uses[a] + p, at(ctl.window_uses[a] + p) + 1);
}

void Exec::take_action() {
  const int a = move_ref_, h = move_player_;
  const auto& act = en_.game.actions[static_cast<std::size_t>(a)];
  const int window =
      en_.game.steps[static_cast<std::size_t>(at(p_.ctl.step).simplify().get_numeral_int64())]
          .window;
  const int cost_node = p_.rules.action_cost[static_cast<std::size_t>(a)];
  auto cost = [&] {
    switch (en_.game.windows[static_cast<std::size_t>(window)].protocol) {
      case Protocol::priority:
        return run_effect(cost_node, h, Tail::priority_cost);
      case Protocol::alternate:
        return run_effect(cost_node, h, Tail::alternate_cost);
      case Protocol::sequence:
        return run_effect(cost_node, h, Tail::sequence_cost);
    }
  };
  if (act.play_kind < 0) return cost();
  const auto& zones = en_.game.zones;
  const int from =
      zones[static_cast<std::size_t>(en_.game.hand_zone)].slot(h, act.play_kind, p_.kinds);
  put(from, at(from) - 1);
  if (act.to_zone < 0) return cost();
  const int to = zones[static_cast<std::size_t>(act.to_zone)].slot(h, act.play_kind, p_.kinds);
  put(to, at(to) + 1);
  branch(
      at(to) > p_.layout.fields[static_cast<std::size_t>(to)].hi ||
          over_capacity(act.to_zone,
                        zones[static_cast<std::size_t>(act.to_zone)].slot(h, 0, p_.kinds)),
      [&] { gap(num(p_.play_site[static_cast<std::size_t>(a)])); }, cost);
}

void Exec::pass() {
  const auto& ctl = p_.ctl;
  const int h = move_player_;
  const int window =
      en_.game.steps[static_cast<std::size_t>(at(ctl.step).simplify().get_numeral_int64())].window;
  const auto& win = en_.game.windows[static_cast<std::size_t>(window)];
  switch (win.protocol) {
    case Protocol::priority:
      return with_field(ctl.passes, [&](int passes) {
        if (passes + 1 < en_.players) {
          put(ctl.holder, num(next_player(h)));
          put(ctl.passes, num(passes + 1));
          return emit();
        }
        with_field(ctl.stack_size, [&](int size) {
          if (size == 0) {
            close_window();
            return emit();
          }
          const int slot = ctl.stack_base + 2 * (size - 1);
          with_field(slot, [&](int a) {
            with_field(slot + 1, [&](int c) {
              put(slot, num(0));
              put(slot + 1, num(0));
              put(ctl.stack_size, num(size - 1));
              move_ref_ = a;
              run_effect(p_.rules.action_effect[static_cast<std::size_t>(a)], c, Tail::resolve);
            });
          });
        });
      });
    case Protocol::alternate:
      return handover(h, [&] { emit(); });
    case Protocol::sequence:
      return with_field(ctl.seat, [&](int seat0) {
        with_field(ctl.acted, [&](int acted) {
          std::size_t seat = static_cast<std::size_t>(seat0) + 1;
          bool answered = acted != 0;
          while (seat < win.order.size() && win.order[seat] == SequenceTurn::active_if_answered &&
                 !answered) {
            ++seat;
            answered = false;
          }
          if (seat >= win.order.size()) {
            close_window();
            return emit();
          }
          put(ctl.seat, num(static_cast<int>(seat)));
          put(ctl.acted, num(0));
          put(ctl.holder,
              num(win.order[seat] == SequenceTurn::opponent ? next_player(active_) : active_));
          emit();
        });
      });
  }
}

void Exec::finish(Tail t) {
  const auto& ctl = p_.ctl;
  const int a = move_ref_, h = move_player_;
  switch (t) {
    case Tail::emit:
      return emit();
    case Tail::after_step_do: {
      const int step = static_cast<int>(at(ctl.step).simplify().get_numeral_int64());
      const int window = en_.game.steps[static_cast<std::size_t>(step)].window;
      if (window < 0) {
        at(ctl.stage) = num(static_cast<int>(Stage::post));
        return emit();
      }
      return open_window(window);
    }
    case Tail::priority_cost: {
      count_use(a, h);
      if (h == active_) put(ctl.acted, num(1));
      const auto& act = en_.game.actions[static_cast<std::size_t>(a)];
      if (!act.answerable) {
        return run_effect(p_.rules.action_effect[static_cast<std::size_t>(a)], h,
                          Tail::priority_effect);
      }
      return with_field(ctl.stack_size, [&](int size) {
        if (size >= ctl.stack_capacity) {
          return gap(num(p_.push_site[static_cast<std::size_t>(a)]));
        }
        put(ctl.stack_base + 2 * size, num(a));
        put(ctl.stack_base + 2 * size + 1, num(h));
        put(ctl.stack_size, num(size + 1));
        put(ctl.holder, num(next_player(h)));
        put(ctl.passes, num(0));
        emit();
      });
    }
    case Tail::priority_effect:
      put(ctl.passes, num(0));
      return emit();
    case Tail::alternate_cost:
    case Tail::sequence_cost:
      count_use(a, h);
      return run_effect(p_.rules.action_effect[static_cast<std::size_t>(a)], h,
                        t == Tail::alternate_cost ? Tail::alternate_effect : Tail::sequence_effect);
    case Tail::alternate_effect:
      return handover(h, [&] { emit(); });
    case Tail::sequence_effect:
      put(ctl.acted, num(1));
      return emit();
    case Tail::resolve:
      put(ctl.holder, num(active_));
      put(ctl.passes, num(0));
      return emit();
  }
}

// The end check after a move: the first end condition (in order, players in
// turn order from the active one) that fails to evaluate is a gap, the first
// that holds ends the game.
void Exec::emit() {
  std::vector<std::pair<z3::expr, z3::expr>> failures;
  z3::expr reached = c_.bool_val(true), over = c_.bool_val(false);
  z3::expr failed = c_.bool_val(false);
  for (std::size_t e = 0; e < en_.game.end_conditions.size(); ++e) {
    const auto& end = en_.game.end_conditions[e];
    for (int i = 0; i < en_.players; ++i) {
      const int p = (active_ + i) % en_.players;
      if (!covers(end.who, p)) continue;
      Ev ev = env(p);
      const z3::expr h = en_.guard(p_.rules.end_condition[e], ev);
      const z3::expr err = ev.err.simplify();
      const z3::expr g = reached && err != -1;
      failures.emplace_back(g, err);
      failed = failed || g;
      over = over || (reached && err == -1 && h);
      reached = reached && err == -1 && !h;
    }
  }
  z3::expr site = num(-1);
  for (auto it = failures.rbegin(); it != failures.rend(); ++it) {
    site = z3::ite(it->first, it->second, site);
  }
  branch(
      failed, [&] { gap(site); },
      [&] {
        put(p_.ctl.over, z3::ite(over, num(1), num(0)));
        output();
      });
}

void Exec::gap(const z3::expr& site) {
  en_.control.throw_if_stopped();
  std::vector<z3::expr> next = en_.x;
  next[static_cast<std::size_t>(p_.ctl.over)] = num(2);
  if (p_.ctl.gap >= 0) next[static_cast<std::size_t>(p_.ctl.gap)] = (site + 1).simplify();
  en_.paths.push_back(Path{pc_.simplify(), std::move(next), true, site.simplify()});
}

void Exec::output() {
  en_.control.throw_if_stopped();
  std::vector<z3::expr> next;
  next.reserve(w_.size());
  for (const auto& v : w_) next.push_back(v.simplify());
  en_.paths.push_back(Path{pc_.simplify(), std::move(next), false, num(-1)});
}

}  // namespace symbolic

void build_transition(Encoding& en) {
  symbolic::Exec exec(en);
  exec.run();
}

}  // namespace loophole::smt::detail
