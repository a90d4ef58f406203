// The distributed search: see explore.hpp. A rank keeps the states it owns
// packed (checker::StateCodec, the explicit engine's bit packing: bytes()
// bytes a state) in one array, numbered in the order they arrive (so level
// by level), each with the global id of its parent; a global id is
// (rank << 40) | local number. An open-addressing table of 32-bit slots at
// a load of at most one half indexes them. States travel packed too, as
// words() 64-bit words after their parent's id.
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
#include <span>
#include <stdexcept>
#include <string>
#include <thread>

#include <unistd.h>

#include "loophole/checker/generator.hpp"
#include "loophole/checker/state_codec.hpp"

namespace loophole::distributed {
namespace {

constexpr std::uint64_t k_initial = std::uint64_t{1} << 63;  // parent of an initial state
constexpr unsigned k_rank_shift = 40;

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
    return rows_.size() * ((bytes_ + sizeof(std::uint64_t)) << k_chunk_bits) +
           slots_.size() * sizeof(std::uint32_t);
  }

  // Adds the packed state w unless present; true when added.
  bool insert(const std::uint64_t* w, std::uint64_t hash, std::uint64_t parent) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const std::uint32_t slot = slots_[i];
      if (slot == 0) {
        if ((size_ & k_chunk_mask) == 0) {
          rows_.push_back(std::make_unique<std::uint8_t[]>(bytes_ << k_chunk_bits));
          parents_.push_back(std::make_unique<std::uint64_t[]>(std::size_t{1} << k_chunk_bits));
        }
        std::memcpy(rows_.back().get() + (size_ & k_chunk_mask) * bytes_, w, bytes_);
        parents_.back()[size_ & k_chunk_mask] = parent;
        slots_[i] = static_cast<std::uint32_t>(++size_);
        return true;
      }
      if (std::memcmp(row(slot - 1), w, bytes_) == 0) return false;
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
  std::vector<std::unique_ptr<std::uint64_t[]>> parents_;
  std::vector<std::uint32_t> slots_;
};

struct LocalGroup {
  std::uint64_t states = 0;
  std::uint32_t depth = 0;
  std::uint64_t first = 0;
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

  // The packed state w with its parent, to w's owner.
  void send(const std::uint64_t* w, std::uint64_t parent) {
    auto& o = out_[static_cast<std::size_t>(owner(hash_words(w, words_)))];
    o.push_back(parent);
    o.insert(o.end(), w, w + words_);
  }
  void expand(std::size_t local);
  void exchange();
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

void note(LocalGroup& g, std::uint32_t depth, std::uint64_t gid) {
  if (g.states == 0 || depth < g.depth || (depth == g.depth && gid < g.first)) {
    g.depth = depth;
    g.first = gid;
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
    for (const GroupKey& key : keys_) note(groups_[q][key], depth_of(local), global_id(local));
  }
}

void Run::expand(std::size_t local) {
  store_.words_of(local, cur_words_.data());
  codec_.unpack(cur_words_.data(), cur_.data());
  gen_.successors(cur_.data(), buf_);
  const std::size_t n = buf_.size();
  figures_.transitions += n;
  classify(local, cur_.data());
  for (std::size_t i = 0; i < n; ++i) {
    codec_.pack_from(cur_.data(), cur_words_.data(), buf_.state(i), succ_words_.data());
    send(succ_words_.data(), global_id(local));
  }
}

// One all-to-all round: every rank's outgoing successors to their owners,
// which add the new ones (they belong to the next level).
void Run::exchange() {
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
    out_[r].clear();
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
  const std::size_t record = words_ + 1;
  for (std::size_t at = 0; at + record <= recv_buf.size(); at += record) {
    const std::uint64_t* w = &recv_buf[at + 1];
    store_.insert(w, hash_words(w, words_), recv_buf[at]);
  }
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
  for (std::size_t i = 0; i < initial.size(); ++i) {
    codec_.pack(initial[i].data(), cur_words_.data());
    const std::uint64_t h = hash_words(cur_words_.data(), words_);
    if (owner(h) == rank_) store_.insert(cur_words_.data(), h, k_initial | i);
  }
  int stop = 0;
  std::size_t cursor = 0;
  std::size_t level_end = 0;
  for (;;) {
    level_end = store_.size();
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
// shallowest first state, the lowest global id among those); then every
// rank takes part in rebuilding each group's trace. A group travels as
// [question, key length, key..., states, depth, first].
void Run::gather_groups(Result& r) {
  std::vector<std::int64_t> mine;
  const auto put = [&](std::size_t q, const GroupKey& key, const LocalGroup& g) {
    mine.push_back(static_cast<std::int64_t>(q));
    mine.push_back(static_cast<std::int64_t>(key.size()));
    mine.insert(mine.end(), key.begin(), key.end());
    mine.insert(mine.end(),
                {static_cast<std::int64_t>(g.states), static_cast<std::int64_t>(g.depth),
                 static_cast<std::int64_t>(g.first)});
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
                      static_cast<std::uint64_t>(v[tail + 2])});
      at = tail + 3;
    }
  };
  for (std::size_t q = 0; q < groups_.size(); ++q) {
    for (const auto& [key, g] : groups_[q]) put(q, key, g);
  }
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_));
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
  std::vector<std::int64_t> all;
  if (rank_ == 0) {
    int at = 0;
    for (int i = 0; i < size_; ++i) {
      displs[static_cast<std::size_t>(i)] = at;
      at += counts[static_cast<std::size_t>(i)];
    }
    all.resize(static_cast<std::size_t>(at));
  }
  MPI_Gatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(), displs.data(),
              MPI_INT64_T, 0, comm_);
  std::vector<std::map<GroupKey, LocalGroup>> merged(options_.questions.size());
  read(all, [&](std::size_t q, const GroupKey& key, const LocalGroup& g) {
    LocalGroup& into = merged[q][key];
    if (into.states == 0 || g.depth < into.depth ||
        (g.depth == into.depth && g.first < into.first)) {
      into.depth = g.depth;
      into.first = g.first;
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

void Run::gather_figures(Result& r) {
  figures_.peak_resident = peak_resident_bytes();
  figures_.store_bytes = store_.memory();
  const std::array<std::uint64_t, 6> mine = {figures_.states,        figures_.transitions,
                                             figures_.bytes_sent,    figures_.messages,
                                             figures_.peak_resident, figures_.store_bytes};
  std::vector<std::uint64_t> all(rank_ == 0 ? mine.size() * static_cast<std::size_t>(size_) : 0);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, all.data(),
             static_cast<int>(mine.size()), MPI_UINT64_T, 0, comm_);
  for (std::size_t at = 0; at + mine.size() <= all.size(); at += mine.size()) {
    r.per_rank.push_back(
        {all[at], all[at + 1], all[at + 2], all[at + 3], all[at + 4], all[at + 5]});
  }
}

}  // namespace

Result explore(const checker::Semantics& sem, MPI_Comm comm, const Options& options) {
  Run run(sem, comm, options);
  return run.run();
}

}  // namespace loophole::distributed
