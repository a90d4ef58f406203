// Golden tests of every report format on fixtures that cover every finding
// kind, plus the properties of the findings model the formats rely on
// (stable ids, accepted findings). Each case checks its rulesets with the
// explicit engine on one thread and renders every format into
// tests/golden/reports/<case>/report.<ext>, compared byte for byte.
// LOOPHOLE_UPDATE_GOLDEN=1 rewrites them instead and skips (review the diff
// before committing). The HTML holds a fixed stand-in for each phase graph.
// tests/reports/validate_reports.py checks the same files against the JSON schemas and parses the
// JUnit XML.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "loophole/pipeline/pipeline.hpp"
#include "loophole/reports/report.hpp"

namespace loophole::reports {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name;
  std::vector<std::string> files;
  std::map<std::string, std::string> accepted;  // for every ruleset of the case
  // Transcripts longer than this fold in the middle (small, so a fixture's
  // 21-move trace shows the fold and keeps its end).
  std::size_t max_trace_lines = 60;
  // Appends a copy of the first finding with a trace, changed only in what
  // no transcript prints (a move's per-kind changes and choices): the two
  // must be merged into one with a count (docs/cli.md, Identical findings).
  bool twin = false;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"deadlock", {"tests/fixtures/findings/deadlock/no-pass.yaml"}, {}},
      {"response-loop", {"tests/fixtures/findings/response-loop/ward-duel.yaml"}, {}},
      {"unbounded-chain", {"tests/fixtures/findings/unbounded-chain/counter-war.yaml"}, {}},
      {"unreachable-win", {"tests/fixtures/findings/unreachable-win/first-player-only.yaml"}, {}},
      {"rule-gap", {"tests/fixtures/findings/rule-gap/empty-deck.yaml"}, {}},
      // a finding whose trace uses card texts marked `invented:`, in every format
      {"invented", {"tests/fixtures/findings/rule-gap/invented-boost.yaml"}, {}},
      {"dead-rule", {"tests/fixtures/findings/dead-rule/dead-step.yaml"}, {}},
      {"structure", {"tests/fixtures/findings/dead-rule/dead-window.yaml"}, {}},
      {"property-violation", {"tests/fixtures/findings/property-violation/hand-limit.yaml"}, {}},
      {"clean", {"tests/fixtures/findings/unreachable-win/reachable.yaml"}, {}},
      {"several",
       {"tests/fixtures/findings/stalemate/refill.yaml",
        "tests/fixtures/findings/rule-gap/divide-by-zero.yaml"},
       {}},
      {"accepted",
       {"tests/fixtures/findings/response-loop/trigger-pair.yaml"},
       {{"response-loop/trigger:ping_back", "the ping-back combo is the point of the fixture"},
        {"deadlock/step:main.play", "fixed long ago"}}},
      // Long traces: the middle folds, the end (the full stack) stays.
      {"long-trace", {"tests/fixtures/findings/unbounded-chain/three-players.yaml"}, {}, 8},
      {"identical", {"tests/fixtures/findings/rule-gap/empty-deck.yaml"}, {}, 60, true},
  };
  return all;
}

struct Checked {
  model::SourceManager sources;
  std::vector<pipeline::Analyzed> analyzed;
  Report report;
};

// The copy Case::twin asks for: the same finding about the same rule, its
// last move's hidden detail changed.
void add_twin(RulesetReport& rs) {
  for (const auto& f : rs.findings) {
    if (!f.trace || f.trace->steps.empty()) continue;
    properties::Finding twin = f;
    auto& last = twin.trace->steps.back();
    last.choices.push_back({checker::Choice::By::nature, -1, "a choice no transcript prints"});
    for (auto& ch : last.changes) ch.what += " (twin)";
    rs.findings.push_back(std::move(twin));
    return;
  }
  ADD_FAILURE() << rs.file << " has no finding with a trace to copy";
}

