// `loophole explain ID [FILE...]` end to end: one finding with its whole
// transcript (from the state after setup, nothing folded) and the rule text
// it is about; an unknown id is exit 2 with the ids there are; the example in
// docs/cli.md is what it prints.
#include <string>

#include <gtest/gtest.h>

#include "process.hpp"

namespace {

using loophole::test::Outcome;
using loophole::test::run;
using loophole::test::slurp;

const std::string ward = "tests/fixtures/findings/response-loop/ward-duel.yaml";

TEST(ExplainCli, PrintsTheFindingItsWholeTranscriptAndTheRule) {
  const Outcome r = run("explain response-loop/action:ward " + ward);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind("finding response-loop/action:ward in " + ward + "\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("    after setup: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("'ward' resolves; P1 moves 'ward' from discard[P1] to hand[P1]"),
            std::string::npos)
      << r.out;
  // The rule as written: the action's YAML entry, down to the next entry.
  EXPECT_NE(r.out.find("the rule, as written (action:ward):\n27 |   - name: ward\n"),
            std::string::npos)
      << r.out;
  // Only that finding: the stalemate of the same ruleset is not printed.
  EXPECT_EQ(r.out.find("stalemate"), std::string::npos) << r.out;
}

TEST(ExplainCli, NeverFoldsTheTranscript) {
  // A 21-move trace: `check` with the default 60 lines shows it whole too,
  // but explain does not depend on that limit; no fold line, every move.
  const Outcome r =
      run("explain stalemate/step:main.play#3 "
          "tests/fixtures/findings/unbounded-chain/three-players.yaml");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("... ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(cycle: "), std::string::npos) << r.out;
}

TEST(ExplainCli, UnknownIdListsTheIdsThereAre) {
  const Outcome r = run("explain deadlock/step:nowhere " + ward);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("loophole: error: no finding 'deadlock/step:nowhere'; the findings are:\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("  " + ward + ": response-loop/action:ward\n"), std::string::npos) << r.err;
}

// --timeout as on every search: an id not met before the limit is
// inconclusive (exit 3), not "no such finding".
TEST(ExplainCli, TimeoutIsInconclusive) {
  const Outcome r = run(
      "explain deadlock/step:x --timeout 1s -p top=4000 --no-native tests/fixtures/cli/big.yaml");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "loophole: inconclusive: no finding 'deadlock/step:x' in what was explored before the "
            "search stopped\n");
}

TEST(ExplainCli, BadInputIsExitTwo) {
  const Outcome r = run("explain deadlock/x tests/fixtures/does-not-exist.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("does-not-exist.yaml"), std::string::npos) << r.err;
}

// The example in docs/cli.md is what loophole prints.
TEST(ExplainCli, DocumentedExampleIsCurrent) {
  const std::string doc = slurp("docs/cli.md");
  const std::string cmd = "$ ./loophole explain response-loop/action:ward " + ward + "\n";
  const auto at = doc.find(cmd);
  ASSERT_NE(at, std::string::npos);
  const auto start = at + cmd.size();
  const std::string shown = doc.substr(start, doc.find("```", start) - start);
  EXPECT_EQ(run("explain response-loop/action:ward " + ward).out, shown);
}

}  // namespace
