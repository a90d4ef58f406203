// One chunk of a level-synchronous parallel breadth-first search (the
// level loop: bfs.cpp).
//
// A level is expanded in chunks of source states. Each chunk goes through
// four phases: (1) expand, in parallel: each task unpacks its sources, calls
// the successor function and packs every successor into its own buffer;
// (2) claim, in parallel: every packed successor is looked up in the state
// store, new ones claimed lock-free with a key = (task, position) that orders
// them as a sequential search would meet them, each task noting which of
// its claims were earliest as they happen; (3) walk: in (source, successor
// index) order, give each new state the next id at its first occurrence and
// append the edges (on all threads: the claims' per-task counts and a prefix
// sum give each task its first id and edge position); (4) commit, in
// parallel: copy new states into the arena and finish their hash slots.
// Numbering, parents and edges are therefore exactly those of a one-thread
// search, for every thread count and every chunking. What stays serial is per
// task, never per source or move, so the successor function stays the
// bottleneck. Each worker has a region of the chunk, the same in every phase
// (its share of the sources, their successors, their claims and edges, and
// its share of the new states, which are its sources in the next level), so
// that it mostly reads what it wrote itself; tasks shrink towards the end of
// a region, and a worker done with its own takes the others' last ones, so
// the threads finish a phase together. A chunk of a few hundred sources runs
// on the calling thread alone, and a chunk on one thread skips phases (2) to
// (4): it inserts each successor in that order as it goes (insert_chunk).
//
// Inside a chunk, the expand phase's tasks check for interrupts and the
// deadline (SearchStop) and the serial walk for a state limit (walk_serial);
// bfs.cpp says what a stop keeps.
#include "bfs_chunk.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <deque>
#include <stdexcept>

#include "workers.hpp"

namespace loophole::checker {

namespace {

using Clock = std::chrono::steady_clock;

// New states committed per task: at least four tasks per thread (a chunk of
// ten thousand new states in two 8192-state tasks kept one thread busy for
// most of the phase), at most commit_grain.
constexpr std::size_t commit_grain = 8192, min_commit_grain = 512;

// Adds the time since the last lap to a field of PhaseTimes (or to `other`
// for the time before the first), when there is a PhaseTimes.
class Lap {
 public:
  explicit Lap(PhaseTimes* times) : times_(times) {
    if (times_ != nullptr) {
      last_ = Clock::now();
      ++times_->chunks;
    }
  }
  void to(double PhaseTimes::*field) {
    if (times_ == nullptr) return;
    const auto now = Clock::now();
    times_->*(field != nullptr ? field : &PhaseTimes::other) +=
        std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  PhaseTimes* times_;
  Clock::time_point last_;
};

class ChunkPhases final : public ChunkSearch {
 public:
  ChunkPhases(const TransitionSystem& system, const ExplicitOptions& options,
              const SearchTuning& tuning, ExplicitGraph& graph, int threads, SearchStop& stop)
      : system_(system),
        options_(options),
        tuning_(tuning),
        packer_(graph.packer()),
        store_(graph.store()),
        edges_(graph.edge_store()),
        budget_(graph.budget()),
        symmetry_(graph.symmetry()),
        frontier_(graph.frontier()),
        stop_(stop),
        workers_(threads),
        scratch_(static_cast<std::size_t>(threads)),
        pools_(static_cast<std::size_t>(threads)) {
    // Each worker sizes its buffers itself (expand_task): allocated here, on
    // one thread, the workers' source words would share cache lines, written
    // by both for every source.
    for (auto& s : scratch_) s.successors.fields = packer_.fields();
    store_.set_claimers(static_cast<unsigned>(threads));
  }

  ~ChunkPhases() override {
    for (auto& pool : pools_) {
      for (auto& t : pool) budget_.release(t.accounted);
    }
  }
  ChunkPhases(const ChunkPhases&) = delete;
  ChunkPhases& operator=(const ChunkPhases&) = delete;
  ChunkPhases(ChunkPhases&&) = delete;
  ChunkPhases& operator=(ChunkPhases&&) = delete;

