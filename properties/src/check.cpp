// Runs the selected analyses on one shared context (the graph is copied and
// every control point read once, however many analyses run) and sorts the
// findings so that a report is the same from run to run and thread count to
// thread count: errors first, then by file position, rule and message.
#include "loophole/properties/check.hpp"

#include <algorithm>
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

std::vector<Finding> check_all(const checker::ExploredGraph& graph,
                               const CheckSelection& selection) {
  const detail::Context cx(graph, selection);
  std::vector<Finding> found;
  if (selection.deadlocks) detail::find_deadlocks(cx, found);
  if (selection.response_loops) detail::find_response_loops(cx, found);
  if (selection.stalemates) detail::find_stalemates(cx, found);
  if (selection.unreachable_wins) detail::find_unreachable_wins(cx, found);
  if (selection.rule_gaps) detail::find_rule_gaps(cx, found);
  if (selection.dead_rules) detail::find_dead_rules(cx, found);
  if (selection.user_properties) detail::check_user_properties(cx, found);
  std::stable_sort(found.begin(), found.end(), [](const Finding& a, const Finding& b) {
    return std::forward_as_tuple(b.severity, a.where.file, a.where.line, a.where.col, a.rule,
                                 a.message) < std::forward_as_tuple(a.severity, b.where.file,
                                                                    b.where.line, b.where.col,
                                                                    b.rule, b.message);
  });
  return found;
}

}  // namespace loophole::properties
