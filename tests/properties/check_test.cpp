// check_all on a test double of the explored graph (test_graph.hpp): it must
// agree with the explicit engine's graph on every fixture, turn claims of
// absence into `unknown` notes when the graph is truncated (without calling
// unexpanded states deadlocks), find a deadlock planted by removing moves,
// and order findings by severity, then location.
#include "loophole/properties/check.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/model/diagnostics.hpp"

#include "context.hpp"
#include "loaded_game.hpp"
#include "test_graph.hpp"

namespace loophole::properties {
namespace {

using testing::TestGraph;

// A fixture of tests/fixtures/findings, with its semantics.
std::unique_ptr<test_support::LoadedGame> load_fixture(const std::string& fixture) {
  return test_support::load_game(
      std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/" + fixture,
      {.with_semantics = true});
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
    // (Files under an include/ folder are parts of a fixture, not fixtures.)
    if (e.path().extension() == ".yaml" && e.path().parent_path().filename() != "include") {
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
    const auto l = load_fixture(file);
    if (!l->game) {
      ADD_FAILURE() << l->sink.render(l->sources);
      continue;
    }
    const TestGraph mine(*l->sem);
    checker::ExplicitOptions options;
    options.threads = 2;
    const auto theirs = checker::explore(*l->sem, options);
    ASSERT_EQ(mine.size(), theirs->size());
    EXPECT_EQ(summary(check_all(mine, CheckSelection{})),
              summary(check_all(*theirs, CheckSelection{})));
  }
}

// The analyses run side by side on several threads: the same findings, in
// the same order, with the same traces, on every fixture.
TEST(RunChecks, SameFindingsOnEveryThreadCount) {
  for (const auto& file : fixtures()) {
    SCOPED_TRACE(file);
    const auto l = load_fixture(file);
    ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
    const auto graph = checker::explore(*l->sem, {});
    const auto one = run_checks(*graph, CheckSelection{}, nullptr, 1);
    EXPECT_TRUE(one.not_run.empty());
    for (const int threads : {2, 3, 7, 0}) {
      const auto many = run_checks(*graph, CheckSelection{}, nullptr, threads);
      EXPECT_TRUE(many.not_run.empty());
      ASSERT_EQ(summary(one.findings), summary(many.findings)) << threads << " threads";
      for (std::size_t i = 0; i < one.findings.size(); ++i) {
        const auto& a = one.findings[i].trace;
        const auto& b = many.findings[i].trace;
        ASSERT_EQ(a.has_value(), b.has_value());
        if (a) {
          ASSERT_EQ(a->size(), b->size());
          EXPECT_EQ(a->loop_start, b->loop_start);
          for (std::size_t k = 0; k < a->size(); ++k) {
            EXPECT_EQ(a->steps[k].successor, b->steps[k].successor) << threads << " threads";
            EXPECT_EQ(a->steps[k].text, b->steps[k].text) << threads << " threads";
          }
        }
      }
    }
  }
}

// The analyses' control point of a state keeps its turn number as the
// engine does up to scope.turns' 1,000: an 8-bit field wrapped above 127.
TEST(Context, PointsKeepTurnNumbersAbove127) {
  const std::string path =
      std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/cannot-end/clean.yaml";
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find("scope: {turns: 2}");
  ASSERT_NE(std::string::npos, at);
  text.replace(at, 17, "scope: {turns: 300}");
  const auto l = test_support::load_game(path, {.text = text, .with_semantics = true});
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const auto graph = checker::explore(*l->sem, {});
  const detail::Context cx(*graph, CheckSelection{});
  ASSERT_EQ(graph->size(), cx.size());
  const std::array<int, 1> turn = {l->sem->layout().turn};
  std::int32_t top = 0;
  for (checker::StateId v = 0; v < cx.size(); ++v) {
    std::int32_t t = 0;
    graph->fields_into(v, turn, 0, &t);
    ASSERT_EQ(t, static_cast<std::int32_t>(cx.points[v].turn)) << "state " << v;
    top = std::max(top, t);
  }
  EXPECT_EQ(300, top);
}

// Points are kept as indices into the table of distinct points: 1 byte
// each up to 256 distinct, 2 up to 65,536, then the points themselves; every
// point reads back across each widening, and fill() repeats one.
TEST(Context, PointsReadBackAcrossEveryWidth) {
  const auto point = [](unsigned k) {
    detail::Point p;
    p.step = static_cast<std::int32_t>(k % 500);
    p.turn = (k / 500) % 1000;
    p.over = (k / 500000) % 3;
    return p;
  };
  const auto bits = [](detail::Point p) { return std::bit_cast<std::uint32_t>(p); };
  detail::Points points;
  constexpr unsigned n = 200000;
  points.reserve(n + 10);
  // Each distinct point once, then again (a cached index), up to 70,000.
  std::vector<unsigned> key;
  for (unsigned k = 0; k < n; ++k) key.push_back(k % 2 == 0 ? k / 2 : (k / 2) % 40000);
  for (unsigned k = 0; k < n; ++k) {
    points.push_back(point(key[k]));
    if (k == 400) {
      EXPECT_EQ(1, points.width());  // 201 distinct
      EXPECT_EQ(201U, points.distinct());
    }
    if (k == 514) {
      EXPECT_EQ(2, points.width());  // 258 distinct
    }
    if (k == 131070) {
      EXPECT_EQ(2, points.width());  // 65,536 distinct
    }
  }
  EXPECT_EQ(4, points.width());
  ASSERT_EQ(n, points.size());
  for (unsigned k = 0; k < n; ++k) ASSERT_EQ(bits(point(key[k])), bits(points[k])) << k;
  points.fill(n + 10, point(7));
  ASSERT_EQ(n + 10, points.size());
  for (unsigned k = n; k < n + 10; ++k) EXPECT_EQ(bits(point(7)), bits(points[k]));

  detail::Points few;
  few.reserve(1000);
  for (unsigned k = 0; k < 1000; ++k) few.push_back(point(k % 256));
  EXPECT_EQ(1, few.width());
  few.fill(1000, point(3));  // (already 1000: nothing)
  ASSERT_EQ(1000U, few.size());
  for (unsigned k = 0; k < 1000; ++k) ASSERT_EQ(bits(point(k % 256)), bits(few[k])) << k;
}

// The context's pass on several threads: each thread interns the points
// of its share of the states; with at most 256 distinct points every one
// reads back, and with more the parallel fill gives up (nothing kept), so
// that the caller's serial pass widens the indices.
TEST(Context, PointsFilledOnThreeThreadsReadBack) {
  const auto point = [](checker::StateId v) {
    detail::Point p;
    p.step = static_cast<std::int32_t>(v % 37);
    p.turn = (v / 37) % 5;
    p.over = v % 37 == 36 ? 1 : 0;
    return p;
  };
  const auto bits = [](detail::Point p) { return std::bit_cast<std::uint32_t>(p); };
  constexpr std::size_t n = 300000;
  detail::Points points;
  points.reserve(n);
  ASSERT_TRUE(points.fill_parallel(n, 3, point, nullptr));
  ASSERT_EQ(n, points.size());
  EXPECT_EQ(1, points.width());
  EXPECT_EQ(185U, points.distinct());  // 37 steps x 5 turns (`over` goes with a step)
  for (checker::StateId v = 0; v < n; ++v) ASSERT_EQ(bits(point(v)), bits(points[v])) << v;

  const auto many = [](checker::StateId v) {
    detail::Point p;
    p.step = static_cast<std::int32_t>(v % 300);
    return p;
  };
  detail::Points wide;
  wide.reserve(n);
  EXPECT_FALSE(wide.fill_parallel(n, 3, many, nullptr));
  EXPECT_EQ(0U, wide.size());
  EXPECT_EQ(0U, wide.distinct());
  for (checker::StateId v = 0; v < n; ++v) wide.push_back(many(v));
  EXPECT_EQ(2, wide.width());
  for (checker::StateId v = 0; v < n; ++v) ASSERT_EQ(bits(many(v)), bits(wide[v])) << v;
}

TEST(CheckAll, TruncatedGraphMakesAbsenceClaimsUnknown) {
  const auto l = load_fixture("dead-rule/dead-action.yaml");
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const TestGraph truncated(*l->sem, 2);
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
  const auto l = load_fixture("deadlock/clean.yaml");
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  TestGraph graph(*l->sem);
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
  const auto l = load_fixture("property-violation/holds.yaml");
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const TestGraph graph(*l->sem);
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
  const auto l = load_fixture("unreachable-win/loss-never.yaml");
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const TestGraph graph(*l->sem);
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

// A loop the setup starts is placed in the setup, not in the first step
// (which the dead-rule analysis reports as never reached); the ward loops
// are leads on an empty stack, not answers.
TEST(CheckAll, LoopMessagesSayWhereAndHow) {
  const auto message = [](const std::string& file) {
    const auto l = load_fixture(file);
    const TestGraph graph(*l->sem);
    const auto found = check_all(graph, CheckSelection::only(Kind::response_loop));
    return found.empty() ? std::string() : found[0].message;
  };
  EXPECT_EQ(message("response-loop/setup-pair.yaml"),
            "triggers 'ping_back' and 'pong_back' re-fire each other forever in setup, before "
            "'main · only' begins");
  EXPECT_EQ(message("response-loop/trigger-pair.yaml"),
            "triggers 'ping_back' and 'pong_back' re-fire each other forever in 'main · only'");
  EXPECT_EQ(message("response-loop/ward-duel.yaml"),
            "'ward' (speed 3) can be played again and again forever in 'primary · main', each "
            "time on an empty stack");
}

// Every play stops at the setup's rule gap: the gap is the one error, and the
// dead rules and unreachable wins are notes beneath it, naming it by id.
TEST(CheckAll, WhatASetupGapCausesIsListedBeneathIt) {
  const auto l = load_fixture("rule-gap/setup-gap.yaml");
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const TestGraph graph(*l->sem);
  const auto found = check_all(graph, CheckSelection{});
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].kind, Kind::rule_gap);
  EXPECT_EQ(found[0].severity, Severity::error);
  EXPECT_EQ(found[0].caused_by, "");
  const std::vector<std::string> ids = finding_ids(found);
  EXPECT_EQ(ids, (std::vector<std::string>{
                     "rule-gap/setup", "dead-rule/step:main.play", "dead-rule/action:score_point",
                     "unreachable-win/end:scored/P1", "unreachable-win/end:scored/P2"}));
  for (std::size_t i = 1; i < found.size(); ++i) {
    SCOPED_TRACE(ids[i]);
    EXPECT_EQ(found[i].severity, Severity::note);
    EXPECT_EQ(found[i].caused_by, "rule-gap/setup");
    EXPECT_EQ(std::count(found[0].details.begin(), found[0].details.end(),
                         "it causes " + ids[i] + ": " + found[i].message),
              1);
  }
}

// Forwards to a graph and sets `flag` at the `trip`-th call of state(): an
// interruption that arrives at a chosen point of the analyses.
class Tripwire final : public checker::ExploredGraph {
 public:
  Tripwire(const checker::ExploredGraph& inner, std::atomic<bool>& flag, std::uint64_t trip)
      : inner_(inner), flag_(flag), trip_(trip) {}
  [[nodiscard]] const checker::Semantics& semantics() const override { return inner_.semantics(); }
  [[nodiscard]] std::uint64_t size() const override { return inner_.size(); }
  [[nodiscard]] std::uint32_t initial_count() const override { return inner_.initial_count(); }
  [[nodiscard]] checker::StateVec state(checker::StateId id) const override {
    if (++calls_ >= trip_) flag_.store(true);
    return inner_.state(id);
  }
  [[nodiscard]] std::vector<checker::Edge> edges(checker::StateId id) const override {
    return inner_.edges(id);
  }
  [[nodiscard]] std::uint64_t expanded() const override { return inner_.expanded(); }
  [[nodiscard]] checker::StateId parent(checker::StateId id) const override {
    return inner_.parent(id);
  }
  [[nodiscard]] std::uint32_t parent_index(checker::StateId id) const override {
    return inner_.parent_index(id);
  }
  [[nodiscard]] std::uint32_t depth(checker::StateId id) const override { return inner_.depth(id); }
  [[nodiscard]] checker::Completion completion() const override { return inner_.completion(); }
  [[nodiscard]] const checker::Statistics& statistics() const override {
    return inner_.statistics();
  }
  [[nodiscard]] std::uint64_t calls() const { return calls_; }

