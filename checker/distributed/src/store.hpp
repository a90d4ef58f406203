// The states a rank owns (see run.hpp): packed, in chunks, with an
// open-addressing index. Private to loophole::distributed.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "wire.hpp"

namespace loophole::distributed::detail {

// The states a rank owns, packed, in chunks of 2^16 states (so the store
// never holds an old and a new copy of itself while it grows, as a vector
// doubling would), each with its parent's global id; an open-addressing
// table of 32-bit slots (id + 1) at a load of at most 3/4 indexes them.
class Store {
 public:
  Store(std::size_t words, std::size_t bytes) : words_(words), bytes_(bytes), slots_(1024, 0) {}

  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] std::uint64_t parent(std::size_t i) const {
    return parents_[i >> k_chunk_bits][i & k_chunk_mask];
  }
  // The packed state i into words() words.
  void words_of(std::size_t i, std::uint64_t* out) const {
    out[words_ - 1] = 0;
    std::memcpy(out, row(i), bytes_);
  }
  // Bytes held: the chunks and the index.
  [[nodiscard]] std::uint64_t memory() const {
    return rows_.size() *
               ((bytes_ + 2 * sizeof(std::uint64_t) + sizeof(std::uint32_t)) << k_chunk_bits) +
           slots_.size() * sizeof(std::uint32_t);
  }

  void set_parent(std::size_t i, std::uint64_t parent) {
    parents_[i >> k_chunk_bits][i & k_chunk_mask] = parent;
  }
  // Its number in the single-process order, and the index of the move from
  // its parent.
  [[nodiscard]] std::uint64_t num(std::size_t i) const {
    return nums_[i >> k_chunk_bits][i & k_chunk_mask];
  }
  void set_num(std::size_t i, std::uint64_t n) { nums_[i >> k_chunk_bits][i & k_chunk_mask] = n; }
  [[nodiscard]] std::uint32_t parent_index(std::size_t i) const {
    return parent_indices_[i >> k_chunk_bits][i & k_chunk_mask];
  }
  void set_parent_index(std::size_t i, std::uint32_t index) {
    parent_indices_[i >> k_chunk_bits][i & k_chunk_mask] = index;
  }

  // Adds the packed state w unless present: its local number, and whether
  // it was added.
  std::pair<std::size_t, bool> insert(const std::uint64_t* w, std::uint64_t hash,
                                      std::uint64_t parent) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const std::uint32_t slot = slots_[i];
      if (slot == 0) {
        if ((size_ & k_chunk_mask) == 0) {
          rows_.push_back(std::make_unique<std::uint8_t[]>(bytes_ << k_chunk_bits));
          parents_.push_back(std::make_unique<std::uint64_t[]>(std::size_t{1} << k_chunk_bits));
          nums_.push_back(std::make_unique<std::uint64_t[]>(std::size_t{1} << k_chunk_bits));
          parent_indices_.push_back(
              std::make_unique<std::uint32_t[]>(std::size_t{1} << k_chunk_bits));
        }
        std::memcpy(rows_.back().get() + (size_ & k_chunk_mask) * bytes_, w, bytes_);
        parents_.back()[size_ & k_chunk_mask] = parent;
        slots_[i] = static_cast<std::uint32_t>(++size_);
        return {size_ - 1, true};
      }
      if (std::memcmp(row(slot - 1), w, bytes_) == 0) return {slot - 1, false};
    }
  }

 private:
  static constexpr unsigned k_chunk_bits = 16;
  static constexpr std::size_t k_chunk_mask = (std::size_t{1} << k_chunk_bits) - 1;

  [[nodiscard]] const std::uint8_t* row(std::size_t i) const {
    return rows_[i >> k_chunk_bits].get() + (i & k_chunk_mask) * bytes_;
  }
  void grow() {
    std::vector<std::uint32_t> next(slots_.size() * 2, 0);
    const std::size_t mask = next.size() - 1;
    std::vector<std::uint64_t> w(words_);
    for (std::size_t id = 0; id < size_; ++id) {
      words_of(id, w.data());
      std::size_t i = hash_words(w.data(), words_) & mask;
      while (next[i] != 0) i = (i + 1) & mask;
      next[i] = static_cast<std::uint32_t>(id + 1);
    }
    slots_.swap(next);
  }

  std::size_t words_, bytes_;
  std::size_t size_ = 0;
  std::vector<std::unique_ptr<std::uint8_t[]>> rows_;
  std::vector<std::unique_ptr<std::uint64_t[]>> parents_, nums_;
  std::vector<std::unique_ptr<std::uint32_t[]>> parent_indices_;
  std::vector<std::uint32_t> slots_;
};

}  // namespace loophole::distributed::detail
