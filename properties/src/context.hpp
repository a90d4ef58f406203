// What every analysis reads: the explored graph in compressed form, the
// control point of every state (read once, since unpacking a state costs more
// than reading an edge), which states a limit left unexpanded, and
// the names a designer sees ('combat · fight', 'mirror_ward' (speed 3), P2).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "loophole/checker/explored.hpp"
#include "loophole/checker/limits.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/properties/finding.hpp"
#include "loophole/properties/state_groups.hpp"

#include "graph_algorithms.hpp"

namespace loophole::properties::detail {

// The control fields of one state that the analyses group and filter by, in
// 4 bytes (one per state, the analyses' largest array after the graph's
// own: 16 with 32-bit fields, 8 with 16-bit step and gap and an 8-bit turn,
// which wrapped above 127 turns). The gap of a rule-gap state is read from
// the state when asked (Context::gap): few states are gaps.
struct Point {
  std::int32_t step : 10 = 0;   // -1 (setup) .. max_steps - 1
  std::uint32_t turn : 10 = 0;  // turn_number, saturating at scope.turns (at most 1,000)
  std::uint32_t over : 2 = 0;   // 0 running, 1 game over, 2 rule gap
  std::uint32_t stage : 3 = 0;  // checker::Stage
  std::uint32_t active : 3 = 0;
  std::int32_t holder : 4 = -1;  // the player to move in an open window, else -1
  static constexpr int max_steps = model::max_steps;  // (the front end's bound)
  static constexpr unsigned max_turn = 1023;
};
static_assert(sizeof(Point) == 4);
static_assert(model::max_players <= 8);
static_assert(model::max_steps <= 511);

// The points of every state, stored as an index into the table of the
// distinct points: a game has few (steps x stages x players x turns that
// occur, tens to hundreds), so an index takes 1 byte while there are at most
// 256 of them, 2 while at most 65,536, and beyond that the point itself (4).
// At 147 M operators states that is 1 byte a state where a Point was 4:
// the analyses' peak was the whole run's.
class Points {
 public:
  // Room for n points, appended in state order.
  void reserve(std::size_t n);
  void push_back(Point p);
  void fill(std::size_t n, Point p);  // p until there are n
  // On `threads` threads, the points of states 0..n-1 as of(state) gives
  // them (stopping early when `stop` is set), into an empty Points: false,
  // with nothing kept, when there are more than 256 distinct points (1-byte
  // indices only; the indices depend on the threads' timing, the points
  // read back do not).
  bool fill_parallel(std::size_t n, int threads, const std::function<Point(StateId)>& of,
                     const std::atomic<bool>* stop);
  [[nodiscard]] std::size_t size() const { return size_; }
  // The number of distinct points, and the bytes an index takes (1, 2, or
  // 4 when points are stored as they are).
  [[nodiscard]] std::size_t distinct() const { return table_.size(); }
  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] Point operator[](StateId v) const {
    switch (width_) {
      case 1:
        return table_[narrow_[v]];
      case 2:
        return table_[wide_[v]];
      default:
        return raw_[v];
    }
  }

 private:
  void widen();
  std::size_t size_ = 0, capacity_ = 0;
  int width_ = 1;
  std::vector<std::uint8_t> narrow_;
  std::vector<std::uint16_t> wide_;
  std::vector<Point> raw_;
  std::vector<Point> table_;
  std::unordered_map<std::uint32_t, std::uint32_t> index_;  // a point's bits -> its index
  struct Cached {
    std::uint32_t bits = ~std::uint32_t{0};  // (no point: its `over` would be 3)
    std::uint32_t index = 0;
  };
  static constexpr int cache_bits = 10;
  using Cache = std::array<Cached, std::size_t{1} << cache_bits>;
  // A point's place in a direct-mapped cache of indices.
  [[nodiscard]] static Cached& slot(Cache& cache, std::uint32_t bits) {
    return cache[(bits * 0x9E3779B1U) >> (32 - cache_bits)];
  }
  Cache cache_{};
};

class Context {
 public:
  // `threads`: how many threads the one pass over the states may take.
  Context(const checker::ExploredGraph& graph, const CheckSelection& selection,
          const std::atomic<bool>* interrupt = nullptr, checker::RunLimits* limits = nullptr,
          int threads = 1);

