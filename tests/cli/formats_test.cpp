// End-to-end tests of the report formats and graphs through the real binary:
// --format and -o for every format, the HTML report loaded in headless
// Chromium, `graph --format svg --trace`, and SIGINT during a long run for
// every format (no partial file, what was explored reported).
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
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

std::vector<std::string> finding_ids(const std::string& json_report) {
  std::vector<std::string> ids;
  const auto report = nlohmann::json::parse(json_report);
  for (const auto& rs : report["rulesets"]) {
    for (const auto& f : rs["findings"]) ids.push_back(f["id"].get<std::string>());
  }
  return ids;
}

using loophole::test::wait_for_sigint_handler;

const std::vector<std::string> formats = {"text", "json", "sarif", "junit", "markdown", "html"};

TEST(Formats, EveryFormatIsSelectableAndKeepsTheExitCode) {
  const std::string file = " tests/fixtures/findings/deadlock/no-pass.yaml";
  const std::vector<std::string> starts = {
      "tests/fixtures/findings/deadlock/no-pass.yaml:14:19:",
      "{\n  \"diagnostics\": [],\n  \"format\": ",
      "{\n  \"$schema\": ",
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites",
      "## loophole\n\n1 ruleset checked, 1 failing",
      "<!DOCTYPE html>\n"};
  for (std::size_t i = 0; i < formats.size(); ++i) {
    SCOPED_TRACE(formats[i]);
    const Outcome r = run("check -j 1 --format " + formats[i] + file);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(r.out.rfind(starts[i], 0), 0u) << r.out.substr(0, 200);
  }
  const Outcome bad = run("check --format yaml" + file);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--format: yaml not in {text,json,sarif,junit,markdown,html}"),
            std::string::npos)
      << bad.err;
}

// --report FORMAT:FILE writes more formats from the same run, each the same
// as a run in that format alone.
TEST(Formats, OneRunWritesSeveralReports) {
  const std::string file = " tests/fixtures/findings/response-loop/coin-return.yaml";
  const fs::path sarif = temp_dir() / "one.sarif";
  const fs::path md = temp_dir() / "one.md";
  const fs::path junit = temp_dir() / "one.xml";
  const Outcome r =
      run("check -j 1 --no-stats --format sarif -o " + sarif.string() +
          " --report markdown:" + md.string() + " --report junit:" + junit.string() + file);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(sarif), run("check -j 1 --no-stats --format sarif" + file).out);
  EXPECT_EQ(slurp(md), run("check -j 1 --no-stats --format markdown" + file).out);
  EXPECT_EQ(slurp(junit), run("check -j 1 --no-stats --format junit" + file).out);
  const Outcome bad = run("check --report pdf:x.pdf" + file);
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err,
            "loophole: error: --report: expected FORMAT:FILE with FORMAT one of text, json, sarif, "
            "junit, markdown, html; found 'pdf:x.pdf'\n");
}

TEST(Formats, JsonTimingsAreSeparateAndDroppedWithNoStats) {
  const std::string file = " tests/fixtures/findings/response-loop/ward-duel.yaml";
  const auto with = nlohmann::json::parse(run("check -j 1 --format json" + file).out);
  ASSERT_EQ(with["timings"].size(), 1u);
  EXPECT_EQ(with["timings"][0]["threads"], 1);
  const auto without = nlohmann::json::parse(run("check -j 1 --no-stats --format json" + file).out);
  EXPECT_FALSE(without.contains("timings"));
  auto stripped = with;
  stripped.erase("timings");
  EXPECT_EQ(stripped, without);
  EXPECT_EQ(without["rulesets"][0]["statistics"]["states"],
            10);  // (19 concrete, per rotation orbit)
  // The deterministic part is the same at any thread count.
  EXPECT_EQ(run("check -j 2 --no-stats --format json" + file).out, without.dump(2) + "\n");
}

