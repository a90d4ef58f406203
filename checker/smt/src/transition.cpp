// The transition relation: the reference semantics (checker/src/semantics/
// moves.cpp, effects.cpp) run symbolically, once, over the template state x.
// The executor has the same shape as semantics::Run — statements in
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

namespace loophole::smt::detail {
namespace {

using checker::MoveKind;
using checker::Stage;
using model::Protocol;
using model::SequenceTurn;
using model::Stmt;
using model::StmtKind;

enum class Tail : std::uint8_t {
  emit,
  after_step_do,
  priority_cost,
  priority_effect,
  alternate_cost,
  alternate_effect,
  sequence_cost,
  sequence_effect,
  resolve,
};

struct Cont {
  enum class Kind : std::uint8_t { seq, loop, tail };
  Kind kind = Kind::tail;
  const Cont* next = nullptr;
  const std::vector<model::StmtPtr>* list = nullptr;
  const Stmt* loop = nullptr;
  std::size_t pos = 0;
  Tail tail = Tail::emit;
};

class Exec {
 public:
  explicit Exec(Encoding& en)
      : en_(en),
        p_(en.prep),
        c_(en.ctx),
        pc_(c_.bool_val(true)),
        w_(en.x),
        b_(static_cast<std::size_t>(std::max(0, en.game.binder_slots)), 0) {}

  void run();

 private:
  struct Saved {
    z3::expr pc;
    std::vector<z3::expr> w;
    std::vector<std::int64_t> b;
    int self, active;
  };
  Saved save() const { return Saved{pc_, w_, b_, self_, active_}; }
  void restore(const Saved& s) {
    pc_ = s.pc;
    w_ = s.w;
    b_ = s.b;
    self_ = s.self;
    active_ = s.active;
  }

  z3::expr num(std::int64_t v) const { return c_.int_val(v); }
  z3::expr& at(int index) { return w_[static_cast<std::size_t>(index)]; }
  void put(int index, const z3::expr& v) {
    if (index >= 0) at(index) = v.simplify();
  }
  Ev env(int self) { return en_.env(w_, b_, active_, self); }
  int next_player(int p) const { return (p + 1) % en_.players; }

  // Two cases: cond and not cond (one when the condition is constant).
  template <class Yes, class No>
  void branch(const z3::expr& cond, Yes&& yes, No&& no) {
    const z3::expr c = cond.simplify();
    if (c.is_true()) return yes();
    if (c.is_false()) return no();
    const Saved sv = save();
    pc_ = sv.pc && c;
    yes();
    restore(sv);
    pc_ = sv.pc && !c;
    no();
  }
  // One case per value lo..hi of a term.
  template <class F>
  void with_value(const z3::expr& term, int lo, int hi, F&& fn) {
    const z3::expr t = term.simplify();
    if (t.is_numeral()) return fn(static_cast<int>(t.get_numeral_int64()));
    const Saved sv = save();
    for (int v = lo; v <= hi; ++v) {
      restore(sv);
      pc_ = sv.pc && t == v;
      fn(v);
    }
  }
  // One case per value of a state field, which then holds that constant.
  template <class F>
  void with_field(int index, F&& fn) {
    if (index < 0) return fn(0);
    const auto& f = p_.layout.fields[static_cast<std::size_t>(index)];
    const z3::expr t = at(index).simplify();
    if (t.is_numeral()) return fn(static_cast<int>(t.get_numeral_int64()));
    const Saved sv = save();
    for (int v = f.lo; v <= f.hi; ++v) {
      restore(sv);
      pc_ = sv.pc && t == v;
      at(index) = num(v);
      fn(v);
    }
  }

  void start_move(const z3::expr& cond);
  void window_moves(int step, int holder, const z3::expr& base);
  std::pair<z3::expr, z3::expr> enabled(int action, int player, int window);
  void enter(int target, bool new_turn, bool start);
  void run_step_do();
  void advance();
  void open_window(int window);
  void close_window();
  template <class K>
  void handover(int from, K&& k);
  void take_action();
  void pass();
  void count_use(int action, int player);
  void finish(Tail t);
  void fire(int event, z3::expr& err);
  void emit();
  void gap(const z3::expr& site);
  void output();

  void run_effect(const Stmt* s, int self, Tail tail);
  void exec(const Stmt* s, const Cont* k);
  void cont(const Cont* k);
  void exec_assign(const Stmt& s, const Cont* k);
  void exec_choose(const Stmt& s, const Cont* k);
  void exec_cards(const Stmt& s, const Cont* k);
  z3::expr fresh_choice();

