// Reserved address space and the arrays that grow in it: growth in place
// (nothing moves, nothing is lost, new elements are zero), every block
// acquired from the memory budget and given back, and refusals that leave
// the array as it was.
#include "explicit/region.hpp"

#include <cstdint>
#include <functional>
#include <vector>

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include "loophole/checker/limits.hpp"

namespace loophole::checker {
namespace {

constexpr std::uint64_t two_mib = std::uint64_t{2} << 20;

// Which of the pages of [p, p + bytes) are backed by memory (mincore).
std::vector<bool> resident(const std::uint8_t* p, std::uint64_t bytes) {
  const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> v((bytes + page - 1) / page);
  EXPECT_EQ(0, mincore(const_cast<std::uint8_t*>(p), bytes, v.data()));
  std::vector<bool> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = (v[i] & 1) != 0;
  return out;
}

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

TEST(Populate, BacksExactlyThePagesAskedFor) {
  const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  Region r;
  r.reserve(two_mib, false);
  ASSERT_NE(nullptr, r.data());
  EXPECT_EQ(std::vector<bool>(8, false), resident(r.data(), 8 * page));
  if (!populate(r.data() + 2 * page, 3 * page)) GTEST_SKIP() << "no MADV_POPULATE_WRITE here";
  EXPECT_EQ((std::vector<bool>{false, false, true, true, true, false, false, false}),
            resident(r.data(), 8 * page));
  EXPECT_EQ(0, r.data()[2 * page]);  // populated memory is zero
  EXPECT_EQ(0, r.data()[5 * page - 1]);
}

TEST(Populate, SplitsLargeRangesOverTheTeam) {
  Region r;
  r.reserve(4 * two_mib, false);
  ASSERT_NE(nullptr, r.data());
  std::vector<std::size_t> tasks;
  const ParallelFor team = [&](std::size_t n, const std::function<void(std::size_t)>& body) {
    for (std::size_t t = n; t-- > 0;) {  // in any order
      tasks.push_back(t);
      body(t);
    }
  };
  const std::uint64_t bytes = 6 * populate_grain + 4096;  // 7 tasks, the last a page
  if (!populate(r.data(), bytes, team)) GTEST_SKIP() << "no MADV_POPULATE_WRITE here";
  EXPECT_EQ((std::vector<std::size_t>{6, 5, 4, 3, 2, 1, 0}), tasks);
  const std::vector<bool> in = resident(r.data(), 4 * two_mib);
  const std::size_t pages = bytes / 4096;
  for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(i < pages, in[i]) << "page " << i;
  // A range of populate_grain or less is one call, on this thread.
  tasks.clear();
  EXPECT_TRUE(populate(r.data() + 4 * two_mib - populate_grain, populate_grain, team));
  EXPECT_TRUE(tasks.empty());
}

TEST(Populate, OnlyTheWholePagesInsideTheRange) {
  const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  Region r;
  r.reserve(two_mib, false);
  ASSERT_NE(nullptr, r.data());
  // From the middle of page 1 to the middle of page 5: pages 2, 3 and 4.
  if (!populate(r.data() + page + 100, 4 * page)) GTEST_SKIP() << "no MADV_POPULATE_WRITE here";
  EXPECT_EQ((std::vector<bool>{false, false, true, true, true, false, false}),
            resident(r.data(), 7 * page));
  EXPECT_TRUE(populate(r.data() + 6 * page + 1, page - 2));  // no whole page: nothing
  EXPECT_EQ((std::vector<bool>{false, false, true, true, true, false, false}),
            resident(r.data(), 7 * page));
}

TEST(Populate, ReserveBackedBacksWhatTheVectorAdds) {
  std::vector<std::uint64_t> v(10, 7);
  reserve_backed(v, 1'000'000);  // 8 MB: the allocator maps fresh pages
  ASSERT_GE(v.capacity(), 1'000'000U);
  EXPECT_EQ(std::vector<std::uint64_t>(10, 7), v);
  const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(v.data());
  const auto addr = reinterpret_cast<std::uintptr_t>(bytes);
  const auto first = (addr + 10 * sizeof(std::uint64_t) + page - 1) / page * page;
  const auto last = (addr + v.capacity() * sizeof(std::uint64_t)) / page * page;
  const std::vector<bool> in = resident(bytes + (first - addr), last - first);
  Region probe;
  probe.reserve(two_mib, false);
  if (!populate(probe.data(), page)) GTEST_SKIP() << "no MADV_POPULATE_WRITE here";
  EXPECT_EQ(std::vector<bool>(in.size(), true), in);
  const auto* before = v.data();
  reserve_backed(v, 500);  // within the capacity: nothing changes
  EXPECT_EQ(before, v.data());
}

// A freed block of 128 KiB or more leaves the process. (glibc's default
// would keep the 4 MiB below: freeing the 8 MiB block raises its mmap
// threshold to 8 MiB, and the 4 MiB then comes from the heap and stays.)
TEST(ReturnFreedMemory, FreedLargeBlocksLeaveTheProcess) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizer's allocator keeps freed memory itself";
#else
  return_freed_memory();
  { const std::vector<std::uint8_t> big(std::size_t{8} << 20, 1); }
  const std::uint64_t before = resident_bytes();
  {
    const std::vector<std::uint8_t> v(std::size_t{4} << 20, 1);
    EXPECT_GE(resident_bytes(), before + (std::uint64_t{3} << 20));
  }
  EXPECT_LE(resident_bytes(), before + (std::uint64_t{1} << 20));
#endif
}

// afford() may judge a small request by the watcher's last reading, but
// near the limit it reads the size afresh: a request that does not fit
// is refused and stops the run, whatever was read before.
TEST(RunLimitsAfford, SmallRequestsFarBelowTheLimitOnlyNearItReadsAfresh) {
  const std::uint64_t now = resident_bytes();
  ASSERT_GT(now, 0U);
  {
    RunLimits far(now + (std::uint64_t{1} << 30), std::nullopt, nullptr);
    EXPECT_TRUE(far.afford(4096));
    EXPECT_TRUE(far.afford(std::uint64_t{512} << 20));  // large: read afresh, fits
    EXPECT_FALSE(far.stop().load());
  }
  RunLimits near(now + (std::uint64_t{8} << 20), std::nullopt, nullptr);
  EXPECT_TRUE(near.afford(4096));
  EXPECT_FALSE(near.stop().load());
  // 512 KiB fit now; the 16 MiB block below takes the room, and a small
  // request is then refused although the last reading had room for it.
  EXPECT_TRUE(near.afford(std::uint64_t{512} << 10));
  const std::vector<std::uint8_t> block(std::size_t{16} << 20, 1);
  EXPECT_FALSE(near.afford(std::uint64_t{512} << 10));
  EXPECT_EQ(Completion::memory_limit, near.reason());
}

TEST(Backing, BacksWhatWasAddedInGrainsOverTheTeamInOnePhase) {
  const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  Region r;
  r.reserve(4 * two_mib, false);
  ASSERT_NE(nullptr, r.data());
  Region probe;
  probe.reserve(two_mib, false);
  if (!populate(probe.data(), page)) GTEST_SKIP() << "no MADV_POPULATE_WRITE here";
  int phases = 0;
  std::vector<std::size_t> tasks;
  const ParallelFor team = [&](std::size_t n, const std::function<void(std::size_t)>& body) {
    ++phases;
    for (std::size_t t = n; t-- > 0;) {  // in any order
      tasks.push_back(t);
      body(t);
    }
  };
  Backing b;
  // Two and a half grains, then one page from the middle of page 100 on
  // (only whole pages: none), then pages 600..602 (one task).
  b.add(r.data(), 2 * populate_grain + populate_grain / 2);
  b.add(r.data() + 100 * page + 1, page);
  b.add(r.data() + 600 * page, 3 * page);
  EXPECT_EQ(2 * populate_grain + populate_grain / 2 + 3 * page, b.bytes());
  EXPECT_EQ(std::vector<bool>(4 * two_mib / page, false), resident(r.data(), 4 * two_mib));
  EXPECT_TRUE(b.run(team));
  EXPECT_EQ(1, phases);
  EXPECT_EQ((std::vector<std::size_t>{3, 2, 1, 0}), tasks);
  EXPECT_EQ(0U, b.bytes());
  const std::vector<bool> in = resident(r.data(), 4 * two_mib);
  const std::uint64_t first = (2 * populate_grain + populate_grain / 2) / page;
  for (std::uint64_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(i < first || (i >= 600 && i < 603), in[i]) << "page " << i;
  }
  // Run again: nothing left to back, no phase.
  EXPECT_TRUE(b.run(team));
  EXPECT_EQ(1, phases);
}

TEST(Backing, OneTaskOrNoTeamRunsOnThisThreadAndClearForgets) {
  const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  Region r;
  r.reserve(two_mib, false);
  ASSERT_NE(nullptr, r.data());
  Region probe;
  probe.reserve(two_mib, false);
  if (!populate(probe.data(), page)) GTEST_SKIP() << "no MADV_POPULATE_WRITE here";
  int phases = 0;
  const ParallelFor team = [&](std::size_t n, const std::function<void(std::size_t)>& body) {
    ++phases;
    for (std::size_t t = 0; t < n; ++t) body(t);
  };
  Backing b;
  b.add(r.data(), 2 * page);
  EXPECT_TRUE(b.run(team));  // one task: on this thread
  EXPECT_EQ(0, phases);
  b.add(r.data() + 10 * page, 3 * populate_grain);
  EXPECT_TRUE(b.run());  // no team: one call
  EXPECT_EQ(0, phases);
  b.add(r.data() + two_mib - 2 * page, 2 * page);
  b.clear();
  EXPECT_EQ(0U, b.bytes());
  EXPECT_TRUE(b.run(team));
  const std::vector<bool> in = resident(r.data(), two_mib);
  for (std::uint64_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(i < 2 || (i >= 10 && i < 10 + 3 * populate_grain / page), in[i]) << "page " << i;
  }
}

TEST(StableArray, GrowthLeftToABackingIsBackedWhenItRuns) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StableArray<std::uint32_t, 10> a;  // blocks of 4 KiB
  Backing later;
  ASSERT_TRUE(a.ensure(3000, budget, later));
  EXPECT_EQ(3072U, a.capacity());
  EXPECT_EQ(3 * 4096U, later.bytes());
  const auto* base = reinterpret_cast<const std::uint8_t*>(&a[0]);
  EXPECT_EQ(std::vector<bool>(4, false), resident(base, std::uint64_t{4} * 4096));
  if (!later.run()) GTEST_SKIP() << "no MADV_POPULATE_WRITE here";
  EXPECT_EQ((std::vector<bool>{true, true, true, false}), resident(base, std::uint64_t{4} * 4096));
  ASSERT_TRUE(a.ensure(3072, budget, later));  // within the capacity: nothing
  EXPECT_EQ(0U, later.bytes());
  // Refused by the budget: what did fit is still left to back.
  MemoryBudget small(8192);
  StableArray<std::uint32_t, 10> b;
  EXPECT_FALSE(b.ensure(4096, small, later));
  EXPECT_EQ(2048U, b.capacity());
  EXPECT_EQ(8192U, later.bytes());
}

TEST(StableArray, WhatItGrowsIsBackedAtOnce) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StableArray<std::uint32_t, 10> a;  // blocks of 4 KiB
  ASSERT_TRUE(a.ensure(3000, budget));
  if (!populate(reinterpret_cast<std::uint8_t*>(&a[0]), 4096)) {
    GTEST_SKIP() << "no MADV_POPULATE_WRITE here";
  }
  const auto* base = reinterpret_cast<const std::uint8_t*>(&a[0]);
  EXPECT_EQ((std::vector<bool>{true, true, true, false}), resident(base, std::uint64_t{4} * 4096));
  ASSERT_TRUE(a.ensure(3072, budget));  // within the capacity: nothing more
  EXPECT_EQ((std::vector<bool>{true, true, true, false}), resident(base, std::uint64_t{4} * 4096));
  ASSERT_TRUE(a.ensure(3073, budget) && a.ensure(4096, budget));
  EXPECT_EQ((std::vector<bool>{true, true, true, true, false}),
            resident(base, std::uint64_t{5} * 4096));
}

}  // namespace
}  // namespace loophole::checker
