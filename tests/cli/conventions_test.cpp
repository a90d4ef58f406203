// End-to-end tests of the conventions every subcommand keeps (docs/cli.md):
// NO_COLOR and CLICOLOR_FORCE, `-` for standard input, per-subcommand help
// footers, --version, param suggestions, errors located in loophole.yaml,
// --timeout on every search, the progress line only on a terminal, and
// what `graph --trace/--detail` and `diff` show of a finding.
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "process.hpp"

namespace {

namespace fs = std::filesystem;

using loophole::test::Outcome;
using loophole::test::run;
using loophole::test::run_command;
using loophole::test::run_in;
using loophole::test::run_on_terminal;
using loophole::test::temp_dir;

const std::string k_deadlock = "tests/fixtures/findings/deadlock/no-pass.yaml";
const std::string k_red_error = "\x1b[1;31merror\x1b[0m: deadlock: ";
const std::string k_bin = LOOPHOLE_BINARY;

TEST(Conventions, NoColorTurnsColourOffEvenOnATerminal) {
  std::string tty = run_on_terminal({"check", "--no-stats", k_deadlock}, {"NO_COLOR=1"});
  EXPECT_NE(tty.find("error: deadlock: "), std::string::npos) << tty;
  EXPECT_EQ(tty.find('\x1b'), std::string::npos) << tty;
  // An empty NO_COLOR is not set; --color always wins over it.
  tty = run_on_terminal({"check", "--no-stats", k_deadlock}, {"NO_COLOR="});
  EXPECT_NE(tty.find(k_red_error), std::string::npos) << tty;
  tty = run_on_terminal({"check", "--no-stats", "--color", "always", k_deadlock}, {"NO_COLOR=1"});
  EXPECT_NE(tty.find(k_red_error), std::string::npos) << tty;
}

TEST(Conventions, CliColorForceColoursAPipe) {
  Outcome r = run_command("CLICOLOR_FORCE=1 " + k_bin + " check --no-stats " + k_deadlock);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(k_red_error), std::string::npos) << r.out;
  // "0" does not force; --color never wins; NO_COLOR wins over it.
  for (const std::string& cmd : {"CLICOLOR_FORCE=0 " + k_bin + " check --no-stats ",
                                 "CLICOLOR_FORCE=1 " + k_bin + " check --no-stats --color never ",
                                 "NO_COLOR=1 CLICOLOR_FORCE=1 " + k_bin + " check --no-stats "}) {
    r = run_command(cmd + k_deadlock);
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << cmd << r.out;
  }
}

TEST(Conventions, DashReadsTheRulesetFromStandardInput) {
  Outcome r = run_command("{ " + k_bin + " check --no-stats - < " + k_deadlock + "; }");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "<stdin>:14:19: error: deadlock: in 'combat · fight', P1 holds priority and can "
            "neither act nor pass");
  // graph and export read it too.
  r = run_command("{ " + k_bin + " graph - < " + k_deadlock + "; }");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, run("graph " + k_deadlock).out);
  r = run_command("{ " + k_bin + " export - < " + k_deadlock + "; }");
  EXPECT_EQ(r.code, 0) << r.err;
  // Includes from standard input resolve from the current directory.
  const fs::path dir = temp_dir() / "stdin-include";
  fs::create_directories(dir / "rules");
  std::ofstream(dir / "rules" / "ends.yaml") << "params:\n  extra: {default: 1}\n";
  fs::copy_file(k_deadlock, dir / "main.yaml", fs::copy_options::overwrite_existing);
  std::ofstream(dir / "main.yaml", std::ios::app) << "include: [rules/ends.yaml]\n";
  r = run_command("{ cd '" + dir.string() + "' && " + k_bin + " check --no-stats - < main.yaml; }");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  // Not UTF-8: located in <stdin> like a file.
  r = run_command("{ printf 'loophole: 1\\ngame: \\377\\n' | " + k_bin + " check -; }");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "<stdin>:2:7: error: invalid UTF-8 byte 0xff\n");
}

