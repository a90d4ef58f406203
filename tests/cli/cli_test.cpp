// End-to-end tests of the `loophole` binary: exit codes, where output goes,
// bad input, limits, interruption and atomic report files. They run the real
// executable, as CI and designers do.
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process.hpp"

namespace {

namespace fs = std::filesystem;

using loophole::test::Outcome;
using loophole::test::run;
using loophole::test::run_command;
using loophole::test::run_on_terminal;
using loophole::test::slurp;
using loophole::test::temp_dir;

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

TEST(Cli, CleanRulesetExitsZero) {
  const Outcome r = run("check --no-stats tests/fixtures/findings/unreachable-win/reachable.yaml");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST(Cli, FindingExitsOneWithCompilerStyleLine) {
  const Outcome r = run("check --no-stats tests/fixtures/findings/deadlock/no-pass.yaml");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(first_line(r.out),
            "tests/fixtures/findings/deadlock/no-pass.yaml:14:19: error: deadlock: in 'combat · "
            "fight', P1 holds priority and can neither act nor pass");
  EXPECT_NE(r.out.find("  trace (2 moves, shortest):\n"), std::string::npos) << r.out;
}

TEST(Cli, FailOnDecidesWhatFails) {
  // A stalemate is a warning: it fails the run only with --fail-on warning.
  const std::string file = "tests/fixtures/findings/deadlock/clean.yaml";
  EXPECT_EQ(run("check --no-stats " + file).code, 0);
  const Outcome r = run("check --no-stats --fail-on warning " + file);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(first_line(r.out).rfind(file + ":11:17: warning: stalemate: ", 0), 0u) << r.out;
}

TEST(Cli, FailOnWarningAndNoteFailOnWarnings) {
  // Only a warning (a stalemate in which the players still choose; one where
  // nobody chooses is a hang, an error): it fails the run at --fail-on
  // warning and note, not at the default error.
  const std::string file = " tests/fixtures/findings/deadlock/clean.yaml";
  Outcome r = run("check --no-stats" + file);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find(": warning: stalemate: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(": error: "), std::string::npos) << r.out;
  EXPECT_EQ(run("check --no-stats --fail-on error" + file).code, 0);
  EXPECT_EQ(run("check --no-stats --fail-on warning" + file).code, 1);
  EXPECT_EQ(run("check --no-stats --fail-on note" + file).code, 1);
}

TEST(Cli, FailOnNoteIgnoresInconclusiveAndStaleNotes) {
  // Only notes: two win claims left inconclusive by the state limit. They
  // never fail the run, even at --fail-on note: the run is inconclusive.
  const std::string big = " --max-states 500 tests/fixtures/cli/big.yaml";
  Outcome r = run("check --no-stats --fail-on note" + big);
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find(": note: unreachable win (inconclusive): P1 can never win by 'full'"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find(": warning: "), std::string::npos) << r.out;
  // A stale baseline entry is a note about the project file; it fails nothing.
  const fs::path dir = temp_dir() / "stale";
  fs::create_directories(dir);
  fs::copy_file("tests/fixtures/findings/unreachable-win/reachable.yaml", dir / "reachable.yaml",
                fs::copy_options::overwrite_existing);
  std::ofstream(dir / "loophole.yaml", std::ios::binary)
      << "loophole: 1\nrulesets:\n  - file: reachable.yaml\n    accept:\n"
         "      - id: deadlock/step:main.gone\n        reason: fixed long ago\n";
  r = run("check --no-stats --fail-on note --project " + (dir / "loophole.yaml").string());
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("loophole.yaml:5:13: note: accepted finding 'deadlock/step:main.gone' no "
                       "longer occurs"),
            std::string::npos)
      << r.out;
}

TEST(Cli, TextIsColoredOnATerminalAndPlainOtherwise) {
  const std::string file = "tests/fixtures/findings/deadlock/no-pass.yaml";
  const std::string red_error = "\x1b[1;31merror\x1b[0m: deadlock: ";
  // Piped (the default --color auto): not one escape byte.
  Outcome r = run("check --no-stats " + file);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("error: deadlock: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  // --color always colors even a pipe: bold location, red severity.
  r = run("check --no-stats --color always " + file);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out.rfind("\x1b[1m" + file + ":14:19\x1b[0m: " + red_error, 0), 0u) << r.out;
  const Outcome warning =
      run("check --no-stats --color always tests/fixtures/findings/deadlock/clean.yaml");
  EXPECT_NE(warning.out.find("\x1b[1;35mwarning\x1b[0m: stalemate: "), std::string::npos)
      << warning.out;
  // On a terminal, auto colors; --color never does not.
  std::string tty = run_on_terminal({"check", "--no-stats", file});
  EXPECT_NE(tty.find(red_error), std::string::npos) << tty;
  tty = run_on_terminal({"check", "--no-stats", "--color", "never", file});
  EXPECT_NE(tty.find("error: deadlock: "), std::string::npos) << tty;
  EXPECT_EQ(tty.find('\x1b'), std::string::npos) << tty;
  // A report file written from a terminal is plain.
  const fs::path report = temp_dir() / "from-terminal.txt";
  fs::remove(report);
  run_on_terminal({"check", "--no-stats", "-o", report.string(), file});
  const std::string text = slurp(report);
  EXPECT_NE(text.find("error: deadlock: "), std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
}

TEST(Cli, BadInputExitsTwoWithLocatedDiagnostic) {
  const Outcome r = run("check tests/fixtures/cli/bad.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "tests/fixtures/cli/bad.yaml:14:35: error: unknown zone 'discard_pile'\n"
            "   14 |           do: \"move(hand[active], discard_pile[active], 1)\"\n"
            "      |                                   ^~~~~~~~~~~~\n"
            "note: did you mean 'discard'? (declared at tests/fixtures/cli/bad.yaml:8:3)\n");
  EXPECT_EQ(r.out, "");
}

TEST(Cli, MissingFileExitsTwo) {
  const Outcome r = run("check tests/fixtures/no-such-file.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(first_line(r.err),
            "tests/fixtures/no-such-file.yaml: error: cannot read file: No such file or directory");
}

TEST(Cli, DirectoryExitsTwo) {
  const Outcome r = run("check tests/fixtures/cli");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(first_line(r.err),
            "tests/fixtures/cli: error: 'tests/fixtures/cli' is not a regular file");
}

// (Written here, not kept under tests/fixtures: the fuzzers seed from there.)
TEST(Cli, EndlessIncludeExitsTwo) {
  const fs::path file = temp_dir() / "endless.yaml";
  std::ofstream(file, std::ios::binary)
      << "loophole: 1\ngame: endless\ninclude: [/dev/zero]\n"
         "turn:\n  phases:\n    - name: main\n      steps:\n        - name: only\n";
  Outcome r = run("check " + file.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(first_line(r.err), file.string() +
                                   ":3:11: error: include '/dev/zero' is outside the ruleset's "
                                   "directory '" +
                                   temp_dir().string() + "' (use --include-root to allow it)");
  r = run("check --include-root /dev " + file.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(first_line(r.err), file.string() + ":3:11: error: '/dev/zero' is not a regular file");
}

TEST(Cli, BadRulesetDoesNotStopTheOthers) {
  const Outcome r =
      run("check --no-stats tests/fixtures/cli/bad.yaml "
          "tests/fixtures/findings/deadlock/no-pass.yaml");
  EXPECT_EQ(r.code, 2);  // bad input wins over findings
  EXPECT_NE(r.out.find("no-pass.yaml:14:19: error: deadlock"), std::string::npos) << r.out;
}

TEST(Cli, BadOptionValuesExitTwo) {
  const std::string file = " tests/fixtures/cli/big.yaml";
  Outcome r = run("check --param top=lots" + file);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "loophole: error: --param: value of param 'top' must be an integer, found 'lots'\n");
  r = run("check --param top=9999" + file);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("error: value 9999 for param 'top' (from --param) is out of range 1..4000"),
            std::string::npos)
      << r.err;
  r = run("check --max-memory lots" + file);
  EXPECT_EQ(r.code, 2);
  r = run("check --threads -1" + file);
  EXPECT_EQ(r.code, 2);
  r = run("frobnicate");
  EXPECT_EQ(r.code, 2);
}

// --layer-states N: the SMT engine's breadth-first layers hold at most N
// states. loss-never.yaml's 'dead' is settled by the layers' complete search
// (every state within 4 moves) by default; with room for 3 states (or none)
// BMC answers the depths and k-induction proves it.
TEST(Cli, LayerStatesBoundsTheSmtBreadthFirstSearch) {
  const std::string file = " tests/fixtures/findings/unreachable-win/loss-never.yaml";
  const std::string complete =
      "its condition holds for P1 in no reachable state; every "
      "reachable state lies within 4 moves\n";
  const std::string proved = "in no reachable state; proved by k-induction (k = 1)\n";
  Outcome r = run("check --engine smt --depth 6 --color never" + file);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(complete), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(proved), std::string::npos) << r.out;
  for (const char* n : {"3", "0"}) {
    r = run(std::string("check --engine smt --depth 6 --color never --layer-states ") + n + file);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.find(complete), std::string::npos) << n << "\n" << r.out;
    EXPECT_NE(r.out.find(proved), std::string::npos) << n << "\n" << r.out;
  }
  r = run("check --engine smt --layer-states -1" + file);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--layer-states: Value -1 not in range 0 to 1099511627776"),
            std::string::npos)
      << r.err;
}

