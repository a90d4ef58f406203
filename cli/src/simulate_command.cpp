// `loophole simulate FILE --games N --seed S`: random playouts of one ruleset
// (simulate/), reported as text, JSON or HTML. The same conventions as
// `check`: bad input or flags exit 2 with file:line:col; the time limit or
// a signal ends the run with what was simulated so far, as inconclusive
// (exit 3); otherwise exit 1 when a problem (rule gap, deadlock, violated
// property) was met and 0 when none was.
#include <iostream>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/reports/simulation.hpp"
#include "loophole/simulate/simulate.hpp"

#include "command_line.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "signals.hpp"

namespace loophole::cli {

int run_simulate(const SimulateArgs& args, const std::atomic<bool>& interrupted) {
  model::LoadOptions load;
  if (!apply_params(args.params, load)) return 2;
  if (args.players != 0) load.players = args.players;
  load.include_roots = args.include_roots;
  simulate::Options options;
  options.games = args.games;
  options.seed = args.seed;
  options.threads = args.threads;
  options.policy = args.policy == "greedy" ? simulate::Policy::greedy : simulate::Policy::uniform;
  options.max_moves = args.max_moves;
  options.interrupt = &interrupted;
  options.native = args.native;
  if (!args.timeout.empty()) {
    std::string error;
    const auto s = parse_seconds(args.timeout, error);
    if (!s) {
      std::cerr << "loophole: error: --timeout: " << error << "\n";
      return 2;
    }
    options.timeout_seconds = *s;
  }
  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::string file = args.file;
  if (!read_stdin_if_dash(file, sources, sink)) {
    std::cerr << sink.render(sources);
    return 2;
  }
  auto game = model::load_game(file, load, sources, sink);
  if (!sink.all().empty()) std::cerr << sink.render(sources);
  if (!game) return 2;

  signals_ask_to_stop();
  const checker::Semantics sem(*game);
  reports::SimulationReport report;
  report.tool_version = std::string(version());
  report.file = file;
  report.model = &*game;
  for (const auto& p : game->params) report.params[p.name] = p.value;
  report.result = simulate::simulate(sem, options);

  std::string out;
  if (args.format == "json") {
    out = reports::render_simulation_json(report, !args.no_stats);
  } else if (args.format == "html") {
    reports::RenderOptions ro;
    ro.timings = !args.no_stats;
    out = reports::render_simulation_html(report, sources, ro);
  } else {
    reports::TextOptions to;
    to.color = args.output.empty() && use_color(args.color, 1);
    to.statistics = !args.no_stats;
    out = reports::render_simulation_text(report, sources, to);
  }
  std::string error;
  if (!write_output(args.output, out, error)) {
    std::cerr << "loophole: error: " << error << "\n";
    return 2;
  }
  const auto& r = report.result;
  if (r.completion != "complete") {
    std::cerr << "loophole: inconclusive: "
              << (r.completion == "interrupted" ? "interrupted" : "time limit reached") << " after "
              << r.games << " of " << r.requested << " games\n";
    return 3;
  }
  return r.problems.empty() ? 0 : 1;
}

}  // namespace loophole::cli
