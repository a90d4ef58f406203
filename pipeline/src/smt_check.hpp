// The SMT engine's part of the pipeline (--engine smt|auto, --symbolic
// NAME): private to pipeline/.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loophole/checker/explored.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::pipeline::detail {

struct SmtCheck {
  std::vector<properties::Finding> findings;
  bool inconclusive = false;  // some question stayed unknown
  std::string unsupported;    // "file:line:col: unsupported in the smt engine: ..." or ""
  // interrupted, time_limit or memory_limit when a signal or a limit
  // stopped the SMT engine (its findings are then the partial answer).
  checker::Completion completion = checker::Completion::complete;
};

// The run's limits, as the explicit engine has them: a signal, the deadline
// of --timeout, --max-memory (Z3's allocation; 0: 80% of the memory
// available), and the progress line (set on a terminal only).
struct SmtLimits {
  const std::atomic<bool>* interrupted = nullptr;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::uint64_t max_memory_bytes = 0;
  std::function<void(int depth, int max_depth, double seconds, std::string_view what)> progress;
};

// --engine smt: BMC to `depth`, k-induction for what stays open, static checks.
SmtCheck check_smt(const model::Game& game, int depth, const SmtLimits& limits);

// --engine auto after an explicit search that ended with `completion`: static
// checks, and, when the search hit a limit, SMT answers for what it left
// unknown. Returns the findings to add and replaces explicit `unknown`
// findings that the SMT engine settled.
SmtCheck complete_with_smt(const model::Game& game, std::vector<properties::Finding>& found,
                           checker::Completion completion, int depth, const SmtLimits& limits);

// --symbolic NAME: each value of the param in its min..max, checked by BMC;
// one finding per distinct problem, at the smallest value, with a detail
// "appears when deck <= 2".
SmtCheck symbolic_scope(const model::Game& game, const std::string& param, int depth,
                        const std::function<const model::Game*(std::int64_t)>& load,
                        const SmtLimits& limits, std::string& error);

}  // namespace loophole::pipeline::detail