TEST(Formats, HtmlReportRendersInChromiumWithGraphAndEveryFinding) {
  // Chromium is installed by scripts/setup; without it this test fails.
  ASSERT_EQ(run_command("command -v chromium").code, 0) << "chromium is missing: run scripts/setup";
  const std::string files =
      " tests/fixtures/findings/dead-rule/dead-action.yaml"
      " tests/fixtures/findings/response-loop/coin-return.yaml";
  const auto ids = finding_ids(run("check -j 1 --format json" + files).out);
  ASSERT_EQ(ids.size(), 8u);
  const fs::path html = temp_dir() / "report.html";
  const Outcome r = run("check -j 1 --format html -o " + html.string() + files);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  const fs::path profile = temp_dir() / "chromium-profile";
  const Outcome dom =
      run_command("chromium --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir=" +
                  profile.string() + " --dump-dom file://" + fs::absolute(html).string());
  ASSERT_EQ(dom.code, 0) << dom.err;
  // Two rulesets, two phase graphs drawn by graphviz (with their step
  // nodes), and each finding with a trace its path on that graph (all 8).
  std::size_t svgs = 0, paths = 0;
  for (auto at = dom.out.find("<svg"); at != std::string::npos; at = dom.out.find("<svg", at + 1)) {
    ++svgs;
  }
  const std::string path = "<details class=\"path\">";
  for (auto at = dom.out.find(path); at != std::string::npos; at = dom.out.find(path, at + 1)) {
    ++paths;
  }
  EXPECT_EQ(paths, 7u);
  EXPECT_EQ(svgs, 2u + paths);
  EXPECT_NE(dom.out.find("<title>main.play</title>"), std::string::npos);
  EXPECT_NE(dom.out.find("<title>primary.main</title>"), std::string::npos);
  for (const auto& id : ids) {
    EXPECT_NE(dom.out.find("data-finding-id=\"" + id + "\""), std::string::npos) << id;
  }
  EXPECT_NE(dom.out.find("<ol class=\"timeline\">"), std::string::npos);
}

TEST(Formats, GraphSvgHighlightsTheTraceOfAFinding) {
  const std::string file = " tests/fixtures/findings/dead-rule/dead-action.yaml";
  const Outcome dot = run("graph --trace stalemate/step:main.play" + file);
  ASSERT_EQ(dot.code, 0) << dot.err;
  // Each edge says which moves take it (numbered as in the transcript);
  // the moves made inside the step, and the finding, are on the step.
  EXPECT_NE(dot.out.find("turn_start -> \"main.play\" [label=\"moves 1, 4, 7, 10\", color=red, "
                         "fontcolor=red, penwidth=2.5];"),
            std::string::npos)
      << dot.out;
  EXPECT_NE(dot.out.find("\"main.play\" -> turn_end [label=\"moves 4, 7, 10\", color=red, "
                         "fontcolor=red, penwidth=2.5];"),
            std::string::npos)
      << dot.out;
  EXPECT_NE(dot.out.find("[label=\"play\\n[window: main · priority]\\nmoves 2, 3, 5, 6, 8, "
                         "9\\nfinding here\", shape=box3d, "),
            std::string::npos)
      << dot.out;
  const Outcome plain = run("graph" + file);
  EXPECT_EQ(plain.out.find("red"), std::string::npos);
  const fs::path svg = temp_dir() / "graph.svg";
  const Outcome r =
      run("graph --format svg --trace stalemate/step:main.play -o " + svg.string() + file);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = slurp(svg);
  EXPECT_NE(text.find("<svg"), std::string::npos);
  EXPECT_NE(text.find("stroke=\"red\""), std::string::npos);
  const Outcome unknown = run("graph --trace deadlock/step:nowhere" + file);
  EXPECT_EQ(unknown.code, 2);
  EXPECT_EQ(unknown.err,
            "loophole: error: --trace: no finding 'deadlock/step:nowhere' in "
            "'tests/fixtures/findings/dead-rule/dead-action.yaml'; its findings are:\n"
            "  stalemate/step:main.play\n  stalemate/step:main.play#2\n"
            "  stalemate/step:main.play#3\n  dead-rule/action:big_spend\n");
  const Outcome no_trace = run("graph --trace dead-rule/action:big_spend" + file);
  EXPECT_EQ(no_trace.code, 2);
  EXPECT_EQ(no_trace.err,
            "loophole: error: --trace: finding 'dead-rule/action:big_spend' has no trace\n");
}

