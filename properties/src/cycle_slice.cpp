// The cycle analyses on a slice of a graph kept elsewhere (state_groups.hpp:
// cycle_findings): the same analyses as check_all runs, on a Context over
// the slice that is told the whole graph's reachability answers instead of
// computing them from the slice; and ends out of reach, told the whole
// graph's answers it reads (EndsReach).
#include <memory>

#include "loophole/checker/conditions.hpp"
#include "loophole/properties/state_groups.hpp"

#include "analyses.hpp"

namespace loophole::properties {

std::vector<Finding> cycle_findings(const checker::ExploredGraph& slice,
                                    std::vector<bool> can_finish,
                                    std::vector<std::vector<bool>> doomed,
                                    std::map<int, std::uint64_t> overflows,
                                    std::size_t max_stalemates, const EndsReach* ends,
                                    std::vector<Finding> gaps) {
  CheckSelection selection;
  selection.max_stalemates = max_stalemates;
  detail::Context cx(slice, selection);
  cx.assume_can_finish(std::move(can_finish));
  cx.known_doomed = std::move(doomed);
  cx.known_overflows = std::move(overflows);
  std::vector<Finding> found = std::move(gaps);
  detail::find_response_loops(cx, found);  // and the unbounded chains
  detail::find_turn_loops(cx, found);
  detail::find_stalemates(cx, found);
  if (ends != nullptr) {
    cx.known_ends = ends;
    detail::find_ends_out_of_reach(cx, found);
  }
  detail::finish_findings(cx, found);
  return found;
}

std::vector<Finding> leads_to_findings(const checker::ExploredGraph& slice,
                                       const std::vector<std::uint64_t>& bits,
                                       const std::vector<checker::StateId>& bad) {
  detail::Context cx(slice, CheckSelection());
  std::vector<Finding> found;
  detail::leads_to_on_slice(cx, bits, bad, found);
  return found;
}

std::function<std::uint64_t(const checker::StateVec&)> leads_to_marks(
    const checker::Semantics& sem) {
  const model::Game& game = sem.game();
  std::vector<const model::Expr*> exprs;
  std::vector<const model::Property*> props;
  for (const model::Property& p : game.properties) {
    if (p.kind != model::Property::Kind::leads_to) continue;
    props.push_back(&p);
    exprs.push_back(p.expr.get());
    exprs.push_back(p.to.get());
  }
  auto conditions = std::make_shared<const checker::Conditions>(sem, std::move(exprs));
  const int step = sem.layout().step;
  return [conditions, props, step, &game](const checker::StateVec& s) {
    std::uint64_t bits = 0;
    for (std::size_t k = 0; k < props.size() && k < 32; ++k) {
      const model::Property& p = *props[k];
      if (p.expr && property_applies(game, p, s[static_cast<std::size_t>(step)]) &&
          conditions->holds(2 * k, s)) {
        bits |= std::uint64_t{1} << (2 * k);
      }
      if (p.to && conditions->holds(2 * k + 1, s)) bits |= std::uint64_t{1} << (2 * k + 1);
    }
    return bits;
  };
}

}  // namespace loophole::properties
