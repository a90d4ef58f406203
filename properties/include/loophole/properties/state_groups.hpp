// The findings of the state-local questions whose states come in groups
// (deadlocks by control point, rule gaps by statement), built from a group's
// first state: the message, location and details are written here once, and
// both the analyses over an explored graph (deadlock.cpp, rule_gaps.cpp) and
// engines that find the groups themselves (the distributed search) use them.
// The caller attaches the trace.
#pragma once

#include <cstdint>
#include <string>

#include "loophole/checker/semantics.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::properties {

// A deadlock finding for a group of `states` stuck states (not over, no
// move) whose shallowest one is `first`.
[[nodiscard]] Finding deadlock_finding(const checker::Semantics& sem,
                                       const checker::StateVec& first, std::uint64_t states,
                                       const std::string& engine);

// A rule-gap finding for `states` gap states of the gap site `gap` (1-based,
// as Layout::gap holds it).
[[nodiscard]] Finding rule_gap_finding(const checker::Semantics& sem, int gap, std::uint64_t states,
                                       const std::string& engine);

}  // namespace loophole::properties
