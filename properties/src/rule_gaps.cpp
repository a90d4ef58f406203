// Rule gaps: an effect left the rules' bounds (a draw from an empty deck, a
// counter below its range) and the semantics stopped that run in a gap state
// naming the statement. Each statement is reported once, with the shortest
// trace to a gap it causes; the semantics already wrote the message. A full
// stack is not a gap of the rules but an unbounded response chain, which
// response_loops.cpp reports instead.
#include <map>

#include <fmt/format.h>

#include "loophole/properties/state_groups.hpp"

#include "analyses.hpp"

namespace loophole::properties::detail {

void find_rule_gaps(const Context& cx, std::vector<Finding>& out) {
  const auto& gaps = cx.semantics.gaps();
  struct Group {
    StateId first = checker::no_state;
    std::size_t states = 0;
  };
  std::map<int, Group> groups;  // gap site -> its gap states
  for (StateId v = 0; v < cx.size(); ++v) {
    if (cx.interrupted()) return;
    if (cx.points[v].over != 2) continue;
    const int gap = cx.gap(v);
    if (gap <= 0 || static_cast<std::size_t>(gap) > gaps.size()) continue;
    if (gaps[gap - 1].kind == checker::GapSite::Kind::stack_overflow) continue;
    Group& g = groups[gap];
    ++g.states;
    if (g.first == checker::no_state || cx.earlier(v, g.first)) g.first = v;
  }
  for (const auto& [gap, group] : groups) {
    Finding f = rule_gap_finding(cx.semantics, gap, group.states, "explicit");
    f.trace = cx.trace(group.first);
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
