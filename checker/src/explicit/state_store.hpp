// The set of explored states: packed states numbered densely in insertion
// order (StateId), each with its BFS parent when asked to keep them (hash
// compaction does; the exact search does not: ExplicitGraph derives them),
// and an open-addressing hash index over them for deduplication.
//
// Memory per stored state (what the 24-byte target is measured against):
//   stored state      collapsed (collapse(): collapse.hpp): the bits of its
//                     components' table indices, 4..5 bytes on the seeds; or
//                     packed, bytes() = ceil(bits / 8) (arena, grown by 64 KiB)
//   parent            4 bytes when kept                (the successor index used is
//                                                       not stored: see ExplicitGraph)
//   hash slot         4 bytes / load, load 0.5..0.75  (5.3..8 bytes; index only,
//                                                       freed after the search)
// (a table of up to 2^22 slots, 16 MiB, grows fourfold, so its load may
// fall to 0.19: at most 8 MiB more than doubling, for a third to two thirds
// fewer states rehashed at the seeds' default scopes; beyond, a table has
// 2^k or 3 x 2^(k-2) slots, growing by 3/2 and 4/3 in turn). A slot is a
// 32-bit word: the state's id in the low log2(capacity) bits and hash bits
// (a fingerprint) above, so most probes never touch the arena. Collapsed,
// a lookup that matches a fingerprint rebuilds the stored state to compare
// it, and a committed state's components are found in their tables (new
// ones are interned serially at end_batch(), which may widen the records:
// bench/RESULTS.md, 2026-11-28 10:55-12:45, has what it costs).
//
// Insertion is either sequential (insert, or insert_reserved within room
// made beforehand: BFS on one thread) or a concurrent batch used by BFS on
// several:
// reserve(n) makes room, claim() runs on any number of threads and returns an
// existing id or a tentative reference into a scratch area (lock-free: a CAS
// on the empty slot, the state written to scratch first); the serial caller
// then assign()s final ids in whatever order it wants (BFS: first occurrence
// in successor order, which makes numbering independent of thread timing),
// commit() copies the new states into the arena in parallel, in id order, and
// end_batch() closes the batch. Claimed entries that were not assigned must be
// dropped (drop_unassigned) before the batch ends; they become tombstones.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "loophole/checker/explored.hpp"

#include "collapse.hpp"
#include "memory_budget.hpp"
#include "packer.hpp"
#include "region.hpp"
#include "two_ended.hpp"

namespace loophole::checker {

// Starts loading the cache line at p with the intent to write it (PREFETCHW:
// the line arrives exclusive, so the store or compare-and-swap that follows
// needs no second trip to take it from another core). GCC emits PREFETCHW
// for __builtin_prefetch(p, 1) only when told the CPU has it; every x86-64
// CPU we run on does, and older ones decode it as a no-op.
inline void prefetch_for_write(const void* p) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  asm volatile("prefetchw %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p, 1);
#endif
}

class StateStore {
 public:
  using Ref = std::uint32_t;  // < size(): a stored state; otherwise tentative (in a batch)

  // Without `keep_parents` no parent is stored (4 bytes a state less): the
  // parent arguments below are ignored and parent() must not be called
  // (ExplicitGraph derives parents from the BFS levels and the edges).
  StateStore(std::size_t words, std::size_t bytes, MemoryBudget& budget, bool keep_parents = true);
  ~StateStore();
  StateStore(const StateStore&) = delete;
  StateStore& operator=(const StateStore&) = delete;

  [[nodiscard]] std::uint64_t size() const { return size_; }
  [[nodiscard]] std::size_t words() const { return words_; }
  [[nodiscard]] std::size_t bytes() const { return bytes_; }
  // Stores states collapsed (collapse.hpp) from now on: before the first
  // insertion, with the packer the states are packed by and a component for
  // each of its fields.
  void collapse(const Packer& packer, const std::vector<int>& component_of);
  [[nodiscard]] const Collapse* collapsed() const { return collapse_.get(); }
  // Bytes a stored state takes in the arena now (bytes(), or a collapsed
  // record's).
  [[nodiscard]] std::size_t stride() const { return stride_; }

