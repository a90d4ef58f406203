// `loophole check --engine smt|auto`, `--depth` and `--symbolic` through the
// command's own entry point (run_check): exit codes and the JSON report.
// (Moved from tests/smt: a test of the cli reads the cli's own headers.)
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"

namespace loophole::cli {
namespace {

namespace fs = std::filesystem;

struct CheckRun {  // NOLINT(bugprone-exception-escape): clang-tidy 14 on nlohmann::json
  int code = -1;
  nlohmann::json report;
};

CheckRun check(CheckArgs args, bool interrupt = false, const std::string& junit = "") {
  const fs::path out =
      fs::temp_directory_path() /
      ("loophole-smt-cli-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
       "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json");
  args.format = "json";
  args.output = out.string();
  args.no_stats = true;
  for (auto& f : args.files) f = std::string(LOOPHOLE_SOURCE_DIR) + "/" + f;
  if (!junit.empty()) args.reports = {"junit:" + junit};
  std::atomic<bool> interrupted{interrupt};
  CheckRun r;
  r.code = run_check(args, interrupted);
  std::ifstream in(out);
  if (in) {
    std::stringstream s;
    s << in.rdbuf();
    r.report = nlohmann::json::parse(s.str(), nullptr, false);
  }
  fs::remove(out);
  return r;
}

std::vector<std::string> kinds_and_engines(const nlohmann::json& report) {
  std::vector<std::string> out;
  for (const auto& rs : report["rulesets"]) {
    for (const auto& f : rs["findings"]) {
      out.push_back(f["kind"].get<std::string>() + " " + f["verdict"].get<std::string>() + " " +
                    f["engine"].get<std::string>());
    }
  }
  return out;
}

TEST(CliEngine, SmtFindsAViolationWithATraceAndFails) {
  CheckArgs a;
  a.files = {"tests/fixtures/findings/property-violation/hand-limit.yaml"};
  a.engine = "smt";
  a.depth = 8;
  const CheckRun r = check(a);
  EXPECT_EQ(r.code, 1);
  ASSERT_TRUE(r.report.is_object());
  EXPECT_EQ(r.report["rulesets"][0]["engine"], "smt");
  bool violated = false;
  for (const auto& f : r.report["rulesets"][0]["findings"]) {
    if (f["kind"] == "property-violation" && f["verdict"] == "violated") {
      violated = true;
      EXPECT_EQ(f["engine"], "smt");
      EXPECT_EQ(f["trace"]["length"], 6);
    }
  }
  EXPECT_TRUE(violated);
}

TEST(CliEngine, SmtStaticChecksOnlyWarnSoTheRunPasses) {
  CheckArgs a;
  a.files = {"tests/fixtures/smt/dead-guard.yaml"};
  a.engine = "smt";
  a.depth = 6;
  const CheckRun r = check(a);
  EXPECT_EQ(r.code, 0);
  const auto got = kinds_and_engines(r.report);
  EXPECT_EQ(std::count(got.begin(), got.end(), "dead-rule violated smt"), 3);
}

// Issue 33: a clean ruleset whose action sets a flag, fires an event whose
// trigger reads it, then clears it, is clean for the SMT engine too (it was
// "dead rule: contradictory effects").
TEST(CliEngine, AFireThatReadsTheFlagIsNoContradiction) {
  CheckArgs a;
  a.files = {"tests/fixtures/smt/fire-reads-flag.yaml"};
  a.engine = "smt";
  a.depth = 8;
  const CheckRun r = check(a);
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(kinds_and_engines(r.report), std::vector<std::string>{});
}

// Issue 33: a gap the static check flags and the search confirms is one
// error with its trace, under smt and under auto (it was also a "candidate
// ... confirmed" note with the same trace).
TEST(CliEngine, AConfirmedGapIsReportedOnce) {
  for (const char* engine : {"smt", "auto"}) {
    CheckArgs a;
    a.files = {"tests/fixtures/smt/confirmed-gap.yaml"};
    a.engine = engine;
    a.depth = 4;
    const CheckRun r = check(a);
    EXPECT_EQ(r.code, 1);
    std::vector<std::string> violated;
    for (const auto& f : r.report["rulesets"][0]["findings"]) {
      if (f["kind"] != "rule-gap" || f["verdict"] != "violated") continue;
      violated.push_back(f["severity"].get<std::string>() + " " + f["message"].get<std::string>() +
                         " " + std::to_string(f["trace"]["length"].get<int>()));
    }
    EXPECT_EQ(violated, std::vector<std::string>{"error draw from an empty deck 1"}) << engine;
  }
}

TEST(CliEngine, SymbolicNeedsAParamWithBounds) {
  CheckArgs a;
  a.files = {"tests/fixtures/smt/scope-deck.yaml"};
  a.engine = "smt";
  a.symbolic = "no_such_param";
  EXPECT_EQ(check(a).code, 2);
}

TEST(CliEngine, SymbolicSaysWhereTheGapAppears) {
  CheckArgs a;
  a.files = {"tests/fixtures/smt/scope-deck.yaml"};
  a.engine = "smt";
  a.symbolic = "deck";
  a.depth = 8;
  const CheckRun r = check(a);
  EXPECT_EQ(r.code, 1);
  bool gap = false;
  for (const auto& f : r.report["rulesets"][0]["findings"]) {
    if (f["kind"] != "rule-gap") continue;
    gap = true;
    EXPECT_EQ(f["details"][0],
              "appears when deck <= 2 (checked deck = 1..4; the trace is at deck = 1)");
  }
  EXPECT_TRUE(gap);
}

// --symbolic: the breadth-first layers go on past --depth, so every value
// whose reachable states fit is settled by their complete search: the gap
// 3 moves in is found at depth 2 with its shortest trace, and no summary is
// qualified by the depth (it was "within depth 2; not settled for deck =
// 1, 2, 3, 4" and exit 3 without the layers past the depth).
TEST(CliEngine, SymbolicLayersSettleEveryValuePastTheDepth) {
  CheckArgs a;
  a.files = {"tests/fixtures/smt/scope-deck.yaml"};
  a.engine = "smt";
  a.symbolic = "deck";
  a.depth = 2;
  const CheckRun r = check(a);
  EXPECT_EQ(r.code, 1);
  std::vector<std::string> got;
  for (const auto& f : r.report["rulesets"][0]["findings"]) {
    // (A note that holds says so in its message; its details are per value.)
    const bool detailed = f.contains("details") && !f["details"].empty() && f["verdict"] != "holds";
    const bool traced = f.contains("trace") && f["trace"].is_object();
    got.push_back(f["id"].get<std::string>() + " " + f["verdict"].get<std::string>() + " " +
                  (detailed ? f["details"][0] : f["message"]).get<std::string>() +
                  (traced ? " " + std::to_string(f["trace"]["length"].get<int>()) : ""));
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{
                     "deadlock/deadlock holds no deadlock: proved for every value of deck in 1..4",
                     "rule-gap/step:main.draw violated appears when deck <= 2 (checked deck = "
                     "1..4; the trace is at deck = 1) 3",
                     "unreachable-win/end:three_in_hand/P1 violated appears when deck <= 2 "
                     "(checked deck = 1..4; the trace is at deck = 1)",
                     "unreachable-win/end:three_in_hand/P2 violated appears for every deck in "
                     "1..4 (checked deck = 1..4; the trace is at deck = 1)"}))
      << r.report.dump(1);
  // Value by value, how each was settled: the layers' complete search, with
  // the states it held (docs/smt.md, "Symbolic scope").
  const auto searched = [](int v, int states, int moves) {
    return "deck = " + std::to_string(v) + ": all " + std::to_string(states) +
           " reachable states searched, every one within " + std::to_string(moves) + " moves";
  };
  for (const auto& f : r.report["rulesets"][0]["findings"]) {
    std::vector<std::string> details;
    for (const auto& d : f["details"]) details.push_back(d.get<std::string>());
    if (f["id"] == "deadlock/deadlock") {
      EXPECT_EQ(details, (std::vector<std::string>{searched(1, 4, 3), searched(2, 6, 5),
                                                   searched(3, 6, 5), searched(4, 6, 5)}));
    }
    if (f["id"] == "rule-gap/step:main.draw") {
      EXPECT_EQ(details, (std::vector<std::string>{
                             "appears when deck <= 2 (checked deck = 1..4; the trace is at deck "
                             "= 1)",
                             "found by breadth-first search at depth 3",
                             "deck = 1: found; all 4 reachable states searched, every one within "
                             "3 moves",
                             "deck = 2: found; all 6 reachable states searched, every one within "
                             "5 moves",
                             searched(3, 6, 5), searched(4, 6, 5)}));
    }
  }
}

// docs/smt.md, "Symbolic scope": "no rule gap" is not k-inductive at any
// value of top; IC3/PDR proves it at each, so the run is clean (exit 0), not
// inconclusive, although BMC stops at depth 2. (Without the breadth-first
// layers, whose complete search past the depth would settle it first.)
TEST(CliEngine, SymbolicProvesForEveryValueWithIcPdr) {
  CheckArgs a;
  a.files = {"tests/fixtures/smt/scope-lockstep.yaml"};
  a.engine = "smt";
  a.symbolic = "top";
  a.depth = 2;
  a.layer_states = 0;
  const fs::path text = fs::temp_directory_path() / "loophole-smt-cli-lockstep.txt";
  a.reports = {"text:" + text.string()};
  const CheckRun r = check(a);
  EXPECT_EQ(r.code, 0);
  // Settled with no problem at every value: said so (issue 33), a note
  // that holds per question, in JSON and in the text report.
  std::vector<std::string> got;
  for (const auto& f : r.report["rulesets"][0]["findings"]) {
    got.push_back(f["id"].get<std::string>() + " " + f["verdict"].get<std::string>() + " " +
                  f["severity"].get<std::string>() + " " + f["message"].get<std::string>());
  }
  EXPECT_EQ(got, (std::vector<std::string>{
                     "deadlock/deadlock holds note no deadlock: proved for every value of top in "
                     "8..10",
                     "rule-gap/rule-gap holds note no rule gap: proved for every value of top in "
                     "8..10"}))
      << r.report.dump(1);
  std::ifstream in(text);
  std::stringstream s;
  s << in.rdbuf();
  fs::remove(text);
  EXPECT_NE(s.str().find(": note: rule gap: no rule gap: proved for every value of top in 8..10\n"
                         "  top = 8: proved by IC3/PDR (Z3's Spacer)\n"
                         "  top = 9: proved by IC3/PDR (Z3's Spacer)\n"
                         "  top = 10: proved by IC3/PDR (Z3's Spacer)\n"),
            std::string::npos)
      << s.str();
  EXPECT_NE(s.str().find(": note: deadlock: no deadlock: proved for every value of top in 8..10\n"
                         "  top = 8: proved by k-induction (k = 1)\n"),
            std::string::npos)
      << s.str();
}

TEST(CliEngine, AutoAddsStaticChecksToACompleteExplicitSearch) {
  CheckArgs a;
  a.files = {"tests/fixtures/smt/dead-guard.yaml"};
  a.engine = "auto";
  const CheckRun r = check(a);
  EXPECT_EQ(r.code, 0);
  const auto got = kinds_and_engines(r.report);
  EXPECT_EQ(std::count(got.begin(), got.end(), "dead-rule violated smt"), 3);
  EXPECT_EQ(std::count(got.begin(), got.end(), "dead-rule violated explicit"), 2);
}

const nlohmann::json* finding(const nlohmann::json& report, const std::string& rule) {
  for (const auto& f : report["rulesets"][0]["findings"]) {
    if (f["rule"] == rule) return &f;
  }
  return nullptr;
}

TEST(CliEngine, SmtDepthReachedWithoutAnAnswerIsInconclusive) {
  CheckArgs a;
  a.files = {"tests/fixtures/smt/late-deadlock.yaml"};
  a.engine = "smt";
  a.depth = 1;
  const CheckRun shallow = check(a);
  EXPECT_EQ(shallow.code, 3);
  const auto* open = finding(shallow.report, "deadlock");
  ASSERT_NE(open, nullptr);
  EXPECT_EQ((*open)["verdict"], "unknown");
  EXPECT_EQ((*open)["message"], "no deadlock within depth 1; deeper ones are not ruled out");
  EXPECT_EQ(shallow.report["rulesets"][0]["summary"]["inconclusive"], 1);
  a.depth = 12;
  const CheckRun deep = check(a);
  EXPECT_EQ(deep.code, 1);
  const auto* found = finding(deep.report, "step:combat.fight");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ((*found)["verdict"], "violated");
  EXPECT_EQ((*found)["trace"]["length"], 10);
}

TEST(CliEngine, AutoTakesSmtProofsForWhatTheStateLimitLeftOpen) {
  CheckArgs a;
  a.files = {"tests/fixtures/findings/property-violation/holds.yaml"};
  a.engine = "auto";
  a.max_states = 2;
  const CheckRun r = check(a);
  // The leads_to property and the step the 2 states never reach stay
  // unknown (explicit only); the invariants are proved by the SMT engine.
  EXPECT_EQ(r.code, 3);
  std::map<std::string, std::string> verdicts;
  for (const auto& f : r.report["rulesets"][0]["findings"]) {
    verdicts[f["rule"].get<std::string>() + " " + f["engine"].get<std::string>()] = f["verdict"];
  }
  EXPECT_EQ(verdicts, (std::map<std::string, std::string>{
                          {"property:alarm_answered explicit", "unknown"},
                          {"property:full_treasury smt", "holds"},
                          {"property:hand_limit smt", "holds"},
                          {"property:no_overflow smt", "holds"},
                          {"step:main.draw smt", "holds"},
                          {"step:main.income explicit", "unknown"},
                      }));
  EXPECT_EQ(r.report["rulesets"][0]["completion"], "state-limit");
  // The SMT engine settles every question it handles that the state limit
  // left open (no finding is unknown), but the questions only the explicit
  // search answers (response loops, stalemates, ...) stay unknown beyond the
  // 3 states: the run is inconclusive, as under explicit search alone.
  CheckArgs b;
  b.files = {"tests/fixtures/smt/unreachable-gap.yaml"};
  b.max_states = 3;
  EXPECT_EQ(check(b).code, 3);
  b.engine = "auto";
  const CheckRun settled = check(b);
  EXPECT_EQ(settled.code, 3);
  EXPECT_EQ(settled.report["rulesets"][0]["summary"]["inconclusive"], 0);
  EXPECT_EQ(settled.report["rulesets"][0]["completion"], "state-limit");
  const auto* candidate = finding(settled.report, "step:main.income");
  ASSERT_NE(candidate, nullptr);
  EXPECT_EQ((*candidate)["verdict"], "holds");
}

TEST(CliEngine, SmtRunsSayWhatTheyDoNotCheck) {
  CheckArgs a;
  a.files = {"tests/fixtures/findings/response-loop/ward-duel.yaml"};
  a.engine = "smt";
  a.depth = 12;  // deep enough to be complete: every question it asks is answered
  const fs::path junit = fs::temp_directory_path() / "loophole-smt-cli-ward-duel.xml";
  const CheckRun r = check(a, false, junit.string());
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.report["rulesets"][0]["completion"], "complete");
  EXPECT_EQ(r.report["rulesets"][0]["not_checked"],
            nlohmann::json({"response loops", "turn loops", "stalemates", "ends out of reach",
                            "ties", "dead rules"}));
  std::ifstream in(junit);
  std::stringstream s;
  s << in.rdbuf();
  fs::remove(junit);
  const std::string xml = s.str();
  // Each test case the SMT engine does not check is skipped, not passed.
  for (const char* name : {"response-loop", "unbounded-chain", "turn-loop", "stalemate",
                           "cannot-lose", "cannot-end", "tie", "stall", "dead-rule"}) {
    const auto at = xml.find(std::string("<testcase name=\"") + name + "\"");
    ASSERT_NE(at, std::string::npos) << name;
    const auto end = xml.find("</testcase>", at);
    EXPECT_NE(xml.substr(at, end - at).find("<skipped"), std::string::npos) << name;
  }
  const auto at = xml.find("<testcase name=\"deadlock\"");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(xml.substr(at, xml.find("</testcase>", at) - at).find("<skipped"), std::string::npos);
}

TEST(CliEngine, AnInterruptedSmtRunSaysSo) {
  CheckArgs a;
  a.files = {"tests/fixtures/smt/late-deadlock.yaml"};
  a.engine = "smt";
  a.depth = 12;
  const CheckRun r = check(a, true);
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.report["rulesets"][0]["completion"], "interrupted");
}

TEST(CliEngine, SmtLeadsToIsUnknownNotPassed) {
  CheckArgs a;
  a.files = {"tests/fixtures/findings/property-violation/holds.yaml"};
  a.engine = "smt";
  const CheckRun r = check(a);
  EXPECT_EQ(r.code, 3);
  const auto* f = finding(r.report, "property:alarm_answered");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["verdict"], "unknown");
  EXPECT_EQ((*f)["engine"], "smt");
}

}  // namespace
}  // namespace loophole::cli
