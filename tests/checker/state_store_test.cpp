// The state store: dense ids in insertion order, lookups across many index
// resizes, concurrent claims that number states exactly as a sequential
// insertion would, tombstones for claims left unassigned, and the memory
// budget refusing growth without losing anything.
#include "explicit/state_store.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace loophole::checker {
namespace {

// A state of `words` words derived from a number (distinct numbers give
// distinct states; the top word is left 0 to look like padding).
std::vector<Word> state_of(std::uint64_t n, std::size_t words) {
  std::vector<Word> w(words, 0);
  w[0] = n * 0x9E3779B97F4A7C15ULL;
  if (words > 1) w[1] = n & 0xFF;
  return w;
}

std::uint64_t hash_of(const std::vector<Word>& w) { return hash_words(w.data(), w.size()); }

// A ParallelFor on a team of `threads` threads, task t on thread t % threads.
StateStore::ParallelFor team_of(std::size_t threads) {
  return [threads](std::size_t tasks, const std::function<void(std::size_t)>& body) {
    std::vector<std::thread> team;
    for (std::size_t k = 0; k < threads; ++k) {
      team.emplace_back([&, k] {
        for (std::size_t t = k; t < tasks; t += threads) body(t);
      });
    }
    for (auto& th : team) th.join();
  };
}

TEST(StateStore, GivesDenseIdsInInsertionOrder) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore store(2, 9, budget);
  for (std::uint64_t n = 0; n < 1000; ++n) {
    const auto w = state_of(n, 2);
    const auto r = store.insert(w.data(), hash_of(w), n == 0 ? no_state : StateId(n - 1));
    ASSERT_TRUE(r.fresh);
    ASSERT_EQ(n, r.id);
  }
  for (std::uint64_t n = 0; n < 1000; ++n) {
    const auto w = state_of(n, 2);
    const auto r = store.insert(w.data(), hash_of(w), 0);
    EXPECT_FALSE(r.fresh);
    EXPECT_EQ(n, r.id);
    EXPECT_EQ(n == 0 ? no_state : StateId(n - 1), store.parent(r.id));
    std::vector<Word> back(2);
    store.load(r.id, back.data());
    EXPECT_EQ(w, back);
  }
  EXPECT_EQ(1000U, store.size());
  const auto missing = state_of(5000, 2);
  EXPECT_EQ(no_state, store.find(missing.data(), hash_of(missing)));
}

TEST(StateStore, FindsEveryStateAcrossResizes) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore store(1, 5, budget);
  // The index grows five times, fourfold: 2^10 slots, 2^12, ..., 2^20.
  constexpr std::uint64_t n = 300000;
  for (std::uint64_t i = 0; i < n; ++i) {
    auto w = state_of(i, 1);
    w[0] &= 0xFFFFFFFFFFULL;  // 5 bytes
    ASSERT_TRUE(store.insert(w.data(), hash_of(w), 0).fresh) << i;
  }
  EXPECT_EQ((std::uint64_t{1} << 20) * sizeof(std::uint32_t), store.index_memory());
  // 5 packed bytes + 4 parent bytes (and the arena's last block).
  const double per_state = static_cast<double>(store.state_memory()) / n;
  EXPECT_LT(per_state, 5 + 4 + 1);
  EXPECT_EQ(store.state_memory() + store.index_memory(), budget.used());
  // A resize with a rehash on three threads.
  ASSERT_TRUE(store.reserve(n, team_of(3)));
  for (std::uint64_t i = 0; i < n; ++i) {
    auto w = state_of(i, 1);
    w[0] &= 0xFFFFFFFFFFULL;
    ASSERT_EQ(i, store.find(w.data(), hash_of(w)));
  }
}

