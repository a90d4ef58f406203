// The distributed search: see explore.hpp. A rank keeps the states it owns
// packed (checker::StateCodec, the explicit engine's bit packing: bytes()
// bytes a state) in chunks, with local numbers in the order they arrive
// (so level by level), each with the global id of its parent, its number
// in the single-process order and the index of the move from its parent; a
// global id is (rank << 40) | local number. An open-addressing table of
// 32-bit slots at a load of at most 3/4 indexes them. States travel packed
// too, as words() 64-bit words after their parent's id, the key (parent's
// number << 24 | move index) and, for the cycle phase, the move's label.
// The cycle phase (Options::cycles) is the second half of this file:
// build_edges, reach_back, trim, gather_slice.
#include "loophole/distributed/explore.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include <unistd.h>

#include "loophole/checker/generator.hpp"
#include "loophole/checker/state_codec.hpp"

namespace loophole::distributed {
namespace {

constexpr std::uint64_t k_initial = std::uint64_t{1} << 63;  // parent of an initial state
constexpr unsigned k_rank_shift = 40;
constexpr std::uint64_t k_local_mask = (std::uint64_t{1} << k_rank_shift) - 1;

// A move travels as a label word: its successor index (24 bits), whether it
// enters a step, who chooses it, the chooser, its kind, and the control
// fields of the state at its other end (ctl(): the source's on the way to
// the successor's owner, the successor's on the way back).
constexpr unsigned k_index_bits = 24;
constexpr unsigned k_ctl_shift = 35;
constexpr std::uint64_t k_index_mask = (std::uint64_t{1} << k_index_bits) - 1;

std::uint64_t label_of(std::size_t index, const checker::MoveFields& m, std::uint32_t ctl) {
  return static_cast<std::uint64_t>(index) | (std::uint64_t{m.progress} << 24) |
         (static_cast<std::uint64_t>(m.chooser) << 25) |
         (static_cast<std::uint64_t>((m.chooser_player + 1) & 15) << 27) |
         (static_cast<std::uint64_t>(m.kind) << 31) |
         (static_cast<std::uint64_t>(ctl) << k_ctl_shift);
}
std::uint64_t with_ctl(std::uint64_t label, std::uint32_t ctl) {
  return (label & ((std::uint64_t{1} << k_ctl_shift) - 1)) |
         (static_cast<std::uint64_t>(ctl) << k_ctl_shift);
}
std::uint32_t ctl_of_label(std::uint64_t label) {
  return static_cast<std::uint32_t>(label >> k_ctl_shift);
}
bool progress_of(std::uint64_t label) { return ((label >> 24) & 1U) != 0; }
checker::Edge edge_of(std::uint64_t label) {
  checker::Edge e;
  e.index = static_cast<std::uint32_t>(label & k_index_mask);
  e.progress = progress_of(label);
  e.chooser = static_cast<checker::Chooser>((label >> 25) & 3U);
  e.chooser_player = static_cast<std::int8_t>(static_cast<int>((label >> 27) & 15U) - 1);
  e.kind = static_cast<checker::MoveKind>((label >> 31) & 15U);
  return e;
}

// The control fields the cycle analyses' subgraphs are cut by (properties'
// Point): whether the game is over, the step, the active player, the turn.
struct Ctl {
  std::uint32_t over, step1, active, turn;  // step1: step + 1
};
Ctl ctl_fields(std::uint32_t c) {
  return {c & 3U, (c >> 2) & 1023U, (c >> 12) & 7U, (c >> 15) & 1023U};
}
std::uint32_t ctl_of(const checker::Layout& layout, const std::int32_t* s) {
  const auto u = [](std::int32_t v, std::uint32_t mask) {
    return static_cast<std::uint32_t>(v) & mask;
  };
  return u(s[layout.over], 3U) | (u(s[layout.step] + 1, 1023U) << 2) |
         (u(s[layout.active], 7U) << 12) | (u(s[layout.turn], 1023U) << 15);
}

// The three subgraphs (Options::cycles): moves that enter no step
// (response loops), moves within a turn (turn loops), moves among states
// that cannot finish (stalemates).
enum Subgraph : unsigned { k_quiet, k_same_turn, k_stuck, k_subgraphs, k_all = k_subgraphs };
// The cores gathered (the cycle analyses'): k_all's (Options::end_marks:
// every move, for whether the game can go on forever) is not.
constexpr std::uint8_t k_gathered_cores = (1U << k_subgraphs) - 1;
// Options::end_marks: a state's bit in marks_ that a cycle can be reached
// (backwards from k_all's core).
constexpr std::uint64_t k_endless = std::uint64_t{1} << 63;

std::uint64_t hash_words(const std::uint64_t* w, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= w[i];
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  }
  h ^= h >> 29;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 32;
  return h;
}

std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::uint64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  }
  return 0;
}

// The states a rank owns, packed, in chunks of 2^16 states (so the store
// never holds an old and a new copy of itself while it grows, as a vector
// doubling would), each with its parent's global id; an open-addressing
// table of 32-bit slots (id + 1) at a load of at most 3/4 indexes them.
class Store {
 public:
  Store(std::size_t words, std::size_t bytes) : words_(words), bytes_(bytes), slots_(1024, 0) {}

  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] std::uint64_t parent(std::size_t i) const {
    return parents_[i >> k_chunk_bits][i & k_chunk_mask];
  }
  // The packed state i into words() words.
  void words_of(std::size_t i, std::uint64_t* out) const {
    out[words_ - 1] = 0;
    std::memcpy(out, row(i), bytes_);
  }
  // Bytes held: the chunks and the index.
  [[nodiscard]] std::uint64_t memory() const {
    return rows_.size() *
               ((bytes_ + 2 * sizeof(std::uint64_t) + sizeof(std::uint32_t)) << k_chunk_bits) +
           slots_.size() * sizeof(std::uint32_t);
  }

  void set_parent(std::size_t i, std::uint64_t parent) {
    parents_[i >> k_chunk_bits][i & k_chunk_mask] = parent;
  }
  // Its number in the single-process order, and the index of the move from
  // its parent.
  [[nodiscard]] std::uint64_t num(std::size_t i) const {
    return nums_[i >> k_chunk_bits][i & k_chunk_mask];
  }
  void set_num(std::size_t i, std::uint64_t n) { nums_[i >> k_chunk_bits][i & k_chunk_mask] = n; }
  [[nodiscard]] std::uint32_t parent_index(std::size_t i) const {
    return parent_indices_[i >> k_chunk_bits][i & k_chunk_mask];
  }
  void set_parent_index(std::size_t i, std::uint32_t index) {
    parent_indices_[i >> k_chunk_bits][i & k_chunk_mask] = index;
  }

  // Adds the packed state w unless present: its local number, and whether
  // it was added.
  std::pair<std::size_t, bool> insert(const std::uint64_t* w, std::uint64_t hash,
                                      std::uint64_t parent) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const std::uint32_t slot = slots_[i];
      if (slot == 0) {
        if ((size_ & k_chunk_mask) == 0) {
          rows_.push_back(std::make_unique<std::uint8_t[]>(bytes_ << k_chunk_bits));
          parents_.push_back(std::make_unique<std::uint64_t[]>(std::size_t{1} << k_chunk_bits));
          nums_.push_back(std::make_unique<std::uint64_t[]>(std::size_t{1} << k_chunk_bits));
          parent_indices_.push_back(
              std::make_unique<std::uint32_t[]>(std::size_t{1} << k_chunk_bits));
        }
        std::memcpy(rows_.back().get() + (size_ & k_chunk_mask) * bytes_, w, bytes_);
        parents_.back()[size_ & k_chunk_mask] = parent;
        slots_[i] = static_cast<std::uint32_t>(++size_);
        return {size_ - 1, true};
      }
      if (std::memcmp(row(slot - 1), w, bytes_) == 0) return {slot - 1, false};
    }
  }

 private:
  static constexpr unsigned k_chunk_bits = 16;
  static constexpr std::size_t k_chunk_mask = (std::size_t{1} << k_chunk_bits) - 1;

  [[nodiscard]] const std::uint8_t* row(std::size_t i) const {
    return rows_[i >> k_chunk_bits].get() + (i & k_chunk_mask) * bytes_;
  }
  void grow() {
    std::vector<std::uint32_t> next(slots_.size() * 2, 0);
    const std::size_t mask = next.size() - 1;
    std::vector<std::uint64_t> w(words_);
    for (std::size_t id = 0; id < size_; ++id) {
      words_of(id, w.data());
      std::size_t i = hash_words(w.data(), words_) & mask;
      while (next[i] != 0) i = (i + 1) & mask;
      next[i] = static_cast<std::uint32_t>(id + 1);
    }
    slots_.swap(next);
  }

  std::size_t words_, bytes_;
  std::size_t size_ = 0;
  std::vector<std::unique_ptr<std::uint8_t[]>> rows_;
  std::vector<std::unique_ptr<std::uint64_t[]>> parents_, nums_;
  std::vector<std::unique_ptr<std::uint32_t[]>> parent_indices_;
  std::vector<std::uint32_t> slots_;
};

