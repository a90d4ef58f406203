// End-to-end tests of the project file (loophole.yaml): rulesets and scopes
// read from it, accepted findings suppressed (and never failing the run),
// stale entries noted, a new finding failing, bad project files rejected
// with file:line:col.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "process.hpp"

namespace {

namespace fs = std::filesystem;

using loophole::test::Outcome;
using loophole::test::run;
using loophole::test::run_in;
using loophole::test::slurp;
using loophole::test::temp_dir;

TEST(Project, AcceptedFindingsDoNotFailAndStaleOnesAreNoted) {
  const Outcome r = run("check -j 1 --format json --project tests/projects/loophole.yaml");
  EXPECT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["rulesets"].size(), 3u);
  // Files are relative to the project file.
  EXPECT_EQ(j["rulesets"][0]["file"], "tests/fixtures/findings/response-loop/trigger-pair.yaml");
  EXPECT_EQ(j["rulesets"][0]["findings"][0]["accepted"]["reason"],
            "the two triggers are meant to chain; a later rule ends the exchange");
  EXPECT_EQ(j["rulesets"][0]["summary"]["accepted"], 1);
  EXPECT_EQ(j["rulesets"][0]["summary"]["errors"], 0);
  EXPECT_EQ(j["rulesets"][1]["stale_accepted"][0]["id"], "rule-gap/step:combat.fight");
  EXPECT_EQ(j["rulesets"][1]["stale_accepted"][0]["location"]["line"], 13);
  // The scope comes from the project file too.
  EXPECT_EQ(j["rulesets"][2]["scope"]["params"]["top"], 3);
  EXPECT_EQ(j["rulesets"][2]["statistics"]["states"], 47);  // (93 concrete, per rotation orbit)
}

TEST(Project, LoopholeYamlInTheCurrentDirectoryIsTheDefault) {
  const Outcome r = run_in("tests/projects", "check -j 1 --no-stats");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("  accepted (deadlock/step:combat.fight): the fight is a sudden-death "
                       "duel by design\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(
      r.out.find("loophole.yaml:13:13: note: accepted finding 'rule-gap/step:combat.fight' "
                 "no longer occurs in '../fixtures/findings/deadlock/no-pass.yaml'; remove it from "
                 "the project file\n"),
      std::string::npos)
      << r.out;
  // Without the project file, the same rulesets fail.
  EXPECT_EQ(run_in("tests/projects", "check -j 1 ../fixtures/findings/deadlock/no-pass.yaml").code,
            1);
}

TEST(Project, SarifMarksAcceptedFindingsSuppressed) {
  const Outcome r = run("check -j 1 --format sarif --project tests/projects/loophole.yaml");
  EXPECT_EQ(r.code, 0) << r.err;
  const auto results = nlohmann::json::parse(r.out)["runs"][0]["results"];
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["suppressions"][0]["kind"], "external");
  EXPECT_EQ(results[1]["suppressions"][0]["justification"],
            "the fight is a sudden-death duel by design");
  EXPECT_EQ(results[2]["ruleId"], "stale-baseline");
  EXPECT_EQ(results[2]["locations"][0]["physicalLocation"]["region"]["startLine"], 13);
}

TEST(Project, ANewFindingFailsTheRun) {
  const Outcome r =
      run("check -j 1 --no-stats --format json --project tests/projects/new-finding.yaml");
  EXPECT_EQ(r.code, 1);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["rulesets"][0]["summary"]["errors"], 0);
  EXPECT_EQ(j["rulesets"][1]["summary"]["errors"], 1);
  EXPECT_EQ(j["rulesets"][1]["findings"][0]["id"], "response-loop/action:ward");
}

TEST(Project, BadProjectFilesExitTwoWithLocations) {
  Outcome r = run("check --project tests/projects/bad/missing-reason.yaml");
  EXPECT_EQ(r.code, 2);
  const std::string f = "tests/projects/bad/missing-reason.yaml";
  EXPECT_EQ(r.err,
            f +
                ":6:17: error: accepted finding 'deadlock/step:combat.fight' needs a written "
                "reason\n"
                "    6 |         reason: \"\"\n"
                "      |                 ^\n" +
                f + ":7:9: error: an accepted finding needs 'reason'\n" +
                "    7 |       - id: x\n"
                "      |         ^\n" +
                f +
                ":8:9: error: unknown key 'because' in an accepted finding; expected id, "
                "reason\n" +
                "    8 |         because: typo\n"
                "      |         ^\n" +
                f +
                ":9:5: error: unknown key 'player' in a ruleset entry; expected file, "
                "players, params, accept\n" +
                "    9 |     player: 2\n"
                "      |     ^\n");
  EXPECT_EQ(r.out, "");
  r = run("check --project tests/projects/bad/syntax.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("tests/projects/bad/syntax.yaml:5:1: error: ", 0), 0u) << r.err;
  r = run("check --project tests/projects/bad/version.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("tests/projects/bad/version.yaml:1:11: error: unsupported project "
                        "file version 2; expected 1\n",
                        0),
            0u)
      << r.err;
  // No files and no loophole.yaml: a usage error, not a silent pass.
  const fs::path empty = temp_dir() / "empty";
  fs::create_directories(empty);
  r = run_in(empty, "check");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "loophole.yaml: error: cannot read project file: No such file or directory\n"
            "loophole: error: no ruleset files given and no loophole.yaml here\n");
}

}  // namespace
