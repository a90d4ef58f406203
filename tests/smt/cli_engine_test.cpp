// `loophole check --engine smt|auto`, `--depth` and `--symbolic` through the
// command's own entry point (run_check): exit codes and the JSON report.
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"

namespace loophole::cli {
namespace {

namespace fs = std::filesystem;

struct CheckRun {
  int code = -1;
  nlohmann::json report;
};

CheckRun check(CheckArgs args) {
  const fs::path out =
      fs::temp_directory_path() /
      ("loophole-smt-cli-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
       "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json");
  args.format = "json";
  args.output = out.string();
  args.no_stats = true;
  for (auto& f : args.files) f = std::string(LOOPHOLE_SOURCE_DIR) + "/" + f;
  std::atomic<bool> interrupted{false};
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

}  // namespace
}  // namespace loophole::cli
