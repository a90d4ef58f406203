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
#include "loophole/pipeline/engine.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::pipeline {
struct Options;
}

namespace loophole::pipeline::detail {

struct SmtCheck {
  // The answers: violations, unknowns, properties that hold.
  std::vector<properties::Finding> findings;
  // The static checks, which answer no question (engine.hpp, Results::notes).
  std::vector<properties::Finding> notes;
  // complete_with_smt: the SMT engine asked its questions (the explicit
  // search had left them open), and `found` now holds its answers.
  bool answered = false;
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
  std::optional<std::size_t> layer_states;  // --layer-states (nullopt: the engine's default)
  std::function<void(int depth, int max_depth, double seconds, std::string_view what)> progress;
};

// --engine smt: BMC to `depth`, k-induction for what stays open, static checks.
SmtCheck check_smt(const model::Game& game, int depth, const SmtLimits& limits);

// --engine auto after an explicit search that ended with `completion`: static
// checks (SmtCheck::notes), and, when the search hit a limit, SMT answers
// for what it left unknown: replaces explicit `unknown` findings in `found`
// that the SMT engine settled, and adds what only it found.
SmtCheck complete_with_smt(const model::Game& game, std::vector<properties::Finding>& found,
                           checker::Completion completion, int depth, const SmtLimits& limits);

// --symbolic NAME: each value of the param in its min..max, checked by BMC;
// one finding per distinct problem, at the smallest value, with a detail
// "appears when deck <= 2"; a question settled at every value of min..max
// with no problem is said to hold ("no deadlock: proved for every value of
// deck in 1..4").
SmtCheck symbolic_scope(const model::Game& game, const std::string& param, int depth,
                        const std::function<const model::Game*(std::int64_t)>& load,
                        const SmtLimits& limits, std::string& error);

// --symbolic NAME as the SMT engine's answers (engines.cpp).
Results symbolic_results(const model::Game& game, const std::string& param,
                         const std::function<const model::Game*(std::int64_t)>& load,
                         const Options& options, std::string& error);

}  // namespace loophole::pipeline::detail
