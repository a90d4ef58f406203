// The seed rulesets' answer speeds and scopes: speed-biomes' answer speeds
// against the seed's sentences (by user properties over the whole graph),
// and the scopes the card counts derive (the stack's size, chains that
// stay finite with more copies). Loading and traceability are in
// seeds_trace_test.cpp, exploration and findings in seeds_explore_test.cpp.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/explored.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/source.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/properties/finding.hpp"

#include "loaded_game.hpp"
#include "sanitized.hpp"
#include "seeds_support.hpp"

namespace loophole {
namespace {

using namespace seeds;

// ---------------------------------------------------------------------------
// speed-biomes' answer speeds against the seed's sentences, by user
// properties over the whole state graph. Wherever the seed names the speed
// of an answer it is "Speed 2/3" or "Speed 3"; Speed 1 is only ever "taken",
// in the primary phases. So no Speed-1 action is ever on the stack above
// another entry (an answer), and none is on the stack at all in the battle
// windows ("You may take Speed 2, or Speed 3 actions") or after agents attack.
// The Speed-1 rule-level actions resolve at once (`answerable: false`) and
// would never show on the stack: in this copy of the rules they go on it, so
// that the properties see them (when an action may be taken does not depend
// on whether it is answerable). A copy with the old answer speeds must fail.

const char* const k_speed1_top =
    "(top_action == speed1_action or top_action == play_gear or top_action == convert or "
    "top_action == play_anomaly)";

std::string answer_speed_properties() {
  return std::string("properties:\n") +
         "  - name: speed1_never_answers\n"
         "    never: \"stack_size >= 2 and " +
         k_speed1_top + "\"\n" +
         "  - name: speed1_never_in_battle\n"
         "    never: \"stack_size >= 1 and " +
         k_speed1_top + "\"\n" +
         "    at: [battle.advance_actions, battle.opponent_advance_actions, battle.before_attack,\n"
         "         battle.after_attack, battle.before_defend, battle.after_defend]\n";
}

// Makes the first `answerable: false` after `- name: <action>` true.
void make_answerable(std::string& text, const std::string& action) {
  const std::size_t at = text.find("- name: " + action + "\n");
  ASSERT_NE(at, std::string::npos) << action;
  const std::string from = "answerable: false";
  const std::size_t a = text.find(from, at);
  ASSERT_NE(a, std::string::npos) << action;
  text.replace(a, from.size(), "answerable: true");
}

// The speed-biomes rules with the properties above (and, when `old_speeds`,
// Speed-1 answers in battle_window as before issue 34), written to a
// scratch directory; the user-property findings at a small scope.
std::vector<std::string> answer_speed_violations(bool old_speeds) {
  std::string main_text = read_text(ruleset_path("speed-biomes.yaml"));
  std::string rules = read_text(ruleset_path("include/speed-biomes-rules.yaml"));
  const std::size_t props = main_text.find("\nproperties:\n");
  EXPECT_NE(props, std::string::npos);
  if (props == std::string::npos) return {"no properties section"};
  main_text.replace(props + 1, std::string("properties:\n").size(), answer_speed_properties());
  for (const char* a : {"play_gear", "convert", "play_anomaly"}) make_answerable(rules, a);
  if (old_speeds) {
    const std::string now =
        "active:   {lead: [2, 3], answer: [2, 3]}\n    opponent: {lead: [2, 3], answer: [2, 3]}";
    const std::size_t w = rules.find(now);
    EXPECT_NE(w, std::string::npos);
    if (w == std::string::npos) return {"battle_window not found"};
    rules.replace(w, now.size(),
                  "active:   {lead: [2, 3], answer: [1, 2, 3]}\n    opponent: {lead: [2, 3], "
                  "answer: [1, 2, 3]}");
  }
  const fs::path dir =
      fs::temp_directory_path() /
      ("loophole-answer-speeds-" + std::to_string(::getpid()) + (old_speeds ? "-old" : ""));
  fs::create_directories(dir / "include");
  std::ofstream(dir / "speed-biomes.yaml", std::ios::binary) << main_text;
  std::ofstream(dir / "include" / "speed-biomes-rules.yaml", std::ios::binary) << rules;
  auto l = test_support::load_game(
      (dir / "speed-biomes.yaml").string(),
      {.params = {{"opening_hand", 2}, {"sector_durability", 1}, {"anomaly_copies", 0}}});
  fs::remove_all(dir);
  EXPECT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  if (!l->game) return {"does not load"};
  const checker::Semantics sem(*l->game);
  const auto graph = checker::explore(sem, {});
  EXPECT_EQ(graph->completion(), checker::Completion::complete);
  std::vector<std::string> out;
  for (const properties::Finding& f : properties::check_all(
           *graph, properties::CheckSelection::only(properties::Kind::property_violation))) {
    out.push_back(f.rule + " " + std::string(properties::to_string(f.verdict)));
  }
  return out;
}

TEST(SpeedBiomesAnswerSpeeds, NoSpeedOneAnswerAnywhereAndNoSpeedOneInBattle) {
  EXPECT_EQ(answer_speed_violations(false), std::vector<std::string>{});
}

TEST(SpeedBiomesAnswerSpeeds, TheOldSpeedsBreakBothSentences) {
  EXPECT_EQ(answer_speed_violations(true),
            (std::vector<std::string>{"property:speed1_never_answers violated",
                                      "property:speed1_never_in_battle violated"}));
}

// scope.stack is derived from the card counts, after `-p`: a larger deck
// gives a deeper stack, and a finite chain is never an "unbounded chain"
// error (issue 34: `-p ace_copies=2` gave one against a fixed bound of 3).
TEST(SeedScopes, StackFollowsTheCardCounts) {
  const auto stack = [](const char* ruleset, const char* param, std::int64_t v) {
    auto l = test_support::load_game(ruleset_path(ruleset), {.params = {{param, v}}});
    EXPECT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
    return l->game ? l->game->scope.stack : -1;
  };
  EXPECT_EQ(stack("speed-biomes.yaml", "tactic_copies", 1), 2);
  EXPECT_EQ(stack("speed-biomes.yaml", "tactic_copies", 2), 4);
  EXPECT_EQ(stack("speed-biomes.yaml", "tactic_copies", 0), 1);
  EXPECT_EQ(stack("cosmere.yaml", "ace_copies", 1), 3);
  EXPECT_EQ(stack("cosmere.yaml", "ace_copies", 2), 5);
}

TEST(SeedScopes, CosmereWithTwoAcesHasNoUnboundedChain) {
  auto l = test_support::load_game(
      ruleset_path("cosmere.yaml"),
      {.params = {
           {"ace_copies", 2}, {"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}}});
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  const checker::Semantics sem(*l->game);
  const auto graph = checker::explore(sem, {});
  ASSERT_EQ(graph->completion(), checker::Completion::complete);
  EXPECT_EQ(graph->size(), 87811U);
  for (const properties::Finding& f : properties::check_all(
           *graph, properties::CheckSelection::only(properties::Kind::unbounded_chain))) {
    EXPECT_NE(f.kind, properties::Kind::unbounded_chain) << f.message;
  }
}

// Two tactics per deck: chains four deep, which the old fixed bound of 3
// reported as an unbounded chain; the derived bound (4) holds them.
TEST(SeedScopes, SpeedBiomesWithTwoTacticsHasNoUnboundedChain) {
  auto l = test_support::load_game(ruleset_path("speed-biomes.yaml"),
                                   {.params = {{"tactic_copies", 2},
                                               {"opening_hand", 2},
                                               {"sector_durability", 1},
                                               {"gear_copies", 0},
                                               {"anomaly_copies", 0}}});
  ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
  EXPECT_EQ(l->game->scope.stack, 4);
  const checker::Semantics sem(*l->game);
  const auto graph = checker::explore(sem, {});
  ASSERT_EQ(graph->completion(), checker::Completion::complete);
  EXPECT_EQ(graph->size(), 132286U);
  for (const properties::Finding& f : properties::check_all(
           *graph, properties::CheckSelection::only(properties::Kind::unbounded_chain))) {
    EXPECT_NE(f.kind, properties::Kind::unbounded_chain) << f.message;
  }
}

}  // namespace
}  // namespace loophole
