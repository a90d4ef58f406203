// The move machine's vocabulary, shared by the successor generators that
// run the turn structure: the reference semantics (checker/src/semantics/
// run.hpp), the compiled program (checker/src/explicit/compiled_program.hpp)
// and the SMT encoding's symbolic executor (checker/smt/src/exec.hpp). A
// state's moves are listed first (Move), then each runs; when an effect
// finishes, what remains of the move (Tail) is an enum each generator
// dispatches on, so no closures are built in the inner loop. Names only:
// each generator gives them their meaning.
#pragma once

#include <cstdint>

#include "loophole/checker/trace.hpp"

namespace loophole::checker {

// A top-level move of a state before it is executed.
struct Move {
  MoveKind kind = MoveKind::advance;
  int player = -1;
  int ref = -1;
  int gap = -1;  // >= 0: deciding whether the move exists already hit this gap site
};

// What runs after an effect finishes, within the same move.
enum class Tail : std::uint8_t {
  emit,             // end check, then the successor
  after_step_do,    // open the step's window (or go to post)
  priority_cost,    // count the use, push or resolve at once
  priority_effect,  // a non-answerable action resolved
  alternate_cost,
  alternate_effect,
  sequence_cost,
  sequence_effect,
  resolve,  // the top of the stack resolved
};

}  // namespace loophole::checker