// The ruleset of tests/fixtures/findings/dead-rule/dead-action.yaml (three
// stalemates and a dead rule), and an edit of it that moves every rule: a
// comment on top, the windows moved after the actions, a blank line between
// the actions. Code scanning tracks a finding by its SARIF fingerprint, so
// the edit must leave every fingerprint as it was.
constexpr const char* k_before_edit = R"yaml(loophole: 1
game: dead-action
players: 2
speeds: [1]
state:
  coins: {type: int, range: [0, 5], init: 0}
turn:
  phases:
    - name: main
      steps:
        - name: play
          window: main
windows:
  main:
    protocol: priority
    active: {lead: [1]}
actions:
  - name: gain
    who: active
    speed: 1
    answerable: false
    limit: {per_window: 1}
    effect: "coins := min(2, coins + 1)"
  - name: big_spend
    who: active
    speed: 1
    answerable: false
    when: "coins > 3"
    effect: "coins -= 4"
)yaml";

constexpr const char* k_after_edit =
    R"yaml(# 'big_spend' needs more coins than 'gain' can ever collect.
loophole: 1
game: dead-action
players: 2
speeds: [1]
state:
  coins: {type: int, range: [0, 5], init: 0}
turn:
  phases:
    - name: main
      steps:
        # the only step
        - name: play
          window: main
actions:
  - name: gain
    who: active
    speed: 1
    answerable: false
    limit: {per_window: 1}
    effect: "coins := min(2, coins + 1)"

  - name: big_spend
    who: active
    speed: 1
    answerable: false
    when: "coins > 3"
    effect: "coins -= 4"
windows:
  main:
    protocol: priority
    active: {lead: [1]}
)yaml";

struct SarifResult {
  std::string rule;
  std::string fingerprint;
  int line = 0;
};

std::vector<SarifResult> sarif_results(const std::string& sarif) {
  std::vector<SarifResult> out;
  const auto report = nlohmann::json::parse(sarif);
  for (const auto& r : report["runs"][0]["results"]) {
    out.push_back({r["ruleId"].get<std::string>(),
                   r["partialFingerprints"]["loopholeFindingId/v1"].get<std::string>(),
                   r["locations"][0]["physicalLocation"]["region"]["startLine"].get<int>()});
  }
  return out;
}

TEST(Formats, SarifFingerprintsSurviveEditsThatMoveRules) {
  const fs::path dir = temp_dir() / "fingerprints";
  fs::create_directories(dir);
  const std::string file = (dir / "dead-action.yaml").string();
  std::ofstream(file, std::ios::binary) << k_before_edit;
  const Outcome before = run("check -j 1 --no-stats --format sarif " + file);
  std::ofstream(file, std::ios::binary) << k_after_edit;
  const Outcome after = run("check -j 1 --no-stats --format sarif " + file);
  ASSERT_EQ(before.code, 0) << before.err;
  ASSERT_EQ(after.code, 0) << after.err;
  const auto old_results = sarif_results(before.out);
  const auto new_results = sarif_results(after.out);
  ASSERT_EQ(old_results.size(), 4u) << before.out;
  ASSERT_EQ(new_results.size(), old_results.size()) << after.out;
  std::set<std::string> distinct;
  for (std::size_t i = 0; i < old_results.size(); ++i) {
    SCOPED_TRACE(old_results[i].rule);
    EXPECT_EQ(new_results[i].rule, old_results[i].rule);
    EXPECT_EQ(new_results[i].fingerprint, old_results[i].fingerprint);
    distinct.insert(old_results[i].fingerprint);
  }
  EXPECT_EQ(distinct.size(), old_results.size());  // each finding its own
  // The edit did move them: the step down two lines, 'big_spend' up one.
  EXPECT_EQ(old_results[0].line, 11);
  EXPECT_EQ(new_results[0].line, 13);
  EXPECT_EQ(old_results[3].rule, "dead-rule");
  EXPECT_EQ(old_results[3].line, 24);
  EXPECT_EQ(new_results[3].line, 23);
}

