// BMC's depths answered by breadth-first layers of the encoded relation
// (checker/smt/src/layers.hpp, Options::layer_states): the same answers as
// BMC's queries at every depth, the layers are the explicit engine's states,
// the search is complete at the deepest state's distance (where BMC waits for
// the longest simple path), and past the budget BMC takes over at the depth
// the layers reached.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/smt/engine.hpp"

#include "loaded_game.hpp"
#include "sanitized.hpp"

namespace loophole::smt {
namespace {

struct LayeredGame : test_support::LoadedGame {
  std::uint64_t states = 0;  // reachable, by the explicit engine (concrete states)
  int deepest = 0;           // the largest distance of a state, in moves
};

std::unique_ptr<LayeredGame> load(const std::string& rel,
                                  const std::map<std::string, std::int64_t>& params = {}) {
  auto l = std::make_unique<LayeredGame>();
  test_support::load_into(*l, std::string(LOOPHOLE_SOURCE_DIR) + "/" + rel,
                          {.params = params, .with_semantics = true});
  EXPECT_TRUE(l->game) << l->diagnostics();
  if (!l->game) return l;
  checker::ExplicitOptions eo;
  eo.threads = 1;
  eo.symmetry = false;  // every concrete state, as the layers hold them
  const auto graph = checker::explore(*l->sem, eo);
  l->states = graph->statistics().states;
  l->deepest = static_cast<int>(graph->statistics().depth) - 1;
  return l;
}

// One line per finding: kind, verdict, rule, message and trace length.
std::vector<std::string> lines(const Result& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings) {
    out.push_back(std::string(checker::to_string(f.kind)) + " " +
                  std::string(checker::to_string(f.verdict)) + " " + f.rule + " " + f.message +
                  (f.trace ? " (" + std::to_string(f.trace->size()) + " moves)" : ""));
  }
  return out;
}

Result run(const LayeredGame& l, int depth, std::size_t layer_states,
           std::uint64_t max_memory_bytes = 0, bool past_depth = false) {
  Engine engine(*l.sem);
  Options o;
  o.depth = depth;
  o.induction = false;
  o.timeout_ms = 30000;
  o.layer_states = layer_states;
  o.max_memory_bytes = max_memory_bytes;
  o.layers_past_depth = past_depth;
  return engine.check(o, Questions{});
}

TEST(Layers, CompleteAtTheDeepestStateWithTheSameAnswersAsBmc) {
  // Every state lies within 6 moves; the longest simple path has 8.
  const auto l = load("tests/fixtures/findings/deadlock/clean.yaml");
  ASSERT_TRUE(l->game);
  ASSERT_EQ(l->deepest, 6);
  const Result layers = run(*l, 12, default_layer_states);
  EXPECT_TRUE(layers.statistics.complete);
  EXPECT_EQ(layers.statistics.depth, 6);
  EXPECT_EQ(layers.statistics.layer_depth, 6);
  EXPECT_EQ(layers.statistics.layer_states, l->states);
  const Result bmc = run(*l, 12, 0);
  EXPECT_TRUE(bmc.statistics.complete);
  EXPECT_EQ(bmc.statistics.depth, 8);
  EXPECT_EQ(bmc.statistics.layer_depth, -1);
  EXPECT_EQ(lines(layers), lines(bmc));
}

TEST(Layers, SettleWhatBmcLeavesUnknownWithinTheDepth) {
  // Every state lies within 12 moves, but simple paths go on past 12: BMC
  // to depth 12 is not complete and leaves deadlocks and rule gaps open;
  // the layers are complete and settle them (none).
  const auto l = load("tests/fixtures/findings/turn-loop/volley.yaml");
  ASSERT_TRUE(l->game);
  ASSERT_EQ(l->deepest, 12);
  const Result bmc = run(*l, 12, 0);
  EXPECT_FALSE(bmc.statistics.complete);
  EXPECT_EQ(lines(bmc),
            (std::vector<std::string>{
                "deadlock unknown deadlock no deadlock within depth 12; deeper ones are not "
                "ruled out",
                "rule-gap unknown rule-gap no rule gap within depth 12; deeper ones are not ruled "
                "out"}));
  const Result layers = run(*l, 12, default_layer_states);
  EXPECT_TRUE(layers.statistics.complete);
  EXPECT_EQ(layers.statistics.depth, 12);
  EXPECT_EQ(layers.statistics.layer_states, l->states);
  EXPECT_EQ(lines(layers), std::vector<std::string>{});
}

TEST(Layers, BmcTakesOverPastTheBudgetWithTheSameAnswers) {
  // The deadlock lies 10 moves in; with room for a few states the layers
  // answer the first depths and BMC the rest.
  const auto l = load("tests/fixtures/smt/late-deadlock.yaml");
  ASSERT_TRUE(l->game);
  const Result all = run(*l, 12, default_layer_states);
  const Result bmc = run(*l, 12, 0);
  const Result both = run(*l, 12, 4);
  EXPECT_EQ(all.statistics.layer_depth, 10);
  EXPECT_GE(both.statistics.layer_depth, 0);
  EXPECT_LT(both.statistics.layer_depth, 10);
  EXPECT_LE(both.statistics.layer_states, 4U);
  EXPECT_EQ(lines(all), lines(bmc));
  EXPECT_EQ(lines(both), lines(bmc));
  ASSERT_EQ(lines(bmc).size(), 1U);
  EXPECT_NE(lines(bmc)[0].find("(10 moves)"), std::string::npos) << lines(bmc)[0];
  // Each finding says which search found it: the layers or BMC's query.
  const auto found = [](const Result& r) {
    std::vector<std::string> got;
    for (const auto& f : r.findings) {
      for (const auto& d : f.details) {
        if (d.starts_with("found by")) got.push_back(d);
      }
    }
    return got;
  };
  EXPECT_EQ(found(all), std::vector<std::string>{"found by breadth-first search at depth 10"});
  EXPECT_EQ(found(bmc), std::vector<std::string>{"found by bounded model checking at depth 10"});
  EXPECT_EQ(found(both), std::vector<std::string>{"found by bounded model checking at depth 10"});
  EXPECT_TRUE(all.statistics.complete);
  EXPECT_TRUE(both.statistics.complete);
  EXPECT_EQ(all.statistics.depth, both.statistics.depth);
}

TEST(Layers, PastTheDepthUnderSymbolicOnlyTheLayersAnswer) {
  // Options::layers_past_depth (--symbolic): at --depth 1 the layers go on
  // to their complete depth and find the deadlock 10 moves in, with BMC's
  // answer at depth 12; with room for 4 states they stop past the depth
  // and BMC does not take over there: the search ends where they did.
  const auto l = load("tests/fixtures/smt/late-deadlock.yaml");
  ASSERT_TRUE(l->game);
  const Result bmc = run(*l, 12, 0);
  const Result past = run(*l, 1, default_layer_states, 0, true);
  EXPECT_TRUE(past.statistics.complete);
  EXPECT_EQ(past.statistics.depth, l->deepest);
  EXPECT_EQ(past.statistics.layer_depth, l->deepest);
  EXPECT_EQ(lines(past), lines(bmc));
  const Result cut = run(*l, 1, 4, 0, true);
  EXPECT_FALSE(cut.statistics.complete);
  EXPECT_GT(cut.statistics.depth, 1);
  EXPECT_LT(cut.statistics.depth, 10);
  EXPECT_EQ(cut.statistics.depth, cut.statistics.layer_depth);
  EXPECT_EQ(lines(cut),
            (std::vector<std::string>{"deadlock unknown deadlock no deadlock within depth " +
                                      std::to_string(cut.statistics.depth) +
                                      "; deeper ones are not ruled out"}));
}

TEST(Layers, TheirTablesCountAgainstTheMemoryLimit) {
  // The layers reserve what their tables hold with the engine, counted with
  // Z3's allocation against the memory limit: a limit above Z3's whole
  // allocation but below it plus the tables stops the run (memory_limit,
  // every question unknown) before the layers are done. Without the
  // reservation this run would be complete.
  const auto l = load("tests/fixtures/cli/big.yaml", {{"top", 39}});
  ASSERT_TRUE(l->game);
  const Result whole = run(*l, 1000, default_layer_states);
  ASSERT_TRUE(whole.statistics.complete);
  ASSERT_EQ(whole.statistics.layer_states, l->states);
  // Each state packed (one 64-bit word here), its parent and its slot in
  // the index.
  EXPECT_GE(whole.statistics.layer_bytes, l->states * 16);
  EXPECT_GT(whole.statistics.z3_bytes, 0U);
  const std::uint64_t limit = whole.statistics.z3_bytes + whole.statistics.layer_bytes / 2;
  const Result cut = run(*l, 1000, default_layer_states, limit);
  EXPECT_EQ(cut.statistics.stopped, Stop::memory_limit);
  EXPECT_FALSE(cut.statistics.complete);
  EXPECT_LT(cut.statistics.layer_depth, whole.statistics.layer_depth);
  EXPECT_EQ(lines(cut),
            (std::vector<std::string>{
                "deadlock unknown deadlock no deadlock within depth " +
                    std::to_string(cut.statistics.depth) + "; deeper ones are not ruled out",
                "rule-gap unknown rule-gap no rule gap within depth " +
                    std::to_string(cut.statistics.depth) + "; deeper ones are not ruled out",
                "unreachable-win unknown end:full/P1 P1 can never win by 'full'",
                "unreachable-win unknown end:full/P2 P2 can never win by 'full'"}));
}

// Under --symbolic the layers are not bound by --depth, so a run stopped
// past it says how deep they got without "of" the depth asked (which they
// went beyond): "searched to depth N; stopped by the memory limit".
TEST(Layers, AStopPastTheDepthSaysHowDeepTheLayersGot) {
  const auto l = load("tests/fixtures/cli/big.yaml", {{"top", 39}});
  ASSERT_TRUE(l->game);
  const Result whole = run(*l, 1, symbolic_layer_states, 0, true);
  ASSERT_TRUE(whole.statistics.complete);
  ASSERT_EQ(whole.statistics.layer_states, l->states);
  const std::uint64_t limit = whole.statistics.z3_bytes + whole.statistics.layer_bytes / 2;
  const Result cut = run(*l, 1, symbolic_layer_states, limit, true);
  EXPECT_EQ(cut.statistics.stopped, Stop::memory_limit);
  EXPECT_GT(cut.statistics.depth, 1);
  EXPECT_LT(cut.statistics.depth, whole.statistics.depth);
  ASSERT_FALSE(cut.findings.empty());
  const auto& deadlock = cut.findings.front();
  EXPECT_EQ(deadlock.rule, "deadlock");
  EXPECT_EQ(deadlock.message, "no deadlock within depth " + std::to_string(cut.statistics.depth) +
                                  "; deeper ones are not ruled out");
  EXPECT_EQ(deadlock.details,
            std::vector<std::string>{"searched to depth " + std::to_string(cut.statistics.depth) +
                                     "; stopped by the memory limit; k-induction: not tried"});
}

// --symbolic on tests/fixtures/smt/scope-deck.yaml (deck = 1..4): every
// value is settled by the layers' complete search on integers, each holding
// exactly the explicit engine's states (without symmetry); the rule gap at
// deck <= 2 is found with a shortest trace that replays, and each value
// says how it was settled.
TEST(Layers, SymbolicSettlesEveryValueByACompleteSearch) {
  std::vector<std::unique_ptr<LayeredGame>> kept;
  const auto load_value = [&](std::int64_t v) -> const model::Game* {
    kept.push_back(load("tests/fixtures/smt/scope-deck.yaml", {{"deck", v}}));
    return kept.back()->game ? &*kept.back()->game : nullptr;
  };
  Options o;
  o.depth = 1;
  o.timeout_ms = 30000;
  o.layers_past_depth = true;
  o.layer_states = symbolic_layer_states;
  o.pdr_seconds = 60;
  const ScopeResult r = symbolic_scope("deck", 1, 4, load_value, o, Questions{});
  ASSERT_EQ(kept.size(), 4U);
  EXPECT_TRUE(r.unsettled.empty());
  EXPECT_TRUE(r.open.empty());
  std::vector<std::string> got;
  for (std::size_t i = 0; i < r.values.size(); ++i) {
    const ScopeValue& v = r.values[i];
    EXPECT_EQ(v.states, kept[i]->states) << "deck = " << v.value;
    EXPECT_EQ(v.depth, kept[i]->deepest) << "deck = " << v.value;
    std::string line = "deck = " + std::to_string(v.value) + ": " + std::to_string(v.states) +
                       " states, depth " + std::to_string(v.depth) +
                       (v.complete ? ", complete" : "") + (v.settled ? ", settled" : "");
    for (const auto& how : v.settled_how) line += "; " + how.rule + ": " + how.how;
    got.push_back(line);
  }
  EXPECT_EQ(got, (std::vector<std::string>{
                     "deck = 1: 4 states, depth 3, complete, settled; deadlock: all 4 "
                     "reachable states searched, every one within 3 moves; rule-gap: all 4 "
                     "reachable states searched, every one within 3 moves",
                     "deck = 2: 6 states, depth 5, complete, settled; deadlock: all 6 "
                     "reachable states searched, every one within 5 moves; rule-gap: all 6 "
                     "reachable states searched, every one within 5 moves",
                     "deck = 3: 6 states, depth 5, complete, settled; deadlock: all 6 "
                     "reachable states searched, every one within 5 moves; rule-gap: all 6 "
                     "reachable states searched, every one within 5 moves",
                     "deck = 4: 6 states, depth 5, complete, settled; deadlock: all 6 "
                     "reachable states searched, every one within 5 moves; rule-gap: all 6 "
                     "reachable states searched, every one within 5 moves",
                 }));
  ASSERT_EQ(r.answers.size(), 3U);
  const ScopeAnswer& gap = r.answers.back();
  EXPECT_EQ(gap.rule + ": " + gap.summary, "step:main.draw: deck <= 2");
  EXPECT_EQ(gap.first_value, 1);
  ASSERT_TRUE(gap.first.trace);
  EXPECT_EQ(gap.first.trace->size(), 3U);
  const auto replayed = kept[0]->sem->replay(*gap.first.trace);
  EXPECT_TRUE(replayed.ok) << replayed.error;
  EXPECT_EQ(gap.first.details,
            std::vector<std::string>{"found by breadth-first search at depth 3"});
}

// issue 33's target at a small scope of a seed: --symbolic settles "no
// deadlock" and "no rule gap" for every value of cosmere's ace_copies
// (0..3, the others pinned small) by the layers' complete search on
// integers, each value's states exactly the explicit engine's.
TEST(Layers, SymbolicSettlesEveryAceCountOfCosmere) {
  LOOPHOLE_RELEASE_ONLY("four encodings of the seed and 394,595 states under ASan");
  std::vector<std::unique_ptr<LayeredGame>> kept;
  const auto load_value = [&](std::int64_t v) -> const model::Game* {
    kept.push_back(load("rulesets/cosmere.yaml", {{"face_copies", 1},
                                                  {"number_copies", 1},
                                                  {"hand_target", 2},
                                                  {"face_value", 1},
                                                  {"number_value", 1},
                                                  {"joker_value", 1},
                                                  {"max_counters", 1},
                                                  {"ace_copies", v}}));
    return kept.back()->game ? &*kept.back()->game : nullptr;
  };
  Options o;
  o.depth = 2;
  o.timeout_ms = 30000;
  o.layers_past_depth = true;
  o.layer_states = symbolic_layer_states;
  o.pdr_seconds = 60;
  const ScopeResult r = symbolic_scope("ace_copies", 0, 3, load_value, o, Questions{});
  ASSERT_EQ(kept.size(), 4U);
  EXPECT_TRUE(r.unsettled.empty());
  EXPECT_TRUE(r.open.empty());
  EXPECT_TRUE(r.answers.empty());
  std::vector<std::string> got;
  for (std::size_t i = 0; i < r.values.size(); ++i) {
    const ScopeValue& v = r.values[i];
    EXPECT_EQ(v.states, kept[i]->states) << "ace_copies = " << v.value;
    for (const auto& how : v.settled_how) {
      if (how.rule == "deadlock" || how.rule == "rule-gap") {
        got.push_back(std::to_string(v.value) + " " + how.rule + ": " + how.how);
      }
    }
  }
  const auto all = [](int v, const char* rule, int states, int moves) {
    return std::to_string(v) + " " + rule + ": all " + std::to_string(states) +
           " reachable states searched, every one within " + std::to_string(moves) + " moves";
  };
  EXPECT_EQ(got, (std::vector<std::string>{
                     all(0, "deadlock", 71, 17), all(0, "rule-gap", 71, 17),
                     all(1, "deadlock", 13758, 66), all(1, "rule-gap", 13758, 66),
                     all(2, "deadlock", 87811, 73), all(2, "rule-gap", 87811, 73),
                     all(3, "deadlock", 292955, 83), all(3, "rule-gap", 292955, 83)}));
}

TEST(Layers, CosmereSeventyOneStatesCompleteAtDepthSeventeen) {
  // issue 33's small-ruleset target: BMC alone needs 20 s of CPU (release)
  // to find the longest simple path at depth 17; the layers hold the 71
  // states, every one within 17 moves.
  LOOPHOLE_RELEASE_ONLY("the seed's encoding and 71 states under ASan");
  const auto l =
      load("rulesets/cosmere.yaml",
           {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}, {"ace_copies", 0}});
  ASSERT_TRUE(l->game);
  ASSERT_EQ(l->states, 71U);
  const Result r = run(*l, 20, default_layer_states);
  EXPECT_TRUE(r.statistics.complete);
  EXPECT_EQ(r.statistics.depth, 17);
  EXPECT_EQ(r.statistics.layer_states, 71U);
  EXPECT_EQ(lines(r), std::vector<std::string>{});
}

}  // namespace
}  // namespace loophole::smt
