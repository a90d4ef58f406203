// The questions loophole asks of a game's state graph, worded once for every
// engine that answers them (the explicit analyses in properties/ and the SMT
// engine in checker/smt): the rule a finding is about, where it points and
// its message. An engine decides whether the answer is violated, holds or
// unknown, and what trace shows it; the words are these, so the engines'
// findings about one problem read the same (tests/smt/agreement_test.cpp).
#pragma once

#include <string>
#include <string_view>

#include "loophole/model/game.hpp"

namespace loophole::checker::question {

// "P2" for player 1 (0-based).
[[nodiscard]] std::string player(int p);
// An action as findings name it: "'strike' (speed 1)", or "'strike'" when
// it has no speed.
[[nodiscard]] std::string action_label(const model::Action& a);

// A deadlock at a control point: a reachable state that is not over and has
// no move, at `step` (an index into Game::steps), `in_window` when the step
// is in its window stage, `holder` the seat to act there.
[[nodiscard]] std::string deadlock_rule(const model::Game& game, int step);  // "step:combat.fight"
[[nodiscard]] model::SourceSpan deadlock_where(const model::Game& game, int step, bool in_window);
// "in 'combat · fight', P1 holds priority and can neither act nor pass", or
// "in 'combat · fight', no move is possible".
[[nodiscard]] std::string deadlock_message(const model::Game& game, int step, bool in_window,
                                           int holder);
// How deadlocks group: one finding per control point, that is the step,
// its stage, and in a window the seat of the player holding priority
// counted from the active player (the first state found of each is
// reported). `holder` -1 (not in a window): -1.
[[nodiscard]] int deadlock_seat(int holder, int active, int players);

// The designer's properties (always, never, reachable).
[[nodiscard]] std::string property_rule(const model::Property& p);  // "property:NAME"
// always/never violated in a state at `step`: "'NAME' does not always hold:
// it fails in 'STEP'", "'NAME' should never hold, but it does in 'STEP'".
[[nodiscard]] std::string property_fails(const model::Game& game, const model::Property& p,
                                         int step);
// reachable, found at `step`: "'NAME' is reachable in 'STEP'".
[[nodiscard]] std::string property_reached(const model::Game& game, const model::Property& p,
                                           int step);
[[nodiscard]] std::string property_never_reached(
    const model::Property& p);                                       // "'NAME' is never reached"
[[nodiscard]] std::string property_holds(const model::Property& p);  // "'NAME' holds"
// always/never with no violation where the engine looked, which was not
// everywhere (unknown): "'NAME' was not violated in the states explored"
// (`within` "in the states explored"), "... within depth 3".
[[nodiscard]] std::string property_not_violated(const model::Property& p, std::string_view within);

// An end condition no reachable state satisfies for `player`.
[[nodiscard]] std::string end_rule(const model::EndCondition& end, int player);  // "end:NAME/P2"
// Whether the question is asked of `end` for `player` at all: an end that
// names its one player (`win: P1`: EndCondition::player) is no question for
// another. Every engine asks the pairs this admits.
[[nodiscard]] bool end_asked(const model::EndCondition& end, int player);
// "P2 can never win by 'NAME'" ("lose" for a loss condition).
[[nodiscard]] std::string end_never_message(const model::EndCondition& end, int player);
// The detail under it: how the engine knows. Settled (every reachable state
// was covered, or it is proved): "its condition holds for P2 in no
// reachable state; WHY" (`why`: "all 23 reachable states searched", "every
// reachable state lies within 7 moves", "proved by k-induction (k = 2)");
// else "its condition holds for P2 in none of the states searched; WHY"
// (why the search did not cover them all).
[[nodiscard]] std::string end_never_detail(int player, bool settled, std::string_view why);

// An action that the player to move can take in no reachable window:
// "'strike' (speed 1) can never be taken" (an engine adds why after it).
[[nodiscard]] std::string action_never_taken(const model::Action& a);

}  // namespace loophole::checker::question
