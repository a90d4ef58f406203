// The symbolic executor of the transition relation (transition.cpp: the
// moves, windows, handovers and end checks; transition_statements.cpp: the
// effects' statements, the lowered form's Stmt nodes). One Exec runs the
// rules once over the template state x and appends a Path per complete case
// to the encoding.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <z3++.h>

#include "loophole/checker/moves.hpp"

#include "encoding.hpp"

// (A namespace of its own: semantics::Run has a Cont too.)
namespace loophole::smt::detail::symbolic {

using checker::MoveKind;
using checker::Stage;
using checker::Tail;
using model::Protocol;
using model::SequenceTurn;
using Stmt = checker::lowered::Stmt;
using checker::lowered::S;

struct Cont {
  enum class Kind : std::uint8_t { seq, loop, tail };
  Kind kind = Kind::tail;
  const Cont* next = nullptr;
  const std::vector<int>* list = nullptr;
  const Stmt* loop = nullptr;
  std::size_t pos = 0;
  Tail tail = Tail::emit;
};

class Exec {
 public:
  explicit Exec(Encoding& en)
      : en_(en),
        p_(en.low),
        c_(en.ctx),
        pc_(c_.bool_val(true)),
        w_(en.x),
        b_(static_cast<std::size_t>(std::max(0, en.low.locals)), 0) {}

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
  // The turn order of this case (its field is a constant: run() splits on it).
  bool reversed() const {
    const int o = p_.ctl.order;
    return o >= 0 && w_[static_cast<std::size_t>(o)].simplify().get_numeral_int64() != 0;
  }
  int next_player(int p) const { return model::next_in_order(p, reversed(), en_.players); }
  bool covers(model::Role r, int p) const { return en_.covers(r, p, active_, reversed()); }
  int step_phase(int step) const { return en_.game.steps[static_cast<std::size_t>(step)].phase; }
  // The zone cell at base holds more cards than its zone's capacity (false
  // when the zone has none).
  z3::expr over_capacity(int zone, int base) {
    const int capacity = en_.game.zones[static_cast<std::size_t>(zone)].capacity;
    if (capacity < 0) return c_.bool_val(false);
    z3::expr held = num(0);
    for (int k = 0; k < p_.kinds; ++k) held = held + at(base + k);
    return held > capacity;
  }

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
  // Makes triggers pending; a custom event's arguments are event_args_.
  void fire(int event, z3::expr& err);
  void fire_args(const Stmt& s, std::size_t i, const Cont* k);
  // Binds locals j..k-1 to the arguments a pending trigger kept at fields
  // first.. (one case per value), clears those fields, then fn().
  template <class F>
  void with_kept_args(int first, int j, int k, F&& fn) {
    if (j == k) return fn();
    with_field(first + j, [&](int v) {
      b_[static_cast<std::size_t>(j)] = v;
      at(first + j) = num(0);
      with_kept_args(first, j + 1, k, fn);
    });
  }
  // negate: the targets (Controls::stack_targets) of entries i+1..size-1
  // move down one place with them, the top's are cleared.
  void shift_targets(int i, int size) {
    const int kt = p_.ctl.stack_target_count;
    if (kt <= 0) return;
    const int from = p_.ctl.stack_targets + kt * i;
    const int last = p_.ctl.stack_targets + kt * (size - 1);
    for (int j = from; j < last; ++j) put(j, at(j + kt));
    for (int j = last; j < last + kt; ++j) put(j, num(0));
  }
  void emit();
  void gap(const z3::expr& site);
  void output();

  // Statement nodes; -1 is nothing.
  void run_effect(int s, int self, Tail tail);
  void exec(int s, const Cont* k);
  void cont(const Cont* k);
  void exec_assign(const Stmt& s, const Cont* k);
  void exec_choose(const Stmt& s, const Cont* k);
  void exec_cards(const Stmt& s, const Cont* k);
  z3::expr fresh_choice();

  Encoding& en_;
  const checker::lowered::Lowered& p_;
  z3::context& c_;
  z3::expr pc_;
  std::vector<z3::expr> w_;
  std::vector<std::int64_t> b_;
  std::vector<std::int64_t> event_args_;  // the arguments of the event firing
  int self_ = -1;
  int active_ = 0;
  int move_ref_ = -1, move_player_ = -1;
};

}  // namespace loophole::smt::detail::symbolic
