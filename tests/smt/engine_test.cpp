// The SMT engine beyond agreement: k-induction proves invariants at every
// depth (on fixtures and on seed rulesets at a reduced scope) and says
// `unknown` when an invariant is not k-inductive; the static checks find
// planted dead guards and contradictory effects with their locations;
// symbolic scope finds the values of a param at which a finding appears;
// every counterexample replays on the reference semantics.
#include "loophole/smt/engine.hpp"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"

#include "loaded_game.hpp"
#include "sanitized.hpp"

namespace loophole::smt {
namespace {

// A ruleset with its semantics and the SMT engine on it; the test fails when
// it does not load or the engine declines it.
struct EngineGame : test_support::LoadedGame {
  std::unique_ptr<Engine> engine;
};

std::unique_ptr<EngineGame> load_engine(const std::string& rel,
                                        const std::map<std::string, std::int64_t>& params = {}) {
  auto l = std::make_unique<EngineGame>();
  test_support::load_into(*l, std::string(LOOPHOLE_SOURCE_DIR) + "/" + rel,
                          {.params = params, .with_semantics = true});
  EXPECT_TRUE(l->game) << l->diagnostics();
  if (!l->game) return l;
  l->engine = std::make_unique<Engine>(*l->sem);
  EXPECT_FALSE(l->engine->unsupported()) << l->engine->unsupported()->message();
  return l;
}

int property(const model::Game& g, const std::string& name) {
  for (std::size_t i = 0; i < g.properties.size(); ++i) {
    if (g.properties[i].name == name) return static_cast<int>(i);
  }
  ADD_FAILURE() << "no property " << name;
  return -1;
}

Options small(int max_k) {
  Options o;
  o.depth = 3;
  o.max_k = max_k;
  o.timeout_ms = 60000;
  return o;
}

std::string describe(const properties::Finding& f) {
  return std::string(properties::to_string(f.kind)) + " " +
         std::string(properties::to_string(f.verdict)) + " " + f.rule + " " +
         std::to_string(f.where.line) + ":" + std::to_string(f.where.col) + " " + f.message;
}

TEST(Induction, ProvesAnInvariantOfAFixtureAtEveryDepth) {
  const auto l = load_engine("tests/fixtures/findings/property-violation/holds.yaml");
  const Proof p = l->engine->prove_property(property(*l->game, "hand_limit"), small(3));
  EXPECT_EQ(p.status, ProofStatus::proved) << p.reason;
  EXPECT_EQ(p.k, 0);
}

TEST(Induction, FindsAViolationInTheBaseCaseWithAReplayedTrace) {
  const auto l = load_engine("tests/fixtures/findings/property-violation/never-broke.yaml");
  const Proof p = l->engine->prove_property(property(*l->game, "treasury"), small(3));
  ASSERT_EQ(p.status, ProofStatus::violated);
  ASSERT_TRUE(p.trace);
  EXPECT_TRUE(l->sem->replay(*p.trace).ok);
}

TEST(Induction, ProvesOperatorsCombatInvariantAndIsHonestlyUnknownOnAnother) {
  const auto l = load_engine(
      "rulesets/operators.yaml",
      {{"item_copies", 0}, {"attack_copies", 0}, {"defence_copies", 0}, {"opening_hand", 0}});
  const Proof proved =
      l->engine->prove_property(property(*l->game, "combat_spends_everyone"), small(2));
  EXPECT_EQ(proved.status, ProofStatus::proved) << proved.reason;
  EXPECT_EQ(proved.k, 2);
  // It holds in every state explicit search reaches at this scope, but it is
  // not 2-inductive: unreachable in-range states break the step.
  const Proof open =
      l->engine->prove_property(property(*l->game, "nobody_exhausted_after_support"), small(2));
  EXPECT_EQ(open.status, ProofStatus::unknown);
  EXPECT_EQ(open.reason, "not inductive up to k = 2");
  // ... and it does hold there: explicit search, complete at this scope,
  // finds no violation of it.
  checker::ExplicitOptions eo;
  eo.threads = 1;
  const auto graph = checker::explore(*l->sem, eo);
  ASSERT_EQ(graph->completion(), checker::Completion::complete);
  std::size_t checked = 0;
  for (const auto& f : properties::check_all(
           *graph, properties::CheckSelection::only(properties::Kind::property_violation))) {
    if (f.rule != "property:nobody_exhausted_after_support") continue;
    ++checked;
    ADD_FAILURE() << "explicit search reports " << properties::to_string(f.verdict) << ": "
                  << f.message;
  }
  EXPECT_EQ(checked, 0U);
}

TEST(Induction, ProvesCosmereFaceLimit) {
  const auto l = load_engine("rulesets/cosmere.yaml",
                             {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}});
  const Proof p = l->engine->prove_property(property(*l->game, "at_most_four_faces"), small(2));
  EXPECT_EQ(p.status, ProofStatus::proved) << p.reason;
  EXPECT_EQ(p.k, 0);
}

TEST(Induction, ProvesContainmentHandWithinTargetWithK1) {
  LOOPHOLE_RELEASE_ONLY("a seed's k-induction proof, 30 s here, 5-14 s in release");
  const auto l = load_engine(
      "rulesets/containment.yaml",
      {{"hand_target", 1}, {"item_copies", 0}, {"opportunity_copies", 0}, {"event_copies", 0}});
  const Proof p = l->engine->prove_property(property(*l->game, "hand_within_target"), small(1));
  EXPECT_EQ(p.status, ProofStatus::proved) << p.reason;
  EXPECT_EQ(p.k, 1);
}

TEST(Induction, ProvesSpeedBiomesHandLimitAfterReset) {
  LOOPHOLE_RELEASE_ONLY("a seed's k-induction proof, 30 s here, 5-14 s in release");
  const auto l =
      load_engine("rulesets/speed-biomes.yaml", {{"gear_copies", 0}, {"anomaly_copies", 0}});
  const Proof p = l->engine->prove_property(property(*l->game, "hand_limit_after_reset"), small(1));
  EXPECT_EQ(p.status, ProofStatus::proved) << p.reason;
  EXPECT_EQ(p.k, 0);
}

TEST(Induction, ProvesNoRuleGapForEveryDepth) {
  // 'coins += 2' after 'coins := 0' never leaves 0..3; the inductive step
  // needs the reset in the path, so k = 2.
  const auto l = load_engine("tests/fixtures/smt/unreachable-gap.yaml");
  const Proof p = l->engine->prove_no_gap(small(3));
  EXPECT_EQ(p.status, ProofStatus::proved) << p.reason;
  EXPECT_EQ(p.k, 2);
  // BMC at depth 1 covers neither every state nor the gap site; the proof
  // settles it: no `unknown`, and the candidate gap is refuted.
  Options o = small(3);
  o.depth = 1;
  const Result r = l->engine->check(o, Questions{});
  EXPECT_FALSE(r.statistics.complete);
  EXPECT_TRUE(r.gaps_settled);
  for (const auto& f : r.findings) {
    EXPECT_NE(f.kind, properties::Kind::rule_gap) << f.message;
  }
  const auto statics = l->engine->static_checks(o, r.findings, r.gaps_settled);
  ASSERT_EQ(statics.size(), 1U);
  EXPECT_EQ(statics[0].verdict, properties::Verdict::holds);
}

TEST(Bmc, ADeadlockBeyondTheDepthIsUnknownNotClean) {
  const auto l = load_engine("tests/fixtures/smt/late-deadlock.yaml");
  Options o = small(6);
  o.depth = 1;
  const Result shallow = l->engine->check(o, Questions{});
  EXPECT_FALSE(shallow.statistics.complete);
  EXPECT_EQ(shallow.statistics.depth, 1);
  std::vector<std::string> got;
  for (const auto& f : shallow.findings) got.push_back(describe(f));
  EXPECT_EQ(got, (std::vector<std::string>{
                     "deadlock unknown deadlock 0:0 no deadlock within depth 1; deeper ones "
                     "are not ruled out"}));
  ASSERT_EQ(shallow.findings.size(), 1U);
  EXPECT_EQ(shallow.findings[0].details.back(),
            "searched to depth 1; k-induction: not inductive up to k = 6");
  o.depth = 12;
  const Result deep = l->engine->check(o, Questions{});
  ASSERT_EQ(deep.findings.size(), 1U);
  EXPECT_EQ(deep.findings[0].verdict, properties::Verdict::violated);
  ASSERT_TRUE(deep.findings[0].trace);
  EXPECT_EQ(deep.findings[0].trace->size(), 10U);
  EXPECT_TRUE(l->sem->replay(*deep.findings[0].trace).ok);
}

TEST(Bmc, IcPdrRefutesADeadlockBeyondKInductionWithAShortestTrace) {
  // late-deadlock.yaml deadlocks 10 moves in: beyond BMC's depth 1 and the
  // base case's 6 moves. IC3/PDR says a deadlock is reachable, and BMC
  // finds its shortest trace.
  const auto l = load_engine("tests/fixtures/smt/late-deadlock.yaml");
  Options o = small(6);
  o.depth = 1;
  o.pdr_seconds = 120;
  const Result r = l->engine->check(o, Questions{});
  ASSERT_EQ(r.findings.size(), 1U);
  EXPECT_EQ(r.findings[0].verdict, properties::Verdict::violated);
  ASSERT_TRUE(r.findings[0].trace);
  EXPECT_EQ(r.findings[0].trace->size(), 10U);
  EXPECT_TRUE(l->sem->replay(*r.findings[0].trace).ok);
  EXPECT_EQ(r.findings[0].details.back(),
            "found by IC3/PDR, its trace by bounded model checking at depth 10 (beyond the "
            "bounded model checking depth 1)");
}

TEST(Bmc, KInductionBaseCaseReportsADeadlockBeyondTheDepth) {
  // no-pass deadlocks 2 moves in: BMC to depth 1 misses it, the base case
  // of k-induction reaches it, with the same shortest trace.
  const auto l = load_engine("tests/fixtures/findings/deadlock/no-pass.yaml");
  Options o = small(6);
  o.depth = 1;
  const Result r = l->engine->check(o, Questions{});
  ASSERT_EQ(r.findings.size(), 1U);
  EXPECT_EQ(r.findings[0].verdict, properties::Verdict::violated);
  ASSERT_TRUE(r.findings[0].trace);
  EXPECT_EQ(r.findings[0].trace->size(), 2U);
  EXPECT_EQ(r.findings[0].details.back(),
            "found by the base case of k-induction at depth 2 (beyond the bounded model "
            "checking depth 1)");
  // Without induction it is unknown.
  o.induction = false;
  const Result open = l->engine->check(o, Questions{});
  ASSERT_EQ(open.findings.size(), 1U);
  EXPECT_EQ(open.findings[0].verdict, properties::Verdict::unknown);
}

TEST(Decoding, AStateSequenceThatIsNotAMoveIsAnInternalError) {
  const auto l = load_engine("tests/fixtures/findings/deadlock/no-pass.yaml");
  const auto initial = l->sem->initial_states();
  ASSERT_FALSE(initial.empty());
  // An initial state followed by itself: no move of the semantics stays put.
  try {
    (void)trace_through(*l->sem, {initial[0], initial[0]});
    ADD_FAILURE() << "expected an internal error";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  "loophole: internal error: an smt counterexample does not replay: move 1", 0),
              0U)
        << e.what();
  }
  // A real move decodes.
  std::vector<checker::Successor> succ;
  l->sem->successors(initial[0], succ, true);
  ASSERT_FALSE(succ.empty());
  EXPECT_EQ(trace_through(*l->sem, {initial[0], succ[0].state}).size(), 1U);
}

