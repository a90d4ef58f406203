// Graph algorithms the analyses share, on a compressed copy of the explored
// graph. They know nothing of games: states are numbers, moves are Edges, and
// every analysis says which edges count (non-progress moves, moves among
// doomed states) through a predicate. Kept separate so they can be tested on
// hand-made graphs of a few states.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <functional>
#include <iterator>
#include <span>
#include <vector>

#include "loophole/checker/explored.hpp"
#include "loophole/checker/limits.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::properties::detail {

using checker::Edge;
using checker::StateId;

// The moves in CSR form, as the explicit engine keeps them
// (checker::CompactEdges): a 4-byte target and a 1-byte label per edge, and
// per state a 2-byte start relative to a 64-bit base per 64 states (or, past
// 16 bits, a start in a sorted list). The
// engine's graph is read in place, with no copy; any other graph (a test
// double, a hand-made one) is copied into the same form by add_state(). An
// edge is decoded into an Edge as it is read (the label table has a few
// dozen entries and stays in cache): out(v) is a range of Edge values.
class Digraph {
 public:
  Digraph() { refresh(); }
  explicit Digraph(checker::CompactEdges view);
  Digraph(const Digraph&) = delete;  // (may point into its own vectors)
  Digraph& operator=(const Digraph&) = delete;
  Digraph(Digraph&&) = default;  // (vectors keep their buffers when moved)
  Digraph& operator=(Digraph&&) = default;

  class EdgeIterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Edge;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Edge;
    EdgeIterator() = default;
    EdgeIterator(const Digraph* g, std::uint64_t e, std::uint64_t first)
        : g_(g), e_(e), first_(first) {}
    Edge operator*() const { return g_->edge(e_, first_); }
    EdgeIterator& operator++() {
      ++e_;
      return *this;
    }
    EdgeIterator operator++(int) {
      EdgeIterator old = *this;
      ++e_;
      return old;
    }
    bool operator==(const EdgeIterator& o) const { return e_ == o.e_; }
    [[nodiscard]] std::uint64_t position() const { return e_; }

   private:
    const Digraph* g_ = nullptr;
    std::uint64_t e_ = 0, first_ = 0;
  };
  class EdgeRange {
   public:
    EdgeRange(const Digraph* g, std::uint64_t b, std::uint64_t e) : g_(g), b_(b), e_(e) {}
    [[nodiscard]] EdgeIterator begin() const { return {g_, b_, b_}; }
    [[nodiscard]] EdgeIterator end() const { return {g_, e_, b_}; }
    [[nodiscard]] std::size_t size() const { return e_ - b_; }
    [[nodiscard]] bool empty() const { return e_ == b_; }
    Edge operator[](std::size_t i) const { return g_->edge(b_ + i, b_); }

   private:
    const Digraph* g_;
    std::uint64_t b_, e_;
  };

  [[nodiscard]] std::size_t size() const { return size_; }  // states
  [[nodiscard]] std::uint64_t edge_count() const { return edges_; }
  // Edges of v: begin(v)..end(v).
  [[nodiscard]] std::uint64_t begin(StateId v) const {
    if (v >= with_lists_) return edges_;
    const std::uint16_t r = rel_[v];
    return r != checker::CompactEdges::wide_rel ? base_[v >> checker::CompactEdges::group_shift] + r
                                                : checker::CompactEdges::wide_begin(wide_, v);
  }
  [[nodiscard]] std::uint64_t end(StateId v) const { return begin(v + 1); }
  [[nodiscard]] StateId target(std::uint64_t e) const { return to_[e]; }
  // Edge e, the first edge of its state being `first`.
  [[nodiscard]] Edge edge(std::uint64_t e, std::uint64_t first) const {
    Edge out = labels_[label_[e]];
    out.to = to_[e];
    out.index = static_cast<std::uint32_t>(e - first);
    return out;
  }
  [[nodiscard]] EdgeRange out(StateId v) const { return {this, begin(v), end(v)}; }
  // Appends a state with these edges (their `index` is their position).
  void add_state(std::span<const Edge> out_edges);
  // States past those with edge lists (a search's frontier): no edges.
  void resize(std::size_t states) { size_ = std::max(size_, states); }
  // What this graph holds of its own (0 when it reads the engine's arrays).
  [[nodiscard]] std::uint64_t own_bytes() const;

  // Set by the Context: the run's stop flag, which the algorithms below poll
  // (once it is set they return early, with results nobody reads), and the
  // limits they ask before allocating their large arrays.
  const std::atomic<bool>* stop = nullptr;
  checker::RunLimits* limits = nullptr;
  [[nodiscard]] bool stopped() const {
    return stop != nullptr && stop->load(std::memory_order_relaxed);
  }
  [[nodiscard]] bool afford(std::uint64_t bytes) const {
    return limits == nullptr || limits->afford(bytes);
  }

 private:
  void refresh();  // points the arrays at the owned vectors

  std::size_t size_ = 0;
  std::uint64_t with_lists_ = 0, edges_ = 0;
  const StateId* to_ = nullptr;
  const std::uint8_t* label_ = nullptr;
  const std::uint16_t* rel_ = nullptr;
  const std::uint64_t* base_ = nullptr;
  std::span<const checker::CompactEdges::Wide> wide_;
  std::vector<Edge> labels_;
  // Owned (add_state), else empty.
  std::vector<StateId> own_to_;
  std::vector<std::uint8_t> own_label_;
  std::vector<std::uint16_t> own_rel_;
  std::vector<std::uint64_t> own_base_;
  std::vector<checker::CompactEdges::Wide> own_wide_;
};

using EdgePredicate = std::function<bool(StateId from, const Edge& e)>;
using StatePredicate = std::function<bool(StateId v)>;