// The index grows at load 3/4: fourfold while the grown table has at most
// 2^quad_bits slots, beyond to the smallest of 2^k and 3 x 2^(k-2) slots
// that will do (growing by 3/2 and 4/3 in turn); a first table is as small
// as will do.
TEST(StateStore, SmallIndexesGrowFourfoldLargeOnesDouble) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore store(1, 8, budget);
  const auto slots = [&] { return store.index_memory() / sizeof(std::uint32_t); };
  ASSERT_TRUE(store.reserve(1000, {}, false));
  EXPECT_EQ(std::uint64_t{1} << 11, slots());  // 1000 > 3/4 of 2^10
  ASSERT_TRUE(store.reserve(1536, {}, false));
  EXPECT_EQ(std::uint64_t{1} << 11, slots());  // 3/4 of 2^11: room still
  ASSERT_TRUE(store.reserve(1537, {}, false));
  EXPECT_EQ(std::uint64_t{1} << 13, slots());  // fourfold, though 2^12 would do
  ASSERT_TRUE(store.reserve(3'000'000, {}, false));
  EXPECT_EQ(std::uint64_t{1} << 22, slots());  // what it needs: more than fourfold
  ASSERT_TRUE(store.reserve(3'200'000, {}, false));
  EXPECT_EQ(std::uint64_t{3} << 21, slots());  // beyond 2^22 slots: what it needs, 3/2
  ASSERT_TRUE(store.reserve(4'718'592, {}, false));
  EXPECT_EQ(std::uint64_t{3} << 21, slots());  // 3/4 of 3 x 2^21: room still
  ASSERT_TRUE(store.reserve(4'718'593, {}, false));
  EXPECT_EQ(std::uint64_t{1} << 23, slots());  // 4/3
  ASSERT_TRUE(store.reserve(6'300'000, {}, false));
  EXPECT_EQ(std::uint64_t{3} << 22, slots());  // 3/2
  EXPECT_EQ(store.state_memory() + store.index_memory(), budget.used());
}

// A parallel rehash places each part of the table on a thread of its own; a
// run of full slots that reaches the end of a part (or of the table) is
// finished afterwards, past the slots the next part filled. Here 400 states
// have their home slot among the last 64 of the first half of the grown
// table, and 400 among the last 64 of the table: both runs spill.
TEST(StateStore, ParallelRehashFinishesRunsThatCrossItsParts) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore store(1, 8, budget);
  store.set_claimers(2);
  constexpr std::uint64_t slots = std::uint64_t{1} << 16;  // after the reserve below
  const auto home = [](std::uint64_t v) { return hash_words(&v, 1) >> 48; };
  std::vector<std::uint64_t> values;
  int at_half = 0, at_end = 0;
  for (std::uint64_t v = 1; at_half < 400 || at_end < 400; ++v) {
    const std::uint64_t h = home(v);
    if (h >= slots / 2 - 64 && h < slots / 2 && at_half < 400) {
      ++at_half;
      values.push_back(v);
    } else if (h >= slots - 64 && at_end < 400) {
      ++at_end;
      values.push_back(v);
    }
  }
  for (std::uint64_t v = std::uint64_t{1} << 40; values.size() < 10000; ++v) values.push_back(v);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Word w = values[i];
    ASSERT_EQ(i, store.insert(&w, hash_words(&w, 1), 0).id);
  }
  ASSERT_TRUE(store.reserve(30000, team_of(2), false));
  ASSERT_EQ(slots * sizeof(std::uint32_t), store.index_memory());  // the table these homes are for
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Word w = values[i];
    ASSERT_EQ(i, store.find(&w, hash_words(&w, 1))) << "state " << i << ", home " << home(w);
  }
  // Inserting goes on from there.
  for (std::uint64_t i = 0; i < 1000; ++i) {
    const Word w = (std::uint64_t{1} << 50) + i;
    ASSERT_EQ(values.size() + i, store.insert_reserved(&w, hash_words(&w, 1), 0).id);
  }
  const Word again = values[5];
  EXPECT_FALSE(store.insert_reserved(&again, hash_words(&again, 1), 0).fresh);
}