TEST(StaticChecks, FindPlantedDeadGuardsAndContradictoryEffects) {
  const auto l = load_engine("tests/fixtures/smt/dead-guard.yaml");
  std::vector<std::string> got;
  for (const auto& f : l->engine->static_checks(small(1), {}, false)) {
    EXPECT_EQ(f.engine, "smt");
    got.push_back(describe(f));
  }
  EXPECT_EQ(got, (std::vector<std::string>{
                     "dead-rule violated action:overcharge 36:12 'overcharge' (speed 1) can "
                     "never be taken: its guard holds in no state",
                     "dead-rule violated trigger:alarm 41:12 trigger 'alarm' can never fire: its "
                     "condition holds in no state",
                     "dead-rule violated step:main.reset 18:13 contradictory effects: 'level' is "
                     "set twice in one step, to different values",
                 }));
}

// 'big * 4' with big = 2^62 leaves 64 bits: the SMT encoding (unbounded
// Int terms) finds the overflow gap where the explicit engine does, at the
// expression, with a one-move trace; INT64_MIN / -1, % -1, abs, unary minus,
// + and - at the bounds and a sum's running total are gaps too (one action
// each): every site reached within two moves.
TEST(Overflow, IsARuleGapOnTheSmtEngineAtTheExpression) {
  const auto l = load_engine("tests/fixtures/findings/rule-gap/overflow.yaml");
  ASSERT_TRUE(l->engine);
  Options o = small(1);
  o.induction = false;
  o.completeness = false;
  std::vector<std::string> gaps;
  for (const auto& f : l->engine->check(o, Questions{}).findings) {
    if (f.kind != properties::Kind::rule_gap || f.verdict != properties::Verdict::violated)
      continue;
    gaps.push_back(describe(f) + " | trace " + (f.trace ? std::to_string(f.trace->size()) : "-"));
  }
  EXPECT_EQ(gaps, (std::vector<std::string>{"rule-gap violated step:main.bonus 16:19 "
                                            "integer overflow in 'big * 4' | trace 1"}));

  const auto ops = load_engine("tests/fixtures/semantics/overflow-ops.yaml");
  ASSERT_TRUE(ops->engine);
  std::set<std::string> reached;
  for (const auto& f : ops->engine->check(o, Questions{}).findings) {
    if (f.kind == properties::Kind::rule_gap && f.verdict == properties::Verdict::violated) {
      reached.insert(f.rule);
    }
  }
  EXPECT_EQ(reached,
            (std::set<std::string>{"action:absolute", "action:divide", "action:looped",
                                   "action:minus", "action:negative", "action:plus",
                                   "action:remainder", "action:times", "action:unrolled"}));
}

