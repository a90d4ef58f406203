// The reference semantics of a Game: the one definition of what a state is and
// which moves it has. A state is a flat vector of bounded integers: the data
// slots of the Game first (same indices as model::Game::slots), then the
// control fields (active player, turn, step, stage, window, stack, pending
// triggers, action uses, game over). Every engine agrees with this class; the
// explicit engine packs these vectors, the SMT engine encodes the same fields,
// and every reported trace is replayed here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loophole/checker/trace.hpp"
#include "loophole/model/game.hpp"

namespace loophole::checker {

using StateVec = std::vector<std::int32_t>;

struct Field {
  std::string name;  // "hand[P1].spark", "ctl.active", "ctl.stack[0].action"
  std::int32_t lo = 0, hi = 0;
};

struct Layout {
  std::vector<Field> fields;  // data slots first, then control
  std::size_t data_fields = 0;
  // Indices of the control fields every analysis needs.
  int over = -1;  // 0 running, 1 game over, 2 rule gap
  int gap = -1;   // which rule gap (index into Semantics::gaps()), 0 when none... see gaps()
  int active = -1;
  int turn = -1;           // turn_number, 1..scope.turns
  int step = -1;           // global step id
  int stage = -1;          // Stage below
  int window_holder = -1;  // player to move in an open window (0 when closed)
  int stack_size = -1;
};

enum class Stage : std::int32_t { start = 0, pre = 1, window = 2, post = 3, leaving = 4 };

// Who chose a successor among its siblings: nobody (the only move), a player,
// or nature.
enum class Chooser : std::uint8_t { none, player, nature };

struct Successor {
  StateVec state;
  MoveKind kind = MoveKind::advance;
  int player = -1;  // the mover (window holder, trigger controller), -1 automatic
  int ref = -1;     // action / trigger id
  Chooser chooser = Chooser::none;
  int chooser_player = -1;
  bool progress = false;        // the move entered a step
  std::vector<Choice> choices;  // choices made inside effects (filled only when asked)
  // What the effects did, in order (filled only when asked): "P1 draws 2",
  // "'spark' is negated", "P1 wins", "'decked': P2 loses", "rule gap: ...".
  std::vector<std::string> notes;
  // When the move ended the game (filled only when asked): the player a
  // `win`/`lose` effect or the deciding end condition named, whether it is a
  // win, and that end condition (-1: an effect).
  int end_player = -1;
  bool end_win = false;
  int end_condition = -1;
};

// Who the moves into one game-over state named, gathered move by move
// (recorded Successors: end_player, end_win): bit p of `loses`/`wins`. A
// `win` names its player the winner and every other the loser; a `lose`
// names its player the loser and, with two players, the other the winner.
// `conditions`: some move ended the game by an end condition, so the end
// conditions holding in the state name outcomes too (the analyses read
// them: properties::state_outcome); also when no recorded move leads in.
struct Ending {
  std::uint32_t loses = 0, wins = 0;
  bool conditions = false;
  void add(const Successor& move, int players) {
    if (move.end_condition >= 0 || move.end_player < 0) {
      conditions = true;
      return;
    }
    const std::uint32_t named = 1U << static_cast<unsigned>(move.end_player);
    const std::uint32_t all = (1U << static_cast<unsigned>(players)) - 1U;
    if (move.end_win) {
      wins |= named;
      loses |= all & ~named;
    } else {
      loses |= named;
      if (players == 2) wins |= all & ~named;
    }
  }
};

// A place in the rules where an effect can leave the rules' bounds.
struct GapSite {
  std::string rule;         // "step:start.draw", "action:spark", "trigger:x", "setup"
  model::SourceSpan where;  // the statement
  std::string message;      // "draw from an empty deck: deck[P1] holds 0, 2 needed"
  // overflow: a value of + - * / % abs, unary minus or a sum's running total
  // leaves 64 bits ("integer overflow in 'big * 4'").
  enum class Kind : std::uint8_t {
    range,
    empty_zone,
    div_zero,
    index,
    stack_overflow,
    overflow
  } kind;
};

class Semantics {
 public:
  explicit Semantics(const model::Game& game);
  ~Semantics();
  Semantics(const Semantics&) = delete;
  Semantics& operator=(const Semantics&) = delete;