  Encoding& en_;
  const checker::semantics::Prepared& p_;
  z3::context& c_;
  z3::expr pc_;
  std::vector<z3::expr> w_;
  std::vector<std::int64_t> b_;
  int self_ = -1;
  int active_ = 0;
  int move_ref_ = -1, move_player_ = -1;
};

void Exec::start_move(const z3::expr& cond) {
  pc_ = cond;
  en_.move_conds.push_back(cond);
}

void Exec::run() {
  const auto& ctl = p_.ctl;
  const int n = en_.players;
  const auto& x = en_.x;
  const Saved initial = save();
  for (int a = 0; a < n; ++a) {
    restore(initial);
    w_ = x;
    at(ctl.over) = num(0);
    at(ctl.active) = num(a);
    active_ = a;
    const Saved base_state = save();
    const z3::expr base =
        x[static_cast<std::size_t>(ctl.over)] == 0 && x[static_cast<std::size_t>(ctl.active)] == a;
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
        for (int decline = 0; decline < (trig.optional ? 2 : 1); ++decline) {
          restore(base_state);
          move_ref_ = static_cast<int>(t);
          move_player_ = c;
          const int slot = b + c;
          start_move(base && none_before && x[static_cast<std::size_t>(slot)] == 1);
          at(b + c) = num(0);
          if (decline == 1) {
            emit();
          } else {
            run_effect(trig.effect.get(), c, Tail::emit);
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
  if (!p_.covers(act.who, p, active_)) return {no, num(-1)};
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
      if (!p_.covers(r.role, p, active_)) continue;
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
  const z3::expr g = en_.guard(act.guard.get(), ev);
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
      start_move(win.may_pass ? base : (base && !any_action).simplify());
      return pass();
    case Protocol::sequence:
      start_move(base);
      return pass();
  }
}

void Exec::fire(int event, z3::expr& err) {
  if (event < 0) return;
  for (int t : p_.triggers_by_event[static_cast<std::size_t>(event)]) {
    const int base = p_.ctl.pending[static_cast<std::size_t>(t)];
    if (base < 0) continue;
    const auto& trig = en_.game.triggers[static_cast<std::size_t>(t)];
    for (int i = 0; i < en_.players; ++i) {
      const int c = (active_ + i) % en_.players;
      if (!p_.covers(trig.controller, c, active_)) continue;
      const z3::expr bit = at(base + c);
      Ev ev = env(c);
      ev.reach = bit == 0 && err == -1;
      const z3::expr h = en_.guard(trig.condition.get(), ev);
      err = z3::ite(err == -1, ev.err, err).simplify();
      put(base + c, z3::ite(bit == 0 && h, num(1), bit));
    }
  }
}

void Exec::enter(int target, bool new_turn, bool start) {
  const auto& ctl = p_.ctl;
  const int from_phase =
      start ? -1 : p_.step_phase(static_cast<int>(at(ctl.step).simplify().get_numeral_int64()));
  if (new_turn) {
    active_ = next_player(active_);
    at(ctl.active) = num(active_);
    const int turns = std::max(1, en_.game.scope.turns);
    const z3::expr t = at(ctl.turn) + 1;
    put(ctl.turn, z3::ite(t > turns, num(turns), t));
    for (int base : ctl.turn_uses) {
      if (base < 0) continue;
      for (int p = 0; p < en_.players; ++p) at(base + p) = num(0);
    }
  }
  const int phase = p_.step_phase(target);
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
  run_effect(en_.game.steps[static_cast<std::size_t>(step)].effects.get(), active_,
             Tail::after_step_do);
}

void Exec::advance() {
  const auto& ctl = p_.ctl;
  const int step = static_cast<int>(at(ctl.step).simplify().get_numeral_int64());
  const auto& st = en_.game.steps[static_cast<std::size_t>(step)];
  const int steps = static_cast<int>(en_.game.steps.size());
  Ev ev = env(active_);
  const z3::expr repeat =
      st.repeat_while ? en_.eval_bool(*st.repeat_while, ev) : c_.bool_val(false);
  ev.reach = !repeat;
  const z3::expr end_turn =
      st.end_turn_if ? en_.eval_bool(*st.end_turn_if, ev) : c_.bool_val(false);
  const z3::expr err0 = ev.err;
  auto go = [&](int target, bool new_turn) {
    const int phase = st.phase;
    z3::expr err = num(-1);
    fire(st.end_event, err);
    if (new_turn || p_.step_phase(target) != phase) {
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
      return handover(active_ == 0 ? en_.players - 1 : active_ - 1, [&] { emit(); });
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
  for (int i = 1; i <= en_.players; ++i) {
    const int p = (from + i) % en_.players;
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
  auto cost = [&] {
    switch (en_.game.windows[static_cast<std::size_t>(window)].protocol) {
      case Protocol::priority:
        return run_effect(act.cost.get(), h, Tail::priority_cost);
      case Protocol::alternate:
        return run_effect(act.cost.get(), h, Tail::alternate_cost);
      case Protocol::sequence:
        return run_effect(act.cost.get(), h, Tail::sequence_cost);
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
      at(to) > en_.game.slots[static_cast<std::size_t>(to)].hi,
      [&] { gap(num(p_.gaps.play_site[static_cast<std::size_t>(a)])); }, cost);
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
              run_effect(en_.game.actions[static_cast<std::size_t>(a)].effect.get(), c,
                         Tail::resolve);
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
      if (!act.answerable) return run_effect(act.effect.get(), h, Tail::priority_effect);
      return with_field(ctl.stack_size, [&](int size) {
        if (size >= ctl.stack_capacity) {
          return gap(num(p_.gaps.push_site[static_cast<std::size_t>(a)]));
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
      return run_effect(en_.game.actions[static_cast<std::size_t>(a)].effect.get(), h,
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
  for (const auto& end : en_.game.end_conditions) {
    for (int i = 0; i < en_.players; ++i) {
      const int p = (active_ + i) % en_.players;
      if (!p_.covers(end.who, p, active_)) continue;
      Ev ev = env(p);
      const z3::expr h = en_.guard(end.condition.get(), ev);
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
  std::vector<z3::expr> next = en_.x;
  next[static_cast<std::size_t>(p_.ctl.over)] = num(2);
  if (p_.ctl.gap >= 0) next[static_cast<std::size_t>(p_.ctl.gap)] = (site + 1).simplify();
  en_.paths.push_back(Path{pc_.simplify(), std::move(next), true, site.simplify()});
}

void Exec::output() {
  std::vector<z3::expr> next;
  next.reserve(w_.size());
  for (const auto& v : w_) next.push_back(v.simplify());
  en_.paths.push_back(Path{pc_.simplify(), std::move(next), false, num(-1)});
}

void Exec::run_effect(const Stmt* s, int self, Tail tail) {
  self_ = self;
  Cont done;
  done.kind = Cont::Kind::tail;
  done.tail = tail;
  exec(s, &done);
}

void Exec::cont(const Cont* k) {
  switch (k->kind) {
    case Cont::Kind::seq: {
      if (k->pos >= k->list->size()) return cont(k->next);
      Cont c = *k;
      c.pos = k->pos + 1;
      return exec((*k->list)[k->pos].get(), &c);
    }
    case Cont::Kind::loop: {
      const Stmt& s = *k->loop;
      const std::size_t next = k->pos + 1;
      if (next >= static_cast<std::size_t>(en_.domain_size(s.domain, self_))) {
        return cont(k->next);
      }
      b_[static_cast<std::size_t>(s.ref)] =
          en_.domain_value(s.domain, static_cast<int>(next), self_);
      Cont c = *k;
      c.pos = next;
      return exec(s.bodies[0].get(), &c);
    }
    case Cont::Kind::tail:
      return finish(k->tail);
  }
}

void Exec::exec(const Stmt* s, const Cont* k) {
  if (s == nullptr) return cont(k);
  switch (s->kind) {
    case StmtKind::block: {
      if (s->bodies.empty()) return cont(k);
      Cont c;
      c.kind = Cont::Kind::seq;
      c.next = k;
      c.list = &s->bodies;
      c.pos = 1;
      return exec(s->bodies[0].get(), &c);
    }
    case StmtKind::assign:
      return exec_assign(*s, k);
    case StmtKind::if_: {
      // Conditions in order, each evaluated only when the ones before fail.
      std::size_t i = 0;
      std::function<void()> step = [&] {
        if (i >= s->conds.size()) {
          if (s->bodies.size() > s->conds.size()) return exec(s->bodies.back().get(), k);
          return cont(k);
        }
        Ev ev = env(self_);
        const z3::expr h = en_.eval_bool(*s->conds[i], ev);
        const z3::expr err = ev.err.simplify();
        const std::size_t mine = i;
        branch(
            err != -1, [&] { gap(err); },
            [&] {
              branch(
                  h, [&] { exec(s->bodies[mine].get(), k); },
                  [&] {
                    i = mine + 1;
                    step();
                  });
            });
      };
      return step();
    }
    case StmtKind::for_: {
      if (en_.domain_size(s->domain, self_) == 0) return cont(k);
      b_[static_cast<std::size_t>(s->ref)] = en_.domain_value(s->domain, 0, self_);
      Cont c;
      c.kind = Cont::Kind::loop;
      c.next = k;
      c.loop = s;
      c.pos = 0;
      return exec(s->bodies[0].get(), &c);
    }
    case StmtKind::choose:
    case StmtKind::pick:
      return exec_choose(*s, k);
    case StmtKind::draw:
    case StmtKind::move_kind:
    case StmtKind::move_any:
      return exec_cards(*s, k);
    case StmtKind::fire: {
      z3::expr err = num(-1);
      fire(s->ref, err);
      return branch(
          err != -1, [&] { gap(err); }, [&] { cont(k); });
    }
    case StmtKind::win:
    case StmtKind::lose: {
      Ev ev = env(self_);
      (void)en_.eval_int(*s->args[0], ev);
      const z3::expr err = ev.err.simplify();
      return branch(
          err != -1, [&] { gap(err); },
          [&] {
            at(p_.ctl.over) = num(1);
            output();
          });
    }
    case StmtKind::negate: {
      const auto& ctl = p_.ctl;
      return with_field(ctl.stack_size, [&](int size) {
        if (size == 0) return cont(k);
        const int slot = ctl.stack_base + 2 * (size - 1);
        with_field(slot, [&](int a) {
          if (en_.game.actions[static_cast<std::size_t>(a)].negatable) {
            put(slot, num(0));
            put(slot + 1, num(0));
            put(ctl.stack_size, num(size - 1));
          }
          cont(k);
        });
      });
    }
    case StmtKind::shuffle:
    case StmtKind::skip:
      return cont(k);
    case StmtKind::call:
      break;
  }
  throw Unsupported("statement '" + s->text + "'", s->where);
}

void Exec::exec_assign(const Stmt& s, const Cont* k) {
  const model::Expr& target = *s.target;
  const auto& v = en_.game.vars[static_cast<std::size_t>(target.ref)];
  Ev ev = env(self_);
  std::size_t arg = 0;
  z3::expr player = num(0), index = num(0);
  if (v.per_player) player = en_.eval_int(*target.args[arg++], ev);
  if (v.array > 0) {
    index = en_.eval_int(*target.args[arg], ev);
    en_.fail_if(ev, &target, index < 0 || index >= v.array);
  }
  const z3::expr value = en_.eval_int(*s.value, ev);
  const z3::expr err = ev.err.simplify();
  branch(
      err != -1, [&] { gap(err); },
      [&] {
        with_value(player, 0, v.per_player ? en_.players - 1 : 0, [&](int p) {
          with_value(index, 0, v.array > 0 ? v.array - 1 : 0, [&](int i) {
            const int slot = v.slot(p, i, target.field);
            const z3::expr cur = at(slot);
            const z3::expr nv = s.op == model::Op::add   ? cur + value
                                : s.op == model::Op::sub ? cur - value
                                                         : value;
            const auto& sl = en_.game.slots[static_cast<std::size_t>(slot)];
            branch(
                nv < sl.lo || nv > sl.hi, [&] { gap(num(p_.gaps.at.at(&s))); },
                [&] {
                  put(slot, nv);
                  cont(k);
                });
          });
        });
      });
}

void Exec::exec_choose(const Stmt& s, const Cont* k) {
  const int n = en_.domain_size(s.domain, self_);
  const model::Expr* where = s.conds.empty() ? nullptr : s.conds[0].get();
  Ev ev = env(self_);
  std::vector<z3::expr> ok;
  for (int i = 0; i < n; ++i) {
    b_[static_cast<std::size_t>(s.ref)] = en_.domain_value(s.domain, i, self_);
    ok.push_back(en_.guard(where, ev).simplify());
  }
  const z3::expr err = ev.err.simplify();
  branch(
      err != -1, [&] { gap(err); },
      [&] {
        const Saved sv = save();
        z3::expr none = c_.bool_val(true);
        for (int i = 0; i < n; ++i) {
          none = none && !ok[static_cast<std::size_t>(i)];
          if (ok[static_cast<std::size_t>(i)].is_false()) continue;
          restore(sv);
          pc_ = sv.pc && ok[static_cast<std::size_t>(i)];
          b_[static_cast<std::size_t>(s.ref)] = en_.domain_value(s.domain, i, self_);
          exec(s.bodies.empty() ? nullptr : s.bodies[0].get(), k);
        }
        restore(sv);
        const z3::expr skip = none.simplify();
        if (skip.is_false()) return;
        pc_ = sv.pc && skip;
        cont(k);
      });
}

z3::expr Exec::fresh_choice() {
  z3::expr c = c_.int_const(("c!" + std::to_string(en_.choices.size())).c_str());
  en_.choices.push_back(c);
  return c;
}

// draw(p, n), move(z1, z2, k, n), move(z1, z2, n): the outcome is a vector of
// choice constants, one per kind, constrained to what the source holds and
// summing to n (for a fixed kind, n of that kind).
void Exec::exec_cards(const Stmt& s, const Cont* k) {
  const int kinds = p_.kinds;
  const int site = p_.gaps.at.at(&s);
  Ev ev = env(self_);
  int from_zone = -1, to_zone = -1;
  z3::expr from_owner = num(0), to_owner = num(0), kind = num(-1), n = num(0);
  const bool chosen = s.kind != StmtKind::move_kind;
  if (s.kind == StmtKind::draw) {
    from_zone = en_.game.deck_zone;
    to_zone = en_.game.hand_zone;
    if (from_zone < 0 || to_zone < 0)
      throw Unsupported("draw() without zones 'deck' and 'hand'", s.where);
    from_owner = en_.eval_int(*s.args[0], ev);
    to_owner = from_owner;
    n = en_.eval_int(*s.args[1], ev);
  } else {
    from_zone = s.args[0]->ref;
    to_zone = s.args[1]->ref;
    const auto& fz = en_.game.zones[static_cast<std::size_t>(from_zone)];
    const auto& tz = en_.game.zones[static_cast<std::size_t>(to_zone)];
    if (fz.per_player && !s.args[0]->args.empty())
      from_owner = en_.eval_int(*s.args[0]->args[0], ev);
    if (tz.per_player && !s.args[1]->args.empty()) to_owner = en_.eval_int(*s.args[1]->args[0], ev);
    if (!chosen) kind = en_.eval_int(*s.args[2], ev);
    n = en_.eval_int(*s.args[chosen ? 2 : 3], ev);
  }
  const z3::expr err = ev.err.simplify();
  const bool from_pp = en_.game.zones[static_cast<std::size_t>(from_zone)].per_player;
  const bool to_pp = en_.game.zones[static_cast<std::size_t>(to_zone)].per_player;
  branch(
      err != -1, [&] { gap(err); },
      [&] {
        with_value(from_owner, 0, from_pp ? en_.players - 1 : 0, [&](int fo) {
          with_value(to_owner, 0, to_pp ? en_.players - 1 : 0, [&](int to) {
            const auto& fz = en_.game.zones[static_cast<std::size_t>(from_zone)];
            const auto& tz = en_.game.zones[static_cast<std::size_t>(to_zone)];
            branch(
                n < 0, [&] { gap(num(site + 1)); },
                [&] {
                  z3::expr held = num(0);
                  if (chosen) {
                    for (int kd = 0; kd < kinds; ++kd) held = held + at(fz.slot(fo, kd, kinds));
                  } else {
                    held =
                        en_.select(kind, kinds, [&](int kd) { return at(fz.slot(fo, kd, kinds)); });
                  }
                  branch(
                      held < n, [&] { gap(num(site)); },
                      [&] {
                        std::vector<z3::expr> take;
                        z3::expr constraint = c_.bool_val(true);
                        z3::expr sum = num(0);
                        for (int kd = 0; kd < kinds; ++kd) {
                          if (chosen) {
                            const z3::expr c = fresh_choice();
                            constraint = constraint && c >= 0 && c <= at(fz.slot(fo, kd, kinds));
                            sum = sum + c;
                            take.push_back(c);
                          } else {
                            take.push_back(z3::ite(kind == kd, n, num(0)));
                          }
                        }
                        if (chosen) pc_ = pc_ && constraint && sum == n;
                        for (int kd = 0; kd < kinds; ++kd) {
                          const int f = fz.slot(fo, kd, kinds);
                          put(f, at(f) - take[static_cast<std::size_t>(kd)]);
                        }
                        z3::expr overfull = c_.bool_val(false);
                        for (int kd = 0; kd < kinds; ++kd) {
                          const int t = tz.slot(to, kd, kinds);
                          put(t, at(t) + take[static_cast<std::size_t>(kd)]);
                          overfull =
                              overfull || at(t) > en_.game.slots[static_cast<std::size_t>(t)].hi;
                        }
                        branch(
                            overfull, [&] { gap(num(site + 1)); }, [&] { cont(k); });
                      });
                });
          });
        });
      });
}

}  // namespace

void build_transition(Encoding& en) {
  Exec exec(en);
  exec.run();
}

}  // namespace loophole::smt::detail
