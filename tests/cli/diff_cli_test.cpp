// End-to-end tests of `loophole diff`: two files, the JSON output, and two
// git revisions of one file whose includes must resolve.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
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

// Runs `git ARGS` in `repo` with a fixed identity; every "{git}" in ARGS is
// the same git command (for chains such as "init -q && {git} add .").
// Returns the shell's exit code.
int git(const fs::path& repo, std::string args) {
  const std::string command = "git -c user.name=t -c user.email=t@t.invalid";
  for (std::size_t at = args.find("{git}"); at != std::string::npos; at = args.find("{git}", at)) {
    args.replace(at, 5, command);
    at += command.size();
  }
  return std::system(
      ("cd '" + repo.string() + "' && " + command + " " + args + " >/dev/null").c_str());
}

std::string pair(const std::string& name) {
  return " tests/fixtures/diff/" + name + "/old.yaml tests/fixtures/diff/" + name + "/new.yaml";
}

TEST(DiffCli, ExitsOneExactlyWhenTheEditAddsFindings) {
  EXPECT_EQ(run("diff -j 1" + pair("adds-deadlock")).code, 1);
  EXPECT_EQ(run("diff -j 1" + pair("removes-loop")).code, 0);
  EXPECT_EQ(run("diff -j 1 --fail-on warning" + pair("removes-loop")).code, 1);
  EXPECT_EQ(run("diff -j 1" + pair("win-unreachable")).code, 1);
  // Undoing an edit adds nothing.
  EXPECT_EQ(run("diff -j 1 tests/fixtures/diff/win-unreachable/new.yaml "
                "tests/fixtures/diff/win-unreachable/old.yaml")
                .code,
            0);
}

// --native (docs/cli.md) changes nothing in what diff reports.
TEST(DiffCli, NativeGivesTheSameDiff) {
  const std::string cache = "LOOPHOLE_CACHE='" + (temp_dir() / "native-cache").string() + "' ";
  const Outcome interpreted = run("diff -j 1 --format json" + pair("adds-deadlock"));
  const Outcome native = loophole::test::run_command(
      cache + LOOPHOLE_BINARY + " diff -j 1 --native --format json" + pair("adds-deadlock"));
  EXPECT_EQ(native.code, 1) << native.err;
  EXPECT_EQ(native.out, interpreted.out);
  EXPECT_EQ(native.err, "");
}

TEST(DiffCli, JsonListsAddedAndRemovedFindings) {
  const Outcome r = run("diff -j 1 --format json" + pair("adds-deadlock"));
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["added"].size(), 1u);
  EXPECT_EQ(j["added"][0]["id"], "deadlock/step:combat.fight");
  EXPECT_EQ(j["added"][0]["trace"]["length"], 2);
  ASSERT_EQ(j["removed"].size(), 1u);
  EXPECT_EQ(j["removed"][0]["id"], "stalemate/step:combat.fight");
  EXPECT_EQ(j["states_delta"], -3);  // (states stored: 6 -> 3, per rotation orbit)
}

