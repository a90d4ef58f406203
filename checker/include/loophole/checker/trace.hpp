// A trace is a replayable path through the transition system: the moves in
// order, each with the control point it was taken at and the data it changed.
// Engines produce traces; before a trace is reported it is replayed on the
// reference semantics (checker/semantics), so a trace that does not replay is
// an internal error and never reaches a user.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace loophole::checker {

enum class MoveKind : std::uint8_t {
  start,    // enter the first step of the game (after setup)
  advance,  // leave the current step; enter the next (progress when it enters)
  enter,    // enter the step chosen when leaving, once end-event triggers resolved (progress)
  effects,  // run a step's `do` once begin-event triggers resolved
  action,   // a player takes an action in a window
  pass,     // a player passes
  resolve,  // the top of the stack resolves (after all passed)
  trigger,  // a pending trigger resolves
  decline,  // an optional pending trigger is declined
};

struct Change {
  int slot = -1;     // data slot (model::Game::slots), or -1 for a control change
  std::string what;  // "hand[P1].spark", or "stack", "priority"
  std::int32_t before = 0, after = 0;
};

struct Choice {  // a choice made inside the move's effects
  enum class By : std::uint8_t { nature, player } by = By::nature;
  int player = -1;   // when by == player
  std::string text;  // "drew spark ×2, wall ×1", "chose P2", "picked 1"
};

struct TraceStep {
  MoveKind kind = MoveKind::advance;
  int player = -1;  // who made the move (-1: nobody/automatic)
  int ref = -1;     // action or trigger id, when relevant
  int turn = 1;     // turn number (saturated) before the move
  int active = 0;   // active player before the move
  int step = -1;    // control step (global id) before the move
  bool progress = false;
  std::vector<Choice> choices;
  std::vector<Change> changes;  // data and control changes, in slot order
  std::string text;             // one-line description ("P2 answers with 'Mirror Ward' (speed 3)")
  std::uint32_t successor = 0;  // index among the state's successors (for exact replay)
};

struct Trace {
  std::vector<TraceStep> steps;  // from an initial state
  std::uint32_t initial = 0;     // index of the initial state (setup may branch)
  std::string start;             // that state, the deal after setup (Semantics::describe_state)
  int loop_start = -1;           // >= 0: steps[loop_start..] form a cycle back to the state
                                 // reached after steps[loop_start - 1] (a lasso)
  [[nodiscard]] std::size_t size() const { return steps.size(); }
};

}  // namespace loophole::checker