struct LocalGroup {
  std::uint64_t states = 0;
  std::uint32_t depth = 0;
  std::uint64_t first = 0;  // global id of the first state (the smallest number, num)
  std::uint64_t num = 0;
};

// The part of the graph rank 0 gathers for the cycle analyses
// (Options::cycles): its states numbered in the single-process order.
class Slice final : public checker::ExploredGraph {
 public:
  explicit Slice(const checker::Semantics& sem) : sem_(sem) {}
  [[nodiscard]] const checker::Semantics& semantics() const override { return sem_; }
  [[nodiscard]] std::uint64_t size() const override { return states.size(); }
  [[nodiscard]] std::uint32_t initial_count() const override { return initials; }
  [[nodiscard]] checker::StateVec state(checker::StateId id) const override { return states[id]; }
  [[nodiscard]] std::vector<checker::Edge> edges(checker::StateId id) const override {
    return moves[id];
  }
  [[nodiscard]] std::uint64_t expanded() const override { return states.size(); }
  [[nodiscard]] checker::StateId parent(checker::StateId id) const override { return parents[id]; }
  [[nodiscard]] std::uint32_t parent_index(checker::StateId id) const override {
    return parent_indices[id];
  }
  [[nodiscard]] std::uint32_t depth(checker::StateId id) const override { return depths[id]; }
  [[nodiscard]] bool numbered_by_depth() const override { return true; }
  [[nodiscard]] checker::Completion completion() const override {
    return checker::Completion::complete;
  }
  [[nodiscard]] const checker::Statistics& statistics() const override { return stats; }

  std::vector<checker::StateVec> states;
  std::vector<std::vector<checker::Edge>> moves;
  std::vector<checker::StateId> parents;
  std::vector<std::uint32_t> parent_indices, depths;
  std::uint32_t initials = 0;
  checker::Statistics stats;

 private:
  const checker::Semantics& sem_;
};

class Run {
 public:
  Run(const checker::Semantics& sem, MPI_Comm comm, const Options& options)
      : sem_(sem),
        gen_(sem),
        comm_(comm),
        options_(options),
        codec_(sem.layout()),
        words_(codec_.words()),
        store_(codec_.words(), codec_.bytes()),
        cur_words_(words_),
        succ_words_(words_),
        cur_(codec_.unpacked_size()) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    out_.resize(static_cast<std::size_t>(size_));
    groups_.resize(options_.questions.size());
  }

  Result run();

 private:
  [[nodiscard]] int owner(std::uint64_t hash) const {
    return static_cast<int>((hash >> 32) % static_cast<std::uint64_t>(size_));
  }
  [[nodiscard]] std::uint64_t global_id(std::size_t local) const {
    return (static_cast<std::uint64_t>(rank_) << k_rank_shift) | local;
  }
  [[nodiscard]] std::uint32_t depth_of(std::size_t local) const {
    const auto it = std::upper_bound(level_begin_.begin(), level_begin_.end(), local);
    return static_cast<std::uint32_t>(it - level_begin_.begin() - 1);
  }

  [[nodiscard]] static std::size_t local_of(std::uint64_t gid) { return gid & k_local_mask; }
  [[nodiscard]] static int rank_of(std::uint64_t gid) {
    return static_cast<int>(gid >> k_rank_shift);
  }

  // The packed state w with its parent, the parent's number and move index
  // and (Options::cycles) the move's label, to w's owner.
  void send(const std::uint64_t* w, std::uint64_t parent, std::uint64_t key, std::uint64_t label) {
    auto& o = out_[static_cast<std::size_t>(owner(hash_words(w, words_)))];
    o.push_back(parent);
    o.push_back(key);
    if (options_.cycles) o.push_back(label);  // (only the cycle phase reads it)
    o.insert(o.end(), w, w + words_);
  }
  // One all-to-all of out_ (cleared): what every rank sent this one, in
  // rank order; `from` gets the number of words from each rank.
  std::vector<std::uint64_t> all_to_all(std::vector<int>* from = nullptr);
  // Every rank's `mine`, concatenated in rank order, on rank 0 (empty on
  // the others).
  template <class T>
  std::vector<T> gather_on_root(const std::vector<T>& mine);
  void expand(std::size_t local);
  void exchange();
  void number_level(std::size_t begin, std::size_t end, std::uint64_t current);
  // The cycle phase (Options::cycles).
  bool stopped_now();
  void build_edges();
  bool reach_back();
  bool propagate(std::vector<std::size_t>& work, std::vector<std::uint64_t>& fresh);
  bool trim(Subgraph k);
  template <class Member, class OutKept, class InKept>
  bool eliminate(std::vector<std::uint8_t>& alive, Member member, OutKept out_kept, InKept in_kept);
  bool ends_out_of_reach(Result& r);
  bool leads_to();
  void gather_slice(Result& r);
  void classify(std::size_t local, const std::int32_t* s);
  int stop_reason();
  std::vector<checker::StateVec> path_to(std::uint64_t gid, std::uint32_t& initial);
  std::optional<checker::Trace> trace_to(std::uint64_t gid);
  void gather_groups(Result& r);
  void gather_figures(Result& r);

  const checker::Semantics& sem_;
  checker::Generator gen_;
  checker::Generator::Buffer buf_;
  MPI_Comm comm_;
  Options options_;
  checker::StateCodec codec_;
  std::size_t words_;
  Store store_;
  std::vector<std::uint64_t> cur_words_, succ_words_;  // scratch: a state packed
  std::vector<std::int32_t> cur_;                      // scratch: the state expanded
  int rank_ = 0, size_ = 1;
  std::vector<std::vector<std::uint64_t>> out_;
  std::vector<std::size_t> level_begin_;
  std::size_t next_begin_ = 0;  // the first state of the level being added
  // Per state of the level being added, the smallest (parent's number << 24
  // | move index) it was reached by (Store::num: the numbers given).
  std::vector<std::uint64_t> level_keys_;
  std::uint64_t level_first_num_ = 0;  // the number of the current level's first state
  // Options::cycles: every move into a state owned here, as it arrived
  // (the state, the source's global id, the label with the source's ctl).
  // (Local numbers fit 32 bits: the store's index slots are 32-bit.)
  std::vector<std::uint32_t> in_to_;
  std::vector<std::uint64_t> in_from_, in_label_;
  // The stack-overflow states of a site gathered at most (properties'
  // unbounded chains read back the chains of so many).
  static constexpr std::size_t k_overflows_gathered = 4096;
  // Then per state: ctl, the moves out (to, label with the target's ctl)
  // and in (from, label with the source's ctl), in CSR form, the marks of
  // the backward search and which subgraphs' cores it is in (bit k).
  std::vector<std::uint32_t> ctl_;
  std::vector<std::uint64_t> marks_;
  // Options::end_marks: the states rank 0 gathers besides the cores, with
  // their moves (ball_ 1: the gap cause's search) or without (2).
  std::vector<std::uint8_t> ball_;
  // Options::leads_marks: per state its from/to bits, per move out its
  // target's; per state the bits rank 0 reads (Result::leads_bits); per
  // property the number of its earliest failing state (max: none).
  std::vector<std::uint64_t> leads_, out_leads_, leads_slice_, leads_bad_num_;
  std::vector<std::uint64_t> out_begin_, out_to_, out_label_, in_begin_, in_from_csr_,
      in_label_csr_;
  std::vector<std::uint8_t> core_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  RankFigures figures_;
  std::vector<std::map<GroupKey, LocalGroup>> groups_;  // per question
  checker::StateVec state_;                             // the state asked about
  std::vector<GroupKey> keys_;
  std::vector<checker::MoveFields> moves_;  // the moves out of the state asked about
  std::mutex snapshot_mutex_;
  Snapshot snapshot_;
};

