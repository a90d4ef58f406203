// What properties produce and reports read: the finding value type
// (checker/finding.hpp, below the engines so that every engine answers in
// it), its stable ids, and the marks of invented rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loophole/checker/finding.hpp"
#include "loophole/checker/trace.hpp"
#include "loophole/model/source.hpp"

namespace loophole::model {
struct Game;
}  // namespace loophole::model

namespace loophole::properties {

using checker::Finding;
using checker::Kind;
using checker::LoopClass;
using checker::Severity;
using checker::to_string;  // "deadlock", "error", "violated", "mandatory"
using checker::Verdict;

// Says in each finding that rests on a rule marked `invented:` which rules
// those are and why they were invented (invented_rules.cpp): fills
// Finding::invented and adds detail lines (the message is left alone). Run
// after the root causes are grouped (a consequence inherits what its cause
// uses); a finding already marked is skipped, so the findings of two
// engines can be joined and marked again.
void mark_invented_rules(const model::Game& game, std::vector<Finding>& findings);

// The stable id of each finding, in order: kind/rule, plus #2, #3... for
// later findings of the same kind about the same rule.
std::vector<std::string> finding_ids(const std::vector<Finding>& findings);

}  // namespace loophole::properties
