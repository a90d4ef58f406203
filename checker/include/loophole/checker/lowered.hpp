// The rules lowered once: what the backends translate instead of walking
// the model's IR themselves (the Promela export, the compiled generator with
// its C translation, the SMT encoder and the symmetry check; issue 31).
// The reference semantics (the oracle) stays the independent second
// definition; tests/checker/lowered_test.cpp proves the two equal on every
// fixture and seed.
//
// A Lowered is built once per Game (lower()) and immutable after. It holds
//  - the tables the backends need: the state layout with the index of every
//    control field, the rule-gap sites, triggers per event, usable actions
//    per window, kinds per tag;
//  - every expression and statement of the rules, as two arrays of nodes
//    (Expr, Stmt) that refer to each other by index, with every name
//    resolved: a variable or a zone cell is slot arithmetic over the state
//    vector (Place), a bound variable is a numbered local, a role is player
//    arithmetic (`opponent` = next_player(active)), a card movement (draw,
//    move) is one primitive with its gap sites, `fire` names its event (whose
//    triggers are triggers_by_event), and every operation that can fail
//    carries its gap site.
//
// What is data and what is an instruction: the turn structure (phases,
// steps, windows, protocols, priority, the stack) stays as the model's
// declarations plus the tables here, since each backend encodes the control
// machine in its own terms; only the rules' bodies, the part the designer
// writes in the expression language, are lowered.
//
// Conventions every node shares. Values are 64-bit integers, booleans 0/1,
// players 0..players-1, kinds 0..kinds-1. An expression reads the state
// vector (std::int32_t per field), the locals and `self` (the player the rule
// runs for: the actor of an action, a trigger's controller, the active
// player for steps, setup, end conditions and properties). Evaluation stops
// at the first failure, left to right (`and`/`or`, the quantifiers'
// short-circuit and `cond` evaluate only what decides), and the failure's
// site is its gap site: an index into gap_sites, or no_site for a failure
// outside the rules (a property's, which makes the property false).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loophole/checker/semantics.hpp"
#include "loophole/model/game.hpp"

