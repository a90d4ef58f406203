// Loads a ruleset written inline in a test, with its Semantics, for tests of
// the engines on real rules (the fixture fails the test on a load error).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "loaded_game.hpp"

namespace loophole::checker::testing {

using LoadedRuleset = test_support::LoadedGame;

inline std::unique_ptr<LoadedRuleset> load_ruleset(const std::string& name,
                                                   const std::string& yaml) {
  auto r = test_support::load_game(name, {.text = yaml, .with_semantics = true});
  EXPECT_TRUE(r->game.has_value()) << r->diagnostics();
  return r;
}

// One step, nothing to do: no state, no expression, no statement.
inline const char* const minimal_yaml = R"yaml(
loophole: 1
game: minimal
players: 2
turn:
  phases:
    - name: main
      steps:
        - name: only
)yaml";

// The three window protocols (docs/examples/windows.yaml).
inline const char* const windows_yaml = R"yaml(
loophole: 1
game: windows
players: 2
speeds: [1, 2, 3]
state:
  tokens: {type: int, range: [0, 3], init: 0, per: player}
windows:
  primary:
    protocol: priority
    active:   {lead: [1, 2, 3], answer: [3]}
    opponent: {lead: [2, 3], answer: [2, 3], lead_if: active_idle}
  combat:
    protocol: alternate
    may_pass: true
  strategy:
    protocol: sequence
    order: [active, opponent, active_if_answered]
actions:
  - name: gain
    speed: 1
    when: "tokens[self] < 3"
    effect: "tokens[self] += 1"
    limit: {per_window: 1}
  - name: counter
    speed: 3
    in: [primary]
    when: "stack_size > 0 and top_controller != self"
    effect: "negate()"
turn:
  phases:
    - name: main
      steps:
        - name: primary
          window: primary
        - name: combat
          window: combat
        - name: strategy
          window: strategy
)yaml";

// Nature's and players' choices, with setup branching into two initial
// states and draws that run the deck dry (docs/examples/choices.yaml).
inline const char* const choices_yaml = R"yaml(
loophole: 1
game: choices
players: 3
kinds:
  gem:  {copies: 2}
  dust: {copies: 2}
zones:
  deck: {per: player, init: all}
  hand: {per: player}
  pile: {shared: true}
state:
  heads: {type: bool, init: false}
  chosen: {type: int, range: [0, 2], init: 0, per: player}
setup: "choose c in 0..1 do heads := c == 1 end"
turn:
  phases:
    - name: main
      steps:
        - name: draw
          do: "draw(active, 1)"
        - name: random_player
          do: "choose p in players where count(hand[p]) > 0 do chosen[p] := min(2, chosen[p] + 1) end"
        - name: pick_kind
          do: |
            pick k in kinds where count(hand[active], k) > 0 do
              move(hand[active], pile, k, 1)
            end
        - name: give
          do: "if count(hand[active]) > 0 then move(hand[active], pile, 1) end"
)yaml";

// Constructs no fixture or seed uses, in one small game (compiled_test.cpp,
// lowered_test.cpp): computed array
// indices (in and out of range), `%` and `/` by a state value, clamp/abs,
// tagged and computed-kind zone counts, `sum` and `count` over tagged kinds
// and `others`, nested choices with a `for` between them, a draw that
// branches and a chosen move, `if ... else`, fire of a custom event, and
// limits per turn and per window; and an end condition that never holds,
// for instruction forms of the compiler the corpus lacks.
inline const char* const extra_yaml = R"yaml(
loophole: 1
game: extra
players: 3
kinds:
  red:  {copies: 1, tags: [warm]}
  gold: {copies: 1, tags: [warm]}
  blue: {copies: 1}
enums:
  mood: [calm, eager, spent]
zones:
  deck: {per: player, init: all}
  hand: {per: player}
  pile: {shared: true}
state:
  feel: {type: mood, init: calm}
  slot: {type: int, range: [0, 3], init: 0, per: player}
  row: {type: int, range: [0, 2], init: 0, array: 2}
  pos: {type: int, range: [0, 3], init: 1}
events: [poked]
triggers:
  - name: on_poke
    on: poked
    controller: opponent
    when: "(sum k in kinds tag warm: count(hand[self], k)) > 0 or count(hand[self], tag warm) > 1"
    do: "row[pos % 2] := clamp(row[pos % 2] + 1, 0, 2)"
actions:
  - name: poke
    who: any
    when: "abs(slot[self] - 1) <= 1 and (count p in others: slot[p] > 0) < 2"
    effect: |
      slot[self] := (slot[self] + 1) % 4
      for p in others do
        slot[p] := slot[p]
      end
      fire(poked)
    limit: {per_turn: 1}
  - name: cheer
    who: others
    when: "feel != spent"
    effect: |
      for m in mood do
        if m == feel then skip elif feel == calm then feel := eager else feel := spent end
      end
  - name: shift
    when: "row[pos] >= 0 or 6 / (3 - pos) > 1"
    effect: "pos += 1"
    limit: {per_window: 1}
turn:
  phases:
    - name: main
      steps:
        - name: draw
          do: |
            if count(deck[active]) > 1 then draw(active, 2) else draw(active, count(deck[active])) end
        - name: spread
          do: |
            for p in players do
              choose k in kinds where count(hand[active], k) > 0 do
                if slot[p] < 3 then slot[p] += 1 end
              end
            end
            if count(hand[active]) > 0 then move(hand[active], pile, 1) end
        - name: play
          window: main
windows:
  main:
    protocol: alternate
    may_pass: true
end:
  # never holds (pos and slot stay within 0..3), but runs after every move:
  # it exercises fused forms the corpus lacks (see CorpusRunsEveryInstructionForm)
  - name: never
    lose: each
    when: "slot[self] > 5 or (pos > 8 or slot[self] + pos > 9) or (self == P3) == (pos > 7) and pos > 3 or slot[self] * 2 > pos * 3 + 9 or (pos + 1) != (1 + pos) or count(hand[top_controller], red) > 3 or (exists q in 0..9: slot[self] + pos > q and pos > 9) or -pos > 0 or (exists q in 0..9: q > 1 and pos - q > 5) or (exists q in 0..9: q > 10) or (exists q in 0..9: q > 11 or pos > 9) or slot[self] + pos != 10 and pos > 9"
)yaml";

}  // namespace loophole::checker::testing
