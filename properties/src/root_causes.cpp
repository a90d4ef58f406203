// Root causes: a finding that follows from another is listed beneath it, not
// reported as a problem of its own. The analyses say what a consequence
// follows from (Finding::cause: a response or turn loop that only adds a
// card to a smaller loop of the same player; a cannot-end or cannot-lose
// note, the rule gap its shortest way on runs into); here, when every play
// runs into one rule gap already in setup, every unreachable win and dead
// rule is made that gap's consequence. Then each consequence whose cause
// was found becomes a note naming the cause's stable id (caused_by). Runs
// once on the sorted findings (ids depend on the order), and sorts again;
// list_root_causes then writes the lines that link the two, once every
// message is final (invented_rules.cpp adds to messages in between).
#include <algorithm>

#include <fmt/format.h>

#include "analyses.hpp"

namespace loophole::properties::detail {
namespace {

bool matches(const Finding& f, const Finding::Cause& c) {
  return f.kind == c.kind && f.rule == c.rule &&
         (c.loop_player < 0 || f.loop_player == c.loop_player);
}

}  // namespace

void link_joined_loops(const std::vector<std::pair<LoopKey, std::size_t>>& shown,
                       std::vector<Finding>& out) {
  for (const auto& [key, i] : shown) {
    const std::pair<LoopKey, std::size_t>* best = nullptr;
    for (const auto& other : shown) {
      const LoopKey& k = other.first;
      if (k.loop != key.loop || k.player != key.player || k.rules.size() >= key.rules.size() ||
          !std::includes(key.rules.begin(), key.rules.end(), k.rules.begin(), k.rules.end())) {
        continue;
      }
      if (best == nullptr || k.rules.size() < best->first.rules.size()) best = &other;
    }
    if (best == nullptr) continue;
    const Finding& cause = out[best->second];
    out[i].cause = Finding::Cause{cause.kind, cause.rule, cause.loop_player};
  }
}

namespace {

std::size_t cause_of(const std::vector<Finding>& found, const Finding& f) {
  for (std::size_t j = 0; j < found.size(); ++j) {
    if (&found[j] != &f && !found[j].cause && matches(found[j], *f.cause)) return j;
  }
  return found.size();
}

// The rule of the one gap that every initial state ends in, or "".
std::string setup_gap(const Context& cx) {
  int gap = 0;
  for (StateId v = 0; v < cx.size(); ++v) {
    if (cx.depth(v) != 0) continue;
    if (cx.points[v].over != 2 || (gap != 0 && cx.gap(v) != gap)) return "";
    gap = cx.gap(v);
  }
  return gap > 0 ? cx.semantics.gaps()[static_cast<std::size_t>(gap - 1)].rule : "";
}

}  // namespace

void group_root_causes(const Context& cx, std::vector<Finding>& found,
                       const std::function<bool(const Finding&, const Finding&)>& order) {
  if (const std::string gap = setup_gap(cx); !gap.empty()) {
    for (Finding& f : found) {
      if (f.kind == Kind::unreachable_win || f.kind == Kind::dead_rule) {
        f.cause = Finding::Cause{Kind::rule_gap, gap, -1};
      }
    }
  }
  bool any = false;
  for (Finding& f : found) {
    if (!f.cause) continue;
    if (cause_of(found, f) == found.size()) {
      f.cause.reset();  // its cause was not checked: it stands on its own
    } else {
      f.severity = Severity::note;
      any = true;
    }
  }
  if (!any) return;
  std::stable_sort(found.begin(), found.end(), order);
  const std::vector<std::string> ids = finding_ids(found);
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (found[i].cause) found[i].caused_by = ids[cause_of(found, found[i])];
  }
}

void list_root_causes(std::vector<Finding>& found) {
  const std::vector<std::string> ids = finding_ids(found);
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (found[i].caused_by.empty()) continue;
    const auto j = static_cast<std::size_t>(std::find(ids.begin(), ids.end(), found[i].caused_by) -
                                            ids.begin());
    if (j == ids.size()) continue;
    found[i].details.push_back(fmt::format("it follows from {}", ids[j]));
    found[j].details.push_back(fmt::format("it causes {}: {}", ids[i], found[i].message));
  }
}

}  // namespace loophole::properties::detail
