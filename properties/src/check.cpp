// Runs the selected analyses on one shared context (the graph is copied and
// every control point read once, however many analyses run) and sorts the
// findings so that a report is the same from run to run and thread count to
// thread count: errors first, then by file position, rule and message.
#include "loophole/properties/check.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <tuple>

#include "analyses.hpp"
#include "context.hpp"

namespace loophole::properties {

CheckSelection CheckSelection::only(Kind k) {
  CheckSelection s;
  s.deadlocks = k == Kind::deadlock;
  s.response_loops = k == Kind::response_loop || k == Kind::unbounded_chain;
  s.stalemates = k == Kind::stalemate;
  s.unreachable_wins = k == Kind::unreachable_win;
  s.rule_gaps = k == Kind::rule_gap;
  s.dead_rules = k == Kind::dead_rule;
  s.user_properties = k == Kind::property_violation;
  return s;
}

CheckResult run_checks(const checker::ExploredGraph& graph, const CheckSelection& selection,
                       const std::atomic<bool>* interrupt) {
  CheckResult result;
  using Clock = std::chrono::steady_clock;
  auto lap = Clock::now();
  const auto timed = [&](const char* name) {
    const auto now = Clock::now();
    result.seconds.emplace_back(name, std::chrono::duration<double>(now - lap).count());
    lap = now;
  };
  const detail::Context cx(graph, selection, interrupt);
  timed("context");
  using Analysis = void (*)(const detail::Context&, std::vector<Finding>&);
  const struct {
    bool selected;
    const char* name;
    Analysis run;
  } analyses[] = {
      {selection.deadlocks, "deadlocks", detail::find_deadlocks},
      {selection.response_loops, "response loops", detail::find_response_loops},
      {selection.stalemates, "stalemates", detail::find_stalemates},
      {selection.unreachable_wins, "unreachable wins", detail::find_unreachable_wins},
      {selection.rule_gaps, "rule gaps", detail::find_rule_gaps},
      {selection.dead_rules, "dead rules", detail::find_dead_rules},
      {selection.user_properties, "user properties", detail::check_user_properties},
  };
  for (const auto& a : analyses) {
    if (!a.selected) continue;
    if (cx.interrupted()) {
      result.not_run.emplace_back(a.name);
      continue;
    }
    std::vector<Finding> found;
    a.run(cx, found);
    timed(a.name);
    if (cx.interrupted()) {
      result.not_run.emplace_back(a.name);
      continue;
    }
    std::move(found.begin(), found.end(), std::back_inserter(result.findings));
  }
  auto& found = result.findings;
  std::stable_sort(found.begin(), found.end(), [](const Finding& a, const Finding& b) {
    return std::forward_as_tuple(b.severity, a.where.file, a.where.line, a.where.col, a.rule,
                                 a.message) < std::forward_as_tuple(a.severity, b.where.file,
                                                                    b.where.line, b.where.col,
                                                                    b.rule, b.message);
  });
  return result;
}

std::vector<Finding> check_all(const checker::ExploredGraph& graph,
                               const CheckSelection& selection) {
  return run_checks(graph, selection, nullptr).findings;
}

}  // namespace loophole::properties