 private:
  // The successors of one task's sources, in order. (Aligned: tasks and
  // workers run side by side, and must not share cache lines.)
  struct alignas(64) TaskBuffer {
    StateId first = 0, last = 0;     // sources [first, last)
    std::unique_ptr<Word[]> words;   // packed successors, words() each (no
    std::size_t used = 0, room = 0;  // zero-filling: they are written over)
    LineVector<std::uint64_t> hashes;
    LineVector<Word> keys;  // hash compaction: each successor's fingerprint
    LineVector<std::uint16_t> labels;
    LineVector<StateStore::Ref> refs;
    LineVector<std::uint32_t> degrees;                             // successors per source
    std::array<std::uint64_t, EdgeStore::raw_labels / 64> seen{};  // raw move labels present
    // The task's claims that made their entry or took its earliest key from
    // a later task's claim, in order: record << 32 | reference. The task's
    // new states are those of them still earliest when the claims are done.
    std::unique_ptr<std::uint64_t[]> firsts;  // (room for every record)
    std::size_t firsts_room = 0, firsts_used = 0;
    StateId first_id = 0;          // id of the task's first new state
    std::uint64_t first_edge = 0;  // position of the task's first edge
    std::uint64_t accounted = 0;   // bytes acquired from the budget
    // Of `firsts`, how many earlier tasks' claims took back (added to by the
    // claiming thread, on a line of its own).
    alignas(64) std::atomic<std::uint64_t> lost{0};
  };

  struct alignas(64) WorkerScratch {
    StateStore::Cursor cursor;
    LineVector<Word> words;
    LineVector<std::int32_t> state;
    LineVector<std::int32_t> canonical;  // Symmetry::canonicalise_packed's scratch
    LineVector<std::uint8_t> turns;      // each successor's Edge::turn
    FlatSuccessors successors;
  };

  // Room in `b` for `more` records, asked of the budget before growing.
  bool fit(TaskBuffer& b, std::size_t more) {
    const std::size_t need = b.hashes.size() + more;
    if (need <= b.hashes.capacity()) return true;
    const auto capacity = std::max<std::size_t>({need, 2 * b.hashes.capacity(), 256});
    const std::uint64_t bytes = capacity * (packer_.words() * sizeof(Word) +
                                            (frontier_ != nullptr ? 2 : 1) * sizeof(std::uint64_t) +
                                            sizeof(std::uint16_t) + sizeof(StateStore::Ref));
    if (bytes > b.accounted) {
      if (!budget_.acquire(bytes - b.accounted)) return false;
      b.accounted = bytes;
    }
    if (capacity * packer_.words() > b.room) {
      auto grown = std::make_unique_for_overwrite<Word[]>(capacity * packer_.words());
      if (b.used != 0) std::memcpy(grown.get(), b.words.get(), b.used * sizeof(Word));
      b.words = std::move(grown);
      b.room = capacity * packer_.words();
    }
    b.hashes.reserve(capacity);
    if (frontier_ != nullptr) b.keys.reserve(capacity);
    b.labels.reserve(capacity);
    b.refs.reserve(capacity);
    return true;
  }

