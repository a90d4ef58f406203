// The report of `loophole simulate`: what a simulation found (win rates per
// seat with their 95% intervals, game lengths, rule use, the problems met
// with their traces) as text, JSON (schema/simulation.schema.json) or one
// self-contained HTML page with the win rates and the length histogram as
// inline SVG. Pure functions of the result, as every renderer is.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/reports/report.hpp"
#include "loophole/simulate/simulate.hpp"

namespace loophole::reports {

struct SimulationReport {
  std::string tool_version;
  std::string file;
  const model::Game* model = nullptr;  // step names; must outlive the report
  std::map<std::string, std::int64_t> params;
  simulate::Result result;
};

// The length histogram in at most `bins` bins of equal width from the
// shortest to the longest game: (first length, last length, games).
struct LengthBin {
  std::uint32_t from = 0, to = 0;
  std::uint64_t games = 0;
};
[[nodiscard]] std::vector<LengthBin> length_bins(const simulate::Result& r, std::size_t bins);

// Rules no simulated game used (actions, triggers, steps): at a large scope,
// candidates for dead rules.
[[nodiscard]] std::vector<std::string> unused_rules(const simulate::Result& r);

std::string render_simulation_text(const SimulationReport& report,
                                   const model::SourceManager& sources, const TextOptions& options);
// `timings`: the non-deterministic block (seconds, threads); without it the
// output is the same bytes for any thread count.
std::string render_simulation_json(const SimulationReport& report, bool timings);
std::string render_simulation_html(const SimulationReport& report,
                                   const model::SourceManager& sources,
                                   const RenderOptions& options);

}  // namespace loophole::reports
