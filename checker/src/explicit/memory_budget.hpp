// Accounts every large buffer of the explicit engine against one limit, so a
// run that would outgrow the machine stops with Completion::memory_limit
// instead of meeting the OOM killer. Buffers ask before they grow (acquire)
// and give back what they free (release); the peak is what Statistics
// reports. Without an explicit limit the budget is 80% of the memory that was
// available when the run started (MemAvailable, capped by a cgroup limit).
#pragma once

#include <atomic>
#include <cstdint>

namespace loophole::checker {

class MemoryBudget {
 public:
  explicit MemoryBudget(std::uint64_t limit);  // 0 = default_limit()

  // Reserves `bytes`; false (and nothing reserved) when that would pass the limit.
  [[nodiscard]] bool acquire(std::uint64_t bytes);
  void release(std::uint64_t bytes);
  // Reserves `bytes` even past the limit (what cannot wait: the next
  // acquire() then fails, and the search stops at its next reserve).
  void force(std::uint64_t bytes);

  [[nodiscard]] std::uint64_t used() const { return used_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t limit() const { return limit_; }

  static std::uint64_t default_limit();

 private:
  std::uint64_t limit_;
  std::atomic<std::uint64_t> used_{0};
  std::atomic<std::uint64_t> peak_{0};
};

}  // namespace loophole::checker
