// Every finding kind on tiny rulesets with a planted bug (and one clean
// ruleset per kind) under tests/fixtures/findings/<kind>/: load, explore
// with the explicit engine, run only that kind's analysis, and compare the
// exact findings — kind, loop class and player, rule, line:col, trace length
// and loop start — and the exact state count of each exploration.
#include <cctype>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/properties/finding.hpp"

#include "loaded_game.hpp"

namespace loophole::properties {
namespace {

struct Expected {
  std::string rule;
  std::uint32_t line = 0, col = 0;
  std::size_t trace = 0;  // moves; 0: no trace
  int loop_start = -1;
  LoopClass loop = LoopClass::none;
  int loop_player = -1;
  Severity severity = Severity::error;
  Verdict verdict = Verdict::violated;
};

struct Case {
  std::string file;  // under tests/fixtures/findings/
  Kind kind;
  std::uint64_t states;
  std::vector<Expected> findings;
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.file; }

std::string describe(const Finding& f) {
  std::string s = std::string(to_string(f.kind)) + " " + std::string(to_string(f.severity)) + " " +
                  std::string(to_string(f.verdict)) + " " + f.rule + " " +
                  std::to_string(f.where.line) + ":" + std::to_string(f.where.col) + " " +
                  std::string(to_string(f.loop)) + "/" + std::to_string(f.loop_player) + " trace " +
                  (f.trace ? std::to_string(f.trace->size()) : "-") + " loop " +
                  (f.trace ? std::to_string(f.trace->loop_start) : "-") + ": " + f.message;
  for (const auto& d : f.details) s += "\n    " + d;
  return s;
}

class Findings : public ::testing::TestWithParam<Case> {};

TEST_P(Findings, AreExactlyThePlantedOnes) {
  const Case& c = GetParam();
  const std::string path = std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/" + c.file;
  model::SourceManager sources;
  model::DiagnosticSink sink;
  const auto game = model::load_game(path, {}, sources, sink);
  ASSERT_TRUE(game.has_value()) << sink.render(sources);
  const checker::Semantics semantics(*game);
  checker::ExplicitOptions options;
  options.threads = 1;
  const auto graph = checker::explore(semantics, options);
  ASSERT_EQ(checker::Completion::complete, graph->completion());
  EXPECT_EQ(c.states, graph->size());

  std::vector<Finding> found;
  for (auto& f : check_all(*graph, CheckSelection::only(c.kind))) {
    if (f.kind == c.kind) found.push_back(std::move(f));
  }
  std::string all;
  for (const auto& f : found) all += "  " + describe(f) + "\n";
  ASSERT_EQ(c.findings.size(), found.size()) << all;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const Finding& f = found[i];
    const Expected& e = c.findings[i];
    SCOPED_TRACE(describe(f));
    EXPECT_EQ(e.rule, f.rule);
    EXPECT_EQ(path, f.where.file);
    EXPECT_EQ(e.line, f.where.line);
    EXPECT_EQ(e.col, f.where.col);
    EXPECT_EQ(e.severity, f.severity);
    EXPECT_EQ(e.verdict, f.verdict);
    EXPECT_EQ(e.loop, f.loop);
    EXPECT_EQ(e.loop_player, f.loop_player);
    EXPECT_EQ("explicit", f.engine);
    EXPECT_FALSE(f.message.empty());
    if (e.trace == 0) {
      EXPECT_FALSE(f.trace.has_value());
    } else {
      ASSERT_TRUE(f.trace.has_value());
      EXPECT_EQ(e.trace, f.trace->size());
      EXPECT_EQ(e.loop_start, f.trace->loop_start);
      const auto replay = semantics.replay(*f.trace);
      EXPECT_TRUE(replay.ok) << replay.error;
    }
  }
}

using enum LoopClass;

// clang-format off
const Case cases[] = {
  {"deadlock/no-pass.yaml", Kind::deadlock, 3, {
    {"step:combat.fight", 14, 19, 2},
  }},
  {"deadlock/no-answer.yaml", Kind::deadlock, 3, {
    {"step:main.play", 13, 19, 2},
  }},
  {"deadlock/third-player.yaml", Kind::deadlock, 4, {
    {"step:main.play", 14, 19, 3},
  }},
  {"deadlock/clean.yaml", Kind::deadlock, 11, {}},
  // must_act: P2 is to move though they hold no card.
  {"deadlock/must-act.yaml", Kind::deadlock, 3, {
    {"step:main.trick", 16, 19, 2},
  }},

  {"response-loop/ward-opponent.yaml", Kind::response_loop, 11, {
    {"action:mirror_ward", 28, 11, 5, 1, optional_one, 1},
    {"action:mirror_ward", 28, 11, 8, 4, optional_one, 0},
  }},
  {"response-loop/ward-active.yaml", Kind::response_loop, 11, {
    {"action:recall", 27, 11, 4, 1, optional_one, 0},
    {"action:recall", 27, 11, 7, 4, optional_one, 1},
  }},
  {"response-loop/ward-duel.yaml", Kind::response_loop, 19, {
    {"action:ward", 27, 11, 4, 1, several_players, -1},
  }},
  {"response-loop/dig-fold.yaml", Kind::response_loop, 13, {
    {"action:dig", 26, 11, 4, 1, optional_one, 0},
  }},
  {"response-loop/trigger-pair.yaml", Kind::response_loop, 3, {
    {"trigger:ping_back", 15, 11, 3, 1, mandatory, -1},
  }},
  // The same pair fired by the setup: the loop starts at move 0.
  {"response-loop/setup-pair.yaml", Kind::response_loop, 2, {
    {"trigger:ping_back", 19, 11, 2, 0, mandatory, -1},
  }},
  {"response-loop/coin-return.yaml", Kind::response_loop, 33, {
    {"action:mirror_ward", 27, 11, 5, 1, chance, -1},
  }},
  {"response-loop/charges-run-out.yaml", Kind::response_loop, 79, {}},

  // Finite chains that only overflow the bound: inconclusive notes (raise
  // scope.stack); a chain that repeats one entry deeper: an error.
  {"unbounded-chain/counter-war.yaml", Kind::unbounded_chain, 203, {
    {"action:counter", 27, 11, 4, -1, none, -1, Severity::note, Verdict::unknown},
  }},
  {"unbounded-chain/self-answer.yaml", Kind::unbounded_chain, 217, {
    {"action:surge", 26, 11, 6, -1, none, -1, Severity::note, Verdict::unknown},
  }},
  {"unbounded-chain/three-players.yaml", Kind::unbounded_chain, 202, {
    {"action:counter", 26, 11, 4, -1, none, -1, Severity::note, Verdict::unknown},
  }},
  {"unbounded-chain/free-shout.yaml", Kind::unbounded_chain, 107, {
    {"action:shout", 24, 11, 5},
  }},
  {"unbounded-chain/bounded.yaml", Kind::unbounded_chain, 53, {}},

  // Turns pass forever and nobody chooses anything: a hang, an error.
  {"stalemate/no-end.yaml", Kind::stalemate, 4, {
    {"step:main.only", 9, 17, 4, 2, mandatory, -1},
  }},
  {"stalemate/frozen-score.yaml", Kind::stalemate, 4, {
    {"step:main.score", 12, 17, 4, 2, mandatory, -1},
  }},
  {"stalemate/refill.yaml", Kind::stalemate, 10, {
    {"step:main.draw", 17, 17, 10, 4, mandatory, -1},
  }},
  {"stalemate/race.yaml", Kind::stalemate, 4, {}},

  {"turn-loop/reopen.yaml", Kind::turn_loop, 8, {
    {"step:main.bid", 19, 17, 5, 1, optional_one, 0},
  }},
  // One loop per player with 'hold'; the same loops joined by 'echo' are
  // notes beneath them (caused_by: the RootCauses test below).
  {"turn-loop/hold-echo.yaml", Kind::turn_loop, 49, {
    {"step:main.bid", 19, 17, 5, 1, optional_one, 0},
    {"step:main.bid", 19, 17, 9, 5, optional_one, 1},
    {"step:main.bid", 19, 17, 8, 2, optional_one, 0, Severity::note},
    {"step:main.bid", 19, 17, 12, 6, optional_one, 1, Severity::note},
  }},
  // Only while both keep playing: a loop no player can force alone.
  {"turn-loop/volley.yaml", Kind::turn_loop, 28, {
    {"step:main.rally", 17, 17, 7, 1, several_players, -1},
  }},
  {"turn-loop/hang.yaml", Kind::turn_loop, 2, {
    {"step:main.tick", 14, 17, 2, 1, mandatory, -1},
  }},

  {"tie/double-knockout.yaml", Kind::tie, 3, {
    {"end:knocked_out/P1", 20, 11, 2},
  }},
  {"tie/one-winner.yaml", Kind::tie, 4, {}},

  // Once both have hidden, only a rule gap (or nothing) stops the game; that
  // neither can lose from there is listed under the one finding.
  {"cannot-end/hide.yaml", Kind::cannot_end, 135, {
    {"step:main.fight", 20, 17, 6, -1, none, -1, Severity::warning},
  }},
  {"cannot-end/clean.yaml", Kind::cannot_end, 13, {}},
  // The operators seed's stuck state (issue 34), 29 moves in: a note, as
  // every way on still stops at the empty-deck draw.
  {"cannot-end/operators-stuck.yaml", Kind::cannot_end, 16858, {
    {"step:combat.fight", 89, 17, 29, -1, none, -1, Severity::note},
  }},
  // P1, doomed at the end of the turn, can lead 'ponder' forever instead.
  {"stall/doomed-turn.yaml", Kind::stall, 8, {
    {"action:ponder", 29, 11, 5, 2, optional_one, 0},
  }},
  // The same with the loss a `lose(active)` statement: still a stall.
  {"stall/doomed-by-statement.yaml", Kind::stall, 8, {
    {"action:ponder", 28, 11, 5, 2, optional_one, 0},
  }},
  {"cannot-lose/bystander.yaml", Kind::cannot_lose, 44, {
    {"step:main.fight/P3", 17, 17, 10, -1, none, -1, Severity::warning},
  }},
  // P1's only loss after the first turn is a `lose(active)` statement on an
  // empty draw: P1 can still lose, P2 still win (the old reading of
  // outcomes from end conditions alone said P1 could do neither).
  {"cannot-lose/deck-out.yaml", Kind::cannot_lose, 23, {}},

  {"unreachable-win/impossible-combo.yaml", Kind::unreachable_win, 12, {
    {"end:triple_red/P1", 21, 11},
    {"end:triple_red/P2", 21, 11},
  }},
  {"unreachable-win/loss-never.yaml", Kind::unreachable_win, 15, {
    {"end:dead/P1", 22, 11, 0, -1, none, -1, Severity::warning},
    {"end:dead/P2", 22, 11, 0, -1, none, -1, Severity::warning},
  }},
  {"unreachable-win/first-player-only.yaml", Kind::unreachable_win, 3, {
    {"end:points/P2", 15, 11},
  }},
  {"unreachable-win/reachable.yaml", Kind::unreachable_win, 237, {}},
  // Each end names its player (`win: P1`, `win: P2`): nobody else is asked.
  {"unreachable-win/asymmetric.yaml", Kind::unreachable_win, 9, {}},

  {"rule-gap/empty-deck.yaml", Kind::rule_gap, 4, {
    {"step:main.draw", 17, 16, 3},
  }},
  {"rule-gap/coin-underflow.yaml", Kind::rule_gap, 3, {
    {"step:main.upkeep", 12, 16, 2},
  }},
  {"rule-gap/divide-by-zero.yaml", Kind::rule_gap, 2, {
    {"step:main.split", 16, 22, 1},
  }},
  {"rule-gap/clamped.yaml", Kind::rule_gap, 4, {}},
  {"rule-gap/invented-boost.yaml", Kind::rule_gap, 28, {
    {"step:main.draw", 30, 16, 11},
    {"step:main.attack", 34, 16, 10},
  }},
  {"rule-gap/overflow.yaml", Kind::rule_gap, 2, {
    {"step:main.bonus", 16, 19, 1},
  }},
  // An event argument out of its declared range, at the `fire`.
  {"rule-gap/event-arg-range.yaml", Kind::rule_gap, 6, {
    {"step:main.surge", 18, 16, 5},
  }},

  {"dead-rule/dead-action.yaml", Kind::dead_rule, 33, {
    {"action:big_spend", 26, 11, 0, -1, none, -1, Severity::warning},
  }},
  {"dead-rule/dead-trigger.yaml", Kind::dead_rule, 8, {
    {"trigger:jackpot", 20, 11, 0, -1, none, -1, Severity::warning},
  }},
  {"dead-rule/dead-step.yaml", Kind::dead_rule, 7, {
    {"step:bonus.reward", 18, 17, 0, -1, none, -1, Severity::warning},
  }},
  {"dead-rule/dead-window.yaml", Kind::dead_rule, 57, {
    {"window:reaction", 21, 3, 0, -1, none, -1, Severity::warning},
  }},
  {"dead-rule/all-used.yaml", Kind::dead_rule, 34, {}},

  {"property-violation/hand-limit.yaml", Kind::property_violation, 15, {
    {"property:hand_limit", 20, 11, 6},
  }},
  {"property-violation/never-broke.yaml", Kind::property_violation, 7, {
    {"property:treasury", 17, 11, 3},
  }},
  {"property-violation/unreachable-goal.yaml", Kind::property_violation, 4, {
    {"property:full_treasury", 15, 11, 0},
  }},
  {"property-violation/alarm.yaml", Kind::property_violation, 4, {
    {"property:alarm_answered", 15, 11, 4, 2},
  }},
  {"property-violation/holds.yaml", Kind::property_violation, 10, {}},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Fixtures, Findings, ::testing::ValuesIn(cases),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string name;
                           for (const char ch : info.param.file) {
                             if (std::isalnum(static_cast<unsigned char>(ch)) != 0)
                               name += ch;
                             else if (ch == '/' || ch == '-')
                               name += '_';
                           }
                           return name.substr(0, name.size() - 4);  // without "yaml"
                         });