// A long run interrupted with SIGINT writes a complete report of what was
// explored (or none at all), never a partial file, in every format.
TEST(Formats, InterruptLeavesNoPartialFileInAnyFormat) {
  for (const auto& format : formats) {
    SCOPED_TRACE(format);
    const fs::path report = temp_dir() / ("interrupted." + format);
    fs::remove(report);
    const fs::path err = temp_dir() / "interrupt.err";
    // Interrupt once loophole has installed its SIGINT handler (a signal
    // before that would just kill it) and has had time to start exploring;
    // on a loaded host loading can take longer than the first wait (then
    // the signal ends it "while loading", with no report), so wait longer.
    int status = 0;
    for (const int wait_ms : {400, 1500, 4000}) {
      const pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        std::freopen(err.c_str(), "w", stderr);
        execl(LOOPHOLE_BINARY, LOOPHOLE_BINARY, "check", "-p", "top=4000", "--format",
              format.c_str(), "-o", report.c_str(), "tests/fixtures/cli/big.yaml",
              static_cast<char*>(nullptr));
        _exit(127);
      }
      ASSERT_TRUE(wait_for_sigint_handler(pid));
      std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
      kill(pid, SIGINT);
      waitpid(pid, &status, 0);
      if (slurp(err).find("interrupted while loading") == std::string::npos) break;
    }
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 3);
    EXPECT_NE(slurp(err).find("loophole: interrupted; the report covers what was explored"),
              std::string::npos);
    for (const auto& entry : fs::directory_iterator(temp_dir())) {
      EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos)
          << "left behind: " << entry.path();
    }
    ASSERT_TRUE(fs::exists(report));
    const std::string text = slurp(report);
    if (format == "json") {
      const auto j = nlohmann::json::parse(text);  // complete: it parses
      EXPECT_EQ(j["rulesets"][0]["completion"], "interrupted");
      EXPECT_GT(j["rulesets"][0]["statistics"]["states"].get<int>(), 0);
      // Claims of absence become inconclusive; how many depends on how far
      // the run got, but both win claims are among them.
      int unknown = 0;
      for (const auto& f : j["rulesets"][0]["findings"]) unknown += f["verdict"] == "unknown";
      EXPECT_EQ(j["rulesets"][0]["summary"]["inconclusive"], unknown);
      EXPECT_GE(unknown, 2);
    } else if (format == "sarif") {
      const auto j = nlohmann::json::parse(text);
      ASSERT_GE(j["runs"][0]["results"].size(), 2u);
      EXPECT_EQ(j["runs"][0]["results"][0]["kind"], "review");
      EXPECT_EQ(j["runs"][0]["results"][0]["level"], "none");
    } else if (format == "junit") {
      EXPECT_NE(text.find("<skipped message=\"inconclusive: interrupted\"/>"), std::string::npos);
      EXPECT_EQ(text.substr(text.size() - 14), "</testsuites>\n");
    } else if (format == "markdown") {
      EXPECT_NE(text.find("⚠️ inconclusive"), std::string::npos) << text;
    } else if (format == "html") {
      EXPECT_EQ(text.substr(text.size() - 8), "</html>\n");
      EXPECT_NE(text.find("(interrupted)"), std::string::npos);
    } else {
      EXPECT_NE(text.find("(inconclusive: interrupted)\n"), std::string::npos) << text;
    }
  }
}

}  // namespace
