// The binary on untrusted input, end to end: what a CI run sees when a pull
// request brings a ruleset or project file that climbs out of its tree, is
// a FIFO, is not UTF-8, or takes long to load and the job's `timeout`
// signals it. Exact stderr lines and exit codes.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process.hpp"

namespace {

namespace fs = std::filesystem;
using loophole::test::Outcome;
using loophole::test::run_in;
using loophole::test::slurp;
using loophole::test::temp_dir;

const std::string k_turn =
    "turn:\n  phases:\n    - name: main\n      steps:\n        - name: only\n";

fs::path write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string line_one(const std::string& text) { return text.substr(0, text.find('\n')); }

// A project: rules/game.yaml includes ../shared/cards.yaml, which is inside
// the project's tree but outside the ruleset's directory.
TEST(UntrustedCli, ProjectTreeBoundsIncludes) {
  const fs::path dir = temp_dir() / "project";
  write(dir / "shared/cards.yaml", "kinds: {a: {copies: 1}}\n");
  write(dir / "rules/game.yaml",
        "loophole: 1\ngame: g\ninclude: [../shared/cards.yaml]\n" + k_turn);
  write(dir / "loophole.yaml", "loophole: 1\nrulesets:\n  - file: rules/game.yaml\n");
  // Alone, the ruleset may not reach ../shared.
  Outcome r = run_in(dir, "check --no-stats rules/game.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(line_one(r.err),
            "rules/game.yaml:3:11: error: include '../shared/cards.yaml' is outside the ruleset's "
            "directory 'rules' (use --include-root to allow it)");
  EXPECT_EQ(r.err.find("kinds"), std::string::npos) << r.err;
  EXPECT_NE(run_in(dir, "check --no-stats --include-root shared rules/game.yaml").code, 2);
  // In its project it may.
  r = run_in(dir, "check --no-stats");
  EXPECT_NE(r.code, 2) << r.err;
}

TEST(UntrustedCli, FifoRulesetAndProjectFileAreRefusedAtOnce) {
  const fs::path dir = temp_dir() / "fifo";
  fs::create_directories(dir);
  ASSERT_EQ(::mkfifo((dir / "game.yaml").c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo((dir / "loophole.yaml").c_str(), 0600), 0);
  // `timeout`: before the fix both waited for a writer forever.
  Outcome r = loophole::test::run_command("cd '" + dir.string() + "' && timeout 20 " +
                                          LOOPHOLE_BINARY + " check game.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "game.yaml: error: 'game.yaml' is not a regular file\n");
  r = loophole::test::run_command("cd '" + dir.string() + "' && timeout 20 " + LOOPHOLE_BINARY +
                                  " check");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(line_one(r.err), "loophole.yaml: error: 'loophole.yaml' is not a regular file");
}

TEST(UntrustedCli, ProjectFileThatIsNotUtf8) {
  const fs::path dir = temp_dir() / "latin1";
  write(dir / "loophole.yaml", "loophole: 1\n# caf\xe9\nrulesets: []\n");
  const Outcome r = run_in(dir, "check");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(line_one(r.err), "loophole.yaml:2:6: error: invalid UTF-8 byte 0xe9");
}

// `timeout 1 loophole check slow.yaml`: the first SIGTERM ends a run that is
// still loading, with exit 3 and no report file.
TEST(UntrustedCli, SigtermWhileLoadingEndsTheRunAtOnce) {
  const fs::path dir = temp_dir() / "slow";
  std::string text = "loophole: 1\ngame: slow\nkinds:\n";
  for (int i = 0; i < 200000; ++i) text += "  K" + std::to_string(i) + ": {copies: 1}\n";
  write(dir / "slow.yaml", text + k_turn);
  const fs::path report = dir / "report.json";
  const fs::path err = dir / "err";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::freopen(err.c_str(), "w", stderr);
    execl(LOOPHOLE_BINARY, LOOPHOLE_BINARY, "check", "--format", "json", "-o", report.c_str(),
          (dir / "slow.yaml").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  ASSERT_TRUE(loophole::test::wait_for_sigint_handler(pid));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto ended = loophole::test::signal_and_wait(pid, SIGTERM);
  EXPECT_EQ(ended.code, 3);
  EXPECT_LT(ended.seconds, 1.0);
  EXPECT_EQ(slurp(err), "loophole: inconclusive: interrupted while loading\n");
  EXPECT_FALSE(fs::exists(report));
}

}  // namespace
