// An array that grows in fixed blocks and never moves what it holds. The
// explicit engine keeps its big per-state and per-edge arrays in these: growth
// costs one block at a time (no doubling spike of a std::vector, so the
// memory budget sees exactly what is allocated), and threads may read
// elements while the owner appends blocks in a serial phase.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "memory_budget.hpp"

namespace loophole::checker {

template <class T, unsigned Shift = 16>
class Segmented {
 public:
  static constexpr std::uint64_t block_size = std::uint64_t{1} << Shift;

  Segmented() = default;
  Segmented(const Segmented&) = delete;
  Segmented& operator=(const Segmented&) = delete;
  ~Segmented() { clear(); }

  T& operator[](std::uint64_t i) { return blocks_[i >> Shift][i & (block_size - 1)]; }
  const T& operator[](std::uint64_t i) const { return blocks_[i >> Shift][i & (block_size - 1)]; }

  [[nodiscard]] std::uint64_t capacity() const { return blocks_.size() * block_size; }
  [[nodiscard]] std::uint64_t bytes() const { return capacity() * sizeof(T); }

  // Grows to hold at least n elements; false when the budget refuses a block.
  [[nodiscard]] bool ensure(std::uint64_t n, MemoryBudget& budget) {
    while (capacity() < n) {
      if (!budget.acquire(block_size * sizeof(T))) return false;
      budget_ = &budget;
      blocks_.emplace_back(new T[block_size]);
    }
    return true;
  }

  void clear() {
    if (budget_ != nullptr) budget_->release(bytes());
    blocks_.clear();
  }

 private:
  std::vector<std::unique_ptr<T[]>> blocks_;
  MemoryBudget* budget_ = nullptr;
};

}  // namespace loophole::checker
