// Traces out of an explored graph. A path is rebuilt from parent links (so it
// is a shortest one), every move is transcribed by Semantics::describe on the
// successor the graph recorded, and the whole trace is replayed on Semantics
// before it is returned: a trace that does not replay, or replays to another
// state than the graph holds, is an internal error and never reaches a user.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "loophole/checker/explored.hpp"
#include "loophole/checker/generator.hpp"

namespace loophole::checker {

namespace {

[[noreturn]] void fail(const std::string& why) {
  throw std::logic_error("loophole: internal error: trace does not replay: " + why);
}

// Appends the transcription of the move `index` from `before`, checking it
// leads to `expected` (when given).
void append_move(const Semantics& sem, const StateVec& before, std::uint32_t index,
                 const StateVec* expected, std::vector<Successor>& scratch, Trace& trace) {
  sem.successors(before, scratch, true);
  if (index >= scratch.size()) {
    fail("successor " + std::to_string(index) + " of a state with " +
         std::to_string(scratch.size()) + " successors");
  }
  const Successor& succ = scratch[index];
  if (expected != nullptr && succ.state != *expected) {
    fail("successor " + std::to_string(index) + " is not the explored state (at " +
         sem.where(before) + ")");
  }
  TraceStep step = sem.describe(before, succ, index);
  step.successor = index;
  trace.steps.push_back(std::move(step));
}

void check_replay(const Semantics& sem, const Trace& trace, const StateVec& last) {
  const Semantics::Replay r = sem.replay(trace);
  if (!r.ok) fail(r.error);
  if (r.states.empty() || r.states.back() != last) fail("replay ends in another state");
}

// From concrete `before`, the successor whose canonical form is the
// graph's state `target` (canonical): `hint` (the edge's index on the
// canonical state) when it fits, else the first that does. Appends its
// transcription and moves `before` to it.
void append_concrete(const ExploredGraph& g, StateVec& before, std::uint32_t hint,
                     const StateVec& target, std::vector<Successor>& scratch, Trace& trace) {
  if (!g.reduced()) {
    append_move(g.semantics(), before, hint, &target, scratch, trace);
    before = target;
    return;
  }
  const Semantics& sem = g.semantics();
  sem.successors(before, scratch, true);
  const auto fits = [&](std::size_t i) {
    StateVec c = scratch[i].state;
    g.canonicalise(c);
    return c == target;
  };
  std::size_t index = hint;
  if (index >= scratch.size() || !fits(index)) {
    index = 0;
    while (index < scratch.size() && !fits(index)) ++index;
    if (index == scratch.size()) {
      fail("no successor has the explored canonical form (at " + sem.where(before) + ")");
    }
  }
  TraceStep step = sem.describe(before, scratch[index], static_cast<std::uint32_t>(index));
  step.successor = static_cast<std::uint32_t>(index);
  trace.steps.push_back(std::move(step));
  StateVec next = std::move(scratch[index].state);
  before = std::move(next);
}

// The shortest path to `id` as (state, successor index used to reach it);
// `last` gets the concrete state it ends in (state(id) up to symmetry).
Trace path_to(const ExploredGraph& g, StateId id, std::vector<Successor>& scratch, StateVec& last) {
  const Semantics& sem = g.semantics();
  // (state, successor index used to reach it), walked back level by level.
  std::vector<std::pair<StateId, std::uint32_t>> path;
  for (StateId s = id; s != no_state;) {
    std::uint32_t index = 0;
    const StateId p = g.trace_parent(s, index);
    path.emplace_back(s, index);
    s = p;
  }
  std::reverse(path.begin(), path.end());

  StateVec root = g.state(path.front().first);
  if (g.reduced()) {  // the concrete initial state of that canonical form
    for (StateVec s : sem.initial_states()) {
      StateVec c = s;
      g.canonicalise(c);
      if (c == root) {
        root = std::move(s);
        break;
      }
    }
  }
  std::optional<Trace> begun = sem.begin_trace(root);
  if (!begun) fail("state " + std::to_string(path.front().first) + " is not initial");
  Trace trace = std::move(*begun);

  last = root;
  for (std::size_t i = 1; i < path.size(); ++i) {
    append_concrete(g, last, path[i].second, g.state(path[i].first), scratch, trace);
  }
  return trace;
}

}  // namespace

Trace ExploredGraph::trace_to(StateId id) const {
  std::vector<Successor> scratch;
  StateVec last;
  Trace trace = path_to(*this, id, scratch, last);
  check_replay(semantics(), trace, last);
  return trace;
}

Trace ExploredGraph::lasso(StateId id, const std::vector<Edge>& cycle) const {
  if (cycle.empty()) fail("empty cycle");
  if (cycle.back().to != id) fail("cycle does not return to state " + std::to_string(id));
  return trace_along(id, {}, cycle);
}

Trace ExploredGraph::trace_along(StateId id, const std::vector<Edge>& path,
                                 const std::vector<Edge>& cycle) const {
  std::vector<Successor> scratch;
  StateVec before;
  Trace trace = path_to(*this, id, scratch, before);
  for (const Edge& e : path) append_concrete(*this, before, e.index, state(e.to), scratch, trace);
  if (!cycle.empty()) {
    // A cycle of canonical states leads from a concrete state to one of its
    // permutations: follow it again until a concrete state repeats at its
    // start (once, without symmetry), and let the loop begin there.
    std::vector<StateVec> starts;
    std::vector<int> start_steps;
    for (;;) {
      const auto seen = std::find(starts.begin(), starts.end(), before);
      if (seen != starts.end()) {
        trace.loop_start = start_steps[static_cast<std::size_t>(seen - starts.begin())];
        break;
      }
      starts.push_back(before);
      start_steps.push_back(static_cast<int>(trace.steps.size()));
      for (const Edge& e : cycle) {
        append_concrete(*this, before, e.index, state(e.to), scratch, trace);
      }
    }
  }
  check_replay(semantics(), trace, before);
  return trace;
}

Trace trace_of_moves(const Semantics& sem, std::uint32_t initial,
                     std::span<const std::uint32_t> moves, const StateVec& last) {
  const std::vector<StateVec> roots = sem.initial_states();
  if (initial >= roots.size()) fail("no initial state " + std::to_string(initial));
  std::optional<Trace> begun = sem.begin_trace(roots[initial]);
  if (!begun) fail("initial state " + std::to_string(initial) + " is not initial");
  Trace trace = std::move(*begun);
  std::vector<Successor> scratch;
  StateVec before = roots[initial];
  for (const std::uint32_t index : moves) {
    append_move(sem, before, index, nullptr, scratch, trace);
    before = scratch[index].state;
  }
  if (before != last) fail("the moves do not lead to the playout's last state");
  check_replay(sem, trace, last);
  return trace;
}

}  // namespace loophole::checker