TEST(StaticChecks, CandidateGapsAreConfirmedOrRefutedBySearch) {
  const auto l = load_engine("tests/fixtures/smt/unreachable-gap.yaml");
  Options deep = small(1);
  deep.depth = 20;
  const Result r = l->engine->check(deep, Questions{});
  ASSERT_TRUE(r.statistics.complete);
  const auto statics = l->engine->static_checks(small(1), r.findings, r.statistics.complete);
  std::size_t candidates = 0;
  for (const auto& f : statics) {
    if (f.kind != properties::Kind::rule_gap) continue;
    ++candidates;
    // 'coins += 2' is a candidate, and search refutes it.
    EXPECT_EQ(f.verdict, properties::Verdict::holds) << describe(f);
    EXPECT_EQ(f.details.back(),
              "refuted: no reachable state leads here (a complete search, or k-induction)");
  }
  EXPECT_EQ(candidates, 1U);
}

// A candidate the search confirmed is the search's finding already: the
// static checks do not report it again (issue 33: an error and a "candidate
// ... confirmed" note with the same trace). Unconfirmed after an incomplete
// search, it is an open candidate.
TEST(StaticChecks, AConfirmedCandidateIsReportedOnceByTheSearch) {
  const auto g = load_engine("tests/fixtures/smt/confirmed-gap.yaml");
  const Result rg = g->engine->check(small(1), Questions{});
  std::vector<std::string> searched;
  for (const auto& f : rg.findings) {
    if (f.kind != properties::Kind::rule_gap) continue;
    searched.push_back(describe(f) + " | trace " +
                       (f.trace ? std::to_string(f.trace->size()) : "-"));
  }
  EXPECT_EQ(searched, (std::vector<std::string>{"rule-gap violated step:main.draw 20:13 draw "
                                                "from an empty deck | trace 1"}));
  ASSERT_TRUE(rg.statistics.complete);
  // The first draw's candidates are refuted; the second draw's empty deck
  // is not reported again.
  std::vector<std::string> statics;
  for (const auto& f : g->engine->static_checks(small(1), rg.findings, rg.statistics.complete)) {
    statics.push_back(describe(f));
  }
  EXPECT_EQ(statics, (std::vector<std::string>{
                         "rule-gap holds step:main.draw 19:13 candidate rule gap: draw from an "
                         "empty deck",
                         "rule-gap holds step:main.draw 19:13 candidate rule gap: draw overfills "
                         "the hand or draws a negative count",
                     }));
  std::vector<std::string> open;
  for (const auto& f : g->engine->static_checks(small(1), {}, false)) {
    EXPECT_EQ(f.details.back(),
              "neither confirmed nor refuted: the search did not cover every reachable state");
    open.push_back(describe(f));
  }
  EXPECT_EQ(open, (std::vector<std::string>{
                      "rule-gap unknown step:main.draw 19:13 candidate rule gap: draw from an "
                      "empty deck",
                      "rule-gap unknown step:main.draw 19:13 candidate rule gap: draw overfills "
                      "the hand or draws a negative count",
                      "rule-gap unknown step:main.draw 20:13 candidate rule gap: draw from an "
                      "empty deck",
                  }));
}

