// A response chain that fills the stack ends in a stack-overflow gap state.
// That alone does not say the chain is unbounded: a finite chain (four
// cards against a stack of three) overflows too, and then the bound, not the
// rules, is at fault. A chain is unbounded when it can repeat: on the way
// from its first entry to the overflow, two states agree on everything but
// the stack while the stack has grown (the moves between them can be taken
// again and again, each time one entry deeper). Only those are errors; a
// chain that merely hits the bound is an inconclusive scope result.
// Each overflow state's chain is read back along its parents (the shortest
// path to it), so the cost is the chains' lengths, not the graph's size.
#include <algorithm>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "analyses.hpp"

namespace loophole::properties::detail {
namespace {

// How many overflow states of one site have their chain read back before
// the site is called inconclusive (they are checked shallowest first).
constexpr std::size_t k_chains_examined = 4096;

struct Repeat {
  StateId at = checker::no_state;  // the overflow state whose chain repeats
  std::uint32_t from_depth = 0, to_depth = 0;
};

// Whether the chain that ends in overflow state `v` repeats; fills `r`.
bool chain_repeats(const Context& cx, StateId v, const std::vector<bool>& stack_field, Repeat& r) {
  const int size_field = cx.semantics.layout().stack_size;
  // Non-stack part of a state -> (stack size, depth) of the deepest state seen.
  std::map<std::vector<std::int32_t>, std::pair<std::int32_t, std::uint32_t>> seen;
  for (StateId u = cx.graph.parent(v); u != checker::no_state; u = cx.graph.parent(u)) {
    const checker::StateVec s = cx.graph.state(u);
    const std::int32_t size = s[size_field];
    if (size <= 0) break;  // the chain starts here
    std::vector<std::int32_t> rest;
    rest.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (!stack_field[i]) rest.push_back(s[i]);
    }
    const auto [it, fresh] = seen.try_emplace(std::move(rest), size, cx.depth(u));
    if (!fresh && it->second.first > size) {  // walking back: the later one is deeper
      r = Repeat{v, cx.depth(u), it->second.second};
      return true;
    }
  }
  return false;
}

}  // namespace

void find_unbounded_chains(const Context& cx, std::vector<Finding>& out) {
  const auto& gaps = cx.semantics.gaps();
  const auto& fields = cx.semantics.layout().fields;
  std::vector<bool> stack_field(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    stack_field[i] = fields[i].name.rfind("ctl.stack", 0) == 0;
  }
  std::map<int, std::vector<StateId>> overflows;  // gap site -> its overflow states
  for (StateId v = 0; v < cx.size(); ++v) {
    if (cx.interrupted()) return;
    if (cx.points[v].over != 2) continue;
    const int gap = cx.gap(v);
    if (gap <= 0 || static_cast<std::size_t>(gap) > gaps.size()) continue;
    if (gaps[gap - 1].kind != checker::GapSite::Kind::stack_overflow) continue;
    overflows[gap].push_back(v);
  }
  for (auto& [gap, states] : overflows) {
    std::sort(states.begin(), states.end(), [&](StateId a, StateId b) { return cx.earlier(a, b); });
    // On a slice of a graph kept elsewhere (cycle_findings) the first
    // k_chains_examined of the whole graph's, and how many it has.
    std::size_t total = states.size();
    if (cx.known_overflows) {
      const auto it = cx.known_overflows->find(gap);
      if (it == cx.known_overflows->end()) continue;  // (not one of the graph's)
      total = it->second;
      if (states.size() > k_chains_examined) states.resize(k_chains_examined);
    }
    const checker::GapSite& site = gaps[gap - 1];
    Repeat r;
    bool repeats = false;
    const std::size_t examined = std::min(total, k_chains_examined);
    for (std::size_t k = 0; k < examined && !repeats; ++k) {
      if (cx.interrupted()) return;
      repeats = chain_repeats(cx, states[k], stack_field, r);
    }
    Finding f = repeats ? cx.finding(Kind::unbounded_chain, Severity::error)
                        : cx.finding(Kind::unbounded_chain, Severity::note);
    f.rule = site.rule;
    f.where = site.where;
    if (repeats) {
      f.message = fmt::format(
          "response chain can grow forever: it repeats one entry deeper each time, until it "
          "overflows the {} entries of scope.stack",
          cx.game.scope.stack);
      f.details.push_back(fmt::format(
          "after move {} of the trace the state is the one after move {}, but for a deeper stack",
          r.to_depth, r.from_depth));
      f.trace = cx.trace(r.at);
    } else {
      f.verdict = Verdict::unknown;
      f.message = fmt::format(
          "response chain reaches the {} entries of scope.stack without repeating: raise "
          "scope.stack to see whether it ends",
          cx.game.scope.stack);
      if (examined < total) {
        f.details.push_back(
            fmt::format("the chains of the {} shallowest of {} overflow states were "
                        "read back; none repeats",
                        examined, total));
      }
      f.trace = cx.trace(states.front());
    }
    if (!site.message.empty()) f.details.push_back(site.message);
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
