// Structural checks on the phase/step graph: each test loads a tiny inline
// ruleset and expects the exact list of findings (severity, rule, line:col,
// message, details), or none.
#include "loophole/properties/structural.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/model/diagnostics.hpp"

namespace loophole::properties {
namespace {

std::optional<model::Game> load(const std::string& yaml) {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  sources.add("t.yaml", yaml);
  auto game = model::load_game("t.yaml", {}, sources, sink);
  EXPECT_TRUE(game.has_value()) << sink.render(sources);
  return game;
}

// A finding reduced to what these tests compare, printable on failure.
struct Brief {
  Severity severity;
  std::string rule;
  std::string at;  // "line:col"
  std::string message;
  std::vector<std::string> details;
  friend bool operator==(const Brief&, const Brief&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Brief& b) {
    os << b.at << ": " << to_string(b.severity) << ": [" << b.rule << "] " << b.message;
    for (const auto& d : b.details) os << "\n    " << d;
    return os;
  }
};
using Briefs = std::vector<Brief>;

Briefs brief(const std::vector<Finding>& findings) {
  Briefs out;
  for (const Finding& f : findings) {
    EXPECT_EQ(Kind::structure, f.kind);
    EXPECT_EQ(Verdict::violated, f.verdict);
    EXPECT_EQ(LoopClass::none, f.loop);
    EXPECT_EQ("structure", f.engine);
    EXPECT_FALSE(f.trace.has_value());
    EXPECT_EQ("t.yaml", f.where.file);
    out.push_back({f.severity, f.rule,
                   std::to_string(f.where.line) + ":" + std::to_string(f.where.col), f.message,
                   f.details});
  }
  return out;
}

Briefs check(const std::string& yaml) {
  const auto game = load(yaml);
  if (!game) return {{Severity::note, "", "", "ruleset did not load", {}}};
  return brief(check_structure(*game, model::build_phase_graph(*game)));
}

constexpr Severity error = Severity::error;
constexpr Severity warning = Severity::warning;

// --- steps and turns --------------------------------------------------------

TEST(Structure, WellFormedTurnHasNoFindings) {
  EXPECT_EQ(Briefs{}, check(R"(loophole: 1
game: fine
speeds: [1, 2, 3]
state:
  threat: {type: int, range: [0, 3], init: 0}
windows:
  primary:
    protocol: priority
    active: {lead: [1, 2, 3], answer: [3]}
    opponent: {lead: [2, 3], answer: [2, 3], lead_if: active_idle}
actions:
  - name: spark
    who: any
    speed: 1
turn:
  phases:
    - name: start
      steps:
        - name: draw
    - name: main
      steps:
        - name: play
          window: primary
          repeat_while: "threat > 0"
        - name: exit
          end_turn_if: "turn_number == 1"
    - name: end
      steps:
        - name: cleanup
          repeat_while: "false"
)"));
}

TEST(Structure, StepsBelowAnAlwaysTrueEndTurnAreUnreachable) {
  const std::string why =
      "step 'recon.exit' always ends the turn: its end_turn_if 'deck > 2' always holds";
  EXPECT_EQ((Briefs{
                {error,
                 "step:protect.main",
                 "14:18",
                 "step 'protect.main' is unreachable from the start of the turn",
                 {why}},
                {error,
                 "step:protect.cleanup",
                 "15:18",
                 "step 'protect.cleanup' is unreachable from the start of the turn",
                 {why}},
            }),
            check(R"(loophole: 1
game: early exit
params:
  deck: 4
turn:
  phases:
    - name: recon
      steps:
        - name: play
        - name: exit
          end_turn_if: "deck > 2"
    - name: protect
      steps:
        - {name: main}
        - {name: cleanup}
)"));
}

TEST(Structure, AlwaysTrueRepeatHasNoWayOnwardAndTheTurnNeverEnds) {
  const std::string why =
      "step 'protect.main' repeats forever: its repeat_while 'true or turn_number == 2' always "
      "holds";
  EXPECT_EQ((Briefs{
                {error,
                 "turn",
                 "3:1",
                 "the turn never passes to the next player: its end is unreachable from its start",
                 {why}},
                {error,
                 "step:protect.main",
                 "7:17",
                 "step 'protect.main' has no way onward: its repeat_while 'true or turn_number "
                 "== 2' always holds",
                 {"the turn can never get past it"}},
                {error,
                 "step:protect.cleanup",
                 "10:17",
                 "step 'protect.cleanup' is unreachable from the start of the turn",
                 {why}},
            }),
            check(R"(loophole: 1
game: forever
turn:
  phases:
    - name: protect
      steps:
        - name: main
          repeat_while: "true or turn_number == 2"
          end_turn_if: "turn_number == 1"
        - name: cleanup
)"));
}

TEST(Structure, StateDependentRepeatAndExitAreFine) {
  EXPECT_EQ(Briefs{}, check(R"(loophole: 1
game: guarded
turn:
  phases:
    - name: a
      steps:
        - name: loop
          repeat_while: "turn_number == 1"
          end_turn_if: "turn_number == 2"
        - name: last
          end_turn_if: "true"
)"));
}

TEST(Structure, ATurnWhoseEndLeadsNowhereNeverPasses) {
  // The builder always links turn end to turn start; a graph without that
  // edge (as a future turn rule might produce) is caught all the same.
  const auto game = load(
      "loophole: 1\ngame: t\nturn:\n  phases:\n    - name: main\n"
      "      steps:\n        - name: only\n");
  ASSERT_TRUE(game.has_value());
  model::PhaseGraph graph = model::build_phase_graph(*game);
  graph.remove_edges(graph.end, graph.start);
  EXPECT_EQ((Briefs{{error,
                     "turn",
                     "3:1",
                     "the turn never passes to the next player: nothing leads from its end to the "
                     "next player's turn",
                     {}}}),
            brief(check_structure(*game, graph)));
}

// --- windows ----------------------------------------------------------------

const std::string turn_with_windows = R"(
turn:
  phases:
    - name: main
      steps:
        - {name: a, window: w}
)";

TEST(Structure, WindowNoActionCanBeUsedIn) {
  EXPECT_EQ((Briefs{{warning,
                     "window:combat",
                     "4:3",
                     "no role may ever act in window 'combat': no action can be used in it",
                     {}}}),
            check(R"(loophole: 1
game: t
windows:
  combat: {protocol: alternate}
  other: {protocol: alternate}
actions:
  - {name: strike, who: any, in: [other]}
turn:
  phases:
    - name: fight
      steps:
        - {name: main, window: combat}
        - {name: more, window: other}
)"));
}

TEST(Structure, ActionsForEveryWindowCountForEachWindow) {
  EXPECT_EQ(Briefs{}, check(R"(loophole: 1
game: t
windows:
  combat: {protocol: alternate}
  strategy: {protocol: sequence, order: [active, opponent]}
actions:
  - {name: strike, who: any}
turn:
  phases:
    - name: fight
      steps:
        - {name: main, window: combat}
        - {name: plan, window: strategy}
)"));
}

TEST(Structure, PriorityWindowWithoutRoles) {
  EXPECT_EQ((Briefs{{warning,
                     "window:w",
                     "4:3",
                     "no role may ever act in window 'w': it lists no roles",
                     {}}}),
            check(R"(loophole: 1
game: t
windows:
  w: {protocol: priority}
actions:
  - {name: spark, who: any}
)" + turn_with_windows));
}

TEST(Structure, PriorityWindowWhoseActionsOnlyFitAnswerSpeeds) {
  EXPECT_EQ((Briefs{{warning,
                     "window:primary",
                     "5:3",
                     "no role may ever act in window 'primary': no action usable in it fits a role "
                     "and a lead speed it allows",
                     {"the window allows: active leads at 1; opponent leads at 2",
                      "action 'mirror_ward' (who: any, speed 3) could only answer, and answers "
                      "need an action to answer",
                      "action 'surge' (who: opponent, speed 1)"}}}),
            check(R"(loophole: 1
game: t
speeds: [1, 2, 3]
windows:
  primary:
    protocol: priority
    active: {lead: [1], answer: [3]}
    opponent: {lead: [2], answer: [3]}
actions:
  - {name: mirror_ward, who: any, speed: 3, in: [primary]}
  - {name: surge, who: opponent, speed: 1}
turn:
  phases:
    - name: main
      steps:
        - {name: play, window: primary}
)"));
}

TEST(Structure, PriorityWindowRoleAndSpeedMustFitTogether) {
  // Speed 2 is a lead speed of the opponent only, and the only speed-2 action
  // is the active player's: nobody can lead. An `any` action at speed 2 fixes it.
  const std::string head = R"(loophole: 1
game: t
speeds: [1, 2]
windows:
  w:
    protocol: priority
    active: {lead: [1]}
    opponent: {lead: [2]}
actions:
  - {name: push, who: active, speed: 2}
)";
  const Briefs broken = check(head + turn_with_windows);
  ASSERT_EQ(1u, broken.size());
  EXPECT_EQ("window:w", broken[0].rule);
  EXPECT_EQ(Briefs{}, check(head + "  - {name: shove, who: any, speed: 2}\n" + turn_with_windows));
}

TEST(Structure, OthersCoverEveryNonActivePlayer) {
  // With three players `others` covers the player after the opponent too.
  const auto ruleset = [](int players, const std::string& window_role) {
    return "loophole: 1\ngame: t\nplayers: " + std::to_string(players) +
           "\nspeeds: [1]\nwindows:\n  w:\n    protocol: priority\n    " + window_role +
           ": {lead: [1]}\nactions:\n  - {name: spark, who: others, speed: 1}\n" +
           turn_with_windows;
  };
  EXPECT_EQ(Briefs{}, check(ruleset(3, "others")));
  EXPECT_EQ(Briefs{}, check(ruleset(2, "opponent")));
  EXPECT_EQ(Briefs{}, check(ruleset(3, "opponent")));  // the opponent is one of the others
  EXPECT_EQ(1u, check(ruleset(3, "active")).size());
}

TEST(Structure, SequenceWindowWhoseSeatsNoActionIsFor) {
  EXPECT_EQ((Briefs{{warning,
                     "window:w",
                     "4:3",
                     "no role may ever act in window 'w': no action usable in it is for a player "
                     "who has a turn in it",
                     {}}}),
            check(R"(loophole: 1
game: t
windows:
  w: {protocol: sequence, order: [active, active_if_answered]}
actions:
  - {name: scheme, who: opponent, in: [w]}
)" + turn_with_windows));
}

// --- the `opponent` lint -------------------------------------------------------

// `opponent` is next(active): read by an action the non-active player may
// use, it can be that player itself. One warning per action, at the first
// read (through a function too, where its body reads it), with the hint.
std::string opponent_rules(const std::string& actions) {
  return R"(loophole: 1
game: t
state:
  life: {type: int, range: [0, 3], init: 3, per: player}
functions:
  foe_life:
    returns: int
    expr: "life[opponent]"
windows:
  w: {protocol: priority, active: {}, opponent: {}}
actions:
)" + actions +
         R"(turn:
  phases:
    - name: main
      steps:
        - name: only
          window: w
)";
}

const std::string k_opponent_hint =
    "hint: write 'next(self)' for the player after its user, or 'active' for the player whose "
    "turn it is; 'opponent' is next(active)";

TEST(Structure, OpponentReadByAnActionAnyoneMayUse) {
  EXPECT_EQ((Briefs{{warning,
                     "action:bolt",
                     "14:19",
                     "action 'bolt' (who: any) reads 'opponent', the player after the active one: "
                     "when its user is not the active player, that can be its own user",
                     {k_opponent_hint}}}),
            check(opponent_rules("  - name: bolt\n"
                                 "    who: any\n"
                                 "    effect: \"life[opponent] := 0\"\n")));
}

TEST(Structure, OpponentReadByTheOpponentIsItsUser) {
  EXPECT_EQ((Briefs{{warning,
                     "action:jab",
                     "14:17",
                     "action 'jab' (who: opponent) reads 'opponent', the player after the active "
                     "one: for this action that is always its own user",
                     {k_opponent_hint}}}),
            check(opponent_rules("  - name: jab\n"
                                 "    who: opponent\n"
                                 "    when: \"life[opponent] > 0\"\n")));
}

TEST(Structure, OpponentReadThroughAFunctionPointsAtItsBody) {
  EXPECT_EQ((Briefs{{warning,
                     "action:drain",
                     "8:17",
                     "action 'drain' (who: each) reads 'opponent', the player after the active "
                     "one: when its user is not the active player, that can be its own user",
                     {k_opponent_hint}}}),
            check(opponent_rules("  - name: drain\n"
                                 "    who: each\n"
                                 "    when: \"foe_life() > 1\"\n")));
}

TEST(Structure, OpponentReadByTheActivePlayerOrNotAtAllIsFine) {
  EXPECT_EQ(Briefs{}, check(opponent_rules("  - name: bolt\n"
                                           "    who: active\n"
                                           "    effect: \"life[opponent] := 0\"\n"
                                           "  - name: aim\n"
                                           "    who: any\n"
                                           "    effect: \"life[next(self)] := 0\"\n")));
}

TEST(Structure, FindingsAreOrderedBySourcePosition) {
  const Briefs findings = check(R"(loophole: 1
game: t
turn:
  phases:
    - name: recon
      steps:
        - {name: exit, end_turn_if: "true"}
    - name: protect
      steps:
        - {name: main, window: combat}
windows:
  combat: {protocol: alternate}
)");
  ASSERT_EQ(2u, findings.size());
  EXPECT_EQ("10:18", findings[0].at);
  EXPECT_EQ("step:protect.main", findings[0].rule);
  EXPECT_EQ((std::vector<std::string>{
                "step 'recon.exit' always ends the turn: its end_turn_if 'true' always holds"}),
            findings[0].details);
  EXPECT_EQ("12:3", findings[1].at);
  EXPECT_EQ("window:combat", findings[1].rule);
}

// --- names ------------------------------------------------------------------

TEST(FindingNames, AreStable) {
  EXPECT_EQ("deadlock", to_string(Kind::deadlock));
  EXPECT_EQ("response-loop", to_string(Kind::response_loop));
  EXPECT_EQ("unbounded-chain", to_string(Kind::unbounded_chain));
  EXPECT_EQ("stalemate", to_string(Kind::stalemate));
  EXPECT_EQ("unreachable-win", to_string(Kind::unreachable_win));
  EXPECT_EQ("rule-gap", to_string(Kind::rule_gap));
  EXPECT_EQ("dead-rule", to_string(Kind::dead_rule));
  EXPECT_EQ("property-violation", to_string(Kind::property_violation));
  EXPECT_EQ("structure", to_string(Kind::structure));
  EXPECT_EQ("note", to_string(Severity::note));
  EXPECT_EQ("warning", to_string(Severity::warning));
  EXPECT_EQ("error", to_string(Severity::error));
  EXPECT_EQ("holds", to_string(Verdict::holds));
  EXPECT_EQ("violated", to_string(Verdict::violated));
  EXPECT_EQ("unknown", to_string(Verdict::unknown));
  EXPECT_EQ("none", to_string(LoopClass::none));
  EXPECT_EQ("mandatory", to_string(LoopClass::mandatory));
  EXPECT_EQ("optional", to_string(LoopClass::optional_one));
  EXPECT_EQ("several-players", to_string(LoopClass::several_players));
  EXPECT_EQ("chance", to_string(LoopClass::chance));
}

}  // namespace
}  // namespace loophole::properties