// A table of 3 x 2^k slots (beyond 2^quad_bits): homes scale the hash to
// the capacity, probes wrap at its end, and a parallel rehash cuts it into
// parts whose bounds fall on no power of two. Grown from 2^22 slots to
// 3 x 2^21 on three threads, then filled on: every state is found at its id.
TEST(StateStore, TablesOfThreeTimesAPowerOfTwoRehashAndProbe) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore store(1, 8, budget);
  store.set_claimers(3);
  const auto state = [](std::uint64_t i) -> Word { return i * 0x9E3779B97F4A7C15ULL + 1; };
  constexpr std::uint64_t n = (std::uint64_t{3} << 22) / 4;  // 3/4 of 2^22
  ASSERT_TRUE(store.reserve(n, {}, false));
  for (std::uint64_t i = 0; i < n; ++i) {
    const Word w = state(i);
    ASSERT_EQ(i, store.insert_reserved(&w, hash_words(&w, 1), 0).id);
  }
  ASSERT_EQ((std::uint64_t{1} << 22) * sizeof(std::uint32_t), store.index_memory());
  constexpr std::uint64_t m = n * 3 / 2;  // 3/4 of 3 x 2^21
  ASSERT_TRUE(store.reserve(m - n, team_of(3), false));
  ASSERT_EQ((std::uint64_t{3} << 21) * sizeof(std::uint32_t), store.index_memory());
  for (std::uint64_t i = n; i < m; ++i) {
    const Word w = state(i);
    ASSERT_EQ(i, store.insert_reserved(&w, hash_words(&w, 1), 0).id);
  }
  for (std::uint64_t i = 0; i < m; ++i) {
    const Word w = state(i);
    ASSERT_EQ(i, store.find(&w, hash_words(&w, 1))) << i;
  }
  const Word absent = state(m);
  EXPECT_EQ(no_state, store.find(&absent, hash_words(&absent, 1)));
  EXPECT_EQ(store.state_memory() + store.index_memory(), budget.used());
}

// A parallel rehash reads the states a round at a time (rehash_round) and
// sorts them by part; with three claimers the table has three parts, whose
// bounds do not fall on a power of two. Every state must be found at its id
// after it, the sorting buckets must be given back to the budget, and a
// budget too small for the buckets falls back to the serial rehash.
TEST(StateStore, ParallelRehashAcrossRoundsAndThreeParts) {
  // Three rounds' worth: the table holds 2^20 slots at load 3/4, and the next
  // state grows it fourfold (to 2^22 slots: StateStore::quad_bits).
  constexpr std::uint64_t n = std::uint64_t{3} * StateStore::rehash_round;
  static_assert(n * 4 == (std::uint64_t{1} << 20) * 3);
  static_assert(StateStore::quad_bits == 22);
  constexpr std::uint64_t table = (std::uint64_t{1} << 20) * sizeof(std::uint32_t);
  constexpr std::uint64_t growth = 3 * table;
  // Each of the three readers sorts its third of a round into three buckets,
  // each with room for all of it.
  constexpr std::uint64_t buckets = std::uint64_t{3} * StateStore::rehash_round * 8;
  const auto state = [](std::uint64_t i) -> Word {
    return (i * 0x9E3779B97F4A7C15ULL) & 0xFFFFFFFFFFFFULL;  // 6 bytes
  };
  // The store's memory before the growth is under 12 MiB: with 24 MiB more
  // there is room for the table's growth (12 MiB) and the buckets (6 MiB),
  // with 13 MiB more only for the growth and the arena's and parents' next
  // blocks.
  for (const std::uint64_t spare : {std::uint64_t{24} << 20, std::uint64_t{13} << 20}) {
    const bool tight = spare < growth + buckets;
    SCOPED_TRACE(tight ? "no room for the buckets" : "room for the buckets");
    MemoryBudget budget((std::uint64_t{12} << 20) + spare);
    StateStore store(1, 6, budget);
    store.set_claimers(3);
    for (std::uint64_t i = 0; i < n; ++i) {
      const Word w = state(i);
      ASSERT_EQ(i, store.insert(&w, hash_words(&w, 1), 0).id);
    }
    ASSERT_EQ(table, store.index_memory());
    const std::uint64_t before = budget.used();
    ASSERT_LE(before, std::uint64_t{12} << 20);
    ASSERT_EQ(tight, budget.limit() - before < growth + buckets);
    ASSERT_TRUE(store.reserve(1, team_of(3), false));
    EXPECT_EQ(4 * table, store.index_memory());
    // The buckets were taken from the budget (and given back), or, where
    // they did not fit, the rehash went serial.
    EXPECT_EQ(!tight, budget.peak() >= before + growth + buckets);
    EXPECT_EQ(store.state_memory() + store.index_memory(), budget.used());
    for (std::uint64_t i = 0; i < n; ++i) {
      const Word w = state(i);
      ASSERT_EQ(i, store.find(&w, hash_words(&w, 1))) << i;
    }
    const Word absent = 0xFFFFFFFFFFFFULL;
    EXPECT_EQ(no_state, store.find(&absent, hash_words(&absent, 1)));
  }
}

