// Promela export of a Game: one SPIN model with the same states and moves as
// checker::Semantics (docs/promela.md). The state vector is the Layout, field
// by field (one global per field, in Layout order), and each loophole move is
// one atomic step of a single process, so `pan` stores exactly one state per
// loophole state plus the one state before setup runs.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "loophole/model/game.hpp"

namespace loophole::promela {

// How SPIN's counts relate to loophole's on the exported model: pan's
// "states, stored" (safety run, model compiled without LH_PROGRESS) equals
// loophole's reachable states plus this offset (the state before setup).
inline constexpr int state_offset = 1;

// A game the export cannot say faithfully: pan computes in 32-bit integers,
// so a game whose values the interval analysis (checker/src/semantics/
// gaps.cpp) cannot keep within them would be explored with wrapped values.
// `where` is the first expression that can leave them.
class Unsupported : public std::runtime_error {
 public:
  Unsupported(const std::string& message, model::SourceSpan where)
      : std::runtime_error(message), where_(std::move(where)) {}
  [[nodiscard]] const model::SourceSpan& where() const { return where_; }

 private:
  model::SourceSpan where_;
};

// The Promela text of `game` at its scope. `source` names the ruleset in the
// header comment. Throws Unsupported for a game the export cannot say.
[[nodiscard]] std::string to_promela(const model::Game& game, const std::string& source);

}  // namespace loophole::promela
