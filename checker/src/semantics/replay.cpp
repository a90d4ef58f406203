// Replay: the independent confirmation of every trace an engine reports.
// Starting from the trace's initial state, each step names a successor by
// index; the move found there must be the one the trace claims (same kind,
// player and rule), and a lasso must close on the state it claims to loop
// back to. The first disagreement is described with the control point.
#include "impl.hpp"

namespace loophole::checker {

namespace {

const char* kind_name(MoveKind k) {
  switch (k) {
    case MoveKind::start:
      return "start";
    case MoveKind::advance:
      return "advance";
    case MoveKind::enter:
      return "enter";
    case MoveKind::effects:
      return "effects";
    case MoveKind::action:
      return "action";
    case MoveKind::pass:
      return "pass";
    case MoveKind::resolve:
      return "resolve";
    case MoveKind::trigger:
      return "trigger";
    case MoveKind::decline:
      return "decline";
  }
  return "?";
}

std::string move_name(const model::Game& game, MoveKind kind, int player, int ref) {
  std::string s = kind_name(kind);
  if (ref >= 0) {
    if ((kind == MoveKind::action || kind == MoveKind::resolve) &&
        ref < static_cast<int>(game.actions.size())) {
      s += " '" + game.actions[ref].name + "'";
    } else if ((kind == MoveKind::trigger || kind == MoveKind::decline) &&
               ref < static_cast<int>(game.triggers.size())) {
      s += " '" + game.triggers[ref].name + "'";
    }
  }
  if (player >= 0) s += " by P" + std::to_string(player + 1);
  return s;
}

}  // namespace

Semantics::Replay Semantics::replay(const Trace& t) const {
  Replay r;
  const std::vector<StateVec> initial = initial_states();
  if (t.initial >= initial.size()) {
    r.error = "initial state " + std::to_string(t.initial) + " does not exist (setup has " +
              std::to_string(initial.size()) + " outcomes)";
    return r;
  }
  r.states.push_back(initial[t.initial]);
  std::vector<Successor> succ;
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const TraceStep& step = t.steps[i];
    const StateVec& s = r.states.back();
    const std::string at = "move " + std::to_string(i + 1) + " (" + where(s) + ")";
    successors(s, succ);
    if (step.successor >= succ.size()) {
      r.error = at + ": successor " + std::to_string(step.successor) + " does not exist (" +
                std::to_string(succ.size()) + " moves)";
      return r;
    }
    const Successor& m = succ[step.successor];
    if (m.kind != step.kind || m.player != step.player || m.ref != step.ref) {
      r.error = at + ": expected " + move_name(game_, step.kind, step.player, step.ref) +
                ", found " + move_name(game_, m.kind, m.player, m.ref);
      return r;
    }
    r.states.push_back(m.state);
  }
  if (t.loop_start >= 0) {
    if (static_cast<std::size_t>(t.loop_start) >= r.states.size() - 1) {
      r.error = "loop start " + std::to_string(t.loop_start) + " is past the last move";
      return r;
    }
    if (r.states.back() != r.states[t.loop_start]) {
      r.error = "the cycle from move " + std::to_string(t.loop_start + 1) +
                " does not return to the state it started from";
      return r;
    }
  }
  r.ok = true;
  return r;
}

}  // namespace loophole::checker
