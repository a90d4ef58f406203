// The command line against hostile input (docs/security.md): crafted git
// trees and revisions for `diff`, planted links beside `-o`, outputs that
// clash, out-of-range numbers, file names and names that are not valid
// UTF-8 or hold markup and terminal escapes. Each test gives the hostile
// input and asserts the exact safe behaviour.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process.hpp"

namespace {

namespace fs = std::filesystem;

using loophole::test::Outcome;
using loophole::test::run;
using loophole::test::run_command;
using loophole::test::slurp;
using loophole::test::temp_dir;

const std::string fixture = "tests/fixtures/findings/rule-gap/empty-deck.yaml";

// Runs `sh -c` in `dir` and returns its standard output, trimmed.
std::string shell(const fs::path& dir, const std::string& cmd) {
  const Outcome r = run_command("cd '" + dir.string() + "' && " + cmd);
  EXPECT_EQ(r.code, 0) << cmd << "\n" << r.err;
  std::string out = r.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// A repository with one commit of rules/game.yaml (the fixture).
fs::path repository(const std::string& name) {
  const fs::path repo = temp_dir() / name;
  fs::remove_all(repo);
  fs::create_directories(repo / "rules");
  fs::copy_file(fixture, repo / "rules" / "game.yaml");
  shell(repo,
        "git init -q && git -c user.name=t -c user.email=t@t.invalid add . && "
        "git -c user.name=t -c user.email=t@t.invalid commit -qm one");
  return repo;
}

// A tree that git mktree accepts and a checkout would refuse: beside the
// real `rules`, an entry `..` whose entry `..` holds pwned.yaml, so that
// `git ls-tree -r` lists `../../pwned.yaml`. A fetch does not check trees
// by default, so such a commit can reach a CI runner.
TEST(Hardening, DiffRefusesATreeWhosePathsLeaveIt) {
  const fs::path repo = repository("crafted");
  const fs::path tmp = temp_dir() / "crafted-tmp" / "a";
  fs::create_directories(tmp);
  const std::string commit = shell(
      repo,
      "b=$(printf 'x: 1\\n' | git hash-object -w --stdin) && "
      "inner=$(printf '100644 blob %s\\tpwned.yaml\\n' $b | git mktree) && "
      "mid=$(printf '040000 tree %s\\t..\\n' $inner | git mktree) && "
      "rules=$(git rev-parse HEAD:rules) && "
      "top=$(printf '040000 tree %s\\t..\\n040000 tree %s\\trules\\n' $mid $rules | git mktree) && "
      "git -c user.name=t -c user.email=t@t.invalid commit-tree $top -m crafted");
  ASSERT_EQ(shell(repo, "git ls-tree -r --name-only " + commit),
            "../../pwned.yaml\nrules/game.yaml");
  const Outcome r = run_command("cd '" + repo.string() + "' && TMPDIR='" + tmp.string() + "' " +
                                LOOPHOLE_BINARY + " diff rules/game.yaml --rev " + commit);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(r.err, "loophole: error: cannot read '" + commit +
                       ":rules/game.yaml' from git: the revision holds a file whose path leaves "
                       "its tree: '../../pwned.yaml'\n");
  // ../../ from the temporary directory inside tmp: neither tmp nor its parent got it.
  EXPECT_FALSE(fs::exists(tmp / "pwned.yaml"));
  EXPECT_FALSE(fs::exists(tmp.parent_path() / "pwned.yaml"));
  EXPECT_TRUE(fs::is_empty(tmp));
}

// `--rev=--output=FILE` once reached `git show` as an option, and git wrote
// FILE. A revision that starts with '-' is refused before git runs.
TEST(Hardening, DiffRevisionIsNeverAnOption) {
  const fs::path repo = repository("options");
  for (const std::string rev : {"--output=written.yaml", "-owritten.yaml", "--exec-path=x"}) {
    const Outcome r = run_command("cd '" + repo.string() + "' && " + LOOPHOLE_BINARY +
                                  " diff rules/game.yaml --rev=" + rev);
    EXPECT_EQ(r.code, 2) << rev << r.out << r.err;
    EXPECT_EQ(r.err, "loophole: error: cannot read '" + rev +
                         ":rules/game.yaml' from git: not a revision name\n");
    EXPECT_FALSE(fs::exists(repo / "written.yaml"));
  }
  // A revision that only resolves through an option's spelling is unknown.
  const Outcome r = run_command("cd '" + repo.string() + "' && " + LOOPHOLE_BINARY +
                                " diff 'HEAD^{/x}\n--output=y:rules/game.yaml' rules/game.yaml");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("not a revision name"), std::string::npos) << r.err;
  // Shell syntax in a revision is a name git does not know, not a command.
  const Outcome s = run_command("cd '" + repo.string() + "' && " + LOOPHOLE_BINARY +
                                " diff rules/game.yaml --rev '$(touch shelled)'");
  EXPECT_EQ(s.code, 2) << s.err;
  EXPECT_EQ(s.err,
            "loophole: error: cannot read '$(touch shelled):rules/game.yaml' from git: "
            "unknown revision '$(touch shelled)'\n");
  EXPECT_FALSE(fs::exists(repo / "shelled"));
}

// The temporary file beside an `-o` target is created new (mkstemp): links
// planted under the names the old scheme used (.NAME.tmp.PID, for the next
// process ids) are not written through.
TEST(Hardening, OutputTemporaryFileIsNeverALink) {
  const fs::path dir = temp_dir() / "planted";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path victim = dir / "victim";
  std::ofstream(victim) << "untouched\n";
  for (pid_t p = ::getpid(); p < ::getpid() + 400; ++p) {
    fs::create_symlink(victim, dir / (".report.json.tmp." + std::to_string(p)));
  }
  const Outcome r =
      run("check -j 1 --format json -o '" + (dir / "report.json").string() + "' " + fixture);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(slurp(victim), "untouched\n");
  ASSERT_TRUE(fs::is_regular_file(fs::symlink_status(dir / "report.json")));
  EXPECT_TRUE(nlohmann::json::parse(slurp(dir / "report.json")).is_object());
  // The report has the permissions of a file created under the umask.
  struct stat st {};
  ASSERT_EQ(::stat((dir / "report.json").c_str(), &st), 0);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) entries += e.is_symlink() ? 0 : 1;
  EXPECT_EQ(entries, 2u);  // victim and report.json: no temporary file left
}

