// Engine agreement: the same fixtures through the explicit engine and the
// SMT engine, with the same expectations, compared as answers.hpp says
// (per question, a witness within depth K or none, and its trace length).
// The typed suite pins the exact answers per fixture for every engine (the
// SMT engine by BMC's queries, by breadth-first layers of its relation, and
// by both); the parameterised one requires the two engines to agree on every
// fixture of tests/fixtures/{findings,semantics,smt}, the SMT engine both
// ways.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/smt/engine.hpp"

#include "answers.hpp"
#include "fixture_files.hpp"
#include "loaded_game.hpp"

namespace loophole::smt {
namespace {

namespace fs = std::filesystem;
using properties::Finding;

using testing::Answers;
using testing::Outcome;
using testing::selection;
using testing::show;
using testing::smt_questions;
using testing::within;

// The answers in `found`; a malformed one fails the test.
Answers answers(const model::Game& g, const std::vector<Finding>& found) {
  std::vector<std::string> problems;
  Answers out = testing::answers(g, found, problems);
  for (const std::string& p : problems) ADD_FAILURE() << p;
  return out;
}

// A fixture loaded with its semantics, and how deep the engines compare it.
struct Explored : test_support::LoadedGame {
  int depth = 0;  // K: the deepest reachable state, in moves, at most max_depth
  bool capped = false;
};

// Deeper fixtures are compared within this depth, to keep the suite fast.
constexpr int max_depth = 10;

std::unique_ptr<Explored> load_explored(const std::string& path,
                                        const std::map<std::string, std::int64_t>& params = {},
                                        int cap = max_depth) {
  auto l = std::make_unique<Explored>();
  test_support::load_into(*l, path, {.params = params, .with_semantics = true});
  EXPECT_TRUE(l->game) << l->diagnostics();
  if (!l->game) return l;
  checker::ExplicitOptions eo;
  eo.threads = 1;
  const int deepest = static_cast<int>(checker::explore(*l->sem, eo)->statistics().depth) - 1;
  l->depth = std::min(cap, deepest);
  l->capped = deepest > cap;
  return l;
}

struct ExplicitEngine {
  static Answers run(const Explored& l) {
    checker::ExplicitOptions eo;
    eo.threads = 1;
    const auto graph = checker::explore(*l.sem, eo);
    EXPECT_EQ(graph->completion(), checker::Completion::complete);
    return within(answers(*l.game, properties::check_all(*graph, selection())), l.depth, l.capped);
  }
};

// BMC's queries at every depth (layer_states 0), the breadth-first layers
// of the encoded relation at every depth (the default budget), or the
// layers for the first few states and BMC from there on.
template <std::size_t LayerStates>
struct Smt {
  static Answers run(const Explored& l) {
    Engine engine(*l.sem);
    EXPECT_FALSE(engine.unsupported()) << engine.unsupported()->message();
    Options o;
    o.depth = l.depth;
    o.induction = false;
    o.completeness = false;
    o.timeout_ms = 30000;
    o.layer_states = LayerStates;
    return within(answers(*l.game, engine.check(o, smt_questions()).findings), l.depth, l.capped);
  }
};
using SmtEngine = Smt<0>;
using SmtLayersEngine = Smt<default_layer_states>;
using SmtHandOverEngine = Smt<4>;

// ---------------------------------------------------------------------------
// Typed: the same pinned answers from every engine, one fixture per kind of
// question (a deadlock, a rule gap, a violated property, an unreachable win,
// a reachable property and invariants that hold).

struct Pinned {
  std::string file;  // under tests/fixtures/
  Answers expected;
};

const std::vector<Pinned>& pinned() {
  static const std::vector<Pinned> cases = {
      {"findings/deadlock/no-pass.yaml",
       {{"deadlock in 'combat · fight', P1 holds priority and can neither act nor pass",
         {true, 2}}}},
      {"findings/rule-gap/empty-deck.yaml",
       {{"rule-gap step:main.draw draw from an empty deck", {true, 3}}}},
      {"findings/rule-gap/overflow.yaml",
       {{"rule-gap step:main.bonus integer overflow in 'big * 4'", {true, 1}}}},
      {"findings/rule-gap/event-arg-range.yaml",
       {{"rule-gap step:main.surge 'gain' fired with an argument outside its range: 'amount' "
         "(1..2)",
         {true, 5}}}},
      {"findings/property-violation/hand-limit.yaml",
       {{"violated property:hand_limit", {true, 6}}}},
      {"findings/unreachable-win/first-player-only.yaml",
       {{"unreached end:points/P2", {false, 0}}}},
      {"findings/property-violation/holds.yaml",
       {{"reached property:full_treasury", {true, 6}},
        {"violated property:hand_limit", {false, 0}},
        {"violated property:no_overflow", {false, 0}}}},
  };
  return cases;
}

template <class E>
class EngineAgreement : public ::testing::Test {};
using Engines = ::testing::Types<ExplicitEngine, SmtEngine, SmtLayersEngine, SmtHandOverEngine>;
TYPED_TEST_SUITE(EngineAgreement, Engines);

TYPED_TEST(EngineAgreement, PinnedAnswers) {
  for (const auto& c : pinned()) {
    const auto l = load_explored(std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/" + c.file);
    ASSERT_TRUE(l->game);
    const Answers got = TypeParam::run(*l);
    EXPECT_FALSE(got.empty()) << c.file;
    EXPECT_EQ(got, c.expected) << c.file << ":\n" << show(got);
  }
}

// ---------------------------------------------------------------------------
// Every fixture: the two engines agree.

class Agreement : public ::testing::TestWithParam<std::string> {};

// The words of every witness within depth K (and, when K covers every
// reachable state, of every end condition out of reach): one line per
// finding, "kind rule file:line:col message", sorted. Equal for both
// engines when the questions are described once (checker/questions.hpp):
// the same message, location and rule, and the same grouping (as many
// findings per rule: a deadlock per control point, a gap per site).
std::vector<std::string> words(const Explored& l, const std::vector<Finding>& found) {
  std::vector<std::string> out;
  for (const auto& f : found) {
    const bool witness = f.trace && f.trace->size() <= static_cast<std::size_t>(l.depth) &&
                         (f.verdict == properties::Verdict::violated ||
                          (f.verdict == properties::Verdict::holds &&
                           f.kind == properties::Kind::property_violation));
    const bool unreached = f.kind == properties::Kind::unreachable_win && !l.capped;
    if (f.message.starts_with("candidate") || (!witness && !unreached)) continue;
    if (f.kind != properties::Kind::deadlock && f.kind != properties::Kind::rule_gap &&
        f.kind != properties::Kind::property_violation && !unreached) {
      continue;
    }
    out.push_back(std::string(properties::to_string(f.kind)) + " " + f.rule + " " +
                  std::to_string(f.where.line) + ":" + std::to_string(f.where.col) + " " +
                  f.message);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& line : v) s += "    " + line + "\n";
  return s;
}

TEST_P(Agreement, SameAnswersAndTraceLengths) {
  const auto l = load_explored(GetParam());
  ASSERT_TRUE(l->game);
  checker::ExplicitOptions eo;
  eo.threads = 1;
  const auto explicit_found = properties::check_all(*checker::explore(*l->sem, eo), selection());
  const Answers expl = within(answers(*l->game, explicit_found), l->depth, l->capped);
  const auto expl_words = words(*l, explicit_found);
  // BMC's queries at every depth, then the breadth-first layers.
  for (const std::size_t layer_states : {std::size_t{0}, default_layer_states}) {
    Engine engine(*l->sem);
    ASSERT_FALSE(engine.unsupported()) << engine.unsupported()->message();
    Options o;
    o.depth = l->depth;
    o.induction = false;
    o.completeness = false;
    o.timeout_ms = 30000;
    o.layer_states = layer_states;
    const auto smt_found = engine.check(o, smt_questions()).findings;
    const Answers smt = within(answers(*l->game, smt_found), l->depth, l->capped);
    EXPECT_EQ(expl, smt) << "layer_states " << layer_states << ", depth " << l->depth
                         << "\nexplicit:\n"
                         << show(expl) << "smt:\n"
                         << show(smt);
    // The same words and grouping, for the questions both answer.
    const auto smt_words = words(*l, smt_found);
    EXPECT_EQ(expl_words, smt_words) << "layer_states " << layer_states << "\nexplicit:\n"
                                     << lines(expl_words) << "smt:\n"
                                     << lines(smt_words);
  }
}

// Seed rulesets at the reduced scopes of tests/seeds, within three moves:
// the language as the seeds use it (priority windows with a stack, triggers,
// tags, records), not only the constructs the fixtures plant.
TEST(SeedAgreement, OperatorsAndCosmereWithinThreeMoves) {
  struct Seed {
    const char* file;
    std::map<std::string, std::int64_t> params;
  };
  for (const Seed& seed :
       {Seed{
            "operators.yaml",
            {{"item_copies", 0}, {"attack_copies", 0}, {"defence_copies", 0}, {"opening_hand", 0}}},
        Seed{"cosmere.yaml", {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}}}}) {
    const auto l =
        load_explored(std::string(LOOPHOLE_SOURCE_DIR) + "/rulesets/" + seed.file, seed.params, 3);
    ASSERT_TRUE(l->game);
    const Answers expl = ExplicitEngine::run(*l);
    const Answers smt = SmtEngine::run(*l);
    EXPECT_EQ(expl, smt) << seed.file << "\nexplicit:\n" << show(expl) << "smt:\n" << show(smt);
    const Answers layers = SmtLayersEngine::run(*l);
    EXPECT_EQ(expl, layers) << seed.file << "\nexplicit:\n"
                            << show(expl) << "smt (layers):\n"
                            << show(layers);
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Agreement, ::testing::ValuesIn(testing::agreement_fixtures()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return testing::fixture_test_name(info.param);
                         });

}  // namespace
}  // namespace loophole::smt
