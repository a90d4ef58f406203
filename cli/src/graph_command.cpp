// `loophole graph`: the phase/step graph of a ruleset as DOT or SVG, for
// designers who want to see the turn structure they wrote (and for golden
// tests of it). With --trace ID the ruleset is checked first and the path of
// that finding's trace through the turn structure is drawn in bold red, its
// edges numbered with the moves that take them and the step where the
// finding happens marked (reports/trace_graph.hpp). --detail adds each
// step's rules.
#include <algorithm>
#include <iostream>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/phase_graph.hpp"
#include "loophole/pipeline/pipeline.hpp"
#include "loophole/reports/graphviz.hpp"
#include "loophole/reports/trace_graph.hpp"

#include "command_line.hpp"
#include "commands.hpp"
#include "signals.hpp"

namespace loophole::cli {

int run_graph(const GraphArgs& args, const std::atomic<bool>& interrupted) {
  model::LoadOptions load;
  std::string error;
  if (!apply_params(args.params, load)) return 2;
  if (args.players != 0) load.players = args.players;
  load.include_roots = args.include_roots;
  model::SourceManager sources;
  model::DiagnosticSink sink;
  model::DotOptions options;
  std::unique_ptr<model::Game> game;
  std::string file = args.file;
  if (!read_stdin_if_dash(file, sources, sink)) {
    std::cerr << sink.render(sources);
    return 2;
  }
  if (args.trace.empty()) {
    auto g = model::load_game(file, load, sources, sink);
    if (!sink.all().empty()) std::cerr << sink.render(sources);
    if (!g) return 2;
    game = std::make_unique<model::Game>(std::move(*g));
  } else {
    // The pipeline, as `check` runs it (pipeline.hpp), on one thread.
    pipeline::Options check;
    if (!apply_engine(args.engine, check)) return 2;
    check.depth = args.depth;
    check.explore.threads = 1;
    check.interrupted = &interrupted;
    if (!apply_limits(args.max_memory, args.timeout, check)) return 2;
    signals_ask_to_stop();
    auto analyzed = pipeline::analyze(file, file, load, check, sources, sink);
    if (!sink.all().empty()) std::cerr << sink.render(sources);
    if (!analyzed) return 2;
    for (const auto& m : analyzed->messages) std::cerr << m << "\n";
    const auto ids = reports::finding_ids(analyzed->report);
    const auto it = std::find(ids.begin(), ids.end(), args.trace);
    if (it == ids.end() && analyzed->report.completion != checker::Completion::complete) {
      std::cerr << "loophole: inconclusive: --trace: no finding '" << args.trace
                << "' in what was explored before the search stopped ("
                << (interrupted.load() ? "interrupted" : "a limit was reached") << ")\n";
      return 3;
    }
    if (it == ids.end() && analyzed->inconclusive) {
      std::cerr << "loophole: inconclusive: --trace: no finding '" << args.trace
                << "', but some questions were left unknown\n";
      return 3;
    }
    if (it == ids.end()) {
      std::cerr << "loophole: error: --trace: no finding '" << args.trace << "' in '" << args.file
                << "'";
      if (ids.empty()) {
        std::cerr << " (it has no findings)\n";
      } else {
        std::cerr << "; its findings are:\n";
        for (const auto& id : ids) std::cerr << "  " << id << "\n";
      }
      return 2;
    }
    const auto& f = analyzed->report.findings[static_cast<std::size_t>(it - ids.begin())];
    if (!f.trace) {
      std::cerr << "loophole: error: --trace: finding '" << args.trace << "' has no trace\n";
      return 2;
    }
    options = reports::trace_dot_options(*analyzed->game, f);
    game = std::move(analyzed->game);
  }
  options.detail = args.detail;
  const auto graph = model::build_phase_graph(*game);
  std::string out = model::to_dot(*game, graph, options);
  if (args.format == "svg") {
    auto svg = reports::dot_to_svg(out, error);
    if (!svg) {
      std::cerr << "loophole: error: " << error << "\n";
      return 2;
    }
    out = std::move(*svg);
  }
  signals_ask_to_stop();
  if (!write_output(args.output, out, error)) {
    std::cerr << "loophole: error: " << error << "\n";
    return 2;
  }
  return 0;
}

}  // namespace loophole::cli