  void expand_task(TaskBuffer& b, WorkerScratch& s) {
    const std::size_t words = packer_.words();
    if (s.words.size() != words) s.words.resize(words);
    if (s.state.size() != packer_.unpacked_size()) s.state.resize(packer_.unpacked_size());
    for (StateId src = b.first; src < b.last; ++src) {
      // (The clock is read every 16 sources.)
      if (stop_.check((src - b.first) % 16 == 0)) return;
      if (frontier_ != nullptr) {
        std::memcpy(s.words.data(), frontier_->source(src), words * sizeof(Word));
      } else {
        store_.load(src, s.words.data());
      }
      packer_.unpack(s.words.data(), s.state.data());
      FlatSuccessors& out = s.successors;
      out.pack_with = &packer_;
      out.pack_base = s.words.data();
      // (The generator packs into this task's buffer while there is room.)
      out.packed_into = b.words.get() + b.used;
      out.packed_room = b.room - b.used;
      out.packed_external = true;
      system_.successors_flat(s.state.data(), out);
      const std::size_t made = out.count * words;
      const bool in_place = out.wrote_packed && out.packed_external;
      // (Successors already in the buffer count as used, so that a buffer
      // fit() grows keeps them.)
      if (in_place) b.used += made;
      if (!fit(b, out.count)) {
        stop_.stop(Completion::memory_limit);
        return;
      }
      if (!in_place) b.used += made;  // within the room fit() made
      const std::size_t first = b.used - made;
      if (out.wrote_packed) {
        if (!in_place && made != 0) {
          std::memcpy(b.words.get() + first, out.packed.data(), made * sizeof(Word));
        }
      } else {
        for (std::size_t i = 0; i < out.count; ++i) {
          Word* to = b.words.get() + first + i * words;
          if (out.has_dirty) {
            packer_.pack_fields(s.words.data(), out.state(i), out.dirty_of(i), to);
          } else {
            packer_.pack_delta(s.state.data(), s.words.data(), out.state(i), to);
          }
        }
      }
      if (symmetry_ != nullptr) {
        // The hook of symmetry reduction: a successor is stored, hashed and
        // looked up as its canonical form.
        if (s.canonical.size() != packer_.unpacked_size()) {
          s.canonical.resize(packer_.unpacked_size());
        }
        // (The move's turn, its successor's active player, is read first:
        // PlayerView rotates by it.)
        s.turns.clear();
        for (std::size_t i = 0; i < out.count; ++i) {
          Word* w = b.words.get() + first + i * words;
          s.turns.push_back(static_cast<std::uint8_t>(symmetry_->turn_packed(packer_, w)));
          symmetry_->canonicalise_packed(packer_, w, s.canonical.data());
        }
      }
      for (std::size_t i = 0; i < out.count; ++i) {
        const std::size_t at = first + i * words;
        const std::uint64_t hash = hash_words(b.words.get() + at, words);
        if (frontier_ != nullptr) {
          // Hash compaction: the store's key is the state's hash, and the
          // store hashes its keys as it hashes states (a rehash recomputes
          // them from the keys).
          b.keys.push_back(hash);
          b.hashes.push_back(hash_words(&b.keys.back(), 1));
        } else {
          b.hashes.push_back(hash);
        }
        const MoveInfo& m = out.moves[i];
        const std::uint16_t label = EdgeStore::label(
            m.kind, m.progress, m.chooser, m.chooser_player, symmetry_ != nullptr ? s.turns[i] : 0);
        b.labels.push_back(label);
        b.seen[label >> 6] |= std::uint64_t{1} << (label & 63);
      }
      b.degrees.push_back(static_cast<std::uint32_t>(out.count));
    }
  }

  // What the store keys successor k of `b` by: its packed words, or under
  // hash compaction its 64-bit hash (the fingerprint stored).
  [[nodiscard]] const Word* key(const TaskBuffer& b, std::size_t k) const {
    return frontier_ != nullptr ? &b.keys[k] : b.words.get() + k * packer_.words();
  }