// The states of the whole graph's cyclic components: every cycle of any
// subgraph lies among them, so a search for the cycles of a subgraph
// (cyclic_components) need look nowhere else.
// Besides whether a state is one, a member's rank among the members: a
// search within them numbers its states by it, so that its arrays hold 4
// bytes a member, not a state (cosmere: 2.7 M of 42.5 M states are cyclic).
struct CyclicStates {
  std::uint64_t count = 0;            // members
  std::vector<std::uint64_t> bits;    // per block of 64 states: bit v % 64 of a member
  std::vector<std::uint32_t> before;  // per block: the members in the blocks before it
  [[nodiscard]] bool contains(StateId v) const { return ((bits[v >> 6] >> (v & 63U)) & 1U) != 0; }
  // The number of members below v.
  [[nodiscard]] StateId rank(StateId v) const {
    const std::uint64_t below = bits[v >> 6] & ((std::uint64_t{1} << (v & 63U)) - 1);
    return before[v >> 6] + static_cast<StateId>(std::popcount(below));
  }
  // Building it: mark(v) for each member of n states (bits sized by
  // reset(n)), then count_members() fills `before` and `count`.
  void reset(std::size_t n) { bits.assign((n + 63) / 64, 0); }
  void mark(StateId v) { bits[v >> 6] |= std::uint64_t{1} << (v & 63U); }
  void count_members();
};

// One pass of the strongly connected components of the whole graph that
// also answers reachability: marks[v] holds on entry the target sets v
// belongs to (bit k: set k) and on return those it can reach, itself
// included; `endless` (a bit no target set uses, or 0) is set where a cyclic
// component can be reached. Tarjan's order completes a component after every
// component it leads to, so each component takes the union of its members'
// marks and of its successors' in one pass over the edges. Returns the
// cyclic states (empty when the run stopped).
template <class Mark>
CyclicStates reach_through_components(const Digraph& g, std::vector<Mark>& marks, Mark endless);

// Components as one list of their members, 4 bytes a member and 4 a
// component: component i is members[starts[i] .. starts[i + 1]). (A vector
// per component cost 40 bytes of headers besides its members, and the
// seeds' quiet moves have a component for every 5 cyclic states.)
class ComponentList {
 public:
  ComponentList() = default;
  ComponentList(std::vector<StateId> members, std::vector<std::uint32_t> starts)
      : members_(std::move(members)), starts_(std::move(starts)) {}
  [[nodiscard]] std::size_t size() const { return starts_.empty() ? 0 : starts_.size() - 1; }
  [[nodiscard]] bool empty() const { return size() == 0; }
  [[nodiscard]] std::span<const StateId> operator[](std::size_t i) const {
    return {members_.data() + starts_[i], members_.data() + starts_[i + 1]};
  }
  class iterator {
   public:
    using value_type = std::span<const StateId>;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const ComponentList* list, std::size_t i) : list_(list), i_(i) {}
    value_type operator*() const { return (*list_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++i_;
      return old;
    }
    bool operator==(const iterator& o) const { return i_ == o.i_; }

   private:
    const ComponentList* list_ = nullptr;
    std::size_t i_ = 0;
  };
  [[nodiscard]] iterator begin() const { return {this, 0}; }
  [[nodiscard]] iterator end() const { return {this, size()}; }
  // The components as vectors (tests compare them with hand-made ones).
  [[nodiscard]] std::vector<std::vector<StateId>> nested() const;

 private:
  std::vector<StateId> members_;
  std::vector<std::uint32_t> starts_;
};

// The strongly connected components of the subgraph of kept edges that have
// a cycle (several states, or one with a kept self-loop); members ascending,
// components ordered by their smallest member. With `within`, only its
// states are searched (none at all when it has none).
ComponentList cyclic_components(const Digraph& g, const EdgePredicate& keep,
                                const CyclicStates* within = nullptr);

// The shortest path of kept edges from `entry` back to `entry` that stays
// within `members` (sorted) and uses at least one edge satisfying `must`
// (any kept edge when `must` is empty). Empty when there is none.
std::vector<Edge> shortest_cycle(const Digraph& g, StateId entry, std::span<const StateId> members,
                                 const EdgePredicate& keep, const EdgePredicate& must = {});

// The shortest path of kept edges from `from` to the nearest state satisfying
// `goal` (zero edges if `from` satisfies it) through states satisfying
// `inside`. Returns false when no goal state is reachable.
bool shortest_path(const Digraph& g, StateId from, const StatePredicate& goal,
                   const StatePredicate& inside, const EdgePredicate& keep,
                   std::vector<Edge>& path);

// For every state: whether some state in `targets` can be reached from it
// along kept edges (targets included).
std::vector<bool> can_reach(const Digraph& g, const std::vector<bool>& targets,
                            const EdgePredicate& keep = {});

// can_reach of several target sets at once, no edge filter: result[k][v]
// says whether a state of targets[k] can be reached from v. Each sweep over
// the edges settles up to 8 sets (a byte of marks per state), where a
// can_reach per set reads every edge once per set and sweep. The targets
// are freed as they are read.
std::vector<std::vector<bool>> can_reach_each(const Digraph& g,
                                              std::vector<std::vector<bool>> targets);

// Who keeps a cycle going: the choice points on it are the states with more
// than one move; see LoopClass.
struct LoopChoice {
  LoopClass loop = LoopClass::mandatory;
  int player = -1;           // for optional_one
  std::vector<int> players;  // every player choosing on the cycle, ascending
};
LoopChoice classify_cycle(const Digraph& g, StateId entry, const std::vector<Edge>& cycle);

}  // namespace loophole::properties::detail
