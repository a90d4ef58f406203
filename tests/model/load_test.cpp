// Loading good rulesets: every file of docs/examples/ loads without a single
// diagnostic and has a few exact facts checked; small inline rulesets pin
// down the slot layout, event ids, types, folded constants, overrides,
// include merging and the resolved trees (through the printer).
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "load_helpers.hpp"

namespace loophole::model {
namespace {

using testing::k_turn;
using testing::load_path;
using testing::load_text;
using testing::Loaded;

std::string slot_line(const Slot& s) {
  return s.name + " " + std::to_string(s.lo) + ".." + std::to_string(s.hi) + " = " +
         std::to_string(s.init);
}

std::vector<std::string> slot_lines(const Game& g) {
  std::vector<std::string> out;
  for (const Slot& s : g.slots) out.push_back(slot_line(s));
  return out;
}

std::vector<std::string> event_names(const Game& g) {
  std::vector<std::string> out;
  for (const EventDecl& e : g.events) out.push_back(e.name);
  return out;
}

const Game& game_of(const Loaded& l) {
  EXPECT_TRUE(l.game.has_value()) << l.rendered;
  if (!l.game) throw std::runtime_error("ruleset did not load:\n" + l.rendered);
  return *l.game;
}

// ---- docs/examples ---------------------------------------------------------------

using Facts = std::function<void(const Game&)>;

const std::map<std::string, Facts>& example_facts() {
  static const std::map<std::string, Facts> facts = {
      {"minimal.yaml",
       [](const Game& g) {
         EXPECT_EQ(g.name, "minimal");
         EXPECT_EQ(g.players, 2);
         EXPECT_EQ(g.phases.size(), 1U);
         EXPECT_EQ(g.step_name(0), "main.only");
         EXPECT_TRUE(g.slots.empty());
         EXPECT_EQ(event_names(g),
                   (std::vector<std::string>{"begin_turn", "end_turn", "begin_phase(main)",
                                             "end_phase(main)", "begin_step(main.only)",
                                             "end_step(main.only)"}));
       }},
      {"players_params.yaml",
       [](const Game& g) {
         EXPECT_EQ(g.players, 2);
         EXPECT_EQ(g.min_players, 2);
         EXPECT_EQ(g.max_players, 4);
         ASSERT_EQ(g.params.size(), 2U);
         EXPECT_EQ(g.params[0].value, 8);
         EXPECT_EQ(g.params[0].min, 1);
         EXPECT_EQ(g.params[1].name, "hand_target");
         EXPECT_FALSE(g.params[1].max.has_value());
         EXPECT_EQ(g.scope.stack, 3);
         EXPECT_EQ(g.scope.turns, 2);
         EXPECT_EQ(slot_lines(g), (std::vector<std::string>{"cards_seen[P1] 0..8 = 0",
                                                            "cards_seen[P2] 0..8 = 0"}));
         EXPECT_EQ(to_string(*g.steps[0].effects),
                   "(block (assign := (var #0 cards_seen (active)) (min (int 8) (- (+ (var #0 "
                   "cards_seen (active)) "
                   "(int 6)) (int 5)))))");
         EXPECT_EQ(to_string(*g.steps[1].effects),
                   "(block (if (== (next (active)) (player P1)) (block (assign := (var #0 "
                   "cards_seen (opponent)) (int "
                   "0)))))");
       }},
      {"state_slots.yaml",
       [](const Game& g) {
         EXPECT_EQ(g.slots.size(), 18U);
         EXPECT_EQ(slot_line(g.slots[0]), "coins 0..5 = 0");
         EXPECT_EQ(slot_line(g.slots[2]), "life[P2] 0..20 = 20");
         EXPECT_EQ(slot_line(g.slots[4]), "locked[P2] 0..1 = 0");
         EXPECT_EQ(slot_line(g.slots[5]), "mode 0..3 = 0");
         EXPECT_EQ(slot_line(g.slots[6]), "field[P1][0].status 0..3 = 0");
         EXPECT_EQ(slot_line(g.slots[17]), "field[P2][2].damage 0..3 = 0");
         const VarDecl& field = g.vars[4];
         EXPECT_EQ(field.first_slot, 6);
         EXPECT_EQ(field.slot(1, 2, 1), 17);
         EXPECT_EQ(g.slots[17].type, Type::int_());
         EXPECT_EQ(g.slots[16].type, Type::enum_of(0));
         EXPECT_EQ(to_string(*g.steps[0].effects->bodies[1]),
                   "(if (== (var #4 field .1 (opponent) (int 0)) (int 3)) (block (assign := (var "
                   "#4 field (opponent) "
                   "(int 0)) (enum #0 3 out))))");
       }},
      {"kinds_zones.yaml",
       [](const Game& g) {
         EXPECT_EQ(g.kinds[1].copies, 2);  // the param `walls`
         EXPECT_EQ(g.tags, (std::vector<std::string>{"action", "unit"}));
         EXPECT_EQ(g.deck_zone, 0);
         EXPECT_EQ(g.hand_zone, 1);
         EXPECT_EQ(g.discard_zone, 2);
         EXPECT_EQ(
             slot_lines(g),
             (std::vector<std::string>{
                 "deck[P1].spark 0..2 = 1", "deck[P1].wall 0..2 = 2", "deck[P2].spark 0..2 = 1",
                 "deck[P2].wall 0..2 = 2", "hand[P1].spark 0..2 = 1", "hand[P1].wall 0..2 = 0",
                 "hand[P2].spark 0..2 = 1", "hand[P2].wall 0..2 = 0", "discard[P1].spark 0..2 = 0",
                 "discard[P1].wall 0..2 = 0", "discard[P2].spark 0..2 = 0",
                 "discard[P2].wall 0..2 = 0", "world.spark 0..4 = 0", "world.wall 0..4 = 0"}));
         EXPECT_EQ(to_string(*g.steps[1].effects),
                   "(block (if (> (zone_count #1 hand (active) kind #0) (int 0)) (block (move_kind "
                   "(zone_count #1 hand "
                   "(active) all) (zone_count #2 discard (active) all) (kind #0 spark) (int 1)))) "
                   "(if (> (zone_count "
                   "#1 hand (active) tag #1) (int 0)) (block (move_any (zone_count #1 hand "
                   "(active) all) (zone_count "
                   "#3 world all) (int 1)))) (shuffle (zone_count #0 deck (active) all)))");
       }},
      {"turn_structure.yaml",
       [](const Game& g) {
         EXPECT_EQ(g.phases.size(), 3U);
         EXPECT_EQ(g.steps.size(), 6U);
         const int exit = g.find_step("recon.first_round_exit");
         EXPECT_EQ(exit, 4);
         EXPECT_EQ(g.step_name(exit), "recon.first_round_exit");
         EXPECT_EQ(g.find_step("recon.nope"), -1);
         EXPECT_EQ(to_string(*g.steps[4].end_turn_if), "(== (turn_number) (int 1))");
         EXPECT_EQ(g.steps[4].end_turn_text, "turn_number == 1");
         EXPECT_EQ(to_string(*g.steps[5].repeat_while), "(< (var #0 threat) (int 2))");
         EXPECT_EQ(g.steps[2].window, 0);
         EXPECT_EQ(g.steps[3].window, 0);
         EXPECT_EQ(g.phases[2].steps, std::vector<int>{5});
         EXPECT_EQ(g.steps[5].phase, 2);
         EXPECT_EQ(g.steps[5].index, 0);
       }},
      {"windows.yaml",
       [](const Game& g) {
         ASSERT_EQ(g.windows.size(), 3U);
         const Window& primary = g.windows[0];
         EXPECT_EQ(primary.protocol, Protocol::priority);
         ASSERT_EQ(primary.roles.size(), 2U);
         EXPECT_EQ(primary.roles[0].role, Role::active);
         EXPECT_EQ(primary.roles[0].lead, (std::vector<int>{1, 2, 3}));
         EXPECT_EQ(primary.roles[0].answer, std::vector<int>{3});
         EXPECT_FALSE(primary.roles[0].lead_if_active_idle);
         EXPECT_EQ(primary.roles[1].role, Role::opponent);
         EXPECT_TRUE(primary.roles[1].lead_if_active_idle);
         EXPECT_EQ(g.windows[1].protocol, Protocol::alternate);
         EXPECT_TRUE(g.windows[1].may_pass);
         EXPECT_EQ(g.windows[2].protocol, Protocol::sequence);
         EXPECT_EQ(g.windows[2].order,
                   (std::vector<SequenceTurn>{SequenceTurn::active, SequenceTurn::opponent,
                                              SequenceTurn::active_if_answered}));
         EXPECT_EQ(g.speeds, (std::vector<int>{1, 2, 3}));
         EXPECT_TRUE(g.actions[0].windows.empty());
         EXPECT_EQ(g.actions[0].limit.per_window, 1);
         EXPECT_EQ(g.actions[1].windows, std::vector<int>{0});
         EXPECT_EQ(to_string(*g.actions[1].guard),
                   "(and (> (stack_size) (int 0)) (!= (top_controller) (self)))");
       }},
      {"actions.yaml",
       [](const Game& g) {
         const Action& spark = g.actions[0];
         EXPECT_EQ(spark.who, Role::active);
         EXPECT_EQ(spark.speed, 1);
         EXPECT_EQ(spark.windows, (std::vector<int>{0, 1}));
         EXPECT_EQ(spark.play_kind, 0);
         EXPECT_EQ(spark.to_zone, g.discard_zone);
         EXPECT_EQ(spark.limit.per_turn, 1);
         EXPECT_EQ(to_string(*spark.cost),
                   "(block (assign := (var #0 coins) (- (var #0 coins) (int 1))))");
         const Action& ward = g.actions[1];
         EXPECT_EQ(ward.who, Role::any);
         EXPECT_EQ(ward.to_zone, 3);  // exile
         EXPECT_FALSE(ward.negatable);
         EXPECT_EQ(to_string(*ward.guard),
                   "(and (> (stack_size) (int 0)) (== (top_action) (action #0 spark)))");
         EXPECT_EQ(to_string(*ward.effect), "(block (negate))");
         EXPECT_FALSE(g.actions[2].answerable);
         EXPECT_EQ(g.actions[2].play_kind, -1);
         EXPECT_EQ(g.actions[2].to_zone, -1);
       }},
      {"triggers.yaml",
       [](const Game& g) {
         EXPECT_EQ(event_names(g),
                   (std::vector<std::string>{"begin_turn", "end_turn", "begin_phase(contain)",
                                             "end_phase(contain)", "begin_step(contain.scan)",
                                             "end_step(contain.scan)", "discovered"}));
         EXPECT_EQ(g.phases[0].begin_event, 2);
         EXPECT_EQ(g.steps[0].end_event, 5);
         ASSERT_EQ(g.triggers.size(), 4U);
         EXPECT_EQ(g.triggers[0].event, 2);
         EXPECT_EQ(g.triggers[0].controller, Role::each);
         EXPECT_EQ(g.triggers[1].event, 6);
         EXPECT_EQ(g.triggers[1].controller, Role::others);
         EXPECT_TRUE(g.triggers[1].optional);
         EXPECT_EQ(g.triggers[2].event, 0);
         EXPECT_EQ(g.triggers[2].controller, Role::active);
         EXPECT_EQ(g.triggers[3].event, 5);
         EXPECT_EQ(to_string(*g.triggers[3].effect), "(block (fire #6))");
       }},
      {"choices.yaml",
       [](const Game& g) {
         EXPECT_EQ(g.players, 3);
         EXPECT_EQ(g.binder_slots, 1);
         EXPECT_EQ(to_string(*g.setup),
                   "(block (choose #0 c (range 0 1) (block (assign := (var #0 heads) (== (bound #0 "
                   "c) (int 1))))))");
         EXPECT_EQ(to_string(*g.steps[2].effects),
                   "(block (pick #0 k kinds (where (> (zone_count #1 hand (active) (bound #0 k) "
                   "kind) (int 0))) "
                   "(block (move_kind (zone_count #1 hand (active) all) (zone_count #2 pile all) "
                   "(bound #0 k) (int "
                   "1)))))");
         EXPECT_EQ(slot_line(g.slots.back()), "pile.dust 0..6 = 0");
       }},
      {"player_kind_state.yaml",
       [](const Game& g) {
         // A player ranges over the players, a kind over the kinds; no `range`.
         EXPECT_EQ(slot_line(g.slots[0]), "leader 0..2 = 0");
         EXPECT_EQ(slot_line(g.slots[1]), "led 0..1 = 0");
         EXPECT_EQ(slot_line(g.slots[4]), "played[P3] 0..1 = 0");
         EXPECT_EQ(slot_line(g.slots[5]), "best[0].who 0..2 = 0");
         EXPECT_EQ(slot_line(g.slots[6]), "best[0].suit 0..1 = 0");
         EXPECT_EQ(g.slots[0].type, Type::player());
         EXPECT_EQ(g.slots[6].type, Type::kind());
         EXPECT_EQ(g.slot_value(0, 2), "P3");
         EXPECT_EQ(g.slot_value(1, 1), "'spades'");
         EXPECT_EQ(to_string(*g.steps[2].effects),
                   "(block (if (> (zone_count #2 table (var #0 leader) (var #1 led) kind) (int 0)) "
                   "(block (assign := (var #0 leader) (var #3 best (int 0))))))");
       }},
      {"choosers.yaml",
       [](const Game& g) {
         EXPECT_EQ(to_string(*g.setup),
                   "(block (pick #0 p players (by (var #1 dealer)) (block (assign := (var #1 "
                   "dealer) (bound #0 p)))))");
         EXPECT_EQ(to_string(*g.actions[0].effect),
                   "(block (pick #0 k kinds (where (> (zone_count #1 hand (self) (bound #0 k) "
                   "kind) (int 0))) (by (opponent)) (block (move_kind (zone_count #1 hand (self) "
                   "all) (zone_count #2 field (opponent) all) (bound #0 k) (int 1)))))");
       }},
      {"must_act.yaml",
       [](const Game& g) {
         ASSERT_EQ(g.windows.size(), 2U);
         EXPECT_TRUE(g.windows[0].must_act);
         EXPECT_FALSE(g.windows[0].may_pass);
         EXPECT_EQ(g.windows[1].protocol, Protocol::sequence);
         EXPECT_TRUE(g.windows[1].must_act);
       }},
      {"end_conditions.yaml",
       [](const Game& g) {
         ASSERT_EQ(g.end_conditions.size(), 2U);
         EXPECT_FALSE(g.end_conditions[0].win);
         EXPECT_EQ(g.end_conditions[0].who, Role::each);
         EXPECT_EQ(to_string(*g.end_conditions[0].condition),
                   "(== (zone_count #0 deck (self) all) (int 0))");
         EXPECT_TRUE(g.end_conditions[1].win);
         EXPECT_EQ(to_string(*g.steps[1].effects->bodies[2]),
                   "(if (forall #0 p players (== (var #0 score (bound #0 p)) (int 0))) (block "
                   "(lose (opponent))))");
       }},
      {"properties.yaml",
       [](const Game& g) {
         ASSERT_EQ(g.properties.size(), 5U);
         EXPECT_EQ(g.properties[0].kind, Property::Kind::always);
         EXPECT_EQ(g.properties[0].at_steps, std::vector<int>{g.find_step("end.reset")});
         EXPECT_TRUE(g.properties[0].at_phases.empty());
         EXPECT_EQ(g.properties[1].kind, Property::Kind::never);
         EXPECT_EQ(g.properties[2].kind, Property::Kind::reachable);
         EXPECT_EQ(to_string(*g.properties[2].expr),
                   "(and (== (turn_number) (int 1)) (== (stack_size) (int 2)))");
         EXPECT_EQ(g.properties[3].kind, Property::Kind::leads_to);
         EXPECT_EQ(to_string(*g.properties[3].to), "(== (stack_size) (int 0))");
         EXPECT_EQ(g.properties[4].at_phases, std::vector<int>{0});
         EXPECT_EQ(to_string(*g.properties[4].expr), "(== (var #0 coins) (int 0))");
       }},
      {"includes.yaml",
       [](const Game& g) {
         EXPECT_EQ(g.speeds, (std::vector<int>{1, 2, 3}));
         ASSERT_EQ(g.kinds.size(), 1U);
         EXPECT_EQ(g.kinds[0].where.file, "docs/examples/include/speed_pool.yaml");
         EXPECT_EQ(g.actions[0].play_kind, 0);
         EXPECT_EQ(g.actions[0].to_zone, g.discard_zone);
         EXPECT_EQ(slot_lines(g).front(), "deck[P1].spark 0..2 = 2");
       }},
      {"invented.yaml",
       [](const Game& g) {
         ASSERT_EQ(g.actions.size(), 1U);
         EXPECT_EQ(g.actions[0].invented,
                   "the seed names Speed 1 actions, not their text: +1 power");
         ASSERT_EQ(g.triggers.size(), 2U);
         EXPECT_EQ(g.triggers[0].invented,
                   "the seed says reactive skills react here, not what they do");
         // from the include entry `{file: ..., invented: ...}`
         EXPECT_EQ(g.triggers[1].name, "end_skills");
         EXPECT_EQ(g.triggers[1].invented,
                   "the seed's reactive skills have no text: a generic boost");
       }},
      {"functions_macros.yaml",
       [](const Game& g) {
         // Expanded: no call is left, the macro's statements stand where it
         // was used, parameters replaced by their arguments.
         ASSERT_EQ(g.actions.size(), 2U);
         EXPECT_EQ(to_string(*g.actions[0].guard), "(> (var #0 life (next (self))) (int 0))");
         EXPECT_EQ(to_string(*g.steps[1].effects),
                   "(block (assign := (var #2 rounds) (min (int 3) (+ (var #2 rounds) (int 1)))) "
                   "(assign := (var #1 guard (next (active))) (enum #0 0 open)))");
         EXPECT_EQ(g.binder_slots, 0);
       }},
      {"shared_pile.yaml",
       [](const Game& g) {
         // The hands receive cards from the shared deck: a kind counts up to
         // its copies in the whole game (2 players), the piles likewise.
         EXPECT_EQ(slot_lines(g),
                   (std::vector<std::string>{"deck.red 0..4 = 4", "deck.blue 0..2 = 2",
                                             "hand[P1].red 0..4 = 0", "hand[P1].blue 0..2 = 0",
                                             "hand[P2].red 0..4 = 0", "hand[P2].blue 0..2 = 0",
                                             "discard.red 0..4 = 0", "discard.blue 0..2 = 0"}));
       }},
      {"named_draw.yaml",
       [](const Game& g) {
         // draw(p, n, z) names its source: the shared market (the hands,
         // fed by it, count a kind up to the game's copies) and a library.
         EXPECT_EQ(g.deck_zone, -1);
         EXPECT_EQ(slot_lines(g), (std::vector<std::string>{
                                      "market.coin 0..4 = 4", "market.gem 0..2 = 0",
                                      "library[P1].coin 0..2 = 0", "library[P1].gem 0..1 = 1",
                                      "library[P2].coin 0..2 = 0", "library[P2].gem 0..1 = 1",
                                      "hand[P1].coin 0..4 = 0", "hand[P1].gem 0..2 = 0",
                                      "hand[P2].coin 0..4 = 0", "hand[P2].gem 0..2 = 0"}));
         ASSERT_EQ(g.actions.size(), 2U);
         EXPECT_EQ(to_string(*g.actions[1].effect),
                   "(block (draw (self) (int 1) (zone_count #1 library (self) all)))");
       }},
      {"zone_capacity.yaml",
       [](const Game& g) {
         // A hand holds hand_limit (3) cards: each kind counts 0..3, not the
         // 0..4 a hand fed by the shared deck would need; the pile 0..4.
         EXPECT_EQ(g.zones[1].capacity, 3);
         EXPECT_EQ(g.zones[2].capacity, 4);
         EXPECT_EQ(g.zones[0].capacity, -1);
         EXPECT_EQ(slot_lines(g),
                   (std::vector<std::string>{"deck.red 0..4 = 4", "deck.blue 0..4 = 4",
                                             "hand[P1].red 0..3 = 0", "hand[P1].blue 0..3 = 0",
                                             "hand[P2].red 0..3 = 0", "hand[P2].blue 0..3 = 0",
                                             "discard.red 0..4 = 0", "discard.blue 0..4 = 0"}));
       }},
      {"turn_order.yaml",
       [](const Game& g) {
         // The statements and expressions of the turn order, classified.
         ASSERT_EQ(g.actions.size(), 2U);
         EXPECT_EQ(to_string(*g.actions[0].effect),
                   "(block (reverse_turn_order) "
                   "(assign += (var #0 reversals) (int 1)))");
         EXPECT_EQ(to_string(*g.actions[1].guard),
                   "(and (== (turn_order) (reversed)) "
                   "(< (var #1 skipped (next (self))) (int 3)))");
         EXPECT_EQ(to_string(*g.actions[1].effect),
                   "(block (assign += (var #1 skipped (next (self))) (int 1)) (skip_next))");
         ASSERT_EQ(g.properties.size(), 2U);
         EXPECT_EQ(g.players, 3);
       }},
      {"zone_init_per_player.yaml",
       [](const Game& g) {
         // Each player's deck holds the copies its hand does not.
         EXPECT_EQ(slot_lines(g), (std::vector<std::string>{
                                      "deck[P1].spark 0..2 = 1", "deck[P1].wall 0..1 = 1",
                                      "deck[P2].spark 0..2 = 0", "deck[P2].wall 0..1 = 0",
                                      "hand[P1].spark 0..2 = 1", "hand[P1].wall 0..1 = 0",
                                      "hand[P2].spark 0..2 = 2", "hand[P2].wall 0..1 = 1",
                                      "discard[P1].spark 0..2 = 0", "discard[P1].wall 0..1 = 0",
                                      "discard[P2].spark 0..2 = 0", "discard[P2].wall 0..1 = 0"}));
       }},
      {"stack_queries.yaml",
       [](const Game& g) {
         // Calls resolved: speed(a) and the entries by position, in guards,
         // effects and properties.
         ASSERT_EQ(g.actions.size(), 4U);
         EXPECT_EQ(to_string(*g.actions[1].guard), "(<= (speed (top_action)) (int 2))");
         EXPECT_EQ(to_string(*g.actions[3].effect), "(block (negate (int 0)))");
         EXPECT_EQ(to_string(*g.actions[2].guard),
                   "(!= (stack_controller (- (stack_size) (int 1))) (self))");
         ASSERT_EQ(g.properties.size(), 1U);
         EXPECT_EQ(to_string(*g.properties[0].expr),
                   "(exists #0 i (range 1 4) (and (and (< (bound #0 i) (stack_size)) (== (speed "
                   "(stack_action (bound #0 i))) (int 2))) (== (speed (stack_action (- (bound #0 "
                   "i) (int 1)))) (int 3))))");
       }},
      {"targets.yaml",
       [](const Game& g) {
         // Typed targets in order, an entry a stack position 0..scope.stack-1;
         // the effect reads them as binders 0..k-1, the `where` too.
         ASSERT_EQ(g.actions.size(), 4U);
         const auto& burn = g.actions[0].targets;
         ASSERT_EQ(burn.size(), 2U);
         EXPECT_EQ(burn[0].name, "victim");
         EXPECT_EQ(burn[0].type, Type::player());
         EXPECT_EQ(burn[1].type, Type::enum_of(0));
         EXPECT_EQ(burn[1].hi, 1);
         const auto& counter = g.actions[2].targets;
         ASSERT_EQ(counter.size(), 1U);
         EXPECT_TRUE(counter[0].entry);
         EXPECT_EQ(counter[0].hi, 2);  // scope.stack 3
         EXPECT_EQ(to_string(*counter[0].where), "(!= (stack_controller (bound #0 spell)) (self))");
         EXPECT_EQ(to_string(*g.actions[2].effect), "(block (negate (bound #0 spell)))");
         const auto& recall = g.actions[3].targets;
         ASSERT_EQ(recall.size(), 2U);
         EXPECT_EQ(recall[1].lo, 0);
         EXPECT_EQ(recall[1].hi, 1);
         EXPECT_EQ(g.binder_slots, 2);
       }},
      {"event_args.yaml",
       [](const Game& g) {
         const EventDecl& hit = g.events[6];
         EXPECT_EQ(hit.name, "hit");
         ASSERT_EQ(hit.args.size(), 3U);
         EXPECT_EQ(hit.args[0].name, "who");
         EXPECT_EQ(hit.args[0].type, Type::player());
         EXPECT_EQ(hit.args[0].hi, 1);
         EXPECT_EQ(hit.args[1].type, Type::int_());
         EXPECT_EQ(hit.args[1].lo, 1);
         EXPECT_EQ(hit.args[1].hi, 2);
         EXPECT_EQ(hit.args[2].type, Type::kind());
         EXPECT_TRUE(g.events[7].args.empty());
         EXPECT_EQ(g.triggers[0].params, (std::vector<std::string>{"p", "n", "k"}));
         EXPECT_TRUE(g.triggers[1].params.empty());
         EXPECT_EQ(g.binder_slots, 3);
         EXPECT_EQ(to_string(*g.triggers[0].condition),
                   "(and (== (bound #0 p) (self)) (== (bound #2 k) (kind #0 blade)))");
         EXPECT_EQ(to_string(*g.actions[0].effect),
                   "(block (choose #0 n (range 1 2) (block (fire #6 (opponent) (bound #0 n) "
                   "(kind #0 blade)))))");
       }},
      {"end_per_player.yaml",
       [](const Game& g) {
         ASSERT_EQ(g.end_conditions.size(), 2U);
         EXPECT_EQ(g.end_conditions[0].who, Role::each);
         EXPECT_EQ(g.end_conditions[0].player, 0);
         EXPECT_EQ(g.end_conditions[0].player_text, "P1");
         EXPECT_EQ(g.end_conditions[1].player, 1);
         EXPECT_EQ(to_string(*g.end_conditions[0].condition),
                   "(and (== (self) (player P1)) (== (var #0 wall) (int 0)))");
       }},
      {"trace.yaml",
       [](const Game& g) {
         ASSERT_EQ(g.trace.size(), 3U);
         EXPECT_EQ(g.trace[0].at, "start.draw");
         EXPECT_EQ(g.trace[1].at, "");
         EXPECT_EQ(g.trace[1].abstracted, "card order is not tracked; shuffling is a no-op");
         EXPECT_EQ(g.trace[2].at, "deck");
       }},
  };
  return facts;
}

TEST(LoadExamples, EveryExampleLoadsCleanlyWithItsFacts) {
  std::filesystem::current_path(LOOPHOLE_SOURCE_DIR);
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator("docs/examples")) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml")
      files.push_back(entry.path().filename());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 12U);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const Loaded l = load_path("docs/examples/" + file);
    ASSERT_TRUE(l.game.has_value()) << l.rendered;
    EXPECT_TRUE(l.diags.empty()) << l.rendered;
    const auto facts = example_facts().find(file);
    ASSERT_NE(facts, example_facts().end()) << "add facts for docs/examples/" << file;
    facts->second(*l.game);
  }
}

