// The semantic difference between two checks of a ruleset (before and after
// an edit): findings added and removed, matched by their stable ids; win and
// loss conditions that became reachable or unreachable; the change in the
// size of the state space. `loophole diff` renders it.
#pragma once

#include <string>
#include <vector>

#include "loophole/reports/report.hpp"

namespace loophole::reports {

struct RulesetDiff {
  const RulesetReport* before = nullptr;
  const RulesetReport* after = nullptr;
  std::vector<std::size_t> added;    // indices into after->findings
  std::vector<std::size_t> removed;  // indices into before->findings
  std::vector<std::string> kept;     // ids found both times
  // End conditions ("end:points/P2") an unreachable-win finding appeared for
  // (became unreachable) or disappeared for while the condition still exists
  // (became reachable).
  std::vector<std::string> became_unreachable;
  std::vector<std::string> became_reachable;
};

RulesetDiff diff_rulesets(const RulesetReport& before, const RulesetReport& after);

// Whether the edit introduces a violated finding at or above `threshold`.
bool adds_findings(const RulesetDiff& d, properties::Severity threshold);

// Each added finding with its details and transcript (as `check` prints
// them); a removed one by its line only.
std::string render_diff_text(const RulesetDiff& d);
std::string render_diff_json(const RulesetDiff& d);  // schema: docs/cli.md, `loophole diff`

}  // namespace loophole::reports