// Rank 0's watcher (Options::on_abandon): polls the interrupt every 10 ms
// until the run ends; once it has been set for the grace period, hands the
// last snapshot to on_abandon and ends the process.
class Watcher {
 public:
  Watcher(const Options& options, std::mutex& mutex, const Snapshot& snapshot) {
    if (!options.on_abandon || options.interrupt == nullptr) return;
    thread_ = std::thread([this, &options, &mutex, &snapshot] {
      std::optional<std::chrono::steady_clock::time_point> since;
      while (!done_.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (!options.interrupt->load()) continue;
        const auto now = std::chrono::steady_clock::now();
        if (!since) since = now;
        if (std::chrono::duration<double>(now - *since).count() < options.grace_seconds) continue;
        if (done_.load()) return;
        Snapshot copy;
        {
          const std::lock_guard<std::mutex> lock(mutex);
          copy = snapshot;
        }
        options.on_abandon(copy);
        std::_Exit(3);
      }
    });
  }
  ~Watcher() {
    done_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

void note(LocalGroup& g, std::uint32_t depth, std::uint64_t gid, std::uint64_t num) {
  if (g.states == 0 || num < g.num) {
    g.depth = depth;
    g.first = gid;
    g.num = num;
  }
  ++g.states;
}

// Asks every question of the state just expanded (its moves in buf_).
void Run::classify(std::size_t local, const std::int32_t* s) {
  if (options_.questions.empty()) return;
  state_.assign(s, s + codec_.fields());
  moves_.clear();
  for (std::size_t i = 0; i < buf_.size(); ++i) moves_.push_back(buf_.move(i));
  for (std::size_t q = 0; q < options_.questions.size(); ++q) {
    keys_.clear();
    options_.questions[q](state_, moves_, keys_);
    for (const GroupKey& key : keys_)
      note(groups_[q][key], depth_of(local), global_id(local), store_.num(local));
  }
}

void Run::expand(std::size_t local) {
  store_.words_of(local, cur_words_.data());
  codec_.unpack(cur_words_.data(), cur_.data());
  gen_.successors(cur_.data(), buf_);
  const std::size_t n = buf_.size();
  figures_.transitions += n;
  classify(local, cur_.data());
  if (n > k_index_mask) throw std::runtime_error("distributed search: more than 2^24 moves");
  const std::uint32_t ctl = ctl_of(sem_.layout(), cur_.data());
  const std::uint64_t key = store_.num(local) << k_index_bits;
  for (std::size_t i = 0; i < n; ++i) {
    codec_.pack_from(cur_.data(), cur_words_.data(), buf_.state(i), succ_words_.data());
    send(succ_words_.data(), global_id(local), key | i, label_of(i, buf_.move(i), ctl));
  }
}

template <class T>
std::vector<T> Run::gather_on_root(const std::vector<T>& mine) {
  static_assert(std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>);
  const MPI_Datatype type = std::is_same_v<T, std::int64_t> ? MPI_INT64_T : MPI_UINT64_T;
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_));
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
  std::vector<T> all;
  if (rank_ == 0) {
    int at = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
      displs[i] = at;
      at += counts[i];
    }
    all.resize(static_cast<std::size_t>(at));
  }
  MPI_Gatherv(mine.data(), count, type, all.data(), counts.data(), displs.data(), type, 0, comm_);
  return all;
}

std::vector<std::uint64_t> Run::all_to_all(std::vector<int>* from) {
  const auto p = static_cast<std::size_t>(size_);
  std::vector<int> send_counts(p), recv_counts(p), send_displs(p), recv_displs(p);
  std::vector<std::uint64_t> send_buf;
  std::size_t total = 0;
  for (std::size_t r = 0; r < p; ++r) total += out_[r].size();
  if (total > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::runtime_error("distributed search: a round's message exceeds 2^31 words");
  }
  send_buf.reserve(total);
  for (std::size_t r = 0; r < p; ++r) {
    send_displs[r] = static_cast<int>(send_buf.size());
    send_counts[r] = static_cast<int>(out_[r].size());
    send_buf.insert(send_buf.end(), out_[r].begin(), out_[r].end());
    if (static_cast<int>(r) != rank_ && !out_[r].empty()) {
      figures_.bytes_sent += out_[r].size() * sizeof(std::uint64_t);
      ++figures_.messages;
    }
    // (A large list is freed, not kept for the next round: the cycle phase
    // sends every move at once, and its copy here would double that.)
    if (out_[r].capacity() > (std::size_t{1} << 20)) {
      std::vector<std::uint64_t>().swap(out_[r]);
    } else {
      out_[r].clear();
    }
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_);
  std::size_t received = 0;
  for (std::size_t r = 0; r < p; ++r) {
    recv_displs[r] = static_cast<int>(received);
    received += static_cast<std::size_t>(recv_counts[r]);
  }
  std::vector<std::uint64_t> recv_buf(received);
  MPI_Alltoallv(send_buf.data(), send_counts.data(), send_displs.data(), MPI_UINT64_T,
                recv_buf.data(), recv_counts.data(), recv_displs.data(), MPI_UINT64_T, comm_);
  if (from != nullptr) *from = std::move(recv_counts);
  return recv_buf;
}

// One all-to-all round: every rank's outgoing successors to their owners,
// which add the new ones (they belong to the next level) and keep, for each
// state of the next level, the parent the single-process search gives it:
// the one of the smallest number, by its move of the smallest index.
void Run::exchange() {
  const std::vector<std::uint64_t> recv_buf = all_to_all();
  const std::size_t head = options_.cycles ? 3 : 2;
  const std::size_t record = words_ + head;
  for (std::size_t at = 0; at + record <= recv_buf.size(); at += record) {
    const std::uint64_t parent = recv_buf[at];
    const std::uint64_t key = recv_buf[at + 1];
    const std::uint64_t label = options_.cycles ? recv_buf[at + 2] : 0;
    const std::uint64_t* w = &recv_buf[at + head];
    const auto [id, added] = store_.insert(w, hash_words(w, words_), parent);
    if (added) {
      level_keys_.push_back(key);
      store_.set_parent_index(id, static_cast<std::uint32_t>(key & k_index_mask));
    } else if (id >= next_begin_ && key < level_keys_[id - next_begin_]) {
      level_keys_[id - next_begin_] = key;
      store_.set_parent_index(id, static_cast<std::uint32_t>(key & k_index_mask));
      store_.set_parent(id, parent);
    }
    if (options_.cycles) {
      in_to_.push_back(static_cast<std::uint32_t>(id));
      in_from_.push_back(parent);
      in_label_.push_back(label);
    }
  }
}

// Numbers the states [begin, end) just added (the next level) as the
// single-process search does: in the order of their keys. The keys' parent
// numbers lie in the current level's range, which is cut into one block a
// rank; each block's owner sorts the keys it gets, and its offset is the
// number of keys in the blocks before it.
void Run::number_level(std::size_t begin, std::size_t end, std::uint64_t current) {
  std::array<std::uint64_t, 2> mine = {current, end - begin};
  std::array<std::uint64_t, 2> all{};
  MPI_Allreduce(mine.data(), all.data(), 2, MPI_UINT64_T, MPI_SUM, comm_);
  const std::uint64_t width = all[0];  // states in the current level
  const std::uint64_t next_first = level_first_num_ + width;
  const auto p = static_cast<std::uint64_t>(size_);
  std::vector<std::vector<std::size_t>> sent(static_cast<std::size_t>(size_));
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint64_t key = level_keys_[i - begin];
    const std::uint64_t offset = (key >> k_index_bits) - level_first_num_;
    const auto block = static_cast<std::size_t>(width == 0 ? 0 : offset * p / width);
    out_[block].push_back(key);
    sent[block].push_back(i);
  }
  std::vector<int> from;
  const std::vector<std::uint64_t> got = all_to_all(&from);
  std::vector<std::size_t> order(got.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return got[a] < got[b]; });
  std::uint64_t count = got.size(), before = 0;
  MPI_Exscan(&count, &before, 1, MPI_UINT64_T, MPI_SUM, comm_);
  if (rank_ == 0) before = 0;
  std::vector<std::uint64_t> numbers(got.size());
  for (std::size_t j = 0; j < order.size(); ++j) numbers[order[j]] = next_first + before + j;
  std::size_t at = 0;
  for (std::size_t r = 0; r < static_cast<std::size_t>(size_); ++r) {
    const auto n = static_cast<std::size_t>(from[r]);
    out_[r].assign(numbers.begin() + static_cast<std::ptrdiff_t>(at),
                   numbers.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
  }
  const std::vector<std::uint64_t> back = all_to_all();
  at = 0;
  for (const auto& list : sent) {
    for (const std::size_t i : list) store_.set_num(i, back[at++]);
  }
  level_first_num_ = next_first;
  level_keys_.clear();
}

