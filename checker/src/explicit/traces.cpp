// Traces out of an explored graph. A path is rebuilt from parent links (so it
// is a shortest one), every move is transcribed by Semantics::describe on the
// successor the graph recorded, and the whole trace is replayed on Semantics
// before it is returned: a trace that does not replay, or replays to another
// state than the graph holds, is an internal error and never reaches a user.
#include <algorithm>
#include <stdexcept>
#include <string>

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

// The shortest path to `id` as (state, successor index used to reach it).
Trace path_to(const ExploredGraph& g, StateId id, std::vector<Successor>& scratch) {
  const Semantics& sem = g.semantics();
  std::vector<StateId> path;
  for (StateId s = id; s != no_state; s = g.parent(s)) path.push_back(s);
  std::reverse(path.begin(), path.end());

  const StateVec root = g.state(path.front());
  std::optional<Trace> begun = sem.begin_trace(root);
  if (!begun) fail("state " + std::to_string(path.front()) + " is not initial");
  Trace trace = std::move(*begun);

  StateVec before = root;
  for (std::size_t i = 1; i < path.size(); ++i) {
    StateVec after = g.state(path[i]);
    append_move(sem, before, g.parent_index(path[i]), &after, scratch, trace);
    before = std::move(after);
  }
  return trace;
}

}  // namespace

Trace ExploredGraph::trace_to(StateId id) const {
  std::vector<Successor> scratch;
  Trace trace = path_to(*this, id, scratch);
  check_replay(semantics(), trace, state(id));
  return trace;
}

Trace ExploredGraph::lasso(StateId id, const std::vector<Edge>& cycle) const {
  if (cycle.empty()) fail("empty cycle");
  std::vector<Successor> scratch;
  Trace trace = path_to(*this, id, scratch);
  trace.loop_start = static_cast<int>(trace.steps.size());
  const StateVec target = state(id);
  StateVec before = target;
  for (const Edge& e : cycle) {
    StateVec after = state(e.to);
    append_move(semantics(), before, e.index, &after, scratch, trace);
    before = std::move(after);
  }
  if (cycle.back().to != id) fail("cycle does not return to state " + std::to_string(id));
  check_replay(semantics(), trace, target);
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