TEST(Cli, StateLimitIsInconclusive) {
  const Outcome r = run("check --max-states 500 tests/fixtures/cli/big.yaml");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("(inconclusive: state limit reached)"), std::string::npos) << r.out;
}

TEST(Cli, ThreadCountsGiveIdenticalReports) {
  for (const std::string file : {"tests/fixtures/findings/response-loop/ward-duel.yaml",
                                 "tests/fixtures/findings/stalemate/race.yaml",
                                 "tests/fixtures/findings/rule-gap/empty-deck.yaml"}) {
    const Outcome one = run("check --no-stats -j 1 " + file);
    const Outcome two = run("check --no-stats -j 2 " + file);
    EXPECT_EQ(one.code, two.code) << file;
    EXPECT_EQ(one.out, two.out) << file;
    EXPECT_FALSE(one.out.empty()) << file;
  }
}

// --native (docs/cli.md, "Native code"): the same report; without a C
// compiler, the same report too, and a warning that says why. Without
// --native, the rules run as machine code when the cache has them compiled
// (these searches are too short to compile them in the background);
// --no-native never.
TEST(Cli, NativeGivesTheSameReports) {
  const fs::path dir = temp_dir() / "native-cache";
  const std::string cache = "LOOPHOLE_CACHE='" + dir.string() + "' ";
  for (const std::string file : {"tests/fixtures/findings/response-loop/ward-duel.yaml",
                                 "tests/fixtures/findings/stalemate/race.yaml",
                                 "tests/fixtures/findings/rule-gap/empty-deck.yaml"}) {
    fs::remove_all(dir);
    const Outcome interpreted = run("check --no-stats -j 1 --no-native " + file);
    // Not compiled yet: the default runs the rules interpreted, and neither
    // compiles nor makes the cache.
    const Outcome first =
        run_command(cache + LOOPHOLE_BINARY + " check -j 1 --color never " + file);
    EXPECT_EQ(first.out.find("native"), std::string::npos) << first.out;
    EXPECT_EQ(first.err, "");
    EXPECT_FALSE(fs::exists(dir)) << file;
    const Outcome native =
        run_command(cache + LOOPHOLE_BINARY + " check --no-stats -j 1 --native " + file);
    EXPECT_EQ(native.code, interpreted.code) << file;
    EXPECT_EQ(native.out, interpreted.out) << file;
    EXPECT_EQ(native.err, "") << file;
    // Only the statistics line says how the rules ran.
    const Outcome stats =
        run_command(cache + LOOPHOLE_BINARY + " check -j 1 --native --color never " + file);
    EXPECT_NE(stats.out.find("  threads 1  native  symmetry"), std::string::npos) << stats.out;
    const Outcome cached =
        run_command(cache + LOOPHOLE_BINARY + " check -j 1 --color never " + file);
    EXPECT_NE(cached.out.find("  threads 1  native  symmetry"), std::string::npos) << cached.out;
    EXPECT_EQ(run_command(cache + LOOPHOLE_BINARY + " check -j 1 --no-native --color never " + file)
                  .out.find("native"),
              std::string::npos);
    const Outcome without =
        run_command(cache + "LOOPHOLE_NATIVE_CC=/nonexistent/cc " + LOOPHOLE_BINARY +
                    " check --no-stats -j 1 --native " + file);
    EXPECT_EQ(without.code, interpreted.code) << file;
    EXPECT_EQ(without.out, interpreted.out) << file;
    EXPECT_EQ(without.err,
              "loophole: warning: " + file +
                  ": --native: the rules ran interpreted: compiled (native: cannot "
                  "run the C compiler '/nonexistent/cc': No such file or directory)\n");
  }
  const Outcome both = run("check --native --no-native rulesets/cosmere.yaml");
  EXPECT_EQ(both.code, 2);
  EXPECT_EQ(both.err, "loophole: error: --native excludes --no-native\n");
}

