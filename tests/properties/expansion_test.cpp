// Functions and macros are expanded before any engine sees the game, so a
// ruleset that uses them must check exactly like the same ruleset written
// out by hand: the same states, transitions and findings (kind, severity,
// rule, verdict, message, trace length). The pairs: the docs example and its
// by-hand twin, and both again with the macro's clamp removed, so that the
// expanded body has a rule gap and the comparison covers findings with
// traces and not only a clean game.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/phase_graph.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/properties/finding.hpp"
#include "loophole/properties/structural.hpp"

#include "loaded_game.hpp"

namespace loophole::properties {
namespace {

struct ExpandedCheck {
  std::uint64_t states = 0, transitions = 0;
  std::vector<std::string> findings;  // without locations: the twins differ there
};

std::string read_file(const std::string& path) {
  std::ifstream in(std::string(LOOPHOLE_SOURCE_DIR) + "/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

ExpandedCheck check_expanded_text(const std::string& name, const std::string& text) {
  test_support::Load how;
  how.text = text;
  const auto l = test_support::load_game(name, how);
  EXPECT_TRUE(l->game.has_value()) << l->diagnostics();
  if (!l->game) return {};
  const checker::Semantics semantics(*l->game);
  checker::ExplicitOptions options;
  options.threads = 1;
  const auto graph = checker::explore(semantics, options);
  EXPECT_EQ(checker::Completion::complete, graph->completion());
  ExpandedCheck out;
  out.states = graph->statistics().states;
  out.transitions = graph->statistics().transitions;
  std::vector<Finding> found = check_structure(*l->game, model::build_phase_graph(*l->game));
  for (Finding& f : check_all(*graph, CheckSelection{})) found.push_back(std::move(f));
  for (const Finding& f : found) {
    std::string s = std::string(to_string(f.kind)) + " " + std::string(to_string(f.severity)) +
                    " " + std::string(to_string(f.verdict)) + " " + f.rule + " trace " +
                    (f.trace ? std::to_string(f.trace->size()) : "-") + ": " + f.message;
    out.findings.push_back(std::move(s));
  }
  return out;
}

const std::string k_used = "docs/examples/functions_macros.yaml";
const std::string k_by_hand = "tests/fixtures/expansion/functions_macros_by_hand.yaml";

TEST(Expansion, ChecksLikeTheRulesWrittenOut) {
  const ExpandedCheck used = check_expanded_text(k_used, read_file(k_used));
  const ExpandedCheck by_hand = check_expanded_text(k_by_hand, read_file(k_by_hand));
  // (stored per orbit of the player rotations: 1,375 states, 1,615 moves
  // concrete)
  EXPECT_EQ(913U, used.states);
  EXPECT_EQ(1072U, used.transitions);
  EXPECT_EQ(by_hand.states, used.states);
  EXPECT_EQ(by_hand.transitions, used.transitions);
  EXPECT_EQ(std::vector<std::string>{}, used.findings);
  EXPECT_EQ(by_hand.findings, used.findings);
}

TEST(Expansion, FindsWhatTheRulesWrittenOutHave) {
  const ExpandedCheck used = check_expanded_text(
      k_used,
      replaced(read_file(k_used), "max(0, life[p] - damage(p, n))", "life[p] - damage(p, n)"));
  const ExpandedCheck by_hand = check_expanded_text(
      k_by_hand,
      replaced(read_file(k_by_hand), "max(0, life[next(self)] - (if", "(life[next(self)] - (if"));
  EXPECT_EQ(by_hand.states, used.states);
  EXPECT_EQ(by_hand.transitions, used.transitions);
  EXPECT_EQ(928U, used.states);  // (1,402 concrete)
  ASSERT_EQ(2U, used.findings.size());
  EXPECT_EQ(0U, used.findings[0].rfind("rule-gap error violated action:strike trace ", 0))
      << used.findings[0];
  EXPECT_EQ(by_hand.findings, used.findings);
}

// A zone's `init` per player is the same game as the cards moved there
// from the `all` zone in setup.
TEST(Expansion, ZoneInitPerPlayerChecksLikeSetupMoves) {
  const std::string per_player = "docs/examples/zone_init_per_player.yaml";
  const std::string by_hand = "tests/fixtures/expansion/zone_init_by_hand.yaml";
  const ExpandedCheck a = check_expanded_text(per_player, read_file(per_player));
  const ExpandedCheck b = check_expanded_text(by_hand, read_file(by_hand));
  EXPECT_LT(0U, a.states);
  EXPECT_EQ(b.states, a.states);
  EXPECT_EQ(b.transitions, a.transitions);
  EXPECT_EQ(b.findings, a.findings);
}

}  // namespace
}  // namespace loophole::properties
