// The project file, `loophole.yaml`: which rulesets a repository's CI checks,
// at which scope, and the findings the designers have accepted, each with a
// written reason, so a run fails only on new findings (a baseline).
//
//   loophole: 1
//   rulesets:
//     - file: rulesets/cosmere.yaml      # relative to the project file
//       players: 2
//       params: {deck: 4}
//       accept:
//         - id: stall/action:research
//           reason: research is meant to repeat; the round limit ends it
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/reports/report.hpp"

namespace loophole::cli {

struct ProjectRuleset {
  std::string file;              // joined with the project file's directory
  model::SourceSpan file_where;  // the `file:` value in the project file
  std::map<std::string, std::int64_t> params;
  std::map<std::string, model::SourceSpan> param_where;  // each param's key
  int players = 0;                                       // 0 = the ruleset's default
  struct Accepted {
    std::string id;
    std::string reason;
    model::SourceSpan where;
  };
  std::vector<Accepted> accept;
};

struct Project {
  std::string path;
  std::vector<ProjectRuleset> rulesets;
};

// Reads and validates a project file; on any problem reports it to `sink`
// with its file:line:col and returns nullopt.
std::optional<Project> load_project(const std::string& path, model::SourceManager& sources,
                                    model::DiagnosticSink& sink);

// Reads the entry's ruleset file into `sources`; a file that cannot be read
// is reported at its `file:` line in the project file (not as a bare path
// the designer has to find there). False when it cannot be read.
bool read_entry_file(const ProjectRuleset& entry, model::SourceManager& sources,
                     model::DiagnosticSink& sink);

// The entry's scope, under what the command line already set (the command
// line wins); a param it sets is reported, if wrong, at its project line.
void apply_scope(const ProjectRuleset& entry, model::LoadOptions& load);

// Marks the entry's accepted findings in the runs of its ruleset (one, or
// one per swept value); an accepted id none of them has is stale, noted on
// the first run.
void apply_baseline(const ProjectRuleset& entry, std::vector<reports::RulesetReport>& runs);

}  // namespace loophole::cli
