// Collapsed states (explicit/collapse.hpp): a StateStore that interns each
// component of its states keeps ids, lookups and loaded states exactly as
// a plain one does, through record widenings, on both insertion paths
// (sequential, and claims committed on several threads), stores a state in
// the bits its components' indices need, and goes back to packed states
// when its tables would cost more than they save.
#include "explicit/collapse.hpp"

#include <functional>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "explicit/state_store.hpp"

namespace loophole::checker {
namespace {

// Six fields: a (0..999) and b (0..3) of component 0, c (0..99) of
// component 1, d (0..1,000,000) and e (0..7) of component 2, and a constant.
Layout six_fields() {
  Layout l;
  l.fields = {{"a", 0, 999},       {"b", 0, 3}, {"c", 0, 99},
              {"d", 0, 1'000'000}, {"e", 0, 7}, {"k", 5, 5}};
  l.data_fields = 6;
  return l;
}
const std::vector<int> components = {0, 0, 1, 2, 2, 1};

// State n (< 350,000): a = n % 350, b = n % 3, c = n % 50, d = n / 350,
// e = n % 5; (a, d) tells n, so the states are distinct.
StateVec values_of(std::uint64_t n) {
  return {static_cast<std::int32_t>(n % 350), static_cast<std::int32_t>(n % 3),
          static_cast<std::int32_t>(n % 50),  static_cast<std::int32_t>(n / 350),
          static_cast<std::int32_t>(n % 5),   5};
}

std::vector<Word> packed(const Packer& p, std::uint64_t n) {
  std::vector<Word> w(p.words());
  p.pack(values_of(n), w.data());
  return w;
}

std::uint64_t hash_of(const std::vector<Word>& w) { return hash_words(w.data(), w.size()); }

TEST(Collapse, SequentialInsertionKeepsIdsAndStatesThroughWidenings) {
  const Packer p(six_fields());
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore store(p.words(), p.bytes(), budget, false);
  store.collapse(p, components);
  ASSERT_NE(nullptr, store.collapsed());
  EXPECT_EQ(0U, store.stride());  // one state, nothing to tell apart yet
  constexpr std::uint64_t n = 20'000;
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto w = packed(p, i);
    const auto r = store.insert(w.data(), hash_of(w), no_state);
    ASSERT_TRUE(r.fresh) << i;
    ASSERT_EQ(i, r.id);
  }
  // Component 0 (a, b): 350 x 3 = 1050 values (11 bits); 1 (c): 50 (6
  // bits); 2 (d, e): at most 58 x 5 = 290 (9 bits); packed: 42 bits.
  const Collapse& c = *store.collapsed();
  EXPECT_EQ(3U, c.components());
  EXPECT_LE(c.layout().bytes(), (11U + 6 + 9 + 7) / 8);
  EXPECT_EQ((c.layout().bits + 7) / 8, store.stride());
  EXPECT_LT(store.stride(), p.bytes());
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto w = packed(p, i);
    ASSERT_EQ(i, store.find(w.data(), hash_of(w))) << i;
    std::vector<Word> back(p.words());
    store.load(static_cast<StateId>(i), back.data());
    ASSERT_EQ(w, back) << i;
  }
  EXPECT_EQ(store.state_memory() + store.index_memory(), budget.used());
  store.release_index();
  std::vector<Word> back(p.words());
  store.load(12'345, back.data());
  EXPECT_EQ(packed(p, 12'345), back);
  EXPECT_EQ(store.state_memory(), budget.used());
}

// Two fields, x (0..1000) of component 0 and y (0..1000) of component 1.
Layout two_fields() {
  Layout l;
  l.fields = {{"x", 0, 1000}, {"y", 0, 1000}};
  l.data_fields = 2;
  return l;
}

std::vector<Word> packed_xy(const Packer& p, std::int32_t x, std::int32_t y) {
  std::vector<Word> w(p.words());
  p.pack({x, y}, w.data());
  return w;
}

// A widening shares the bits left in the record's last byte between the
// tables, those that grew first, so that they grow that far without a
// re-lay (intern says false); the record never takes more bytes than the
// tables need.
TEST(Collapse, AWideningLeavesTheLastBytesBitsToTheTablesGrowing) {
  const Packer p(two_fields());
  MemoryBudget budget(std::uint64_t{1} << 30);
  Collapse c(p, {0, 1}, budget);
  Collapse::Ids ids{};
  Collapse::Layout old;
  EXPECT_FALSE(c.intern(packed_xy(p, 0, 7).data(), ids, old));  // one value each: no bits
  EXPECT_EQ(0U, c.layout().bits);
  EXPECT_TRUE(c.intern(packed_xy(p, 1, 7).data(), ids, old));
  EXPECT_EQ(0U, old.width[0]);
  // x needs 1 bit and y none: x takes the byte.
  EXPECT_EQ(8U, c.layout().width[0]);
  EXPECT_EQ(0U, c.layout().width[1]);
  EXPECT_EQ(1U, c.layout().bytes());
  for (std::int32_t x = 2; x < 256; ++x) {
    ASSERT_FALSE(c.intern(packed_xy(p, x, 7).data(), ids, old)) << x;
    ASSERT_EQ(static_cast<std::uint32_t>(x), ids[0]);
  }
  EXPECT_TRUE(c.intern(packed_xy(p, 256, 7).data(), ids, old));
  EXPECT_EQ(16U, c.layout().width[0]);  // 9 bits needed, 2 bytes
  EXPECT_EQ(2U, c.layout().bytes());
  // y grows too: the re-lay shares the 6 spare bits between the tables
  // past one value, y (growing) first: x 9 + 3, y 1 + 3.
  EXPECT_TRUE(c.intern(packed_xy(p, 3, 8).data(), ids, old));
  EXPECT_EQ(12U, c.layout().width[0]);
  EXPECT_EQ(4U, c.layout().width[1]);
  EXPECT_EQ(2U, c.layout().bytes());
  for (std::int32_t y = 9; y < 7 + 16; ++y) {
    ASSERT_FALSE(c.intern(packed_xy(p, 3, y).data(), ids, old)) << y;
  }
  EXPECT_TRUE(c.intern(packed_xy(p, 3, 7 + 16).data(), ids, old));
  EXPECT_EQ(10U, c.layout().width[0]);  // 9 + 5 bits needed: 2 spare
  EXPECT_EQ(6U, c.layout().width[1]);
  EXPECT_EQ(2U, c.layout().bytes());
}

// find() near a parent's record gives the indices a plain find() gives,
// whichever components differ from the parent's, and fails alike on a
// value not interned.
TEST(Collapse, FindNearAParentAgreesWithAPlainFind) {
  const Packer p(six_fields());
  MemoryBudget budget(std::uint64_t{1} << 30);
  Collapse c(p, components, budget);
  Collapse::Ids ids{};
  Collapse::Layout old;
  constexpr std::uint64_t n = 2000;
  for (std::uint64_t i = 0; i < n; ++i) c.intern(packed(p, i).data(), ids, old);
  std::vector<std::uint8_t> record(c.layout().bytes() + sizeof(Word));
  for (std::uint64_t parent = 0; parent < n; parent += 37) {
    ASSERT_TRUE(c.find(packed(p, parent).data(), ids));
    c.write(record.data(), ids);
    for (std::uint64_t child = 0; child < n + 400; child += 13) {
      Collapse::Ids plain{}, near{};
      const auto w = packed(p, child);
      const bool found = c.find(w.data(), plain);
      // (From 2100 on, d = 6: a value of component 2 not interned.)
      if (child < n || child >= 2100) {
        ASSERT_EQ(child < n, found) << child;
      }
      ASSERT_EQ(found, c.find(w.data(), near, record.data())) << parent << " " << child;
      if (found) {
        ASSERT_EQ(plain, near) << parent << " " << child;
      }
    }
  }
}

// Claims on two threads, commits on two threads: the new states whose
// components are not all known yet are interned by end_batch, widening the
// records stored before them in the batch.
TEST(Collapse, CommittedBatchesInternNewComponentsAtTheirEnd) {
  const Packer p(six_fields());
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore plain(p.words(), p.bytes(), budget, false);
  StateStore store(p.words(), p.bytes(), budget, false);
  store.collapse(p, components);
  store.set_claimers(2);
  constexpr std::uint64_t batch = 3000;
  for (std::uint64_t from = 0; from < 15'000; from += batch) {
    ASSERT_TRUE(store.reserve(batch + 2 * StateStore::claim_block));
    std::vector<StateStore::Ref> refs(batch);
    std::vector<std::thread> team;
    for (unsigned t = 0; t < 2; ++t) {
      team.emplace_back([&, t] {
        StateStore::Cursor cursor;
        cursor.lane = t;
        for (std::uint64_t k = t; k < batch; k += 2) {
          const auto w = packed(p, from + k);
          refs[k] = store.claim(w.data(), hash_of(w), k, cursor);
        }
      });
    }
    for (auto& th : team) th.join();
    for (std::uint64_t k = 0; k < batch; ++k) {
      ASSERT_TRUE(store.is_tentative(refs[k]));
      ASSERT_EQ(from + k, store.assign(refs[k], no_state));
    }
    std::thread other([&] { store.commit(batch / 2, batch); });
    store.commit(0, batch / 2);
    other.join();
    store.end_batch();
    for (std::uint64_t k = 0; k < batch; ++k) {
      const auto w = packed(p, from + k);
      plain.insert(w.data(), hash_of(w), no_state);
    }
  }
  ASSERT_EQ(plain.size(), store.size());
  std::vector<Word> a(p.words()), b(p.words());
  for (StateId i = 0; i < store.size(); ++i) {
    plain.load(i, a.data());
    store.load(i, b.data());
    ASSERT_EQ(a, b) << i;
    ASSERT_EQ(i, store.find(a.data(), hash_of(a)));
  }
  EXPECT_LT(store.stride(), p.bytes());
}

// States whose components never repeat: past 2^16 states the tables cost
// more than they save, and the store goes back to packed states.
TEST(Collapse, TablesThatDoNotPayGoBackToPackedStates) {
  Layout l;
  l.fields = {{"x", 0, 1'000'000}, {"y", 0, 1'000'000}};
  l.data_fields = 2;
  const Packer p(l);
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore store(p.words(), p.bytes(), budget, false);
  store.collapse(p, {0, 1});
  constexpr std::uint64_t n = 70'000;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::vector<Word> w(p.words());
    p.pack({static_cast<std::int32_t>(i), static_cast<std::int32_t>(i * 7 % 1'000'000)}, w.data());
    ASSERT_EQ(i, store.insert(w.data(), hash_of(w), no_state).id);
  }
  EXPECT_EQ(nullptr, store.collapsed());
  EXPECT_EQ(p.bytes(), store.stride());
  for (std::uint64_t i = 0; i < n; i += 97) {
    std::vector<Word> w(p.words()), back(p.words());
    p.pack({static_cast<std::int32_t>(i), static_cast<std::int32_t>(i * 7 % 1'000'000)}, w.data());
    store.load(static_cast<StateId>(i), back.data());
    ASSERT_EQ(w, back);
    ASSERT_EQ(i, store.find(w.data(), hash_of(w)));
  }
  EXPECT_EQ(store.state_memory() + store.index_memory(), budget.used());
}

}  // namespace
}  // namespace loophole::checker
