// Vectors whose elements have their cache lines to themselves, for the
// buffers each worker of the search writes all the time (its source state,
// the generator's scratch, a task's successors). A buffer from the ordinary
// heap may share a line with another thread's: glibc keeps freed small
// chunks in a cache of the thread that frees them, whatever thread they came
// from, so once one search's buffers are freed, the next search's workers
// get chunks that sit side by side. Measured: two threads' expand phase
// 0.15 s in a process's first search of operators and 0.18-0.24 s in every
// later one (the same with the per-thread cache turned off: 0.15 s each
// time); `loophole check` runs one search per ruleset.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace loophole::checker {

template <class T>
struct LineAllocator {
  using value_type = T;
  static constexpr std::size_t line = 64;

  LineAllocator() = default;
  template <class U>
  explicit LineAllocator(const LineAllocator<U>& /*other*/) noexcept {}

  // Whole lines, from a line boundary.
  [[nodiscard]] T* allocate(std::size_t n) {
    if (n > (static_cast<std::size_t>(-1) - line) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = (n * sizeof(T) + line - 1) / line * line;
    return static_cast<T*>(::operator new (bytes, std::align_val_t{line}));
  }
  void deallocate(T* p, std::size_t /*n*/) noexcept {
    ::operator delete (p, std::align_val_t{line});
  }

  template <class U>
  friend bool operator==(const LineAllocator& /*a*/, const LineAllocator<U>& /*b*/) noexcept {
    return true;
  }
};

template <class T>
using LineVector = std::vector<T, LineAllocator<T>>;

}  // namespace loophole::checker
