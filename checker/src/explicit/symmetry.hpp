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

  [[nodiscard]] bool active() const { return !groups_.empty(); }
  [[nodiscard]] const std::vector<Group>& groups() const { return groups_; }
  // What the statistics say: "slots: faces" or "off: ..." per candidate
  // array ("faces[..] indexed by i, used as a value at file:l:c").
  [[nodiscard]] const std::string& summary() const { return summary_; }
  [[nodiscard]] const std::vector<std::string>& arrays() const { return arrays_; }

  // Sorts each group's records (lexicographically by field); true when the
  // state changed.
  bool canonicalise(std::int32_t* state) const;
  // The same on a packed state in place; `scratch` holds
  // packer.unpacked_size() values. Unpacks only when some group is unsorted.
  void canonicalise_packed(const Packer& packer, Word* words, std::int32_t* scratch) const;
  // How many states the canonical `state` stands for: the product over the
  // groups of count! / (multiplicity of each distinct record)!.
  [[nodiscard]] std::uint64_t orbit_size(const std::int32_t* state) const;
  [[nodiscard]] std::uint64_t orbit_size_packed(const Packer& packer, const Word* words) const;

 private:
  [[nodiscard]] bool sorted_packed(const Packer& packer, const Word* words) const;

  std::vector<Group> groups_;
  std::vector<std::uint64_t> dirty_;  // the groups' fields, a bit per field
  std::vector<std::string> arrays_;   // names of the arrays sorted
  std::string summary_;
};

}  // namespace loophole::checker