  [[nodiscard]] const model::Game& game() const { return game_; }
  [[nodiscard]] const Layout& layout() const;

  // Initial states after `setup` (one per outcome of its choices), in a
  // canonical order; each is already end-checked.
  [[nodiscard]] std::vector<StateVec> initial_states() const;

  // All successors of `s` in a canonical order (a pure function of `s`; safe to
  // call from several threads at once). Duplicate successor states from
  // different choices are kept (they are distinct moves). With
  // `with_choices`, Successor::choices is filled (for transcripts).
  void successors(const StateVec& s, std::vector<Successor>& out, bool with_choices = false) const;

  [[nodiscard]] bool is_final(const StateVec& s) const;  // game over or rule gap

  // Rule gaps: a gap state has over == 2 and layout().gap = 1 + index into gaps().
  [[nodiscard]] const std::vector<GapSite>& gaps() const;

  // Evaluates a checked boolean expression (a property, an end condition) in s.
  // `self` is the player bound to `self` (-1 when none).
  [[nodiscard]] bool holds(const model::Expr& e, const StateVec& s, int self = -1) const;
  // The oracle's value of any checked expression of the game in s, with the
  // bound variables' values in `binders` (Game::binder_slots of them; a
  // quantifier overwrites its own), and its first failure: the gap site, or
  // lowered::no_site outside the rules, -1 when none (then the value is 0).
  // For the lowering's differential test (tests/checker/lowered_test.cpp).
  struct Value {
    std::int64_t value = 0;
    int error = -1;
  };
  [[nodiscard]] Value evaluate(const model::Expr& e, const StateVec& s, int self,
                               std::vector<std::int64_t>& binders) const;
  // The oracle's outcomes of one effect (a statement of the game) run in s
  // for `self`, in canonical order, without the move around it and without
  // the end check: a gap outcome is s marked with the gap (over 2), a
  // win/lose is the game over (over 1). For the same test.
  [[nodiscard]] std::vector<StateVec> effect_outcomes(const model::Stmt& effect, const StateVec& s,
                                                      int self) const;

  // Which end conditions hold in s, as (condition id, player) pairs, whether or
  // not the state is already over (for unreachable-win analysis).
  void end_conditions_holding(const StateVec& s, std::vector<std::pair<int, int>>& out) const;

  // For dead-rule analysis: the actions enabled for the window holder in s.
  void enabled_actions(const StateVec& s, std::vector<int>& out) const;

  // The data of `s` as a designer reads it: each zone's cards by kind, then
  // every variable ("deck[P1]: 'shock' ×2, 'land'; hand[P1]: empty; life[P1] 20").
  [[nodiscard]] std::string describe_state(const StateVec& s) const;
  // A trace of no moves from the initial state `root`, its start described;
  // nullopt when `root` is not an initial state. Every engine's traces begin here.
  [[nodiscard]] std::optional<Trace> begin_trace(const StateVec& root) const;

  // Transcript of one move: text and the changes from `before` to succ.state.
  [[nodiscard]] TraceStep describe(const StateVec& before, const Successor& succ,
                                   std::uint32_t index) const;
  // A one-line summary of the control point: "T1 P1 research · draw".
  [[nodiscard]] std::string where(const StateVec& s) const;

  // Replays `t` from its initial state, following successor indices and
  // checking each move's kind, player and ref. Returns the final state, or an
  // error message describing the first mismatch.
  struct Replay {
    bool ok = false;
    std::string error;
    std::vector<StateVec> states;  // states[0] initial, states[i+1] after steps[i]
  };
  [[nodiscard]] Replay replay(const Trace& t) const;

 private:
  const model::Game& game_;
  struct Impl;
  Impl* impl_;
};

}  // namespace loophole::checker
