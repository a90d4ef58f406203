// `loophole explain ID [FILES]`: one finding in full, for a CI log that shows
// only summaries. Each ruleset (the files given, else those of the project
// file with their scope and accepted findings) is checked as `check` checks
// it with the explicit engine, and the first whose findings include ID has
// that finding printed with its whole transcript and the rule text
// (reports::render_explain). Ids are the same at any thread count, so the id
// a CI run printed names the same finding here.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "loophole/reports/report.hpp"

#include "analyze.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "project.hpp"

namespace loophole::cli {

int run_explain(const ExplainArgs& args) {
  model::LoadOptions load;
  std::string error;
  for (const auto& p : args.params) {
    const auto a = parse_param(p, error);
    if (!a) {
      std::cerr << "loophole: error: --param: " << error << "\n";
      return 2;
    }
    load.param_overrides[a->name] = a->value;
  }
  if (args.players != 0) load.players = args.players;
  load.include_roots = args.include_roots;
  model::SourceManager sources;
  model::DiagnosticSink sink;

  std::vector<std::pair<std::string, const ProjectRuleset*>> targets;
  std::optional<Project> project;
  if (args.files.empty()) {
    project = load_project(args.project.empty() ? "loophole.yaml" : args.project, sources, sink);
    if (!project) {
      std::cerr << sink.render(sources);
      if (args.project.empty()) {
        std::cerr << "loophole: error: no ruleset files given and no loophole.yaml here\n";
      }
      return 2;
    }
    const std::string dir = std::filesystem::path(project->path).parent_path().string();
    load.include_roots.push_back(dir.empty() ? "." : dir);
    for (const auto& e : project->rulesets) targets.emplace_back(e.file, &e);
  } else {
    for (const auto& f : args.files) targets.emplace_back(f, nullptr);
  }

  std::vector<std::string> seen;  // every id of every ruleset, for the error
  for (const auto& [file, entry] : targets) {
    model::LoadOptions scoped = load;
    if (entry != nullptr) apply_scope(*entry, scoped);
    checker::ExplicitOptions explore;
    auto analyzed = analyze(file, file, scoped, explore, sources, sink);
    if (!sink.all().empty()) std::cerr << sink.render(sources);
    if (!analyzed) return 2;
    if (entry != nullptr) {
      std::vector<reports::RulesetReport> runs{analyzed->report};
      apply_baseline(*entry, runs);
      analyzed->report = std::move(runs.front());
    }
    const auto ids = reports::finding_ids(analyzed->report);
    const auto it = std::find(ids.begin(), ids.end(), args.id);
    if (it != ids.end()) {
      std::cout << reports::render_explain(
          analyzed->report, static_cast<std::size_t>(it - ids.begin()), sources, false);
      return 0;
    }
    for (const auto& id : ids) seen.push_back(file + ": " + id);
  }
  std::cerr << "loophole: error: no finding '" << model::terminal_safe(args.id) << "'";
  if (seen.empty()) {
    std::cerr << " (no findings at all)\n";
  } else {
    std::cerr << "; the findings are:\n";
    for (const auto& s : seen) std::cerr << "  " << model::terminal_safe(s) << "\n";
  }
  return 2;
}

}  // namespace loophole::cli
