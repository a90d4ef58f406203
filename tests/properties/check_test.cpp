// check_all on a test double of the explored graph (test_graph.hpp): it must
// agree with the explicit engine's graph on every fixture, turn claims of
// absence into `unknown` notes when the graph is truncated (without calling
// unexpanded states deadlocks), find a deadlock planted by removing moves,
// and order findings by severity, then location.
#include "loophole/properties/check.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/model/diagnostics.hpp"

#include "test_graph.hpp"

namespace loophole::properties {
namespace {

using testing::TestGraph;

struct Loaded {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::optional<model::Game> game;
  std::unique_ptr<checker::Semantics> semantics;
};

std::unique_ptr<Loaded> load(const std::string& fixture) {
  auto l = std::make_unique<Loaded>();
  const std::string path = std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/" + fixture;
  l->game = model::load_game(path, {}, l->sources, l->sink);
  if (l->game) l->semantics = std::make_unique<checker::Semantics>(*l->game);
  return l;
}

// What must agree between two graphs of the same game.
std::vector<std::string> summary(const std::vector<Finding>& found) {
  std::vector<std::string> s;
  s.reserve(found.size());
  for (const auto& f : found) {
    s.push_back(std::string(to_string(f.kind)) + " " + std::string(to_string(f.verdict)) + " " +
                f.rule + " " + std::to_string(f.where.line) + ":" + std::to_string(f.where.col) +
                " " + std::string(to_string(f.loop)) + std::to_string(f.loop_player) + " " +
                (f.trace ? std::to_string(f.trace->size()) : "-") + " " + f.message);
  }
  return s;
}

std::vector<std::string> fixtures() {
  std::vector<std::string> files;
  const std::filesystem::path root =
      std::filesystem::path(LOOPHOLE_SOURCE_DIR) / "tests/fixtures/findings";
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.path().extension() == ".yaml") {
      files.push_back(std::filesystem::relative(e.path(), root).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CheckAll, TestGraphAndExplicitEngineAgreeOnEveryFixture) {
  const auto files = fixtures();
  ASSERT_GE(files.size(), 33u);
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    const auto l = load(file);
    if (!l->game) {
      ADD_FAILURE() << l->sink.render(l->sources);
      continue;
    }
    const TestGraph mine(*l->semantics);
    checker::ExplicitOptions options;
    options.threads = 2;
    const auto theirs = checker::explore(*l->semantics, options);
    ASSERT_EQ(mine.size(), theirs->size());
    EXPECT_EQ(summary(check_all(mine, CheckSelection{})),
              summary(check_all(*theirs, CheckSelection{})));
  }
}

TEST(CheckAll, TruncatedGraphMakesAbsenceClaimsUnknown) {
  const auto l = load("dead-rule/dead-action.yaml");
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const TestGraph truncated(*l->semantics, 2);
  ASSERT_EQ(checker::Completion::state_limit, truncated.completion());
  const auto found = check_all(truncated, CheckSelection{});
  bool dead_action = false;
  for (const auto& f : found) {
    SCOPED_TRACE(f.rule + ": " + f.message);
    // States left unexpanded have no edges but are not deadlocks, and the
    // never-finishing part of the graph is unknown, not a stalemate.
    EXPECT_NE(Kind::deadlock, f.kind);
    EXPECT_NE(Kind::stalemate, f.kind);
    if (f.kind == Kind::dead_rule || f.kind == Kind::unreachable_win) {
      EXPECT_EQ(Verdict::unknown, f.verdict);
      EXPECT_EQ(Severity::note, f.severity);
      EXPECT_FALSE(f.trace.has_value());
    }
    if (f.rule == "action:big_spend") dead_action = true;
  }
  EXPECT_TRUE(dead_action);
}

TEST(CheckAll, MovesRemovedFromAWindowStateMakeADeadlock) {
  const auto l = load("deadlock/clean.yaml");
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  TestGraph graph(*l->semantics);
  EXPECT_TRUE(check_all(graph, CheckSelection::only(Kind::deadlock)).empty());
  graph.drop_edges(1);  // the window just opened, P1 to move
  const auto found = check_all(graph, CheckSelection::only(Kind::deadlock));
  ASSERT_EQ(1u, found.size());
  EXPECT_EQ("step:combat.fight", found[0].rule);
  EXPECT_EQ("in 'combat · fight', P1 holds priority and can neither act nor pass",
            found[0].message);
  ASSERT_TRUE(found[0].trace.has_value());
  EXPECT_EQ(1u, found[0].trace->size());
}

TEST(CheckAll, ReportsPropertiesThatHoldOnlyWhenAsked) {
  const auto l = load("property-violation/holds.yaml");
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const TestGraph graph(*l->semantics);
  auto selection = CheckSelection::only(Kind::property_violation);
  EXPECT_TRUE(check_all(graph, selection).empty());
  selection.report_holds = true;
  const auto found = check_all(graph, selection);
  ASSERT_EQ(4u, found.size());
  for (const auto& f : found) {
    EXPECT_EQ(Verdict::holds, f.verdict);
    EXPECT_EQ(Severity::note, f.severity);
  }
}

TEST(CheckAll, OrdersBySeverityThenLocation) {
  const auto l = load("unreachable-win/loss-never.yaml");
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const TestGraph graph(*l->semantics);
  const auto found = check_all(graph, CheckSelection{});
  ASSERT_FALSE(found.empty());
  for (std::size_t i = 1; i < found.size(); ++i) {
    const Finding& a = found[i - 1];
    const Finding& b = found[i];
    ASSERT_GE(a.severity, b.severity);
    if (a.severity == b.severity) {
      EXPECT_LE(std::tie(a.where.file, a.where.line, a.where.col, a.rule),
                std::tie(b.where.file, b.where.line, b.where.col, b.rule));
    }
  }
}

}  // namespace
}  // namespace loophole::properties