std::string without_comment(const std::string& line) {
  std::string out = line.substr(0, line.find('#'));
  while (!out.empty() && (out.back() == ' ' || out.back() == '\r')) out.pop_back();
  return out;
}

std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Every line of every ```yaml block in docs/language.md (comments aside)
// appears in some file of docs/examples/, so the reference shows only what
// the test suite loads.
TEST(LoadExamples, LanguageReferenceSnippetsComeFromTheExamples) {
  std::filesystem::current_path(LOOPHOLE_SOURCE_DIR);
  std::set<std::string> example_lines;
  for (const auto& entry : std::filesystem::recursive_directory_iterator("docs/examples")) {
    if (entry.path().extension() != ".yaml") continue;
    for (const std::string& line : lines_of(entry.path()))
      example_lines.insert(without_comment(line));
  }
  bool in_yaml = false;
  int checked = 0;
  for (const std::string& line : lines_of("docs/language.md")) {
    if (line.rfind("```", 0) == 0) {
      in_yaml = line == "```yaml";
      continue;
    }
    const std::string key = without_comment(line);
    if (!in_yaml || key.empty()) continue;
    ++checked;
    EXPECT_EQ(example_lines.count(key), 1U) << "docs/language.md line not in any example: " << line;
  }
  EXPECT_GT(checked, 100);
}

