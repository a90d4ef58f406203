// One pipeline for every checking command (pipeline/): `diff`,
// `graph --trace`, `explain` and `check --sweep` take `--engine smt|auto`
// and check as `check` does. Exit codes and outputs, through the binary.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "process.hpp"

namespace {

using loophole::test::Outcome;
using loophole::test::run;

std::string pair(const std::string& name) {
  return " tests/fixtures/diff/" + name + "/old.yaml tests/fixtures/diff/" + name + "/new.yaml";
}

const std::string no_pass = "tests/fixtures/findings/deadlock/no-pass.yaml";

// The SMT engine finds the deadlock the edit adds, with the same shortest
// trace as the explicit search; the stalemate the edit removes is a cycle
// question the SMT engine does not check, so under smt nothing is removed.
TEST(PipelineCli, DiffWithTheSmtEngine) {
  const Outcome r = run("diff --engine smt --format json" + pair("adds-deadlock"));
  ASSERT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["added"].size(), 1U) << r.out;
  EXPECT_EQ(j["added"][0]["id"], "deadlock/step:combat.fight");
  EXPECT_EQ(j["added"][0]["engine"], "smt");
  EXPECT_EQ(j["added"][0]["trace"]["length"], 2);
  EXPECT_EQ(j["removed"].size(), 0U) << r.out;
  const Outcome text = run("diff --engine smt" + pair("adds-deadlock"));
  EXPECT_EQ(text.code, 1);
  EXPECT_EQ(text.out,
            "loophole diff tests/fixtures/diff/adds-deadlock/old.yaml -> "
            "tests/fixtures/diff/adds-deadlock/new.yaml\n"
            "findings added (1):\n"
            "  tests/fixtures/diff/adds-deadlock/new.yaml:13:19: error: deadlock: in 'combat · "
            "fight', P1 holds priority and can neither act nor pass [deadlock/step:combat.fight]\n"
            "    found by breadth-first search at depth 2\n"
            "    trace (2 moves, shortest):\n"
            "      after setup: no cards or variables\n"
            "        1  T1 P1  combat · fight   start at combat · fight\n"
            "        2  T1 P1  combat · fight   P1 plays 'strike' (speed 1)\n"
            "findings removed (0):\n"
            "findings unchanged: 0\n");
  // An edit that adds nothing passes under smt too.
  EXPECT_EQ(run("diff --engine smt" + pair("removes-loop")).code, 0);
}

// graph --trace draws the SMT engine's counterexample: the same path as the
// explicit engine's (both are shortest), so the same DOT.
TEST(PipelineCli, GraphTraceWithTheSmtEngine) {
  const Outcome smt = run("graph --engine smt --trace deadlock/step:combat.fight " + no_pass);
  ASSERT_EQ(smt.code, 0) << smt.err;
  EXPECT_EQ(smt.err, "");
  const Outcome explicit_search = run("graph --trace deadlock/step:combat.fight " + no_pass);
  ASSERT_EQ(explicit_search.code, 0) << explicit_search.err;
  EXPECT_EQ(smt.out, explicit_search.out);
  EXPECT_NE(smt.out.find("[label=\"move 1\", color=red, fontcolor=red, penwidth=2.5];"),
            std::string::npos)
      << smt.out;
  // A question the SMT engine does not answer has no finding to draw.
  const Outcome loop =
      run("graph --engine smt --trace response-loop/action:ward "
          "tests/fixtures/findings/response-loop/ward-duel.yaml");
  EXPECT_EQ(loop.code, 2) << loop.err;
  EXPECT_EQ(loop.err.rfind("loophole: error: --trace: no finding 'response-loop/action:ward'", 0),
            0U)
      << loop.err;
}

// explain finds an SMT finding by its id.
TEST(PipelineCli, ExplainWithTheSmtEngine) {
  const Outcome r = run("explain --engine smt deadlock/step:combat.fight " + no_pass);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("finding deadlock/step:combat.fight in " + no_pass + "\n", 0), 0U) << r.out;
}