// 0: go on; otherwise the checker::Completion that stops the run (the same
// on every rank: the highest any rank asks for).
int Run::stop_reason() {
  int mine = 0;
  if (options_.interrupt != nullptr && options_.interrupt->load()) {
    mine = static_cast<int>(checker::Completion::interrupted);
  }
  if (options_.max_resident != 0 && resident_bytes() > options_.max_resident) {
    mine = std::max(mine, static_cast<int>(checker::Completion::memory_limit));
  }
  if (rank_ == 0 && options_.timeout_seconds > 0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >=
          options_.timeout_seconds) {
    mine = std::max(mine, static_cast<int>(checker::Completion::time_limit));
  }
  std::array<std::uint64_t, 2> local = {store_.size(), figures_.transitions};
  std::array<std::uint64_t, 2> global{};
  MPI_Allreduce(local.data(), global.data(), 2, MPI_UINT64_T, MPI_SUM, comm_);
  if (rank_ == 0) {
    const std::lock_guard<std::mutex> lock(snapshot_mutex_);
    snapshot_ = {global[0], global[1], static_cast<std::uint32_t>(level_begin_.size()),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()};
  }
  if (options_.max_states != 0 && static_cast<std::uint64_t>(global[0]) > options_.max_states) {
    mine = std::max(mine, static_cast<int>(checker::Completion::state_limit));
  }
  int all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, comm_);
  return all;
}

Result Run::run() {
  std::optional<Watcher> watcher;
  if (rank_ == 0) watcher.emplace(options_, snapshot_mutex_, snapshot_);
  Result result;
  result.ranks = size_;
  // The initial states, each added by its owner.
  const auto initial = sem_.initial_states();
  level_begin_.push_back(0);
  // (Numbered as the single-process search does: in order, a repeated one
  // once.)
  std::uint64_t number = 0;
  for (std::size_t i = 0; i < initial.size(); ++i) {
    if (std::find(initial.begin(), initial.begin() + static_cast<std::ptrdiff_t>(i), initial[i]) !=
        initial.begin() + static_cast<std::ptrdiff_t>(i)) {
      continue;
    }
    codec_.pack(initial[i].data(), cur_words_.data());
    const std::uint64_t h = hash_words(cur_words_.data(), words_);
    if (owner(h) == rank_) {
      const std::size_t id = store_.insert(cur_words_.data(), h, k_initial | i).first;
      store_.set_num(id, number);
      store_.set_parent_index(id, 0);
    }
    ++number;
  }
  int stop = 0;
  std::size_t cursor = 0;
  std::size_t level_end = 0;
  for (;;) {
    level_end = store_.size();
    next_begin_ = level_end;
    // Rounds until every rank has expanded its part of the level.
    for (;;) {
      const std::size_t take = std::min(options_.batch, level_end - cursor);
      for (std::size_t i = 0; i < take; ++i) expand(cursor + i);
      cursor += take;
      exchange();
      stop = stop_reason();
      int more = cursor < level_end ? 1 : 0;
      int any = 0;
      MPI_Allreduce(&more, &any, 1, MPI_INT, MPI_MAX, comm_);
      if (stop != 0 || any == 0) break;
    }
    if (stop != 0) break;
    std::int64_t added = static_cast<std::int64_t>(store_.size() - level_end);
    std::int64_t total = 0;
    MPI_Allreduce(&added, &total, 1, MPI_INT64_T, MPI_SUM, comm_);
    if (total == 0) break;
    number_level(level_end, store_.size(), level_end - level_begin_.back());
    level_begin_.push_back(level_end);
  }
  result.completion = static_cast<checker::Completion>(stop);
  figures_.states = store_.size();
  std::array<std::uint64_t, 2> local = {figures_.states, figures_.transitions};
  std::array<std::uint64_t, 2> global{};
  MPI_Allreduce(local.data(), global.data(), 2, MPI_UINT64_T, MPI_SUM, comm_);
  result.states = global[0];
  result.transitions = global[1];
  // Levels that hold states: on a complete run, those begun; on a stopped
  // one, the deepest level any rank has a state of.
  auto levels = static_cast<std::uint32_t>(level_begin_.size());
  if (store_.size() > level_end) ++levels;  // (a stopped run: the next level begun)
  if (store_.size() == 0) levels = 0;
  std::uint32_t depth = 0;
  MPI_Allreduce(&levels, &depth, 1, MPI_UINT32_T, MPI_MAX, comm_);
  result.depth = depth;
  gather_groups(result);
  if (options_.cycles && result.completion == checker::Completion::complete) {
    build_edges();
    bool done = reach_back();
    for (unsigned k = 0; k < k_subgraphs && done; ++k) done = trim(static_cast<Subgraph>(k));
    if (done && options_.end_marks) done = ends_out_of_reach(result);
    if (done && options_.leads_marks) done = leads_to();
    if (done) {
      gather_slice(result);
    } else {
      result.completion = checker::Completion::interrupted;
    }
  }
  gather_figures(result);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return result;
}

// The states from an initial state to `gid`, followed from owner to owner:
// each step, the owner of the current state broadcasts it with its parent.
std::vector<checker::StateVec> Run::path_to(std::uint64_t gid, std::uint32_t& initial) {
  std::vector<checker::StateVec> path;
  std::vector<std::uint64_t> msg(words_ + 1);
  for (;;) {
    const int root = static_cast<int>(gid >> k_rank_shift);
    if (root == rank_) {
      const std::size_t local = gid & ((std::uint64_t{1} << k_rank_shift) - 1);
      msg[0] = store_.parent(local);
      store_.words_of(local, &msg[1]);
    }
    MPI_Bcast(msg.data(), static_cast<int>(msg.size()), MPI_UINT64_T, root, comm_);
    codec_.unpack(&msg[1], cur_.data());
    path.emplace_back(cur_.begin(), cur_.begin() + static_cast<std::ptrdiff_t>(codec_.fields()));
    const std::uint64_t parent = msg[0];
    if ((parent & k_initial) != 0) {
      initial = static_cast<std::uint32_t>(parent & ~k_initial);
      break;
    }
    gid = parent;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

// The trace to `gid` (rank 0; the others take part in the broadcasts and
// return nothing): at each state the first successor equal to the next one,
// then replayed on the reference semantics by trace_of_moves.
std::optional<checker::Trace> Run::trace_to(std::uint64_t gid) {
  std::uint32_t initial = 0;
  const auto path = path_to(gid, initial);
  if (rank_ != 0) return std::nullopt;
  std::vector<std::uint32_t> moves;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    gen_.successors(path[k].data(), buf_);
    std::size_t i = 0;
    while (i < buf_.size() && std::memcmp(buf_.state(i), path[k + 1].data(),
                                          codec_.fields() * sizeof(std::int32_t)) != 0) {
      ++i;
    }
    if (i == buf_.size()) throw std::logic_error("distributed trace: a parent link is not a move");
    moves.push_back(static_cast<std::uint32_t>(i));
  }
  return checker::trace_of_moves(sem_, initial, moves, path.back());
}

// Rank 0 merges every rank's groups (per key: the states summed, the
// shallowest first state, the first in the single-process order); then every
// rank takes part in rebuilding each group's trace. A group travels as
// [question, key length, key..., states, depth, first, its number].
void Run::gather_groups(Result& r) {
  std::vector<std::int64_t> mine;
  const auto put = [&](std::size_t q, const GroupKey& key, const LocalGroup& g) {
    mine.push_back(static_cast<std::int64_t>(q));
    mine.push_back(static_cast<std::int64_t>(key.size()));
    mine.insert(mine.end(), key.begin(), key.end());
    mine.insert(mine.end(),
                {static_cast<std::int64_t>(g.states), static_cast<std::int64_t>(g.depth),
                 static_cast<std::int64_t>(g.first), static_cast<std::int64_t>(g.num)});
  };
  // Calls each(q, key, group) for every group in `v`.
  const auto read = [](const std::vector<std::int64_t>& v, const auto& each) {
    for (std::size_t at = 0; at + 2 <= v.size();) {
      const auto q = static_cast<std::size_t>(v[at]);
      const auto len = static_cast<std::size_t>(v[at + 1]);
      const GroupKey key(v.begin() + static_cast<std::ptrdiff_t>(at + 2),
                         v.begin() + static_cast<std::ptrdiff_t>(at + 2 + len));
      const std::size_t tail = at + 2 + len;
      each(q, key,
           LocalGroup{static_cast<std::uint64_t>(v[tail]), static_cast<std::uint32_t>(v[tail + 1]),
                      static_cast<std::uint64_t>(v[tail + 2]),
                      static_cast<std::uint64_t>(v[tail + 3])});
      at = tail + 4;
    }
  };
  for (std::size_t q = 0; q < groups_.size(); ++q) {
    for (const auto& [key, g] : groups_[q]) put(q, key, g);
  }
  const std::vector<std::int64_t> all = gather_on_root(mine);
  std::vector<std::map<GroupKey, LocalGroup>> merged(options_.questions.size());
  read(all, [&](std::size_t q, const GroupKey& key, const LocalGroup& g) {
    LocalGroup& into = merged[q][key];
    if (into.states == 0 || g.num < into.num) {
      into.depth = g.depth;
      into.first = g.first;
      into.num = g.num;
    }
    into.states += g.states;
  });
  mine.clear();
  for (std::size_t q = 0; q < merged.size(); ++q) {
    for (const auto& [key, g] : merged[q]) put(q, key, g);
  }
  int n = static_cast<int>(mine.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, comm_);
  mine.resize(static_cast<std::size_t>(n));
  MPI_Bcast(mine.data(), n, MPI_INT64_T, 0, comm_);
  r.answers.resize(options_.questions.size());
  read(mine, [&](std::size_t q, const GroupKey& key, const LocalGroup& g) {
    Group out;
    out.states = g.states;
    out.depth = g.depth;
    if (options_.traced.empty() || (q < options_.traced.size() && options_.traced[q])) {
      out.trace = trace_to(g.first);
    }
    r.answers[q][key] = std::move(out);
  });
}

// Whether any rank has been interrupted (a collective: the cycle phase's
// rounds ask it once each).
bool Run::stopped_now() {
  int mine = options_.interrupt != nullptr && options_.interrupt->load() ? 1 : 0;
  int any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm_);
  return any != 0;
}

