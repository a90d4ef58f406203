// `loophole diff` on pairs of rulesets under tests/fixtures/diff/, one per
// kind of edit: one adds a deadlock, one removes a response loop, one makes
// a win unreachable. Exact findings, end conditions and state counts.
#include "loophole/reports/diff.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "loophole/pipeline/pipeline.hpp"

namespace loophole::reports {
namespace {

struct Pair {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::optional<pipeline::Analyzed> before, after;
};

std::unique_ptr<Pair> check_pair(const std::string& name) {
  auto p = std::make_unique<Pair>();
  pipeline::Options check;
  check.explore.threads = 1;
  const std::string dir = "tests/fixtures/diff/" + name + "/";
  p->before = pipeline::analyze(dir + "old.yaml", dir + "old.yaml", {}, check, p->sources, p->sink);
  p->after = pipeline::analyze(dir + "new.yaml", dir + "new.yaml", {}, check, p->sources, p->sink);
  EXPECT_TRUE(p->before && p->after) << p->sink.render(p->sources);
  return p;
}

std::vector<std::string> ids_at(const RulesetReport& rs, const std::vector<std::size_t>& at) {
  const auto ids = finding_ids(rs);
  std::vector<std::string> out;
  for (const auto i : at) out.push_back(ids[i]);
  return out;
}

TEST(Diff, AnEditThatAddsADeadlock) {
  const auto p = check_pair("adds-deadlock");
  ASSERT_TRUE(p->before && p->after);
  const auto d = diff_rulesets(p->before->report, p->after->report);
  EXPECT_EQ(ids_at(p->after->report, d.added),
            std::vector<std::string>{"deadlock/step:combat.fight"});
  // The stalemate goes: the game now stops dead instead of going on forever.
  EXPECT_EQ(ids_at(p->before->report, d.removed),
            std::vector<std::string>{"stalemate/step:combat.fight"});
  EXPECT_TRUE(d.kept.empty());
  EXPECT_TRUE(adds_findings(d, properties::Severity::error));
  EXPECT_EQ(render_diff_text(d),
            "loophole diff tests/fixtures/diff/adds-deadlock/old.yaml -> "
            "tests/fixtures/diff/adds-deadlock/new.yaml\n"
            "findings added (1):\n"
            "  tests/fixtures/diff/adds-deadlock/new.yaml:13:19: error: deadlock: in 'combat · "
            "fight', P1 holds priority and can neither act nor pass [deadlock/step:combat.fight]\n"
            // The added finding's transcript, as check prints it.
            "    trace (2 moves, shortest):\n"
            "      after setup: no cards or variables\n"
            "        1  T1 P1  combat · fight   start at combat · fight\n"
            "        2  T1 P1  combat · fight   P1 plays 'strike' (speed 1)\n"
            "findings removed (1):\n"
            "  tests/fixtures/diff/adds-deadlock/old.yaml:11:17: warning: stalemate: from 'combat "
            "· fight' the game can go on forever: no sequence of moves ends it "
            "[stalemate/step:combat.fight]\n"
            "findings unchanged: 0\n"
            "states 6 -> 3 (-3)  transitions 7 -> 2 (-5)\n");
}

TEST(Diff, AnEditThatRemovesALoop) {
  const auto p = check_pair("removes-loop");
  ASSERT_TRUE(p->before && p->after);
  const auto d = diff_rulesets(p->before->report, p->after->report);
  EXPECT_EQ(ids_at(p->before->report, d.removed),
            std::vector<std::string>{"response-loop/action:ward"});
  // Charges make the state space larger and split the stalemate in three;
  // they are warnings, so the edit adds nothing at the default --fail-on.
  EXPECT_EQ(
      ids_at(p->after->report, d.added),
      (std::vector<std::string>{"stalemate/step:primary.main#2", "stalemate/step:primary.main#3"}));
  EXPECT_EQ(d.kept, std::vector<std::string>{"stalemate/step:primary.main"});
  EXPECT_FALSE(adds_findings(d, properties::Severity::error));
  EXPECT_TRUE(adds_findings(d, properties::Severity::warning));
  const auto j = nlohmann::json::parse(render_diff_json(d));
  EXPECT_EQ(j["format"], "loophole-diff");
  // (states stored: one per orbit of the player rotations, of 19 and 41)
  EXPECT_EQ(j["before"]["states"], 10);
  EXPECT_EQ(j["after"]["states"], 21);
  EXPECT_EQ(j["states_delta"], 11);
  ASSERT_EQ(j["removed"].size(), 1u);
  EXPECT_EQ(j["removed"][0]["classification"]["loop"], "several-players");
  EXPECT_EQ(j["removed"][0]["trace"]["length"], 4);
}

TEST(Diff, AnEditThatMakesAWinUnreachable) {
  const auto p = check_pair("win-unreachable");
  ASSERT_TRUE(p->before && p->after);
  const auto d = diff_rulesets(p->before->report, p->after->report);
  EXPECT_EQ(d.became_unreachable, (std::vector<std::string>{"end:points/P1", "end:points/P2"}));
  EXPECT_TRUE(d.became_reachable.empty());
  EXPECT_TRUE(d.removed.empty());
  EXPECT_TRUE(adds_findings(d, properties::Severity::error));
  const std::string text = render_diff_text(d);
  EXPECT_NE(text.find("end conditions:\n  became unreachable: P1 win by 'points' (end:points/P1)\n"
                      "  became unreachable: P2 win by 'points' (end:points/P2)\n"
                      "states 125 -> 113 (-12)  transitions 153 -> 141 (-12)\n"),
            std::string::npos)
      << text;
  // The reverse edit makes both reachable again.
  const auto back = diff_rulesets(p->after->report, p->before->report);
  EXPECT_EQ(back.became_reachable, (std::vector<std::string>{"end:points/P1", "end:points/P2"}));
  EXPECT_TRUE(back.added.empty());
  EXPECT_FALSE(adds_findings(back, properties::Severity::note));
}

// Size changes are grouped in thousands like every other count.
TEST(Diff, SizeChangesAreGroupedInThousands) {
  RulesetReport before, after;
  before.file = "old.yaml";
  after.file = "new.yaml";
  before.statistics.emplace();
  after.statistics.emplace();
  before.statistics->states = 300000;
  after.statistics->states = 497;
  before.statistics->transitions = 1000;
  after.statistics->transitions = 1235678;
  const auto text = render_diff_text(diff_rulesets(before, after));
  EXPECT_NE(text.find("states 300,000 -> 497 (-299,503)  transitions 1,000 -> 1,235,678 "
                      "(+1,234,678)\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace loophole::reports