  // Copies state `id` into words() words (padding zero).
  void load(StateId id, Word* out) const;
  [[nodiscard]] StateId parent(StateId id) const { return parents_[id]; }
  [[nodiscard]] bool keeps_parents() const { return keep_parents_; }

  // Sequential insertion; nullopt-like {no_state, false} when the memory
  // budget (or the 32-bit id space) refuses to grow.
  struct Inserted {
    StateId id = no_state;
    bool fresh = false;
  };
  Inserted insert(const Word* state, std::uint64_t hash, StateId parent);
  [[nodiscard]] StateId find(const Word* state, std::uint64_t hash) const;
  // The same within room reserve(n, {}, false) made, for at most n calls
  // outside a batch: a search on one thread inserts its successors so, with
  // no claims, scratch or tentative references (ids are then given in
  // insertion order, which is the order a batch's assign() follows).
  Inserted insert_reserved(const Word* state, std::uint64_t hash, StateId parent);

  // --- batch insertion --------------------------------------------------
  // Runs body(0..tasks-1), possibly on several threads (rehashing uses it).
  using ParallelFor = checker::ParallelFor;  // (memory.hpp)
  // Room for `extra` more states (hash index, arena and, with `claims`, the
  // scratch a batch of claims writes). False when the memory budget or the
  // id space refuses; nothing is lost then. The arena and parents are
  // backed at once (on `parallel`), or left to `later` when given.
  [[nodiscard]] bool reserve(std::uint64_t extra, const ParallelFor& parallel = {},
                             bool claims = true, Backing* later = nullptr);
  // Starts loading the hash slot `hash` probes first (claims of a batch
  // issue this a few records ahead: the index is far larger than the caches),
  // exclusive: a new state's claim writes it. (Measured on cosmere, two
  // threads on far-apart CPUs: claims 0.058 s instead of 0.066 s; no change
  // when near. Rehashing and commits keep the plain prefetch: there PREFETCHW
  // made near CPUs slower.)
  void prefetch(std::uint64_t hash) const { prefetch_for_write(&slots_[home(hash)]); }
  // Each claiming thread takes scratch entries in blocks of its own, so that
  // two threads never write the same cache lines; reserve() room for
  // claim_block more entries per thread. The blocks of a batch are split
  // into one lane per claimer (set_claimers): claimer c takes blocks from
  // the front of lane c, and from the backs of the others' once its own is
  // used up. So a thread writes, batch after batch, the scratch lines it
  // wrote the batch before, which stay in its core's caches: on the VMs we
  // measure on, the two virtual CPUs are at times far apart, and a line
  // last written by the other costs hundreds of nanoseconds to take back.
  static constexpr std::size_t claim_block = 256;
  // States a parallel rehash reads (and sorts by part of the table) before
  // it places them: its buckets take 8 bytes for each.
  static constexpr StateId rehash_round = StateId{1} << 18;
  // The hash index grows at load 3/4: fourfold while the grown table has at
  // most 2^quad_bits slots (bench/RESULTS.md, 2026-11-27 midday), beyond
  // to the smallest of 2^k and 3 x 2^(k-2) slots that will do.
  static constexpr unsigned quad_bits = 22;
  struct Cursor {
    std::size_t next = 0, end = 0;
    unsigned lane = 0;  // < claimers()
  };
  void set_claimers(unsigned n);  // >= 1; outside a batch
  [[nodiscard]] unsigned claimers() const { return lanes_; }
  // Thread-safe (one Cursor per thread, fresh for each batch). `key` orders
  // the claims of one batch (smaller = earlier).
  Ref claim(const Word* state, std::uint64_t hash, std::uint64_t key, Cursor& cursor) {
    std::uint64_t displaced = 0;
    return claim(state, hash, key, cursor, displaced);
  }
  // The same, saying what the claim did to the earliest key of its entry:
  // `displaced` is not_earliest when it left it alone (a stored state, or an
  // earlier claim's entry), new_entry when the claim made the entry, and
  // otherwise the earlier-made but later key it replaced. So a caller can
  // count each key's earliest claims as they happen: +1 for new_entry or a
  // replacement, -1 for the replaced key. The earliest claim of an entry,
  // once all are made, is one of those that got new_entry or replaced a key.
  static constexpr std::uint64_t not_earliest = ~std::uint64_t{0};
  static constexpr std::uint64_t new_entry = ~std::uint64_t{0} - 1;
  Ref claim(const Word* state, std::uint64_t hash, std::uint64_t key, Cursor& cursor,
            std::uint64_t& displaced);
  [[nodiscard]] bool is_tentative(Ref r) const { return r >= size_; }
  // Whether `key` was the earliest claim of tentative r.
  [[nodiscard]] bool first(Ref r, std::uint64_t key) const {
    return scratch_key_[r - size_] == key;
  }
  // Serial: gives tentative r the next id (size() + assigned so far).
  StateId assign(Ref r, StateId parent);
  // Or in bulk: each first claim gets its id from the caller (thread-safe for
  // distinct refs), then assigned(n) says how many were given, size()..+n-1.
  void assign_as(Ref r, StateId id, StateId parent) {
    scratch_final_[r - size_] = id;
    scratch_entry_[id - size_] = static_cast<std::uint32_t>(r - size_);
    scratch_parent_[id - size_] = parent;
    if (keep_parents_) parents_[id] = parent;
  }
  void set_assigned(std::uint64_t n) { assigned_ = n; }
  [[nodiscard]] StateId resolve(Ref r) const { return r < size_ ? r : scratch_final_[r - size_]; }
  [[nodiscard]] std::uint64_t assigned() const { return assigned_; }
  // Copies the new states size() + [begin, end) into the arena and points
  // their hash slots at them; thread-safe over disjoint ranges of
  // [0, assigned()). By id, not by claim: with several threads claiming, the
  // claims interleave, and copying in claim order had both threads writing
  // the same lines of the arena.
  void commit(std::uint64_t begin, std::uint64_t end);
  // Turns the claimed entries that got no id into tombstones (needed only
  // when some first claims were not assigned: a search cut short by a state
  // limit).
  void drop_unassigned();
  void end_batch();

