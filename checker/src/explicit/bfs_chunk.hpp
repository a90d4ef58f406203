// One chunk of a breadth-first level through its phases (bfs_chunk.cpp),
// and the stop flag it shares with the level loop (bfs.cpp).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

#include "bfs.hpp"

namespace loophole::checker {

// Why a search stops: the first reason given wins. Set by the level loop
// between chunks and by a chunk's tasks (limits, interrupts), read by both.
class SearchStop {
 public:
  using Clock = std::chrono::steady_clock;

  explicit SearchStop(const ExplicitOptions& options)
      : interrupt_(options.interrupt), timeout_seconds_(options.timeout_seconds) {}
  // The search starts: the timeout counts from `now`.
  void start(Clock::time_point now) {
    if (timeout_seconds_ > 0) {
      deadline_ = now + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(timeout_seconds_));
    }
  }

  void stop(Completion c) {
    int none = 0;
    stop_.compare_exchange_strong(none, 1 + static_cast<int>(c));
  }
  [[nodiscard]] bool stopped() const { return stop_.load(std::memory_order_relaxed) != 0; }
  [[nodiscard]] Completion reason() const {
    return static_cast<Completion>(stop_.load(std::memory_order_relaxed) - 1);
  }
  // Stops on an interrupt or past the deadline (the clock read only when
  // `read_clock`: a task reads it every few sources); whether stopped.
  bool check(bool read_clock = true) {
    if (interrupt_ != nullptr && interrupt_->load(std::memory_order_relaxed)) {
      stop(Completion::interrupted);
    } else if (read_clock && deadline_ && Clock::now() >= *deadline_) {
      stop(Completion::time_limit);
    }
    return stopped();
  }

 private:
  const std::atomic<bool>* interrupt_;
  double timeout_seconds_;
  std::optional<Clock::time_point> deadline_;
  std::atomic<int> stop_{0};  // 0, or 1 + the Completion that stopped the search
};

// Expands chunks of a level's sources, on a team of `threads` (the calling
// thread included): successors, their claims in the state store, ids,
// parents and edges exactly as a one-thread search gives them. (An
// interface, so that the implementation keeps internal linkage: the
// compiler then inlines each phase's task into the lambda the team runs,
// which measured 3% of a two-thread search at cosmere's default scope.)
class ChunkSearch {
 public:
  virtual ~ChunkSearch() = default;
  // Expands sources [begin, end) of the current level and stores what they
  // lead to; false when the search stopped (a stopped chunk is dropped
  // whole, or cut at a source by a state limit).
  virtual bool expand(StateId begin, StateId end) = 0;
};

std::unique_ptr<ChunkSearch> make_chunk_search(const TransitionSystem& system,
                                               const ExplicitOptions& options,
                                               const SearchTuning& tuning, ExplicitGraph& graph,
                                               int threads, SearchStop& stop);

}  // namespace loophole::checker
