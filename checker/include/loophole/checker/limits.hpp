// Limits that hold for a whole run, search and analyses alike: the resident
// size of the process and the wall time. The engine's MemoryBudget bounds its
// own buffers; what else a run holds (the analyses' arrays, the semantics'
// scratch, the allocator's slack) is bounded by watching the process from
// outside: a thread reads the resident size (/proc/self/statm) every few
// milliseconds and raises one stop flag, which the search and every analysis
// poll in their loops, when the size or the deadline is passed (or when the
// interrupt flag it forwards is set). Large arrays are asked for first
// (afford()), so a step that would jump past the limit stops before it
// allocates instead of after.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <thread>

#include "loophole/checker/explored.hpp"

namespace loophole::checker {

// The resident size of this process now, in bytes (0 where unknown).
[[nodiscard]] std::uint64_t resident_bytes();
// Its peak (VmHWM) since the start or the last reset_peak_resident() (0 where
// unknown).
[[nodiscard]] std::uint64_t peak_resident_bytes();
// Starts a new peak at the current size (Linux: /proc/self/clear_refs);
// false where the kernel cannot.
bool reset_peak_resident();
// The memory limit when none is given: 80% of the memory available when
// asked (MemAvailable, capped by a cgroup limit), so a run stops cleanly
// before the OOM killer would end it.
[[nodiscard]] std::uint64_t default_memory_limit();

class RunLimits {
 public:
  using Clock = std::chrono::steady_clock;
  // `max_resident` 0: no memory limit; no deadline: no time limit;
  // `interrupt` (may be null) is forwarded to stop() with reason interrupted
  // until ignore_interrupt().
  RunLimits(std::uint64_t max_resident, std::optional<Clock::time_point> deadline,
            const std::atomic<bool>* interrupt);
  RunLimits(const RunLimits&) = delete;
  RunLimits& operator=(const RunLimits&) = delete;
  ~RunLimits();

  // Set once a limit is reached or the interrupt flag was seen.
  [[nodiscard]] const std::atomic<bool>& stop() const { return stop_; }
  // Why stop() is set: memory_limit, time_limit or interrupted; complete while it is not.
  [[nodiscard]] Completion reason() const;
  // Whether `bytes` more fit under the memory limit now; when not, stops the
  // run (memory_limit) and says false.
  [[nodiscard]] bool afford(std::uint64_t bytes);
  void trip(Completion why);  // stops the run for `why` (the first reason is kept)
  // After an interrupt stopped the search: the analyses that follow run on
  // what was explored, still under the memory and time limits.
  void ignore_interrupt();

  [[nodiscard]] std::uint64_t max_resident() const { return max_resident_; }
  [[nodiscard]] std::optional<Clock::time_point> deadline() const { return deadline_; }
  // Seconds until the deadline (at least a nanosecond), or 0 when there is none.
  [[nodiscard]] double seconds_left() const;

 private:
  void watch(const std::stop_token& token);

  std::uint64_t max_resident_;
  std::optional<Clock::time_point> deadline_;
  const std::atomic<bool>* interrupt_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> ignore_interrupt_{false};
  std::atomic<int> reason_{static_cast<int>(Completion::complete)};
  // The resident size the watcher (or afford) read last, every poll_period.
  std::atomic<std::uint64_t> last_resident_{0};
  std::jthread watcher_;  // last: started after the fields it reads
};

}  // namespace loophole::checker
