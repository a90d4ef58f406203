// Who can force what on an explored state graph: for each player, the states
// from which they can force a win (an attractor), and those from which they
// can force the game never to end (the complement of the others' attractor
// to an end), with perfect information and nature counted adversarial (a
// draw goes against the player who hopes for it). A state belongs to the
// player whose choice its moves are (the window holder, a trigger's
// controller); the outcomes of one move (a draw, a `choose`) are nature's,
// or the picking player's when they are the state's only move. Moves in
// which several players' triggers compete are nobody's: adversarial for all.
// Hidden information (hands, deck order) is not modelled, so a region is an
// upper bound on what a real player can force.
#pragma once

#include <cstdint>
#include <vector>

#include "loophole/checker/explored.hpp"

namespace loophole::properties {

// A move in a strategy: which successor of the state to take (its index in
// Semantics::successors order), or none.
inline constexpr std::int32_t no_move = -1;

struct PlayerStrategy {
  // Per state: whether the player can force a win from it, and the
  // successor index that does so where the choice is the player's
  // (no_move elsewhere); each such move leads closer to the win (rank).
  std::vector<bool> win;
  std::vector<std::int32_t> win_move;
  std::vector<std::uint32_t> win_rank;  // moves to a forced win at most (win states)
  // Per state: whether the player can force the game never to end (no end,
  // no rule gap, no deadlock, forever), and a move that stays in that region
  // where the choice is the player's.
  std::vector<bool> endless;
  std::vector<std::int32_t> endless_move;
  // Whether they can force it from the start (every initial state: the
  // deal is nature's).
  bool win_from_start = false;
  bool endless_from_start = false;
  // Whether they can force a win by one way of ending from the start:
  // [0] by the `win`/`lose` effects, [1 + c] by end condition c.
  std::vector<bool> win_by_condition_from_start;
};

struct StrategyAnalysis {
  std::vector<PlayerStrategy> players;
  // Per state: the player whose choice the state's moves are, -1 when nobody's
  // (one move, nature, or several players' moves competing).
  std::vector<std::int8_t> owner;
  // Per state, per successor (in Semantics::successors order): which move it
  // is an outcome of (0, 1, ...), and per move who picks its outcome (a
  // player, or -1: nature, adversarial). A strategy's move at a state picks
  // a move (any of its successors names it) and, where its player picks the
  // outcome too, that outcome.
  std::vector<std::vector<std::uint16_t>> move_of;
  std::vector<std::vector<std::int8_t>> picker;
  // Per state, per successor: the player the move made win, -1 when it does
  // not end the game with a win (any other successor, a loss for several).
  std::vector<std::vector<std::int8_t>> wins;
  // Per state, per successor ending the game: the end condition that decided
  // (-1: a `win`/`lose` effect, or no end).
  std::vector<std::vector<std::int16_t>> ended_by;
};

// Solves the games on a complete exploration (an incomplete graph gives an
// empty result).
[[nodiscard]] StrategyAnalysis analyse_strategies(const checker::ExploredGraph& graph);

}  // namespace loophole::properties