 private:
  const checker::ExploredGraph& inner_;
  std::atomic<bool>& flag_;
  std::uint64_t trip_;
  mutable std::uint64_t calls_ = 0;
};

std::string analysis_of(Kind k) {
  switch (k) {
    case Kind::deadlock:
      return "deadlocks";
    case Kind::response_loop:
    case Kind::unbounded_chain:
    case Kind::stall:
      return "response loops";
    case Kind::stalemate:
      return "stalemates";
    case Kind::unreachable_win:
      return "unreachable wins";
    case Kind::rule_gap:
      return "rule gaps";
    case Kind::dead_rule:
      return "dead rules";
    case Kind::property_violation:
      return "user properties";
    case Kind::tie:
      return "ties";
    case Kind::turn_loop:
      return "turn loops";
    case Kind::cannot_lose:
    case Kind::cannot_end:
      return "ends out of reach";
    case Kind::structure:
      break;
  }
  return "?";
}

TEST(RunChecks, InterruptedBeforeStartRunsNothing) {
  const auto l = load_fixture("response-loop/ward-duel.yaml");
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const TestGraph graph(*l->sem);
  const std::atomic<bool> stop{true};
  const auto result = run_checks(graph, CheckSelection{}, &stop);
  EXPECT_TRUE(result.findings.empty());
  EXPECT_EQ((std::vector<std::string>{"deadlocks", "response loops", "turn loops", "stalemates",
                                      "ends out of reach", "unreachable wins", "rule gaps", "ties",
                                      "dead rules", "user properties"}),
            result.not_run);
  auto only = CheckSelection::only(Kind::dead_rule);
  EXPECT_EQ(std::vector<std::string>{"dead rules"}, run_checks(graph, only, &stop).not_run);
}

// Interrupting at every point of the analyses: the analyses that finished
// before the flag keep exactly the findings an uninterrupted run gives them;
// the one it cut short and all later ones report nothing and are named.
TEST(RunChecks, InterruptionKeepsOnlyFinishedAnalyses) {
  const std::vector<std::string> order{
      "deadlocks",        "response loops", "turn loops", "stalemates", "ends out of reach",
      "unreachable wins", "rule gaps",      "ties",       "dead rules", "user properties"};
  for (const char* file : {"response-loop/ward-duel.yaml", "dead-rule/dead-action.yaml",
                           "property-violation/hand-limit.yaml"}) {
    SCOPED_TRACE(file);
    const auto l = load_fixture(file);
    ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
    const TestGraph graph(*l->sem);
    const auto all = summary(check_all(graph, CheckSelection{}));
    std::atomic<bool> never{false};
    const Tripwire counting(graph, never, ~std::uint64_t{0});
    ASSERT_EQ(all, summary(run_checks(counting, CheckSelection{}, &never).findings));
    const std::uint64_t total = counting.calls();
    ASSERT_GT(total, graph.size());  // the analyses read states after the context did
    std::set<std::size_t> cut_at;
    for (std::uint64_t trip = 1; trip <= total; ++trip) {
      std::atomic<bool> flag{false};
      const Tripwire wire(graph, flag, trip);
      const auto result = run_checks(wire, CheckSelection{}, &flag);
      ASSERT_FALSE(result.not_run.empty()) << "trip " << trip;
      // What did not run is a tail of the order.
      const auto first = std::find(order.begin(), order.end(), result.not_run.front());
      ASSERT_NE(order.end(), first);
      ASSERT_EQ(std::vector<std::string>(first, order.end()), result.not_run);
      cut_at.insert(static_cast<std::size_t>(first - order.begin()));
      std::vector<Finding> expected_findings;
      for (const auto& f : check_all(graph, CheckSelection{})) {
        if (std::find(order.begin(), first, analysis_of(f.kind)) != first) {
          expected_findings.push_back(f);
        }
      }
      EXPECT_EQ(summary(expected_findings), summary(result.findings)) << "trip " << trip;
    }
    EXPECT_GE(cut_at.size(), 2u);  // the trip points reached more than one analysis
  }
}

}  // namespace
}  // namespace loophole::properties
