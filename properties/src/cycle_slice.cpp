// The cycle analyses on a slice of a graph kept elsewhere (state_groups.hpp:
// cycle_findings): the same analyses as check_all runs, on a Context over
// the slice that is told the whole graph's reachability answers instead of
// computing them from the slice; and ends out of reach, told the whole
// graph's answers it reads (EndsReach).
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

}  // namespace loophole::properties
