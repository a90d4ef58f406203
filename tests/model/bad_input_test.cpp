// Bad input: every case is a tiny ruleset with one planted mistake, and the
// test asserts the exact first diagnostic (message and line:col) and, where
// there is one, the did-you-mean note. Loading must fail cleanly: no crash,
// no exception, no Game.
#include <filesystem>

#include <gtest/gtest.h>

#include "load_helpers.hpp"

namespace loophole::model {
namespace {

using testing::at;
using testing::k_turn;
using testing::load_path;
using testing::load_text;
using testing::Loaded;

const std::string k_head = "loophole: 1\ngame: t\n";

// Body lines start at line 3; the standard turn follows them.
std::string with_turn(const std::string& body) { return k_head + body + k_turn; }

// Declarations shared by the expression cases: the statement under test is
// the `do` of the only step, on line 25, starting at column 16.
const std::string k_decls =
    "players: 2\n"                                                  // 3
    "params:\n"                                                     // 4
    "  deck: {default: 8, min: 1, max: 40}\n"                       // 5
    "enums:\n"                                                      // 6
    "  status: [ready, exhausted]\n"                                // 7
    "  color: [red, blue]\n"                                        // 8
    "kinds:\n"                                                      // 9
    "  spark: {copies: 2, tags: [action]}\n"                        // 10
    "zones:\n"                                                      // 11
    "  deck: {per: player, init: all}\n"                            // 12
    "  hand: {per: player}\n"                                       // 13
    "  discard: {per: player}\n"                                    // 14
    "state:\n"                                                      // 15
    "  coins: {type: int, range: [0, 5]}\n"                         // 16
    "  life: {type: int, range: [0, 20], init: 20, per: player}\n"  // 17
    "  mode: {type: status}\n"                                      // 18
    "events: [ping]\n"                                              // 19
    "turn:\n"                                                       // 20
    "  phases:\n"                                                   // 21
    "    - name: main\n"                                            // 22
    "      steps:\n"                                                // 23
    "        - name: only\n";                                       // 24

Loaded step_do(const std::string& stmt) {
  return load_text(k_head + k_decls + "          do: \"" + stmt + "\"\n");
}

#define EXPECT_FIRST(loaded, msg, pos)                 \
  do {                                                 \
    const Loaded& l_ = (loaded);                       \
    EXPECT_FALSE(l_.game.has_value()) << l_.rendered;  \
    ASSERT_FALSE(l_.diags.empty());                    \
    EXPECT_EQ(l_.first().message, msg) << l_.rendered; \
    EXPECT_EQ(at(l_.first()), pos) << l_.rendered;     \
  } while (false)

#define EXPECT_NOTE(loaded, note_text)                                \
  do {                                                                \
    const Loaded& n_ = (loaded);                                      \
    ASSERT_FALSE(n_.diags.empty());                                   \
    ASSERT_EQ(n_.first().notes.size(), 1U) << n_.rendered;            \
    EXPECT_EQ(n_.first().notes[0].message, note_text) << n_.rendered; \
  } while (false)

// ---- the expression cases work on the shared declarations ----------------------

TEST(BadInput, SharedDeclarationsLoad) {
  const Loaded ok = step_do("skip");
  EXPECT_TRUE(ok.game.has_value()) << ok.rendered;
}

// ---- YAML ------------------------------------------------------------------------

TEST(BadInput, MalformedYamlUnclosedFlowList) {
  EXPECT_FIRST(load_text("loophole: 1\ngame: t\nspeeds: [1, 2\nturn: x\n"),
               "malformed YAML: a '[' list is not closed with ']'", "4:5");
}

TEST(BadInput, MalformedYamlIllegalMapValue) {
  EXPECT_FIRST(load_text("loophole: 1\ngame: t: u\n"),
               "malformed YAML: unexpected ':' (a value that holds ': ' must be quoted)", "2:8");
}

TEST(BadInput, MalformedYamlBadIndentation) {
  EXPECT_FIRST(load_text("loophole: 1\nkinds:\n  a: {copies: 1}\n b: 2\n"),
               "malformed YAML: this line does not line up with the keys of the map above "
               "it; check its indentation",
               "4:2");
}

// yaml-cpp 0.7 loops forever, allocating, on a document whose first token is
// a ',' (found by fuzz_engines); the loader refuses such a text before
// yaml-cpp sees it, wherever the document starts.
TEST(BadInput, MalformedYamlLeadingCommaDoesNotHang) {
  const std::string message =
      "malformed YAML: a ',' outside a '[' list or '{' map (a value that starts with ',' "
      "must be quoted)";
  EXPECT_FIRST(load_text("\n ,phase: [\\\n"), message, "2:2");
  EXPECT_FIRST(load_text(",a"), message, "1:1");
  EXPECT_FIRST(load_text("# c\n%YAML 1.2\n--- &x !t ,\n"), message, "3:11");
  EXPECT_FIRST(load_text("loophole: 1\n...\n\n  ,b\n"), message, "4:3");
  // A ',' inside a value or a flow list is no document start.
  EXPECT_FIRST(load_text("loophole: 1\ngame: a,b\nspeeds: [1, 2\n"),
               "malformed YAML: a '[' list is not closed with ']'", "4:1");
}

TEST(BadInput, UnknownTopLevelKeyWithSuggestion) {
  EXPECT_FIRST(load_text(with_turn("acitons: []\n")),
               "unknown key 'acitons' in ruleset; did you mean 'actions'?", "3:1");
}

// The analyses keep a step in 10 bits a state: a game of 512 steps is
// refused at the 512th, located, not by an internal error later.
TEST(BadInput, TooManySteps) {
  std::string text = k_head + "players: 2\nturn:\n  phases:\n    - name: main\n      steps:\n";
  for (int i = 0; i < max_steps + 1; ++i) text += "        - name: s" + std::to_string(i) + "\n";
  // (line 8 holds the first step; the 512th is on line 8 + 511)
  EXPECT_FIRST(load_text(text), "a game has at most 511 steps; this is one more",
               std::to_string(8 + max_steps) + ":17");
  std::string fits = k_head + "players: 2\nturn:\n  phases:\n    - name: main\n      steps:\n";
  for (int i = 0; i < max_steps; ++i) fits += "        - name: s" + std::to_string(i) + "\n";
  const Loaded l = load_text(fits);
  EXPECT_TRUE(l.game.has_value()) << l.rendered;
}

TEST(BadInput, MapWhereListExpected) {
  EXPECT_FIRST(load_text(with_turn("speeds: {a: 1}\n")), "'speeds' must be a list, found a map",
               "3:9");
}

TEST(BadInput, ListWhereMapExpected) {
  EXPECT_FIRST(load_text(with_turn("state: [a, b]\n")), "'state' must be a map, found a list",
               "3:8");
}

TEST(BadInput, UnknownKeyInsideAction) {
  EXPECT_FIRST(load_text(with_turn("actions:\n  - name: zap\n    efect: skip\n")),
               "unknown key 'efect' in action 'zap'; did you mean 'effect'?", "5:5");
}

TEST(BadInput, InventedNeedsAReason) {
  EXPECT_FIRST(load_text(with_turn("actions:\n  - name: zap\n    invented: \"  \"\n")),
               "'invented' needs a reason: what the ruleset made up, and why", "5:16");
}

TEST(BadInput, IncludeEntryMapNeedsAFile) {
  EXPECT_FIRST(load_text(with_turn("include:\n  - {invented: \"generic\"}\n")),
               "an include entry needs a 'file'", "4:5");
}

TEST(BadInput, InvalidNameAsKey) {
  EXPECT_FIRST(load_text(with_turn("kinds:\n  Spark: {copies: 1}\n")),
               "invalid kind name 'Spark': names are lowercase identifiers [a-z_][a-z0-9_]*",
               "4:3");
}

// ---- file layout -----------------------------------------------------------------------

TEST(BadInput, UnsupportedVersion) {
  EXPECT_FIRST(load_text("loophole: 2\ngame: t\n" + k_turn),
               "unsupported language version 2; this loophole reads version 1", "1:11");
}

TEST(BadInput, MissingGame) {
  EXPECT_FIRST(load_text("loophole: 1\n" + k_turn), "missing required key 'game'", "1:1");
}

TEST(BadInput, MissingFile) {
  const Loaded l = load_path("tests/fixtures/bad/does_not_exist.yaml");
  EXPECT_FIRST(l, "cannot read file: No such file or directory", "0:0");
  EXPECT_EQ(l.first().where.file, "tests/fixtures/bad/does_not_exist.yaml");
  EXPECT_EQ(l.rendered,
            "tests/fixtures/bad/does_not_exist.yaml: error: cannot read file: No such file or "
            "directory\n");
}

TEST(BadInput, MissingInclude) {
  EXPECT_FIRST(load_text(with_turn("include: [cards/nope.yaml]\n")),
               "cannot read file 'cards/nope.yaml': No such file or directory", "3:11");
}

TEST(BadInput, DirectoryAsRuleset) {
  std::filesystem::current_path(LOOPHOLE_SOURCE_DIR);
  const Loaded l = load_path("tests/fixtures/bad");
  EXPECT_FIRST(l, "'tests/fixtures/bad' is not a regular file", "0:0");
  EXPECT_EQ(l.first().where.file, "tests/fixtures/bad");
}

TEST(BadInput, DirectoryAsInclude) {
  std::filesystem::current_path(LOOPHOLE_SOURCE_DIR);
  EXPECT_FIRST(load_text(with_turn("include: [tests/fixtures/bad]\n")),
               "'tests/fixtures/bad' is not a regular file", "3:11");
}

// A device is outside the ruleset's directory; allowed in, it is still not
// a regular file, and it is refused without reading from it.
TEST(BadInput, DeviceIncludeIsRefused) {
  EXPECT_FIRST(load_text(with_turn("include: [/dev/zero]\n")),
               "include '/dev/zero' is outside the ruleset's directory '.' (use --include-root to "
               "allow it)",
               "3:11");
  LoadOptions dev;
  dev.include_roots = {"/dev"};
  EXPECT_FIRST(load_text(with_turn("include: [/dev/zero]\n"), dev),
               "'/dev/zero' is not a regular file", "3:11");
}

TEST(BadInput, IncludeCycle) {
  std::filesystem::current_path(LOOPHOLE_SOURCE_DIR);
  const Loaded l = load_path("tests/fixtures/bad/cycle_a.yaml");
  EXPECT_FIRST(
      l,
      "include cycle: tests/fixtures/bad/cycle_a.yaml -> tests/fixtures/bad/cycle_b.yaml -> "
      "tests/fixtures/bad/cycle_a.yaml",
      "3:11");
  EXPECT_EQ(l.first().where.file, "tests/fixtures/bad/cycle_b.yaml");
}

TEST(BadInput, DuplicateAcrossIncludeShowsBothPlaces) {
  std::filesystem::current_path(LOOPHOLE_SOURCE_DIR);
  const Loaded l = load_path("tests/fixtures/bad/dup_across_include.yaml");
  ASSERT_EQ(l.diags.size(), 1U) << l.rendered;
  EXPECT_EQ(l.first().message, "duplicate kind 'spark'");
  EXPECT_EQ(l.first().where.file, "tests/fixtures/bad/dup_included.yaml");
  EXPECT_EQ(at(l.first()), "2:3");
  ASSERT_EQ(l.first().notes.size(), 1U);
  EXPECT_EQ(l.first().notes[0].where.file, "tests/fixtures/bad/dup_across_include.yaml");
  EXPECT_EQ(at(l.first().notes[0]), "5:3");
}

TEST(BadInput, TurnInIncludedFile) {
  std::filesystem::current_path(LOOPHOLE_SOURCE_DIR);
  const Loaded l = load_path("tests/fixtures/bad/turn_in_include.yaml");
  EXPECT_FIRST(l, "'turn' is not allowed in an included file", "1:1");
  EXPECT_EQ(l.first().where.file, "tests/fixtures/bad/turn_included.yaml");
}

// ---- players, params, scope ------------------------------------------------------------------

TEST(BadInput, PlayersOutOfRange) {
  EXPECT_FIRST(load_text(with_turn("players: 9\n")), "player count 9 is out of range 1..8", "3:10");
}

TEST(BadInput, PlayersOverrideNotSupported) {
  LoadOptions options;
  options.players = 3;
  EXPECT_FIRST(load_text(with_turn("players: 2\n"), options),
               "player count 3 (from --players) is not supported: the game is for 2 players",
               "3:1");
}

TEST(BadInput, BadParamOverrideValue) {
  LoadOptions options;
  options.param_overrides["deck"] = 50;
  EXPECT_FIRST(load_text(with_turn("params:\n  deck: {default: 8, min: 1, max: 40}\n"), options),
               "value 50 for param 'deck' (from --param) is out of range 1..40", "4:3");
}

TEST(BadInput, UnknownParamOverride) {
  LoadOptions options;
  options.param_overrides["dekc"] = 5;
  EXPECT_FIRST(load_text(with_turn("params:\n  deck: {default: 8, min: 1, max: 40}\n"), options),
               "unknown param 'dekc' (from --param); did you mean 'deck'?", "3:1");
}

TEST(BadInput, UnknownParamOverrideWithoutParams) {
  LoadOptions options;
  options.param_overrides["deck"] = 5;
  EXPECT_FIRST(load_text(with_turn(""), options),
               "unknown param 'deck' (from --param); the ruleset declares no params", "1:1");
}

TEST(BadInput, UnknownParamOverrideListsTheValidOnes) {
  LoadOptions options;
  options.param_overrides["nope"] = 1;
  EXPECT_FIRST(load_text(with_turn("params:\n  deck: {default: 8, min: 1, max: 40}\n"
                                   "  hand: {default: 3}\n"),
                         options),
               "unknown param 'nope' (from --param); valid params are 'deck', 'hand'", "3:1");
}

TEST(BadInput, ParamDefaultOutOfItsRange) {
  EXPECT_FIRST(load_text(with_turn("params:\n  deck: {default: 0, min: 1, max: 40}\n")),
               "default 0 of param 'deck' is out of range 1..40", "4:3");
}

TEST(BadInput, StackScopeTooLarge) {
  EXPECT_FIRST(load_text(with_turn("scope: {stack: 100}\n")),
               "'scope.stack' 100 is out of range 1..64", "3:16");
}

// ---- state and ranges ------------------------------------------------------------------------

TEST(BadInput, InitOutOfRange) {
  EXPECT_FIRST(load_text(with_turn("state:\n  coins: {type: int, range: [0, 5], init: 7}\n")),
               "initial value 7 of 'coins' is out of range 0..5", "4:43");
}

TEST(BadInput, InitAboveRangeViaParam) {
  EXPECT_FIRST(
      load_text(with_turn(
          "params:\n  deck: 8\nstate:\n  coins: {type: int, range: [0, 5], init: deck}\n")),
      "initial value 8 of 'coins' is out of range 0..5", "6:43");
}

TEST(BadInput, RangeLowAboveHigh) {
  EXPECT_FIRST(load_text(with_turn("state:\n  coins: {type: int, range: [5, 0]}\n")),
               "range [5, 0] of 'coins' is empty", "4:29");
}

TEST(BadInput, AbsurdArraySize) {
  EXPECT_FIRST(load_text(with_turn("state:\n  field: {type: bool, per: player, array: 100000}\n")),
               "array size 100000 of 'field' is out of range 1..256", "4:43");
}

TEST(BadInput, TooManySlots) {
  EXPECT_FIRST(load_text(with_turn("players: 8\n"
                                   "state:\n"
                                   "  a: {type: bool, per: player, array: 256}\n"
                                   "  b: {type: bool, per: player, array: 256}\n"
                                   "  c: {type: bool, array: 10}\n")),
               "the data state needs more than 4096 slots (variable 'c' brings it to 4106); reduce "
               "the scope",
               "7:3");
}

TEST(BadInput, IntVariableWithoutRange) {
  EXPECT_FIRST(load_text(with_turn("state:\n  coins: {type: int}\n")),
               "int variable 'coins' needs a 'range'", "4:3");
}

TEST(BadInput, UnknownVariableType) {
  const Loaded l =
      load_text(with_turn("enums:\n  status: [ready]\nstate:\n  mode: {type: stauts}\n"));
  EXPECT_FIRST(l, "unknown type 'stauts'", "6:16");
  EXPECT_NOTE(l, "did you mean 'status'? (declared at t.yaml:4:3)");
}

TEST(BadInput, BuiltInNameAsVariable) {
  EXPECT_FIRST(load_text(with_turn("state:\n  self: {type: bool}\n")),
               "'self' is a built-in name and cannot name a variable", "4:3");
}

// ---- player- and kind-valued variables ------------------------------------------------------

TEST(BadInput, MisspeltPlayerType) {
  const Loaded l = load_text(with_turn("state:\n  lead: {type: plyer}\n"));
  EXPECT_FIRST(l, "unknown type 'plyer'", "4:16");
  EXPECT_NOTE(l, "did you mean 'player'?");
}

TEST(BadInput, PlayerVariableWithRange) {
  EXPECT_FIRST(load_text(with_turn("state:\n  lead: {type: player, range: [0, 1]}\n")),
               "'range' only applies to int variables", "4:31");
}

TEST(BadInput, KindVariableWithoutKinds) {
  EXPECT_FIRST(load_text(with_turn("state:\n  trump: {type: kind}\n")),
               "kind variable 'trump' needs at least one card kind in 'kinds'", "4:17");
}

TEST(BadInput, PlayerVariableInitBeyondThePlayers) {
  EXPECT_FIRST(load_text(with_turn("state:\n  lead: {type: player, init: P3}\n")),
               "'P3' does not exist in a 2-player game", "4:30");
}

// The statement under test is the `do` of the only step, on line 13 from
// column 16, with a player variable `lead` and a kind variable `trump`.
Loaded with_player_kind_vars(const std::string& stmt) {
  return load_text(k_head +
                   "kinds:\n  red: {copies: 1}\n"
                   "state:\n  lead: {type: player}\n  trump: {type: kind}\n" +
                   k_turn + "          do: \"" + stmt + "\"\n");
}

TEST(BadInput, AssignIntToPlayerVariable) {
  EXPECT_FIRST(with_player_kind_vars("lead := 1"),
               "cannot assign int to variable 'lead' of type player", "13:24");
}

TEST(BadInput, AssignPlayerToKindVariable) {
  EXPECT_FIRST(with_player_kind_vars("trump := lead"),
               "cannot assign player to variable 'trump' of type kind", "13:25");
}

TEST(BadInput, AddToPlayerVariable) {
  EXPECT_FIRST(with_player_kind_vars("lead += 1"),
               "'+=' needs an int variable, found 'lead' of type player", "13:16");
}

TEST(BadInput, CompareKindVariableWithPlayerVariable) {
  EXPECT_FIRST(with_player_kind_vars("if trump == lead then skip end"),
               "cannot compare kind with player", "13:19");
}

// ---- `pick ... by P` ------------------------------------------------------------------------

TEST(BadInput, ChooserIsNotAPlayer) {
  EXPECT_FIRST(with_player_kind_vars("pick x in 0..1 by 1 do skip end"),
               "the chooser after 'by' must be player, found int", "13:34");
}

TEST(BadInput, ChooserMisspelt) {
  const Loaded l = with_player_kind_vars("pick x in players by opponnet do skip end");
  EXPECT_FIRST(l, "unknown name 'opponnet'", "13:37");
  EXPECT_NOTE(l, "did you mean 'opponent'?");
}

TEST(BadInput, ChooserCannotNameThePicksVariable) {
  EXPECT_FIRST(with_player_kind_vars("pick x in players by x do skip end"), "unknown name 'x'",
               "13:37");
}

TEST(BadInput, ChooserOfAChoose) {
  EXPECT_FIRST(with_player_kind_vars("choose x in 0..1 by lead do skip end"),
               "'by' names who picks, and only a pick has a chooser: a choose is nature's; write "
               "'pick ... by P'",
               "13:33");
}

TEST(BadInput, ChooserMissing) {
  EXPECT_FIRST(with_player_kind_vars("pick x in 0..1 by do skip end"),
               "expected expression, found 'do'", "13:34");
}

TEST(BadInput, ChooserNeedsDo) {
  EXPECT_FIRST(with_player_kind_vars("pick x in 0..1 by lead skip end"),
               "expected 'do' after the chooser, found 'skip'", "13:39");
}

TEST(BadInput, ChooserSelfInSetup) {
  EXPECT_FIRST(load_text(with_turn("setup: \"pick p in players by self do skip end\"\n")),
               "'self' is not defined here; use 'active'", "3:30");
}

// ---- must_act ------------------------------------------------------------------------------

TEST(BadInput, MustActInAPriorityWindow) {
  EXPECT_FIRST(load_text(with_turn("windows:\n  main:\n    must_act: true\n")),
               "'must_act' applies to 'alternate' and 'sequence' windows; in a priority window "
               "'may_pass: false' makes the holder act",
               "5:5");
}

TEST(BadInput, MustActAndMayPass) {
  EXPECT_FIRST(
      load_text(
          with_turn("windows:\n  trick: {protocol: alternate, may_pass: true, must_act: true}\n")),
      "a player who must act cannot pass: 'may_pass: true' contradicts 'must_act: true'", "4:32");
}

// ---- kinds and zones -------------------------------------------------------------------------

TEST(BadInput, NegativeCopies) {
  EXPECT_FIRST(load_text(with_turn("kinds:\n  spark: {copies: -1}\n")),
               "copies -1 of kind 'spark' is out of range 0..1000", "4:19");
}

TEST(BadInput, TwoInitAllZones) {
  const Loaded l = load_text(with_turn("zones:\n  deck: {init: all}\n  pile: {init: all}\n"));
  EXPECT_FIRST(l, "only one zone may have 'init: all'", "5:10");
  EXPECT_NOTE(l, "'init: all' first given here");
}

TEST(BadInput, ZoneInitOfUnknownKind) {
  const Loaded l =
      load_text(with_turn("kinds:\n  spark: {copies: 1}\nzones:\n  hand: {init: {sprak: 1}}\n"));
  EXPECT_FIRST(l, "unknown kind 'sprak'", "6:17");
  EXPECT_NOTE(l, "did you mean 'spark'? (declared at t.yaml:4:3)");
}

TEST(BadInput, InitialCountsExceedCopies) {
  EXPECT_FIRST(
      load_text(with_turn("kinds:\n  spark: {copies: 1}\nzones:\n  hand: {init: {spark: 1}}\n"
                          "  pile: {init: {spark: 1}}\n")),
      "the initial counts of kind 'spark' add up to more than its 1 copies per player", "4:3");
}

// ---- turn structure ----------------------------------------------------------------------------

TEST(BadInput, EmptyTurn) {
  EXPECT_FIRST(load_text(k_head + "turn:\n  phases: []\n"), "the turn has no phases", "3:1");
}

TEST(BadInput, EmptyPhase) {
  EXPECT_FIRST(load_text(k_head + "turn:\n  phases:\n    - name: main\n      steps: []\n"),
               "phase 'main' has no steps", "5:13");
}

TEST(BadInput, DuplicatePhase) {
  const Loaded l = load_text(k_head +
                             "turn:\n  phases:\n    - name: main\n      steps: [{name: a}]\n"
                             "    - name: main\n      steps: [{name: b}]\n");
  EXPECT_FIRST(l, "duplicate phase 'main'", "7:13");
  EXPECT_NOTE(l, "'main' first defined here");
  EXPECT_EQ(at(l.first().notes[0]), "5:13");
}

TEST(BadInput, DuplicateStepInPhase) {
  const Loaded l = load_text(k_head +
                             "turn:\n  phases:\n    - name: main\n      steps:\n        - name: a\n"
                             "        - name: a\n");
  EXPECT_FIRST(l, "duplicate step 'a'", "8:17");
  EXPECT_EQ(at(l.first().notes.at(0)), "7:17");
}

TEST(BadInput, UnknownWindowInStep) {
  const Loaded l =
      load_text(k_head +
                "turn:\n  phases:\n    - name: main\n      steps:\n        - name: only\n"
                "          window: primray\nwindows:\n  primary: {protocol: priority}\n");
  EXPECT_FIRST(l, "unknown window 'primray'", "8:19");
  EXPECT_NOTE(l, "did you mean 'primary'? (declared at t.yaml:10:3)");
}

TEST(BadInput, RepeatWhileNotBool) {
  EXPECT_FIRST(
      load_text(k_head + "turn:\n  phases:\n    - name: main\n      steps:\n        - name: only\n"
                         "          repeat_while: \"turn_number + 1\"\n"),
      "condition must be bool, found int", "8:26");
}

// ---- windows ---------------------------------------------------------------------------------

TEST(BadInput, UnknownProtocol) {
  EXPECT_FIRST(load_text(with_turn("windows:\n  main: {protocol: priorty}\n")),
               "unknown protocol 'priorty'; did you mean 'priority'?", "4:20");
}

TEST(BadInput, UnknownLeadIf) {
  EXPECT_FIRST(load_text(with_turn(
                   "speeds: [1]\nwindows:\n  main:\n    opponent: {lead: [1], lead_if: idle}\n")),
               "unknown 'lead_if' condition 'idle'; expected 'active_idle'", "6:36");
}

TEST(BadInput, UnknownSequenceOrderEntry) {
  EXPECT_FIRST(load_text(with_turn(
                   "windows:\n  main:\n    protocol: sequence\n    order: [active, oponent]\n")),
               "unknown sequence turn 'oponent'; did you mean 'opponent'?", "6:21");
}

TEST(BadInput, WindowSpeedNotDeclared) {
  EXPECT_FIRST(
      load_text(with_turn("speeds: [1, 2, 3]\nwindows:\n  main:\n    active: {lead: [4]}\n")),
      "speed 4 is not one of the declared speeds 1, 2, 3", "6:21");
}

TEST(BadInput, MayPassOnSequenceWindow) {
  EXPECT_FIRST(
      load_text(
          with_turn("windows:\n  main: {protocol: sequence, order: [active], may_pass: true}\n")),
      "'may_pass' does not apply to 'sequence' windows: a seat always ends with a pass", "4:47");
}

// ---- actions ---------------------------------------------------------------------------------

TEST(BadInput, DuplicateAction) {
  const Loaded l = load_text(with_turn("actions:\n  - name: spark\n  - name: spark\n"));
  EXPECT_FIRST(l, "duplicate action 'spark'", "5:11");
  EXPECT_NOTE(l, "'spark' first defined here");
  EXPECT_EQ(at(l.first().notes[0]), "4:11");
}

TEST(BadInput, SpeedOutsideDeclaredSpeeds) {
  EXPECT_FIRST(load_text(with_turn("speeds: [1, 2]\nactions:\n  - name: zap\n    speed: 4\n")),
               "speed 4 of action 'zap' is not one of the declared speeds 1, 2", "6:12");
}

TEST(BadInput, ActionSpeedWithoutSpeeds) {
  EXPECT_FIRST(load_text(with_turn("actions:\n  - name: zap\n    speed: 1\n")),
               "action 'zap' has a speed but the game declares no 'speeds'", "5:12");
}

TEST(BadInput, UnknownKindInPlay) {
  const Loaded l =
      load_text(with_turn("kinds:\n  spark: {copies: 1}\nzones:\n  hand: {per: player}\n"
                          "  discard: {per: player}\nactions:\n  - name: zap\n    play: sprak\n"));
  EXPECT_FIRST(l, "unknown kind 'sprak'", "10:11");
  EXPECT_NOTE(l, "did you mean 'spark'? (declared at t.yaml:4:3)");
}

TEST(BadInput, PlayWithoutDiscardZone) {
  EXPECT_FIRST(load_text(with_turn("kinds:\n  spark: {copies: 1}\nzones:\n  hand: {per: player}\n"
                                   "actions:\n  - name: zap\n    play: spark\n")),
               "action 'zap' plays a card but there is no zone 'discard'; declare one or set 'to'",
               "9:11");
}

TEST(BadInput, ToZoneMissing) {
  const Loaded l =
      load_text(with_turn("kinds:\n  spark: {copies: 1}\nzones:\n  hand: {per: player}\n"
                          "  exile: {per: player}\nactions:\n  - name: zap\n    play: spark\n"
                          "    to: exil\n"));
  EXPECT_FIRST(l, "unknown zone 'exil'", "11:9");
  EXPECT_NOTE(l, "did you mean 'exile'? (declared at t.yaml:7:3)");
}

TEST(BadInput, LimitWithUnknownKey) {
  EXPECT_FIRST(load_text(with_turn("actions:\n  - name: zap\n    limit: {per_trun: 1}\n")),
               "unknown key 'per_trun' in 'limit' of action 'zap'; did you mean 'per_turn'?",
               "5:13");
}

TEST(BadInput, UnknownRole) {
  EXPECT_FIRST(load_text(with_turn("actions:\n  - name: zap\n    who: activ\n")),
               "unknown role 'activ'; did you mean 'active'?", "5:10");
}

TEST(BadInput, ActionWhenNotBool) {
  EXPECT_FIRST(load_text(with_turn("actions:\n  - name: zap\n    when: \"stack_size\"\n")),
               "condition must be bool, found int", "5:12");
}

TEST(BadInput, NegateOutsideActionEffect) {
  EXPECT_FIRST(step_do("negate()"), "negate() is only allowed in an action's effect", "25:16");
}

TEST(BadInput, DrawNeedsAPlayerHand) {
  const Loaded l = load_text(with_turn(
      "kinds:\n  gem: {copies: 1}\nzones:\n  deck: {shared: true, init: all}\n"
      "  hand: {shared: true}\nactions:\n  - name: take\n    effect: \"draw(self, 1)\"\n"));
  EXPECT_FIRST(l, "draw needs 'hand' to be a per-player zone", "10:14");
}

// draw(p, n, z): the source is a zone reference, as a move's, and not `hand`.
TEST(BadInput, DrawFromANamedZone) {
  const Loaded misspelt = step_do("draw(active, 1, dicsard[active])");
  EXPECT_FIRST(misspelt, "unknown zone 'dicsard'", "25:32");
  EXPECT_NOTE(misspelt, "did you mean 'discard'? (declared at t.yaml:14:3)");
  EXPECT_FIRST(step_do("draw(active, 1, discard)"),
               "zone 'discard' is per player: write 'discard[p]'", "25:32");
  EXPECT_FIRST(step_do("draw(active, 1, hand[active])"),
               "draw moves cards into 'hand', so it cannot draw from it", "25:32");
  EXPECT_FIRST(step_do("draw(active, 1, coins)"), "'coins' is not a zone", "25:32");
  const Loaded no_hand = load_text(with_turn(
      "kinds:\n  gem: {copies: 1}\nzones:\n  stock: {shared: true, init: all}\n"
      "  held: {per: player}\nactions:\n  - name: take\n    effect: \"draw(self, 1, stock)\"\n"));
  EXPECT_FIRST(no_hand, "draw needs a zone named 'hand'", "10:14");
}

// A zone's capacity: a constant 0.., and no zone may start fuller.
TEST(BadInput, ZoneCapacity) {
  const std::string head =
      "params:\n  limit: {default: 2, min: 0, max: 5}\nkinds:\n  gem: {copies: 2}\nzones:\n";
  EXPECT_FIRST(load_text(with_turn(head + "  hand: {per: player, capacity: -1}\n")),
               "capacity -1 of zone 'hand' is out of range 0..1000000", "8:33");
  const Loaded misspelt = load_text(with_turn(head + "  hand: {per: player, capacity: limt}\n"));
  EXPECT_FIRST(misspelt, "unknown name 'limt'", "8:33");
  EXPECT_NOTE(misspelt, "did you mean 'limit'? (declared at t.yaml:4:3)");
  EXPECT_FIRST(
      load_text(with_turn(head + "  hand: {per: player, capacity: \"count(hand[P1])\"}\n")),
      "count(...) is not a constant; only literals and params may be used here", "8:34");
  EXPECT_FIRST(load_text(with_turn(head + "  hand: {per: player, capacity: true}\n")),
               "capacity of zone 'hand' must be int, found bool", "8:33");
  EXPECT_FIRST(
      load_text(with_turn(head + "  deck: {per: player, init: all, capacity: limit - 1}\n")),
      "zone 'deck' starts with 2 cards for P1, more than its capacity 1", "8:44");
  EXPECT_FIRST(load_text(with_turn(head + "  pile: {shared: true, init: all, capacity: 3}\n")),
               "zone 'pile' starts with 4 cards, more than its capacity 3", "8:45");
}

// ---- turn order (docs/language.md, "Players and roles") ----

TEST(BadInput, TurnOrderStatementsTakeNoArguments) {
  EXPECT_FIRST(step_do("reverse_turn_order(active)"),
               "reverse_turn_order takes 0 arguments, found 1", "25:16");
  EXPECT_FIRST(step_do("skip_next(1)"), "skip_next takes 0 arguments, found 1", "25:16");
}

TEST(BadInput, TurnOrderStatementMisspelt) {
  EXPECT_FIRST(step_do("revers_turn_order()"),
               "unknown statement 'revers_turn_order'; did you mean 'reverse_turn_order'?",
               "25:16");
  EXPECT_FIRST(step_do("skip_nxt()"), "unknown statement 'skip_nxt'; did you mean 'skip_next'?",
               "25:16");
}

TEST(BadInput, PrevNeedsOnePlayer) {
  EXPECT_FIRST(step_do("life[prev(1)] := 1"), "argument 1 of 'prev' must be player, found int",
               "25:26");
  EXPECT_FIRST(step_do("life[prev()] := 1"), "prev takes 1 argument (player), found 0", "25:21");
  EXPECT_FIRST(step_do("life[perv(active)] := 1"), "unknown function 'perv'; did you mean 'prev'?",
               "25:21");
}

TEST(BadInput, TurnOrderIsItsOwnType) {
  EXPECT_FIRST(step_do("if turn_order == red then skip end"),
               "cannot compare turn_order with color", "25:19");
  EXPECT_FIRST(step_do("mode := reversed"),
               "cannot assign turn_order to variable 'mode' of type status", "25:24");
  EXPECT_FIRST(step_do("if turn_order == 1 then skip end"), "cannot compare turn_order with int",
               "25:19");
  EXPECT_FIRST(step_do("turn_order := forward"), "cannot assign to 'turn_order': it is built in",
               "25:16");
}

TEST(BadInput, TurnOrderNamesAreReserved) {
  const Loaded l = load_text(with_turn("enums:\n  way: [forward, back]\n"));
  EXPECT_FIRST(l, "'forward' is a built-in name and cannot name an enum value", "4:9");
}

// ---- triggers, end, properties, trace -----------------------------------------------------------

TEST(BadInput, UnknownEventInTrigger) {
  const Loaded l =
      load_text(with_turn("events: [discovered]\ntriggers:\n  - name: t\n    on: discoverd\n"));
  EXPECT_FIRST(l, "unknown event 'discoverd'", "6:9");
  EXPECT_NOTE(l, "did you mean 'discovered'? (declared at t.yaml:3:10)");
}

TEST(BadInput, UnknownPhaseInTriggerEvent) {
  const Loaded l = load_text(with_turn("triggers:\n  - name: t\n    on: begin_phase(mian)\n"));
  EXPECT_FIRST(l, "unknown phase 'mian'", "5:21");
  EXPECT_NOTE(l, "did you mean 'main'? (declared at t.yaml:8:13)");
}

TEST(BadInput, UnknownPhaseInPropertyAt) {
  const Loaded l =
      load_text(with_turn("properties:\n  - name: p\n    always: \"true\"\n    at: [mian]\n"));
  EXPECT_FIRST(l, "unknown phase 'mian'", "6:10");
  EXPECT_NOTE(l, "did you mean 'main'? (declared at t.yaml:9:13)");
}

TEST(BadInput, UnknownStepInPropertyAt) {
  const Loaded l =
      load_text(with_turn("properties:\n  - name: p\n    always: \"true\"\n    at: [main.onyl]\n"));
  EXPECT_FIRST(l, "unknown step 'onyl'", "6:15");
  EXPECT_NOTE(l, "did you mean 'only'? (declared at t.yaml:11:17)");
}

TEST(BadInput, UnknownActionInTrace) {
  const Loaded l =
      load_text(with_turn("actions:\n  - name: spark\ntrace:\n  - seed: \"x\"\n    at: sprak\n"));
  EXPECT_FIRST(l, "unknown name 'sprak'", "7:9");
  EXPECT_NOTE(l, "did you mean 'spark'? (declared at t.yaml:4:11)");
}

TEST(BadInput, TraceNeedsAtOrAbstracted) {
  EXPECT_FIRST(load_text(with_turn("trace:\n  - seed: \"x\"\n")),
               "a trace entry needs exactly one of 'at' and 'abstracted'", "4:5");
}

TEST(BadInput, EndConditionWithoutWhen) {
  EXPECT_FIRST(load_text(with_turn("end:\n  - name: e\n    win: each\n")),
               "end condition 'e' needs 'when'", "4:11");
}

TEST(BadInput, TriggerControllerAny) {
  EXPECT_FIRST(
      load_text(with_turn("triggers:\n  - name: t\n    on: begin_turn\n    controller: any\n")),
      "unknown role 'any'; expected 'active', 'opponent', 'each' or 'others'", "6:17");
}

// ---- expressions and statements
// ------------------------------------------------------------------

TEST(BadInput, UnknownZoneWithSuggestion) {
  const Loaded l = step_do("coins := count(hnd[active])");
  EXPECT_FIRST(l, "unknown zone 'hnd'", "25:31");
  EXPECT_NOTE(l, "did you mean 'hand'? (declared at t.yaml:13:3)");
}

TEST(BadInput, UnknownVariable) {
  const Loaded l = step_do("coinz := 1");
  EXPECT_FIRST(l, "unknown variable 'coinz'", "25:16");
  EXPECT_NOTE(l, "did you mean 'coins'? (declared at t.yaml:16:3)");
}

TEST(BadInput, UnknownNameSuggestsParam) {
  const Loaded l = step_do("coins := dek");
  EXPECT_FIRST(l, "unknown name 'dek'", "25:25");
  EXPECT_NOTE(l, "did you mean 'deck'? (declared at t.yaml:5:3)");
}

TEST(BadInput, SelfInStepEffects) {
  EXPECT_FIRST(step_do("coins := life[self]"), "'self' is not defined here; use 'active'", "25:30");
}

TEST(BadInput, OthersInStepEffects) {
  EXPECT_FIRST(step_do("for p in others do skip end"),
               "'others' means every player but 'self', which is not defined here", "25:25");
}

TEST(BadInput, PlayerBeyondCount) {
  EXPECT_FIRST(step_do("life[P3] := 1"), "'P3' does not exist in a 2-player game", "25:21");
}

TEST(BadInput, AssignmentToParam) {
  EXPECT_FIRST(step_do("deck := 1"), "cannot assign to param 'deck': params are constants",
               "25:16");
}

TEST(BadInput, DivisionByConstantZeroIsARuntimeGap) {
  const Loaded l = step_do("coins := coins / 0");
  EXPECT_TRUE(l.game.has_value()) << l.rendered;
  EXPECT_TRUE(l.diags.empty());
}

TEST(BadInput, IntWhereBoolExpected) {
  EXPECT_FIRST(step_do("if coins then skip end"), "condition must be bool, found int", "25:19");
}

TEST(BadInput, ComparePlayerWithInt) {
  EXPECT_FIRST(step_do("if active == 1 then skip end"), "cannot compare player with int", "25:19");
}

TEST(BadInput, ArithmeticOnBool) {
  EXPECT_FIRST(step_do("coins := coins + true"), "operator '+' needs int operands, found bool",
               "25:33");
}

TEST(BadInput, AssignBoolToIntVariable) {
  EXPECT_FIRST(step_do("coins := true"), "cannot assign bool to variable 'coins' of type int",
               "25:25");
}

TEST(BadInput, EnumValueOfWrongEnum) {
  EXPECT_FIRST(step_do("mode := red"), "cannot assign color to variable 'mode' of type status",
               "25:24");
}

TEST(BadInput, UnknownEnumValueQualified) {
  const Loaded l = step_do("mode := status.redy");
  EXPECT_FIRST(l, "enum 'status' has no value 'redy'", "25:24");
  EXPECT_NOTE(l, "did you mean 'ready'?");
}

TEST(BadInput, EnumValueInTwoEnumsIsAmbiguousUnqualified) {
  const std::string decls =
      "enums:\n  status: [ready, done]\n  mood: [ready, sad]\nstate:\n  s: {type: status}\n";
  const Loaded qualified = load_text(with_turn(decls + "setup: \"s := status.ready\"\n"));
  EXPECT_TRUE(qualified.game.has_value()) << qualified.rendered;
  const Loaded l = load_text(with_turn(decls + "setup: \"s := ready\"\n"));
  EXPECT_FIRST(
      l, "enum value 'ready' is ambiguous: it belongs to 'status' and 'mood'; write 'status.ready'",
      "8:14");
  EXPECT_EQ(l.first().notes.size(), 2U);
}

TEST(BadInput, PerPlayerVariableWithoutIndex) {
  EXPECT_FIRST(step_do("coins := life"), "variable 'life' needs 1 index [player]: write 'life[p]'",
               "25:25");
}

TEST(BadInput, WrongIndexCount) {
  EXPECT_FIRST(step_do("life[active][0] := 1"),
               "variable 'life' takes 1 index [player], found 2; write 'life[p]'", "25:16");
}

TEST(BadInput, ZoneUsedAsValue) {
  EXPECT_FIRST(step_do("coins := hand[active]"),
               "zone 'hand' can only be used in count(...), move(...) and shuffle(...)", "25:25");
}

TEST(BadInput, WrongArityOfDraw) {
  EXPECT_FIRST(step_do("draw(active)"),
               "draw takes 2 or 3 arguments (player, count) or (player, count, zone), found 1",
               "25:16");
}

TEST(BadInput, WrongArityOfNegate) {
  EXPECT_FIRST(step_do("negate(1, 2)"), "negate takes 0 or 1 arguments () or (position), found 2",
               "25:16");
  EXPECT_FIRST(step_do("negate(1)"), "negate() is only allowed in an action's effect", "25:16");
}

TEST(BadInput, WrongArityOfMove) {
  EXPECT_FIRST(step_do("move(hand[active], discard[active])"),
               "move takes 3 or 4 arguments (from, to, count) or (from, to, kind, count), found 2",
               "25:16");
}

TEST(BadInput, WinWithNonPlayer) {
  EXPECT_FIRST(step_do("win(1)"), "argument 1 of 'win' must be player, found int", "25:20");
}

TEST(BadInput, UnknownStatement) {
  EXPECT_FIRST(step_do("drwa(active, 1)"), "unknown statement 'drwa'; did you mean 'draw'?",
               "25:16");
}

TEST(BadInput, UnknownFunction) {
  EXPECT_FIRST(step_do("coins := mx(1, 2)"), "unknown function 'mx'; did you mean 'max'?", "25:25");
}

TEST(BadInput, StackQueryPositionIsAnInt) {
  EXPECT_FIRST(step_do("coins := if stack_action(P1) == top_action then 1 else 0"),
               "argument 1 of 'stack_action' must be int, found player", "25:41");
}

TEST(BadInput, StackQueryArity) {
  EXPECT_FIRST(step_do("coins := if stack_controller() == P1 then 1 else 0"),
               "stack_controller takes 1 argument (position), found 0", "25:28");
}

TEST(BadInput, StackQueryMisspelt) {
  EXPECT_FIRST(step_do("coins := if stack_acton(0) == top_action then 1 else 0"),
               "unknown function 'stack_acton'; did you mean 'stack_action'?", "25:28");
}

TEST(BadInput, SpeedOfANonAction) {
  EXPECT_FIRST(step_do("coins := speed(P1)"), "argument 1 of 'speed' must be action, found player",
               "25:31");
}

TEST(BadInput, SpeedWithoutSpeeds) {
  EXPECT_FIRST(step_do("coins := speed(top_action)"),
               "speed(...) needs the game to declare 'speeds'", "25:25");
}

TEST(BadInput, FireUnknownEvent) {
  const Loaded l = step_do("fire(pnig)");
  EXPECT_FIRST(l, "unknown event 'pnig'", "25:21");
  EXPECT_NOTE(l, "did you mean 'ping'? (declared at t.yaml:19:10)");
}

TEST(BadInput, CountUnknownTag) {
  const Loaded l = step_do("coins := count(hand[active], tag acton)");
  EXPECT_FIRST(l, "unknown tag 'acton'", "25:49");
  EXPECT_NOTE(l, "did you mean 'action'? (declared at t.yaml:10:29)");
}

TEST(BadInput, ShuffleOfNonZone) {
  EXPECT_FIRST(step_do("shuffle(coins)"), "'coins' is not a zone", "25:24");
}

TEST(BadInput, ErrorOnSecondLineOfLiteralBlock) {
  const Loaded l = load_text(
      k_head + k_decls + "          do: |\n            coins := 1\n            coins := cions\n");
  EXPECT_FIRST(l, "unknown name 'cions'", "27:22");
}

TEST(BadInput, ErrorInSingleQuotedScalar) {
  EXPECT_FIRST(load_text(k_head + k_decls + "          do: 'coins := true'\n"),
               "cannot assign bool to variable 'coins' of type int", "25:25");
}

// ---- functions and macros ------------------------------------------------------

// The shared declarations, the step's `do` (line 25, from column 16), then a
// function and a macro from line 26 on; `edit` replaces a piece of them.
Loaded with_calls(const std::string& stmt, const std::string& from = "",
                  const std::string& to = "") {
  std::string calls =
      "functions:\n"                          // 26
      "  hurt:\n"                             // 27
      "    params: {p: player, n: int}\n"     // 28
      "    returns: int\n"                    // 29
      "    expr: \"max(0, life[p] - n)\"\n"   // 30
      "macros:\n"                             // 31
      "  zap:\n"                              // 32
      "    params: {p: player}\n"             // 33
      "    do: \"life[p] := hurt(p, 1)\"\n";  // 34
  if (!from.empty()) {
    const auto at_ = calls.find(from);
    EXPECT_NE(at_, std::string::npos) << from;
    if (at_ != std::string::npos) calls.replace(at_, from.size(), to);
  }
  return load_text(k_head + k_decls + "          do: \"" + stmt + "\"\n" + calls);
}

TEST(BadInput, CallsLoadWhenRight) {
  const Loaded ok = with_calls("zap(P1); coins := min(5, hurt(P2, 3))");
  EXPECT_TRUE(ok.game.has_value()) << ok.rendered;
  EXPECT_TRUE(ok.diags.empty()) << ok.rendered;
}

TEST(BadInput, NegatePositionIsAnInt) {
  // Checked in the macro's definition, where negate may stand.
  EXPECT_FIRST(with_calls("coins := 1", "life[p] := hurt(p, 1)", "negate(p)"),
               "argument 1 of 'negate' must be int, found player", "34:17");
}

TEST(BadInput, MacroArity) {
  EXPECT_FIRST(with_calls("zap()"), "macro 'zap' takes 1 argument (p: player), found 0", "25:16");
}

TEST(BadInput, FunctionArity) {
  EXPECT_FIRST(with_calls("coins := hurt(P1)"),
               "function 'hurt' takes 2 arguments (p: player, n: int), found 1", "25:25");
}

TEST(BadInput, MacroArgumentType) {
  EXPECT_FIRST(with_calls("zap(3)"), "argument 1 of macro 'zap' (p) must be player, found int",
               "25:20");
}

TEST(BadInput, FunctionArgumentType) {
  EXPECT_FIRST(with_calls("coins := hurt(P1, true)"),
               "argument 2 of function 'hurt' (n) must be int, found bool", "25:34");
}

TEST(BadInput, UnknownMacroSuggestsOne) {
  EXPECT_FIRST(with_calls("zpa(P1)"), "unknown statement 'zpa'; did you mean 'zap'?", "25:16");
}

TEST(BadInput, UnknownFunctionSuggestsOne) {
  EXPECT_FIRST(with_calls("coins := hrut(P1, 1)"), "unknown function 'hrut'; did you mean 'hurt'?",
               "25:25");
}

TEST(BadInput, FunctionResultType) {
  EXPECT_FIRST(with_calls("skip", "returns: int", "returns: bool"),
               "function 'hurt' returns bool, but its expression is int", "30:12");
}

TEST(BadInput, UnknownParameterType) {
  const Loaded l = with_calls("skip", "{p: player}", "{p: playr}");
  EXPECT_FIRST(l, "unknown type 'playr'", "33:17");
  EXPECT_NOTE(l, "did you mean 'player'?");
}

TEST(BadInput, UnknownNameInBodySuggestsParameter) {
  const Loaded l = with_calls("skip", "life[p] - n", "life[p] - nn");
  EXPECT_FIRST(l, "unknown name 'nn'", "30:29");
  EXPECT_NOTE(l, "did you mean 'n'?");
}

TEST(BadInput, FunctionRecursion) {
  EXPECT_FIRST(with_calls("skip", "max(0, life[p] - n)", "hurt(p, n)"),
               "function 'hurt' uses itself (hurt -> hurt); functions and macros cannot be "
               "recursive",
               "30:12");
}

TEST(BadInput, MacroRecursionThroughAnother) {
  const Loaded l = with_calls("skip", "life[p] := hurt(p, 1)",
                              "zap2(p)\"\n  zap2:\n    params: {q: player}\n    do: \"zap(q)");
  EXPECT_FIRST(l,
               "macro 'zap' uses itself (zap -> zap2 -> zap); functions and macros cannot be "
               "recursive",
               "37:10");
  EXPECT_NOTE(l, "in macro 'zap2' used at t.yaml:34:10");
}

TEST(BadInput, ErrorInMacroBodySaysWhichUseExpandedIt) {
  // negate() is fine in the definition (an action's effect may use it), not
  // where this use puts it: the error is in the body, the note at the use.
  const Loaded l = with_calls("coins := 1; zap(P2)", "life[p] := hurt(p, 1)", "negate()");
  EXPECT_FIRST(l, "negate() is only allowed in an action's effect", "34:10");
  EXPECT_NOTE(l, "in macro 'zap' used at t.yaml:25:28");
}

TEST(BadInput, BodyDoesNotSeeTheBindersAroundItsUse) {
  const Loaded l =
      with_calls("for x in players do zap(x) end", "life[p] := hurt(p, 1)", "life[x] := 0");
  EXPECT_FIRST(l, "unknown name 'x'", "34:15");
}

TEST(BadInput, AssignToParameter) {
  EXPECT_FIRST(with_calls("skip", "life[p] := hurt(p, 1)", "p := P1"),
               "cannot assign to 'p': it is a parameter of macro 'zap'", "34:10");
}

TEST(BadInput, FunctionUsedAsStatement) {
  EXPECT_FIRST(with_calls("hurt(P1, 1)"), "'hurt' is a function (an expression), not a statement",
               "25:16");
}

TEST(BadInput, MacroUsedAsFunction) {
  EXPECT_FIRST(with_calls("coins := zap(P1)"), "'zap' is a macro (statements), not a function",
               "25:25");
}

TEST(BadInput, FunctionWithoutParentheses) {
  EXPECT_FIRST(with_calls("coins := hurt"), "'hurt' is a function; use it as hurt(...)", "25:25");
}

TEST(BadInput, FunctionNamedAfterBuiltIn) {
  EXPECT_FIRST(with_calls("skip", "  hurt:\n", "  count:\n"),
               "'count' is a built-in name and cannot name a function", "27:3");
}

TEST(BadInput, MacroNamedLikeFunction) {
  const Loaded l = with_calls("skip", "  zap:\n", "  hurt:\n");
  EXPECT_FIRST(l, "duplicate macro 'hurt'", "32:3");
  EXPECT_NOTE(l, "'hurt' first defined here");
}

TEST(BadInput, FunctionWithoutExpr) {
  EXPECT_FIRST(with_calls("skip", "    expr: \"max(0, life[p] - n)\"\n", ""),
               "function 'hurt' needs 'expr'", "27:3");
}

// ---- zone init per player --------------------------------------------------------

Loaded zone_init(const std::string& hand) {
  return load_text(
      with_turn("players: 2\n"                        // 3
                "kinds:\n"                            // 4
                "  spark: {copies: 2}\n"              // 5
                "zones:\n"                            // 6
                "  deck: {per: player, init: all}\n"  // 7
                "  hand: " +
                hand + "\n"));  // 8
}

TEST(BadInput, ZoneInitPerPlayerLoadsWhenRight) {
  const Loaded ok = zone_init("{per: player, init: {P2: {spark: 2}}}");
  EXPECT_TRUE(ok.game.has_value()) << ok.rendered;
}

TEST(BadInput, ZoneInitForAPlayerBeyondTheCount) {
  EXPECT_FIRST(zone_init("{per: player, init: {P3: {spark: 1}}}"),
               "'P3' does not exist in a 2-player game", "8:30");
}

TEST(BadInput, ZoneInitPerPlayerOfASharedZone) {
  EXPECT_FIRST(zone_init("{shared: true, init: {P1: {spark: 1}}}"),
               "zone 'hand' is shared: its 'init' gives counts for the zone, not per player",
               "8:31");
}

TEST(BadInput, ZoneInitMixesBothForms) {
  EXPECT_FIRST(zone_init("{per: player, init: {P1: {spark: 1}, spark: 1}}"),
               "'init' of zone 'hand' gives either kind counts for every owner or counts per "
               "player (P1: {...}), not both",
               "8:29");
}

TEST(BadInput, ZoneInitPerPlayerOverCopies) {
  EXPECT_FIRST(zone_init("{per: player, init: {P1: {spark: 3}}}"),
               "initial count 3 of 'spark' in zone 'hand' for P1 is out of range 0..2", "8:42");
}

TEST(BadInput, ZoneInitPerPlayerUnknownKind) {
  const Loaded l = zone_init("{per: player, init: {P1: {sprak: 1}}}");
  EXPECT_FIRST(l, "unknown kind 'sprak'", "8:35");
  EXPECT_NOTE(l, "did you mean 'spark'? (declared at t.yaml:5:3)");
}

// ---- events with typed arguments, ends naming a player
// ------------------------------------------------------

// An event with two arguments (line 4), a trigger whose `on` (line 7) starts
// at column 9, and a step whose `do` (line 13) starts at column 16.
std::string with_hit(const std::string& on, const std::string& stmt) {
  return k_head +
         "events:\n"                                                                   // 3
         "  - {name: hit, args: {who: player, amount: {type: int, range: [1, 3]}}}\n"  // 4
         "triggers:\n"                                                                 // 5
         "  - name: t\n"                                                               // 6
         "    on: " +
         on + "\n" + k_turn + "          do: \"" + stmt + "\"\n";
}

TEST(BadInput, TriggerBindsTooFewEventArguments) {
  EXPECT_FIRST(load_text(with_hit("hit(p)", "skip")),
               "event 'hit' has 2 arguments (who, amount), but 'hit(p)' binds 1", "7:9");
}

TEST(BadInput, TriggerBindsANameTwice) {
  EXPECT_FIRST(load_text(with_hit("hit(p, p)", "skip")), "'p' is bound twice", "7:16");
}

TEST(BadInput, TriggerBindsSomethingElseThanAName) {
  EXPECT_FIRST(load_text(with_hit("hit(p, 3)", "skip")),
               "expected a name to bind an argument of 'hit', found '3'", "7:16");
}

TEST(BadInput, TriggerBindsABuiltInName) {
  EXPECT_FIRST(load_text(with_hit("hit(self, n)", "skip")),
               "'self' is a built-in name and cannot be bound", "7:9");
}

TEST(BadInput, FireWithTooFewArguments) {
  EXPECT_FIRST(load_text(with_hit("hit(p, n)", "fire(hit(P1))")),
               "event 'hit' takes 2 arguments (who, amount), found 1", "13:21");
}

TEST(BadInput, FireArgumentOfTheWrongType) {
  EXPECT_FIRST(load_text(with_hit("hit(p, n)", "fire(hit(1, 2))")),
               "argument 'who' of event 'hit' is player, found int", "13:25");
}

TEST(BadInput, FireArgumentOutsideItsRange) {
  EXPECT_FIRST(load_text(with_hit("hit(p, n)", "fire(hit(P2, 4))")),
               "argument 'amount' of event 'hit' is 4, outside its range 1..3", "13:29");
}

TEST(BadInput, FireArgumentsOfAnEventWithout) {
  EXPECT_FIRST(step_do("fire(ping(1))"), "event 'ping' takes 0 arguments, found 1", "25:21");
}

TEST(BadInput, UnknownEventArgumentTypeWithSuggestion) {
  const Loaded l = load_text(with_turn("events:\n  - {name: hit, args: {who: plyer}}\n"));
  EXPECT_FIRST(l, "unknown type 'plyer'", "4:29");
  EXPECT_NOTE(l, "did you mean 'player'?");
}

TEST(BadInput, IntEventArgumentWithoutRange) {
  EXPECT_FIRST(load_text(with_turn("events:\n  - {name: hit, args: {amount: int}}\n")),
               "int argument 'amount' of event 'hit' needs a 'range'", "4:24");
}

TEST(BadInput, RangeOnANonIntEventArgument) {
  EXPECT_FIRST(load_text(with_turn(
                   "events:\n  - {name: hit, args: {who: {type: player, range: [0, 1]}}}\n")),
               "'range' only applies to int arguments", "4:51");
}

// An action 'zap' in the priority window 'main', its `targets:` on line 10
// (the value from column 14), then `rest` (line 11 on).
Loaded with_targets(const std::string& targets, const std::string& rest = "") {
  return load_text(k_head +
                   "players: 2\n"                                       // 3
                   "state:\n"                                           // 4
                   "  life: {type: int, range: [0, 3], per: player}\n"  // 5
                   "windows:\n"                                         // 6
                   "  main: {protocol: priority}\n"                     // 7
                   "actions:\n"                                         // 8
                   "  - name: zap\n"                                    // 9
                   "    targets: " +
                   targets + "\n" + rest +
                   "turn:\n  phases:\n    - name: main\n      steps:\n        - name: only\n"
                   "          window: main\n");
}

TEST(BadInput, TargetsLoadInAPriorityWindow) {
  const Loaded l = with_targets("{who: player, n: {type: int, range: [1, 2]}}",
                                "    effect: \"life[who] := n\"\n");
  ASSERT_TRUE(l.game.has_value()) << l.rendered;
  ASSERT_EQ(l.game->actions[0].targets.size(), 2U);
  EXPECT_EQ(l.game->actions[0].targets[1].lo, 1);
  EXPECT_EQ(l.game->actions[0].targets[1].hi, 2);
}

TEST(BadInput, UnknownTargetTypeWithSuggestion) {
  const Loaded l = with_targets("{who: plyer}");
  EXPECT_FIRST(l, "unknown target type 'plyer'", "10:20");
  EXPECT_NOTE(l, "did you mean 'player'?");
}

TEST(BadInput, EntryTargetTypeMisspelt) {
  const Loaded l = with_targets("{spell: {type: entyr}}");
  EXPECT_FIRST(l, "unknown target type 'entyr'", "10:29");
  EXPECT_NOTE(l, "did you mean 'entry'?");
}

TEST(BadInput, IntTargetWithoutRange) {
  EXPECT_FIRST(with_targets("{n: int}"), "int target 'n' of action 'zap' needs a 'range'", "10:15");
}

TEST(BadInput, RangeOnAnEntryTarget) {
  EXPECT_FIRST(with_targets("{e: {type: entry, range: [0, 1]}}"),
               "'range' only applies to int targets", "10:39");
}

TEST(BadInput, TargetNamedLikeABuiltIn) {
  EXPECT_FIRST(with_targets("{self: player}"), "'self' is a built-in name and cannot name a target",
               "10:15");
}

TEST(BadInput, TargetWhereMisspellsAnEarlierTarget) {
  const Loaded l =
      with_targets("{who: player, n: {type: int, range: [1, 2], where: \"n <= life[wh]\"}}");
  EXPECT_FIRST(l, "unknown name 'wh'", "10:76");
  EXPECT_NOTE(l, "did you mean 'who'?");
}

TEST(BadInput, TargetWhereMustBeBool) {
  EXPECT_FIRST(with_targets("{who: {type: player, where: \"life[who]\"}}"),
               "condition must be bool, found int", "10:43");
}

TEST(BadInput, CostCannotReadATarget) {
  EXPECT_FIRST(with_targets("{who: player}", "    cost: \"life[who] := 0\"\n"),
               "unknown name 'who'", "11:17");
}

TEST(BadInput, TargetsOnAnActionThatIsNotAnswerable) {
  EXPECT_FIRST(with_targets("{who: player}", "    answerable: false\n"),
               "action 'zap' has targets but is not answerable: targets are chosen when an "
               "action goes on the stack",
               "10:15");
}

TEST(BadInput, TargetsInAWindowWithoutAStack) {
  const Loaded l =
      load_text(with_turn("windows:\n  main: {protocol: alternate}\nactions:\n  - name: zap\n"
                          "    targets: {who: player}\n"));
  EXPECT_FIRST(l,
               "action 'zap' has targets but can be taken in window 'main', which has no stack "
               "(targets need a priority window)",
               "7:15");
}

TEST(BadInput, TooManyTargetCombinations) {
  EXPECT_FIRST(with_targets("{a: {type: int, range: [0, 99]}, b: {type: int, range: [0, 99]}}"),
               "action 'zap' has 10000 combinations of targets, more than 4096", "10:15");
}

TEST(BadInput, EndConditionNamesAnIntInsteadOfAPlayer) {
  EXPECT_FIRST(load_text(with_turn("end:\n  - name: e\n    win: 3\n    when: \"true\"\n")),
               "end condition 'e': 'win' needs a role or a player, found int", "5:10");
}

TEST(BadInput, EndConditionRoleMisspelt) {
  EXPECT_FIRST(load_text(with_turn("end:\n  - name: e\n    lose: eahc\n    when: \"true\"\n")),
               "unknown role 'eahc'; did you mean 'each'?", "5:11");
}

TEST(BadInput, EndConditionPlayerBeyondTheCount) {
  EXPECT_FIRST(load_text(with_turn("end:\n  - name: e\n    win: P3\n    when: \"true\"\n")),
               "'P3' does not exist in a 2-player game", "5:10");
}

TEST(BadInput, EndConditionPlayerExpressionUsesSelf) {
  EXPECT_FIRST(load_text(with_turn("end:\n  - name: e\n    win: next(self)\n    when: \"true\"\n")),
               "'self' is not defined here; use 'active'", "5:15");
}

// ---- several errors in one run
// --------------------------------------------------------------------

TEST(BadInput, SeveralErrorsInOneRun) {
  const Loaded l =
      load_text(with_turn("acitons: []\n"
                          "state:\n"
                          "  coins: {type: int, range: [0, 5], init: 9}\n"
                          "setup: \"coins := true\"\n"));
  EXPECT_FALSE(l.game.has_value());
  ASSERT_EQ(l.diags.size(), 3U) << l.rendered;
  EXPECT_EQ(l.diags[0].message, "unknown key 'acitons' in ruleset; did you mean 'actions'?");
  EXPECT_EQ(at(l.diags[0]), "3:1");
  EXPECT_EQ(l.diags[1].message, "initial value 9 of 'coins' is out of range 0..5");
  EXPECT_EQ(at(l.diags[1]), "5:43");
  EXPECT_EQ(l.diags[2].message, "cannot assign bool to variable 'coins' of type int");
  EXPECT_EQ(at(l.diags[2]), "6:18");
}

TEST(BadInput, RenderedDiagnosticQuotesTheLine) {
  const Loaded l = step_do("coins := count(hnd[active])");
  EXPECT_EQ(l.rendered,
            "t.yaml:25:31: error: unknown zone 'hnd'\n"
            "   25 |           do: \"coins := count(hnd[active])\"\n"
            "      |                               ^~~\n"
            "note: did you mean 'hand'? (declared at t.yaml:13:3)\n");
}

}  // namespace
}  // namespace loophole::model