// A one-thread search inserts within a reserve made without claim scratch:
// ids in order of first occurrence, duplicates found, and no scratch memory.
TEST(StateStore, InsertsWithinAReserveWithoutScratch) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore direct(2, 9, budget);
  StateStore claiming(2, 9, budget);
  constexpr std::uint64_t n = 5000;
  ASSERT_TRUE(direct.reserve(2 * n, {}, false));
  ASSERT_TRUE(claiming.reserve(2 * n));
  // The scratch: one entry per reserved state (the same index either way).
  EXPECT_LT(direct.index_memory() + 2 * n * 2 * sizeof(Word), claiming.index_memory());
  for (std::uint64_t i = 0; i < 2 * n; ++i) {
    const std::uint64_t k = i % 2 == 0 ? i / 2 : (i / 2) / 2;  // every odd one seen before
    const auto w = state_of(k, 2);
    const auto r = direct.insert_reserved(w.data(), hash_of(w), static_cast<StateId>(i));
    EXPECT_EQ(i % 2 == 0, r.fresh) << i;
    ASSERT_EQ(k, r.id) << i;
  }
  EXPECT_EQ(n, direct.size());
  for (std::uint64_t k = 0; k < n; ++k) {
    const auto w = state_of(k, 2);
    EXPECT_EQ(k, direct.find(w.data(), hash_of(w)));
    EXPECT_EQ(StateId(2 * k), direct.parent(static_cast<StateId>(k)));
  }
}

// 20000 claims of 6000 distinct states of two words (so many duplicates),
// 1000 of which (those divisible by 6) are stored first (StoredFirst).
std::vector<std::vector<Word>> many_claims() {
  std::vector<std::vector<Word>> claims;
  for (std::uint64_t k = 0; k < 20000; ++k) claims.push_back(state_of((k * 7919) % 6000, 2));
  return claims;
}
struct StoredFirst {
  MemoryBudget budget{std::uint64_t{1} << 30};
  StateStore store{2, 9, budget};
  StoredFirst() {
    for (std::uint64_t n = 0; n < 1000; ++n) {
      const auto w = state_of(n * 6, 2);
      store.insert(w.data(), hash_of(w), no_state);
    }
  }
};

// Claims `claims` (key = index) in one batch on `threads` threads, thread t
// taking every threads-th claim from the back; returns the references, and
// what each claim displaced.
std::vector<StateStore::Ref> claim_on_threads(StateStore& store,
                                              const std::vector<std::vector<Word>>& claims,
                                              int threads, std::vector<std::uint64_t>& displaced) {
  store.set_claimers(static_cast<unsigned>(threads));
  EXPECT_TRUE(store.reserve(claims.size() + threads * StateStore::claim_block));
  std::vector<StateStore::Ref> refs(claims.size());
  displaced.assign(claims.size(), 0);
  std::vector<std::thread> team;
  for (int t = 0; t < threads; ++t) {
    team.emplace_back([&, t] {
      StateStore::Cursor cursor;
      cursor.lane = static_cast<unsigned>(t);
      for (std::size_t k = claims.size(); k-- > 0;) {
        if (static_cast<int>(k % threads) == t) {
          refs[k] = store.claim(claims[k].data(), hash_of(claims[k]), k, cursor, displaced[k]);
        }
      }
    });
  }
  for (auto& th : team) th.join();
  return refs;
}

