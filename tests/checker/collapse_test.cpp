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
  EXPECT_LE(c.layout().bits, 11U + 6 + 9);
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
