// group_moves (move_groups.hpp).
#include "move_groups.hpp"

namespace loophole::properties::detail {

void group_moves(const checker::Generator::Buffer& buf, StateMoves& out) {
  out.move_of.assign(buf.size(), 0);
  out.picker.clear();
  out.movers = 0;
  out.nobody = false;
  std::uint16_t move = 0;
  checker::MoveFields prev;
  for (std::size_t i = 0; i < buf.size(); ++i) {
    const checker::MoveFields m = buf.move(i);
    if (i > 0 && (m.kind != prev.kind || m.player != prev.player || m.ref != prev.ref)) ++move;
    out.move_of[i] = move;
    if (out.picker.size() == move) {
      out.picker.push_back(-1);
      if (m.player >= 0) {
        out.movers |= 1U << static_cast<unsigned>(m.player);
      } else {
        out.nobody = true;
      }
    }
    prev = m;
  }
  // A lone move's outcomes chosen by a player (a `pick`): theirs.
  if (out.picker.size() == 1 && buf.size() > 1 && buf.move(0).chooser == checker::Chooser::player) {
    out.picker[0] = static_cast<std::int8_t>(buf.move(0).chooser_player);
  }
}

}  // namespace loophole::properties::detail