  const checker::ExploredGraph& graph;
  const checker::Semantics& semantics;
  const model::Game& game;
  const CheckSelection& selection;
  Digraph moves;
  Points points;
  bool complete = true;

  // Set when the run was interrupted: every analysis polls it in its loops
  // over states and returns early (check.cpp then drops what it found).
  [[nodiscard]] bool interrupted() const {
    return interrupt_ != nullptr && interrupt_->load(std::memory_order_relaxed);
  }
  // Whether `bytes` more fit under the run's memory limit; when not, the run
  // is stopped (interrupted() says so) and the caller returns early.
  [[nodiscard]] bool afford(std::uint64_t bytes) const {
    return limits_ == nullptr || limits_->afford(bytes);
  }

  [[nodiscard]] StateId size() const { return static_cast<StateId>(points.size()); }
  [[nodiscard]] bool final_state(StateId v) const { return points[v].over != 0; }
  // A state the exploration never expanded (it stopped at a limit first).
  [[nodiscard]] bool frontier(StateId v) const { return v >= expanded_; }
  // A reachable state that is not final and has no move.
  [[nodiscard]] bool dead_end(StateId v) const {
    return !final_state(v) && moves.out(v).empty() && !frontier(v);
  }
  // Shallower first, then lower number: the order in which shortest traces
  // are chosen. (A breadth-first search numbers its states in that order, so
  // then this is a < b: ExploredGraph::numbered_by_depth.)
  [[nodiscard]] bool earlier(StateId a, StateId b) const;
  [[nodiscard]] bool depth_ordered() const { return depth_ordered_; }
  [[nodiscard]] std::uint32_t depth(StateId v) const { return graph.depth(v); }

  // The 1-based rule-gap site (Semantics::gaps()) of a state where a rule
  // gap ended the game, else 0 (read from the packed state).
  [[nodiscard]] int gap(StateId v) const;

  // For every state: whether a final state, or one the exploration left
  // unexpanded, can be reached from it. Stalemates, turn loops and ends out
  // of reach all ask; the first to ask computes it, once (a pass over every
  // edge per sweep: at operators' 147 M states a fifth of a whole check's
  // CPU went to such passes).
  [[nodiscard]] const std::vector<bool>& can_finish() const;
  // The whole graph's strongly connected components, in one pass that the
  // analyses share (reach_through_components): the states on a cycle, where
  // alone the cycle searches of response loops, turn loops, stalemates and
  // leads_to need look (at operators' 147 M states the graph has none, and
  // four searches over every edge became none), and per state which of the
  // ends below it can still reach (each a sweep or more over every edge
  // before). The first to ask computes it; run_checks asks first of all.
  const CyclicStates& cyclic() const;  // (computes it: callers may only wait for it)
  // cyclic_components of the moves within the cyclic states, one search at
  // a time: each costs 4 bytes a cyclic state (when every state was 4 bytes,
  // two side by side, response and turn loops once the shared pass left
  // them little else to do, raised containment's peak by 482 MB).
  [[nodiscard]] ComponentList cyclic_components(const EdgePredicate& keep) const;
  // What ends_out_of_reach.cpp asks, from the same pass (only when that
  // analysis is selected and not given the answers, known_ends): whether a
  // real end (a final state that is no rule gap, or the frontier) can be
  // reached from v; player p's loss; p's win; a cycle (an endless path).
  [[nodiscard]] bool can_end(StateId v) const { return (reach_bits(v) & reach_end) != 0; }
  [[nodiscard]] bool can_lose(std::size_t p, StateId v) const {
    return ((reach_bits(v) >> (reach_players + 2 * p)) & 1U) != 0;
  }
  [[nodiscard]] bool can_win(std::size_t p, StateId v) const {
    return ((reach_bits(v) >> (reach_players + 2 * p + 1)) & 1U) != 0;
  }
  [[nodiscard]] bool endless(StateId v) const { return (reach_bits(v) & reach_endless) != 0; }
  // For a graph that is a slice of a larger one (state_groups.hpp:
  // cycle_findings): the whole graph's answers, given instead of computed on
  // the slice. can_finish per state; `doomed` per player, per state: only
  // that player's loss can still be reached (response_loops.cpp's stalls).
  void assume_can_finish(std::vector<bool> can_finish);
  std::vector<std::vector<bool>> known_doomed;
  // Per stack-overflow gap site: how many such states the whole graph has
  // (the slice holds the first k of each, in this order: unbounded_chains.cpp).
  std::optional<std::map<int, std::uint64_t>> known_overflows;
  // The whole graph's answers for ends out of reach (ends_out_of_reach.cpp).
  const EndsReach* known_ends = nullptr;
  // For a slice that holds only some cyclic components (cycle_findings):
  // the whole graph's loop counts, and per state the analyses whose chosen
  // components it belongs to (bit k: analysis k, as LoopSummary::analysis).
  const LoopCounts* known_counts = nullptr;
  const std::vector<std::uint8_t>* designated = nullptr;
  // Whether the component `members` is one analysis k looks at: always,
  // unless `designated` says otherwise.
  [[nodiscard]] bool looks_at(std::span<const StateId> members, unsigned k) const {
    if (designated == nullptr) return true;
    for (const StateId v : members) {
      if (v >= designated->size() || (((*designated)[v] >> k) & 1U) == 0) return false;
    }
    return true;
  }