// Every move into a state owned here goes to its source's owner, which
// then has the moves out of its states (by source, in successor order);
// the moves in are kept by target. Also each state's ctl.
void Run::build_edges() {
  const std::size_t n = store_.size();
  ctl_.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    store_.words_of(v, cur_words_.data());
    codec_.unpack(cur_words_.data(), cur_.data());
    ctl_[v] = ctl_of(sem_.layout(), cur_.data());
    if (options_.leads_marks) {
      if (leads_.size() != n) leads_.assign(n, 0);
      state_.assign(cur_.begin(), cur_.begin() + static_cast<std::ptrdiff_t>(codec_.fields()));
      leads_[v] = options_.leads_marks(state_);
    }
  }
  const bool leads = static_cast<bool>(options_.leads_marks);
  const std::size_t width = leads ? 4 : 3;  // words a move travels as
  // The moves in, by target (counting sort); the arrival lists freed first.
  in_begin_.assign(n + 1, 0);
  for (const std::uint32_t v : in_to_) ++in_begin_[v + 1];
  for (std::size_t v = 0; v < n; ++v) in_begin_[v + 1] += in_begin_[v];
  in_from_csr_.assign(in_to_.size(), 0);
  in_label_csr_.assign(in_to_.size(), 0);
  {
    std::vector<std::uint64_t> fill(in_begin_.begin(), in_begin_.end() - 1);
    for (std::size_t e = 0; e < in_to_.size(); ++e) {
      const std::uint64_t at = fill[in_to_[e]]++;
      in_from_csr_[at] = in_from_[e];
      in_label_csr_[at] = in_label_[e];
    }
  }
  std::vector<std::uint32_t>().swap(in_to_);
  std::vector<std::uint64_t>().swap(in_from_);
  std::vector<std::uint64_t>().swap(in_label_);
  for (std::size_t v = 0; v < n; ++v) {
    for (std::uint64_t e = in_begin_[v]; e < in_begin_[v + 1]; ++e) {
      const std::uint64_t from = in_from_csr_[e];
      auto& o = out_[static_cast<std::size_t>(rank_of(from))];
      o.push_back(local_of(from));
      o.push_back(global_id(v));
      o.push_back(with_ctl(in_label_csr_[e], ctl_[v]));
      if (leads) o.push_back(leads_[v]);
    }
  }
  const std::vector<std::uint64_t> got = all_to_all();
  for (auto& o : out_) std::vector<std::uint64_t>().swap(o);
  // Counting sort by source, then each source's moves by index.
  out_begin_.assign(n + 1, 0);
  for (std::size_t at = 0; at + width <= got.size(); at += width) ++out_begin_[got[at] + 1];
  for (std::size_t v = 0; v < n; ++v) out_begin_[v + 1] += out_begin_[v];
  out_to_.assign(got.size() / width, 0);
  out_label_.assign(got.size() / width, 0);
  if (leads) out_leads_.assign(got.size() / width, 0);
  {
    std::vector<std::uint64_t> fill(out_begin_.begin(), out_begin_.end() - 1);
    for (std::size_t at = 0; at + width <= got.size(); at += width) {
      const std::uint64_t e = fill[got[at]]++;
      out_to_[e] = got[at + 1];
      out_label_[e] = got[at + 2];
      if (leads) out_leads_[e] = got[at + 3];
    }
  }
  std::vector<std::size_t> order;
  std::vector<std::uint64_t> to, label, target_leads;
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t b = out_begin_[v], e = out_begin_[v + 1];
    order.resize(e - b);
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = b + i;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      return (out_label_[x] & k_index_mask) < (out_label_[y] & k_index_mask);
    });
    to.clear();
    label.clear();
    target_leads.clear();
    for (const std::size_t x : order) {
      to.push_back(out_to_[x]);
      label.push_back(out_label_[x]);
      if (leads) target_leads.push_back(out_leads_[x]);
    }
    std::copy(to.begin(), to.end(), out_to_.begin() + static_cast<std::ptrdiff_t>(b));
    std::copy(label.begin(), label.end(), out_label_.begin() + static_cast<std::ptrdiff_t>(b));
    if (leads) {
      std::copy(target_leads.begin(), target_leads.end(),
                out_leads_.begin() + static_cast<std::ptrdiff_t>(b));
    }
  }
}

// The backward search from the final states for the bits Options::marks
// gives them: a round sends each state's new bits to the sources of the
// moves into it. False when interrupted.
bool Run::reach_back() {
  const std::size_t n = store_.size();
  marks_.assign(n, 0);
  std::vector<std::uint64_t> fresh(n, 0);  // bits gained, not yet sent on
  std::vector<std::size_t> work;
  const auto end_shift = static_cast<unsigned>(1 + 2 * sem_.game().players);
  for (std::size_t v = 0; v < n; ++v) {
    if (ctl_fields(ctl_[v]).over == 0) continue;
    std::uint64_t m = 1;
    if (options_.marks || options_.end_marks) {
      store_.words_of(v, cur_words_.data());
      codec_.unpack(cur_words_.data(), cur_.data());
      state_.assign(cur_.begin(), cur_.begin() + static_cast<std::ptrdiff_t>(codec_.fields()));
      if (options_.marks) m |= options_.marks(state_);
      if (options_.end_marks) m |= options_.end_marks(state_) << end_shift;
    }
    marks_[v] = m;
    fresh[v] = m;
    work.push_back(v);
  }
  return propagate(work, fresh);
}

// The backward rounds: each state of `work` sends its `fresh` bits to the
// sources of the moves into it, which keep those they lacked and send them
// on in the next round. False when interrupted.
bool Run::propagate(std::vector<std::size_t>& work, std::vector<std::uint64_t>& fresh) {
  for (;;) {
    for (const std::size_t v : work) {
      const std::uint64_t bits = fresh[v];
      fresh[v] = 0;
      for (std::uint64_t e = in_begin_[v]; e < in_begin_[v + 1]; ++e) {
        const std::uint64_t u = in_from_csr_[e];
        auto& o = out_[static_cast<std::size_t>(rank_of(u))];
        o.push_back(local_of(u));
        o.push_back(bits);
      }
    }
    work.clear();
    const std::vector<std::uint64_t> got = all_to_all();
    for (std::size_t at = 0; at + 2 <= got.size(); at += 2) {
      const std::size_t u = got[at];
      const std::uint64_t gained = got[at + 1] & ~marks_[u];
      if (gained == 0) continue;
      marks_[u] |= gained;
      if (fresh[u] == 0) work.push_back(u);
      fresh[u] |= gained;
    }
    if (stopped_now()) return false;
    int more = work.empty() ? 0 : 1, any = 0;
    MPI_Allreduce(&more, &any, 1, MPI_INT, MPI_MAX, comm_);
    if (any == 0) return true;
  }
}

