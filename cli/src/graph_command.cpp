// `loophole graph`: the phase/step graph of a ruleset as DOT or SVG, for
// designers who want to see the turn structure they wrote (and for golden
// tests of it). With --trace ID the ruleset is checked first and the path of
// that finding's trace through the turn structure is drawn in bold red.
#include <algorithm>
#include <iostream>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/phase_graph.hpp"
#include "loophole/reports/graphviz.hpp"

#include "analyze.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "signals.hpp"

namespace loophole::cli {
namespace {

// The steps a trace visits and the turn-structure edges between them. A move
// that changes the control step, or ends a turn (the turn number or active
// player changes), is an edge; a progress move that stays on its step is the
// step's repeat edge. A lasso's last move leads back to the step its cycle
// starts at.
void highlight(const checker::Trace& t, model::DotOptions& dot) {
  const auto add_edge = [&](const checker::TraceStep& a, int to_step, bool new_turn) {
    if (new_turn) {
      dot.highlight_edges.emplace_back(a.step, model::DotOptions::turn_end);
      dot.highlight_edges.emplace_back(model::DotOptions::turn_end, model::DotOptions::turn_start);
      dot.highlight_edges.emplace_back(model::DotOptions::turn_start, to_step);
      dot.highlight_steps.push_back(model::DotOptions::turn_end);
      dot.highlight_steps.push_back(model::DotOptions::turn_start);
    } else if (to_step != a.step || a.progress) {
      dot.highlight_edges.emplace_back(a.step, to_step);
    }
  };
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const auto& s = t.steps[i];
    if (s.step >= 0) dot.highlight_steps.push_back(s.step);
    const checker::TraceStep* next = nullptr;
    if (i + 1 < t.steps.size()) {
      next = &t.steps[i + 1];
    } else if (t.loop_start >= 0) {
      next = &t.steps[static_cast<std::size_t>(t.loop_start)];
    }
    if (next == nullptr || s.step < 0 || next->step < 0) continue;
    const bool new_turn = next->turn != s.turn || next->active != s.active;
    if (s.kind == checker::MoveKind::start) continue;
    add_edge(s, next->step, new_turn);
  }
}

}  // namespace

int run_graph(const GraphArgs& args) {
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
  model::DotOptions options;
  std::unique_ptr<model::Game> game;
  if (args.trace.empty()) {
    auto g = model::load_game(args.file, load, sources, sink);
    if (!sink.all().empty()) std::cerr << sink.render(sources);
    if (!g) return 2;
    game = std::make_unique<model::Game>(std::move(*g));
  } else {
    checker::ExplicitOptions explore;
    explore.threads = 1;
    auto analyzed = analyze(args.file, args.file, load, explore, sources, sink);
    if (!sink.all().empty()) std::cerr << sink.render(sources);
    if (!analyzed) return 2;
    const auto ids = reports::finding_ids(analyzed->report);
    const auto it = std::find(ids.begin(), ids.end(), args.trace);
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
    highlight(*f.trace, options);
    game = std::move(analyzed->game);
  }
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