// --sweep with --engine auto: every value through the pipeline, the
// explicit search then the SMT engine; the rule gap appears at deck <= 2.
TEST(PipelineCli, SweepWithTheAutoEngine) {
  const Outcome r =
      run("check --no-stats --format json --engine auto --sweep deck=1..4 "
          "tests/fixtures/smt/scope-deck.yaml");
  ASSERT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  const auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> got;
  for (const auto& f : j["rulesets"][0]["findings"]) {
    got.push_back(f["id"].get<std::string>() + " " + f["verdict"].get<std::string>() + " " +
                  f["engine"].get<std::string>() + " " + f["details"].back().get<std::string>());
  }
  const std::string to_two = "appears with deck = 1..2 of the sweep 1..4; smallest scope deck = 1";
  const std::string always =
      "appears at every value of the sweep deck = 1..4; smallest scope deck = 1";
  EXPECT_EQ(got, (std::vector<std::string>{
                     "rule-gap/step:main.draw violated explicit " + to_two,
                     "unreachable-win/end:three_in_hand/P1 violated explicit " + to_two,
                     "unreachable-win/end:three_in_hand/P2 violated explicit " + always,
                     // the SMT engine's static checks, at every value
                     "unreachable-win/end:three_in_hand violated smt " + to_two,
                     "rule-gap/step:main.draw#2 holds smt " + always,
                 }));
  // The explicit sweep has the first three only.
  const Outcome plain =
      run("check --no-stats --format json --sweep deck=1..4 tests/fixtures/smt/scope-deck.yaml");
  EXPECT_EQ(plain.code, 1) << plain.err;
  EXPECT_EQ(nlohmann::json::parse(plain.out)["rulesets"][0]["findings"].size(), 3U);
}

// diff --engine auto: the explicit search (it finishes, so the SMT engine
// only adds its static checks, none here): the deadlock the edit adds with
// its trace, and the stalemate it removes (a cycle question only the
// explicit search answers).
TEST(PipelineCli, DiffWithTheAutoEngine) {
  const Outcome r = run("diff --engine auto --format json" + pair("adds-deadlock"));
  ASSERT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["added"].size(), 1U) << r.out;
  EXPECT_EQ(j["added"][0]["id"], "deadlock/step:combat.fight");
  EXPECT_EQ(j["added"][0]["engine"], "explicit");
  EXPECT_EQ(j["added"][0]["trace"]["length"], 2);
  ASSERT_EQ(j["removed"].size(), 1U) << r.out;
  EXPECT_EQ(j["removed"][0]["id"], "stalemate/step:combat.fight");
}

// graph --trace --engine auto draws the same path as the explicit engine.
TEST(PipelineCli, GraphTraceWithTheAutoEngine) {
  const Outcome r = run("graph --engine auto --trace deadlock/step:combat.fight " + no_pass);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const Outcome explicit_search = run("graph --trace deadlock/step:combat.fight " + no_pass);
  ASSERT_EQ(explicit_search.code, 0) << explicit_search.err;
  EXPECT_EQ(r.out, explicit_search.out);
}

// --sweep with --engine smt: each value answered by BMC; the rule gap (a
// 3-move trace) and the unreachable wins appear at both values.
TEST(PipelineCli, SweepWithTheSmtEngine) {
  const Outcome r =
      run("check --no-stats --format json --engine smt --depth 8 --sweep deck=1..2 "
          "tests/fixtures/smt/scope-deck.yaml");
  ASSERT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["rulesets"].size(), 2U);
  std::vector<std::string> got;
  for (const auto& f : j["rulesets"][0]["findings"]) {
    got.push_back(f["id"].get<std::string>() + " " + f["verdict"].get<std::string>() + " " +
                  f["engine"].get<std::string>() + " " + f["details"].back().get<std::string>());
  }
  const std::string both =
      "appears at every value of the sweep deck = 1..2; smallest scope deck = 1";
  EXPECT_EQ(got, (std::vector<std::string>{
                     "rule-gap/step:main.draw violated smt " + both,
                     "unreachable-win/end:three_in_hand/P1 violated smt " + both,
                     "unreachable-win/end:three_in_hand/P2 violated smt " + both,
                     "unreachable-win/end:three_in_hand violated smt " + both,
                     "rule-gap/step:main.draw#2 holds smt " + both,
                 }));
  EXPECT_EQ(j["rulesets"][0]["findings"][0]["trace"]["length"], 3);
  EXPECT_EQ(j["rulesets"][0]["not_checked"][0], "response loops");
}

// An engine name the pipeline does not know is a usage error.
TEST(PipelineCli, UnknownEngineIsUsage) {
  const Outcome r = run("diff --engine spin" + pair("adds-deadlock"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(run("graph --engine spin --trace x " + no_pass).code, 2);
  EXPECT_EQ(run("explain --engine spin x " + no_pass).code, 2);
}

}  // namespace
