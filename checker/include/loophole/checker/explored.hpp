// The result of an exhaustive explicit exploration: every reachable state (by
// number, in BFS order: state 0.. are the initial states) and every move
// between them. Properties read this graph; they never explore themselves.
// Parent links give shortest paths from an initial state, so every trace built
// from them is a shortest counterexample.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "loophole/checker/semantics.hpp"

namespace loophole::checker {

using StateId = std::uint32_t;
inline constexpr StateId no_state = ~StateId{0};

struct Edge {
  StateId to = no_state;
  std::uint32_t index = 0;  // successor index in Semantics::successors order
  bool progress = false;
  Chooser chooser = Chooser::none;
  std::int8_t chooser_player = -1;
  MoveKind kind = MoveKind::advance;
  // Under player symmetry, the player active in the successor as generated
  // from the stored (rotated) source: the rotation the move adds (0 when
  // player symmetry is off).
  std::uint8_t turn = 0;
};

struct Statistics {
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  std::uint32_t depth = 0;  // BFS levels
  double seconds = 0;
  // Peak memory: explore() gives the peak of the state store and graph;
  // `loophole check` replaces it by the resident peak of the whole check of
  // the ruleset (search and analyses; search_bytes is that of the search
  // alone), and bytes_per_state is bytes / states.
  std::uint64_t bytes = 0;
  std::uint64_t search_bytes = 0;
  double bytes_per_state = 0;
  int threads = 1;
  // How successors were computed: "compiled" (the rules compiled once into
  // flat programs), "native" (those programs as machine code), "compiled
  // (native: <why not>)", or "reference: <why the compiled generator
  // declined>".
  std::string generator = "reference";
  // "native" after a switch from the interpreter (NativeMode::automatic):
  // the first state expanded as machine code.
  std::optional<std::uint64_t> native_from;
  // Symmetry reduction: what was applied or why not ("slots of faces",
  // "off: ..."; empty when the rules have no array to sort), and with an
  // applied reduction, how many concrete states the stored ones stand for.
  std::string symmetry;
  std::vector<std::string> symmetric_arrays;
  std::uint64_t orbit_states = 0;
  // Hash compaction (ExplicitOptions::compact): states were told apart by a
  // 64-bit fingerprint, and omission_probability bounds the probability that
  // two reachable states shared one, so that a state may have been missed:
  // n (n - 1) / 2^65 for n states stored (docs/compaction.md).
  bool compact = false;
  double omission_probability = 0;
};

// The moves of an explored graph as compact arrays, read in place (by the
// analyses, which would otherwise copy every edge into 12 bytes): the edges
// of state s are begin(s)..begin(s + 1) with begin(s) = base[s >> group_shift]
// + rel[s] for s < states (and the edge count past it), or, where rel[s] is
// wide_rel (64 states with 65,535 moves or more before s), the start that
// `wide` gives for s; edge e leads to to[e], and labels[label[e]] is its move
// (kind, progress, chooser; its `to` and `index` unset: the index is e -
// begin(s)). A state's start costs 2 bytes and an eighth.
struct CompactEdges {
  static constexpr unsigned group_shift = 6;
  static constexpr std::uint16_t wide_rel = 0xFFFF;
  struct Wide {
    StateId state = 0;
    std::uint64_t begin = 0;
  };
  std::uint64_t states = 0;  // states with edge lists
  std::uint64_t edges = 0;
  const StateId* to = nullptr;
  const std::uint8_t* label = nullptr;
  const std::uint16_t* rel = nullptr;   // states + 1 entries
  const std::uint64_t* base = nullptr;  // (states >> group_shift) + 1 entries
  std::span<const Wide> wide;           // by state, ascending
  std::vector<Edge> labels;
  // The start of state s, whose rel is wide_rel.
  [[nodiscard]] static std::uint64_t wide_begin(std::span<const Wide> wide, StateId s) {
    return std::lower_bound(wide.begin(), wide.end(), s,
                            [](const Wide& w, StateId v) { return w.state < v; })
        ->begin;
  }
};

enum class Completion { complete, state_limit, memory_limit, time_limit, interrupted };

class ExploredGraph {
 public:
  virtual ~ExploredGraph() = default;
  [[nodiscard]] virtual const Semantics& semantics() const = 0;
  [[nodiscard]] virtual std::uint64_t size() const = 0;                 // number of states
  [[nodiscard]] virtual std::uint32_t initial_count() const = 0;        // states 0..n-1 are initial
  [[nodiscard]] virtual StateVec state(StateId id) const = 0;           // unpacked
  [[nodiscard]] virtual std::vector<Edge> edges(StateId id) const = 0;  // in successor order
  // The same into `out`, whose buffer is reused: for the passes over every
  // state (properties/), which would otherwise allocate twice per state.
  virtual void state_into(StateId id, StateVec& out) const { out = state(id); }
  virtual void edges_into(StateId id, std::vector<Edge>& out) const { out = edges(id); }
  // Some fields of state `id`: out[i] = state(id)[which[i]], or `absent` where
  // which[i] is not a field (negative or past the end).
  virtual void fields_into(StateId id, std::span<const int> which, std::int32_t absent,
                           std::int32_t* out) const {
    const StateVec s = state(id);
    for (std::size_t i = 0; i < which.size(); ++i) {
      const int f = which[i];
      out[i] = f >= 0 && static_cast<std::size_t>(f) < s.size() ? s[static_cast<std::size_t>(f)]
                                                                : absent;
    }
  }
  // States 0..expanded()-1 have their complete edge lists. When completion()
  // is not `complete`, the states after them were reached but not expanded:
  // their edges() are empty, which says nothing about deadlock.
  [[nodiscard]] virtual std::uint64_t expanded() const = 0;
  [[nodiscard]] virtual StateId parent(StateId id) const = 0;  // no_state for initial states
  [[nodiscard]] virtual std::uint32_t parent_index(StateId id) const = 0;  // successor index used
  // Both at once, for a trace's walk back to an initial state, which asks
  // each level once: a graph that derives parents may find this one alone
  // instead of its whole level's.
  [[nodiscard]] virtual StateId trace_parent(StateId id, std::uint32_t& index) const {
    const StateId p = parent(id);
    index = p == no_state ? 0 : parent_index(id);
    return p;
  }
  [[nodiscard]] virtual std::uint32_t depth(StateId id) const = 0;
  // Whether a state never has a smaller depth than one numbered before it
  // (a breadth-first search numbers them so): (depth, id) order is id order.
  [[nodiscard]] virtual bool numbered_by_depth() const { return false; }
  [[nodiscard]] virtual Completion completion() const = 0;
  // The edges in place, where the graph keeps them so (the explicit
  // engine's); nullopt otherwise (callers then read edges_into()).
  [[nodiscard]] virtual std::optional<CompactEdges> compact_edges() const { return {}; }
  [[nodiscard]] virtual const Statistics& statistics() const = 0;
  // Whether states are stored one per symmetry orbit (canonical forms, and
  // moves from a canonical state to the canonical form of its successor),
  // and the canonical form of a state of the semantics.
  [[nodiscard]] virtual bool reduced() const { return false; }
  virtual void canonicalise(StateVec& /*state*/) const {}

  // Shortest trace from an initial state to `id` (transcribed and replayed).
  [[nodiscard]] Trace trace_to(StateId id) const;
  // Shortest trace to `id` followed by `cycle` (a path of edges from `id` back
  // to `id`), with loop_start set.
  [[nodiscard]] Trace lasso(StateId id, const std::vector<Edge>& cycle) const;
  // Shortest trace to `id`, then the moves of `path` (edges on from `id`),
  // then those of `cycle` (from the end of path back to it), with loop_start
  // set when there is a cycle. On a reduced graph every move is made
  // concrete by its canonical form, and a cycle of canonical states is
  // followed until the concrete state repeats.
  [[nodiscard]] Trace trace_along(StateId id, const std::vector<Edge>& path,
                                  const std::vector<Edge>& cycle) const;
};

}  // namespace loophole::checker
