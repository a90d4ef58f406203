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

}  // namespace loophole::checker::testing