// The same rule loops in P1's turn with P1 alone choosing, and in P2's turn
// only while P1 keeps passing: one finding, the second form a line of it.
// A player who must act and cannot: the deadlock names them and the window.
TEST(Deadlock, MustActNamesThePlayerAndTheWindow) {
  const std::string path =
      std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/deadlock/must-act.yaml";
  model::SourceManager sources;
  model::DiagnosticSink sink;
  const auto game = model::load_game(path, {}, sources, sink);
  ASSERT_TRUE(game.has_value()) << sink.render(sources);
  const checker::Semantics semantics(*game);
  const auto graph = checker::explore(semantics, {});
  const auto found = check_all(*graph, CheckSelection::only(Kind::deadlock));
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0].message,
            "in 'main · trick', P2 must act in window 'trick' and has no action enabled");
}

TEST(LoopFolding, SeveralPlayersFormIsALineOfTheOptionalLoop) {
  const std::string path =
      std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/response-loop/dig-fold.yaml";
  model::SourceManager sources;
  model::DiagnosticSink sink;
  const auto game = model::load_game(path, {}, sources, sink);
  ASSERT_TRUE(game.has_value()) << sink.render(sources);
  const checker::Semantics semantics(*game);
  checker::ExplicitOptions options;
  options.threads = 1;
  const auto graph = checker::explore(semantics, options);
  const auto found = check_all(*graph, CheckSelection::only(Kind::response_loop));
  ASSERT_EQ(1u, found.size());
  EXPECT_EQ(LoopClass::optional_one, found[0].loop);
  EXPECT_EQ((std::vector<std::string>{
                "the cycle has 3 moves; only P1 chooses on the cycle, and can repeat it as often "
                "as they like",
                "P1 alone can force this loop (whatever the other player and nature choose)",
                "the same rules also loop where several players' choices keep it going"}),
            found[0].details);
}

