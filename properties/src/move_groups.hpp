// A state's successors grouped into moves, as the strategy analyses see a
// state: consecutive successors of one kind, player and action or trigger
// (checker::Generator gives those fields) are the outcomes of one move. The
// first level is a choice of a move by the players whose moves they are, the
// second the choice of an outcome by nature (a draw, a `choose`) or, for a
// `pick` that is the state's only move, by its picker. A state is a
// coalition's when it has several moves and every one of them is a move of
// one of its players (a state where nobody's move competes with a player's,
// or one move only, is nobody's: adversarial for every coalition).
#pragma once

#include <cstdint>
#include <vector>

#include "loophole/checker/generator.hpp"
#include "loophole/checker/semantics.hpp"

namespace loophole::properties::detail {

struct StateMoves {
  std::vector<std::uint16_t> move_of;  // per successor (Semantics::successors order)
  std::vector<std::int8_t> picker;     // per move: who picks its outcome, -1 nature
  std::uint32_t movers = 0;            // the players whose moves these are (bit p)
  bool nobody = false;                 // some move is nobody's (automatic)
  [[nodiscard]] std::size_t moves() const { return picker.size(); }
  // Whether coalition `c` (bit p for player p) chooses the move here.
  [[nodiscard]] bool chosen_by(std::uint32_t c) const {
    return moves() > 1 && !nobody && movers != 0 && (movers & ~c) == 0;
  }
  // Whether coalition `c` picks the outcome of move m.
  [[nodiscard]] bool picked_by(std::uint16_t m, std::uint32_t c) const {
    return picker[m] >= 0 && ((c >> picker[m]) & 1U) != 0;
  }
  // The single player whose choice the state is, -1 when none.
  [[nodiscard]] int owner() const {
    if (moves() <= 1 || nobody || movers == 0 || (movers & (movers - 1)) != 0) return -1;
    int p = 0;
    while (((movers >> p) & 1U) == 0) ++p;
    return p;
  }
};

// Groups the successors in `buf` (Generator::successors of one state).
void group_moves(const checker::Generator::Buffer& buf, StateMoves& out);

}  // namespace loophole::properties::detail