std::unique_ptr<Checked> check(const Case& c) {
  auto out = std::make_unique<Checked>();
  out->report.tool_version = "0.1.0";
  pipeline::Options check;
  check.explore.threads = 1;
  for (const auto& file : c.files) {
    auto a = pipeline::analyze(file, file, model::LoadOptions{}, check, out->sources,
                               out->report.diagnostics);
    if (!a) {
      ADD_FAILURE() << file << " did not load";
      continue;
    }
    const auto ids = finding_ids(a->report);
    for (const auto& [id, reason] : c.accepted) {
      if (std::find(ids.begin(), ids.end(), id) != ids.end()) {
        a->report.accepted[id] = reason;
      } else {
        a->report.stale.push_back({id, model::SourceSpan{"loophole.yaml", 7, 11, 0}});
      }
    }
    if (c.twin) add_twin(a->report);
    out->analyzed.push_back(std::move(*a));
  }
  for (auto& a : out->analyzed) out->report.rulesets.push_back(a.report);
  return out;
}

// What the HTML report embeds as a ruleset's phase graph. The real one comes
// from Graphviz's `dot`, whose bytes change between Graphviz versions, so the
// golden files hold this stand-in, with the prologue `dot -Tsvg` writes (the
// report must drop it) and the ruleset's name (each graph must sit in its own
// ruleset's section). check_graph_svg.py checks real `dot` output.
std::string stand_in_svg(const std::string& file) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
         "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\"\n"
         " \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
         "<!-- Generated by graphviz -->\n"
         "<svg width=\"200pt\" height=\"40pt\" viewBox=\"0.00 0.00 200.00 40.00\" "
         "xmlns=\"http://www.w3.org/2000/svg\">\n"
         "<g id=\"graph0\" class=\"graph\"><title>turn</title>\n"
         "<text x=\"4\" y=\"24\">phase graph of " +
         file + "</text>\n</g>\n</svg>\n";
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ReportsGolden, EveryFormatOfEveryCaseMatches) {
  const char* update_env = std::getenv("LOOPHOLE_UPDATE_GOLDEN");
  const bool update = update_env != nullptr && std::string(update_env) == "1";
  const fs::path root = fs::path(LOOPHOLE_SOURCE_DIR) / "tests" / "golden" / "reports";
  const std::vector<std::pair<Format, std::string>> formats = {
      {Format::text, "report.txt"},    {Format::json, "report.json"},
      {Format::sarif, "report.sarif"}, {Format::junit, "report.junit.xml"},
      {Format::markdown, "report.md"}, {Format::html, "report.html"}};
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.name);
    const auto checked = check(c);
    RenderOptions options;
    options.text.max_trace_lines = c.max_trace_lines;
    options.text.statistics = false;  // timings vary; the counts are in the JSON
    options.timings = false;
    for (const auto& rs : checked->report.rulesets) options.svg[rs.file] = stand_in_svg(rs.file);
    for (const auto& [format, file] : formats) {
      const std::string out = render(format, checked->report, checked->sources, options);
      const fs::path path = root / c.name / file;
      if (update) {
        fs::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << out;
        continue;
      }
      ASSERT_TRUE(fs::exists(path)) << "missing " << path << " (run with LOOPHOLE_UPDATE_GOLDEN=1)";
      EXPECT_EQ(slurp(path), out) << path;
    }
  }
  // An update run compared nothing: it must not pass as if it had.
  if (update) GTEST_SKIP() << "rewrote the golden files under " << root << "; review the diff";
}

TEST(ReportsGolden, NoCaseIsLeftOver) {
  // Every directory under tests/golden/reports is a case the test renders.
  const fs::path root = fs::path(LOOPHOLE_SOURCE_DIR) / "tests" / "golden" / "reports";
  std::vector<std::string> dirs, names;
  for (const auto& e : fs::directory_iterator(root)) dirs.push_back(e.path().filename().string());
  for (const auto& c : cases()) names.push_back(c.name);
  std::sort(dirs.begin(), dirs.end());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(dirs, names);
}

