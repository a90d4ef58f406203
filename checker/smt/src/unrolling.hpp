// Time frames of the transition system in one Z3 solver: frame k is a copy of
// the state fields, each within its range, tied to frame k-1 by the
// transition relation. BMC and the base case of k-induction start from the
// initial states; the inductive step starts anywhere. Adding a frame keeps
// everything learnt so far (one solver, queries in push/pop scopes).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include "control_paths.hpp"
#include "encoding.hpp"

namespace loophole::smt::detail {

class Unrolling {
 public:
  // With `prune` (from the initial states only), the transition out of frame
  // k has only the control paths possible after k moves (control_paths.hpp).
  Unrolling(Encoding& en, bool from_initial, unsigned timeout_ms, std::string tag,
            ControlPaths* prune = nullptr);

  Encoding& en;
  z3::solver solver;
  std::vector<std::vector<z3::expr>> frames;

  [[nodiscard]] int depth() const { return static_cast<int>(frames.size()) - 1; }
  // Adds frame depth()+1 and the transition into it.
  void extend();
  // A predicate over the template state x, at frame k.
  [[nodiscard]] z3::expr at(const z3::expr& over_x, int k) const;
  // Frames i and j differ in some field.
  [[nodiscard]] z3::expr differ(int i, int j) const;
  // The states of frames 0..k in a model, as a replayed trace (from_initial
  // only). Throws std::logic_error when it does not replay.
  [[nodiscard]] checker::Trace trace(const z3::model& m, int k) const;
  // Whether a state violating `good` lies exactly k moves from the start
  // (frames are added up to k; the query runs in its own push/pop scope, under
  // the engine's limits): sat sets `trace` to the replayed trace to it.
  z3::check_result violated_at(const z3::expr& good, int k, std::optional<checker::Trace>& trace);
  [[nodiscard]] checker::StateVec state(const z3::model& m, int k) const {
    return decode_state(m, frames[static_cast<std::size_t>(k)]);
  }

 private:
  std::vector<z3::expr> new_frame();
  std::string tag_;
  z3::expr relation_;
  ControlPaths* prune_ = nullptr;
};

// A trace through the given states: each consecutive pair is matched to the
// first successor of the semantics that equals the next state, transcribed
// and replayed. Throws std::logic_error ("loophole: internal error: ...")
// when a state has no such successor or the replay disagrees.
checker::Trace trace_through(const checker::Semantics& sem,
                             const std::vector<checker::StateVec>& states);

}  // namespace loophole::smt::detail