// Issue 33: a fire between two assignments whose trigger reads the variable
// when the event fires sees the first value: not a contradiction. The
// fixture is clean for the static checks.
TEST(StaticChecks, AFireWhoseTriggerReadsTheVariableKeepsTheFirstAssignment) {
  const auto l = load_engine("tests/fixtures/smt/fire-reads-flag.yaml");
  std::vector<std::string> got;
  for (const auto& f : l->engine->static_checks(small(1), {}, false)) got.push_back(describe(f));
  EXPECT_EQ(got, std::vector<std::string>{});
}

// "in one step" only of steps; an action's or a trigger's effect is named.
TEST(StaticChecks, ContradictionsSayWhereTheStatementsRun) {
  const auto l = load_engine("tests/fixtures/smt/contradiction-places.yaml");
  std::vector<std::string> got;
  for (const auto& f : l->engine->static_checks(small(1), {}, false)) {
    got.push_back(describe(f) + " | " + f.details.back());
  }
  const std::string at =
      std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/smt/contradiction-places.yaml:";
  EXPECT_EQ(got, (std::vector<std::string>{
                     "dead-rule violated step:main.finish 24:13 contradictory effects: 'mark' is "
                     "set twice in one step, to different values | the first assignment, at " +
                         at + "23:13, is always overwritten",
                     "dead-rule violated action:stamp 40:7 contradictory effects: 'mark' is set "
                     "twice in the effect of 'stamp', to different values | the first "
                     "assignment, at " +
                         at + "38:7, is always overwritten",
                     "dead-rule violated action:gamble 47:7 contradictory effects: the same "
                     "player both wins and loses in the effect of 'gamble' | the game ends at " +
                         at + "46:7; this statement never runs",
                     "dead-rule violated trigger:restamp 58:7 contradictory effects: 'mark' is "
                     "set twice in the effect of trigger 'restamp', to different values | the "
                     "first assignment, at " +
                         at + "57:7, is always overwritten",
                 }));
}