// OWCTY elimination on the partitioned graph: the states for which
// member(v) holds start alive, with their moves out (out_kept(v, e), an
// index into the out-CSR) and in (in_kept(v, e), into the in-CSR) counted;
// then, level-synchronously, a state with no live predecessor or successor
// dies and its moves lower its neighbours' counts on their owners. What
// stays alive (alive[v] != 0) lies on a cycle of the subgraph or between
// cycles. False when interrupted.
template <class Member, class OutKept, class InKept>
bool Run::eliminate(std::vector<std::uint8_t>& alive, Member member, OutKept out_kept,
                    InKept in_kept) {
  const std::size_t n = store_.size();
  alive.assign(n, 0);
  std::vector<std::uint32_t> ins(n, 0), outs(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    if (!member(v)) continue;
    alive[v] = 1;
    for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
      if (!out_kept(v, e)) continue;
      ++outs[v];
      out_[static_cast<std::size_t>(rank_of(out_to_[e]))].push_back(local_of(out_to_[e]));
    }
  }
  for (const std::uint64_t w : all_to_all()) ++ins[w];
  std::vector<std::size_t> work;
  for (std::size_t v = 0; v < n; ++v) {
    if (alive[v] != 0 && (ins[v] == 0 || outs[v] == 0)) {
      alive[v] = 0;
      work.push_back(v);
    }
  }
  constexpr std::uint64_t k_lower_out = std::uint64_t{1} << 63;
  for (;;) {
    for (const std::size_t v : work) {
      for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
        if (!out_kept(v, e)) continue;
        out_[static_cast<std::size_t>(rank_of(out_to_[e]))].push_back(local_of(out_to_[e]));
      }
      for (std::uint64_t e = in_begin_[v]; e < in_begin_[v + 1]; ++e) {
        // (A source outside the subgraph was never alive: its count is not read.)
        if (!in_kept(v, e)) continue;
        const std::uint64_t u = in_from_csr_[e];
        out_[static_cast<std::size_t>(rank_of(u))].push_back(k_lower_out | local_of(u));
      }
    }
    work.clear();
    for (const std::uint64_t m : all_to_all()) {
      const std::size_t x = m & ~k_lower_out;
      if (alive[x] == 0) continue;
      std::uint32_t& count = (m & k_lower_out) != 0 ? outs[x] : ins[x];
      if (--count == 0) {
        alive[x] = 0;
        work.push_back(x);
      }
    }
    if (stopped_now()) return false;
    int more = work.empty() ? 0 : 1, any = 0;
    MPI_Allreduce(&more, &any, 1, MPI_INT, MPI_MAX, comm_);
    if (any == 0) break;
  }
  return true;
}

// The states on or between the cycles of subgraph k: the others are removed
// round by round, each once it has no move into it or none out of it
// within the subgraph (among the states not removed), and each removal
// lowers its neighbours' counts on their owners (eliminate).
// False when interrupted.
bool Run::trim(Subgraph k) {
  const std::size_t n = store_.size();
  if (core_.size() != n) core_.assign(n, 0);
  const auto member = [&](std::size_t v) {  // may be in the subgraph at all
    const Ctl c = ctl_fields(ctl_[v]);
    switch (k) {
      case k_quiet:
        return true;
      case k_same_turn:
        return c.over == 0 && c.step1 >= 1;
      case k_stuck:
        return (marks_[v] & 1U) == 0;
      case k_all:
        return true;
      default:
        return false;
    }
  };
  // Whether the move u -> w (labels give the other end's ctl) is in the
  // subgraph, for a source that is a member.
  const auto kept = [&](std::uint32_t from, std::uint64_t label, std::uint32_t to) {
    switch (k) {
      case k_quiet:
        return !progress_of(label);
      case k_same_turn: {
        const Ctl a = ctl_fields(from), b = ctl_fields(to);
        return a.over == 0 && b.over == 0 && a.step1 >= 1 && b.step1 >= 1 && a.active == b.active &&
               a.turn == b.turn;
      }
      case k_stuck:
      case k_all:
        return true;
      default:
        return false;
    }
  };
  std::vector<std::uint8_t> alive;
  const bool done = eliminate(
      alive, member,
      [&](std::size_t v, std::uint64_t e) {
        return kept(ctl_[v], out_label_[e], ctl_of_label(out_label_[e]));
      },
      // (A source outside the subgraph was never alive: its count is not read.)
      [&](std::size_t v, std::uint64_t e) {
        return kept(ctl_of_label(in_label_csr_[e]), in_label_csr_[e], ctl_[v]);
      });
  if (!done) return false;
  for (std::size_t v = 0; v < n; ++v) {
    if (alive[v] != 0) core_[v] |= static_cast<std::uint8_t>(1U << k);
  }
  return true;
}

// Ends out of reach (Options::end_marks), after the backward search: (1)
// the states from which a cycle can be reached (k_endless: backwards from
// the core of the whole graph, OWCTY elimination on every move); (2) the
// earliest running state of each finding, in the single-process order, and
// whether an initial state can reach a real end and each player's loss
// (all-reduces); (3) from each of those that cannot go on forever, a
// breadth-first search forward, level by level, until a level holds a rule
// gap: the states before that level are gathered with their moves (ball_),
// so that the gap cause's shortest path is found on rank 0 as one process
// finds it. False when interrupted.
bool Run::ends_out_of_reach(Result& r) {
  if (!trim(k_all)) return false;
  const std::size_t n = store_.size();
  ball_.assign(n, 0);
  {
    std::vector<std::uint64_t> fresh(n, 0);
    std::vector<std::size_t> work;
    for (std::size_t v = 0; v < n; ++v) {
      if ((core_[v] & (1U << k_all)) == 0) continue;
      marks_[v] |= k_endless;
      fresh[v] = k_endless;
      work.push_back(v);
    }
    if (!propagate(work, fresh)) return false;
  }
  const auto players = static_cast<std::size_t>(sem_.game().players);
  const auto end_shift = static_cast<unsigned>(1 + 2 * players);
  const auto has = [&](std::size_t v, std::size_t bit) { return ((marks_[v] >> bit) & 1U) != 0; };
  // Per player p (index p): cannot lose nor win; index `players`: cannot end.
  std::vector<std::uint64_t> first(players + 1, std::numeric_limits<std::uint64_t>::max());
  std::vector<std::size_t> first_local(players + 1, n);
  std::vector<int> start(players + 1, 0);
  const std::size_t initials = level_begin_.size() > 1 ? level_begin_[1] : n;
  for (std::size_t v = 0; v < n; ++v) {
    if (v < initials) {
      start[players] |= has(v, end_shift) ? 1 : 0;
      for (std::size_t p = 0; p < players; ++p) start[p] |= has(v, end_shift + 1 + 2 * p) ? 1 : 0;
    }
    if (ctl_fields(ctl_[v]).over != 0 || !has(v, 0)) continue;
    const std::uint64_t num = store_.num(v);
    const auto note_first = [&](std::size_t k) {
      if (num < first[k]) {
        first[k] = num;
        first_local[k] = v;
      }
    };
    if (!has(v, end_shift)) note_first(players);
    for (std::size_t p = 0; p < players; ++p) {
      if (!has(v, end_shift + 1 + 2 * p) && !has(v, end_shift + 2 + 2 * p)) note_first(p);
    }
  }
  std::vector<std::uint64_t> global_first(first.size());
  MPI_Allreduce(first.data(), global_first.data(), static_cast<int>(first.size()), MPI_UINT64_T,
                MPI_MIN, comm_);
  std::vector<int> global_start(start.size());
  MPI_Allreduce(start.data(), global_start.data(), static_cast<int>(start.size()), MPI_INT, MPI_MAX,
                comm_);
  r.start_can_end = global_start[players] != 0;
  r.start_can_lose.assign(players, false);
  for (std::size_t p = 0; p < players; ++p) r.start_can_lose[p] = global_start[p] != 0;
  std::vector<std::size_t> bfs_from;  // the same list on every rank
  for (std::size_t k = 0; k <= players; ++k) {
    if (global_start[k] == 0 || global_first[k] == std::numeric_limits<std::uint64_t>::max()) {
      continue;
    }
    const bool mine = first[k] == global_first[k];
    if (mine && ball_[first_local[k]] == 0) ball_[first_local[k]] = 2;
    if (std::find_if(bfs_from.begin(), bfs_from.end(), [&](std::size_t j) {
          return global_first[j] == global_first[k];
        }) == bfs_from.end()) {
      bfs_from.push_back(k);
    }
  }
  const auto& gaps = sem_.gaps();
  const auto at_gap = [&](std::size_t v) {  // as ends_out_of_reach.cpp's gap cause asks
    if (ctl_fields(ctl_[v]).over != 2) return false;
    store_.words_of(v, cur_words_.data());
    codec_.unpack(cur_words_.data(), cur_.data());
    const int gap = cur_[static_cast<std::size_t>(sem_.layout().gap)];
    return gap > 0 && static_cast<std::size_t>(gap) <= gaps.size() &&
           gaps[static_cast<std::size_t>(gap) - 1].kind != checker::GapSite::Kind::stack_overflow;
  };
  constexpr std::uint32_t k_unseen = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> level_of(n, k_unseen);
  for (const std::size_t k : bfs_from) {
    std::vector<std::size_t> frontier, seen;
    if (first[k] == global_first[k] && !has(first_local[k], 63)) {
      frontier.push_back(first_local[k]);
      seen.push_back(first_local[k]);
      level_of[first_local[k]] = 0;
    }
    for (std::uint32_t level = 0;; ++level) {
      int found = 0, any = 0;
      for (const std::size_t v : frontier) found |= level > 0 && at_gap(v) ? 1 : 0;
      MPI_Allreduce(MPI_IN_PLACE, &found, 1, MPI_INT, MPI_MAX, comm_);
      if (found != 0) {
        for (const std::size_t v : seen) {
          if (level_of[v] < level) ball_[v] = 1;
        }
        break;
      }
      any = frontier.empty() ? 0 : 1;
      MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm_);
      if (any == 0) break;  // no rule gap ahead: the analysis finds no cause either
      for (const std::size_t v : frontier) {
        for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
          out_[static_cast<std::size_t>(rank_of(out_to_[e]))].push_back(local_of(out_to_[e]));
        }
      }
      frontier.clear();
      for (const std::uint64_t w : all_to_all()) {
        if (level_of[w] != k_unseen) continue;
        level_of[w] = level + 1;
        seen.push_back(w);
        frontier.push_back(w);
      }
      if (stopped_now()) return false;
    }
    for (const std::size_t v : seen) level_of[v] = k_unseen;
  }
  return true;
}