// Who can force a loop (loop_forcing.hpp): the smallest coalitions that can
// keep the play in the loop forever whatever the others and nature do, in
// the finding and its detail line.
TEST(LoopForcing, SaysWhoCanForceEachLoop) {
  struct Forced {
    std::string file;
    Kind kind;
    std::vector<std::vector<std::uint32_t>> coalitions;  // per finding
    std::string detail;                                  // of the first finding
  };
  const std::vector<Forced> cases = {
      // Both choose on the cycle, P1 alone can force it.
      {"response-loop/ward-duel.yaml",
       Kind::response_loop,
       {{1}},
       "P1 alone can force this loop (whatever the other player and nature choose)"},
      // Each player's own loop, each forced by its player.
      {"response-loop/ward-opponent.yaml",
       Kind::response_loop,
       {{2}, {1}},
       "P2 alone can force this loop (whatever the other player and nature choose)"},
      // Only both together.
      {"turn-loop/volley.yaml",
       Kind::turn_loop,
       {{3}},
       "no player can force this loop alone; it needs P1 and P2 both to keep choosing it "
       "(together they can force it whatever nature chooses)"},
      // A hang: nobody can leave it.
      {"turn-loop/hang.yaml",
       Kind::turn_loop,
       {{0}},
       "no choice of any player or of nature leaves this loop once it is entered"},
      // Nature ends it when it likes: nobody can force it.
      {"response-loop/coin-return.yaml",
       Kind::response_loop,
       {{}},
       "no player, nor all of them together, can force this loop: nature's choices or moves "
       "nobody chooses can end it"},
  };
  for (const Forced& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path =
        std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/" + c.file;
    model::SourceManager sources;
    model::DiagnosticSink sink;
    const auto game = model::load_game(path, {}, sources, sink);
    ASSERT_TRUE(game.has_value()) << sink.render(sources);
    const checker::Semantics semantics(*game);
    checker::ExplicitOptions options;
    options.threads = 1;
    const auto graph = checker::explore(semantics, options);
    std::vector<Finding> found;
    for (auto& f : check_all(*graph, CheckSelection::only(c.kind))) {
      if (f.kind == c.kind) found.push_back(std::move(f));
    }
    ASSERT_EQ(c.coalitions.size(), found.size());
    for (std::size_t i = 0; i < found.size(); ++i) {
      ASSERT_TRUE(found[i].forced_by.has_value());
      EXPECT_EQ(c.coalitions[i], *found[i].forced_by) << i;
    }
    EXPECT_EQ(c.detail, found[0].details.at(1));
  }
}

