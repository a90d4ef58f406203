// The engines behind pipeline::Engine: can_handle per question, and the
// answer per question (holds / violated with its traced findings / unknown
// with the reason / not checked) of the explicit, smt and auto engines, on
// tiny fixtures (each run well under a second on the dev build).
#include "loophole/pipeline/engine.hpp"

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "loophole/pipeline/pipeline.hpp"

#include "loaded_game.hpp"

namespace loophole::pipeline {
namespace {

using properties::Question;

std::unique_ptr<test_support::LoadedGame> load(const std::string& file) {
  auto l = test_support::load_game(std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/" + file);
  EXPECT_TRUE(l->game) << l->diagnostics();
  return l;
}

Options one_thread() {
  Options o;
  o.explore.threads = 1;
  return o;
}

Results answer(EngineChoice engine, const model::Game& game, const Options& o) {
  return make_engine(engine)->answer(game, properties::all_questions, o);
}

TEST(Engines, SayWhichQuestionsTheyCanHandle) {
  const auto l = load("findings/deadlock/no-pass.yaml");
  ASSERT_TRUE(l->game);
  const model::Game& g = *l->game;
  for (const auto q : properties::all_questions) {
    EXPECT_TRUE(make_engine(EngineChoice::explicit_search)->can_handle(q, g));
    EXPECT_TRUE(make_engine(EngineChoice::automatic)->can_handle(q, g));
    EXPECT_FALSE(make_engine(EngineChoice::structure)->can_handle(q, g));
    const bool smt = q == Question::deadlocks || q == Question::unreachable_wins ||
                     q == Question::rule_gaps || q == Question::user_properties;
    EXPECT_EQ(make_engine(EngineChoice::smt)->can_handle(q, g), smt) << properties::to_string(q);
    EXPECT_EQ(can_handle(EngineChoice::smt, q, g), smt);
  }
  EXPECT_EQ(make_engine(EngineChoice::automatic)->name(), "auto");
}

TEST(Engines, ExplicitAnswersEveryQuestion) {
  const auto l = load("findings/deadlock/no-pass.yaml");
  ASSERT_TRUE(l->game);
  const Results r = answer(EngineChoice::explicit_search, *l->game, one_thread());
  EXPECT_EQ(r.engine, "explicit");
  const auto& deadlocks = r.at(Question::deadlocks);
  EXPECT_EQ(deadlocks.answer, Answer::violated);
  ASSERT_EQ(deadlocks.findings.size(), 1U);
  const auto& f = r.findings[deadlocks.findings.front()];
  EXPECT_EQ(f.message, "in 'combat · fight', P1 holds priority and can neither act nor pass");
  ASSERT_TRUE(f.trace);
  EXPECT_EQ(f.trace->size(), 2U);
  EXPECT_EQ(r.at(Question::rule_gaps).answer, Answer::holds);
  EXPECT_EQ(r.at(Question::ties).answer, Answer::holds);
  for (const auto& q : r.questions) {
    EXPECT_NE(q.answer, Answer::not_checked) << properties::to_string(q.question);
    EXPECT_NE(q.answer, Answer::unknown) << properties::to_string(q.question);
  }
  EXPECT_FALSE(r.inconclusive());
}

TEST(Engines, SmtAnswersItsQuestionsAndNotTheRest) {
  const auto l = load("findings/deadlock/no-pass.yaml");
  ASSERT_TRUE(l->game);
  const Results r = answer(EngineChoice::smt, *l->game, one_thread());
  EXPECT_EQ(r.engine, "smt");
  const auto& deadlocks = r.at(Question::deadlocks);
  EXPECT_EQ(deadlocks.answer, Answer::violated);
  ASSERT_EQ(deadlocks.findings.size(), 1U);
  const auto& f = r.findings[deadlocks.findings.front()];
  EXPECT_EQ(f.engine, "smt");
  EXPECT_EQ(f.message, "in 'combat · fight', P1 holds priority and can neither act nor pass");
  ASSERT_TRUE(f.trace);
  EXPECT_EQ(f.trace->size(), 2U);
  EXPECT_EQ(r.at(Question::rule_gaps).answer, Answer::holds);
  const auto& loops = r.at(Question::response_loops);
  EXPECT_EQ(loops.answer, Answer::not_checked);
  EXPECT_EQ(loops.reason, "the smt engine does not answer it");
  EXPECT_FALSE(loops.cut_short);
  EXPECT_FALSE(r.inconclusive());
}

// auto is the explicit engine completed by the SMT engine: after a state
// limit the SMT engine settles the rule gaps the 3 states left open, and the
// questions only the explicit search answers stay unknown.
TEST(Engines, AutoCompletesWhatTheStateLimitLeftOpen) {
  const auto l = load("smt/unreachable-gap.yaml");
  ASSERT_TRUE(l->game);
  Options o = one_thread();
  o.explore.max_states = 3;
  const Results alone = answer(EngineChoice::explicit_search, *l->game, o);
  EXPECT_EQ(alone.completion, checker::Completion::state_limit);
  EXPECT_EQ(alone.at(Question::rule_gaps).answer, Answer::unknown);
  EXPECT_EQ(alone.at(Question::rule_gaps).reason,
            "the exploration stopped at the state limit after 3 states");
  EXPECT_TRUE(alone.inconclusive());
  o.engine = EngineChoice::automatic;
  const Results both = answer(EngineChoice::automatic, *l->game, o);
  EXPECT_EQ(both.completion, checker::Completion::state_limit);
  EXPECT_EQ(both.at(Question::rule_gaps).answer, Answer::holds);
  EXPECT_EQ(both.at(Question::deadlocks).answer, Answer::holds);
  EXPECT_EQ(both.at(Question::response_loops).answer, Answer::unknown);
  EXPECT_EQ(both.at(Question::response_loops).reason,
            "the exploration stopped at the state limit after 3 states");
  // The refuted candidate gap is a note of the static checks: no answer.
  ASSERT_EQ(both.notes.size(), 1U);
  EXPECT_EQ(both.notes[0].verdict, checker::Verdict::holds);
  EXPECT_TRUE(both.inconclusive());
}

}  // namespace
}  // namespace loophole::pipeline