TEST(FindingIds, AreKindSlashRuleWithOrdinalsForRepeats) {
  const Case c{"ids", {"tests/fixtures/findings/dead-rule/dead-action.yaml"}, {}};
  const auto checked = check(c);
  ASSERT_EQ(checked->report.rulesets.size(), 1u);
  EXPECT_EQ(finding_ids(checked->report.rulesets[0]),
            (std::vector<std::string>{"stalemate/step:main.play", "stalemate/step:main.play#2",
                                      "stalemate/step:main.play#3", "dead-rule/action:big_spend"}));
}

TEST(FindingIds, AreTheSameAtEveryThreadCount) {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  const std::string file = "tests/fixtures/findings/unbounded-chain/three-players.yaml";
  std::vector<std::vector<std::string>> ids;
  for (const int threads : {1, 2}) {
    pipeline::Options check;
    check.explore.threads = threads;
    const auto a = pipeline::analyze(file, file, model::LoadOptions{}, check, sources, sink);
    ASSERT_TRUE(a.has_value());
    ids.push_back(finding_ids(a->report));
  }
  EXPECT_EQ(ids[0], ids[1]);
  // (The chain is finite: an inconclusive note, listed after the errors.)
  EXPECT_NE(std::find(ids[0].begin(), ids[0].end(), "unbounded-chain/action:counter"),
            ids[0].end());
}

TEST(Fails, AcceptedAndUnknownFindingsNeverFail) {
  RulesetReport rs;
  properties::Finding f;
  f.kind = properties::Kind::deadlock;
  f.severity = properties::Severity::warning;
  EXPECT_TRUE(fails(rs, f, "deadlock/x", properties::Severity::warning));
  EXPECT_FALSE(fails(rs, f, "deadlock/x", properties::Severity::error));
  rs.accepted["deadlock/x"] = "reason";
  EXPECT_FALSE(fails(rs, f, "deadlock/x", properties::Severity::note));
  f.verdict = properties::Verdict::unknown;
  EXPECT_FALSE(fails(rs, f, "deadlock/y", properties::Severity::note));
}

// A trace of 200 passes and one last move that matters: every format that
// folds keeps the start, the last move and the fold line between; JSON and
// SARIF keep all 201 moves. Each pass is its own control point, so no two fold.
TEST(Transcripts, EveryFormatKeepsTheEndOfALongTrace) {
  const model::SourceManager sources;
  Report report;
  RulesetReport rs;
  rs.file = "rules.yaml";
  properties::Finding f;
  f.kind = properties::Kind::rule_gap;
  f.rule = "step:x";
  f.message = "the last move";
  checker::Trace t;
  t.start = "deck[P1]: 'shock'";
  for (int i = 0; i < 200; ++i) {
    checker::TraceStep s;
    s.kind = checker::MoveKind::pass;
    s.player = i % 2;
    s.turn = i + 1;
    s.text = fmt::format("P{} passes", s.player + 1);
    t.steps.push_back(s);
  }
  checker::TraceStep last;
  last.kind = checker::MoveKind::effects;
  last.turn = 201;
  last.text = "P1 draws 'shock'; rule gap: the end";
  t.steps.push_back(last);
  f.trace = t;
  rs.findings.push_back(f);
  report.rulesets.push_back(rs);
  RenderOptions options;
  for (const auto format : {Format::text, Format::markdown, Format::html, Format::junit}) {
    const std::string out = render(format, report, sources, options);
    SCOPED_TRACE(out);
    EXPECT_NE(out.find("after setup: deck[P1]: "), std::string::npos);
    EXPECT_NE(out.find("P1 draws "), std::string::npos);
    EXPECT_NE(out.find("... (141 moves)"), std::string::npos);  // 201 lines, 60 kept
    EXPECT_NE(out.find("201"), std::string::npos);
  }
  for (const auto format : {Format::json, Format::sarif}) {
    const std::string out = render(format, report, sources, options);
    EXPECT_EQ(out.find("... ("), std::string::npos);
    EXPECT_NE(out.find("P1 draws "), std::string::npos);
  }
}