  // Claims task t's successors; and, when the walk is walk_parallel, notes
  // the task's earliest claims (firsts, lost) and gives the edges of its
  // sources' groups their bases (EdgeStore::close_bases).
  void claim_task(std::size_t t, StateStore::Cursor& cursor, bool parallel_walk) {
    TaskBuffer& b = task(t);
    const std::uint64_t base = std::uint64_t{t} << 32;
    const std::size_t n = b.hashes.size();
    b.refs.resize(n);
    constexpr std::size_t ahead = 16;  // prefetch the hash slots of later records
    for (std::size_t j = 0; j < std::min(ahead, n); ++j) store_.prefetch(b.hashes[j]);
    std::uint64_t* const firsts = b.firsts.get();
    std::size_t used = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j + ahead < n) store_.prefetch(b.hashes[j + ahead]);
      std::uint64_t displaced = 0;
      const StateStore::Ref r = store_.claim(key(b, j), b.hashes[j], base | j, cursor, displaced);
      b.refs[j] = r;
      // (Written always, kept when earliest: no branch on a coin flip.)
      firsts[used] = std::uint64_t{j} << 32 | r;
      used += displaced != StateStore::not_earliest ? 1 : 0;
      if (displaced < StateStore::new_entry) [[unlikely]] {
        task(displaced >> 32).lost.fetch_add(1, std::memory_order_relaxed);
      }
    }
    b.firsts_used = used;
    if (parallel_walk) edges_.close_bases(b.first, b.first_edge, b.degrees);
  }

  // Before the claims: room in each task's firsts for all of its records
  // (asked of the budget: false when it refuses, before any claim); and,
  // for walk_parallel(), each task's first edge position and room for the
  // edges' group bases.
  bool claims_ready(std::size_t tasks, bool parallel_walk) {
    if (edges_.states() != task(0).first) {
      throw std::logic_error("loophole: internal error: a chunk does not start at the open state");
    }
    std::uint64_t edge = edges_.size();
    for (std::size_t t = 0; t < tasks; ++t) {
      TaskBuffer& b = task(t);
      b.first_edge = edge;
      edge += b.hashes.size();
      if (b.firsts_room < b.hashes.size()) {
        const std::size_t room = std::max(b.hashes.size(), 2 * b.firsts_room);
        const std::uint64_t more = (room - b.firsts_room) * sizeof(std::uint64_t);
        if (!budget_.acquire(more)) return false;
        b.accounted += more;
        b.firsts = std::make_unique_for_overwrite<std::uint64_t[]>(room);
        b.firsts_room = room;
      }
    }
    if (parallel_walk) edges_.prepare_close(task(tasks - 1).last);
    return true;
  }

  // One thread's chunk: every successor goes into the store as it comes, in
  // (source, successor index) order, which is the order the walk numbers
  // the first claims in, so the ids, parents and edges are the walk's; with
  // no claims there is no scratch to write, walk or commit (at 13.8 M
  // operators states, one thread: 0.2 s of 5 s).
  void insert_chunk(std::size_t tasks) {
    const std::size_t words = packer_.words();
    constexpr std::size_t ahead = 16;  // as claim_task
    for (std::size_t t = 0; t < tasks; ++t) {
      const TaskBuffer& b = task(t);
      const std::size_t n = b.hashes.size();
      for (std::size_t j = 0; j < std::min(ahead, n); ++j) store_.prefetch(b.hashes[j]);
      StateId src = b.first;
      std::size_t k = 0;
      for (const std::uint32_t degree : b.degrees) {
        for (const std::size_t end = k + degree; k < end; ++k) {
          if (k + ahead < n) store_.prefetch(b.hashes[k + ahead]);
          const StateStore::Inserted in = store_.insert_reserved(key(b, k), b.hashes[k], src);
          if (frontier_ != nullptr && in.fresh) frontier_->put(in.id, b.words.get() + k * words);
          edges_.add(in.id, b.labels[k]);
        }
        edges_.close_state();
        ++src;
      }
    }
  }