  // Frees the hash index and the scratch area (lookups are no longer possible).
  void release_index();
  [[nodiscard]] std::uint64_t state_memory() const;  // arena and parents
  [[nodiscard]] std::uint64_t index_memory() const;  // hash index and scratch

 private:
  static constexpr std::uint32_t max_load_num = 3, max_load_den = 4;

  [[nodiscard]] const std::uint8_t* at(StateId id) const {
    return &arena_[std::uint64_t{id} * stride_];
  }
  [[nodiscard]] std::uint8_t* at(StateId id) { return &arena_[std::uint64_t{id} * stride_]; }
  // The record of `parent` to find a new state's components near (none
  // for an initial state).
  [[nodiscard]] const std::uint8_t* near(StateId parent) const {
    return parent != no_state ? at(parent) : nullptr;
  }
  // Writes state `id` (serial: may intern and widen the collapsed records;
  // records [0, records) are then re-laid), a successor of `parent`.
  void put(StateId id, const Word* state, std::uint64_t records, StateId parent);
  // Back to plain packed states (when the tables cost more than they save);
  // false when the budget refuses the arena.
  [[nodiscard]] bool uncollapse();
  // A hash's home slot: its top 32 bits scaled to the capacity (for a
  // power of two, its top log2(capacity) bits).
  [[nodiscard]] std::size_t home(std::uint64_t hash) const {
    return static_cast<std::size_t>(((hash >> 32) * capacity_) >> 32);
  }
  [[nodiscard]] std::size_t next_slot(std::size_t i) const { return ++i == capacity_ ? 0 : i; }
  [[nodiscard]] std::uint32_t fingerprint(std::uint64_t hash) const {
    return static_cast<std::uint32_t>(hash) & ~mask_;
  }
  [[nodiscard]] bool equal(Ref r, const Word* state) const;
  // Word w of stored state `p` (bytes_ bytes, read as little-endian words;
  // the arena keeps a word of slack after the last state, so the last word may
  // read past the state and is masked).
  [[nodiscard]] Word word_at(const std::uint8_t* p, std::size_t w) const {
    Word v;
    std::memcpy(&v, p + 8 * w, sizeof v);
    return w + 1 == words_ ? v & tail_mask_ : v;
  }
  Word tail_mask_ = ~Word{0};
  [[nodiscard]] bool grow_index(std::uint64_t states, const ParallelFor& parallel);
  void rehash();  // every state, on this thread
  // Every state, on `parallel`: false when the budget refuses its buckets.
  [[nodiscard]] bool rehash_parallel(const ParallelFor& parallel);
  // A state on its way to the grown table: its home slot and slot value.
  struct Placed {
    std::uint32_t home, value;
  };
  [[nodiscard]] Placed placed(StateId id, std::uint64_t hash) const {
    return {static_cast<std::uint32_t>(home(hash)), fingerprint(hash) | id};
  }
  void place(Placed p);  // serial, anywhere
  [[nodiscard]] bool grow_scratch(std::uint64_t entries);
  // Lowers the entry's key to `key`; returns the key replaced, or
  // not_earliest when it was not larger.
  std::uint64_t min_key(std::size_t entry, std::uint64_t key);
  // Takes a block of scratch entries for claimer `lane`; returns its first
  // entry.
  std::size_t take_block(unsigned lane);
  // Calls fn(begin, end) for every run of entries taken in this batch.
  template <class Fn>
  void for_each_taken(Fn fn) const;