TEST(Cli, OutputFileIsWrittenWhole) {
  const fs::path report = temp_dir() / "report.txt";
  fs::remove(report);
  const Outcome r = run("check --no-stats -o " + report.string() +
                        " tests/fixtures/findings/deadlock/no-pass.yaml");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  const std::string text = slurp(report);
  EXPECT_EQ(first_line(text).rfind("tests/fixtures/findings/deadlock/no-pass.yaml:14:19:", 0), 0u);
  for (const auto& entry : fs::directory_iterator(temp_dir())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos)
        << "left behind: " << entry.path();
  }
}

// A directory as the output is refused before anything is written (it said
// "cannot write '...': Success", after writing a temporary file beside it).
TEST(Cli, OutputToADirectoryExitsTwo) {
  const fs::path dir = temp_dir() / "report-dir";
  fs::create_directories(dir);
  const Outcome r =
      run("check --no-stats -o " + dir.string() + " tests/fixtures/findings/deadlock/no-pass.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "loophole: error: cannot write '" + dir.string() + "': Is a directory\n");
  for (const auto& entry : fs::directory_iterator(temp_dir())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos)
        << "left behind: " << entry.path();
  }
}

// A symbolic link is written through, not replaced by a renamed file: a
// link to /proc/self/fd/1 (what /dev/stdout is) puts the report on standard
// output, one to /dev/null discards it, one to a file fills that file, and
// every link stays a link. (Links of our own: were the output renamed over
// /dev/stdout itself, a failing test would replace the machine's.)
TEST(Cli, OutputThroughASymbolicLinkWritesWhereItPoints) {
  const std::string ruleset = " tests/fixtures/findings/deadlock/no-pass.yaml";
  const Outcome plain = run("check --no-stats" + ruleset);
  ASSERT_EQ(plain.code, 1);
  ASSERT_FALSE(plain.out.empty());
  const fs::path to_stdout = temp_dir() / "stdout-link";
  const fs::path to_null = temp_dir() / "null-link";
  const fs::path to_file = temp_dir() / "file-link";
  const fs::path file = temp_dir() / "linked-report.txt";
  for (const auto& link : {to_stdout, to_null, to_file}) fs::remove(link);
  fs::remove(file);
  fs::create_symlink("/proc/self/fd/1", to_stdout);
  fs::create_symlink("/dev/null", to_null);
  fs::create_symlink(file, to_file);

  const Outcome out = run("check --no-stats -o " + to_stdout.string() + ruleset);
  EXPECT_EQ(out.code, 1);
  EXPECT_EQ(out.out, plain.out);
  const Outcome null = run("check --no-stats -o " + to_null.string() + ruleset);
  EXPECT_EQ(null.code, 1);
  EXPECT_EQ(null.out, "");
  EXPECT_EQ(null.err, "");
  const Outcome linked = run("check --no-stats -o " + to_file.string() + ruleset);
  EXPECT_EQ(linked.code, 1);
  EXPECT_EQ(slurp(file), plain.out);
  for (const auto& link : {to_stdout, to_null, to_file}) {
    EXPECT_TRUE(fs::is_symlink(link)) << link;
  }
}

