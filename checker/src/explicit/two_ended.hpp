// A range of indices [front, back) that threads take from either end, lock
// free: Workers hands out a region's tasks this way (its owner from the
// front, the others from the back), and StateStore a lane's blocks of
// scratch entries. The two ends share one atomic word (front | back << 32),
// so a take from the front and one from the back can never pass each other.
#pragma once

#include <atomic>
#include <cstdint>

namespace loophole::checker {

class alignas(64) TwoEnded {
 public:
  // Not thread-safe: between the phases that take.
  void reset(std::uint64_t front, std::uint64_t back) {
    span_.store(front | back << 32, std::memory_order_relaxed);
  }
  // Takes the first (or, with `back`, the last) index not yet taken; false
  // when none is left.
  bool take(bool back, std::uint64_t& index) {
    std::uint64_t v = span_.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint64_t front = v & 0xFFFFFFFF, end = v >> 32;
      if (front >= end) return false;
      const std::uint64_t taken = back ? v - (std::uint64_t{1} << 32) : v + 1;
      if (span_.compare_exchange_weak(v, taken, std::memory_order_relaxed)) {
        index = back ? end - 1 : front;
        return true;
      }
    }
  }
  // What is left, [front(), back()) (front() >= back() when nothing is).
  [[nodiscard]] std::uint64_t front() const {
    return span_.load(std::memory_order_relaxed) & 0xFFFFFFFF;
  }
  [[nodiscard]] std::uint64_t back() const { return span_.load(std::memory_order_relaxed) >> 32; }

 private:
  std::atomic<std::uint64_t> span_{0};
};

}  // namespace loophole::checker
