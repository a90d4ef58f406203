// A fixed team of threads for the parallel phases of BFS. run() hands out
// tasks 0..n-1 to the team (the calling thread included) and returns when all
// are done, so each phase ends in a barrier and the next phase sees all its
// writes. The first exception a task throws is rethrown by run(); the other
// tasks of that phase are skipped.
//
// The tasks are split into one contiguous region per worker. A worker runs
// its own region from the front, then takes what is left of the others' from
// their backs. BFS lays out every phase of a chunk alike (region w covers the
// same part of the chunk in each), so a worker mostly reads what it wrote
// itself a phase before, from its own caches: on the VMs we measure on, the
// two virtual CPUs are at times placed on cores far apart, where a cache line
// written by one and read by the other costs hundreds of nanoseconds.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "two_ended.hpp"

namespace loophole::checker {

class Workers {
 public:
  explicit Workers(int threads);  // threads >= 1; threads - 1 helpers are started
  ~Workers();
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  [[nodiscard]] int size() const { return static_cast<int>(helpers_.size()) + 1; }

  // Calls fn(task, worker) for every task in [0, tasks); worker is in [0, size()).
  // `bounds` (size() + 1 ascending entries from 0 to tasks) gives the regions;
  // without, they are equal.
  void run(std::size_t tasks, const std::function<void(std::size_t, int)>& fn,
           const std::vector<std::size_t>* bounds = nullptr);

 private:
  void helper(int worker);
  void work(int worker);
  // Takes region's first (or last) task not yet taken; false when none is left.
  bool take(int region, bool back, std::size_t& task);
  void run_task(std::size_t task, int worker);

  // Pause instructions a waiting thread spins before it sleeps (some tens of
  // microseconds: about one short phase).
  static constexpr int spin_rounds = 20000;
  const int spin_;  // spin_rounds, or 0 with more threads than cores

  std::vector<std::thread> helpers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<bool> stop_{false};
  std::atomic<int> sleeping_{0};
  std::atomic<int> busy_{0};
  std::unique_ptr<TwoEnded[]> regions_;  // each region's tasks not yet taken
  std::atomic<bool> failed_{false};
  const std::function<void(std::size_t, int)>* fn_ = nullptr;
  std::exception_ptr error_;
};

}  // namespace loophole::checker
