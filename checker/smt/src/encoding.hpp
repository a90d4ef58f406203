// The transition system of a Game as Z3 terms, over the same Layout fields as
// checker::Semantics. The transition relation is built once, as a template
// over a current state `x`, a next state `y` and the choice constants of
// nature and the players (which cards a draw takes), by symbolically running
// the lowered form of the rules (loophole/checker/lowered.hpp: its
// expressions, statements and tables; the turn structure from the game's
// declarations): control fields are split into cases (each case fixes the
// step, the active player, the holder...), data stays symbolic, and every
// complete path through a move becomes one disjunct `pc ∧ y = next`.
// The engines (bmc.cpp, induction.cpp, static_checks.cpp) instantiate the
// template per time frame. Only checker/smt/ includes z3++.h.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <z3++.h>

#include "loophole/checker/lowered.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/roles.hpp"

#include "control.hpp"

namespace loophole::smt::detail {

// A construct the encoding does not support yet; the engine reports it
// (`unsupported in the smt engine: ...`) instead of giving a wrong answer.
struct Unsupported : std::runtime_error {
  Unsupported(const std::string& what, model::SourceSpan at)
      : std::runtime_error(what), where(std::move(at)) {}
  model::SourceSpan where;
};

// One complete path of one move: under `pc` the next state is `next`. A gap
// path ends in the before-state with over = 2; `site` is its gap site term.
struct Path {
  z3::expr pc;
  std::vector<z3::expr> next;
  bool gap = false;
  z3::expr site;  // 0-based gap site (Int), meaningful when gap
};

// Evaluation environment of one expression: locals and players are concrete
// (the encoding splits on them; the active player field reads `active`),
// data is symbolic. `reach` is the condition under which this evaluation
// happens (short-circuit), `err` the first gap site hit (-1 when none).
struct Ev {
  const std::vector<z3::expr>* s = nullptr;
  std::vector<std::int64_t>* locals = nullptr;
  int active = 0;
  int self = -1;
  z3::expr reach;
  z3::expr err;
};

class Encoding {
 public:
  // Throws Stopped when `control` stops while the relation is built.
  Encoding(const checker::Semantics& sem, z3::context& ctx, Control& control);

  z3::context& ctx;
  Control& control;
  const checker::Semantics& sem;
  const model::Game& game;  // declarations only: the turn structure, names
  checker::lowered::Lowered low;
  int players = 2;

  std::vector<z3::expr> x, y;     // the template's current and next state
  std::vector<z3::expr> choices;  // the template's choice constants
  std::vector<Path> paths;
  std::vector<z3::expr> move_conds;  // over x: a move of this kind exists

  // Every field within its declared range.
  [[nodiscard]] z3::expr in_range(const std::vector<z3::expr>& s) const;
  // The whole relation over (x, y, choices), and "some move exists" over x.
  [[nodiscard]] z3::expr transition() const;
  [[nodiscard]] z3::expr has_move() const;
  // Deciding "no successor" needs has_move: a move always has a successor.
  [[nodiscard]] z3::expr deadlock(const std::vector<z3::expr>& s) const;

  // A boolean expression node of the rules (a property's, an end
  // condition's) in state s, false when its evaluation fails; `self` -1
  // means the active player.
  [[nodiscard]] z3::expr holds(int node, const std::vector<z3::expr>& s, int self = -1);
  [[nodiscard]] z3::expr property_holds(int property, const std::vector<z3::expr>& s) {
    return holds(low.rules.property_expr[static_cast<std::size_t>(property)], s);
  }
  [[nodiscard]] z3::expr end_holds(int condition, int player, const std::vector<z3::expr>& s);
  // The property's `at:` restriction over the step field of s.
  [[nodiscard]] z3::expr restricted(const model::Property& p, const std::vector<z3::expr>& s) const;
  // Same state.
  [[nodiscard]] z3::expr equal(const std::vector<z3::expr>& a,
                               const std::vector<z3::expr>& b) const;

