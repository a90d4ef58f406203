// The concrete graph of a search that stored one state per orbit of the
// player rotations (symmetry.hpp), as the analyses read it. A canonical
// state c (P1 active) does not say in which rotations it is reachable, and
// per-player findings ("P2 can never win") depend on that: the view holds
// the pairs (c, r) reachable from the concrete initial states, found by a
// breadth-first search over the canonical edges, where the edge c -> c'
// whose successor had player k active leads from (c, r) to (c', r + k).
// Pair (c, r) is the state c rotated by r (player r active), its moves are
// c's with their players rotated, and it is numbered in that search's
// order, so its parent and depth are those of the concrete graph: every
// finding is the concrete one while states and edges are stored once per
// orbit. The turn k of each stored edge is in its label (Edge::turn),
// written by the search. Successor indices are c's: the rules qualify only when they
// enumerate moves in an order that rotates with the players (no `for`,
// `pick` or `choose` over the players), and a trace that did not replay
// would be an internal error.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "explicit_graph.hpp"

namespace loophole::checker {

class PlayerView final : public ExploredGraph {
 public:
  // `base` was searched under a Symmetry with rotations() > 0, on the
  // rules of `base->semantics()`.
  // With a `deadline` (the run's time limit) or an `interrupt`, a view of
  // a complete search stops there like the search does: the pairs found so
  // far, those not expanded without moves, and completion() says
  // time_limit or interrupted. A view of a search that a limit already
  // stopped covers all it explored (a walk over the stored edges, cheaper
  // than the search that made them), so that the partial report is
  // about every state counted.
  // With `no_room` (its arrays would pass the run's memory limit), the view
  // holds the initial pairs only and completion() says memory_limit.
  explicit PlayerView(std::unique_ptr<ExplicitGraph> base,
                      std::optional<std::chrono::steady_clock::time_point> deadline = {},
                      bool no_room = false, const std::atomic<bool>* interrupt = nullptr);
  // What the view's arrays take for `stored` states and `rotations`
  // players, at most.
  [[nodiscard]] static std::uint64_t bytes_needed(std::uint64_t stored, int rotations);

  [[nodiscard]] const Semantics& semantics() const override { return base_->semantics(); }
  [[nodiscard]] std::uint64_t size() const override { return canon_.size(); }
  [[nodiscard]] std::uint32_t initial_count() const override { return initial_count_; }
  [[nodiscard]] StateVec state(StateId id) const override;
  [[nodiscard]] std::vector<Edge> edges(StateId id) const override;
  void state_into(StateId id, StateVec& out) const override;
  void edges_into(StateId id, std::vector<Edge>& out) const override;
  [[nodiscard]] std::uint64_t expanded() const override { return expanded_; }
  [[nodiscard]] StateId parent(StateId id) const override { return parent_[id]; }
  [[nodiscard]] std::uint32_t parent_index(StateId id) const override { return parent_index_[id]; }
  [[nodiscard]] std::uint32_t depth(StateId id) const override;
  [[nodiscard]] bool numbered_by_depth() const override { return true; }
  [[nodiscard]] Completion completion() const override { return completion_; }
  [[nodiscard]] const Statistics& statistics() const override { return statistics_; }
  // States are canonical under the slot sort only (the rotation is the
  // pair's).
  [[nodiscard]] bool reduced() const override { return symmetry_.slots(); }
  void canonicalise(StateVec& state) const override { symmetry_.sort_slots(state.data()); }

  [[nodiscard]] const ExplicitGraph& base() const { return *base_; }
  // The stored state and the rotation pair `id` stands for.
  [[nodiscard]] StateId stored(StateId id) const { return canon_[id]; }
  [[nodiscard]] int rotation(StateId id) const { return rot_[id]; }

 private:
  std::unique_ptr<ExplicitGraph> base_;
  const Symmetry& symmetry_;
  int n_;
  // pairs_[c * n + r]: the pair (c, r), no_state when unreachable.
  std::vector<StateId> pairs_;
  // Per pair, in breadth-first order.
  std::vector<StateId> canon_;
  std::vector<std::uint8_t> rot_;
  std::vector<StateId> parent_;
  std::vector<std::uint32_t> parent_index_;
  std::vector<StateId> levels_;  // levels_[d]: the first pair of depth d
  std::uint32_t initial_count_ = 0;
  std::uint64_t expanded_ = 0;
  Completion completion_ = Completion::complete;
  Statistics statistics_;
};

}  // namespace loophole::checker