// ---- inline rulesets -----------------------------------------------------------------

TEST(Load, SlotLayoutIsVariablesThenZonesOwnerMajor) {
  const Loaded l = load_text(
      "loophole: 1\ngame: t\nplayers: 3\n"
      "kinds:\n  a: {copies: 2}\n  b: {copies: 1}\n"
      "zones:\n  pile: {shared: true}\n  deck: {per: player, init: all}\n  hand: {init: {b: 1}}\n"
      "state:\n  n: {type: int, range: [-2, 3]}\n"
      "  slots:\n    per: player\n    array: 2\n    record:\n      up: {type: bool, init: true}\n"
      "      hp: {type: int, range: [1, 4]}\n" +
      k_turn);
  const Game& g = game_of(l);
  EXPECT_EQ(slot_lines(g), (std::vector<std::string>{"n -2..3 = 0",
                                                     "slots[P1][0].up 0..1 = 1",
                                                     "slots[P1][0].hp 1..4 = 1",
                                                     "slots[P1][1].up 0..1 = 1",
                                                     "slots[P1][1].hp 1..4 = 1",
                                                     "slots[P2][0].up 0..1 = 1",
                                                     "slots[P2][0].hp 1..4 = 1",
                                                     "slots[P2][1].up 0..1 = 1",
                                                     "slots[P2][1].hp 1..4 = 1",
                                                     "slots[P3][0].up 0..1 = 1",
                                                     "slots[P3][0].hp 1..4 = 1",
                                                     "slots[P3][1].up 0..1 = 1",
                                                     "slots[P3][1].hp 1..4 = 1",
                                                     "pile.a 0..6 = 0",
                                                     "pile.b 0..3 = 0",
                                                     "deck[P1].a 0..2 = 2",
                                                     "deck[P1].b 0..1 = 0",
                                                     "deck[P2].a 0..2 = 2",
                                                     "deck[P2].b 0..1 = 0",
                                                     "deck[P3].a 0..2 = 2",
                                                     "deck[P3].b 0..1 = 0",
                                                     "hand[P1].a 0..2 = 0",
                                                     "hand[P1].b 0..1 = 1",
                                                     "hand[P2].a 0..2 = 0",
                                                     "hand[P2].b 0..1 = 1",
                                                     "hand[P3].a 0..2 = 0",
                                                     "hand[P3].b 0..1 = 1"}));
  EXPECT_EQ(g.vars[1].first_slot, 1);
  EXPECT_EQ(g.vars[1].slot(2, 1, 1), 12);
  EXPECT_EQ(g.zones[1].first_slot, 15);
  EXPECT_EQ(g.zones[1].slot(1, 1, 2), 18);
  EXPECT_EQ(g.slots[18].owner, 1);
  EXPECT_EQ(g.slots[18].kind, 1);
  EXPECT_EQ(g.slots[18].zone, 1);
  EXPECT_EQ(g.slots[18].var, -1);
  EXPECT_EQ(g.slots[3].var, 1);
  EXPECT_EQ(g.slots[3].owner, 0);
}

