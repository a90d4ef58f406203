// Address space reserved once, and arrays that grow inside it without ever
// moving, each step backed by memory as it is granted (populate()).
//
// The explicit engine's big arrays (packed states, parents, edges, the hash
// index) grow to hundreds of megabytes in steps. A Region reserves the
// address space for the largest size the memory budget allows (no memory is
// used until touched) and lets an array grow in place: nothing is copied,
// and a doubled hash index reuses the pages of the old table instead of
// touching fresh memory for all of the new one (first touches are what a
// virtual machine's host makes expensive). What an array grows by is
// populated at once (on the search's team), not faulted in page by page as
// it is first written: on the VMs we measure on, 2 us a page instead of 10
// (operators at 13.8 M states: 102,600 faults down to 4,600, and half the
// system time). The memory budget still sees every growth step: a
// StableArray acquires its blocks from the budget before it uses them.
//
// Huge pages are asked for only where they pay: the hash index, read at
// random (with 4 KiB pages nearly every probe of a large table misses the
// TLB). The arrays are written in order (the arena is read at random only by
// the probes whose fingerprint matches); on the VMs we measure on, huge
// pages made their first touch cost up to ten times as much system time,
// depending on how much fresh memory the guest had to hand out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "loophole/checker/memory.hpp"

#include "memory_budget.hpp"

namespace loophole::checker {

class Region {
 public:
  Region() = default;
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  ~Region() { reset(); }

  // Reserves at least `bytes` of address space (rounded up to 2 MiB), or as
  // much as the system grants when it refuses that (size() says how much;
  // 0 when nothing). Drops an earlier reservation first. With `huge`, asks
  // for transparent huge pages beyond the first 2 MiB.
  void reserve(std::uint64_t bytes, bool huge);
  void reset();  // gives the address space and its memory back

  [[nodiscard]] std::uint8_t* data() const { return data_; }
  [[nodiscard]] std::uint64_t size() const { return size_; }

 private:
  void* mapping_ = nullptr;  // what mmap returned (data_ is aligned to 2 MiB inside)
  std::uint64_t mapped_ = 0;
  std::uint8_t* data_ = nullptr;
  std::uint64_t size_ = 0;
};

// Fresh memory to back together: what a search chunk grows its arrays by
// (the arena, the parents, the edges: a few 64 KiB blocks each) is
// collected while they grow and backed in one phase of the search's team, in
// tasks of populate_grain bytes. Backed array by array, a growth of one
// grain (then 256 KiB) or less ran on one thread while the other waited: at
// cosmere's default scope 29 of its 53 MB, 8 ms of a 0.22 s search on two
// threads (bench/RESULTS.md, 2026-11-27 midday). populate() is one range
// backed so.
class Backing {
 public:
  // The whole pages inside [p, p + bytes), as populate() backs them.
  void add(void* p, std::size_t bytes);
  // Backs what was added since the last run() and forgets it: over
  // `parallel` when given and there are two tasks or more, else one system
  // call per range. False where the kernel cannot (see populate()).
  bool run(const ParallelFor& parallel = {});
  [[nodiscard]] std::size_t bytes() const;  // added and not yet backed
  void clear() { ranges_.clear(); }         // forgets it (it faults in when touched)

 private:
  struct Range {
    std::uint8_t* at;
    std::size_t bytes;
  };
  std::vector<Range> ranges_, tasks_;
};

// An array of trivial T that grows in place in blocks of 2^Shift elements,
// each acquired from the memory budget, up to what the budget allows.
// Elements never move, so threads may read them while the owner grows the
// array in a serial phase. New elements are zero (fresh pages).
template <class T, unsigned Shift = 16>
class StableArray {
 public:
  static constexpr std::uint64_t block_size = std::uint64_t{1} << Shift;

  StableArray() = default;
  StableArray(const StableArray&) = delete;
  StableArray& operator=(const StableArray&) = delete;
  ~StableArray() { clear(); }

  T& operator[](std::uint64_t i) { return data()[i]; }
  const T& operator[](std::uint64_t i) const { return data()[i]; }

  [[nodiscard]] std::uint64_t capacity() const { return capacity_; }
  [[nodiscard]] std::uint64_t bytes() const { return capacity_ * sizeof(T); }

  // Grows to hold at least n elements, backed by memory at once (populate(),
  // on `parallel` when given); false when the budget (or the address space
  // reserved for it) refuses a block.
  [[nodiscard]] bool ensure(std::uint64_t n, MemoryBudget& budget,
                            const ParallelFor& parallel = {}) {
    Backing now;
    const bool ok = ensure(n, budget, now);
    now.run(parallel);
    return ok;
  }
  // The same, leaving what it grows to `later` to back.
  [[nodiscard]] bool ensure(std::uint64_t n, MemoryBudget& budget, Backing& later) {
    const std::uint64_t had = capacity_;
    bool ok = true;
    while (capacity_ < n) {
      if (region_.data() == nullptr) region_.reserve(budget.limit(), false);
      if ((capacity_ + block_size) * sizeof(T) > region_.size() ||
          !budget.acquire(block_size * sizeof(T))) {
        ok = false;
        break;
      }
      budget_ = &budget;
      capacity_ += block_size;
    }
    if (capacity_ > had) later.add(region_.data() + had * sizeof(T), (capacity_ - had) * sizeof(T));
    return ok;
  }

  // The same past the budget's limit (MemoryBudget::force), backed at once;
  // false only when the address space reserved for it is too small.
  [[nodiscard]] bool ensure_anyway(std::uint64_t n, MemoryBudget& budget) {
    if (ensure(n, budget)) return true;
    const std::uint64_t had = capacity_;
    while (capacity_ < n) {
      if (region_.data() == nullptr) region_.reserve(budget.limit(), false);
      if ((capacity_ + block_size) * sizeof(T) > region_.size()) break;
      budget.force(block_size * sizeof(T));
      budget_ = &budget;
      capacity_ += block_size;
    }
    Backing now;
    if (capacity_ > had) now.add(region_.data() + had * sizeof(T), (capacity_ - had) * sizeof(T));
    now.run({});
    return capacity_ >= n;
  }
  void clear() {
    if (budget_ != nullptr) budget_->release(bytes());
    capacity_ = 0;
    region_.reset();
  }

 private:
  [[nodiscard]] T* data() const { return reinterpret_cast<T*>(region_.data()); }

  Region region_;
  std::uint64_t capacity_ = 0;
  MemoryBudget* budget_ = nullptr;
};

}  // namespace loophole::checker
