// Promela export of a Game: one SPIN model with the same states and moves as
// checker::Semantics (docs/promela.md). The state vector is the Layout, field
// by field (one global per field, in Layout order), and each loophole move is
// one atomic step of a single process, so `pan` stores exactly one state per
// loophole state plus the one state before setup runs.
#pragma once

#include <string>

#include "loophole/model/game.hpp"

namespace loophole::promela {

// How SPIN's counts relate to loophole's on the exported model: pan's
// "states, stored" (safety run, model compiled without LH_PROGRESS) equals
// loophole's reachable states plus this offset (the state before setup).
inline constexpr int state_offset = 1;

// The Promela text of `game` at its scope. `source` names the ruleset in the
// header comment.
[[nodiscard]] std::string to_promela(const model::Game& game, const std::string& source);

}  // namespace loophole::promela