namespace loophole::checker::lowered {

// The failure of an expression that is no part of the rules (a property's).
inline constexpr int no_site = 1 << 30;

// Index of every control field in the state vector; -1 when the game does not
// need the field (reads give 0, writes are dropped).
struct Controls {
  int over = -1, gap = -1, active = -1, turn = -1, step = -1, stage = -1;
  int target = -1, new_turn = -1;
  int order = -1;  // the turn order, 1 reversed: only when some rule reverses it
  int skip = -1;   // 1: the next passing of the turn skips a player (only with skip_next())
  int holder = -1, passes = -1, acted = -1, seat = -1;
  int stack_size = -1;
  int stack_base = -1;  // stack[i].action at stack_base + 2i, .controller at + 2i + 1
  int stack_capacity = 0;
  // Only when some action declares targets: stack[i]'s target j at
  // stack_targets + i * stack_target_count + j (0 when none is chosen).
  int stack_targets = -1;
  int stack_target_count = 0;
  std::vector<int> pending;      // per trigger: index of pending[t][P1], or -1
  std::vector<int> turn_uses;    // per action: index of uses[a][P1], or -1
  std::vector<int> window_uses;  // per action: index of window_uses[a][P1], or -1
  // Per trigger that binds its event's arguments: index of
  // pending_args[t][P1][0] (arity fields per player, player-major), or -1.
  std::vector<int> pending_args;
};

// A place in the state vector: the slot
//   base + player * player_stride + index * index_stride
// where `player` and `index` are expressions (-1: absent, counts as 0). A
// variable `v[p][i].f` is base = the slot of [P1][0].f; a zone cell
// `hand[p]` of kind k is base = the zone's first slot + k, player_stride =
// kinds. The player is evaluated first, then the index; an index outside
// 0..bound-1 fails at `site` (bound 0: the index is a card kind, always in
// range, and not checked).
struct Place {
  int base = 0;
  int player = -1;
  int player_stride = 0;
  int index = -1;
  int index_stride = 0;
  int bound = 0;
  int site = no_site;
};

// Whose values a quantifier, `for`, `choose` or `pick` ranges over, in
// order: players P1..Pn; the others (players without `self`, all players
// when no player acts); the integers
// lo..lo+size-1 (ranges, enum values, all kinds); or the kinds of
// Lowered::lists[list] (a tag's).
struct Domain {
  enum class Kind : std::uint8_t { players, others, range, list };
  Kind kind = Kind::range;
  std::int64_t lo = 0;
  int size = 0;  // range
  int list = -1;
};

// Expression nodes. x[0..2] are operand nodes (-1 absent).
enum class X : std::uint8_t {
  konst,        // k
  field,        // state[a]: a control field or a data slot at a constant place
  self,         // the player the rule runs for
  local,        // locals[a]
  next_player,  // (x0 + 1) % players
  read,         // state[slot of places[a]]; fails as the place does
  count,        // sum over k in lists[b] of state[slot of places[a] + k]
  stack_top,    // the stack top's action (a = 0) or controller (a = 1); 0 when empty
  not_,         // x0 == 0
  neg,          // -x0
  add,
  sub,
  mul,
  div,  // x0 / x1 truncated; a zero divisor fails at site
  mod,  // x0 % x1 (C++ sign); the same
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  and_,  // x0 != 0 && x1 != 0, x1 evaluated only when x0 holds
  or_,   // x0 != 0 || x1 != 0, x1 evaluated only when x0 does not hold
  cond,  // x0 != 0 ? x1 : x2, only the taken branch evaluated
  // Quantifiers over domains[a] binding local b, body x0, in domain order,
  // stopping at the first failure; exists/forall stop at the first value that
  // decides. sum's running total can overflow.
  exists,
  forall,
  count_of,  // how many values make x0 hold
  sum,
  min,
  max,
  abs,
  clamp,  // max(x1, min(x0, x2))
};

// The comparisons (eq .. ge) and the operations whose value is a boolean
// 0/1 (not_, the comparisons, and_, or_, exists, forall): a backend that
// keeps booleans apart from integers (the SMT encoder) asks these.
[[nodiscard]] constexpr bool is_comparison(X op) { return op >= X::eq && op <= X::ge; }
[[nodiscard]] constexpr bool is_boolean(X op) {
  return op == X::not_ || is_comparison(op) || op == X::and_ || op == X::or_ || op == X::exists ||
         op == X::forall;
}

struct Expr {
  X op = X::konst;
  std::int64_t k = 0;
  int a = 0, b = 0;
  int x[3] = {-1, -1, -1};
  int site = no_site;  // div, mod: where a zero divisor fails
  // neg, add, sub, mul, div, mod, abs, sum: where a result beyond 64 bits
  // fails (INT64_MIN / -1 for div and mod); -1 where the interval analysis
  // (gaps.cpp) proved it cannot happen, so a backend need not check.
  int overflow = -1;
  const void* origin = nullptr;  // the model::Expr lowered (diagnostics and tests only)
};

// Statement nodes.
enum class S : std::uint8_t {
  seq,                 // body[0], body[1], ... in order
  assign,              // places[a] (op none) := / (add) += / (sub) -= x; the place's failure,
                       // then x's, then a result outside the slot's range (or beyond 64 bits)
                       // fails at site
  if_,                 // the first of conds[i] that holds runs body[i]; body[conds.size()]
                       // is the else branch when present
  for_,                // body[0] once per value of domains[a], local b bound to it
  choose,              // nature picks a value of domains[a] for local b among those that make
                       // x (-1: any) hold, then body[0] (-1: nothing); none: nothing happens
  pick,                // the same, a player picks: the value of expression `by` (`by P`,
                       // evaluated before the `where`; its failure fails at its site), or
                       // the acting player when by is -1
  move,                // a card movement (Stmt::move; a draw's player is also x)
  fire,                // the event a: its arguments conds[i] are evaluated in order (an int
                       // outside its declared range, game->events[a].args[i].lo..hi, fails at
                       // site, -1 when none can); then, for every trigger t of
                       // triggers_by_event[a] and controller c it covers (from the active
                       // player on) not already pending for t: t's condition, self = c and
                       // locals 0..k-1 = the arguments when t binds them (Trigger::params),
                       // makes t pending for c, storing the arguments at
                       // ctl.pending_args[t] + c * k. A trigger already pending keeps the
                       // arguments of the firing that made it pending.
  end,                 // the player x wins (a = 1) or loses (a = 0); the game is over
  negate,              // the stack entry at position x from the bottom (-1: the top), when it
                       // is there and its action is negatable, is removed (x's failure first);
                       // the entries above it move down one place
  draw_without_zones,  // a draw in a game without `deck` and `hand` (an internal error once
                       // its operands, player x and count move.count, are evaluated)
};

// A card movement: `count` cards from the zone cell at places[from] to the
// one at places[to] (each place without an index: its base is the zone's
// kind 0). `kind` >= 0 is the expression of the one kind moved; -1: the kinds
// are chosen, every multiset of the source's cards of that size, in
// lexicographic order of their counts, the last kind varying fastest, by
// `chooser`. Evaluated: the from owner, the to owner, the kind, the count. A
// negative count fails at site + 1, too few cards at the source at site, a
// destination cell above its range at site + 1. `draw(p, n)` is a move from
// deck[p] to hand[p] of chosen kinds, nature choosing.
struct Move {
  int from = -1, to = -1;  // places
  int from_zone = -1, to_zone = -1;
  int kind = -1;
  int count = -1;
  Chooser chooser = Chooser::none;  // none (one kind), player (move), nature (draw)
};

struct Stmt {
  S op = S::seq;
  model::Op assign_op = model::Op::none;
  int a = -1, b = -1;
  int x = -1;  // assign's value, choose's / pick's `where`, end's player, a draw's player
  int site = -1;
  int by = -1;  // pick: the chooser's player expression, -1: the acting player
  Move move;
  std::vector<int> conds;        // if_: expressions
  std::vector<int> body;         // statements
  const void* origin = nullptr;  // the model::Stmt lowered (diagnostics and tests only)
};

// Per rule, the root node of what it runs, -1 when absent (a missing guard or
// condition holds; a missing repeat_while / end_turn_if does not).
struct Rules {
  int setup = -1;
  std::vector<int> step_effect, step_repeat, step_end_turn;
  std::vector<int> action_guard, action_cost, action_effect;
  // The action's `when`, cost and effect as written. For an action with
  // targets (model::Action::targets) action_guard, action_cost and
  // action_effect are built around them in existing nodes, what a backend
  // runs: the guard also asks that some choice of targets be legal, the cost
  // first picks them (the caster choosing, one pick per target, local j =
  // target j) and stores them in the entry being cast
  // (Controls::stack_targets), the effect loads the popped entry's targets
  // into locals 0..k-1, clears them and runs only when each is still legal.
  // Without targets the same nodes as action_guard, action_cost and
  // action_effect.
  std::vector<int> action_rule_guard, action_rule_cost, action_rule_effect;
  std::vector<int> trigger_condition, trigger_effect;
  std::vector<int> end_condition;
  std::vector<int> property_expr, property_to;
};

struct Lowered {
  const model::Game* game = nullptr;  // declarations: names, turn structure
  int players = 2;
  int kinds = 0;
  int locals = 0;  // how many locals evaluation needs at once
  Layout layout;
  Controls ctl;
  std::vector<GapSite> gap_sites;
  std::vector<int> play_site;  // per action: destination overfull when its card is played, or -1
  std::vector<int> push_site;  // per action: pushed onto a full stack, or -1
  // The first expression whose values may leave 32 bits ("" when none), and
  // where (the Promela export refuses such a game).
  std::string beyond_int32;
  model::SourceSpan beyond_int32_at;
  std::vector<std::vector<int>> triggers_by_event;  // event id -> trigger ids in order
  std::vector<std::vector<int>> window_actions;     // window id -> usable actions in order
  std::vector<bool> window_used;                    // opened by some step
  int begin_turn_event = -1, end_turn_event = -1;
  // Kind lists: lists[0] all kinds, lists[1 + t] the kinds with tag t.
  std::vector<std::vector<int>> lists;

  std::vector<Expr> exprs;
  std::vector<Stmt> stmts;
  std::vector<Place> places;
  std::vector<Domain> domains;
  Rules rules;

  [[nodiscard]] int domain_size(const Domain& d, int self) const {
    switch (d.kind) {
      case Domain::Kind::players:
        return players;
      case Domain::Kind::others:
        return self >= 0 ? players - 1 : players;
      case Domain::Kind::range:
        return d.size;
      case Domain::Kind::list:
        return static_cast<int>(lists[d.list].size());
    }
    return 0;
  }
  [[nodiscard]] std::int64_t domain_value(const Domain& d, int i, int self) const {
    switch (d.kind) {
      case Domain::Kind::others:
        return self >= 0 && i >= self ? i + 1 : i;
      case Domain::Kind::range:
        return d.lo + i;
      case Domain::Kind::list:
        return lists[d.list][i];
      case Domain::Kind::players:
        break;
    }
    return i;
  }
};

// Lowers a checked Game (its names all resolved).
Lowered lower(const model::Game& game);

}  // namespace loophole::checker::lowered
