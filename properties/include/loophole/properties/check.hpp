// The analyses that read an explored state graph and turn it into findings:
// deadlocks, response loops and unbounded chains, stalemates, unreachable end
// conditions, rule gaps, dead rules and the designer's own properties. Each is
// written once against checker::ExploredGraph, so any engine that produces
// that graph gets all of them. When the exploration stopped at a limit, every
// claim of absence ("never holds", "never enabled", "always holds") becomes
// `unknown`; violations found are still violations.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loophole/checker/explored.hpp"
#include "loophole/checker/limits.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::properties {

// The questions asked of a game, each answered by one analysis of
// run_checks (in this order) and by every engine that can_handle it
// (pipeline.hpp). A report names a question it did not answer by its name
// (RulesetReport::not_checked).
enum class Question : std::uint8_t {
  deadlocks,
  response_loops,
  turn_loops,
  stalemates,
  ends_out_of_reach,
  unreachable_wins,
  rule_gaps,
  ties,
  dead_rules,
  user_properties,
};
inline constexpr std::array<Question, 10> all_questions = {
    Question::deadlocks,         Question::response_loops,
    Question::turn_loops,        Question::stalemates,
    Question::ends_out_of_reach, Question::unreachable_wins,
    Question::rule_gaps,         Question::ties,
    Question::dead_rules,        Question::user_properties};
// "deadlocks", "response loops", ..., "user properties".
[[nodiscard]] std::string_view to_string(Question q);
// The question a finding of kind `k` answers (the analysis of run_checks
// that reports it); nullopt for a structural finding.
[[nodiscard]] std::optional<Question> question_of(Kind k);

struct CheckSelection {
  bool deadlocks = true;
  bool response_loops = true;  // also unbounded response chains
  bool stalemates = true;
  bool unreachable_wins = true;
  bool rule_gaps = true;
  bool dead_rules = true;
  bool user_properties = true;
  // Also report the user properties that hold (verdict holds, severity note),
  // for reports that list passing checks (JUnit).
  bool report_holds = false;
  std::size_t max_stalemates = 3;  // the shortest ones; the rest are counted in details

  // Only the analysis that produces findings of kind `k`.
  [[nodiscard]] static CheckSelection only(Kind k);
};

// Runs the selected analyses over `graph` and returns their findings (engine
// "explicit"), ordered by severity (errors first), then location, rule and
// message. Every violated finding from a path in the graph carries a trace
// built by ExploredGraph::trace_to / lasso, replayed on the semantics.
std::vector<Finding> check_all(const checker::ExploredGraph& graph,
                               const CheckSelection& selection);

// What run_checks did: the findings of the analyses that ran to the end, and
// the names of those an interruption cut short or never started ("dead
// rules", "user properties"). A cut-short analysis reports nothing, since it
// may have claimed an absence it had not finished checking.
struct CheckResult {
  std::vector<Finding> findings;
  std::vector<std::string> not_run;
  // Wall seconds of each part: "context" (the pass over every state that
  // the analyses share), "components" (the pass over every edge that they
  // share, when one asks for it), then each analysis that ran to the end (its
  // findings' traces included; on several threads they overlap). For
  // benchmarks (bench/check_bench).
  std::vector<std::pair<std::string, double>> seconds;
};

// check_all that stops soon after `interrupt` is set (e.g. by SIGINT), with
// the analyses run side by side on up to `threads` threads (the findings
// are the same for every count).
//
// `limits`, when given, replaces `interrupt`: the analyses stop when its
// stop() is set (a memory or time limit reached, or its interrupt), and ask
// it before they allocate their large arrays (RunLimits::afford), so a
// memory limit holds while they run; the analyses that could not finish are
// in not_run, and limits->reason() says why.
//
// `progress`, when set, is called (from any of the threads, one call at a
// time) before the shared pass and as each analysis starts and ends: the
// name of one that is running ("" when none is), how many have finished,
// and how many were selected. For the CLI's progress line.
using AnalysisProgress =
    std::function<void(std::string_view running, std::size_t done, std::size_t total)>;
CheckResult run_checks(const checker::ExploredGraph& graph, const CheckSelection& selection,
                       const std::atomic<bool>* interrupt, int threads = 1,
                       const AnalysisProgress& progress = {}, checker::RunLimits* limits = nullptr);

}  // namespace loophole::properties
