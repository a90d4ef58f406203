// The states reached in exactly k moves, layer by layer, while they are few:
// a breadth-first search whose successor function is the encoding's own
// relation with the current state fixed (successors.hpp). Layer k+1 holds the
// successors of layer k's states not seen before, so the layers are the
// exact breadth-first levels of the relation BMC unrolls, and a question
// asked of layer k has the answer BMC's query at depth k has: the first
// depth at which a bad state lies is the same, and a state of the first
// layer that holds one is reached by a shortest path (its parents). When a
// layer is empty every reachable state has been seen (complete). When the
// states outnumber the budget, the search stops and BMC takes over from
// that depth (bmc.cpp): on a small ruleset this replaces BMC's unsat
// queries, which cost seconds per depth on 71 states (cosmere at face=1,
// number=1, hand=2, ace=0), by a few milliseconds of small queries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <z3++.h>

#include "control_paths.hpp"
#include "encoding.hpp"
#include "successors.hpp"

namespace loophole::smt::detail {

class Layers {
 public:
  // At most `budget` states in all; 0: off (alive() is false). The memory
  // its tables hold is reserved with the engine's Control as they grow
  // (counted against --max-memory with Z3's allocation); when there is no
  // room the engine stops with memory_limit.
  Layers(Encoding& en, const ControlPaths& paths, std::size_t budget);
  ~Layers();
  Layers(const Layers&) = delete;
  Layers& operator=(const Layers&) = delete;

  // Whether layers 0..k are all known (computing them when needed): false
  // once the budget was exceeded or the engine was stopped.
  bool reach(int k);
  [[nodiscard]] bool alive() const { return alive_; }
  // The states of layer k (after reach(k)): indexes [first, second).
  [[nodiscard]] std::pair<std::size_t, std::size_t> layer(int k) const {
    return {begin_[static_cast<std::size_t>(k)], begin_[static_cast<std::size_t>(k) + 1]};
  }
  [[nodiscard]] const checker::StateVec& state(std::size_t i) const { return states_[i]; }
  [[nodiscard]] std::size_t size() const { return states_.size(); }
  // The states of the path to state i through its parents, from an initial state.
  [[nodiscard]] std::vector<checker::StateVec> path_to(std::size_t i) const;
  // Whether a predicate over the template state x holds in state i; nullopt
  // when the solver could not tell (a stop, or it gave up).
  std::optional<bool> holds(const z3::expr& pred, std::size_t i);
  // Stops the search (a question it could not answer): BMC takes over.
  void give_up() { alive_ = false; }
  // The bytes reserved for the tables (the states, the seen set, the parents).
  [[nodiscard]] std::uint64_t bytes() const { return reserved_; }

 private:
  bool expand();  // computes the next layer; false when over budget or stopped
  // Reserves what the tables hold now (ahead, a chunk at a time); false
  // when there is no room (the engine is then stopped).
  bool account();

  Encoding& en_;
  const ControlPaths& paths_;
  std::size_t budget_;
  bool alive_ = true;
  std::uint64_t reserved_ = 0;  // with en_.control (account())
  std::vector<checker::StateVec> states_;
  std::vector<std::uint32_t> parent_;  // index of the parent; itself for an initial state
  std::vector<std::size_t> begin_;     // layer k is [begin_[k], begin_[k + 1])
  std::map<checker::StateVec, std::uint32_t> seen_;
  Successors step_;  // a state's next states (successors.hpp)
};

}  // namespace loophole::smt::detail
