// A fixed team of threads for the parallel phases of BFS. run() hands out
// tasks 0..n-1 to the team (the calling thread included) and returns when all
// are done, so each phase ends in a barrier and the next phase sees all its
// writes. The first exception a task throws is rethrown by run(); the other
// tasks of that phase are skipped.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace loophole::checker {

class Workers {
 public:
  explicit Workers(int threads);  // threads >= 1; threads - 1 helpers are started
  ~Workers();
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  [[nodiscard]] int size() const { return static_cast<int>(helpers_.size()) + 1; }

  // Calls fn(task, worker) for every task in [0, tasks); worker is in [0, size()).
  void run(std::size_t tasks, const std::function<void(std::size_t, int)>& fn);

 private:
  void helper(int worker);
  void work(int worker);

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
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> failed_{false};
  std::size_t tasks_ = 0;
  const std::function<void(std::size_t, int)>* fn_ = nullptr;
  std::exception_ptr error_;
};

}  // namespace loophole::checker