// Bare passes at one control point fold into one line, but never across
// the start of a cycle.
TEST(Transcripts, PassesFoldUpToTheCycleStart) {
  const model::SourceManager sources;
  Report report;
  RulesetReport rs;
  rs.file = "rules.yaml";
  properties::Finding f;
  f.kind = properties::Kind::stalemate;
  checker::Trace t;
  for (int i = 0; i < 4; ++i) {
    checker::TraceStep s;
    s.kind = checker::MoveKind::pass;
    s.player = (i + 1) % 2;
    s.text = fmt::format("P{} passes", s.player + 1);
    t.steps.push_back(s);
  }
  t.loop_start = 2;
  f.trace = t;
  rs.findings.push_back(f);
  report.rulesets.push_back(rs);
  TextOptions options;
  options.statistics = false;
  EXPECT_EQ(render_text(report, sources, options),
            "rules.yaml: error: stalemate: \n"
            "  trace (4 moves, shortest):\n"
            "    1-2  T1 P1  setup  P2, P1 pass\n"
            "    -- cycle starts here --\n"
            "    3-4  T1 P1  setup  P2, P1 pass\n"
            "    (cycle: 2 moves back to the state after move 2, repeats forever)\n");
}

// The transcript shown in docs/cli.md (Transcripts) is the one the text
// report prints for that fixture (its golden file).
TEST(Transcripts, DocumentedExampleIsCurrent) {
  const fs::path root(LOOPHOLE_SOURCE_DIR);
  const std::string doc = slurp(root / "docs" / "cli.md");
  const std::string cmd =
      "$ ./loophole check tests/fixtures/findings/rule-gap/empty-deck.yaml\n...\n";
  const auto at = doc.find(cmd);
  ASSERT_NE(at, std::string::npos);
  const auto start = at + cmd.size();
  const std::string shown = doc.substr(start, doc.find("```", start) - start);
  const std::string golden =
      slurp(root / "tests" / "golden" / "reports" / "rule-gap" / "report.txt");
  EXPECT_NE(golden.find(shown), std::string::npos) << shown;
}

TEST(ParseFormat, KnowsEveryFormatName) {
  EXPECT_EQ(parse_format("sarif"), Format::sarif);
  EXPECT_EQ(parse_format("junit"), Format::junit);
  EXPECT_EQ(parse_format("html"), Format::html);
  EXPECT_EQ(parse_format("xml"), std::nullopt);
}

// The text report's statistics line, which the golden files leave out
// (timings vary): its last words say how the rules ran (docs/cli.md, Native
// code): natively from the start, from state N on, or (interpreted, for
// whatever reason) nothing.
TEST(TextReport, StatisticsLineSaysHowTheRulesRan) {
  const model::SourceManager sources;
  Report report;
  RulesetReport rs;
  rs.file = "rules.yaml";
  rs.engine = "explicit";
  checker::Statistics st;
  st.states = 1234567;
  st.transitions = 2345678;
  st.depth = 12;
  st.seconds = 0.5;
  st.bytes_per_state = 40;
  st.threads = 2;
  const std::string line =
      "rules.yaml: 0 findings  states 1,234,567  transitions 2,345,678  depth 12  time 0.50 s  "
      "rate 2.5M/s  bytes/state 40.0  threads 2";
  struct Ran {
    std::string generator;
    std::optional<std::uint64_t> native_from;
    std::string ends;
  };
  const std::vector<Ran> said = {
      {"native", {}, "  native\n"},
      {"native", 617000, "  native from state 617,000\n"},
      {"compiled", {}, "\n"},
      {"compiled (native: cannot run the C compiler 'cc': No such file or directory)", {}, "\n"},
      {"reference: the compiler declines", {}, "\n"}};
  for (const auto& r : said) {
    st.generator = r.generator;
    st.native_from = r.native_from;
    rs.statistics = st;
    report.rulesets = {rs};
    EXPECT_EQ(render_text(report, sources, TextOptions{}), line + r.ends) << r.generator;
  }
}

}  // namespace
}  // namespace loophole::reports