TEST(Conventions, EachSubcommandHasItsOwnHelpFooter) {
  const Outcome graph = run("graph --help");
  EXPECT_EQ(graph.code, 0);
  const std::string graph_footer =
      "A ruleset FILE of '-' is read from standard input.\n"
      "Exit codes: 0 the graph was written, 2 bad input or usage (or no such finding\n"
      "for --trace), 3 --trace's search reached a limit (--timeout) or was interrupted\n"
      "before the finding was found.\n"
      "See docs/cli.md.\n";
  EXPECT_EQ(graph.out.substr(graph.out.size() - graph_footer.size()), graph_footer) << graph.out;
  EXPECT_EQ(graph.out.find("--fail-on"), std::string::npos) << graph.out;
  const Outcome exp = run("export --help");
  const std::string export_footer =
      "A ruleset FILE of '-' is read from standard input.\n"
      "Exit codes: 0 the model was written, 2 bad input or usage. (export runs no\n"
      "search, so it has no --timeout.)\n"
      "See docs/cli.md and docs/promela.md.\n";
  EXPECT_EQ(exp.out.substr(exp.out.size() - export_footer.size()), export_footer) << exp.out;
  EXPECT_EQ(exp.out.find("--fail-on"), std::string::npos) << exp.out;
  const Outcome check = run("check --help");
  EXPECT_NE(check.out.find("Exit codes: 0 no finding at or above --fail-on"), std::string::npos);
  const Outcome diff = run("diff --help");
  EXPECT_NE(diff.out.find("Exit codes: 0 the edit adds no finding at or above --fail-on"),
            std::string::npos)
      << diff.out;
  EXPECT_EQ(diff.out.find("(1x)"), std::string::npos) << diff.out;
  EXPECT_NE(diff.out.find(" diff [OPTIONS] old [new]\n"), std::string::npos) << diff.out;
}

TEST(Conventions, VersionNamesTheRevisionAndZ3) {
  const Outcome r = run("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(std::regex_match(
      r.out,
      std::regex(
          R"(loophole 0\.1\.0 \(git ([0-9a-f]{7,}(-dirty)?|unknown), Z3 \d+\.\d+\.\d+\)\n)")))
      << r.out;
}

TEST(Conventions, AnUnknownParamListsTheValidOnes) {
  const Outcome r = run("check -p nope=1 tests/fixtures/cli/big.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "tests/fixtures/cli/big.yaml:7:1: error: unknown param 'nope' (from --param); valid "
            "params are 'top'")
      << r.err;
  const Outcome close = run("graph -p tpo=1 tests/fixtures/cli/big.yaml");
  EXPECT_EQ(close.code, 2);
  EXPECT_NE(close.err.find("error: unknown param 'tpo' (from --param); did you mean 'top'?\n"),
            std::string::npos)
      << close.err;
}

TEST(Conventions, AMissingRulesetIsLocatedInTheProjectFile) {
  const fs::path dir = temp_dir() / "project-missing";
  fs::create_directories(dir);
  std::ofstream(dir / "loophole.yaml") << "loophole: 1\nrulesets:\n  - file: nowhere.yaml\n";
  const Outcome r = run_in(dir, "check");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "loophole.yaml:3:11: error: cannot read ruleset file 'nowhere.yaml': No such file "
            "or directory")
      << r.err;
  // A param the ruleset does not declare, or out of its range, at its line
  // in the project file.
  fs::copy_file("tests/fixtures/cli/big.yaml", dir / "big.yaml",
                fs::copy_options::overwrite_existing);
  std::ofstream(dir / "loophole.yaml")
      << "loophole: 1\nrulesets:\n  - file: big.yaml\n    params: {tpo: 3}\n";
  Outcome p = run_in(dir, "check");
  EXPECT_EQ(p.code, 2);
  EXPECT_EQ(p.err.substr(0, p.err.find('\n')),
            "loophole.yaml:4:14: error: unknown param 'tpo' in 'big.yaml'; did you mean 'top'?")
      << p.err;
  std::ofstream(dir / "loophole.yaml")
      << "loophole: 1\nrulesets:\n  - file: big.yaml\n    params:\n      top: 9999\n";
  p = run_in(dir, "check");
  EXPECT_EQ(p.code, 2);
  EXPECT_EQ(p.err.substr(0, p.err.find('\n')),
            "loophole.yaml:5:7: error: value 9999 for param 'top' is out of range 1..4000")
      << p.err;
  EXPECT_NE(p.err.find("big.yaml:8:3: note: declared here\n"), std::string::npos) << p.err;
  // yaml-cpp's own words are rephrased, the place kept.
  std::ofstream(dir / "loophole.yaml") << "loophole: 1\nrulesets: [{file: a.yaml}\n";
  const Outcome bad = run_in(dir, "check");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err.substr(0, bad.err.find('\n')),
            "loophole.yaml:3:1: error: malformed YAML: a '[' list is not closed with ']'")
      << bad.err;
}

