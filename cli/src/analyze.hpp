// One ruleset checked end to end (load, structural checks, exploration,
// properties) into a RulesetReport, for the commands that need findings
// without rendering a check report: `graph --trace` and `diff`.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "loophole/checker/explicit.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/reports/report.hpp"

namespace loophole::cli {

struct Analyzed {
  std::unique_ptr<model::Game> game;  // the report points into it
  reports::RulesetReport report;
};

// `display_file` is the name the report gives the ruleset (for a git revision,
// "REV:path" rather than the temporary file it was written to). Returns
// nullopt when the ruleset does not load (diagnostics in `sink`).
std::optional<Analyzed> analyze(const std::string& file, const std::string& display_file,
                                const model::LoadOptions& load,
                                const checker::ExplicitOptions& explore,
                                model::SourceManager& sources, model::DiagnosticSink& sink);

// The same for a game already loaded (`diff` loads both versions before
// either is explored).
Analyzed analyze(model::Game game, const std::string& display_file,
                 const checker::ExplicitOptions& explore);

// --native and --no-native as a NativeMode.
[[nodiscard]] checker::NativeMode native_mode(bool native, bool no_native);

// With --native, says on stderr when `file`'s rules ran interpreted after
// all (no C compiler, a failed compilation: the generator says why).
void warn_unless_native(const checker::ExplicitOptions& explore,
                        const checker::Statistics& statistics, const std::string& file);

}  // namespace loophole::cli