TEST(Load, ZoneInitSharedAll) {
  const Loaded l = load_text(
      "loophole: 1\ngame: t\n"
      "kinds:\n  a: {copies: 2}\n"
      "zones:\n  hand: {init: {a: 1}}\n  box: {shared: true, init: all}\n" +
      k_turn);
  EXPECT_EQ(
      slot_lines(game_of(l)),
      (std::vector<std::string>{"hand[P1].a 0..2 = 1", "hand[P2].a 0..2 = 1", "box.a 0..4 = 2"}));
}

TEST(Load, ParamOverridesFoldIntoRangesAndExpressions) {
  const std::string text =
      "loophole: 1\ngame: t\nparams:\n  deck: {default: 8, min: 1, max: 40}\n"
      "state:\n  life: {type: int, range: [0, deck * 2], init: deck, per: player}\n"
      "setup: \"life[P2] := deck - 1\"\n" +
      k_turn;
  LoadOptions options;
  options.param_overrides["deck"] = 4;
  const Loaded l = load_text(text, options);
  const Game& g = game_of(l);
  EXPECT_EQ(g.params[0].value, 4);
  EXPECT_EQ(g.params[0].def, 8);
  EXPECT_EQ(slot_lines(g), (std::vector<std::string>{"life[P1] 0..8 = 4", "life[P2] 0..8 = 4"}));
  EXPECT_EQ(to_string(*g.setup),
            "(block (assign := (var #0 life (player P2)) (- (int 4) (int 1))))");
}