// Bad input (exit 2) leaves no report file behind and leaves an existing one
// as it was (-o and --report alike); the diagnostics are on stderr.
TEST(Cli, BadInputLeavesNoReportFileAndAnExistingOneAlone) {
  const fs::path report = temp_dir() / "bad-report.txt";
  const fs::path extra = temp_dir() / "bad-report.json";
  fs::remove(report);
  fs::remove(extra);
  Outcome r = run("check -o " + report.string() + " --report json:" + extra.string() +
                  " tests/fixtures/cli/bad.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("error: unknown zone 'discard_pile'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(report));
  EXPECT_FALSE(fs::exists(extra));
  // An earlier report survives a run that fails on bad input, even when the
  // other rulesets of the run loaded.
  std::ofstream(report, std::ios::binary) << "the report of an earlier run\n";
  r = run("check -o " + report.string() +
          " tests/fixtures/cli/bad.yaml tests/fixtures/findings/deadlock/no-pass.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(slurp(report), "the report of an earlier run\n");
  for (const auto& entry : fs::directory_iterator(temp_dir())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos)
        << "left behind: " << entry.path();
  }
}

TEST(Cli, InterruptReportsWhatWasExploredAndLeavesNoPartialFile) {
  const fs::path report = temp_dir() / "interrupted.txt";
  fs::remove(report);
  const fs::path err = temp_dir() / "interrupt.err";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::freopen(err.c_str(), "w", stderr);
    execl(LOOPHOLE_BINARY, LOOPHOLE_BINARY, "check", "-p", "top=4000", "-o", report.c_str(),
          "tests/fixtures/cli/big.yaml", static_cast<char*>(nullptr));
    _exit(127);
  }
  ASSERT_TRUE(loophole::test::wait_for_sigint_handler(pid));
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  const std::string said = slurp(err);
  EXPECT_NE(said.find("loophole: interrupted; the report covers what was explored"),
            std::string::npos);
  // Said at once, from the signal handler, before the report is written.
  EXPECT_EQ(said.find("loophole: stopping... (writing what was explored; signal again to quit "
                      "at once)\n"),
            0u)
      << said;
  const std::string text = slurp(report);
  // Both win claims become inconclusive notes instead of findings.
  EXPECT_NE(text.find("tests/fixtures/cli/big.yaml: 2 findings  states "), std::string::npos)
      << text;
  EXPECT_NE(text.find("note: unreachable win (inconclusive): P1 can never win by 'full'"),
            std::string::npos);
  EXPECT_NE(text.find("(inconclusive: interrupted)\n"), std::string::npos) << text;
}