  // Expression nodes of the lowered form (encoding.cpp); a node -1 is absent.
  z3::expr eval_int(int node, Ev& ev);
  z3::expr eval_bool(int node, Ev& ev);
  // A missing guard holds.
  z3::expr guard(int node, Ev& ev) { return node < 0 ? ctx.bool_val(true) : eval_bool(node, ev); }
  Ev env(const std::vector<z3::expr>& s, std::vector<std::int64_t>& locals, int active, int self);
  // The first failure: at `site` when cond holds where evaluation reaches.
  void fail_at(Ev& ev, int site, const z3::expr& cond);
  // r, failing at the overflow site (-1: none, the interval analysis found
  // it cannot happen) when r lies outside [INT64_MIN, INT64_MAX]: Int terms
  // do not wrap.
  z3::expr checked(Ev& ev, int overflow, const z3::expr& r);
  // A place's player and index terms, evaluated in that order, the index's
  // range checked at the place's site; absent ones are 0.
  std::pair<z3::expr, z3::expr> place_terms(const checker::lowered::Place& pl, Ev& ev);
  // How many values the player and the index of a place range over.
  [[nodiscard]] int place_players(const checker::lowered::Place& pl) const {
    return pl.player >= 0 ? players : 1;
  }
  [[nodiscard]] int place_indices(const checker::lowered::Place& pl) const {
    return pl.index < 0 ? 1 : pl.bound > 0 ? pl.bound : low.kinds;
  }
  [[nodiscard]] static int slot(const checker::lowered::Place& pl, int player, int index) {
    return pl.base + player * pl.player_stride + index * pl.index_stride;
  }
  z3::expr field(const std::vector<z3::expr>& s, int index) const {
    return index < 0 ? ctx.int_val(0) : s[static_cast<std::size_t>(index)];
  }
  z3::expr zone_slot_value(const std::vector<z3::expr>& s, int zone, const z3::expr& owner,
                           int kind);
  // Whether a role (relative to the active player, in turn order `reversed`
  // or not) covers player p.
  [[nodiscard]] bool covers(model::Role r, int p, int active, bool reversed = false) const {
    return model::covers(r, p, active, players, reversed);
  }
  // How many turn orders a state can have: 2 when some rule reverses it.
  [[nodiscard]] int orders() const { return low.ctl.order >= 0 ? 2 : 1; }
  // Domains, as the reference evaluator orders them.
  [[nodiscard]] int domain_size(int domain, int self) const {
    return low.domain_size(low.domains[static_cast<std::size_t>(domain)], self);
  }
  [[nodiscard]] std::int64_t domain_value(int domain, int i, int self) const {
    return low.domain_value(low.domains[static_cast<std::size_t>(domain)], i, self);
  }
  // ite(idx == 0, f(0), ite(idx == 1, f(1), ... f(n - 1))).
  template <class F>
  z3::expr select(const z3::expr& idx, int n, F&& f) {
    const z3::expr i = idx.simplify();
    if (i.is_numeral()) {
      const std::int64_t v = i.get_numeral_int64();
      return f(static_cast<int>(v < 0 ? 0 : (v >= n ? n - 1 : v)));
    }
    z3::expr out = f(n - 1);
    for (int k = n - 2; k >= 0; --k) out = z3::ite(i == k, f(k), out);
    return out;
  }

  // Named constants for a time frame: "<prefix><field name>".
  std::vector<z3::expr> frame(const std::string& prefix);
  // The template instantiated at frames (s, t) with choice constants tagged `tag`.
  z3::expr instantiate(const z3::expr& e, const std::vector<z3::expr>& s,
                       const std::vector<z3::expr>& t, const std::string& tag);

 private:
  z3::expr eval_quant(const checker::lowered::Expr& e, Ev& ev);
  z3::expr relation_;
  bool relation_built_ = false;
};

// Builds en.paths and en.move_conds (transition.cpp).
void build_transition(Encoding& en);

// A concrete state out of a model.
checker::StateVec decode_state(const z3::model& m, const std::vector<z3::expr>& s);

}  // namespace loophole::smt::detail
