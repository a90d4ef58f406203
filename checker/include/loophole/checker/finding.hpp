// The finding value type: what the engines and the analyses answer and the
// reports read. A Finding is a value: the kind of problem, where in the
// ruleset it is, a message for a designer (worded by questions.hpp), and
// for every violation a trace that has been replayed on the semantics. It
// lives in the semantics layer so that every engine (explicit, smt) and
// properties/ can read it without depending on each other; properties/
// re-exports it as properties::Finding (properties/finding.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loophole/checker/trace.hpp"
#include "loophole/model/source.hpp"

namespace loophole::checker {

enum class Kind : std::uint8_t {
  deadlock,
  response_loop,
  unbounded_chain,
  stalemate,
  unreachable_win,
  rule_gap,
  dead_rule,
  property_violation,
  structure,    // phase/step graph problems found without exploring
  tie,          // several end conditions hold at once and name no single winner
  turn_loop,    // a cycle that re-enters steps without the turn moving on
  cannot_lose,  // from a reachable state a player can neither lose nor win any more
  cannot_end,   // from a reachable state no end condition can hold; only a rule gap stops it
  stall,        // a loop one player keeps going because every way out of it loses
};

enum class Severity : std::uint8_t { note, warning, error };
enum class Verdict : std::uint8_t { holds, violated, unknown };

// How a response loop is classified (as the MTG comprehensive rules do).
enum class LoopClass : std::uint8_t {
  none,
  mandatory,        // no choice on the cycle: the game hangs
  optional_one,     // one player can repeat it forever (an infinite combo)
  several_players,  // needs the choices of several players
  chance,           // needs nature's choices to keep repeating
};

struct Finding {
  Kind kind = Kind::structure;
  Severity severity = Severity::error;
  Verdict verdict = Verdict::violated;
  LoopClass loop = LoopClass::none;
  int loop_player = -1;  // for optional_one: the controlling player
  // For a loop: the smallest coalitions of players (bit p for player p) that
  // can force the play to stay in it forever whatever the others and nature
  // choose ({0}: nobody can leave it; empty: no coalition can keep it);
  // unset where it was not computed.
  std::optional<std::vector<std::uint32_t>> forced_by;
  std::string rule;                     // stable id of the rule it is about: "action:mirror_ward",
                                        // "step:start.draw", "end:decked/P2", "property:hand_limit"
  model::SourceSpan where;              // the rule it is about
  std::string message;                  // one line, lowercase start, names quoted
  std::vector<std::string> details;     // further lines for a designer
  std::optional<checker::Trace> trace;  // every violated finding from search has one
  std::string engine;                   // "explicit", "smt", "structure"
  // The finding this one follows from, when it is a consequence (a loop that
  // only adds a card to a smaller loop, everything a rule gap in setup makes
  // unreachable): what identifies the cause, as an analysis sets it; then
  // check.cpp makes it a note and names the cause's stable id in caused_by.
  struct Cause {
    Kind kind = Kind::structure;
    std::string rule;
    int loop_player = -1;  // matched too when set
  };
  std::optional<Cause> cause;
  std::string caused_by;  // "stall/action:research#2"; empty when it stands alone
  // The rules marked `invented:` (card texts the ruleset made up) that the
  // finding is about, that its shortest trace uses, or that its cause does:
  // "action:speed1_action", "trigger:after_action_triggers"; in that order
  // (about, trace, cause), each part by id.
  std::vector<std::string> invented;
};

std::string_view to_string(Kind k);      // "deadlock", "response-loop", ...
std::string_view to_string(Severity s);  // "error", ...
std::string_view to_string(Verdict v);
std::string_view to_string(LoopClass c);  // "mandatory", "optional", ...

}  // namespace loophole::checker