// Every finding of a fixture with every analysis, as "id severity
// caused_by" lines, and the findings themselves.
struct Checked {
  std::unique_ptr<test_support::LoadedGame> loaded;
  std::vector<Finding> findings;
  std::vector<std::string> lines;
};

Checked check_fixture(const std::string& file) {
  Checked c;
  c.loaded =
      test_support::load_game(std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/" + file,
                              {.with_semantics = true});
  if (!c.loaded->game) {
    ADD_FAILURE() << c.loaded->diagnostics();
    return c;
  }
  checker::ExplicitOptions options;
  options.threads = 1;
  const auto graph = checker::explore(*c.loaded->sem, options);
  c.findings = check_all(*graph, CheckSelection{});
  const auto ids = finding_ids(c.findings);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    c.lines.push_back(ids[i] + " " + std::string(to_string(c.findings[i].severity)) + " " +
                      (c.findings[i].caused_by.empty() ? "-" : c.findings[i].caused_by));
  }
  return c;
}

// Turn loops are grouped per card as response loops are: one per player
// for 'hold', and the loops 'echo' joins beneath them, each under its own
// player's.
TEST(RootCauses, TurnLoopsJoinedByACardAreNotesBeneathThePlayersLoop) {
  const Checked c = check_fixture("turn-loop/hold-echo.yaml");
  EXPECT_EQ((std::vector<std::string>{
                "turn-loop/step:main.bid error -",
                "turn-loop/step:main.bid#2 error -",
                "unreachable-win/end:scored/P1 error -",
                "turn-loop/step:main.bid#3 note turn-loop/step:main.bid",
                "turn-loop/step:main.bid#4 note turn-loop/step:main.bid#2",
            }),
            c.lines);
  ASSERT_EQ(5U, c.findings.size());
  EXPECT_EQ(
      "'main · bid' can be re-entered forever by 'hold' while the game could still end: the "
      "turn never moves on (a stall)",
      c.findings[0].message);
  EXPECT_EQ(
      "'main · bid' can be re-entered forever by 'hold' and 'echo' while the game could still "
      "end: the turn never moves on (a stall)",
      c.findings[3].message);
  EXPECT_EQ("it causes turn-loop/step:main.bid#3: " + c.findings[3].message,
            c.findings[0].details.back());
}

