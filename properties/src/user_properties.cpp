// The designer's own properties. One pass evaluates every property in every
// state (restricted to its `at:` steps and phases by the state's step).
// `always`/`never` fail at the shallowest bad state; `reachable` holds at the
// first good one and has no trace when it fails. `leads_to` fails when a
// `from` state can avoid `to` forever: with the `to` states and the final
// states removed, it can still reach a cycle or a dead end. That is one SCC
// pass and one backward search over the remaining graph; the trace goes to
// the `from` state, on to the nearest such cycle or dead end, and around it.
#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "loophole/checker/conditions.hpp"
#include "loophole/checker/memory.hpp"
#include "loophole/checker/questions.hpp"
#include "loophole/properties/state_groups.hpp"

#include "analyses.hpp"

namespace loophole::properties::detail {
namespace {

using model::Property;

struct Evaluation {
  StateId first = checker::no_state;  // always: first failing; never/reachable: first holding
  std::vector<bool> from, to;         // leads_to
};

Finding property_finding(const Context& cx, const Property& p, Verdict verdict) {
  Finding f = cx.finding(Kind::property_violation, Severity::error);
  f.rule = checker::question::property_rule(p);
  f.where = p.where;
  f.verdict = verdict;
  if (verdict != Verdict::violated) f.severity = Severity::note;
  return f;
}

// Reports a property for which no violation was found: it holds, or, after
// an incomplete exploration, it is unknown.
void no_violation(const Context& cx, const Property& p, std::vector<Finding>& out) {
  if (!cx.complete) {
    Finding f = property_finding(cx, p, Verdict::unknown);
    f.message = checker::question::property_not_violated(p, "in the states explored");
    f.details.push_back(cx.incomplete_reason());
    out.push_back(std::move(f));
  } else if (cx.selection.report_holds) {
    Finding f = property_finding(cx, p, Verdict::holds);
    f.message = checker::question::property_holds(p);
    out.push_back(std::move(f));
  }
}

// The violation of `p` from `bad`: the trace goes to the nearest state of
// `trap` (a cycle or dead end where `rest` holds) and around its cycle, the
// one of `cyclic` it lies on (none: a dead end).
void report_leads_to(const Context& cx, const Property& p, StateId bad,
                     const std::vector<bool>& rest, const std::vector<bool>& trap,
                     const ComponentList& cyclic, std::vector<Finding>& out) {
  const EdgePredicate inside = [&](StateId from, const Edge& edge) {
    return rest[from] && rest[edge.to];
  };
  std::vector<Edge> path;
  shortest_path(
      cx.moves, bad, [&](StateId v) { return static_cast<bool>(trap[v]); },
      [&](StateId v) { return static_cast<bool>(rest[v]); }, inside, path);
  const StateId end = path.empty() ? bad : path.back().to;
  std::vector<Edge> cycle;
  // (Searched once, not marked per state: an array of 4 bytes a state beside
  // the component search's own was the peak of cosmere's whole check.)
  for (const auto members : cyclic) {
    if (rest[end] && std::binary_search(members.begin(), members.end(), end)) {
      cycle = shortest_cycle(cx.moves, end, members, inside);
      break;
    }
  }
  Finding f = property_finding(cx, p, Verdict::violated);
  f.message = fmt::format(
      "'{}' fails: after its 'from' condition holds in '{}', the game can {} without its 'to' "
      "condition ever holding",
      p.name, cx.step_label(cx.points[bad].step), cycle.empty() ? "get stuck" : "go on forever");
  f.trace = cx.trace(bad, path, cycle);
  out.push_back(std::move(f));
}

void leads_to(const Context& cx, const Property& p, const Evaluation& e,
              std::vector<Finding>& out) {
  if (cx.interrupted()) return;
  const StateId n = cx.size();
  // The remaining graph: states where `to` does not hold and the game goes on.
  std::vector<bool> rest(n);
  for (StateId v = 0; v < n; ++v) rest[v] = !e.to[v] && !cx.final_state(v);
  const EdgePredicate inside = [&](StateId from, const Edge& edge) {
    return rest[from] && rest[edge.to];
  };
  // Where `to` can be avoided forever: a cycle or a dead end in it.
  const auto cyclic = cx.cyclic_components(inside);
  std::vector<bool> trap(n, false);
  for (const auto members : cyclic) {
    for (const StateId v : members) {
      if (rest[v]) trap[v] = true;  // a lone state outside `rest` has no kept edges anyway
    }
  }
  for (StateId v = 0; v < n; ++v) {
    if (rest[v] && cx.dead_end(v)) trap[v] = true;
  }
  const std::vector<bool> escapes = can_reach(cx.moves, trap, inside);

  StateId bad = checker::no_state;
  for (StateId v = 0; v < n; ++v) {
    if (e.from[v] && rest[v] && escapes[v] && (bad == checker::no_state || cx.earlier(v, bad))) {
      bad = v;
    }
  }
  if (bad == checker::no_state) {
    no_violation(cx, p, out);
    return;
  }
  report_leads_to(cx, p, bad, rest, trap, cyclic, out);
}

}  // namespace

void check_user_properties(const Context& cx, std::vector<Finding>& out) {
  const auto& properties = cx.game.properties;
  if (properties.empty()) return;
  const StateId n = cx.size();
  std::vector<Evaluation> eval(properties.size());
  for (std::size_t i = 0; i < properties.size(); ++i) {
    if (properties[i].kind == Property::Kind::leads_to) {
      eval[i].from.assign(n, false);
      eval[i].to.assign(n, false);
    }
  }
  // A property other than leads_to is decided at its first state (in
  // Context::earlier's order); when states come in that order (depth_ordered)
  // the pass ends once every property is decided, and a state is unpacked
  // only when some property still needs it.
  const bool any_leads_to =
      std::any_of(properties.begin(), properties.end(),
                  [](const Property& p) { return p.kind == Property::Kind::leads_to; });
  std::size_t open = properties.size();
  // Each property's conditions, compiled: 2i its expression, 2i + 1 its `to`.
  std::vector<const model::Expr*> exprs;
  for (const Property& p : properties) {
    exprs.push_back(p.expr.get());
    exprs.push_back(p.to.get());
  }
  const checker::Conditions conditions(cx.semantics, std::move(exprs));
  checker::StateVec s;
  for (StateId v = 0; v < n && (any_leads_to || open > 0 || !cx.depth_ordered()); ++v) {
    if (cx.interrupted()) return;
    bool unpacked = false;
    const auto state = [&]() -> const checker::StateVec& {
      if (!unpacked) cx.graph.state_into(v, s);
      unpacked = true;
      return s;
    };
    for (std::size_t i = 0; i < properties.size(); ++i) {
      const Property& p = properties[i];
      Evaluation& e = eval[i];
      if (p.kind == Property::Kind::leads_to) {
        e.from[v] = property_applies(cx.game, p, cx.points[v].step) && p.expr &&
                    conditions.holds(2 * i, state());
        e.to[v] = p.to && conditions.holds(2 * i + 1, state());
        continue;
      }
      // States are numbered in BFS order, but depth decides ties explicitly.
      if (e.first != checker::no_state && !cx.earlier(v, e.first)) continue;
      if (!p.expr || !property_applies(cx.game, p, cx.points[v].step)) continue;
      const bool holds = conditions.holds(2 * i, state());
      if ((p.kind == Property::Kind::always) != holds) {
        if (e.first == checker::no_state) --open;
        e.first = v;
      }
    }
  }

  std::vector<std::optional<PropertyHit>> hits(properties.size());
  for (std::size_t i = 0; i < properties.size(); ++i) {
    const StateId first = eval[i].first;
    if (properties[i].kind == Property::Kind::leads_to || first == checker::no_state) continue;
    hits[i] = PropertyHit{cx.points[first].step, cx.trace(first)};
  }
  for (auto& f : user_property_findings(cx.game, hits, cx.complete, cx.selection.report_holds,
                                        cx.complete ? "" : cx.incomplete_reason(), "explicit")) {
    out.push_back(std::move(f));
  }
  for (const Property& p : properties) {
    if (p.kind == Property::Kind::leads_to) {
      leads_to(cx, p, eval[static_cast<std::size_t>(&p - properties.data())], out);
    }
  }
}

}  // namespace loophole::properties::detail

