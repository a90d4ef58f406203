// --sweep NAME=A..B checks one ruleset at every value of a param. A problem
// usually shows at several values; the designer wants to see it once, at the
// smallest scope that has it (the smallest state space and shortest trace),
// together with every value it appears at.
#pragma once

#include <cstdint>
#include <vector>

#include "loophole/reports/report.hpp"

namespace loophole::cli {

// `runs` are the reports of one ruleset, one per swept value in increasing
// order (each with `swept` and `swept_value` set). Each finding is kept in
// the run of the smallest value at which it appears and removed from the
// others; a detail line says where it appears ("appears with deck = 2..4 of
// the sweep 1..4; smallest scope deck = 2"). A finding is the same across
// values when its kind, verdict, rule and loop classification are the same
// (messages and traces may differ with the scope).
void merge_sweep(std::vector<reports::RulesetReport>& runs);

// "1, 3..5, 8": values in increasing order, runs of consecutive values joined.
std::string format_values(const std::vector<std::int64_t>& values);

}  // namespace loophole::cli