  // The move behind an edge, recomputed on the semantics (edges do not keep
  // the action or trigger they took).
  [[nodiscard]] checker::Successor move(StateId from, const Edge& e) const;

  [[nodiscard]] std::string step_label(int step) const;  // "combat · fight"
  [[nodiscard]] std::string step_rule(int step) const;   // "step:combat.fight"
  // Where state v is, for a message: "'combat · fight'", or, before the first
  // step of the game is entered, "setup, before 'main · only' begins" (so a
  // loop there is not placed in a step reported as never reached).
  [[nodiscard]] std::string place(StateId v) const;
  [[nodiscard]] std::string action_label(int action) const;  // "'mirror_ward' (speed 3)"
  [[nodiscard]] static std::string player(int p);            // "P2"
  // "the exploration stopped at the state limit after 1,000 states"
  [[nodiscard]] std::string incomplete_reason() const;

  // A finding of this engine, with the verdict and severity of a claim of
  // absence: `violated`/`severity` after a complete exploration, `unknown`
  // and a note otherwise.
  [[nodiscard]] Finding finding(Kind kind, Severity severity) const;
  [[nodiscard]] Finding absence(Kind kind, Severity severity) const;

  // The shortest trace to `from`, then `path` (edges from `from`), then
  // `cycle` (edges from the end of the path back to it) as the lasso's loop.
  [[nodiscard]] checker::Trace trace(StateId from, const std::vector<Edge>& path = {},
                                     const std::vector<Edge>& cycle = {}) const;

 private:
  std::uint64_t expanded_ = 0;  // states 0..expanded_-1 have all their edges
  const std::atomic<bool>* interrupt_ = nullptr;
  checker::RunLimits* limits_ = nullptr;
  bool depth_ordered_ = false;  // ExploredGraph::numbered_by_depth
  int gap_field_ = -1;          // Layout::gap
  bool finish_given_ = false;   // assume_can_finish
  mutable std::once_flag can_finish_once_;
  mutable std::vector<bool> can_finish_;
  // The shared pass (cyclic()): per state the sets it reaches, a byte when
  // they fit (two players), else 4 bytes.
  static constexpr unsigned reach_finish = 1, reach_end = 2, reach_endless = 4, reach_players = 3;
  [[nodiscard]] std::uint32_t reach_bits(StateId v) const {
    return reach8_.empty() ? reach32_[v] : reach8_[v];
  }
  void components() const;
  mutable std::once_flag components_once_;
  mutable std::mutex cyclic_components_mutex_;
  mutable CyclicStates cyclic_;
  mutable std::vector<std::uint8_t> reach8_;
  mutable std::vector<std::uint32_t> reach32_;
};

// Who loses and who wins in each game-over state, per player: a win names
// its player (and, with two players, a loss names the other as winner). When
// a tie leaves it open every outcome named is kept (ties.cpp reports ties).
struct Outcomes {
  std::vector<std::vector<bool>> loses, wins;  // [player][state]
};
Outcomes outcomes(const Context& cx);

// A state chosen for a shortest trace among several: the earliest.
template <class Range>
StateId earliest(const Context& cx, const Range& states) {
  StateId best = checker::no_state;
  for (const StateId v : states) {
    if (best == checker::no_state || cx.earlier(v, best)) best = v;
  }
  return best;
}

}  // namespace loophole::properties::detail
