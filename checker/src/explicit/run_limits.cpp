// The whole-run limits of limits.hpp: the resident size read from /proc, and
// the thread that watches it. (Polled every 2 ms: a read of /proc/self/statm
// costs about 10 us, and in 2 ms a run backing fresh pages at 2 us a page
// grows by 4 MiB at most.)
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <string>

#include <fcntl.h>
#include <unistd.h>

#include "loophole/checker/limits.hpp"

#include "memory_budget.hpp"

namespace loophole::checker {

namespace {

constexpr auto poll_period = std::chrono::milliseconds(2);
// afford(): requests up to this size may use the watcher's last reading.
constexpr std::uint64_t afford_small = std::uint64_t{1} << 20;

}  // namespace

std::uint64_t resident_bytes() {
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[128];
  const ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  unsigned long long size = 0, resident = 0;
  if (std::sscanf(text, "%llu %llu", &size, &resident) != 2) return 0;
  return static_cast<std::uint64_t>(resident) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

std::uint64_t peak_resident_bytes() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmHWM:") {
      std::uint64_t kib = 0;
      in >> kib;
      return kib * 1024;
    }
    in.ignore(1 << 10, '\n');
  }
  return 0;
}

bool reset_peak_resident() {
  const int fd = ::open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, "5", 1) == 1;
  ::close(fd);
  return ok;
}

std::uint64_t default_memory_limit() { return MemoryBudget::default_limit(); }

RunLimits::RunLimits(std::uint64_t max_resident, std::optional<Clock::time_point> deadline,
                     const std::atomic<bool>* interrupt)
    : max_resident_(max_resident), deadline_(deadline), interrupt_(interrupt) {
  if (max_resident_ != 0 || deadline_ || interrupt_ != nullptr) {
    watcher_ = std::jthread([this](const std::stop_token& token) { watch(token); });
  }
}

RunLimits::~RunLimits() {
  watcher_.request_stop();
  if (watcher_.joinable()) watcher_.join();
}

void RunLimits::watch(const std::stop_token& token) {
  std::mutex m;
  std::condition_variable_any wake;
  std::unique_lock lock(m);
  while (!token.stop_requested()) {
    if (interrupt_ != nullptr && !ignore_interrupt_.load(std::memory_order_relaxed) &&
        interrupt_->load(std::memory_order_relaxed)) {
      trip(Completion::interrupted);
    }
    if (deadline_ && Clock::now() >= *deadline_) trip(Completion::time_limit);
    if (max_resident_ != 0) {
      const std::uint64_t resident = resident_bytes();
      last_resident_.store(resident, std::memory_order_relaxed);
      if (resident > max_resident_) trip(Completion::memory_limit);
    }
    wake.wait_for(lock, token, poll_period, [] { return false; });
  }
}

void RunLimits::trip(Completion why) {
  int none = static_cast<int>(Completion::complete);
  reason_.compare_exchange_strong(none, static_cast<int>(why));
  stop_.store(true, std::memory_order_relaxed);
}

Completion RunLimits::reason() const { return static_cast<Completion>(reason_.load()); }

bool RunLimits::afford(std::uint64_t bytes) {
  if (max_resident_ == 0) return true;
  // A small request far below the limit is judged by the watcher's last
  // reading (at most poll_period old): the loop analyses ask before each
  // cycle search, half a million times on cosmere's default scope, and a
  // read of /proc/self/statm each time was 7% of that whole check's CPU.
  // Near the limit, or for a large request, the size is read afresh.
  const std::uint64_t seen = last_resident_.load(std::memory_order_relaxed);
  const std::uint64_t margin = max_resident_ / 32;
  if (bytes <= afford_small && seen != 0 && seen + bytes + margin <= max_resident_) return true;
  const std::uint64_t resident = resident_bytes();
  last_resident_.store(resident, std::memory_order_relaxed);
  if (resident + bytes <= max_resident_) return true;
  trip(Completion::memory_limit);
  return false;
}

void RunLimits::ignore_interrupt() {
  ignore_interrupt_.store(true);
  int interrupted = static_cast<int>(Completion::interrupted);
  if (reason_.compare_exchange_strong(interrupted, static_cast<int>(Completion::complete))) {
    stop_.store(false);
  }
}

double RunLimits::seconds_left() const {
  if (!deadline_) return 0;
  const double left = std::chrono::duration<double>(*deadline_ - Clock::now()).count();
  return left > 1e-9 ? left : 1e-9;
}

}  // namespace loophole::checker
