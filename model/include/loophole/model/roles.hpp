// What a role of the rules (`who:`, a window's roles, `each`) means for one
// player, relative to the active player: the reading every engine and the
// simulator share.
#pragma once

#include "loophole/model/game.hpp"

namespace loophole::model {

// The player after p in the current turn order: to the left, or to the
// right once `reverse_turn_order()` has reversed it.
[[nodiscard]] inline int next_in_order(int p, bool reversed, int players) {
  return reversed ? (p + players - 1) % players : (p + 1) % players;
}

// Whether role `r`, on `active`'s turn with `players` players, covers player
// p; `opponent` is the next player in the current turn order.
[[nodiscard]] inline bool covers(Role r, int p, int active, int players, bool reversed = false) {
  switch (r) {
    case Role::active:
      return p == active;
    case Role::opponent:
      return p == next_in_order(active, reversed, players) && p != active;
    case Role::others:
      return p != active;
    case Role::each:
    case Role::any:
      return true;
  }
  return false;
}

}  // namespace loophole::model
