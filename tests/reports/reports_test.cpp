// Golden tests of every report format on fixtures that cover every finding
// kind, plus the properties of the findings model the formats rely on
// (stable ids, accepted findings). Each case checks its rulesets with the
// explicit engine on one thread and renders every format into
// tests/golden/reports/<case>/report.<ext>, compared byte for byte.
// LOOPHOLE_UPDATE_GOLDEN=1 rewrites them instead (review the diff before
// committing). tests/reports/validate_reports.py checks the same files
// against the JSON schemas and parses the JUnit XML.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/reports/report.hpp"

#include "analyze.hpp"

namespace loophole::reports {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name;
  std::vector<std::string> files;
  std::map<std::string, std::string> accepted;  // for every ruleset of the case
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"deadlock", {"tests/fixtures/findings/deadlock/no-pass.yaml"}, {}},
      {"response-loop", {"tests/fixtures/findings/response-loop/ward-duel.yaml"}, {}},
      {"unbounded-chain", {"tests/fixtures/findings/unbounded-chain/counter-war.yaml"}, {}},
      {"unreachable-win", {"tests/fixtures/findings/unreachable-win/first-player-only.yaml"}, {}},
      {"rule-gap", {"tests/fixtures/findings/rule-gap/empty-deck.yaml"}, {}},
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
  };
  return all;
}

struct Checked {
  model::SourceManager sources;
  std::vector<cli::Analyzed> analyzed;
  Report report;
};

std::unique_ptr<Checked> check(const Case& c) {
  auto out = std::make_unique<Checked>();
  out->report.tool_version = "0.1.0";
  checker::ExplicitOptions explore;
  explore.threads = 1;
  for (const auto& file : c.files) {
    auto a = cli::analyze(file, file, model::LoadOptions{}, explore, out->sources,
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
    out->analyzed.push_back(std::move(*a));
  }
  for (auto& a : out->analyzed) out->report.rulesets.push_back(a.report);
  return out;
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
    options.text.statistics = false;  // timings vary; the counts are in the JSON
    options.timings = false;
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
    checker::ExplicitOptions explore;
    explore.threads = threads;
    const auto a = cli::analyze(file, file, model::LoadOptions{}, explore, sources, sink);
    ASSERT_TRUE(a.has_value());
    ids.push_back(finding_ids(a->report));
  }
  EXPECT_EQ(ids[0], ids[1]);
  EXPECT_EQ(ids[0].front(), "unbounded-chain/action:counter");
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

TEST(ParseFormat, KnowsEveryFormatName) {
  EXPECT_EQ(parse_format("sarif"), Format::sarif);
  EXPECT_EQ(parse_format("junit"), Format::junit);
  EXPECT_EQ(parse_format("html"), Format::html);
  EXPECT_EQ(parse_format("xml"), std::nullopt);
}

}  // namespace
}  // namespace loophole::reports
