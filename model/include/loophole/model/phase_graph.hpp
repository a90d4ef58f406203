// The phase/step graph of a game: how control may move through one turn,
// read off the turn structure alone (no data state). It is small (one vertex
// per step) and lets problems in the turn structure be found without
// exploring a single state: steps nothing leads to, steps that never let go,
// turns that never pass on. Conditions that fold to a constant shape the
// graph (a `repeat_while` that always holds has no way onward); the rest are
// kept as guarded edges labelled with the condition as written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loophole/model/game.hpp"

namespace loophole::model {

// What a step's condition folds to, before any state is known.
enum class Guard : std::uint8_t {
  none,         // no condition written
  never,        // written, but constant false
  always,       // constant true
  conditional,  // depends on the state
};

struct PhaseVertex {
  enum class Kind : std::uint8_t { turn_start, step, turn_end };
  Kind kind = Kind::step;
  int phase = -1, step = -1;     // for Kind::step
  int window = -1;               // the step's window, or -1
  Guard repeat = Guard::none;    // the step's repeat_while
  Guard end_turn = Guard::none;  // the step's end_turn_if
};

enum class PhaseEdgeKind : std::uint8_t {
  next,         // to the following step (across phases), or from the last step to turn end
  repeat,       // a step to itself (repeat_while)
  end_turn_if,  // early exit to turn end: the phases below are skipped
  new_turn,     // turn end to turn start: the next player's turn
};

struct PhaseEdge {
  PhaseEdgeKind kind = PhaseEdgeKind::next;
  const Expr* condition = nullptr;  // the guard when the edge is conditional, else null
  std::string label;                // the guard as written ("" when unconditional)
  [[nodiscard]] bool conditional() const { return condition != nullptr; }
};

using PhaseVertexId = std::size_t;

// One edge as the graph's readers see it.
struct PhaseEdgeRef {
  PhaseVertexId from = 0, to = 0;
  const PhaseEdge* edge = nullptr;
};

// Vertex layout: turn start is 0, step s is s + 1, turn end is steps + 1.
// Edges point at the game's condition expressions: keep the Game alive. The
// graph is a Boost.Graph adjacency list inside model/ (phase_graph.cpp);
// readers see vertices and edges only.
class PhaseGraph {
 public:
  PhaseGraph();
  ~PhaseGraph();
  PhaseGraph(PhaseGraph&&) noexcept;
  PhaseGraph& operator=(PhaseGraph&&) noexcept;
  PhaseGraph(const PhaseGraph&) = delete;
  PhaseGraph& operator=(const PhaseGraph&) = delete;

  PhaseVertexId start = 0;
  PhaseVertexId end = 0;
  [[nodiscard]] static PhaseVertexId step_vertex(int step) {
    return static_cast<PhaseVertexId>(step) + 1;
  }

  [[nodiscard]] std::size_t vertex_count() const;
  [[nodiscard]] std::size_t edge_count() const;
  [[nodiscard]] const PhaseVertex& vertex(PhaseVertexId v) const;
  // In insertion order.
  [[nodiscard]] std::vector<PhaseEdgeRef> out_edges(PhaseVertexId v) const;
  // Every edge, by source vertex, then in insertion order.
  [[nodiscard]] std::vector<PhaseEdgeRef> edges() const;

  PhaseVertexId add_vertex(const PhaseVertex& v);
  void add_edge(PhaseVertexId from, PhaseVertexId to, PhaseEdge e);
  // Removes every edge from `from` to `to` (a graph some future turn rule
  // might build; the structural checks' tests make one this way).
  void remove_edges(PhaseVertexId from, PhaseVertexId to);

  // Which vertices can be reached from `from` (forward) / can reach `to`
  // (backward), indexed by vertex.
  [[nodiscard]] std::vector<bool> reachable_from(PhaseVertexId from) const;
  [[nodiscard]] std::vector<bool> reaching(PhaseVertexId to) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

PhaseGraph build_phase_graph(const Game& game);

// What a condition folds to: `always`/`never` when it is constant
// (model::fold_constant), else `conditional`; `none` for a null expression.
Guard fold_guard(const Expr* condition);

struct DotOptions {
  // Ids for the two turn vertices, usable in both lists below.
  static constexpr int turn_start = -1;
  static constexpr int turn_end = -2;
  // A trace's path, drawn bold red: steps (global ids) and (from, to) pairs,
  // every edge between the two being drawn. A move into a new turn is the
  // three pairs (s, turn_end), (turn_end, turn_start), (turn_start, t).
  // Ids that name no vertex or edge are ignored.
  std::vector<int> highlight_steps;
  std::vector<std::pair<int, int>> highlight_edges;
  // Move numbers of the trace (1 = its first move), as the transcripts
  // number them: on the highlighted edges the moves take ("moves 2, 5-7"),
  // keyed like highlight_edges, and on the steps moves are made at without
  // leaving them. reports::trace_dot_options fills all of these from a
  // finding.
  std::map<std::pair<int, int>, std::vector<std::size_t>> edge_moves;
  std::map<int, std::vector<std::size_t>> step_moves;
  // The step where the finding happens: filled, with "finding here".
  std::optional<int> marked_step;
  // Each step with its `do`, the actions of its window and the triggers of
  // its events, and a note with the end conditions (checked after every
  // move, so they belong to no one step).
  bool detail = false;
};

// Deterministic DOT: one cluster per phase, steps in order, edges in vertex
// and insertion order. Equal inputs give byte-equal output (golden-tested).
// Steps with a window are 3-D boxes, guarded edges dashed and labelled with
// the condition as written, steps unreachable from turn start grey.
std::string to_dot(const Game& game, const PhaseGraph& g, const DotOptions& options);

}  // namespace loophole::model