// symbolic_scope over deck = 1..4 of tests/fixtures/smt/scope-deck.yaml;
// `kept` keeps the loaded games (which the findings point into) alive.
ScopeResult scope_deck(int depth, std::vector<std::unique_ptr<EngineGame>>& kept,
                       bool layers_past_depth = false) {
  const auto load_value = [&](std::int64_t v) -> const model::Game* {
    kept.push_back(load_engine("tests/fixtures/smt/scope-deck.yaml", {{"deck", v}}));
    return kept.back()->game ? &*kept.back()->game : nullptr;
  };
  const Questions sel;
  Options o = small(1);
  o.depth = depth;
  o.layers_past_depth = layers_past_depth;
  return symbolic_scope("deck", 1, 4, load_value, o, sel);
}

TEST(SymbolicScope, FindsTheValuesAtWhichAGapAppears) {
  std::vector<std::unique_ptr<EngineGame>> kept;
  const ScopeResult r = scope_deck(8, kept);
  EXPECT_EQ(r.checked, (std::vector<std::int64_t>{1, 2, 3, 4}));
  std::vector<std::string> got;
  for (const auto& a : r.answers) got.push_back(a.rule + ": " + a.summary);
  EXPECT_EQ(got, (std::vector<std::string>{
                     "end:three_in_hand/P1: deck <= 2",
                     "end:three_in_hand/P2: for every deck in 1..4",
                     "step:main.draw: deck <= 2",
                 }));
}

