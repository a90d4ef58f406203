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

#include "loophole/checker/lowered.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/roles.hpp"

namespace loophole::checker::semantics {

// Index of every control field (public: the lowered form carries it).
using Controls = lowered::Controls;

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
  // Whether a role (relative to the active player, in the turn order of
  // state s) covers player p.
  [[nodiscard]] bool covers(model::Role r, int p, int active, const std::int32_t* s) const {
    return model::covers(r, p, active, players, reversed(s));
  }
  [[nodiscard]] bool reversed(const std::int32_t* s) const {
    return ctl.order >= 0 && s[ctl.order] != 0;
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
