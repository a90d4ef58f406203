// Expression evaluation over a state vector: the tree-walking reference
// evaluator. Everything the rest of the semantics needs from expressions goes
// through Evaluator (values, variable slots, zone references, domains), so a
// faster evaluator (compiled to a flat program per expression) can replace it
// behind the same four calls. Evaluation allocates nothing; a failure (a
// division by zero, an index out of range, an overflow) records its gap site in Env and
// yields 0, and the caller checks Env::error once per evaluated expression.
#pragma once

#include <cstdint>

#include "prepared.hpp"

namespace loophole::checker::semantics {

struct Env {
  const std::int32_t* state = nullptr;
  std::int64_t* binders = nullptr;  // Game::binder_slots values
  int self = -1;                    // -1: `self` means the active player
  int error = -1;                   // gap site of the first failure, -1 when none
  // The failure of an expression that is not part of the game's rules (a
  // property's): it has no gap site.
  static constexpr int no_site = GapTable::no_site;
};

class Evaluator {
 public:
  explicit Evaluator(const Prepared& p) : p_(p) {}

  [[nodiscard]] std::int64_t eval(const model::Expr& e, Env& env) const;
  // A missing condition holds.
  [[nodiscard]] bool test(const model::Expr* e, Env& env) const {
    return e == nullptr || eval(*e, env) != 0;
  }
  // The data slot a `var` expression denotes; -1 (and env.error) on a bad index.
  [[nodiscard]] int var_slot(const model::Expr& var, Env& env) const;
  // A zone reference (a zone_count expression naming a zone): its owner, or
  // -1 for a shared zone.
  [[nodiscard]] int zone_owner(const model::Expr& zone, Env& env) const;
  [[nodiscard]] int zone_slot(int zone, int owner, int kind) const {
    return p_.game.zones[zone].slot(owner < 0 ? 0 : owner, kind, p_.kinds);
  }
  [[nodiscard]] std::int64_t zone_total(int zone, int owner, const std::int32_t* s) const;

  // Domains, in domain order (players P1..Pn, ranges ascending, enum and kind
  // declaration order). `others` excludes `self`.
  [[nodiscard]] int domain_size(const model::Domain& d, int self) const;
  [[nodiscard]] std::int64_t domain_value(const model::Domain& d, int i, int self) const;

  [[nodiscard]] int self_player(const Env& env) const {
    return env.self >= 0 ? env.self : get(env.state, p_.ctl.active);
  }

 private:
  // A failure at node's site in `sites` (no_site when it has none); 0.
  std::int64_t fail(const std::unordered_map<const void*, int>& sites, const void* node,
                    Env& env) const;
  std::int64_t fail(const void* node, Env& env) const { return fail(p_.gaps.at, node, env); }
  std::int64_t overflow(const void* node, Env& env) const {
    return fail(p_.gaps.overflow, node, env);
  }
  const Prepared& p_;
};

}  // namespace loophole::checker::semantics
