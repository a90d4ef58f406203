// What a role of the rules (`who:`, a window's roles, `each`) means for one
// player, relative to the active player: the reading every engine and the
// simulator share.
#pragma once

#include "loophole/model/game.hpp"

namespace loophole::model {

// Whether role `r`, on `active`'s turn with `players` players, covers player p.
[[nodiscard]] inline bool covers(Role r, int p, int active, int players) {
  switch (r) {
    case Role::active:
      return p == active;
    case Role::opponent:
      return p == (active + 1) % players && p != active;
    case Role::others:
      return p != active;
    case Role::each:
    case Role::any:
      return true;
  }
  return false;
}

}  // namespace loophole::model
