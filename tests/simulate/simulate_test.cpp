// The simulator on fixtures with known answers: a win rate computed by hand
// (and the card weighting it depends on), results identical for any thread
// count, every problem met with a trace that replays on the reference
// semantics, rule-use counts of a game whose moves are all forced, and the
// greedy policy on a race it always wins.
#include "loophole/simulate/simulate.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "loophole/reports/simulation.hpp"

#include "../common/loaded_game.hpp"
#include "../common/native_cache.hpp"
#include "potential.hpp"

namespace loophole::simulate {
namespace {

using test_support::LoadedGame;

std::unique_ptr<LoadedGame> load(const std::string& path) {
  auto l = test_support::load_game(path, {.with_semantics = true});
  EXPECT_TRUE(l->game) << l->diagnostics();
  return l;
}

// hand-limit.yaml never ends: its games are cut off at max_moves.
Result run(const LoadedGame& l, std::uint64_t games, int threads, Policy policy = Policy::uniform,
           std::uint64_t seed = 7, std::uint32_t max_moves = 300) {
  Options o;
  o.max_moves = max_moves;
  o.games = games;
  o.seed = seed;
  o.threads = threads;
  o.policy = policy;
  return simulate(*l.sem, o);
}

std::string json_of(const LoadedGame& l, const Result& r) {
  reports::SimulationReport report;
  report.file = "f.yaml";
  report.model = &*l.game;
  report.result = r;
  return reports::render_simulation_json(report, false);
}

const Usage& usage(const std::vector<Usage>& list, const std::string& rule) {
  for (const auto& u : list) {
    if (u.rule == rule) return u;
  }
  throw std::runtime_error("no usage of " + rule);
}

TEST(Wilson, KnownIntervals) {
  const Interval none = wilson(0, 0);
  EXPECT_EQ(none.lo, 0);
  EXPECT_EQ(none.hi, 1);
  // 50 of 100: 0.4038 .. 0.5962 (Wilson 1927, z = 1.96).
  const Interval half = wilson(50, 100);
  EXPECT_NEAR(half.lo, 0.40383, 1e-4);
  EXPECT_NEAR(half.hi, 0.59617, 1e-4);
  const Interval zero = wilson(0, 10);
  EXPECT_EQ(zero.lo, 0);
  EXPECT_NEAR(zero.hi, 0.27753, 1e-4);
}

// P1 wins with probability 3/8 exactly (biased.yaml); drawing uniformly
// over card kinds instead of cards would give 1/4.
TEST(Simulate, BiasedWinRateInItsInterval) {
  const auto l = load("tests/fixtures/simulate/biased.yaml");
  const Result r = run(*l, 20000, 2);
  ASSERT_EQ(r.games, 20000u);
  EXPECT_EQ(r.ended, 20000u);
  EXPECT_EQ(r.gaps + r.deadlocks + r.cut_off + r.no_winner, 0u);
  EXPECT_EQ(r.wins[0] + r.wins[1], 20000u);
  EXPECT_EQ(r.losses[0], r.wins[1]);
  const Interval p1 = wilson(r.wins[0], r.games);
  EXPECT_LE(p1.lo, 3.0 / 8) << r.wins[0];
  EXPECT_GE(p1.hi, 3.0 / 8) << r.wins[0];
  EXPECT_GT(p1.lo, 1.0 / 4) << "the draw is not weighted by the cards in the deck";
  const Interval p2 = wilson(r.wins[1], r.games);
  EXPECT_LE(p2.lo, 5.0 / 8);
  EXPECT_GE(p2.hi, 5.0 / 8);
  // claim or fold: one each game, each about half the time.
  EXPECT_EQ(usage(r.actions, "action:claim").uses + usage(r.actions, "action:fold").uses, 20000u);
  // Every game: start, draw's effects, leave draw, enter bet, P1's action.
  EXPECT_EQ(r.min_length, r.max_length);
  EXPECT_TRUE(r.problems.empty());
}

TEST(Simulate, SameResultsForAnyThreadCount) {
  for (const char* path :
       {"tests/fixtures/simulate/biased.yaml", "tests/fixtures/simulate/gap.yaml",
        "tests/fixtures/findings/deadlock/no-answer.yaml",
        "tests/fixtures/findings/property-violation/hand-limit.yaml"}) {
    const auto l = load(path);
    const std::string one = json_of(*l, run(*l, 1000, 1));
    EXPECT_EQ(one, json_of(*l, run(*l, 1000, 2))) << path;
    EXPECT_EQ(one, json_of(*l, run(*l, 1000, 3))) << path;
    // ... and another seed gives other games.
    if (std::string(path).find("biased") != std::string::npos) {
      EXPECT_NE(one, json_of(*l, run(*l, 1000, 1, Policy::uniform, 8)));
    }
  }
}

// The rules as machine code play the same games (when the system's C
// compiler is there: Result::generator says "native").
TEST(Simulate, NativeCodePlaysTheSameGames) {
  checker::testing::use_test_native_cache();
  for (const char* path :
       {"tests/fixtures/simulate/biased.yaml", "tests/fixtures/simulate/risky.yaml"}) {
    const auto l = load(path);
    Options o;
    o.games = 2000;
    o.seed = 3;
    o.policy = Policy::greedy;
    const Result interpreted = simulate(*l->sem, o);
    o.native = true;
    const Result native = simulate(*l->sem, o);
    if (native.generator != "native") GTEST_SKIP() << native.generator;
    EXPECT_EQ(json_of(*l, interpreted), json_of(*l, native)) << path;
  }
}

// Every problem comes with a trace that replays on the reference semantics
// to the state where it was met.
void expect_replays(const LoadedGame& l, const properties::Finding& f) {
  ASSERT_TRUE(f.trace) << f.message;
  const auto replay = l.sem->replay(*f.trace);
  ASSERT_TRUE(replay.ok) << replay.error;
  EXPECT_EQ(f.engine, "simulate");
}

TEST(Simulate, RuleGapMetWithATraceThatReplays) {
  const auto l = load("tests/fixtures/simulate/gap.yaml");
  const Result r = run(*l, 500, 2);
  EXPECT_EQ(r.gaps, 500u);  // sooner or later a second 'spend'
  ASSERT_EQ(r.problems.size(), 1u);
  const auto& f = r.problems[0];
  EXPECT_EQ(f.kind, properties::Kind::rule_gap);
  EXPECT_EQ(f.rule, "action:spend");
  EXPECT_EQ(r.problem_games[0], 500u);
  expect_replays(*l, f);
  const auto replay = l->sem->replay(*f.trace);
  EXPECT_EQ(replay.states.back()[static_cast<std::size_t>(l->sem->layout().over)], 2);
  // The trace is the whole game: its length is that game's.
  EXPECT_GE(f.trace->steps.size(), r.min_length);
  EXPECT_LE(f.trace->steps.size(), r.max_length);
}

TEST(Simulate, DeadlockAndPropertyViolationMet) {
  {
    const auto l = load("tests/fixtures/findings/deadlock/no-answer.yaml");
    const Result r = run(*l, 200, 1);
    EXPECT_GT(r.deadlocks, 0u);
    ASSERT_FALSE(r.problems.empty());
    EXPECT_EQ(r.problems[0].kind, properties::Kind::deadlock);
    EXPECT_EQ(r.problems[0].message,
              "in 'main · play', P2 holds priority and can neither act nor pass");
    expect_replays(*l, r.problems[0]);
    const auto replay = l->sem->replay(*r.problems[0].trace);
    std::vector<checker::Successor> next;
    l->sem->successors(replay.states.back(), next);
    EXPECT_TRUE(next.empty());
    EXPECT_FALSE(l->sem->is_final(replay.states.back()));
  }
  {
    const auto l = load("tests/fixtures/findings/property-violation/hand-limit.yaml");
    const Result r = run(*l, 200, 1);
    ASSERT_FALSE(r.problems.empty());
    bool found = false;
    for (const auto& f : r.problems) {
      if (f.kind != properties::Kind::property_violation) continue;
      found = true;
      expect_replays(*l, f);
      // The trace ends in the first state where the property fails.
      const auto replay = l->sem->replay(*f.trace);
      const model::Property* p = nullptr;
      for (const auto& q : l->game->properties) {
        if ("property:" + q.name == f.rule) p = &q;
      }
      ASSERT_NE(p, nullptr);
      const bool holds = l->sem->holds(*p->expr, replay.states.back(), -1);
      EXPECT_EQ(holds, p->kind == model::Property::Kind::never);
    }
    EXPECT_TRUE(found);
  }
}

// forced.yaml: every move is forced, so every game is the same: P1 draws in
// turns 1, 3, 5 and P2 in 2 and 4; P1's deck is empty after the third
// draw, 'done' ends the game before that step ends. So 'draw' is entered 5
// times, 'idle' 4, 'count_up' resolves 4 times (end of 'draw', turns 1-4).
TEST(Simulate, ForcedGameUsageCounts) {
  const auto l = load("tests/fixtures/simulate/forced.yaml");
  const Result r = run(*l, 100, 2);
  ASSERT_EQ(r.games, 100u);
  EXPECT_EQ(r.wins[0], 100u);
  EXPECT_EQ(usage(r.steps, "step:main.draw").uses, 500u);
  EXPECT_EQ(usage(r.steps, "step:main.draw").games, 100u);
  EXPECT_EQ(usage(r.steps, "step:main.idle").uses, 400u);
  EXPECT_EQ(usage(r.triggers, "trigger:count_up").uses, 400u);
  EXPECT_EQ(usage(r.triggers, "trigger:count_up").games, 100u);
  EXPECT_EQ(r.min_length, r.max_length);
  EXPECT_EQ(r.lengths[r.min_length], 100u);
  EXPECT_TRUE(reports::unused_rules(r).empty());
}

TEST(Simulate, GreedyAlwaysGainsAndWinsTheRace) {
  const auto l = load("tests/fixtures/simulate/race.yaml");
  const Result greedy = run(*l, 500, 2, Policy::greedy);
  EXPECT_EQ(greedy.wins[0], 500u);
  EXPECT_EQ(usage(greedy.actions, "action:idle").uses, 0u);
  const Result uniform = run(*l, 500, 2, Policy::uniform);
  EXPECT_GT(uniform.wins[1], 0u);
  EXPECT_GT(usage(uniform.actions, "action:idle").uses, 0u);
}

// A player's pick as a state's only move: greedy takes the best outcome.
TEST(Simulate, GreedyPicksTheBestOutcome) {
  const auto l = load("tests/fixtures/simulate/pick-race.yaml");
  const Result greedy = run(*l, 300, 2, Policy::greedy);
  EXPECT_EQ(greedy.wins[0], 300u);
  EXPECT_EQ(greedy.min_length, greedy.max_length);  // 2 + 2 + 2: the same game every time
  const Result uniform = run(*l, 300, 2, Policy::uniform);
  EXPECT_GT(uniform.wins[1], 0u);
  EXPECT_LT(uniform.min_length, uniform.max_length);
}

// The greedy policy's yardstick follows the state's turn order: P1 loses
// when its opponent (the next player: P2, or P3 once the order is reversed)
// reaches 3. With score[P2] = 2 and score[P3] = 0, P1's potential is how
// far that loss is: 1 in the forward order, 3 reversed; P3 gains by P1's
// loss, so its potential is the negation. A potential that took the next
// player as +1 read 1 (and -1) in both orders.
TEST(Potential, OpponentFollowsTheTurnOrder) {
  const auto l = load("tests/fixtures/simulate/reversed-opponent.yaml");
  const checker::Layout& layout = l->sem->layout();
  const auto field = [&](const std::string& name) {
    for (std::size_t i = 0; i < layout.fields.size(); ++i) {
      if (layout.fields[i].name == name) return static_cast<int>(i);
    }
    ADD_FAILURE() << "no field " << name;
    return 0;
  };
  const detail::Potential potential(*l->game, layout);
  checker::StateVec s = l->sem->initial_states().at(0);
  ASSERT_EQ(s[static_cast<std::size_t>(layout.active)], 0);
  s[static_cast<std::size_t>(field("score[P2]"))] = 2;
  const auto order = static_cast<std::size_t>(field("ctl.order"));
  ASSERT_EQ(s[order], 0);
  EXPECT_EQ(potential.of(s.data(), 0), 1);  // score[P2] - 3 = -1, not P1's favour
  s[order] = 1;
  EXPECT_EQ(potential.of(s.data(), 0), 3);  // score[P3] - 3 = -3
  EXPECT_EQ(potential.of(s.data(), 2), -3);
}

TEST(Simulate, CutOffAtTheMoveCap) {
  const auto l = load("tests/fixtures/simulate/race.yaml");
  Options o;
  o.games = 50;
  o.max_moves = 3;
  const Result r = simulate(*l->sem, o);
  EXPECT_EQ(r.cut_off, 50u);
  EXPECT_EQ(r.max_length, 3u);
  EXPECT_EQ(r.max_moves, 3u);
}

TEST(Simulate, InterruptStopsWithWhatWasPlayed) {
  const auto l = load("tests/fixtures/simulate/race.yaml");
  const std::atomic<bool> stop{true};
  Options o;
  o.games = 1000000;
  o.interrupt = &stop;
  const Result r = simulate(*l->sem, o);
  EXPECT_EQ(r.completion, "interrupted");
  EXPECT_LT(r.games, 1000000u);
}

}  // namespace
}  // namespace loophole::simulate
