// PlayerView: the concrete pairs (stored state, rotation) and their moves,
// found once by a breadth-first search over the stored graph (player_view.hpp
// says why), each stored move rotating by its label's turn; a pair's state
// is the stored one rotated on demand.
#include "player_view.hpp"

#include <algorithm>

#include "bfs.hpp"  // (the graph's members, complete)

namespace loophole::checker {

std::uint64_t PlayerView::bytes_needed(std::uint64_t stored, int rotations) {
  // pairs_ (4 a rotation of each stored state), and per pair (at most one
  // per rotation of each stored state) canon_, rot_, parent_, parent_index_
  // and the depths while the levels are found: 17 bytes.
  const auto n = static_cast<std::uint64_t>(rotations);
  return stored * (4 * n + 17 * n);
}

PlayerView::PlayerView(std::unique_ptr<ExplicitGraph> base,
                       std::optional<std::chrono::steady_clock::time_point> deadline, bool no_room,
                       const std::atomic<bool>* interrupt)
    : base_(std::move(base)),
      symmetry_(*base_->symmetry()),
      n_(symmetry_.rotations()),
      completion_(no_room ? Completion::memory_limit : base_->completion()) {
  const Semantics& sem = base_->semantics();
  const int active = sem.layout().active;
  const std::uint64_t stored = base_->size();
  const std::uint64_t expanded = no_room ? 0 : base_->expanded();
  // The run's time limit and the interrupt, looked at every 4,096 pairs
  // when the search was complete.
  const bool may_stop = completion_ == Completion::complete;
  const auto stop_now = [&](std::uint64_t i) {
    if (!may_stop || (i & 4095U) != 0) return false;
    if (interrupt != nullptr && interrupt->load(std::memory_order_relaxed)) {
      completion_ = Completion::interrupted;
      return true;
    }
    if (!deadline || std::chrono::steady_clock::now() < *deadline) return false;
    completion_ = Completion::time_limit;
    return true;
  };

  // The pairs reachable from the concrete initial states, breadth first.
  pairs_.assign((no_room ? base_->initial_count() : stored) * static_cast<std::uint64_t>(n_),
                no_state);
  const auto visit = [&](StateId c, int r, StateId parent, std::uint32_t index) {
    StateId& slot = pairs_[static_cast<std::uint64_t>(c) * static_cast<std::uint64_t>(n_) +
                           static_cast<std::uint64_t>(r)];
    if (slot != no_state) return;
    slot = static_cast<StateId>(canon_.size());
    canon_.push_back(c);
    rot_.push_back(static_cast<std::uint8_t>(r));
    parent_.push_back(parent);
    parent_index_.push_back(index);
  };
  for (StateVec s : sem.initial_states()) {
    const int r = s[static_cast<std::size_t>(active)];
    symmetry_.canonicalise(s.data());
    for (StateId c = 0; c < base_->initial_count(); ++c) {
      if (base_->state(c) == s) {
        visit(c, r, no_state, 0);
        break;
      }
    }
  }
  initial_count_ = static_cast<std::uint32_t>(canon_.size());
  // (Under a limit, the pairs of stored states never expanded have no
  // moves; the first of them ends expanded().)
  expanded_ = no_state;
  std::vector<Edge> out;
  for (StateId v = 0; v < canon_.size(); ++v) {
    const StateId c = canon_[v];
    if (expanded_ == no_state && stop_now(v)) expanded_ = v;
    if (c >= expanded) expanded_ = std::min<std::uint64_t>(expanded_, v);
    if (expanded_ != no_state) continue;
    base_->edges_into(c, out);
    const int r = rot_[v];
    for (const Edge& e : out) visit(e.to, (r + e.turn) % n_, v, e.index);
  }
  if (expanded_ == no_state) expanded_ = canon_.size();
  // Depths: a pair's is its parent's plus one; numbered breadth first, so
  // the levels are runs of equal depth.
  levels_.clear();
  std::vector<std::uint32_t> depth(canon_.size(), 0);
  for (StateId v = 0; v < canon_.size(); ++v) {
    depth[v] = parent_[v] == no_state ? 0 : depth[parent_[v]] + 1;
    while (levels_.size() <= depth[v]) levels_.push_back(v);
  }

  statistics_ = base_->statistics();
  statistics_.depth = static_cast<std::uint32_t>(levels_.size());  // (the concrete graph's)
  statistics_.orbit_states = 0;
  StateVec s;
  for (StateId v = 0; v < canon_.size(); ++v) {
    if (symmetry_.slots()) {
      base_->state_into(canon_[v], s);
      statistics_.orbit_states += symmetry_.orbit_size(s.data());
    } else {
      ++statistics_.orbit_states;
    }
  }
}

StateVec PlayerView::state(StateId id) const {
  StateVec out;
  state_into(id, out);
  return out;
}

void PlayerView::state_into(StateId id, StateVec& out) const {
  thread_local StateVec stored;
  base_->state_into(canon_[id], stored);
  out.resize(stored.size());
  symmetry_.rotate(stored.data(), rot_[id], out.data());
}

std::vector<Edge> PlayerView::edges(StateId id) const {
  std::vector<Edge> out;
  edges_into(id, out);
  return out;
}

void PlayerView::edges_into(StateId id, std::vector<Edge>& out) const {
  out.clear();
  if (id >= expanded_) return;
  const StateId c = canon_[id];
  const int r = rot_[id];
  base_->edges_into(c, out);
  for (Edge& e : out) {
    e.to = pairs_[static_cast<std::uint64_t>(e.to) * static_cast<std::uint64_t>(n_) +
                  static_cast<std::uint64_t>((r + e.turn) % n_)];
    e.turn = 0;  // (the view's states are concrete)
    if (e.chooser_player >= 0)
      e.chooser_player = static_cast<std::int8_t>((e.chooser_player + r) % n_);
  }
}

std::uint32_t PlayerView::depth(StateId id) const {
  const auto it = std::upper_bound(levels_.begin(), levels_.end(), id);
  return static_cast<std::uint32_t>(it - levels_.begin()) - 1;
}

}  // namespace loophole::checker
