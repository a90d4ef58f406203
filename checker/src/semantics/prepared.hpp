// What the semantics derives from a Game once, before any state is explored:
// the state layout with the index of every control field, the rule-gap
// sites, and lookup tables (triggers per event, candidate actions per window,
// kinds per tag). Everything here is immutable after construction, so one
// Prepared is shared by all threads exploring the same Game.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "loophole/checker/semantics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/roles.hpp"

namespace loophole::checker::semantics {

// Index of every control field in the state vector; -1 when the game does not
// need the field (reads give 0, writes are dropped).
struct Controls {
  int over = -1, gap = -1, active = -1, turn = -1, step = -1, stage = -1;
  int target = -1, new_turn = -1;
  int holder = -1, passes = -1, acted = -1, seat = -1;
  int stack_size = -1;
  int stack_base = -1;  // stack[i].action at stack_base + 2i, .controller at + 2i + 1
  int stack_capacity = 0;
  std::vector<int> pending;      // per trigger: index of pending[t][P1], or -1
  std::vector<int> turn_uses;    // per action: index of uses[a][P1], or -1
  std::vector<int> window_uses;  // per action: index of window_uses[a][P1], or -1
};

// The rule-gap sites and where each is raised from.
struct GapTable {
  std::vector<GapSite> sites;
  // Statement or expression node -> its site. Card movements (draw, move)
  // own two consecutive sites: source too small, then destination overfull
  // or negative count.
  std::unordered_map<const void*, int> at;
  // Arithmetic node -> its integer-overflow site, only where the interval
  // analysis (gaps.cpp) finds the result may leave 64 bits; a division can
  // own both a zero-divisor site (at) and this one. A property's node maps
  // to no_site (its failure makes the property false).
  std::unordered_map<const void*, int> overflow;
  // The first expression (of the rules or a property) whose values the
  // interval analysis cannot keep within 32 bits, as written ("" when there
  // is none), and where: the Promela export refuses such a game, since pan
  // computes in 32-bit integers.
  std::string beyond_int32;
  model::SourceSpan beyond_int32_at;
  // The failure of an expression outside the rules: no site.
  static constexpr int no_site = 1 << 30;
  std::vector<int> play_site;  // per action: destination overfull when its card is played, or -1
  std::vector<int> push_site;  // per action: pushed onto a full stack, or -1
};

struct Prepared {
  explicit Prepared(const model::Game& game);

  const model::Game& game;
  int players = 2;
  int kinds = 0;
  Layout layout;
  Controls ctl;
  GapTable gaps;
  std::vector<std::vector<int>> triggers_by_event;  // event id -> trigger ids in order
  std::vector<std::vector<int>> window_actions;     // window id -> usable actions in order
  std::vector<std::vector<int>> kinds_by_tag;       // tag id -> kind ids in order
  std::vector<bool> window_used;                    // opened by some step
  int begin_turn_event = -1, end_turn_event = -1;

  [[nodiscard]] int step_phase(int step) const { return game.steps[step].phase; }
  [[nodiscard]] std::string player_name(int p) const { return "P" + std::to_string(p + 1); }
  // Whether a role (relative to the active player) covers player p.
  [[nodiscard]] bool covers(model::Role r, int p, int active) const {
    return model::covers(r, p, active, players);
  }
};

// The bounds of the 64-bit integers expressions compute in.
inline constexpr std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t max64 = std::numeric_limits<std::int64_t>::max();

// Builders, one per file.
void build_layout(const model::Game& game, const GapTable& gaps, Layout& layout, Controls& ctl);
void collect_gaps(const model::Game& game, const std::vector<bool>& window_used, GapTable& gaps);

// Reading and writing control fields that may be absent.
inline std::int32_t get(const std::int32_t* s, int index) { return index < 0 ? 0 : s[index]; }
inline void put(std::int32_t* s, int index, std::int32_t value) {
  if (index >= 0) s[index] = value;
}

}  // namespace loophole::checker::semantics
