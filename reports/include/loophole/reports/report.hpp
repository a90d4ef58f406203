// The one findings model every renderer reads: for each ruleset checked, the
// scope it was checked at, how far the engine got, the statistics, and the
// findings. Renderers (text, JSON, SARIF, JUnit, Markdown, HTML) are pure
// functions of a Report; they never run an engine.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loophole/checker/explored.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::reports {

struct RulesetReport {
  std::string file;
  std::string game;                    // the game's name ("" if it did not load)
  const model::Game* model = nullptr;  // for step names and slot names; may be null
  int players = 0;
  std::map<std::string, std::int64_t> params;  // effective values
  std::string engine;                          // "explicit", "structure", ...
  checker::Completion completion = checker::Completion::complete;
  std::optional<checker::Statistics> statistics;
  std::vector<properties::Finding> findings;
  // Under --sweep: the swept param ("players" for the player count) and its
  // value in this run; empty when nothing was swept.
  std::string swept;
  std::int64_t swept_value = 0;
  // Analyses an interruption cut short; they report nothing (see
  // properties::run_checks), so the report is inconclusive for them.
  std::vector<std::string> not_checked;
};

struct Report {
  std::string tool_version;
  std::vector<RulesetReport> rulesets;
  model::DiagnosticSink diagnostics;  // bad input, warnings of the front end
};

struct TextOptions {
  bool color = false;
  bool statistics = true;
  std::size_t max_trace_lines = 60;  // longer traces are elided in the middle
};

// Compiler-style lines for each finding, then its transcript, then statistics.
std::string render_text(const Report& report, const model::SourceManager& sources,
                        const TextOptions& options);

// "48,213" style integer grouping and "0.84 s" durations, shared by renderers.
std::string group_digits(std::uint64_t n);
std::string format_rate(double per_second);  // "57k/s", "3.1M/s"

}  // namespace loophole::reports
