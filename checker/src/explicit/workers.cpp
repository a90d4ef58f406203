// The thread team of workers.hpp. A phase hands out its tasks through one
// two-ended span per region (TwoEnded). Between phases the helpers spin for
// a short while on the phase counter before they sleep on a condition
// variable: BFS runs several short phases per level, and a futex wake-up
// costs a VM tens of microseconds, as long as a small phase.
#include "workers.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LOOPHOLE_PAUSE() _mm_pause()
#else
#define LOOPHOLE_PAUSE() ((void)0)
#endif

namespace loophole::checker {

Workers::Workers(int threads)
    // More threads than cores: a spinning thread would take a core from one
    // that works, so those sleep at once.
    : spin_(threads <= static_cast<int>(std::thread::hardware_concurrency()) ? spin_rounds : 0),
      regions_(std::make_unique<TwoEnded[]>(static_cast<std::size_t>(threads))) {
  for (int w = 1; w < threads; ++w) helpers_.emplace_back([this, w] { helper(w); });
}

Workers::~Workers() {
  {
    const std::lock_guard lock(mutex_);
    stop_.store(true, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  for (auto& t : helpers_) t.join();
}

void Workers::run(std::size_t tasks, const std::function<void(std::size_t, int)>& fn,
                  const std::vector<std::size_t>* bounds) {
  const auto n = static_cast<std::size_t>(size());
  if (tasks >= (std::uint64_t{1} << 32) ||
      (bounds != nullptr &&
       (bounds->size() != n + 1 || bounds->front() != 0 || bounds->back() != tasks ||
        !std::is_sorted(bounds->begin(), bounds->end())))) {
    throw std::logic_error("loophole: internal error: bad task regions");
  }
  if (helpers_.empty()) {
    for (std::size_t t = 0; t < tasks; ++t) fn(t, 0);
    return;
  }
  fn_ = &fn;
  for (std::size_t w = 0; w < n; ++w) {
    const std::uint64_t front = bounds != nullptr ? (*bounds)[w] : w * tasks / n;
    const std::uint64_t back = bounds != nullptr ? (*bounds)[w + 1] : (w + 1) * tasks / n;
    regions_[w].reset(front, back);
  }
  failed_.store(false, std::memory_order_relaxed);
  busy_.store(size(), std::memory_order_relaxed);
  {
    const std::lock_guard lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  if (sleeping_.load(std::memory_order_acquire) != 0) wake_.notify_all();
  work(0);
  // Wait for the helpers: spin, then sleep.
  for (int i = 0; i < spin_ && busy_.load(std::memory_order_acquire) != 0; ++i) LOOPHOLE_PAUSE();
  if (busy_.load(std::memory_order_acquire) != 0) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return busy_.load(std::memory_order_acquire) == 0; });
  }
  fn_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void Workers::helper(int worker) {
  std::uint64_t seen = 0;
  for (;;) {
    int i = 0;
    while (generation_.load(std::memory_order_acquire) == seen && i < spin_) {
      LOOPHOLE_PAUSE();
      ++i;
    }
    if (generation_.load(std::memory_order_acquire) == seen) {
      std::unique_lock lock(mutex_);
      sleeping_.fetch_add(1, std::memory_order_acq_rel);
      wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
      sleeping_.fetch_sub(1, std::memory_order_acq_rel);
    }
    if (stop_.load(std::memory_order_acquire)) return;
    seen = generation_.load(std::memory_order_acquire);
    work(worker);
  }
}

bool Workers::take(int region, bool back, std::size_t& task) {
  std::uint64_t index = 0;
  if (!regions_[static_cast<std::size_t>(region)].take(back, index)) return false;
  task = static_cast<std::size_t>(index);
  return true;
}

void Workers::run_task(std::size_t task, int worker) {
  try {
    (*fn_)(task, worker);
  } catch (...) {
    const std::lock_guard lock(mutex_);
    if (!error_) error_ = std::current_exception();
    failed_.store(true, std::memory_order_relaxed);
  }
}

void Workers::work(int worker) {
  // The own region from the front, then the others' from their backs (their
  // smallest tasks, furthest from what their owners are working on).
  std::size_t task = 0;
  while (!failed_.load(std::memory_order_relaxed) && take(worker, false, task)) {
    run_task(task, worker);
  }
  for (int i = 1; i < size(); ++i) {
    const int other = (worker + i) % size();
    while (!failed_.load(std::memory_order_relaxed) && take(other, true, task)) {
      run_task(task, worker);
    }
  }
  if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    const std::lock_guard lock(mutex_);
    done_.notify_all();
  }
}

}  // namespace loophole::checker
