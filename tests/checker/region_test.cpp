// Reserved address space and the arrays that grow in it: growth in place
// (nothing moves, nothing is lost, new elements are zero), every block
// acquired from the memory budget and given back, and refusals that leave
// the array as it was.
#include "explicit/region.hpp"

#include <cstdint>

#include <gtest/gtest.h>

namespace loophole::checker {
namespace {

constexpr std::uint64_t two_mib = std::uint64_t{2} << 20;

TEST(Region, ReservesAlignedAddressSpaceWithoutUsingIt) {
  Region r;
  EXPECT_EQ(nullptr, r.data());
  EXPECT_EQ(0U, r.size());
  r.reserve(5'000'000, false);
  ASSERT_NE(nullptr, r.data());
  EXPECT_EQ(3 * two_mib, r.size());  // rounded up to 2 MiB
  EXPECT_EQ(0U, reinterpret_cast<std::uintptr_t>(r.data()) % two_mib);
  EXPECT_EQ(0, r.data()[r.size() - 1]);  // untouched memory reads as zero
  r.data()[r.size() - 1] = 7;
  EXPECT_EQ(7, r.data()[r.size() - 1]);
  r.reset();
  EXPECT_EQ(nullptr, r.data());
  EXPECT_EQ(0U, r.size());
}

TEST(Region, AnAbsurdSizeGetsWhatTheSystemGrants) {
  Region r;
  r.reserve(std::uint64_t{1} << 62, true);
  ASSERT_NE(nullptr, r.data());
  EXPECT_GE(r.size(), two_mib);
  EXPECT_LE(r.size(), std::uint64_t{1} << 46);  // never more than 64 TiB
  EXPECT_EQ(0U, r.size() % two_mib);
}

TEST(StableArray, GrowsInPlaceBlockByBlock) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StableArray<std::uint32_t, 10> a;  // blocks of 1024 elements
  EXPECT_EQ(0U, a.capacity());
  ASSERT_TRUE(a.ensure(1, budget));
  EXPECT_EQ(1024U, a.capacity());
  EXPECT_EQ(4096U, budget.used());
  std::uint32_t* first = &a[0];
  for (std::uint32_t i = 0; i < 1024; ++i) a[i] = i * 3 + 1;
  ASSERT_TRUE(a.ensure(5000, budget));
  EXPECT_EQ(5120U, a.capacity());
  EXPECT_EQ(5120U * 4, budget.used());
  EXPECT_EQ(first, &a[0]);  // nothing moved
  for (std::uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(i * 3 + 1, a[i]);
  for (std::uint32_t i = 1024; i < 5120; ++i) ASSERT_EQ(0U, a[i]);
  ASSERT_TRUE(a.ensure(100, budget));  // already there: no change
  EXPECT_EQ(5120U, a.capacity());
  a.clear();
  EXPECT_EQ(0U, a.capacity());
  EXPECT_EQ(0U, budget.used());
  EXPECT_EQ(5120U * 4, budget.peak());
}

TEST(StableArray, TheBudgetRefusesABlockWithoutLosingTheOthers) {
  MemoryBudget budget(10'000);  // two blocks of 4 KiB fit, a third does not
  StableArray<std::uint32_t, 10> a;
  ASSERT_TRUE(a.ensure(2048, budget));
  a[2047] = 42;
  EXPECT_FALSE(a.ensure(2049, budget));
  EXPECT_EQ(2048U, a.capacity());
  EXPECT_EQ(8192U, budget.used());
  EXPECT_EQ(42U, a[2047]);
}

}  // namespace
}  // namespace loophole::checker
