// The states the encoded relation admits one move after a concrete state:
// the paths whose control literals the state satisfies, each with x
// replaced by the state's values and simplified (most fold to a next state
// of constants); what still depends on a choice constant is enumerated by a
// small solver, blocking each next state found. The same relation BMC
// unrolls (en.transition(), in range), at about a millisecond a state where
// a solver holding the whole relation with x fixed takes 14-150 ms. The
// breadth-first layers (layers.hpp) and Engine::successors, which the
// one-step agreement test compares with the reference, both ask here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include <z3++.h>

#include "encoding.hpp"

namespace loophole::smt::detail {

class Successors {
 public:
  explicit Successors(Encoding& en);

  // The next states of s through `paths` (indexes into en.paths, ascending:
  // ControlPaths::paths_for(s), or a subset of it), every field in range,
  // distinct (those that fold to constants sorted, the solver's after
  // them); the solver stops once there are more than `limit`. False when
  // the solver could not tell (a stop, or it gave up).
  bool of(const checker::StateVec& s, const std::vector<std::uint32_t>& paths,
          std::vector<checker::StateVec>& out,
          std::size_t limit = std::numeric_limits<std::size_t>::max());
  // Whether a predicate over the template state x holds in s; nullopt when
  // the solver could not tell (a stop, or it gave up).
  std::optional<bool> holds(const z3::expr& pred, const checker::StateVec& s);
  [[nodiscard]] bool in_range(const checker::StateVec& s) const;

 private:
  const std::vector<z3::expr>& conjuncts(std::uint32_t p);
  z3::expr_vector values(const checker::StateVec& s);  // numerals, in the order of en.x

  Encoding& en_;
  std::vector<z3::expr> disjuncts_;  // per path: pc ∧ y = next, built on first use
  std::vector<bool> built_;
  std::vector<std::vector<z3::expr>> conjuncts_;  // per path: its condition's, on first use
  z3::expr_vector x_;                             // the template's current state
  std::map<unsigned, std::size_t> x_index_;       // Z3 id of x[i] -> i
  z3::solver small_;                              // residual choices, one state at a time
};

}  // namespace loophole::smt::detail
