// The progress line on stderr: one line, rewritten in place, shown only when
// stderr is a terminal (a CI log or a redirected stderr gets none of it) and
// erased before anything else is printed. A run can be long in three places:
// the exploration (states, rate), the analyses that read the explored graph
// (which one runs, how many are done) and a --sweep (which value, and an ETA
// once one value has been checked). The text of each is a pure function,
// tested without a terminal.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "loophole/checker/explicit.hpp"

namespace loophole::cli {

// "states 48,213  transitions 201,977  depth 12  57k/s  mem 3 MiB"
std::string exploration_progress(const checker::Progress& p);
// "analyses 2/7 done, running stalemates"
std::string analysis_progress(std::string_view running, std::size_t done, std::size_t total);
// "smt depth 7 of 20  12.3 s  solving deadlocks" ("smt depth 31 (past 4)"
// when --symbolic's layers go on past --depth); before depth 0 is done
// "smt 0.4 s  encoding the rules" (the SMT engine's smt::Activity).
std::string smt_progress(int depth, int max_depth, double seconds, std::string_view what);
// "deck = 3 (value 2 of 5, about 40 s left)"; no estimate before one value is done.
std::string sweep_progress(std::string_view param, std::int64_t value, std::size_t index,
                           std::size_t count, std::optional<double> seconds_left);

// An estimate of what is left: the mean time of the `done` items so far,
// times those still to do; nullopt before the first is done.
std::optional<double> seconds_left(double elapsed, std::size_t done, std::size_t total);

class ProgressLine {
 public:
  // Shown on a terminal only; `enabled` false for tests and pipes.
  explicit ProgressLine(bool enabled);
  [[nodiscard]] bool enabled() const { return enabled_; }
  // A prefix kept in front of every line until changed (the sweep value).
  void set_prefix(std::string prefix);
  // Rewrites the line; safe from any thread.
  void show(std::string_view text);
  // Erases the line (before results or diagnostics are printed).
  void clear();

 private:
  bool enabled_;
  bool shown_ = false;
  std::string prefix_;
  std::mutex mutex_;
};

}  // namespace loophole::cli
