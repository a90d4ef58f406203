// `loophole explain ID [FILES]`: one finding in full, for a CI log that shows
// only summaries. Each ruleset (the files given, else those of the project
// file with their scope and accepted findings) is checked as `check` checks
// it with the explicit engine, and the first whose findings include ID has
// that finding printed with its whole transcript and the rule text
// (reports::render_explain). Ids are the same at any thread count, so the id
// a CI run printed names the same finding here.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>

#include "loophole/pipeline/pipeline.hpp"
#include "loophole/reports/report.hpp"

#include "command_line.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "project.hpp"
#include "signals.hpp"

namespace loophole::cli {

int run_explain(const ExplainArgs& args, const std::atomic<bool>& interrupted) {
  model::LoadOptions load;
  if (!apply_params(args.params, load)) return 2;
  pipeline::Options check;
  if (!apply_engine(args.engine, check)) return 2;
  check.depth = args.depth;
  check.interrupted = &interrupted;
  check.explore.native = pipeline::native_mode(args.native, args.no_native);
  if (!apply_limits(args.max_memory, args.timeout, check)) return 2;
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
  bool complete = true;
  for (const auto& [file, entry] : targets) {
    model::LoadOptions scoped = load;
    if (entry != nullptr) apply_scope(*entry, scoped);
    auto game = model::load_game(file, scoped, sources, sink);
    if (!sink.all().empty()) std::cerr << sink.render(sources);
    if (!game) return 2;
    signals_ask_to_stop();
    auto analyzed = pipeline::analyze(std::move(*game), file, check);
    for (const auto& m : analyzed.messages) std::cerr << m << "\n";
    complete = complete && !analyzed.inconclusive;
    if (entry != nullptr) {
      std::vector<reports::RulesetReport> runs{analyzed.report};
      apply_baseline(*entry, runs);
      analyzed.report = std::move(runs.front());
    }
    const auto ids = reports::finding_ids(analyzed.report);
    const auto it = std::find(ids.begin(), ids.end(), args.id);
    if (it != ids.end()) {
      std::cout << reports::render_explain(
          analyzed.report, static_cast<std::size_t>(it - ids.begin()), sources, false);
      return 0;
    }
    for (const auto& id : ids) seen.push_back(file + ": " + id);
  }
  if (!complete) {
    std::cerr << "loophole: inconclusive: no finding '" << model::terminal_safe(args.id)
              << "' in what was explored before the search stopped\n";
    return 3;
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
