// Fresh memory backed at once. The first touch of each 4 KiB page of fresh
// memory is a page fault, and on the virtual machines we measure on a fault
// costs about 10 us, most of it the trap itself: a search or an analysis
// that fills a few hundred megabytes spends a second in the kernel that way.
// Populating the same pages in one system call costs about 2 us a page
// (bench/RESULTS.md, 2026-11-25 evening). The engine's arrays populate what
// they grow; the analyses reserve their large arrays backed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace loophole::checker {

// Runs body(0..tasks-1), possibly on several threads (the search's team).
using ParallelFor =
    std::function<void(std::size_t tasks, const std::function<void(std::size_t)>& body)>;

// Backs the whole pages within [p, p + bytes) with memory now: one system
// call, or one per populate_grain bytes split over `parallel` when given and
// the range is larger. False where the kernel cannot (before Linux 5.14):
// the pages then fault in as they are touched, as without it.
bool populate(void* p, std::size_t bytes, const ParallelFor& parallel = {});
// (64 KiB: a search chunk grows each of its arrays by a few such blocks, and
// two threads should share all of it evenly; bench/RESULTS.md, 2026-11-27
// midday.)
inline constexpr std::size_t populate_grain = std::size_t{1} << 16;

// Makes the allocator hand every block of 128 KiB or more back to the
// system when it is freed (glibc's mmap threshold, fixed: by default it
// rises to 32 MiB after the first such block is freed, and the analyses'
// per-state arrays, freed one after another, then stayed resident below
// later ones: cosmere at 7.7 M states kept 36 MiB it no longer used, and
// the next analysis's arrays came on top). Called first thing by the
// commands and the benchmarks; a no-op where the allocator is not glibc's.
void return_freed_memory();

// v.reserve(n) with the storage it adds backed at once: for an array that
// is then filled to about n elements (populating what is never used costs
// more than it saves). Below 64 KiB it only reserves: the allocator serves
// such blocks from memory it has used before, and a system call would cost
// more.
template <class Vector>
void reserve_backed(Vector& v, std::size_t n) {
  if (n <= v.capacity()) return;
  v.reserve(n);
  const std::size_t added = (v.capacity() - v.size()) * sizeof(typename Vector::value_type);
  if (added >= std::size_t{1} << 16) populate(v.data() + v.size(), added);
}

// A vector of n copies of value, its storage backed at once.
template <class T>
std::vector<T> backed(std::size_t n, const T& value = T{}) {
  std::vector<T> v;
  reserve_backed(v, n);
  v.assign(n, value);
  return v;
}

}  // namespace loophole::checker
