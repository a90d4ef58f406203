// Slot symmetry: arrays of interchangeable records (`faces: {per: player,
// array: face_copies, record: ...}`) whose rules never tell one slot from
// another. Such a state and every permutation of each owner's records have
// the same futures up to that permutation, so the search stores one state
// per orbit: the one with each owner's records sorted (canonicalise()), and
// a trace is made concrete again by following canonical forms (traces.cpp).
//
// Whether an array qualifies is decided from the rules' lowered form
// (loophole/checker/lowered.hpp), conservatively (docs/symmetry.md): every
// index of it must be a binder ranging over the whole array, used for
// nothing but indexing that one array of one owner (owners compared as
// lowered: `opponent` is `next(active)`); a literal index, a binder used as
// a value (`defends := i`) or compared outside a pick's `where` (the "lowest
// free slot" idiom is accepted there), one binder indexing two arrays, or a
// `for` over the slots whose result may depend on the order of its
// iterations, breaks the symmetry of the array.
//
// Player symmetry (player_symmetry.cpp): when no rule treats one player
// differently, a state and its rotations (player p's part moved to player
// p + r, every player value v to v + r) have the same futures up to that
// rotation, and the search stores the rotation with the active player P1
// (composed with the slot sort). The analyses then read the concrete graph
// through PlayerView (player_view.hpp), which presents each stored state in
// the rotations it is reachable in.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loophole/checker/lowered.hpp"
#include "loophole/model/game.hpp"

#include "packer.hpp"

namespace loophole::checker {

class Symmetry {
 public:
  // One array of one owner: `count` records of `width` consecutive fields
  // from field `first` of the layout.
  struct Group {
    int first = 0, count = 0, width = 0;
  };

  // The arrays of the lowered rules `low` whose records may be sorted (none
  // when `enabled` is false); `fields` is the layout's field count (data
  // fields first).
  Symmetry(const lowered::Lowered& low, std::size_t fields, bool enabled);
  // The same for `game`, lowered here.
  Symmetry(const model::Game& game, std::size_t fields, bool enabled);

  [[nodiscard]] bool active() const { return !groups_.empty() || rotations_ > 0; }
  // Whether arrays are sorted (slot symmetry applies).
  [[nodiscard]] bool slots() const { return !groups_.empty(); }
  // The number of players the rotations act on, 0 when player symmetry is
  // off; player_note() says why ("" when on, or not asked).
  [[nodiscard]] int rotations() const { return rotations_; }
  [[nodiscard]] const std::string& player_note() const { return player_note_; }
  // out = the rotation of `in` by r (0 <= r < rotations()): player p's part
  // to player (p + r) mod n, every player value v to (v + r) mod n. `in`
  // and `out` hold the layout's fields and must not overlap.
  void rotate(const std::int32_t* in, int r, std::int32_t* out) const;
  // The rotation by -r: rotate(in, rotations() - r) (r == 0: a copy).
  [[nodiscard]] int inverse(int r) const { return r == 0 ? 0 : rotations_ - r; }
  [[nodiscard]] const std::vector<Group>& groups() const { return groups_; }
  // What the statistics say: "slots: faces" or "off: ..." per candidate
  // array ("faces[..] indexed by i, used as a value at file:l:c").
  [[nodiscard]] const std::string& summary() const { return summary_; }
  [[nodiscard]] const std::vector<std::string>& arrays() const { return arrays_; }

  // Rotates the active player to P1 (when player symmetry applies), then
  // sorts each group's records (lexicographically by field); true when the
  // state changed.
  bool canonicalise(std::int32_t* state) const;
  // The same on a packed state in place; `scratch` holds
  // packer.unpacked_size() values. Unpacks only when some group is unsorted.
  void canonicalise_packed(const Packer& packer, Word* words, std::int32_t* scratch) const;
  // The player active in a packed state before canonicalise_packed(): the
  // rotation that brings it to P1 undone (0 when player symmetry is off).
  [[nodiscard]] int turn_packed(const Packer& packer, const Word* words) const;
  // Sorts each group's records only (what PlayerView's states are
  // canonical under).
  bool sort_slots(std::int32_t* state) const;
  // How many states the canonical `state` stands for under the slot sort:
  // the product over the groups of count! / (multiplicity of each distinct
  // record)! (the rotations a state is reachable in are PlayerView's).
  [[nodiscard]] std::uint64_t orbit_size(const std::int32_t* state) const;
  [[nodiscard]] std::uint64_t orbit_size_packed(const Packer& packer, const Word* words) const;

 private:
  [[nodiscard]] bool sorted_packed(const Packer& packer, const Word* words) const;
  // Player symmetry: decides it (player_note_ says why not) and builds the
  // rotation tables.
  void decide_players(const lowered::Lowered& low, std::size_t fields);

  std::vector<Group> groups_;
  std::vector<std::uint64_t> dirty_;  // the groups' fields, a bit per field
  std::vector<std::string> arrays_;   // names of the arrays sorted
  std::string summary_;

  // Player rotations (rotations_ players, 0: off). owner_stride_[f] moves
  // field f of player p's part to player p + 1's (0: the field belongs to
  // no player); owner_[f] is that player.
  int rotations_ = 0;
  int active_field_ = -1, stage_field_ = -1, holder_field_ = -1;
  int stack_size_field_ = -1, stack_base_ = -1;
  std::vector<int> owner_stride_, owner_;
  std::vector<std::uint64_t> all_;  // every field, a bit per field
  std::string player_note_;
};

}  // namespace loophole::checker