TEST(Load, PlayersOverrideWithinDeclaredRange) {
  const std::string text =
      "loophole: 1\ngame: t\nplayers: {default: 2, min: 2, max: 4}\n"
      "state:\n  score: {type: int, range: [0, 3], per: player}\n"
      "setup: \"score[P3] := 1\"\n" +
      k_turn;
  LoadOptions options;
  options.players = 3;
  const Loaded l = load_text(text, options);
  const Game& g = game_of(l);
  EXPECT_EQ(g.players, 3);
  EXPECT_EQ(g.slots.size(), 3U);
  // Without the override, P3 does not exist.
  const Loaded two = load_text(text);
  EXPECT_FALSE(two.game.has_value());
  EXPECT_EQ(two.first().message, "'P3' does not exist in a 2-player game");
}

TEST(Load, EventIdsBuiltInsFirstThenCustom) {
  const Loaded l = load_text(
      "loophole: 1\ngame: t\nevents: [boom, bust]\n"
      "turn:\n  phases:\n    - name: a\n      steps: [{name: x}, {name: y}]\n"
      "    - name: b\n      steps: [{name: z}]\n");
  const Game& g = game_of(l);
  EXPECT_EQ(event_names(g),
            (std::vector<std::string>{"begin_turn", "end_turn", "begin_phase(a)", "end_phase(a)",
                                      "begin_step(a.x)", "end_step(a.x)", "begin_step(a.y)",
                                      "end_step(a.y)", "begin_phase(b)", "end_phase(b)",
                                      "begin_step(b.z)", "end_step(b.z)", "boom", "bust"}));
  EXPECT_EQ(g.events[9].kind, EventDecl::Kind::end_phase);
  EXPECT_EQ(g.events[9].phase, 1);
  EXPECT_EQ(g.events[10].step, 2);
  EXPECT_EQ(g.steps[2].begin_event, 10);
  EXPECT_EQ(g.phases[1].end_event, 9);
}

