// Structural checks: problems visible in the turn structure itself, found on
// the phase/step graph without exploring any state. They are cheap, always
// run first, and explain findings the engines would otherwise report late
// and indirectly (a step that repeats forever shows up as a stalemate).
#pragma once

#include <vector>

#include "loophole/model/game.hpp"
#include "loophole/model/phase_graph.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::properties {

// Findings of kind `structure` (engine "structure", verdict violated, no
// trace), ordered by source position:
//   error    a step unreachable from the start of the turn     (rule "step:phase.step")
//   error    a step with no way onward (it repeats forever)     (rule "step:phase.step")
//   error    a turn that never passes to the next player        (rule "turn")
//   warning  a window in which no role may ever act             (rule "window:name")
//   warning  an action whose `who` is not `active` reads `opponent` (rule "action:name")
std::vector<Finding> check_structure(const model::Game& game, const model::PhaseGraph& graph);

}  // namespace loophole::properties