namespace loophole::properties::detail {

void leads_to_on_slice(const Context& cx, const std::vector<std::uint64_t>& bits,
                       const std::vector<StateId>& bad, std::vector<Finding>& out) {
  const StateId n = cx.size();
  std::size_t j = 0;
  for (const Property& p : cx.game.properties) {
    if (p.kind != Property::Kind::leads_to) continue;
    const std::size_t k = j++;
    if (k >= bad.size()) break;
    if (bad[k] == checker::no_state) continue;  // (a slice comes of a complete search)
    std::vector<bool> rest(n), trap(n);
    for (StateId v = 0; v < n; ++v) {
      rest[v] = ((bits[v] >> (2 * k)) & 1U) != 0;
      trap[v] = ((bits[v] >> (2 * k + 1)) & 1U) != 0;  // a dead end
    }
    const EdgePredicate inside = [&](StateId from, const Edge& edge) {
      return rest[from] && rest[edge.to];
    };
    // The slice holds every state of the cycle the trace may end on, with
    // its moves: its component here is the whole graph's.
    const auto cyclic = cx.cyclic_components(inside);
    for (const auto members : cyclic) {
      for (const StateId v : members) {
        if (rest[v]) trap[v] = true;
      }
    }
    report_leads_to(cx, p, bad[k], rest, trap, cyclic, out);
  }
}

}  // namespace loophole::properties::detail