// Claims in any order and on several threads, then assignment in key order,
// give the ids a sequential insertion in key order gives.
TEST(StateStore, ConcurrentClaimsNumberLikeSequentialInsertion) {
  const std::vector<std::vector<Word>> claims = many_claims();

  auto sequential = [&] {
    StoredFirst s;
    std::vector<StateId> ids;
    for (const auto& w : claims) ids.push_back(s.store.insert(w.data(), hash_of(w), 0).id);
    return ids;
  };
  const std::vector<StateId> expected = sequential();

  for (const int threads : {1, 2, 4}) {
    StoredFirst s;
    StateStore& store = s.store;
    std::vector<std::uint64_t> displaced;
    const std::vector<StateStore::Ref> refs = claim_on_threads(store, claims, threads, displaced);
    std::vector<StateId> ids;
    for (std::size_t k = 0; k < claims.size(); ++k) {
      const StateStore::Ref r = refs[k];
      if (store.is_tentative(r) && store.first(r, k)) {
        ids.push_back(store.assign(r, static_cast<StateId>(k % 1000)));
      } else {
        ids.push_back(store.resolve(r));
      }
    }
    store.commit(0, store.assigned());
    store.end_batch();
    EXPECT_EQ(expected, ids) << threads << " threads";
    EXPECT_EQ(6000U, store.size());
    for (std::size_t k = 0; k < claims.size(); ++k) {
      ASSERT_EQ(expected[k], store.find(claims[k].data(), hash_of(claims[k])));
    }
  }
}

// What each claim says it did to its entry's earliest key (displaced) is
// enough to tell the earliest claims without reading the entries: those
// that made an entry or replaced a key, less those whose key was replaced
// in turn. BFS counts each task's new states so (claim_task).
TEST(StateStore, DisplacedKeysTellTheEarliestClaims) {
  const std::vector<std::vector<Word>> claims = many_claims();
  for (const int threads : {1, 2, 4}) {
    StoredFirst s;
    StateStore& store = s.store;
    // (Claimed from the back: many replacements.)
    std::vector<std::uint64_t> displaced;
    const std::vector<StateStore::Ref> refs = claim_on_threads(store, claims, threads, displaced);
    std::vector<int> earliest(claims.size(), 0);
    std::size_t made = 0, replaced = 0;
    for (std::size_t k = 0; k < claims.size(); ++k) {
      if (displaced[k] == StateStore::not_earliest) continue;
      ++earliest[k];
      if (displaced[k] == StateStore::new_entry) {
        ++made;
      } else {
        ASSERT_LT(displaced[k], claims.size());
        ASSERT_GT(displaced[k], k);  // only a later key is replaced
        --earliest[displaced[k]];
        ++replaced;
      }
    }
    std::size_t fresh = 0;
    for (std::size_t k = 0; k < claims.size(); ++k) {
      const StateStore::Ref r = refs[k];
      const bool first = store.is_tentative(r) && store.first(r, k);
      ASSERT_EQ(first ? 1 : 0, earliest[k]) << "claim " << k << ", " << threads << " threads";
      fresh += first ? 1 : 0;
    }
    EXPECT_EQ(5000U, fresh) << threads << " threads";  // 6000 states, 1000 stored
    EXPECT_GE(made, fresh);                            // (made and lost to a race too)
    // Claimed from the back on one thread, every claim of a new state but
    // its first replaces (the stored states are those divisible by 6).
    if (threads == 1) {
      std::size_t of_stored = 0;
      for (std::uint64_t k = 0; k < claims.size(); ++k) of_stored += (k * 7919) % 6000 % 6 == 0;
      EXPECT_EQ(3334U, of_stored);
      EXPECT_EQ(claims.size() - of_stored - 5000U, replaced);
      EXPECT_EQ(5000U, made);
    }
    for (std::size_t k = 0; k < claims.size(); ++k) {
      if (store.is_tentative(refs[k]) && store.first(refs[k], k)) store.assign(refs[k], no_state);
    }
    store.commit(0, store.assigned());
    store.end_batch();
    EXPECT_EQ(6000U, store.size());
  }
}

TEST(StateStore, UnassignedClaimsLeaveNoTrace) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore store(1, 8, budget);
  ASSERT_TRUE(store.reserve(100 + StateStore::claim_block));
  std::vector<StateStore::Ref> refs;
  StateStore::Cursor cursor;
  for (std::uint64_t k = 0; k < 100; ++k) {
    const auto w = state_of(k, 1);
    refs.push_back(store.claim(w.data(), hash_of(w), k, cursor));
  }
  for (std::uint64_t k = 0; k < 40; ++k) store.assign(refs[k], no_state);
  store.drop_unassigned();
  store.commit(0, store.assigned());
  store.end_batch();
  EXPECT_EQ(40U, store.size());
  for (std::uint64_t k = 0; k < 100; ++k) {
    const auto w = state_of(k, 1);
    EXPECT_EQ(k < 40 ? StateId(k) : no_state, store.find(w.data(), hash_of(w))) << k;
  }
  // The dropped states can be inserted again, after the stored ones.
  const auto w = state_of(70, 1);
  EXPECT_EQ(40U, store.insert(w.data(), hash_of(w), 3).id);
}