  // Numbers the new states and appends the edges on all threads, after the
  // claims counted each task's first claims and closed the edges' group
  // bases (claim_task): give each task its first id (serial, per task
  // only), then assign the ids from each task's firsts, and then write the
  // edges (which may point at ids of later tasks) while the new states are
  // committed. The sources' edge offsets are closed alongside. The result
  // is walk_serial()'s.
  void walk_parallel(std::size_t tasks) {
    std::uint64_t id = store_.size();
    const std::uint64_t edge = task(tasks - 1).first_edge + task(tasks - 1).hashes.size();
    for (std::size_t t = 0; t < tasks; ++t) {
      TaskBuffer& b = task(t);
      b.first_id = static_cast<StateId>(id);
      id += b.firsts_used - b.lost.load(std::memory_order_relaxed);
      for (std::size_t w = 0; w < b.seen.size(); ++w) {
        for (std::uint64_t bits = b.seen[w]; bits != 0; bits &= bits - 1) {
          edges_.intern(static_cast<std::uint16_t>(w * 64 + std::countr_zero(bits)));
        }
      }
    }
    edges_.finish_close(task(tasks - 1).last, edge);
    store_.set_assigned(id - store_.size());
    run_phase(tasks, [&](std::size_t t, int) {
      const TaskBuffer& b = task(t);
      edges_.close_offsets(b.first, b.first_edge, b.degrees);
      const std::uint64_t base = std::uint64_t{t} << 32;
      StateId next = b.first_id, src = b.first;
      // (The firsts are in record order: the source of record k is found by
      // walking the degrees alongside.)
      std::size_t source = 0;
      std::uint64_t end = b.degrees.empty() ? 0 : b.degrees[0];
      for (std::size_t i = 0; i < b.firsts_used; ++i) {
        const std::uint64_t f = b.firsts[i];
        const std::uint64_t k = f >> 32;
        const auto r = static_cast<StateStore::Ref>(f);
        while (k >= end) end += b.degrees[++source];
        if (store_.first(r, base | k)) {
          if (frontier_ != nullptr) frontier_->put(next, b.words.get() + k * packer_.words());
          store_.assign_as(r, next++, src + static_cast<StateId>(source));
        }
      }
    });
  }

  void write_edges(std::size_t t) {
    const TaskBuffer& b = task(t);
    for (std::size_t k = 0; k < b.refs.size(); ++k) {
      edges_.set(b.first_edge + k, store_.resolve(b.refs[k]), b.labels[k]);
    }
  }

  // The same, one record at a time; with a state limit, this cuts the chunk
  // before the first source whose new states would not fit (and returns
  // false).
  bool walk_serial(std::size_t tasks) {
    const std::uint64_t limit = options_.max_states;
    for (std::size_t t = 0; t < tasks; ++t) {
      const TaskBuffer& b = task(t);
      const std::uint64_t base = std::uint64_t{t} << 32;
      StateId src = b.first;
      std::size_t j = 0;
      for (const std::uint32_t degree : b.degrees) {
        if (limit != 0 && store_.size() + store_.assigned() + degree > limit) {
          std::uint64_t fresh = 0;
          for (std::size_t k = j; k < j + degree; ++k) {
            const StateStore::Ref r = b.refs[k];
            if (store_.is_tentative(r) && store_.first(r, base | k)) ++fresh;
          }
          if (store_.size() + store_.assigned() + fresh > limit) return false;
        }
        for (std::size_t k = j; k < j + degree; ++k) {
          const StateStore::Ref r = b.refs[k];
          StateId to = 0;
          if (!store_.is_tentative(r)) {
            to = r;
          } else if (store_.first(r, base | k)) {
            to = store_.assign(r, src);
            if (frontier_ != nullptr) frontier_->put(to, b.words.get() + k * packer_.words());
          } else {
            to = store_.resolve(r);
          }
          edges_.add(to, b.labels[k]);
        }
        edges_.close_state();
        j += degree;
        ++src;
      }
    }
    return true;
  }

  // Runs a phase of the current chunk: on the team, or on this thread alone
  // when the chunk is too small to share (every phase of a chunk alike). The
  // workers' regions are those of the chunk's tasks (bounds_) unless the
  // phase has tasks of its own.
  void run_phase(std::size_t tasks, const std::function<void(std::size_t, int)>& fn,
                 const std::vector<std::size_t>* bounds = nullptr) {
    if (!solo_) return workers_.run(tasks, fn, bounds != nullptr ? bounds : &bounds_);
    for (std::size_t t = 0; t < tasks; ++t) fn(t, 0);
  }

