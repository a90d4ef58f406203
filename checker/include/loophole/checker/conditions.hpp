// Conditions evaluated on many states: the analyses after a search evaluate
// a user property on every explored state. Compiled once into the explicit
// engine's expression machine (the one its successor generator evaluates
// guards with), they give exactly Semantics::holds without walking the
// expression tree per state (tests/checker/conditions_test.cpp compares the
// two on every reachable state of every fixture and seed ruleset). A game
// or a condition the compiler does not handle is evaluated on the reference
// semantics instead.
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
  // How many of the conditions run compiled (the others on the reference).
  [[nodiscard]] std::size_t compiled() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace loophole::checker