// leads_to (Options::leads_marks), per property k: the region is the
// running states where `to` does not hold. (1) OWCTY elimination within it
// leaves its cycles; they and its dead ends are the traps. (2) A backward
// search within the region from the traps marks the states that can avoid
// `to` forever. (3) An all-reduce picks the earliest `from` state among
// them (the single-process numbers). (4) From it a forward search within
// the region: every state it meets is gathered with its moves (ball_ 1),
// so that rank 0 finds the nearest cycle (OWCTY's core also holds the
// states between cycles) and dead end as one process does. False when
// interrupted.
bool Run::leads_to() {
  const std::size_t n = store_.size();
  if (ball_.size() != n) ball_.assign(n, 0);
  leads_slice_.assign(n, 0);
  leads_bad_num_.assign(options_.leads_count, std::numeric_limits<std::uint64_t>::max());
  constexpr std::uint32_t k_unseen = std::numeric_limits<std::uint32_t>::max();
  for (std::size_t k = 0; k < options_.leads_count && k < 32; ++k) {
    const std::uint64_t to_bit = std::uint64_t{1} << (2 * k + 1);
    const auto region = [&](std::size_t v) {
      return ctl_fields(ctl_[v]).over == 0 && (leads_[v] & to_bit) == 0;
    };
    const auto region_target = [&](std::uint64_t e) {
      return ctl_fields(ctl_of_label(out_label_[e])).over == 0 && (out_leads_[e] & to_bit) == 0;
    };
    // (1) OWCTY within the region.
    std::vector<std::uint8_t> alive;
    const bool done = eliminate(
        alive, region, [&](std::size_t, std::uint64_t e) { return region_target(e); },
        // (A source outside the region was never alive: its count is not read.)
        [](std::size_t, std::uint64_t) { return true; });
    if (!done) return false;
    // (2) The traps, then backwards within the region.
    std::vector<std::uint8_t> escapes(n, 0);
    std::vector<std::size_t> work;
    for (std::size_t v = 0; v < n; ++v) {
      if (!region(v)) continue;
      leads_slice_[v] |= std::uint64_t{1} << (2 * k);
      const bool dead_end = out_begin_[v] == out_begin_[v + 1];
      if (dead_end) leads_slice_[v] |= to_bit;
      if (alive[v] != 0 || dead_end) {
        escapes[v] = 1;
        work.push_back(v);
      }
    }
    for (;;) {
      for (const std::size_t v : work) {
        for (std::uint64_t e = in_begin_[v]; e < in_begin_[v + 1]; ++e) {
          const std::uint64_t u = in_from_csr_[e];
          out_[static_cast<std::size_t>(rank_of(u))].push_back(local_of(u));
        }
      }
      work.clear();
      for (const std::uint64_t u : all_to_all()) {
        if (escapes[u] != 0 || !region(u)) continue;
        escapes[u] = 1;
        work.push_back(u);
      }
      if (stopped_now()) return false;
      int more = work.empty() ? 0 : 1, any = 0;
      MPI_Allreduce(&more, &any, 1, MPI_INT, MPI_MAX, comm_);
      if (any == 0) break;
    }
    // (3) The earliest failing `from` state.
    const std::uint64_t from_bit = std::uint64_t{1} << (2 * k);
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    std::size_t first_local = n;
    for (std::size_t v = 0; v < n; ++v) {
      if ((leads_[v] & from_bit) == 0 || escapes[v] == 0) continue;
      if (store_.num(v) < first) {
        first = store_.num(v);
        first_local = v;
      }
    }
    std::uint64_t global = 0;
    MPI_Allreduce(&first, &global, 1, MPI_UINT64_T, MPI_MIN, comm_);
    leads_bad_num_[k] = global;
    if (global == std::numeric_limits<std::uint64_t>::max()) continue;
    // (4) Forward within the region.
    std::vector<std::uint32_t> level_of(n, k_unseen);
    std::vector<std::size_t> frontier;
    if (first == global) {
      frontier.push_back(first_local);
      level_of[first_local] = 0;
    }
    for (std::uint32_t level = 0;; ++level) {
      for (const std::size_t v : frontier) ball_[v] = 1;
      int any = frontier.empty() ? 0 : 1;
      MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm_);
      if (any == 0) break;
      for (const std::size_t v : frontier) {
        for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
          if (!region_target(e)) continue;
          out_[static_cast<std::size_t>(rank_of(out_to_[e]))].push_back(local_of(out_to_[e]));
        }
      }
      frontier.clear();
      for (const std::uint64_t w : all_to_all()) {
        if (level_of[w] != k_unseen) continue;
        level_of[w] = level + 1;
        frontier.push_back(w);
      }
      if (stopped_now()) return false;
    }
  }
  return true;
}