TEST(Cli, UnreachableStepIsReportedOnceAsStructure) {
  const Outcome r = run("check --no-stats tests/fixtures/cli/unreachable-step.yaml");
  EXPECT_EQ(r.code, 1);
  std::vector<std::string> headlines;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("tests/", 0) == 0) headlines.push_back(line);
  }
  const std::string f = "tests/fixtures/cli/unreachable-step.yaml";
  EXPECT_EQ(headlines,
            (std::vector<std::string>{
                f + ":19:17: error: structure: step 'later.lost' is unreachable from the start of "
                    "the turn",
                f + ":8:11: error: unreachable win: P1 can never win by 'never'",
                f + ":8:11: error: unreachable win: P2 can never win by 'never'",
                f + ":15:17: error: stalemate: from 'main · only' the game can go on forever: no "
                    "sequence of moves ends it"}));
}

TEST(Cli, SweepReportsEachFindingOnceAtItsSmallestScope) {
  const Outcome r = run("check -j1 --sweep deck=1..4 tests/fixtures/cli/sweep.yaml");
  EXPECT_EQ(1, r.code) << r.err;
  // The rule gap needs a one-card deck; P2's win is out of reach at every size.
  EXPECT_NE(r.out.find("error: rule gap: draw from an empty deck\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  appears with deck = 1 of the sweep 1..4; smallest scope deck = 1\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("error: unreachable win: P2 can never win by 'collector'\n"),
            std::string::npos);
  EXPECT_NE(r.out.find("  appears at every value of the sweep deck = 1..4; smallest scope deck = "
                       "1\n"),
            std::string::npos);
  // Each found once: all three in the run of deck = 1, none in the others.
  EXPECT_NE(r.out.find("tests/fixtures/cli/sweep.yaml [deck=1]: 3 findings  states 4  "),
            std::string::npos)
      << r.out;
  for (const char* v : {"2", "3", "4"}) {
    EXPECT_NE(r.out.find(std::string("tests/fixtures/cli/sweep.yaml [deck=") + v +
                         "]: 0 findings  states 4  "),
              std::string::npos)
        << v;
  }
}

TEST(Cli, GraphPrintsDot) {
  const Outcome r = run("graph tests/fixtures/findings/deadlock/no-pass.yaml");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("digraph ", 0), 0u) << r.out;
  const Outcome bad = run("graph tests/fixtures/cli/bad.yaml");
  EXPECT_EQ(bad.code, 2);
}

}  // namespace