TEST(Load, NamesResolveByExpectedType) {
  // `spark` is both a kind and an action: the other side of `==` and the
  // argument position pick the right one.
  const Loaded l = load_text(
      "loophole: 1\ngame: t\n"
      "enums:\n  status: [ready, tapped]\n"
      "kinds:\n  spark: {copies: 1, tags: [unit]}\n"
      "zones:\n  hand: {}\n  discard: {}\n"
      "state:\n  mode: {type: status}\n"
      "actions:\n  - name: spark\n    play: spark\n"
      "    when: \"top_action == spark and count(hand[self], spark) > 0 and mode != tapped\"\n"
      "    effect: \"mode := status.tapped\"\n" +
      k_turn);
  const Game& g = game_of(l);
  EXPECT_EQ(to_string(*g.actions[0].guard),
            "(and (and (== (top_action) (action #0 spark)) (> (zone_count #0 hand (self) kind #0) "
            "(int 0))) (!= "
            "(var #0 mode) (enum #0 1 tapped)))");
  EXPECT_EQ(to_string(*g.actions[0].effect),
            "(block (assign := (var #0 mode) (enum #0 1 tapped)))");
  EXPECT_EQ(g.actions[0].guard->type, Type::bool_());
  EXPECT_EQ(g.actions[0].guard->args[0]->args[1]->args[0]->type, Type::int_());
  EXPECT_EQ(g.actions[0].guard->args[1]->args[0]->type, Type::enum_of(0));
  EXPECT_EQ(g.actions[0].who, Role::any);
  EXPECT_EQ(g.actions[0].to_zone, 1);
}