 public:
  bool expand(StateId begin, StateId end) override {
    Lap lap(tuning_.phases);
    const StateId n = end - begin;
    // A level of a few hundred states is done sooner by one thread than
    // handed around (each phase costs the team a hand-over and a barrier).
    solo_ = n < tuning_.solo_below;
    // The sources are split into one region per worker (Workers: each phase
    // of the chunk runs region w's tasks on worker w first), and each region
    // into contiguous tasks that shrink towards its end (a quarter of what is
    // left, at least 16 sources): few tasks, and the last ones small, so that
    // a worker done early takes small ones from another's end and nobody
    // waits long at the end of a phase (one thread: four equal tasks). The
    // split depends on the chunk and the team size only, and the numbering
    // not at all.
    const auto team = static_cast<StateId>(workers_.size());
    std::size_t tasks = 0;
    bounds_.assign(1, 0);
    for (StateId r = 0; r < team; ++r) {
      const StateId region_end = begin + static_cast<StateId>(std::uint64_t{n} * (r + 1) / team);
      for (StateId first = begin + static_cast<StateId>(std::uint64_t{n} * r / team);
           first < region_end; ++tasks) {
        const StateId left = region_end - first;
        const StateId size = team == 1 ? std::min(left, std::max<StateId>(16, (n + 3) / 4))
                                       : std::min(left, std::max<StateId>(16, left / 4));
        // (Region r's tasks use region r's buffers: worker r wrote them last.)
        const std::size_t k = tasks - bounds_.back();
        if (pools_[r].size() <= k) pools_[r].emplace_back();
        if (tasks_.size() <= tasks) tasks_.resize(tasks + 1);
        tasks_[tasks] = &pools_[r][k];
        TaskBuffer& b = task(tasks);
        b.first = first;
        b.last = first + size;
        b.used = 0;
        b.hashes.clear();
        b.keys.clear();
        b.labels.clear();
        b.refs.clear();
        b.degrees.clear();
        b.firsts_used = 0;
        b.lost.store(0, std::memory_order_relaxed);
        b.seen.fill(0);
        first += size;
      }
      bounds_.push_back(tasks);
    }
    lap.to(nullptr);
    run_phase(tasks, [&](std::size_t t, int w) {
      expand_task(task(t), scratch_[static_cast<std::size_t>(w)]);
    });
    lap.to(&PhaseTimes::expand);
    if (stop_.stopped()) return false;

    std::uint64_t records = 0;
    for (std::size_t t = 0; t < tasks; ++t) records += task(t).hashes.size();
    // (With one thread, growing the index rehashes serially: plain stores,
    // no compare-and-swap per state.)
    StateStore::ParallelFor parallel;
    if (workers_.size() > 1) {
      parallel = [&](std::size_t n_tasks, const std::function<void(std::size_t)>& body) {
        workers_.run(n_tasks, [&](std::size_t t, int) { body(t); });
      };
    }
    const bool serial = options_.max_states != 0 && store_.size() + records > options_.max_states;
    // A chunk one thread does alone needs no claims (insert_chunk).
    const bool direct = !serial && (solo_ || workers_.size() == 1);
    const std::uint64_t slack = direct ? 0 : StateStore::claim_block * scratch_.size();
    // (What the arrays grow by is backed in one go, on the team: backing_.)
    if (!store_.reserve(records + slack, parallel, !direct, &backing_) ||
        (frontier_ != nullptr && !frontier_->reserve(store_.size() + records)) ||
        !edges_.reserve(edges_.states() + n, edges_.size() + records, parallel, &backing_)) {
      backing_.clear();
      stop_.stop(Completion::memory_limit);
      return false;
    }
    backing_.run(parallel);
    lap.to(&PhaseTimes::reserve);
    if (direct) {
      insert_chunk(tasks);
      lap.to(&PhaseTimes::claim);
      return true;
    }
    if (!claims_ready(tasks, !serial)) {
      stop_.stop(Completion::memory_limit);
      return false;
    }
    // (Worker w claims into scratch lane w: the lines it wrote last chunk.)
    for (std::size_t w = 0; w < scratch_.size(); ++w) {
      scratch_[w].cursor = {0, 0, static_cast<unsigned>(w)};
    }
    run_phase(tasks, [&](std::size_t t, int w) {
      claim_task(t, scratch_[static_cast<std::size_t>(w)].cursor, !serial);
    });
    lap.to(&PhaseTimes::claim);
    bool whole = true;
    if (serial) {
      whole = walk_serial(tasks);
    } else {
      walk_parallel(tasks);
    }
    // Commit the new states (and, after walk_parallel, write the edges).
    // (A walk cut short leaves first claims without an id: they are dropped.)
    if (!whole) store_.drop_unassigned();
    lap.to(&PhaseTimes::walk);
    // Region w: the edges of region w's tasks, and the w-th share of the new
    // states, which are region w's sources when the next chunk is this one's
    // new level (the states the tasks of region w found are close to that
    // share, but the next chunk splits its sources equally).
    const std::uint64_t fresh = store_.assigned();
    const std::uint64_t grain = std::clamp<std::uint64_t>(
        fresh / (std::uint64_t{4} * static_cast<std::uint64_t>(workers_.size())), min_commit_grain,
        commit_grain);
    finals_.clear();
    final_bounds_.assign(1, 0);
    for (std::size_t r = 0; r + 1 < bounds_.size(); ++r) {
      const std::size_t regions = bounds_.size() - 1;
      if (!serial) {
        for (std::size_t t = bounds_[r]; t < bounds_[r + 1]; ++t) finals_.push_back({true, t, 0});
      }
      const std::uint64_t from = r * fresh / regions, to = (r + 1) * fresh / regions;
      for (std::uint64_t c = from; c < to; c += grain) {
        finals_.push_back({false, c, std::min(to, c + grain)});
      }
      final_bounds_.push_back(finals_.size());
    }
    run_phase(
        finals_.size(),
        [&](std::size_t r, int) {
          const Final& f = finals_[r];
          if (f.edges) {
            write_edges(f.begin);
          } else {
            store_.commit(f.begin, f.end);
          }
        },
        &final_bounds_);
    store_.end_batch();
    lap.to(&PhaseTimes::commit);
    if (!whole) stop_.stop(Completion::state_limit);
    return whole;
  }