TEST(SymbolicScope, ADepthTooShallowLeavesValuesUnsettledNotClean) {
  std::vector<std::unique_ptr<EngineGame>> kept;
  const ScopeResult r = scope_deck(2, kept);  // the gap at deck <= 2 is 3 moves in
  EXPECT_EQ(r.depth, 2);
  EXPECT_EQ(r.unsettled, (std::vector<std::int64_t>{1, 2, 3, 4}));
  std::vector<std::string> got;
  for (const auto& a : r.answers) got.push_back(a.rule + ": " + a.summary);
  for (const auto& a : r.open) got.push_back("unknown " + a.rule + ": " + a.summary);
  // The real gap (deck <= 2, 3 moves in) is not lost: rule gaps stay
  // unknown at every value, and what was found is qualified by the depth.
  EXPECT_EQ(got, (std::vector<std::string>{
                     "end:three_in_hand/P1: deck <= 2 within depth 2",
                     "end:three_in_hand/P2: deck <= 2 within depth 2",
                     "unknown rule-gap: for every deck in 1..4",
                     "unknown end:three_in_hand/P1: deck >= 3",
                     "unknown end:three_in_hand/P2: deck >= 3",
                 }));
}

// --symbolic's layers past the depth (Options::layers_past_depth): every
// value's reachable states fit in the layers, whose search is complete past
// depth 2, so each value is settled with the answers of depth 8 (the gap
// 3 moves in, found, with its shortest trace), none qualified by the depth.
TEST(SymbolicScope, TheLayersPastTheDepthSettleEveryValueWhoseStatesFit) {
  std::vector<std::unique_ptr<EngineGame>> kept;
  const ScopeResult r = scope_deck(2, kept, true);
  EXPECT_GT(r.depth, 2);
  EXPECT_EQ(r.checked, (std::vector<std::int64_t>{1, 2, 3, 4}));
  EXPECT_TRUE(r.unsettled.empty());
  EXPECT_TRUE(r.open.empty());
  std::vector<std::string> got;
  for (const auto& a : r.answers) {
    got.push_back(a.rule + ": " + a.summary +
                  (a.first.trace ? " (" + std::to_string(a.first.trace->size()) + " moves)" : ""));
  }
  EXPECT_EQ(got, (std::vector<std::string>{
                     "end:three_in_hand/P1: deck <= 2",
                     "end:three_in_hand/P2: for every deck in 1..4",
                     "step:main.draw: deck <= 2 (3 moves)",
                 }));
}

// symbolic_scope over top = 8..10 of tests/fixtures/smt/scope-lockstep.yaml:
// "no rule gap" holds at every value but is not k-inductive up to k = 6;
// IC3/PDR proves it at each value, so no value stays unsettled.
TEST(SymbolicScope, IcPdrProvesForEveryValueWhatKInductionLeavesOpen) {
  std::vector<std::unique_ptr<EngineGame>> kept;
  const auto load_value = [&](std::int64_t v) -> const model::Game* {
    kept.push_back(load_engine("tests/fixtures/smt/scope-lockstep.yaml", {{"top", v}}));
    return kept.back()->game ? &*kept.back()->game : nullptr;
  };
  Options o = small(6);
  o.depth = 2;
  const ScopeResult open = symbolic_scope("top", 8, 10, load_value, o, Questions{});
  EXPECT_EQ(open.unsettled, (std::vector<std::int64_t>{8, 9, 10}));
  ASSERT_EQ(open.open.size(), 1U);
  EXPECT_EQ(open.open[0].rule + ": " + open.open[0].summary, "rule-gap: for every top in 8..10");
  EXPECT_EQ(open.open[0].first.details.back(),
            "searched to depth 2; k-induction: not inductive up to k = 6");
  o.pdr_seconds = 120;
  const ScopeResult r = symbolic_scope("top", 8, 10, load_value, o, Questions{});
  EXPECT_EQ(r.checked, (std::vector<std::int64_t>{8, 9, 10}));
  EXPECT_TRUE(r.unsettled.empty());
  EXPECT_TRUE(r.open.empty());
  EXPECT_TRUE(r.answers.empty());
}

TEST(SymbolicScope, Summaries) {
  EXPECT_EQ(summarise_values("deck", {1, 2}, 1, 6), "deck <= 2");
  EXPECT_EQ(summarise_values("deck", {3, 4, 5, 6}, 1, 6), "deck >= 3");
  EXPECT_EQ(summarise_values("deck", {4}, 1, 6), "deck == 4");
  EXPECT_EQ(summarise_values("deck", {2, 3}, 1, 6), "deck in 2..3");
  EXPECT_EQ(summarise_values("deck", {1, 3}, 1, 6), "deck in {1, 3}");
}

}  // namespace
}  // namespace loophole::smt