// The operators stuck state: P1 can never lose and nothing ends the game,
// reported where it is reached (P1 with 2 OUT on the field, 2 OUT in the
// SAVEZONE, none face-up) and, since every way on from it stops at the
// empty-deck draw, listed beneath that gap.
TEST(RootCauses, OperatorsStuckStateIsANoteBeneathTheEmptyDeckGap) {
  const Checked c = check_fixture("cannot-end/operators-stuck.yaml");
  EXPECT_EQ((std::vector<std::string>{
                "rule-gap/step:support.final_draw error -",
                "dead-rule/window:strategy warning -",
                "dead-rule/action:play_strategy warning -",
                "dead-rule/action:play_effect warning -",
                "cannot-end/step:combat.fight note rule-gap/step:support.final_draw",
            }),
            c.lines);
  ASSERT_EQ(5U, c.findings.size());
  const Finding& f = c.findings[4];
  EXPECT_EQ(89U, f.where.line);
  EXPECT_EQ(17U, f.where.col);
  EXPECT_EQ("from 'combat · fight' the game can no longer end: no end condition can hold any more",
            f.message);
  EXPECT_EQ("so from here P1 and P2 can no longer lose", f.details[1]);
  ASSERT_TRUE(f.trace.has_value());
  EXPECT_EQ(29U, f.trace->size());
  const auto replay = c.loaded->sem->replay(*f.trace);
  ASSERT_TRUE(replay.ok) << replay.error;
  const model::Game& g = *c.loaded->game;
  const auto value = [&](const std::string& slot) {
    for (std::size_t i = 0; i < g.slots.size(); ++i) {
      if (g.slots[i].name == slot) return replay.states.back()[i];
    }
    ADD_FAILURE() << "no slot " << slot;
    return -1;
  };
  EXPECT_EQ(2, value("f_out[P1]"));
  EXPECT_EQ(2, value("s_out[P1]"));
  EXPECT_EQ(0, value("s_ready[P1]"));
  EXPECT_EQ(0, value("f_ready[P1]"));
}