TEST(Conventions, TimeoutStopsDiffAndGraphTraceInconclusive) {
  const std::string big = " -p top=4000 --no-native tests/fixtures/cli/big.yaml";
  Outcome r = run("diff -j 1 --timeout 1s" + big + big.substr(big.rfind(' ')));
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("inconclusive (time-limit)"), std::string::npos) << r.out;
  r = run("graph --timeout 1s --trace deadlock/step:x -p top=4000 tests/fixtures/cli/big.yaml");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(r.err,
            "loophole: inconclusive: --trace: no finding 'deadlock/step:x' in what was explored "
            "before the search stopped (a limit was reached)\n");
  EXPECT_EQ(run("diff --timeout soon" + big + big.substr(big.rfind(' '))).code, 2);
}

TEST(Conventions, NoProgressLineWhenStderrIsNotATerminal) {
  const Outcome r = run("check --no-stats --sweep top=1..3 tests/fixtures/cli/big.yaml");
  EXPECT_EQ(r.err, "");
}

TEST(Conventions, ProgressLineOnATerminalNamesTheSweepValue) {
  const std::string tty = run_on_terminal(
      {"check", "--no-stats", "-j", "1", "--sweep", "top=1..3", "tests/fixtures/cli/big.yaml"}, {},
      true);
  EXPECT_NE(tty.find("top = 1 (value 1 of 3)"), std::string::npos) << tty;
  EXPECT_NE(tty.find("top = 3 (value 3 of 3, "), std::string::npos) << tty;
  EXPECT_NE(tty.find("analyses "), std::string::npos) << tty;
  EXPECT_NE(tty.find("\r\x1b[K"), std::string::npos) << tty;
}

TEST(Conventions, GraphTraceNumbersTheMovesAndMarksTheFinding) {
  const Outcome r = run("graph --trace deadlock/step:combat.fight " + k_deadlock);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("finding here\", shape=box3d, color=red, fontcolor=red, penwidth=2.5, "
                       "style=filled, fillcolor=\"#ffd7d7\", peripheries=2];"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("[label=\"move 1\", color=red, fontcolor=red, penwidth=2.5];"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(run("graph " + k_deadlock).out.find("move"), std::string::npos);
}

TEST(Conventions, GraphDetailShowsActionsTriggersAndEnds) {
  const Outcome r = run("graph --detail " + k_deadlock);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\\nactions: strike"), std::string::npos) << r.out;
  EXPECT_EQ(run("graph " + k_deadlock).out.find("actions:"), std::string::npos);
}

TEST(Conventions, DiffShowsTheTraceOfAnAddedFinding) {
  const Outcome r =
      run("diff -j 1 tests/fixtures/diff/adds-deadlock/old.yaml "
          "tests/fixtures/diff/adds-deadlock/new.yaml");
  EXPECT_EQ(r.code, 1) << r.err;
  const auto added = r.out.find("findings added (1):\n");
  const auto removed = r.out.find("findings removed (1):\n");
  ASSERT_NE(added, std::string::npos) << r.out;
  const auto trace = r.out.find("    trace (", added);
  EXPECT_LT(trace, removed) << r.out;
  // A removed finding is listed without its trace.
  EXPECT_EQ(r.out.find("    trace (", removed), std::string::npos) << r.out;
}

}  // namespace
