// The state store of state_store.hpp: an arena of packed states, their parents
// (when kept),
// and a linear-probing hash index of 32-bit slots. Linear probing keeps a
// lookup within one or two cache lines of slots; the fingerprint bits in each
// slot let a probe skip a foreign state without reading the arena. The index
// grows at load 3/4 (fourfold while small, then by 3/2 and 4/3), rehashing from the
// arena (sequential reads, no stored hashes; in parallel when the caller
// offers threads), and asks the memory budget for the growth before
// allocating the new table.
#include "state_store.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>

#include "line_vector.hpp"

namespace loophole::checker {

namespace {

constexpr unsigned min_index_bits = 10;

// Copies n bytes without a library call for the few bytes a state has.
inline void copy_bytes(std::uint8_t* to, const std::uint8_t* from, std::size_t n) {
  for (; n >= 8; n -= 8, to += 8, from += 8) std::memcpy(to, from, 8);
  if (n >= 4) {
    std::memcpy(to, from, 4);
    n -= 4;
    to += 4;
    from += 4;
  }
  for (; n > 0; --n) *to++ = *from++;
}

}  // namespace

StateStore::StateStore(std::size_t words, std::size_t bytes, MemoryBudget& budget,
                       bool keep_parents)
    : words_(words), bytes_(bytes), stride_(bytes), budget_(budget), keep_parents_(keep_parents) {
  // The last word holds what is left of bytes_ (nothing for a 0-bit state).
  const std::size_t last = bytes_ > 8 * (words_ - 1) ? bytes_ - 8 * (words_ - 1) : 0;
  if (last > 8 || words_ == 0) {
    throw std::logic_error("loophole: internal error: state bytes and words disagree");
  }
  tail_mask_ = last == 8 ? ~Word{0} : (Word{1} << (8 * last)) - 1;
}

StateStore::~StateStore() { release_index(); }

void StateStore::collapse(const Packer& packer, const std::vector<int>& component_of) {
  if (size_ != 0 || packer.words() != words_ || packer.bytes() != bytes_) {
    throw std::logic_error("loophole: internal error: StateStore::collapse");
  }
  collapse_ = std::make_unique<Collapse>(packer, component_of, budget_);
  stride_ = collapse_->layout().bytes();
}

void StateStore::load(StateId id, Word* out) const {
  const std::uint8_t* p = at(id);
  if (collapse_ != nullptr) {
    collapse_->expand(p, out);
    return;
  }
  for (std::size_t w = 0; w < words_; ++w) out[w] = word_at(p, w);
}

void StateStore::put(StateId id, const Word* state, std::uint64_t records, StateId parent) {
  if (collapse_ == nullptr) {
    copy_bytes(at(id), reinterpret_cast<const std::uint8_t*>(state), bytes_);
    return;
  }
  Collapse::Ids ids{};
  Collapse::Layout old;
  if (collapse_->intern(state, ids, old, near(parent))) {
    // Wider records: room for every state reserved so far, then re-lay
    // the ones stored. (This cannot wait for the next reserve: past the
    // budget's limit, that reserve fails and the search stops.)
    const std::size_t stride = collapse_->layout().bytes();
    if (stride != old.bytes() &&
        !arena_.ensure_anyway(std::max(reserved_, records + 1) * stride + sizeof(Word), budget_)) {
      throw std::bad_alloc();
    }
    collapse_->relay(&arena_[0], records, old);
    stride_ = stride;
  }
  collapse_->write(at(id), ids);
}

bool StateStore::uncollapse() {
  const std::size_t from = stride_;
  if (!arena_.ensure(std::max(reserved_, size_) * bytes_ + sizeof(Word), budget_)) return false;
  // From the last state down, as Collapse::relay.
  std::array<Word, Collapse::max_words> w{};
  for (std::uint64_t i = size_; i-- > 0;) {
    collapse_->expand(&arena_[i * from], w.data());
    copy_bytes(&arena_[i * bytes_], reinterpret_cast<const std::uint8_t*>(w.data()), bytes_);
  }
  collapse_.reset();
  stride_ = bytes_;
  return true;
}

bool StateStore::equal(Ref r, const Word* state) const {
  if (r < size_ && collapse_ != nullptr) {
    std::array<Word, Collapse::max_words> w;
    collapse_->expand(at(r), w.data());
    Word diff = 0;
    for (std::size_t i = 0; i < words_; ++i) diff |= w[i] ^ state[i];
    return diff == 0;
  }
  if (r < size_) {
    const std::uint8_t* p = at(r);
    Word diff = 0;
    for (std::size_t w = 0; w < words_; ++w) diff |= word_at(p, w) ^ state[w];
    return diff == 0;
  }
  const Word* s = scratch_.get() + (r - size_) * words_;
  Word diff = 0;
  for (std::size_t w = 0; w < words_; ++w) diff |= s[w] ^ state[w];
  return diff == 0;
}

StateId StateStore::find(const Word* state, std::uint64_t hash) const {
  if (slots_ == nullptr) return no_state;
  const std::uint32_t fp = fingerprint(hash);
  for (std::size_t i = home(hash);; i = next_slot(i)) {
    const std::uint32_t v = slots_[i];
    const std::uint32_t id = v & mask_;
    if (id == mask_) return no_state;
    if (id != mask_ - 1 && (v & ~mask_) == fp && id < size_ && equal(id, state)) return id;
  }
}

StateStore::Inserted StateStore::insert(const Word* state, std::uint64_t hash, StateId parent) {
  if (const StateId id = find(state, hash); id != no_state) return {id, false};
  if (!reserve(1, {}, false)) return {};
  return insert_reserved(state, hash, parent);
}

StateStore::Inserted StateStore::insert_reserved(const Word* state, std::uint64_t hash,
                                                 StateId parent) {
  const std::uint32_t fp = fingerprint(hash);
  for (std::size_t i = home(hash);; i = next_slot(i)) {
    const std::uint32_t v = slots_[i];
    const std::uint32_t id = v & mask_;
    if (id == mask_) {
      const auto fresh = static_cast<StateId>(size_);
      put(fresh, state, fresh, parent);
      if (keep_parents_) parents_[fresh] = parent;
      slots_[i] = fp | fresh;
      ++size_;
      return {fresh, true};
    }
    if (id != mask_ - 1 && (v & ~mask_) == fp && equal(id, state)) return {id, false};
  }
}

bool StateStore::reserve(std::uint64_t extra, const ParallelFor& parallel, bool claims,
                         Backing* later) {
  if (scratch_used_.load(std::memory_order_relaxed) != 0) {
    throw std::logic_error("loophole: internal error: StateStore::reserve inside a batch");
  }
  const std::uint64_t states = size_ + extra;
  const std::uint64_t capacity = slots_ != nullptr ? capacity_ : 0;
  if ((size_ + tombstones_ + extra) * max_load_den > capacity * max_load_num) {
    if (!grow_index(states, parallel)) return false;
  }
  // Collapsed tables that cost more than they save (states whose components
  // rarely repeat): back to packed states.
  if (collapse_ != nullptr && size_ >= (std::uint64_t{1} << 16) &&
      collapse_->values_bytes() > size_ * (bytes_ - std::min(bytes_, stride_)) / 2 &&
      !uncollapse()) {
    return false;
  }
  if (collapse_ != nullptr && !collapse_->reserve(extra)) return false;
  // (A word of slack after the last state: word_at() reads whole words.)
  Backing now;
  Backing& backing = later != nullptr ? *later : now;
  const bool grown = arena_.ensure(states * stride_ + sizeof(Word), budget_, backing) &&
                     (!keep_parents_ || parents_.ensure(states, budget_, backing));
  now.run(parallel);
  if (grown) reserved_ = std::max(reserved_, states);
  if (!(grown && (!claims || grow_scratch(extra)))) return false;
  // The batch's blocks: those within `extra` (a tentative reference must stay
  // below the index's id bits, which reserve() sized for size() + extra).
  const std::uint64_t blocks = claims ? extra / claim_block : 0;
  for (unsigned c = 0; c <= lanes_; ++c) lane_begin_[c] = blocks * c / lanes_;
  for (unsigned c = 0; c < lanes_; ++c) {
    lane_spans_[c].reset(lane_begin_[c], lane_begin_[c + 1]);
  }
  return true;
}

void StateStore::set_claimers(unsigned n) {
  if (n == 0 || scratch_used_.load(std::memory_order_relaxed) != 0) {
    throw std::logic_error("loophole: internal error: StateStore::set_claimers");
  }
  lanes_ = n;
  lane_spans_ = std::make_unique<TwoEnded[]>(n);
  lane_begin_.assign(n + 1, 0);
}

std::size_t StateStore::take_block(unsigned lane) {
  std::uint64_t block = 0;
  for (unsigned i = 0; i < lanes_; ++i) {
    if (lane_spans_[(lane + i) % lanes_].take(i != 0, block)) {
      scratch_used_.fetch_add(claim_block, std::memory_order_relaxed);
      return block * claim_block;
    }
  }
  throw std::logic_error("loophole: internal error: claims beyond the reserved scratch");
}

template <class Fn>
void StateStore::for_each_taken(Fn fn) const {
  for (unsigned c = 0; c < lanes_; ++c) {
    // (Taken: the lane's front part and its back part; front() <= back().)
    const std::uint64_t front = lane_spans_[c].front(), back = lane_spans_[c].back();
    if (front > lane_begin_[c]) fn(lane_begin_[c] * claim_block, front * claim_block);
    if (back < lane_begin_[c + 1]) fn(back * claim_block, lane_begin_[c + 1] * claim_block);
  }
}

bool StateStore::grow_index(std::uint64_t states, const ParallelFor& parallel) {
  const auto fits = [&](std::uint64_t slots) {
    return states * max_load_den <= slots * max_load_num;
  };
  unsigned bits = min_index_bits;
  while (!fits(std::uint64_t{1} << bits)) ++bits;
  // A small table grows fourfold: every growth rehashes every state, and
  // doubling a table of a million states or two is a tenth of a search's
  // time (cosmere's default scope, 1.58 M states: 3.1 M states rehashed in
  // all when doubling, 1.05 M when growing fourfold below 2^22 slots; one
  // thread's growths 57 ms → 30 ms, two threads' 38 ms → 21 ms).
  if (slots_ != nullptr && bits < bits_ + 2 && bits_ + 2 <= quad_bits) bits = bits_ + 2;
  if (bits > 32) return false;
  std::uint64_t capacity = std::uint64_t{1} << bits;
  // A large table has a power of two slots or one and a half times one,
  // whichever is the smallest to do: at 147 M operators states 3 x 2^26
  // slots (768 MiB, load 0.73) where 2^28 took 1 GiB (load 0.55), and
  // the search's peak was the whole run's.
  if (bits > quad_bits && fits(capacity / 4 * 3)) capacity = capacity / 4 * 3;
  // (Grown for tombstones, the table keeps at least its size.)
  const std::uint64_t old_capacity = slots_ != nullptr ? capacity_ : 0;
  if (capacity < old_capacity) {
    capacity = old_capacity;
    bits = bits_;
  }
  // The table grows in place: rehashing reads the states from the arena, so
  // the old slots are simply overwritten, and their pages are reused.
  const std::size_t bytes = capacity * sizeof(std::uint32_t);
  if (index_.data() == nullptr) {
    index_.reserve(std::min(budget_.limit(), (std::uint64_t{1} << 32) * sizeof(std::uint32_t)),
                   true);
  }
  if (bytes > index_.size()) return false;
  if (!budget_.acquire((capacity - old_capacity) * sizeof(std::uint32_t))) return false;
  slots_ = reinterpret_cast<std::uint32_t*>(index_.data());
  // Filling the table is the first touch of its new half (the huge pages'
  // faults), on this thread: shared with the workers, the fill took 3.5
  // times as long at the seeds' default scopes (operators on two threads:
  // 7.4-8.0 ms in all against 2.0-2.3 ms; bench/RESULTS.md, 2026-11-27
  // midday), and no less at 13.8 M states.
  std::memset(index_.data(), 0xFF, bytes);
  bits_ = bits;
  capacity_ = capacity;
  mask_ = static_cast<std::uint32_t>((std::uint64_t{1} << bits) - 1);
  tombstones_ = 0;
  // In parallel: each part of the table on a thread of its own, plain
  // stores (rehash_parallel). Split by state instead, both threads wrote
  // every line of the table with a compare-and-swap per slot, and the rehash
  // took as long on two threads as on one (13.8 M operators states: 0.40 s
  // in all either way, a tenth of the search).
  constexpr StateId parallel_above = StateId{1} << 13;
  if (!(parallel && size_ > parallel_above && rehash_parallel(parallel))) rehash();
  return true;
}

void StateStore::place(Placed p) {
  for (std::size_t i = p.home;; i = next_slot(i)) {
    if ((slots_[i] & mask_) == mask_) {
      slots_[i] = p.value;
      return;
    }
  }
}

bool StateStore::rehash_parallel(const ParallelFor& parallel) {
  // The table is cut into one part per claimer (at least two), and the states
  // are taken a round at a time: first each task reads and hashes its share
  // of the round and sorts its states into one bucket per part (without a
  // branch: one on a random hash mispredicts every other state), then each
  // task places its part's states from every bucket, in id order, with plain
  // stores. Placing a state is a write to a random line of a table far larger
  // than the caches (about 18 ns, whatever the prefetch distance); reading
  // and hashing it, about 6 ns, done once (when each task read every state
  // and kept its part's, that was half of the rehash on two threads). A run
  // of full slots that reaches the end of its part continues in the next one
  // (or wraps to the start of the table): such states are placed at the end,
  // serially, past the slots the other parts filled, which leaves every state
  // reachable by probing from its home.
  const std::size_t parts = std::max<std::size_t>(2, lanes_);
  const std::uint64_t capacity = capacity_;
  // Part q: the homes h with h * per_part >> 32 == q (no division per
  // state, whatever the capacity), i.e. from ceil(q * 2^32 / per_part).
  const std::uint64_t per_part = (std::uint64_t{parts} << 32) / capacity;
  std::vector<std::size_t> part_begin(parts + 1);
  for (std::size_t q = 0; q <= parts; ++q) {
    part_begin[q] = q == parts
                        ? capacity
                        : std::min<std::uint64_t>(
                              capacity, ((std::uint64_t{q} << 32) + per_part - 1) / per_part);
  }
  // A reader's bucket for each part has room for all of the reader's slice
  // of a round: parts * round states' worth in all (4 MiB on two threads).
  const StateId round_states = std::min<StateId>(rehash_round, static_cast<StateId>(size_));
  const std::size_t slice = (round_states + parts - 1) / parts;  // states a reader reads
  const std::uint64_t bucket_bytes = parts * parts * slice * sizeof(Placed);
  if (!budget_.acquire(bucket_bytes)) return false;
  // (Left uninitialized; a heap that has not got them leaves the rehash
  // serial, as the budget does.)
  const std::unique_ptr<Placed[]> buckets(new (std::nothrow) Placed[parts * parts * slice]);
  if (buckets == nullptr) {
    budget_.release(bucket_bytes);
    return false;
  }
  std::vector<std::size_t> filled(parts * parts);  // by reader * parts + part
  std::vector<std::vector<Placed>> spilled(parts);
  const auto end = static_cast<StateId>(size_);
  for (std::uint64_t round = 0; round < end; round += round_states) {
    const std::uint64_t round_end = std::min<std::uint64_t>(end, round + round_states);
    parallel(parts, [&](std::size_t reader) {
      Placed* mine = buckets.get() + reader * parts * slice;
      // (Written for every state: on lines of their own, line_vector.hpp.)
      LineVector<std::size_t> n(parts);
      LineVector<Word> w(words_);
      const auto from = static_cast<StateId>(round + (round_end - round) * reader / parts);
      const auto to = static_cast<StateId>(round + (round_end - round) * (reader + 1) / parts);
      for (StateId id = from; id < to; ++id) {
        load(id, w.data());
        const std::uint64_t hash = hash_words(w.data(), words_);
        const auto h = static_cast<std::uint32_t>(home(hash));
        const std::size_t q = (std::uint64_t{h} * per_part) >> 32;
        mine[q * slice + n[q]++] = {h, fingerprint(hash) | id};
      }
      for (std::size_t q = 0; q < parts; ++q) filled[reader * parts + q] = n[q];
    });
    parallel(parts, [&](std::size_t q) {
      const std::size_t hi = part_begin[q + 1];
      constexpr std::size_t ahead = 16;
      for (std::size_t reader = 0; reader < parts; ++reader) {
        const Placed* bucket = buckets.get() + (reader * parts + q) * slice;
        const std::size_t n = filled[reader * parts + q];
        for (std::size_t k = 0; k < std::min(n, ahead); ++k) {
          __builtin_prefetch(&slots_[bucket[k].home], 1);  // (for writing)
        }
        for (std::size_t k = 0; k < n; ++k) {
          if (k + ahead < n) __builtin_prefetch(&slots_[bucket[k + ahead].home], 1);
          std::size_t i = bucket[k].home;
          while (i < hi && (slots_[i] & mask_) != mask_) ++i;
          if (i < hi) {
            slots_[i] = bucket[k].value;
          } else {
            spilled[q].push_back(bucket[k]);
          }
        }
      }
    });
  }
  budget_.release(bucket_bytes);
  for (const auto& part : spilled) {
    for (const Placed& p : part) place(p);
  }
  return true;
}

void StateStore::rehash() {
  // Each state lands in a random slot of a table far larger than the caches:
  // hash a few states ahead and prefetch their slots.
  constexpr StateId ahead = 16;
  std::array<std::uint64_t, ahead> hashes{};
  std::vector<Word> w(words_);
  const auto end = static_cast<StateId>(size_);
  for (StateId id = 0; id < end; ++id) {
    load(id, w.data());
    const std::uint64_t hash = hash_words(w.data(), words_);
    __builtin_prefetch(&slots_[home(hash)], 1);  // (for writing)
    if (id >= ahead) place(placed(id - ahead, hashes[(id - ahead) % ahead]));
    hashes[id % ahead] = hash;
  }
  for (StateId id = end - std::min(ahead, end); id < end; ++id) {
    place(placed(id, hashes[id % ahead]));
  }
}

namespace {

constexpr std::size_t scratch_entry_bytes(std::size_t words) {
  return words * sizeof(Word) + sizeof(std::uint64_t) + sizeof(std::uint32_t) +
         3 * sizeof(StateId) + 1;
}

}  // namespace

bool StateStore::grow_scratch(std::uint64_t entries) {
  if (entries <= scratch_capacity_) return true;
  std::size_t capacity = scratch_capacity_ == 0 ? 1024 : scratch_capacity_;
  while (capacity < entries) capacity *= 2;
  const std::size_t per = scratch_entry_bytes(words_);
  if (!budget_.acquire(capacity * per)) return false;
  budget_.release(scratch_capacity_ * per);
  scratch_.reset(new Word[capacity * words_]);
  scratch_key_.reset(new std::uint64_t[capacity]);
  scratch_slot_.reset(new std::uint32_t[capacity]);
  scratch_final_.reset(new StateId[capacity]);
  scratch_entry_.reset(new std::uint32_t[capacity]);
  scratch_parent_.reset(new StateId[capacity]);
  scratch_published_.reset(new std::uint8_t[capacity]);
  scratch_capacity_ = capacity;
  return true;
}

std::uint64_t StateStore::min_key(std::size_t entry, std::uint64_t key) {
  std::atomic_ref<std::uint64_t> k(scratch_key_[entry]);
  std::uint64_t now = k.load(std::memory_order_relaxed);
  while (key < now) {
    if (k.compare_exchange_weak(now, key, std::memory_order_relaxed)) return now;
  }
  return not_earliest;
}

StateStore::Ref StateStore::claim(const Word* state, std::uint64_t hash, std::uint64_t key,
                                  Cursor& cursor, std::uint64_t& displaced) {
  const std::uint32_t fp = fingerprint(hash);
  constexpr std::size_t none = ~std::size_t{0};
  std::size_t mine = none;
  for (std::size_t i = home(hash);; i = next_slot(i)) {
    std::atomic_ref<std::uint32_t> slot(slots_[i]);
    std::uint32_t v = slot.load(std::memory_order_acquire);
    while ((v & mask_) == mask_) {
      if (mine == none) {
        if (cursor.next == cursor.end) {
          cursor.next = take_block(cursor.lane % lanes_);
          cursor.end = cursor.next + claim_block;
          std::memset(&scratch_published_[cursor.next], 0, claim_block);
        }
        mine = cursor.next++;
        std::memcpy(scratch_.get() + mine * words_, state, words_ * sizeof(Word));
        scratch_key_[mine] = key;
        scratch_final_[mine] = no_state;
      }
      scratch_slot_[mine] = static_cast<std::uint32_t>(i);
      const auto ref = static_cast<Ref>(size_ + mine);
      if (slot.compare_exchange_strong(v, fp | ref, std::memory_order_acq_rel,
                                       std::memory_order_acquire)) {
        scratch_published_[mine] = 1;
        displaced = new_entry;
        return ref;
      }
    }
    const Ref r = v & mask_;
    if (r != mask_ - 1 && (v & ~mask_) == fp && equal(r, state)) {
      displaced = r >= size_ ? min_key(r - size_, key) : not_earliest;
      return r;
    }
  }
}

StateId StateStore::assign(Ref r, StateId parent) {
  const auto id = static_cast<StateId>(size_ + assigned_++);
  assign_as(r, id, parent);
  return id;
}

void StateStore::commit(std::uint64_t begin, std::uint64_t end) {
  // New state size_ + i comes from entry e = scratch_entry_[i], whose slot
  // holds the tentative reference size_ + e: rewritten only when e != i.
  // (One thread claims in the order the ids are given, so there e == i, the
  // entries are read in order and no slot is touched; with several threads
  // most slots differ.) The slots are far apart in a table larger than the
  // caches: fetch them a few states ahead. (The entries of consecutive ids
  // are mostly consecutive: claimed by one thread, in order.)
  constexpr std::uint64_t ahead = 16;
  for (std::uint64_t i = begin; i < end; ++i) {
    if (i + ahead < end) {
      const std::uint32_t e = scratch_entry_[i + ahead];
      if (e != i + ahead) __builtin_prefetch(&slots_[scratch_slot_[e]], 1);
    }
    const std::uint32_t e = scratch_entry_[i];
    const auto id = static_cast<StateId>(size_ + i);
    const Word* state = scratch_.get() + std::size_t{e} * words_;
    if (collapse_ == nullptr) {
      copy_bytes(at(id), reinterpret_cast<const std::uint8_t*>(state), bytes_);
    } else if (Collapse::Ids ids{}; collapse_->find(state, ids, near(scratch_parent_[i]))) {
      collapse_->write(at(id), ids);
    } else {
      // (A component value not seen yet: interned serially, by end_batch.)
      const std::lock_guard lock(misses_mutex_);
      misses_.emplace_back(id, e);
    }
    if (e != i) {
      std::uint32_t& slot = slots_[scratch_slot_[e]];
      slot = (slot & ~mask_) | id;
    }
  }
}

void StateStore::drop_unassigned() {
  std::uint64_t dropped = 0;
  for_each_taken([&](std::size_t begin, std::size_t end) {
    for (std::size_t e = begin; e < end; ++e) {
      // (An entry never published may have no slot.)
      if (scratch_published_[e] == 0 || scratch_final_[e] != no_state) continue;
      std::uint32_t& slot = slots_[scratch_slot_[e]];
      slot = (slot & ~mask_) | (mask_ - 1);
      ++dropped;
    }
  });
  dropped_.fetch_add(dropped, std::memory_order_relaxed);
}

void StateStore::end_batch() {
#ifndef NDEBUG
  // Every published entry's slot now holds its final id or a tombstone.
  for_each_taken([&](std::size_t begin, std::size_t end) {
    for (std::size_t e = begin; e < end; ++e) {
      if (scratch_published_[e] == 0) continue;
      const std::uint32_t want = scratch_final_[e] == no_state ? mask_ - 1 : scratch_final_[e];
      if ((slots_[scratch_slot_[e]] & mask_) != want) {
        throw std::logic_error(
            "loophole: internal error: a claimed state was neither committed nor "
            "dropped");
      }
    }
  });
#endif
  if (!misses_.empty()) {
    std::sort(misses_.begin(), misses_.end());
    for (const auto& [id, e] : misses_) {
      put(id, scratch_.get() + std::size_t{e} * words_, size_ + assigned_,
          scratch_parent_[id - size_]);
    }
    misses_.clear();
  }
  size_ += assigned_;
  tombstones_ += dropped_.exchange(0);
  assigned_ = 0;
  scratch_used_.store(0, std::memory_order_relaxed);
}

void StateStore::release_index() {
  if (collapse_ != nullptr) collapse_->release_index();
  if (slots_ != nullptr) budget_.release(capacity_ * sizeof(std::uint32_t));
  slots_ = nullptr;
  index_.reset();
  budget_.release(scratch_capacity_ * scratch_entry_bytes(words_));
  scratch_.reset();
  scratch_key_.reset();
  scratch_slot_.reset();
  scratch_final_.reset();
  scratch_entry_.reset();
  scratch_parent_.reset();
  scratch_published_.reset();
  scratch_capacity_ = 0;
}

std::uint64_t StateStore::state_memory() const {
  return arena_.bytes() + parents_.bytes() + (collapse_ != nullptr ? collapse_->memory() : 0);
}

std::uint64_t StateStore::index_memory() const {
  return (slots_ != nullptr ? capacity_ * sizeof(std::uint32_t) : 0) +
         scratch_capacity_ * scratch_entry_bytes(words_);
}

}  // namespace loophole::checker