// A finding whose shortest trace uses a rule marked `invented:` says so in
// a detail line, lists the rules (JSON, SARIF, Markdown) and gives the
// reasons; its message stays the engines' own; the gap of the rules
// themselves names none.
TEST(InventedRules, FindingsThatUseAnInventedTextSaySo) {
  const Checked c = check_fixture("rule-gap/invented-boost.yaml");
  EXPECT_EQ((std::vector<std::string>{"rule-gap/step:main.draw error -",
                                      "rule-gap/step:main.attack error -"}),
            c.lines);
  ASSERT_EQ(2U, c.findings.size());
  EXPECT_EQ("draw from an empty deck", c.findings[0].message);
  EXPECT_TRUE(c.findings[0].invented.empty());
  const Finding& f = c.findings[1];
  EXPECT_EQ("assignment leaves the range of 'wall'", f.message);
  EXPECT_EQ((std::vector<std::string>{"action:tactic", "trigger:boost"}), f.invented);
  EXPECT_EQ((std::vector<std::string>{
                "2 reachable states end in this gap",
                "it uses 'tactic' and 'boost', card texts invented for this model, not in the "
                "seed's rules",
                "invented: 'tactic' (its shortest trace uses it): the seed names tactics, not "
                "their text: +1 power",
                "invented: 'boost' (its shortest trace uses it): a reactive skill with no text in "
                "the seed: +1 power",
            }),
            f.details);
}

}  // namespace
}  // namespace loophole::properties