TEST(DiffCli, BadUsageAndBadInputExitTwo) {
  Outcome r = run("diff tests/fixtures/diff/adds-deadlock/old.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "loophole: error: diff takes OLD NEW, or FILE with one or two --rev\n");
  r = run("diff tests/fixtures/diff/adds-deadlock/old.yaml tests/fixtures/cli/bad.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("tests/fixtures/cli/bad.yaml:14:35: error: unknown zone 'discard_pile'", 0),
            0u)
      << r.err;
}

// Two commits of a ruleset in a subdirectory that includes a file next to
// it: the edit of the second commit makes both wins unreachable. The end
// conditions live in the included file (of the same revision), so the
// findings point there, named REV:path.
TEST(DiffCli, ComparesGitRevisionsWithIncludes) {
  ASSERT_EQ(std::system("command -v git >/dev/null"), 0) << "git is missing";
  const fs::path repo = temp_dir() / "repo";
  fs::remove_all(repo);
  fs::create_directories(repo / "rules");
  const auto split = [](const std::string& text) {
    const auto at = text.find("\nend:\n");
    return std::make_pair(text.substr(0, at + 1), text.substr(at + 1));
  };
  const auto [old_body, ends] = split(slurp("tests/fixtures/diff/win-unreachable/old.yaml"));
  const auto new_body = split(slurp("tests/fixtures/diff/win-unreachable/new.yaml")).first;
  const auto write = [&](const std::string& body) {
    std::ofstream(repo / "rules" / "game.yaml") << body << "include: [ends.yaml]\n";
  };
  std::ofstream(repo / "rules" / "ends.yaml") << ends;
  write(old_body);
  ASSERT_EQ(git(repo, "init -q && {git} add . && {git} commit -qm old"), 0);
  write(new_body);
  ASSERT_EQ(git(repo, "commit -qam new"), 0);

  Outcome r = run_in(repo, "diff -j 1 rules/game.yaml --rev HEAD~1 --rev HEAD");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind("loophole diff HEAD~1:rules/game.yaml -> HEAD:rules/game.yaml\n"
                        "findings added (2):\n"
                        "  HEAD:rules/ends.yaml:2:11: error: unreachable win: P1 can never win by "
                        "'points' [unreachable-win/end:points/P1]\n",
                        0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("  became unreachable: P2 win by 'points' (end:points/P2)\n"),
            std::string::npos)
      << r.out;
  // REV:path against the working file, and a single --rev, agree.
  const Outcome a = run_in(repo, "diff -j 1 HEAD~1:rules/game.yaml rules/game.yaml");
  const Outcome b = run_in(repo, "diff -j 1 rules/game.yaml --rev HEAD~1");
  EXPECT_EQ(a.code, 1);
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out.find("states 125 -> 113 (-12)"), std::string::npos) << a.out;
  // The revisions were written next to the file and removed again.
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(repo / "rules")) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 2u);
  const Outcome missing = run_in(repo, "diff rules/game.yaml --rev no-such-rev");
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err.rfind("loophole: error: cannot read 'no-such-rev:rules/game.yaml' from "
                              "git: ",
                              0),
            0u)
      << missing.err;
}