// Rank 0 gathers the states on or between cycles (core_) with their moves,
// then, round by round, the states it lacks: those the moves lead to and
// the parents of every state it has, until it reaches the initial states.
// A state travels as [global id, number, depth, parent's id, parent index,
// marks, core bits, leads_to bits, moves (for a core state, else 0), (to, label) per
// move, the packed state].
void Run::gather_slice(Result& r) {
  const std::size_t n = store_.size();
  std::vector<std::uint8_t> sent(n, 0);
  std::vector<std::size_t> want;
  std::set<std::uint64_t> asked;  // rank 0
  std::vector<std::uint64_t> mine, all, requests;
  std::uint64_t core = 0;
  for (std::size_t v = 0; v < n; ++v) {
    if ((core_[v] & k_gathered_cores) != 0) {
      want.push_back(v);
      ++core;
    } else if (!ball_.empty() && ball_[v] != 0) {
      want.push_back(v);
    }
  }
  MPI_Reduce(rank_ == 0 ? MPI_IN_PLACE : &core, &core, 1, MPI_UINT64_T, MPI_SUM, 0, comm_);
  // The stack-overflow gap states, per site: how many, and the first
  // k_overflows_gathered in the single-process order (unbounded chains
  // read their chains back).
  {
    std::map<std::int64_t, std::vector<std::pair<std::uint64_t, std::size_t>>> sites;
    const auto& gaps = sem_.gaps();
    for (std::size_t v = 0; v < n; ++v) {
      if (ctl_fields(ctl_[v]).over != 2) continue;
      store_.words_of(v, cur_words_.data());
      codec_.unpack(cur_words_.data(), cur_.data());
      const int gap = cur_[static_cast<std::size_t>(sem_.layout().gap)];
      if (gap <= 0 || static_cast<std::size_t>(gap) > gaps.size() ||
          gaps[static_cast<std::size_t>(gap) - 1].kind != checker::GapSite::Kind::stack_overflow) {
        continue;
      }
      sites[gap].emplace_back(store_.num(v), v);
    }
    // [site, states, then (number, global id) of the first ones, 0-ended]
    std::vector<std::uint64_t> firsts;
    for (auto& [gap, list] : sites) {
      std::sort(list.begin(), list.end());
      firsts.push_back(static_cast<std::uint64_t>(gap));
      firsts.push_back(list.size());
      for (std::size_t i = 0; i < list.size() && i < k_overflows_gathered; ++i) {
        firsts.push_back(list[i].first);
        firsts.push_back(global_id(list[i].second));
      }
      firsts.push_back(k_initial);
    }
    all = gather_on_root(firsts);
    std::vector<std::uint64_t> chosen;
    if (rank_ == 0) {
      std::map<std::int64_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> merged;
      for (std::size_t at = 0; at < all.size();) {
        const auto gap = static_cast<std::int64_t>(all[at]);
        r.overflows[static_cast<int>(gap)] += all[at + 1];
        auto& list = merged[gap];
        for (at += 2; all[at] != k_initial; at += 2) list.emplace_back(all[at], all[at + 1]);
        ++at;
      }
      for (auto& [gap, list] : merged) {
        std::sort(list.begin(), list.end());
        for (std::size_t i = 0; i < list.size() && i < k_overflows_gathered; ++i) {
          chosen.push_back(list[i].second);
        }
      }
    }
    int chosen_count = static_cast<int>(chosen.size());
    MPI_Bcast(&chosen_count, 1, MPI_INT, 0, comm_);
    chosen.resize(static_cast<std::size_t>(chosen_count));
    MPI_Bcast(chosen.data(), chosen_count, MPI_UINT64_T, 0, comm_);
    for (const std::uint64_t gid : chosen) {
      if (rank_of(gid) == rank_) want.push_back(local_of(gid));
      asked.insert(gid);
    }
  }
  struct Rec {
    std::uint64_t num, depth, parent, parent_index, marks, leads;
    std::vector<std::uint64_t> moves;  // to, label
    std::vector<std::uint64_t> words;
  };
  std::map<std::uint64_t, Rec> have;  // rank 0: by global id
  for (;;) {
    mine.clear();
    for (const std::size_t v : want) {
      if (sent[v] != 0) continue;
      sent[v] = 1;
      mine.insert(mine.end(), {global_id(v), store_.num(v), depth_of(v), store_.parent(v),
                               store_.parent_index(v), marks_[v], core_[v],
                               leads_slice_.empty() ? 0 : leads_slice_[v]});
      if ((core_[v] & k_gathered_cores) != 0 || (!ball_.empty() && ball_[v] == 1)) {
        mine.push_back(out_begin_[v + 1] - out_begin_[v]);
        for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
          mine.push_back(out_to_[e]);
          mine.push_back(out_label_[e]);
        }
      } else {
        mine.push_back(0);
      }
      const std::size_t at = mine.size();
      mine.resize(at + words_);
      store_.words_of(v, &mine[at]);
    }
    want.clear();
    all = gather_on_root(mine);
    requests.clear();
    if (rank_ == 0) {
      const auto ask = [&](std::uint64_t gid) {
        if (asked.insert(gid).second) requests.push_back(gid);
      };
      for (std::size_t at = 0; at < all.size();) {
        const std::uint64_t gid = all[at];
        asked.insert(gid);
        Rec rec{all[at + 1], all[at + 2], all[at + 3], all[at + 4],
                all[at + 5], all[at + 7], {},          {}};
        const std::uint64_t moves = all[at + 8];
        at += 9;
        rec.moves.assign(all.begin() + static_cast<std::ptrdiff_t>(at),
                         all.begin() + static_cast<std::ptrdiff_t>(at + 2 * moves));
        at += 2 * moves;
        rec.words.assign(all.begin() + static_cast<std::ptrdiff_t>(at),
                         all.begin() + static_cast<std::ptrdiff_t>(at + words_));
        at += words_;
        if ((rec.parent & k_initial) == 0) ask(rec.parent);
        for (std::size_t m = 0; m < rec.moves.size(); m += 2) ask(rec.moves[m]);
        have.emplace(gid, std::move(rec));
      }
    }
    int asks = static_cast<int>(requests.size());
    MPI_Bcast(&asks, 1, MPI_INT, 0, comm_);
    if (asks == 0) break;
    requests.resize(static_cast<std::size_t>(asks));
    MPI_Bcast(requests.data(), asks, MPI_UINT64_T, 0, comm_);
    for (const std::uint64_t gid : requests) {
      if (rank_of(gid) == rank_) want.push_back(local_of(gid));
    }
  }
  if (rank_ != 0) return;
  r.core_states = core;
  // Numbered by the single-process numbers.
  std::vector<const std::pair<const std::uint64_t, Rec>*> order;
  for (const auto& entry : have) order.push_back(&entry);
  std::sort(order.begin(), order.end(),
            [](const auto* a, const auto* b) { return a->second.num < b->second.num; });
  std::map<std::uint64_t, checker::StateId> id;
  for (std::size_t i = 0; i < order.size(); ++i) {
    id[order[i]->first] = static_cast<checker::StateId>(i);
  }
  auto slice = std::make_unique<Slice>(sem_);
  const auto players = static_cast<std::size_t>(sem_.game().players);
  r.doomed.assign(players, std::vector<bool>(order.size(), false));
  r.can_finish.assign(order.size(), false);
  const bool ends = static_cast<bool>(options_.end_marks);
  const std::size_t end_shift = 1 + 2 * players;
  if (ends) {
    r.can_end.assign(order.size(), false);
    r.endless.assign(order.size(), false);
    r.can_lose.assign(players, std::vector<bool>(order.size(), false));
    r.can_win = r.can_lose;
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Rec& rec = order[i]->second;
    codec_.unpack(rec.words.data(), cur_.data());
    slice->states.emplace_back(cur_.begin(),
                               cur_.begin() + static_cast<std::ptrdiff_t>(codec_.fields()));
    std::vector<checker::Edge> edges;
    for (std::size_t m = 0; m < rec.moves.size(); m += 2) {
      checker::Edge e = edge_of(rec.moves[m + 1]);
      e.to = id.at(rec.moves[m]);
      edges.push_back(e);
    }
    slice->stats.transitions += edges.size();
    slice->moves.push_back(std::move(edges));
    const bool initial = (rec.parent & k_initial) != 0;
    slice->parents.push_back(initial ? checker::no_state : id.at(rec.parent));
    slice->parent_indices.push_back(static_cast<std::uint32_t>(rec.parent_index));
    slice->depths.push_back(static_cast<std::uint32_t>(rec.depth));
    if (rec.depth == 0) ++slice->initials;
    const auto marks = static_cast<std::uint32_t>(rec.marks);
    r.can_finish[i] = (marks & 1U) != 0;
    for (std::size_t p = 0; p < players; ++p) {
      r.doomed[p][i] = ((marks >> (1 + 2 * p)) & 1U) != 0 && ((marks >> (2 + 2 * p)) & 1U) == 0;
    }
    if (ends) {
      const auto bit = [&](std::size_t b) { return ((rec.marks >> b) & 1U) != 0; };
      r.can_end[i] = bit(end_shift);
      r.endless[i] = bit(63);
      for (std::size_t p = 0; p < players; ++p) {
        r.can_lose[p][i] = bit(end_shift + 1 + 2 * p);
        r.can_win[p][i] = bit(end_shift + 2 + 2 * p);
      }
    }
  }
  if (options_.leads_marks) {
    r.leads_bits.resize(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) r.leads_bits[i] = order[i]->second.leads;
    r.leads_bad.assign(leads_bad_num_.size(), checker::no_state);
    for (std::size_t k = 0; k < leads_bad_num_.size(); ++k) {
      for (std::size_t i = 0; i < order.size(); ++i) {
        if (order[i]->second.num == leads_bad_num_[k]) {
          r.leads_bad[k] = static_cast<checker::StateId>(i);
          break;
        }
      }
    }
  }
  slice->stats.states = order.size();
  r.slice = std::move(slice);
}

void Run::gather_figures(Result& r) {
  figures_.peak_resident = peak_resident_bytes();
  figures_.store_bytes = store_.memory();
  const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  figures_.edge_bytes = bytes(out_begin_) + bytes(out_to_) + bytes(out_label_) + bytes(in_begin_) +
                        bytes(in_from_csr_) + bytes(in_label_csr_) + bytes(ctl_) + bytes(marks_) +
                        bytes(core_) + bytes(ball_) + bytes(leads_) + bytes(out_leads_) +
                        bytes(leads_slice_);
  const std::array<std::uint64_t, 7> mine = {
      figures_.states,        figures_.transitions, figures_.bytes_sent, figures_.messages,
      figures_.peak_resident, figures_.store_bytes, figures_.edge_bytes};
  std::vector<std::uint64_t> all(rank_ == 0 ? mine.size() * static_cast<std::size_t>(size_) : 0);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, all.data(),
             static_cast<int>(mine.size()), MPI_UINT64_T, 0, comm_);
  for (std::size_t at = 0; at + mine.size() <= all.size(); at += mine.size()) {
    r.per_rank.push_back(
        {all[at], all[at + 1], all[at + 2], all[at + 3], all[at + 4], all[at + 5], all[at + 6]});
  }
}

}  // namespace

Result explore(const checker::Semantics& sem, MPI_Comm comm, const Options& options) {
  Run run(sem, comm, options);
  return run.run();
}

}  // namespace loophole::distributed
