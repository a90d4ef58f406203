// One rank's run (run.hpp): the initial states, the levels in rounds until
// no rank adds a state or a limit stops every rank at the same round, the
// phases after the search, and rank 0's watcher for a rank that dies.
#include "run.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <fstream>
#include <thread>

#include <unistd.h>

namespace loophole::distributed::detail {
namespace {

std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

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

}  // namespace

// 0: go on; otherwise the checker::Completion that stops the run (the same
// on every rank: the highest any rank asks for); `any_more` whether some
// rank has states of the level left (`more`). Two non-blocking
// all-reduces, waited for while receiving (exchange.cpp).
int Run::stop_reason(bool more, bool& any_more) {
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
  const std::array<std::uint64_t, 2> local = {store_.size(), figures_.transitions};
  std::array<std::uint64_t, 2> global{};
  const std::array<int, 2> flags = {mine, more ? 1 : 0};
  std::array<int, 2> all{};
  std::array<MPI_Request, 2> requests{};
  MPI_Iallreduce(local.data(), global.data(), 2, MPI_UINT64_T, MPI_SUM, comm_, &requests[0]);
  MPI_Iallreduce(flags.data(), all.data(), 2, MPI_INT, MPI_MAX, comm_, &requests[1]);
  wait(requests[0]);
  wait(requests[1]);
  if (rank_ == 0) {
    const std::lock_guard<std::mutex> lock(snapshot_mutex_);
    snapshot_ = {global[0], global[1], static_cast<std::uint32_t>(level_begin_.size()),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()};
  }
  int stop = all[0];
  if (options_.max_states != 0 && global[0] > options_.max_states) {
    stop = std::max(stop, static_cast<int>(checker::Completion::state_limit));
  }
  any_more = all[1] != 0;
  return stop;
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
    // Rounds until every rank has expanded its part of the level (or a
    // stop), the successors exchanged as they are generated; a round ends
    // in the limit checks.
    for (;;) {
      const std::size_t take = std::min(options_.batch, level_end - cursor);
      expand_round(cursor, take);
      cursor += take;
      bool any = false;
      stop = stop_reason(cursor < level_end, any);
      if (stop != 0 || !any) break;
    }
    end_level();
    if (stop != 0) break;
    std::int64_t added = static_cast<std::int64_t>(store_.size() - level_end);
    std::int64_t total = 0;
    MPI_Allreduce(&added, &total, 1, MPI_INT64_T, MPI_SUM, comm_);
    if (total == 0) break;
    number_level(level_end, store_.size(), level_end - level_begin_.back());
    level_begin_.push_back(level_end);
  }
  merge_groups();
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
      if (options_.summarize) summarize_components(result);
      gather_slice(result);
    } else {
      result.completion = checker::Completion::interrupted;
    }
  }
  gather_figures(result);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return result;
}

}  // namespace loophole::distributed::detail

namespace loophole::distributed {

Result explore(const checker::Semantics& sem, MPI_Comm comm, const Options& options) {
  detail::Run run(sem, comm, options);
  return run.run();
}

}  // namespace loophole::distributed
