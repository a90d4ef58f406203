// Conditions asked of many states: the analyses after a search evaluate a
// user property, and ask which actions are enabled, on every explored
// state. Compiled once for the explicit engine's successor generator (its
// expression machine, its moves), they give exactly Semantics::holds and
// Semantics::enabled_actions without walking the expression trees per state
// (tests/checker/compiled_test.cpp compares them on every reachable state of
// every fixture, example and seed ruleset). A game or a condition the
// compiler does not handle is evaluated on the reference semantics instead
// (tests/checker/conditions_test.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "loophole/checker/semantics.hpp"

namespace loophole::checker {

class Conditions {
 public:
  // conditions[i] may be null: a missing condition, which holds.
  Conditions(const Semantics& sem, std::vector<const model::Expr*> conditions);
  ~Conditions();
  Conditions(const Conditions&) = delete;
  Conditions& operator=(const Conditions&) = delete;

  // Semantics::holds(*conditions[i], s), with `self` the active player. One
  // thread at a time per object (it keeps the quantifiers' scratch).
  [[nodiscard]] bool holds(std::size_t i, const StateVec& s) const;
  // Semantics::enabled_actions(s, out): the actions the window holder may
  // take in s. Also one thread at a time.
  void enabled_actions(const StateVec& s, std::vector<int>& out) const;
  // How many of the conditions run compiled (the others on the reference).
  [[nodiscard]] std::size_t compiled() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace loophole::checker
