// LineVector: the buffers the search's workers write all the time start on a
// cache line and take whole lines, so that nothing another thread allocates
// next to them shares a line with them (line_vector.hpp: the second search
// of a process ran 20-60% slower on two threads without it).
#include "explicit/line_vector.hpp"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <malloc.h>

#include "explicit/bfs.hpp"

namespace loophole::checker {
namespace {

constexpr std::uintptr_t line = 64;

// The block starts on a line and the heap counts every byte up to the end of
// its last line as the block's own (malloc_usable_size), so nothing else is
// placed on those lines.
template <class T>
void expect_lines_of_its_own(std::size_t n) {
  LineAllocator<T> alloc;
  T* p = alloc.allocate(n);
  EXPECT_EQ(0U, reinterpret_cast<std::uintptr_t>(p) % line) << n << " elements";
  const std::size_t whole = (n * sizeof(T) + line - 1) / line * line;
  EXPECT_GE(malloc_usable_size(p), whole) << n << " elements of " << sizeof(T) << " bytes";
  alloc.deallocate(p, n);
}

TEST(LineVector, AllocationsStartOnALineAndTakeWholeLines) {
  for (std::size_t n : {1, 2, 3, 7, 13, 31, 64, 100}) {
    expect_lines_of_its_own<char>(n);
    expect_lines_of_its_own<std::uint16_t>(n);
    expect_lines_of_its_own<MoveInfo>(n);
    expect_lines_of_its_own<std::uint64_t>(n);
  }
}

TEST(LineVector, BehavesAsAVector) {
  LineVector<std::int32_t> v;
  for (int i = 0; i < 1000; ++i) v.push_back(i);
  ASSERT_EQ(1000U, v.size());
  EXPECT_EQ(0U, reinterpret_cast<std::uintptr_t>(v.data()) % line);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(i, v[static_cast<std::size_t>(i)]);
  LineVector<std::int32_t> copy = v;
  EXPECT_EQ(v, copy);
  EXPECT_NE(v.data(), copy.data());
  EXPECT_THROW((void)LineAllocator<std::uint64_t>().allocate(static_cast<std::size_t>(-1) / 4),
               std::bad_array_new_length);
}

// The successor buffers a generator fills for the search are such vectors.
TEST(LineVector, FlatSuccessorsBuffersAreLineAligned) {
  FlatSuccessors out;
  out.fields = 3;
  for (int i = 0; i < 5; ++i) out.add(MoveInfo{})[0] = i;
  EXPECT_EQ(0U, reinterpret_cast<std::uintptr_t>(out.states.data()) % line);
  EXPECT_EQ(0U, reinterpret_cast<std::uintptr_t>(out.moves.data()) % line);
  EXPECT_EQ(0U, reinterpret_cast<std::uintptr_t>(out.dirty.data()) % line);
  EXPECT_EQ(4, out.state(4)[0]);
}

}  // namespace
}  // namespace loophole::checker