TEST(Load, NestedBindersGetDistinctSlots) {
  const Loaded l = load_text(
      "loophole: 1\ngame: t\nplayers: 3\nkinds:\n  k1: {copies: 1, tags: [unit]}\nzones:\n  hand: "
      "{}\n"
      "state:\n  s: {type: int, range: [0, 9], per: player}\n"
      "triggers:\n  - name: t\n    on: begin_turn\n"
      "    do: \"for p in others do s[p] := sum k in kinds tag unit: count(hand[p], k) end\"\n"
      "properties:\n  - name: q\n    always: \"forall p in players: exists q in players: s[p] <= "
      "s[q] + 9\"\n" +
      k_turn);
  const Game& g = game_of(l);
  EXPECT_EQ(g.binder_slots, 2);
  EXPECT_EQ(to_string(*g.triggers[0].effect),
            "(block (for #0 p others (block (assign := (var #0 s (bound #0 p)) (sum #1 k (kinds "
            "tag #0 unit) "
            "(zone_count #0 hand (bound #0 p) (bound #1 k) kind))))))");
  EXPECT_EQ(to_string(*g.properties[0].expr),
            "(forall #0 p players (exists #1 q players (<= (var #0 s (bound #0 p)) (+ (var #0 s "
            "(bound #1 q)) (int "
            "9)))))");
}

