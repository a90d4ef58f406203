// `loophole simulate` end to end: exit codes (0 no problem, 1 a problem met,
// 2 bad flags or input, 3 stopped by --timeout or SIGINT with the games
// played so far reported), and the same JSON for any thread count.
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "process.hpp"

namespace {

namespace fs = std::filesystem;
using loophole::test::run;
using loophole::test::slurp;
using loophole::test::temp_dir;

const std::string k_biased = "tests/fixtures/simulate/biased.yaml";
const std::string k_gap = "tests/fixtures/simulate/gap.yaml";
const std::string k_race = "tests/fixtures/simulate/race.yaml";

TEST(SimulateCli, ExitCodes) {
  auto r = run("simulate --games 200 --seed 3 " + k_biased);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("200 games simulated (seed 3, uniform policy, cut off at 10,000 moves)"),
            std::string::npos)
      << r.out;
  r = run("simulate --games 200 " + k_gap);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("tests/fixtures/simulate/gap.yaml:15:14: error: rule gap: "),
            std::string::npos)
      << r.out;
}

TEST(SimulateCli, BadFlagsAndInputExit2) {
  for (const std::string flags : {"--games 0", "--policy best", "--timeout 0", "--format sarif",
                                  "-j -1", "--max-moves 0", "--seed x", "-p nope=1"}) {
    const auto r = run("simulate " + flags + " " + k_biased);
    EXPECT_EQ(r.code, 2) << flags << ": " << r.err;
    EXPECT_EQ(r.out, "") << flags;
  }
  const auto missing = run("simulate tests/fixtures/simulate/nowhere.yaml");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("nowhere.yaml"), std::string::npos) << missing.err;
  const auto bad = loophole::test::run_command("{ printf 'loophole: 1\\ngame: \\377\\n' | " +
                                               std::string(LOOPHOLE_BINARY) + " simulate -; }");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err, "<stdin>:2:7: error: invalid UTF-8 byte 0xff\n");
}

TEST(SimulateCli, SameJsonForAnyThreadCount) {
  const auto one = run("simulate --games 4000 --seed 11 --format json --no-stats -j1 " + k_gap);
  const auto two = run("simulate --games 4000 --seed 11 --format json --no-stats -j2 " + k_gap);
  EXPECT_EQ(one.code, 1);
  EXPECT_EQ(one.out, two.out);
  const auto j = nlohmann::json::parse(one.out);
  EXPECT_EQ(j["games"], 4000);
  EXPECT_EQ(j["endings"]["rule_gap"], 4000);
  EXPECT_EQ(j["problems"][0]["finding"]["kind"], "rule-gap");
  EXPECT_EQ(j["problems"][0]["games"], 4000);
  EXPECT_FALSE(j.contains("timings"));
}

TEST(SimulateCli, TimeoutReportsWhatWasPlayed) {
  const auto r = run("simulate --games 1000000000 --timeout 1s --format json " + k_race);
  EXPECT_EQ(r.code, 3) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["completion"], "time-limit");
  EXPECT_GT(j["games"].get<std::uint64_t>(), 0u);
  EXPECT_LT(j["games"].get<std::uint64_t>(), 1000000000u);
  EXPECT_NE(r.err.find("loophole: inconclusive: time limit reached after "), std::string::npos)
      << r.err;
}

TEST(SimulateCli, SigintReportsWhatWasPlayed) {
  const fs::path out = temp_dir() / "simulate-interrupted.json";
  fs::remove(out);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::freopen("/dev/null", "w", stderr);
    execl(LOOPHOLE_BINARY, LOOPHOLE_BINARY, "simulate", "--games", "1000000000", "--format", "json",
          "-o", out.c_str(), k_race.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  ASSERT_TRUE(loophole::test::wait_for_sigint_handler(pid));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  const auto j = nlohmann::json::parse(slurp(out));
  EXPECT_EQ(j["completion"], "interrupted");
  EXPECT_LT(j["games"].get<std::uint64_t>(), 1000000000u);
}

}  // namespace