TEST(StateStore, AClaimerWhoseLaneIsUsedUpTakesTheOthersBlocks) {
  // Two lanes of a batch's blocks, one claimer: it takes lane 0's blocks
  // and then lane 1's from the back; the numbering, the commit and the drop
  // of unassigned claims see every entry wherever it lies.
  MemoryBudget budget(std::uint64_t{1} << 30);
  StateStore store(1, 8, budget);
  store.set_claimers(2);
  EXPECT_EQ(2U, store.claimers());
  ASSERT_TRUE(store.reserve(1000 + 2 * StateStore::claim_block));  // 5 blocks: lanes of 2 and 3
  StateStore::Cursor cursor;                                       // lane 0
  std::vector<StateStore::Ref> refs;
  for (std::uint64_t k = 0; k < 1000; ++k) {
    const auto w = state_of(k, 1);
    refs.push_back(store.claim(w.data(), hash_of(w), k, cursor));
  }
  // Entries 0..511 (lane 0), then 1024..1279 and 768..1023 (lane 1's last
  // blocks first): the tentative references say where each state went.
  EXPECT_EQ(0U, refs[0] - store.size());
  EXPECT_EQ(511U, refs[511] - store.size());
  EXPECT_EQ(1024U, refs[512] - store.size());
  EXPECT_EQ(768U, refs[768] - store.size());
  for (std::uint64_t k = 0; k < 900; ++k) store.assign(refs[k], no_state);
  store.drop_unassigned();
  store.commit(0, store.assigned());
  store.end_batch();
  EXPECT_EQ(900U, store.size());
  for (std::uint64_t k = 0; k < 1000; ++k) {
    const auto w = state_of(k, 1);
    EXPECT_EQ(k < 900 ? StateId(k) : no_state, store.find(w.data(), hash_of(w))) << k;
  }
  // A sixth block is more than the batch reserved.
  ASSERT_TRUE(store.reserve(5 * StateStore::claim_block));
  StateStore::Cursor other{0, 0, 1};
  for (std::uint64_t k = 0; k < 5 * StateStore::claim_block; ++k) {
    const auto w = state_of(5000 + k, 1);
    store.claim(w.data(), hash_of(w), k, other);
  }
  const auto w = state_of(4999, 1);
  EXPECT_THROW(store.claim(w.data(), hash_of(w), 0, other), std::logic_error);
}

TEST(StateStore, BudgetRefusesGrowthWithoutLosingStates) {
  MemoryBudget budget(2u << 20);  // 2 MiB: room for tens of thousands of 12-byte states
  StateStore store(2, 12, budget);
  std::uint64_t n = 0;
  for (;; ++n) {
    const auto w = state_of(n, 2);
    const auto r = store.insert(w.data(), hash_of(w), 0);
    if (r.id == no_state) break;
    ASSERT_EQ(n, r.id);
  }
  EXPECT_GT(n, 10000U);
  EXPECT_LE(budget.peak(), budget.limit());
  EXPECT_FALSE(store.reserve(1u << 20));
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto w = state_of(i, 2);
    ASSERT_EQ(i, store.find(w.data(), hash_of(w)));
  }
}

TEST(StateStore, ReleasingTheIndexReturnsItsMemory) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  {
    StateStore store(1, 3, budget);
    for (std::uint64_t i = 0; i < 5000; ++i) {
      auto w = state_of(i, 1);
      w[0] &= 0xFFFFFF;
      store.insert(w.data(), hash_of(w), 0);
    }
    const std::uint64_t index = store.index_memory();
    EXPECT_GT(index, 0U);
    store.release_index();
    EXPECT_EQ(store.state_memory(), budget.used());
    std::vector<Word> back(1);
    store.load(4999, back.data());
    EXPECT_EQ(state_of(4999, 1)[0] & 0xFFFFFF, back[0]);
  }
  EXPECT_EQ(0U, budget.used());
}

}  // namespace
}  // namespace loophole::checker