TEST(Hardening, OutputsThatNameOneFileAreRefused) {
  const fs::path dir = temp_dir() / "clash";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string out = (dir / "r.txt").string();
  Outcome r = run("check -o " + out + " --report json:" + out + " " + fixture);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "loophole: error: -o and --report both write '" + out +
                       "'; give each report a file of its own\n");
  EXPECT_FALSE(fs::exists(out));
  r = run("check --report sarif:" + out + " --report html:" + (dir / "." / "r.txt").string() + " " +
          fixture);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--report and --report both write"), std::string::npos) << r.err;
  r = run("check --report json:- " + fixture);  // -o is standard output too
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "loophole: error: -o and --report both write '-'; give each report a file of "
            "its own\n");
}

TEST(Hardening, NumbersOutOfRangeAreUsageErrors) {
  for (const std::string& args :
       {std::string("check --players 0"), std::string("check --players -1"),
        std::string("check --max-states -5"), std::string("check --max-states 0"),
        std::string("export --players 0"), "diff --max-states -5 " + fixture}) {
    const Outcome r = run(args + " " + fixture);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_EQ(r.err.rfind("loophole: error: --", 0), 0u) << args << "\n" << r.err;
  }
}

// Whether `text` is well-formed UTF-8 (nlohmann's parser checks it).
bool well_formed(const std::string& text) {
  try {
    return nlohmann::json::parse(nlohmann::json(text).dump()).is_string();
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

// A ruleset whose file name is not valid UTF-8 (a Linux file name is bytes):
// every format comes out as valid UTF-8, with U+FFFD for the bad byte (the
// text report shows it as `\xff`, as the diagnostics do; SARIF's URIs as
// `%FF`).
TEST(Hardening, NonUtf8FileNameGivesValidReports) {
  const fs::path dir = temp_dir() / "bytes";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path file = dir / "game\xff.yaml";
  fs::copy_file(fixture, file);
  for (const std::string format : {"json", "sarif", "junit", "html", "markdown", "text"}) {
    const Outcome r = run("check -j 1 --format " + format + " '" + file.string() + "'");
    EXPECT_EQ(r.code, 1) << format << "\n" << r.err;
    EXPECT_TRUE(well_formed(r.out)) << format;
    // (SARIF's locations are URIs: the byte percent-encoded.)
    const std::string shown = format == "text"    ? "game\\xff.yaml"
                              : format == "sarif" ? "game%FF.yaml"
                                                  : "game\xEF\xBF\xBD.yaml";
    EXPECT_NE(r.out.find(shown), std::string::npos) << format << "\n" << r.out;
    if (format == "json" || format == "sarif") {
      EXPECT_TRUE(nlohmann::json::parse(r.out).is_object()) << format;
    }
  }
}

// A game name and an accepted finding's reason (free text in loophole.yaml)
// that hold markup and terminal escapes: HTML and JUnit get entities, the
// terminal gets `\x1b`, Markdown gets no HTML and no mention.
TEST(Hardening, HostileTextIsEscapedForEachFormat) {
  const fs::path dir = temp_dir() / "hostile";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string body = slurp(fixture);
  const auto at = body.find("\ngame:");
  ASSERT_NE(at, std::string::npos);
  const auto eol = body.find('\n', at + 1);
  body.replace(at, eol - at, "\ngame: \"<script>alert(1)</script>\\e[2J\"");
  std::ofstream(dir / "game.yaml") << body;
  std::ofstream(dir / "loophole.yaml")
      << "loophole: 1\nrulesets:\n  - file: game.yaml\n    accept:\n"
         "      - id: rule-gap/step:main.draw\n"
         "        reason: \"\\e]0;owned\\a</details><img src=x> @everyone\"\n";
  const auto check = [&](const std::string& format) {
    return run_command("cd '" + dir.string() + "' && " + LOOPHOLE_BINARY +
                       " check -j 1 --color always --format " + format);
  };
  const Outcome text = check("text");
  EXPECT_NE(text.out.find("\\x1b]0;owned\\x07</details>"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("\x1b]"), std::string::npos);
  const Outcome html = check("html");
  EXPECT_EQ(html.out.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.out.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(html.out.find("<img src=x>"), std::string::npos);
  EXPECT_EQ(html.out.find('\x1b'), std::string::npos);
  const Outcome junit = check("junit");
  EXPECT_EQ(junit.out.find("<script>"), std::string::npos);
  EXPECT_EQ(junit.out.find('\x1b'), std::string::npos);
  // Markdown shows file names in code spans: a backtick in the name must not
  // end the span and let the rest through as HTML.
  const std::string name = "g`<img src=x>`.yaml";
  fs::copy_file(fixture, dir / name);
  const Outcome md = run_command("cd '" + dir.string() + "' && " + LOOPHOLE_BINARY +
                                 " check -j 1 --format markdown '" + name + "'");
  EXPECT_EQ(md.code, 1) << md.err;
  EXPECT_NE(md.out.find("| `` g`<img src=x>`.yaml `` (players=2) |"), std::string::npos) << md.out;
}

// pan computes in 32 bits: a game with 64-bit values is refused, located,
// rather than exported with values that would wrap in pan.
TEST(Hardening, ExportRefusesValuesPanWouldWrap) {
  const Outcome r = run("export tests/fixtures/findings/rule-gap/overflow.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("tests/fixtures/findings/rule-gap/overflow.yaml:16:19: error: the Promela "
                        "export computes in 32-bit integers, as pan does, and 'big' can take "
                        "values beyond them\n",
                        0),
            0u)
      << r.err;
}

// `timeout 1 loophole diff slow.yaml --rev HEAD`: a signal while the
// versions load ends the run at once, exit 3, and removes the revision's
// temporary tree first (the handler removes what diff registered).
TEST(Hardening, DiffSignalWhileLoadingRemovesTheRevisionTree) {
  const fs::path repo = temp_dir() / "slow-diff";
  fs::remove_all(repo);
  fs::create_directories(repo / "rules");
  std::string text = "loophole: 1\ngame: slow\nkinds:\n";
  for (int i = 0; i < 200000; ++i) text += "  K" + std::to_string(i) + ": {copies: 1}\n";
  std::ofstream(repo / "rules" / "slow.yaml") << text;
  shell(repo,
        "git init -q && git -c user.name=t -c user.email=t@t.invalid add . && "
        "git -c user.name=t -c user.email=t@t.invalid commit -qm slow");
  const fs::path tmp = temp_dir() / "slow-diff-tmp";
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const fs::path err = temp_dir() / "slow-diff-err";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (std::freopen(err.c_str(), "w", stderr) == nullptr || ::chdir(repo.c_str()) != 0) _exit(126);
    ::setenv("TMPDIR", tmp.c_str(), 1);
    execl(LOOPHOLE_BINARY, LOOPHOLE_BINARY, "diff", "rules/slow.yaml", "--rev", "HEAD",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the revision's file is written, so that the signal comes
  // while the versions load.
  bool written = false;
  for (int i = 0; i < 3000 && !written; ++i) {
    for (const auto& e : fs::directory_iterator(tmp)) {
      std::error_code ec;
      written = written || fs::file_size(e.path() / "rules" / "slow.yaml", ec) == text.size();
    }
    if (!written) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(written);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto ended = loophole::test::signal_and_wait(pid, SIGTERM);
  EXPECT_EQ(ended.code, 3);
  EXPECT_LT(ended.seconds, 1.0);
  EXPECT_EQ(slurp(err), "loophole: inconclusive: interrupted while loading\n");
  EXPECT_TRUE(fs::is_empty(tmp));
}

}  // namespace
