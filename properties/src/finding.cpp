// Stable names of the finding enums and stable finding ids. They appear in
// text reports, JSON and SARIF rule ids and in baselines, so they are part
// of the output format: change with care.
#include "loophole/properties/finding.hpp"

#include <map>

#include <fmt/format.h>

namespace loophole::properties {

std::vector<std::string> finding_ids(const std::vector<Finding>& findings) {
  std::vector<std::string> ids;
  std::map<std::string, int> seen;
  ids.reserve(findings.size());
  for (const auto& f : findings) {
    std::string id = fmt::format("{}/{}", to_string(f.kind), f.rule);
    const int n = ++seen[id];
    if (n > 1) id += fmt::format("#{}", n);
    ids.push_back(std::move(id));
  }
  return ids;
}

}  // namespace loophole::properties
