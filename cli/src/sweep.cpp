#include "sweep.hpp"

#include <map>
#include <string>
#include <tuple>

#include <fmt/format.h>

namespace loophole::cli {
namespace {

using Key =
    std::tuple<properties::Kind, properties::Verdict, std::string, properties::LoopClass, int>;

Key key_of(const properties::Finding& f) {
  return {f.kind, f.verdict, f.rule, f.loop, f.loop_player};
}

}  // namespace

std::string format_values(const std::vector<std::int64_t>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size();) {
    std::size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += j == i ? std::to_string(values[i]) : fmt::format("{}..{}", values[i], values[j]);
    i = j + 1;
  }
  return out;
}

void merge_sweep(std::vector<reports::RulesetReport>& runs) {
  if (runs.size() < 2) return;
  // Where each finding appears, and which run keeps it (the first).
  std::map<Key, std::vector<std::int64_t>> seen_at;
  std::map<Key, std::size_t> first_run;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    auto& findings = runs[r].findings;
    std::vector<properties::Finding> still;
    for (auto& f : findings) {
      const Key k = key_of(f);
      auto& values = seen_at[k];
      // One value can report the same key twice (two loops of one class
      // through one rule): both stay, the value is counted once.
      if (values.empty() || values.back() != runs[r].swept_value) {
        values.push_back(runs[r].swept_value);
      }
      if (first_run.try_emplace(k, r).first->second == r) still.push_back(std::move(f));
    }
    findings = std::move(still);
  }
  const std::string& name = runs.front().swept;
  const std::string range =
      fmt::format("{}..{}", runs.front().swept_value, runs.back().swept_value);
  for (auto& run : runs) {
    for (auto& f : run.findings) {
      const auto& values = seen_at.at(key_of(f));
      if (values.size() == runs.size()) {
        f.details.push_back(
            fmt::format("appears at every value of the sweep {} = {}; smallest scope {} = {}", name,
                        range, name, values.front()));
      } else {
        f.details.push_back(
            fmt::format("appears with {} = {} of the sweep {}; smallest scope {} = {}", name,
                        format_values(values), range, name, values.front()));
      }
    }
  }
}

}  // namespace loophole::cli