namespace {

// The example of docs/simulate.md is what the command prints.
TEST(SimulateCli, DocsExampleIsWhatItPrints) {
  const std::string doc = slurp("docs/simulate.md");
  const std::string prompt =
      "$ ./loophole simulate tests/fixtures/simulate/biased.yaml --games 20000 --seed 7 "
      "--no-stats\n";
  const auto at = doc.find(prompt);
  ASSERT_NE(at, std::string::npos);
  const auto from = at + prompt.size();
  const std::string shown = doc.substr(from, doc.find("```", from) - from);
  const auto r =
      run("simulate tests/fixtures/simulate/biased.yaml --games 20000 --seed 7 --no-stats");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, shown);
}

}  // namespace

namespace {

// `loophole solve`: the race P1 forces (tests/properties has the exact
// regions and replays the witnesses), its decision tree, JSON, and a fair
// coin; docs/solve.md shows these runs as they are.
std::string doc_block(const std::string& doc, const std::string& prompt) {
  const auto at = doc.find(prompt);
  EXPECT_NE(at, std::string::npos) << prompt;
  if (at == std::string::npos) return {};
  const auto from = at + prompt.size();
  return doc.substr(from, doc.find("```", from) - from);
}

TEST(SolveCli, SaysWhoCanForceTheRace) {
  const auto r = run("solve -j1 tests/fixtures/simulate/race.yaml");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\nP1 can force a win from the start: yes (within "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nP2 can force a win from the start: no;"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nP1 and P2 together can keep the game from ever ending, from the start: "
                       "yes;"),
            std::string::npos)
      << r.out;
  // The tree branches on each of P2's replies.
  EXPECT_NE(r.out.find("\n    if T2 P2 main · play: P2 plays 'idle' (moved false→true):\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(run("solve --timeout 0 tests/fixtures/simulate/race.yaml").code, 2);
  EXPECT_EQ(run("solve --nature sometimes tests/fixtures/simulate/race.yaml").code, 2);
  const std::string doc = slurp("docs/solve.md");
  EXPECT_EQ(run("solve tests/fixtures/simulate/race.yaml").out,
            doc_block(doc, "$ ./loophole solve tests/fixtures/simulate/race.yaml\n"));
  EXPECT_EQ(run("solve --nature fair tests/fixtures/strategy/coin.yaml").out,
            doc_block(doc, "$ ./loophole solve --nature fair tests/fixtures/strategy/coin.yaml\n"));
  // Against adversarial nature nobody forces the coin.
  const auto adversarial = run("solve tests/fixtures/strategy/coin.yaml");
  EXPECT_NE(adversarial.out.find("\nP1 can force a win from the start: no;"), std::string::npos)
      << adversarial.out;
}

TEST(SolveCli, JsonHasTheTreeAndTheCaveat) {
  const auto r = run("solve --format json --tree-size 4 tests/fixtures/simulate/race.yaml");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["nature"], "adversarial");
  EXPECT_EQ(doc["perfect_information"], true);
  EXPECT_EQ(doc["states"], 65);
  ASSERT_EQ(doc["coalitions"].size(), 3u);
  EXPECT_EQ(doc["coalitions"][2]["players"], nlohmann::json::array({1, 2}));
  const auto& p1 = doc["coalitions"][0]["win"];
  EXPECT_EQ(p1["from_start"], true);
  EXPECT_EQ(p1["by_condition"]["first_to_3"], true);
  // At most 4 nodes: the root, two forced moves (start, advance to
  // 'main · play'), P1's first gain, and there the bound cuts it.
  const auto& start = p1["strategy"]["then"];
  ASSERT_EQ(start.size(), 1u);
  EXPECT_EQ(start[0]["by"], "forced");
  ASSERT_EQ(start[0]["then"].size(), 1u);
  const auto& play = start[0]["then"][0]["then"];
  ASSERT_EQ(play.size(), 1u);
  EXPECT_EQ(play[0]["by"], "coalition");
  EXPECT_EQ(play[0]["move"],
            "T1 P1 main · play: P1 plays 'gain' (score[P1] 0→1, moved false→true)");
  EXPECT_EQ(play[0]["end"], "cut");
  EXPECT_EQ(doc["coalitions"][1]["win"]["strategy"], nullptr);
}

}  // namespace