  std::size_t words_, bytes_;
  std::size_t stride_;          // bytes_, or a collapsed record's bytes
  std::uint64_t reserved_ = 0;  // states the arena has room for
  std::unique_ptr<Collapse> collapse_;
  // Collapsed new states of a batch whose components were not all known
  // yet: committed by end_batch (id, scratch entry).
  std::vector<std::pair<StateId, std::uint32_t>> misses_;
  std::mutex misses_mutex_;
  MemoryBudget& budget_;
  bool keep_parents_;
  std::uint64_t size_ = 0;

  StableArray<std::uint8_t> arena_;  // packed states, bytes_ each, in id order
  StableArray<StateId> parents_;

  // Hash index: slot = fingerprint | id; id bits all ones = empty, all ones
  // minus one = tombstone.
  Region index_;  // the slots; a grown table reuses the old one's pages
  std::uint32_t* slots_ = nullptr;
  std::uint64_t capacity_ = 0;  // slots: 2^k, or 3 x 2^k beyond 2^quad_bits
  unsigned bits_ = 0;           // ceil(log2(capacity))
  std::uint32_t mask_ = 0;      // id bits: 2^bits_ - 1
  std::uint64_t tombstones_ = 0;

  // Scratch area of the current batch, one entry per claimed new state.
  std::unique_ptr<Word[]> scratch_;
  std::unique_ptr<std::uint64_t[]> scratch_key_;
  std::unique_ptr<std::uint32_t[]> scratch_slot_;
  std::unique_ptr<StateId[]> scratch_final_;
  std::unique_ptr<std::uint32_t[]> scratch_entry_;  // by id - size(): its entry
  std::unique_ptr<StateId[]> scratch_parent_;       // by id - size(): its parent
  std::unique_ptr<std::uint8_t[]> scratch_published_;
  std::size_t scratch_capacity_ = 0;
  std::atomic<std::size_t> scratch_used_{0};  // entries taken in this batch
  // The blocks not yet taken of each lane, and where each lane begins
  // (lane_begin_[lanes_] = blocks of the batch).
  unsigned lanes_ = 1;
  std::unique_ptr<TwoEnded[]> lane_spans_ = std::make_unique<TwoEnded[]>(1);
  std::vector<std::uint64_t> lane_begin_ = {0, 0};
  std::uint64_t assigned_ = 0;
  std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace loophole::checker