 private:
  const TransitionSystem& system_;
  const ExplicitOptions& options_;
  const SearchTuning& tuning_;
  const Packer& packer_;
  StateStore& store_;
  EdgeStore& edges_;
  MemoryBudget& budget_;
  const Symmetry* symmetry_;  // null: no reduction
  Frontier* frontier_;        // hash compaction: the levels' packed states; else null
  SearchStop& stop_;
  Workers workers_;
  bool solo_ = false;                // this chunk runs on the calling thread alone
  std::vector<std::size_t> bounds_;  // the workers' regions of the chunk's tasks
  struct Final {
    bool edges;                // write task `begin`'s edges; or commit new states [begin, end)
    std::uint64_t begin, end;  // (of store_.assigned())
  };
  std::vector<Final> finals_;  // the last phase of a chunk, and its regions
  std::vector<std::size_t> final_bounds_;
  std::vector<WorkerScratch> scratch_;
  Backing backing_;                            // a chunk's growth, backed after reserve
  std::vector<TaskBuffer*> tasks_;             // the current chunk's
  std::vector<std::deque<TaskBuffer>> pools_;  // the buffers, per region
  [[nodiscard]] TaskBuffer& task(std::size_t t) const { return *tasks_[t]; }
};

}  // namespace

std::unique_ptr<ChunkSearch> make_chunk_search(const TransitionSystem& system,
                                               const ExplicitOptions& options,
                                               const SearchTuning& tuning, ExplicitGraph& graph,
                                               int threads, SearchStop& stop) {
  return std::make_unique<ChunkPhases>(system, options, tuning, graph, threads, stop);
}

}  // namespace loophole::checker
