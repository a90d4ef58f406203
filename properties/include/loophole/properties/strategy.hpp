// Who can force what on an explored state graph: for each player and each
// coalition of players, the states from which they can force a win (an
// attractor), and those from which they can force the game never to end
// (the complement of the others' attractor to an end), with perfect
// information. A state belongs to the players whose choice its moves are
// (the window holder, a trigger's controller; several players' competing
// moves belong to a coalition holding all of them); the outcomes of one move
// (a draw, a `choose`) are nature's, or the picking player's when they are
// the state's only move. Nature is adversarial (a draw goes against the
// coalition) or, with Nature::fair, a fair coin: a win is then one the
// coalition reaches with probability 1 (almost surely) against adversarial
// opponents, whatever the probabilities of nature's outcomes (only which
// outcomes are possible matters). Hidden information (hands, deck order) is
// not modelled, so a region is an upper bound on what a real player can
// force.
#pragma once

#include <cstdint>
#include <vector>

#include "loophole/checker/explored.hpp"

namespace loophole::properties {

// A move in a strategy: which successor of the state to take (its index in
// Semantics::successors order), or none.
inline constexpr std::int32_t no_move = -1;

enum class Nature : std::uint8_t { adversarial, fair };

struct CoalitionStrategy {
  std::uint32_t members = 0;  // bit p for player p
  // Per state: whether the coalition can force a win (a win of any member)
  // from it, and the successor index that does so where the choice is the
  // coalition's (no_move elsewhere). Adversarial nature: each such move
  // leads to a state of smaller rank, and every branch wins within rank
  // moves. Fair nature: some outcome of it does, and every outcome stays in
  // the region.
  std::vector<bool> win;
  std::vector<std::int32_t> win_move;
  std::vector<std::uint32_t> win_rank;
  // Per state: whether the coalition can force the game never to end (no
  // end, no rule gap, no deadlock, forever), and a move that stays in that
  // region where the choice is the coalition's. (With a fair coin the same
  // region: keeping a game going with probability 1 is keeping it going.)
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
  Nature nature = Nature::adversarial;
  // Every coalition: the single players first (coalitions[p] is player p
  // alone), then the larger ones by size, then by members.
  std::vector<CoalitionStrategy> coalitions;

  // The moves, flat: state v's successors are edges edge_begin[v] ..
  // edge_begin[v + 1] (one per successor, in Semantics::successors order),
  // its moves move_begin[v] .. move_begin[v + 1].
  std::vector<std::uint64_t> edge_begin, move_begin;
  std::vector<std::uint16_t> move_of;  // per edge: which move of its state it is an outcome of
  std::vector<std::int8_t> winner;     // per edge: the player it made win, -1 none
  std::vector<std::int16_t> ended_by;  // per edge: the deciding end condition, -1 effect/none
  std::vector<std::int8_t> picker;     // per move: who picks its outcome, -1 nature
  std::vector<std::uint32_t> movers;   // per state: the players whose moves these are
  std::vector<std::uint8_t> nobody;    // per state: some move is nobody's (automatic)

  [[nodiscard]] std::size_t moves(checker::StateId v) const {
    return move_begin[v + 1] - move_begin[v];
  }
  [[nodiscard]] std::uint16_t move(checker::StateId v, std::size_t successor) const {
    return move_of[edge_begin[v] + successor];
  }
  // Whether coalition c (bit p for player p) picks the outcome of move m of v.
  [[nodiscard]] bool picks(checker::StateId v, std::uint16_t m, std::uint32_t c) const {
    const std::int8_t p = picker[move_begin[v] + m];
    return p >= 0 && ((c >> static_cast<unsigned>(p)) & 1U) != 0;
  }
  // Whether coalition c chooses the move at v (several moves, all theirs).
  [[nodiscard]] bool owns(checker::StateId v, std::uint32_t c) const {
    return moves(v) > 1 && nobody[v] == 0 && movers[v] != 0 && (movers[v] & ~c) == 0;
  }
  // Whether coalition c makes the choice at v: the move, or the outcome of
  // the state's only move.
  [[nodiscard]] bool chooses(checker::StateId v, std::uint32_t c) const {
    return owns(v, c) || (moves(v) == 1 && picks(v, 0, c));
  }
};

// Solves the games on a complete exploration (an incomplete graph gives an
// empty result). Time linear in the graph per objective (each attractor is
// one pass over the predecessor edges, with counters); with a fair coin, a
// few such passes, one per round of the nested fixpoint.
[[nodiscard]] StrategyAnalysis analyse_strategies(const checker::ExploredGraph& graph,
                                                  Nature nature = Nature::adversarial);

// A coalition's strategy as a decision tree, from an initial state: at each
// state where the coalition chooses, its move (the outcomes of the move
// below it: all of them, or the one it picks); elsewhere every reply of the
// others and of nature. Bounded for a report: at most `max_choices` of the
// coalition's moves along a branch and `max_nodes` nodes in all; a branch
// cut short by either ends in a `cut` node.
struct StrategyTree {
  // coalition: its move; outcome: one of nature's outcomes of its move;
  // reply: one of several successors nobody in the coalition chooses;
  // forced: the only successor.
  enum class By : std::uint8_t { coalition, outcome, reply, forced };
  enum class End : std::uint8_t { none, win, repeat, cut, lost };
  struct Node {
    checker::StateId state = 0;  // the state it leads to
    std::uint32_t index = 0;     // successor index at the parent's state
    By by = By::forced;          // who chose that successor
    End end = End::none;         // win: a win for the coalition; repeat: a
                                 // state already on the branch (an endless
                                 // strategy, or a win against a fair coin)
    std::uint32_t choices = 0;   // the coalition's moves from the root to it
    std::vector<std::size_t> children;
  };
  std::vector<Node> nodes;  // nodes[0]: the initial state (no move)
  bool cut = false;         // some branch was cut short
};

// The tree of coalitions[k]'s win (or endless) strategy from initial state
// `initial` (which must be in the region).
[[nodiscard]] StrategyTree strategy_tree(const checker::ExploredGraph& graph,
                                         const StrategyAnalysis& analysis, std::size_t k, bool win,
                                         checker::StateId initial, std::uint32_t max_choices,
                                         std::size_t max_nodes);

}  // namespace loophole::properties
