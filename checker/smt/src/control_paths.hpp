// The control paths possible at each BMC depth. The control part of a state
// (whether the game is over, the active player, step, stage, window holder,
// passes, seat, stack, pending triggers...) is concrete in every path of the
// encoding, so an explicit forward analysis over it is cheap: R_0 is the
// control of the initial states, and R_{k+1} is what the paths compatible
// with some control in R_k can lead to. Frame k of an unrolling from the
// initial states then needs only the paths compatible with R_k, not the whole
// relation: at low depths a few dozen of thousands of paths.
//
// Sound by over-approximation: a path is dropped only when one of the
// equalities (or disequalities) of control fields at the top of its path
// condition contradicts every control in R_k, and a next control value that
// is not a constant, a copy of a control field or an if-then-else over those
// may take any value of its field's range. So every state reachable in
// exactly k moves has its control in R_k, and every move from it is a path
// kept at frame k (tests/smt/one_step_test.cpp, PrunedOneStep).
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include <z3++.h>

#include "encoding.hpp"

namespace loophole::smt::detail {

class ControlPaths {
 public:
  explicit ControlPaths(const Encoding& en);

  // The indexes (into en.paths) of the paths possible from a state reached in
  // exactly k moves from an initial state, ascending.
  const std::vector<std::uint32_t>& paths_at(int k);
  // Their disjunction, over the template (x, y, choices): frame k's relation.
  z3::expr relation(int k);
  // The abstract control states at depth k (valuations of the core control
  // fields); 0 once the analysis gave up (too many), when every path is kept.
  std::size_t controls_at(int k);
  // The paths whose control literals the concrete state s satisfies (every
  // move out of s is one of them), ascending.
  [[nodiscard]] std::vector<std::uint32_t> paths_for(const checker::StateVec& s) const;

 private:
  // A top-level literal of a path condition: x[field] == value or !=.
  struct Guard {
    int field;  // position in fields_
    std::int64_t value;
    bool equal;
  };
  // A next control value: the union of constants and copies of tracked
  // fields (the leaves of an if-then-else), or any value of the range.
  struct Next {
    bool any = false;
    std::vector<std::int64_t> values;
    std::vector<int> copies;  // positions in fields_
    friend bool operator<(const Next& a, const Next& b) {
      return std::tie(a.any, a.values, a.copies) < std::tie(b.any, b.values, b.copies);
    }
  };
  // Paths with the same guards and next controls behave alike here.
  struct Class {
    std::vector<Guard> guards;
    std::vector<Next> next;  // per tracked field
    std::vector<std::uint32_t> paths;
  };
  // An abstract state: exact values of the core fields (the game's position:
  // over, active, step, stage, stack size), and for each loose field (the
  // window's holder, passes, seat, the step left for, stack entries, pending
  // triggers) the set of its possible values as a bit mask over lo..hi,
  // joined over the states with the same core values. (With the window's
  // fields exact too, containment had 9,109 states at depth 6 and the
  // analysis took 9 s; the paths kept were the same.)
  using Core = std::vector<std::int64_t>;
  using Loose = std::vector<std::uint64_t>;
  using Level = std::map<Core, Loose>;

  void classify();
  bool step();  // computes level k+1 from level k; false when it gave up

  const Encoding& en_;
  std::vector<int> fields_;  // core fields first, then loose ones
  std::size_t core_ = 0;     // how many of fields_ are core
  std::vector<Class> classes_;
  std::vector<Level> levels_;                         // R_0, R_1, ...
  std::vector<std::vector<std::uint32_t>> selected_;  // paths per level
  std::vector<z3::expr> disjuncts_;                   // per path, built on first use
  bool gave_up_ = false;
  std::vector<std::uint32_t> all_;
};

}  // namespace loophole::smt::detail
