// The thread team of workers.hpp. Tasks are handed out under one mutex: a
// phase has at most a few hundred tasks of thousands of states each, so the
// lock is never contended enough to matter, and it keeps the code obvious.
#include "workers.hpp"

#include <utility>

namespace loophole::checker {

Workers::Workers(int threads) {
  for (int w = 1; w < threads; ++w) helpers_.emplace_back([this, w] { helper(w); });
}

Workers::~Workers() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : helpers_) t.join();
}

void Workers::run(std::size_t tasks, const std::function<void(std::size_t, int)>& fn) {
  {
    const std::lock_guard lock(mutex_);
    fn_ = &fn;
    tasks_ = tasks;
    next_ = 0;
    error_ = nullptr;
    busy_ = size();
    ++generation_;
  }
  wake_.notify_all();
  work(0);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return busy_ == 0; });
  fn_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void Workers::helper(int worker) {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    work(worker);
  }
}

void Workers::work(int worker) {
  std::unique_lock lock(mutex_);
  while (next_ < tasks_ && !error_) {
    const std::size_t task = next_++;
    lock.unlock();
    try {
      (*fn_)(task, worker);
    } catch (...) {
      lock.lock();
      if (!error_) error_ = std::current_exception();
      continue;
    }
    lock.lock();
  }
  if (--busy_ == 0) done_.notify_all();
}

}  // namespace loophole::checker