// A revision is the revision throughout: when only an included file changed
// between two commits (and the working tree has yet another version of it),
// `diff --rev A --rev B` compares the included files of A and B.
TEST(DiffCli, RevisionsReadTheirIncludedFilesFromGit) {
  const fs::path repo = temp_dir() / "repo-includes";
  const fs::path tmp = temp_dir() / "tmpdir";  // TMPDIR of the runs: left empty
  fs::remove_all(repo);
  fs::remove_all(tmp);
  fs::create_directories(repo / "rules");
  fs::create_directories(repo / "shared");
  fs::create_directories(tmp);
  const std::string old_text = slurp("tests/fixtures/diff/win-unreachable/old.yaml");
  const std::string body = old_text.substr(0, old_text.find("\nend:\n") + 1);
  std::ofstream(repo / "rules" / "game.yaml") << body << "include: [../shared/ends.yaml]\n";
  const auto write_ends = [&](const std::string& points) {
    std::ofstream(repo / "shared" / "ends.yaml")
        << "end:\n  - name: points\n    win: each\n    when: \"" << points
        << "\"\n  - name: dead\n    lose: each\n    when: \"life[self] == 0\"\n";
  };
  const std::string reachable = "score[self] >= 2";
  const std::string unreachable = "score[self] >= 2 and life[self] > 2";
  write_ends(reachable);
  ASSERT_EQ(git(repo, "init -q && {git} add . && {git} commit -qm old"), 0);
  write_ends(unreachable);
  ASSERT_EQ(git(repo, "commit -qam new"), 0);
  write_ends(reachable);  // the working tree is back at the old ends

  const std::string env = "TMPDIR='" + tmp.string() + "' ";
  const fs::path out = temp_dir() / "stdout";
  const fs::path err = temp_dir() / "stderr";
  const auto run_env = [&](const std::string& args) {
    const std::string cmd = "cd '" + repo.string() + "' && " + env + LOOPHOLE_BINARY + " " + args +
                            " >" + out.string() + " 2>" + err.string() + " </dev/null";
    const int status = std::system(cmd.c_str());
    Outcome o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    o.out = slurp(out);
    o.err = slurp(err);
    return o;
  };
  Outcome r = run_env("diff -j 1 rules/game.yaml --rev HEAD~1 --rev HEAD");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out,
            "loophole diff HEAD~1:rules/game.yaml -> HEAD:rules/game.yaml\n"
            "findings added (3):\n"
            "  HEAD:rules/game.yaml:25:14: error: rule gap: assignment leaves the range of "
            "'score' [rule-gap/action:gain]\n"
            // Each added finding with what check prints under it.
            "    36 reachable states end in this gap\n"
            "    trace (16 moves, shortest):\n"
            "      after setup: life[P1] 2; life[P2] 2; score[P1] 0; score[P2] 0\n"
            "          1  T1 P1  main · play   start at main · play\n"
            "          2  T1 P1  main · play   P1 plays 'gain' (speed 1) (score[P1] 0→1)\n"
            "        3-4  T1 P1  main · play   P1, P2 pass\n"
            "          5  T1 P1  main · play   advance to P2's turn, main · play\n"
            "        6-7  T2 P2  main · play   P2, P1 pass\n"
            "          8  T2 P2  main · play   advance to P1's turn, main · play\n"
            "          9  T2 P1  main · play   P1 plays 'gain' (speed 1) (score[P1] 1→2)\n"
            "      10-11  T2 P1  main · play   P1, P2 pass\n"
            "         12  T2 P1  main · play   advance to P2's turn, main · play\n"
            "      13-14  T2 P2  main · play   P2, P1 pass\n"
            "         15  T2 P2  main · play   advance to P1's turn, main · play\n"
            "         16  T2 P1  main · play   P1 plays 'gain' (speed 1); rule gap: score[P1] 2→3 "
            "leaves 0..2\n"
            "  HEAD:shared/ends.yaml:2:11: error: unreachable win: P1 can never win by 'points' "
            "[unreachable-win/end:points/P1]\n"
            "    its condition holds for P1 in no reachable state; all 541 reachable "
            "states searched\n"
            "  HEAD:shared/ends.yaml:2:11: error: unreachable win: P2 can never win by 'points' "
            "[unreachable-win/end:points/P2]\n"
            "    its condition holds for P2 in no reachable state; all 541 reachable "
            "states searched\n"
            "findings removed (0):\n"
            "findings unchanged: 0\n"
            "end conditions:\n"
            "  became unreachable: P1 win by 'points' (end:points/P1)\n"
            "  became unreachable: P2 win by 'points' (end:points/P2)\n"
            "states 125 -> 277 (+152)  transitions 153 -> 347 (+194)\n");
  // HEAD against the working tree: the edit undoes it. (The working file's
  // ../shared is outside its directory: allowed as it would be for check.)
  r = run_env("diff -j 1 --include-root . rules/game.yaml --rev HEAD");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("findings removed (3):\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  became reachable: P1 win by 'points' (end:points/P1)\n"),
            std::string::npos)
      << r.out;
  // An included file that does not load is named by its revision too.
  std::ofstream(repo / "shared" / "ends.yaml") << "end: [\n";
  ASSERT_EQ(git(repo, "commit -qam broken"), 0);
  r = run_env("diff -j 1 rules/game.yaml --rev HEAD~1 --rev HEAD");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(r.err.rfind("HEAD:shared/ends.yaml:", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find(tmp.string()), std::string::npos) << r.err;
  // Nothing is left in the temporary directory or next to the files.
  EXPECT_TRUE(fs::is_empty(tmp));
  EXPECT_EQ(std::distance(fs::directory_iterator(repo / "rules"), fs::directory_iterator{}), 1);
}

}  // namespace

namespace {

// The example in docs/cli.md is what loophole prints.
TEST(DiffCli, DocumentedExampleIsCurrent) {
  const std::string doc = slurp("docs/cli.md");
  const std::string cmd =
      "$ ./loophole diff tests/fixtures/diff/win-unreachable/old.yaml "
      "tests/fixtures/diff/win-unreachable/new.yaml\n";
  const auto at = doc.find(cmd);
  ASSERT_NE(at, std::string::npos);
  const auto start = at + cmd.size();
  const std::string shown = doc.substr(start, doc.find("```", start) - start);
  const Outcome r =
      run("diff tests/fixtures/diff/win-unreachable/old.yaml "
          "tests/fixtures/diff/win-unreachable/new.yaml");
  EXPECT_EQ(r.out, shown);
}

}  // namespace
