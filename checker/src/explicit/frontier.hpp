// The packed states of two breadth-first levels, for a search that stores a
// 64-bit fingerprint per state instead of the state (hash compaction,
// ExplicitOptions::compact): the level being expanded, whose states the
// chunks read as sources, and the level being filled, whose new states the
// walk writes here by id as it numbers them. When a level is done, the
// level filled becomes the one expanded and the old one's buffer is reused.
// So the search holds two levels' packed states, never all of them (SPIN's
// and TLC's breadth-first queues do the same); both are counted against the
// memory budget.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "loophole/checker/explored.hpp"

#include "memory_budget.hpp"
#include "packer.hpp"

namespace loophole::checker {

class Frontier {
 public:
  Frontier(std::size_t words, MemoryBudget& budget) : words_(words), budget_(budget) {}
  ~Frontier() { budget_.release(accounted_); }
  Frontier(const Frontier&) = delete;
  Frontier& operator=(const Frontier&) = delete;

  // A state of the level being expanded.
  [[nodiscard]] const Word* source(StateId id) const {
    return &current_[std::uint64_t{id - current_base_} * words_];
  }
  // Room in the level being filled for every id below `end`; false when the
  // memory budget refuses.
  [[nodiscard]] bool reserve(std::uint64_t end) {
    const std::uint64_t need = (end - next_base_) * words_;
    if (need <= next_.size()) return true;
    const std::uint64_t grown = std::max<std::uint64_t>(need, next_.size() + next_.size() / 2);
    if (!account(current_.capacity() + grown)) return false;
    next_.reserve(grown);  // (exactly: what was accounted)
    next_.resize(grown);
    return true;
  }
  // Thread-safe for distinct ids within reserved room.
  void put(StateId id, const Word* w) {
    std::memcpy(&next_[std::uint64_t{id - next_base_} * words_], w, words_ * sizeof(Word));
  }
  // The level filled (ids from its base up to `end`) becomes the one
  // expanded; the next level starts at `end`.
  void advance(StateId end) {
    std::swap(current_, next_);
    current_base_ = next_base_;
    current_end_ = end;
    next_base_ = end;
  }
  // The states of the level being expanded, and of the one being filled up
  // to `size` (the store's size).
  template <class Fn>
  void for_each(std::uint64_t size, Fn fn) const {
    for (std::uint64_t id = current_base_; id < current_end_; ++id) {
      fn(&current_[(id - current_base_) * words_]);
    }
    for (std::uint64_t id = next_base_; id < size; ++id) fn(&next_[(id - next_base_) * words_]);
  }
  [[nodiscard]] StateId current_base() const { return current_base_; }
  [[nodiscard]] StateId current_end() const { return current_end_; }

 private:
  bool account(std::uint64_t words) {
    const std::uint64_t bytes = words * sizeof(Word);
    if (bytes > accounted_) {
      if (!budget_.acquire(bytes - accounted_)) return false;
      accounted_ = bytes;
    }
    return true;
  }

  std::size_t words_;
  MemoryBudget& budget_;
  std::vector<Word> current_, next_;
  StateId current_base_ = 0, current_end_ = 0, next_base_ = 0;
  std::uint64_t accounted_ = 0;
};

}  // namespace loophole::checker