// A function or macro is the game written out by hand: every rule of the
// docs example resolves to the same tree as in its hand-written twin.
TEST(Load, FunctionsAndMacrosExpandToTheRulesWrittenOut) {
  std::filesystem::current_path(LOOPHOLE_SOURCE_DIR);
  const Loaded used = load_path("docs/examples/functions_macros.yaml");
  const Loaded by_hand = load_path("tests/fixtures/expansion/functions_macros_by_hand.yaml");
  const Game& a = game_of(used);
  const Game& b = game_of(by_hand);
  ASSERT_EQ(a.actions.size(), b.actions.size());
  for (std::size_t i = 0; i < a.actions.size(); ++i) {
    SCOPED_TRACE(a.actions[i].name);
    const auto text = [](const auto& p) { return p ? to_string(*p) : std::string("-"); };
    EXPECT_EQ(text(a.actions[i].guard), text(b.actions[i].guard));
    EXPECT_EQ(text(a.actions[i].effect), text(b.actions[i].effect));
  }
  ASSERT_EQ(a.steps.size(), b.steps.size());
  EXPECT_EQ(to_string(*a.steps[1].effects), to_string(*b.steps[1].effects));
  ASSERT_EQ(a.end_conditions.size(), 1U);
  EXPECT_EQ(to_string(*a.end_conditions[0].condition), to_string(*b.end_conditions[0].condition));
  EXPECT_EQ(slot_lines(a), slot_lines(b));
}

// The body's own binders take slots above those around the use, so an
// argument that reads an outer binder keeps meaning that binder even where
// the body binds the same name.
TEST(Load, FunctionBindersDoNotCaptureArguments) {
  const Loaded l = load_text(
      "loophole: 1\ngame: t\nplayers: 3\n"
      "state:\n  s: {type: int, range: [0, 9], per: player}\n"
      "functions:\n  behind:\n    params: {p: player}\n    returns: int\n"
      "    expr: \"count x in players: s[x] > s[p]\"\n"
      "setup: \"for x in players do s[x] := behind(x) end\"\n" +
      k_turn);
  const Game& g = game_of(l);
  EXPECT_EQ(g.binder_slots, 2);
  EXPECT_EQ(
      to_string(*g.setup),
      "(block (for #0 x players (block (assign := (var #0 s (bound #0 x)) (count #1 x players "
      "(> (var #0 s (bound #1 x)) (var #0 s (bound #0 x))))))))");
}

TEST(Load, ConstantRangeDomainsFold) {
  const Loaded l = load_text(
      "loophole: 1\ngame: t\nparams:\n  n: 3\nstate:\n  x: {type: int, range: [0, 9]}\n"
      "setup: \"for i in 1..n * 2 do x := max(x, i) end\"\n" +
      k_turn);
  EXPECT_EQ(to_string(*game_of(l).setup),
            "(block (for #0 i (range 1 6) (block (assign := (var #0 x) (max (var #0 x) (bound #0 "
            "i))))))");
}

TEST(Load, WindowsWithoutSpeedsLetListedRolesAct) {
  const Loaded l = load_text(
      "loophole: 1\ngame: t\nwindows:\n  w:\n    active: {}\n  v:\n    protocol: alternate\n" +
      k_turn);
  const Game& g = game_of(l);
  ASSERT_EQ(g.windows[0].roles.size(), 1U);
  EXPECT_EQ(g.windows[0].roles[0].lead, std::vector<int>{0});
  EXPECT_EQ(g.windows[0].roles[0].answer, std::vector<int>{0});
  EXPECT_TRUE(g.windows[0].may_pass);
  EXPECT_FALSE(g.windows[1].may_pass);
  EXPECT_TRUE(g.windows[1].roles.empty());
}

TEST(Load, IncludesAppendListsAfterTheIncluder) {
  SourceManager sources;
  sources.add("r/main.yaml",
              "loophole: 1\ngame: t\ninclude: [more/cards.yaml]\n"
              "actions:\n  - name: first\nsetup: \"x := 1\"\n"
              "state:\n  x: {type: int, range: [0, 3]}\n" +
                  k_turn);
  sources.add("r/more/cards.yaml",
              "actions:\n  - name: second\nsetup: \"x += 1\"\nevents: [ping]\n");
  DiagnosticSink sink;
  const auto game = load_game("r/main.yaml", {}, sources, sink);
  ASSERT_TRUE(game.has_value()) << sink.render(sources);
  EXPECT_EQ(game->actions[0].name, "first");
  EXPECT_EQ(game->actions[1].name, "second");
  EXPECT_EQ(game->actions[1].where.file, "r/more/cards.yaml");
  EXPECT_EQ(
      to_string(*game->setup),
      "(block (block (assign := (var #0 x) (int 1))) (block (assign += (var #0 x) (int 1))))");
  EXPECT_EQ(game->events.back().name, "ping");
}

TEST(Load, LiteralBlockPositionsMapToTheirLines) {
  const std::string text =
      "loophole: 1\ngame: t\nstate:\n  x: {type: int, range: [0, 3]}\n"
      "setup: |\n  x := 1\n    x += 1\n" +
      k_turn;
  const Loaded l = load_text(text);
  const Game& g = game_of(l);
  const Stmt& second = *g.setup->bodies[1];
  EXPECT_EQ(second.where.line, 7U);
  EXPECT_EQ(second.where.col, 5U);
  EXPECT_EQ(second.target->where.line, 7U);
  EXPECT_EQ(second.target->where.col, 5U);
}

TEST(Load, FoldedBlockPositionsMapToTheFirstLineOfEachParagraph) {
  const std::string text =
      "loophole: 1\ngame: t\nstate:\n  x: {type: int, range: [0, 3]}\n"
      "properties:\n  - name: p\n    always: >\n      x >= 0 and\n      x <= 3\n" +
      k_turn;
  const Loaded l = load_text(text);
  const Game& g = game_of(l);
  const Expr& e = *g.properties[0].expr;
  EXPECT_EQ(to_string(e), "(and (>= (var #0 x) (int 0)) (<= (var #0 x) (int 3)))");
  EXPECT_EQ(e.where.line, 8U);
  EXPECT_EQ(e.where.col, 7U);
}

}  // namespace
}  // namespace loophole::model
