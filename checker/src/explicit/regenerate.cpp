// Rebuilding the states of a graph explored under hash compaction; see
// regenerate.hpp.
#include "regenerate.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "loophole/checker/limits.hpp"

namespace loophole::checker {

namespace {

[[noreturn]] void fail(const std::string& why) {
  throw std::logic_error("loophole: internal error: hash compaction: " + why);
}

// A level of at most this many states per state a pass has read of the
// level before is rebuilt whole; a wider one state by state (a trace reads
// one state per level, a pass all of them).
constexpr std::uint64_t advance_ratio = 64;

// States each thread keeps of those rebuilt one by one (with their
// ancestors): 2^16, a few MiB at the seeds' state sizes.
constexpr std::uint32_t known_capacity = std::uint32_t{1} << 16;
// What a thread keeps instead when the budget has no room for those: a
// few KiB, not counted.
constexpr std::uint32_t known_fallback = 64;
// The bytes of an entry of the map of those states beside its words: the
// node (allocated, 32 bytes) and its bucket.
constexpr std::uint64_t known_entry_bytes = sizeof(StateId) + 40;

}  // namespace

PackedSuccessors::PackedSuccessors(const TransitionSystem& system, const Packer& packer,
                                   const Symmetry* symmetry)
    : system_(system),
      packer_(packer),
      symmetry_(symmetry),
      state_(packer.unpacked_size()),
      scratch_(packer.unpacked_size()) {
  out_.fields = packer.fields();
}

void PackedSuccessors::expand(const Word* source) {
  const std::size_t words = packer_.words();
  packer_.unpack(source, state_.data());
  out_.pack_with = &packer_;
  out_.pack_base = source;
  out_.packed_into = nullptr;
  out_.packed_room = 0;
  out_.packed_external = false;
  system_.successors_flat(state_.data(), out_);
  if (packed_.size() < out_.count * words) packed_.resize(out_.count * words);
  for (std::size_t i = 0; i < out_.count; ++i) {
    Word* to = &packed_[i * words];
    if (out_.wrote_packed) {
      std::memcpy(to, &out_.packed[i * words], words * sizeof(Word));
    } else if (out_.has_dirty) {
      packer_.pack_fields(source, out_.state(i), out_.dirty_of(i), to);
    } else {
      packer_.pack_delta(state_.data(), source, out_.state(i), to);
    }
    if (symmetry_ != nullptr) symmetry_->canonicalise_packed(packer_, to, scratch_.data());
  }
}

struct Regenerator::Cache {
  Cache(const TransitionSystem& system, const Packer& packer, const Symmetry* symmetry,
        const std::vector<Word>& initial)
      : successors(system, packer, symmetry), level_words(initial) {}
  PackedSuccessors successors;
  std::uint32_t level = 0;  // the level held, whole
  std::vector<Word> level_words;
  std::uint64_t served = 0;  // states of it asked for
  // Successors computed for states one by one since the level was set: once
  // they reach the level's width, rebuilding the next level whole would
  // have cost no more (so a pass that reads few states of each level costs
  // at most twice what the cheaper way would).
  std::uint64_t spent = 0;
  // The bytes reserved for its buffers (in the budget), and whether it ran
  // out of room: it then no longer moves its level on.
  std::uint64_t held = 0;
  bool starved = false;
  // The states rebuilt one by one, and their ancestors rebuilt on the way,
  // the latest known_capacity of them: id -> slot of known_words (a ring,
  // its oldest entry overwritten). Random reads share ancestors, so a read
  // rebuilds from the nearest one known, not from level 0.
  std::unordered_map<StateId, std::uint32_t> known;
  std::vector<StateId> known_ids;  // by slot
  std::vector<Word> known_words;
  std::uint32_t known_size = 0;  // slots: known_capacity, or known_fallback
  std::uint32_t known_next = 0;
  std::vector<StateId> path;
  std::vector<Word> next_words;
  std::vector<bool> filled;
};

Regenerator::Regenerator(const TransitionSystem& system, const Packer& packer,
                         const Symmetry* symmetry, const StateStore& store, const EdgeStore& edges,
                         const std::vector<StateId>& levels, MemoryBudget& budget,
                         RunLimits* limits)
    : system_(system),
      packer_(packer),
      symmetry_(symmetry),
      store_(store),
      edges_(edges),
      levels_(levels),
      budget_(budget),
      limits_(limits) {
  // Level 0 as the search inserted it: the initial states' canonical forms
  // in order, each the first time its fingerprint occurs.
  const std::size_t words = packer_.words();
  const StateId initial = level_end(0);
  std::vector<Word> w(words);
  std::vector<std::int32_t> scratch(packer_.unpacked_size());
  std::vector<std::uint64_t> seen;
  for (const StateVec& s : system_.initial_states()) {
    if (seen.size() == initial) break;
    packer_.pack(s, w.data());
    if (symmetry_ != nullptr) symmetry_->canonicalise_packed(packer_, w.data(), scratch.data());
    const std::uint64_t h = hash_words(w.data(), words);
    if (std::find(seen.begin(), seen.end(), h) != seen.end()) continue;
    check(static_cast<StateId>(seen.size()), w.data());
    seen.push_back(h);
    initial_.insert(initial_.end(), w.begin(), w.end());
  }
  if (seen.size() != initial) fail("the initial states are not those explored");
}

Regenerator::~Regenerator() {
  for (const auto& [thread, c] : caches_) budget_.release(c->held);
}

bool Regenerator::grow(Cache& c, std::uint64_t bytes) const {
  if (bytes == 0) return true;
  if (c.starved) return false;
  bool room = budget_.acquire(bytes);
  if (room && limits_ != nullptr && !limits_->afford(bytes)) {  // (afford stops the run)
    budget_.release(bytes);
    room = false;
  }
  if (!room) {
    if (limits_ != nullptr) limits_->trip(Completion::memory_limit);
    c.starved = true;
    return false;
  }
  c.held += bytes;
  return true;
}

// (A buffer grows by at least an eighth, so a pass whose levels widen one
// by one asks the limits a few dozen times, not once a level.)
bool Regenerator::fit(Cache& c, std::vector<Word>& v, std::uint64_t n) const {
  if (n <= v.capacity()) return true;
  const std::uint64_t want = std::max<std::uint64_t>(n, v.capacity() + v.capacity() / 8);
  if (!grow(c, (want - v.capacity()) * sizeof(Word))) return false;
  v.reserve(want);
  return true;
}

bool Regenerator::fit(Cache& c, std::vector<bool>& v, std::uint64_t n) const {
  if (n <= v.capacity()) return true;
  const std::uint64_t want = std::max<std::uint64_t>(n, v.capacity() + v.capacity() / 8);
  if (!grow(c, (want - v.capacity() + 63) / 64 * 8)) return false;
  v.reserve(want);
  return true;
}

std::uint32_t Regenerator::depth(StateId id) const {
  const auto it = std::upper_bound(levels_.begin(), levels_.end(), id);
  return static_cast<std::uint32_t>(it - levels_.begin() - 1);
}

StateId Regenerator::level_begin(std::uint32_t d) const { return levels_[d]; }

StateId Regenerator::level_end(std::uint32_t d) const {
  return d + 1 < levels_.size() ? levels_[d + 1] : static_cast<StateId>(store_.size());
}

std::uint32_t Regenerator::parent_index(StateId id) const {
  const StateId p = store_.parent(id);
  for (std::uint64_t i = edges_.begin(p), e = edges_.end(p); i < e; ++i) {
    if (edges_.target(i) == id) return static_cast<std::uint32_t>(i - edges_.begin(p));
  }
  fail("state " + std::to_string(id) + " is not a successor of its parent");
}

void Regenerator::check(StateId id, const Word* words) const {
  Word fingerprint = 0;
  store_.load(id, &fingerprint);
  if (hash_words(words, packer_.words()) != fingerprint) {
    fail("state " + std::to_string(id) + " does not rebuild to its fingerprint");
  }
}

Regenerator::Cache& Regenerator::cache() const {
  const std::lock_guard lock(mutex_);
  auto& c = caches_[std::this_thread::get_id()];
  if (!c) {
    c = std::make_unique<Cache>(system_, packer_, symmetry_, initial_);
    (void)grow(*c, c->level_words.capacity() * sizeof(Word));  // (level 0: a few states)
  }
  return *c;
}

// Level d + 1 from level d: each of its states is the successor of its
// parent by the parent's first edge to it. False when there is no room for
// it (then nothing changed).
bool Regenerator::advance(Cache& c) const {
  const std::size_t words = packer_.words();
  const StateId from = level_begin(c.level), to = level_begin(c.level + 1);
  const StateId end = level_end(c.level + 1);
  if (!fit(c, c.next_words, std::uint64_t{end - to} * words) || !fit(c, c.filled, end - to)) {
    return false;
  }
  c.next_words.assign(std::uint64_t{end - to} * words, 0);
  c.filled.assign(end - to, false);
  for (StateId u = from; u < to && u < edges_.states(); ++u) {
    c.successors.expand(&c.level_words[std::uint64_t{u - from} * words]);
    const std::uint64_t b = edges_.begin(u), e = edges_.end(u);
    if (e - b != c.successors.count()) fail("state " + std::to_string(u) + " has other successors");
    for (std::uint64_t i = b; i < e; ++i) {
      const StateId t = edges_.target(i);
      if (t < to || t >= end || c.filled[t - to] || store_.parent(t) != u) continue;
      c.filled[t - to] = true;
      std::memcpy(&c.next_words[std::uint64_t{t - to} * words], c.successors.state(i - b),
                  words * sizeof(Word));
      check(t, c.successors.state(i - b));
    }
  }
  if (std::find(c.filled.begin(), c.filled.end(), false) != c.filled.end()) {
    fail("level " + std::to_string(c.level + 1) + " does not rebuild");
  }
  std::swap(c.level_words, c.next_words);
  ++c.level;
  c.served = 0;
  c.spent = 0;
  return true;
}

const Word* Regenerator::chain(Cache& c, StateId id) const {
  const std::size_t words = packer_.words();
  if (c.known_size == 0) {
    const std::uint64_t ring =
        std::uint64_t{known_capacity} * (words * sizeof(Word) + known_entry_bytes);
    c.known_size = grow(c, ring) ? known_capacity : known_fallback;
    c.known_ids.assign(c.known_size, no_state);
    c.known_words.resize(std::uint64_t{c.known_size} * words);
    c.known.reserve(c.known_size);
  }
  // Up to the nearest ancestor known: in the level held, rebuilt before,
  // or in level 0.
  c.path.clear();
  StateId v = id;
  const Word* base = nullptr;
  for (;;) {
    const std::uint32_t d = depth(v);
    if (d == c.level) {
      base = &c.level_words[std::uint64_t{v - level_begin(d)} * words];
      break;
    }
    if (const auto it = c.known.find(v); it != c.known.end()) {
      base = &c.known_words[std::uint64_t{it->second} * words];
      break;
    }
    if (d == 0) {
      base = &initial_[std::uint64_t{v} * words];
      break;
    }
    c.path.push_back(v);
    v = store_.parent(v);
  }
  c.spent += c.path.size();
  // And down again, a successor at a time, each kept.
  for (auto it = c.path.rbegin(); it != c.path.rend(); ++it) {
    const StateId s = *it;
    c.successors.expand(base);
    const std::uint32_t index = parent_index(s);
    if (index >= c.successors.count()) fail("state " + std::to_string(s) + " does not rebuild");
    const std::uint32_t slot = c.known_next;
    c.known_next = (c.known_next + 1) % c.known_size;
    if (c.known_ids[slot] != no_state) c.known.erase(c.known_ids[slot]);
    c.known_ids[slot] = s;
    c.known[s] = slot;
    Word* into = &c.known_words[std::uint64_t{slot} * words];
    std::memcpy(into, c.successors.state(index), words * sizeof(Word));
    check(s, into);
    base = into;
  }
  return base;
}

void Regenerator::load(StateId id, Word* out) const {
  Cache& c = cache();
  const std::size_t words = packer_.words();
  const std::uint32_t d = depth(id);
  // A pass starting again (from level 0, the levels before the one held
  // are rebuilt as it reads them).
  if (d < c.level) {
    (void)fit(c, c.level_words, initial_.size());  // (a few states: assigned even so)
    c.level_words.assign(initial_.begin(), initial_.end());
    c.level = 0;
    c.served = 0;
    c.spent = 0;
  }
  // A pass moving on to the next level, having read enough of this one, or
  // having spent on single states what the next level costs.
  while (d > c.level) {
    const std::uint64_t width = level_end(c.level) - level_begin(c.level);
    if (!(d == c.level + 1 && width <= advance_ratio * (c.served + 1)) && c.spent < width) break;
    if (!advance(c)) break;  // no room: state by state (and the run stops)
  }
  const Word* w = nullptr;
  if (d == c.level) {
    ++c.served;
    w = &c.level_words[std::uint64_t{id - level_begin(d)} * words];
  } else {
    w = chain(c, id);
  }
  std::memcpy(out, w, words * sizeof(Word));
}

}  // namespace loophole::checker
