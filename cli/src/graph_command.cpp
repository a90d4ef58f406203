// `loophole graph`: the phase/step graph of a ruleset as DOT, for designers who
// want to see the turn structure they wrote (and for golden tests of it).
#include <iostream>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/phase_graph.hpp"

#include "commands.hpp"
#include "options.hpp"

namespace loophole::cli {

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
  model::SourceManager sources;
  model::DiagnosticSink sink;
  auto game = model::load_game(args.file, load, sources, sink);
  if (!sink.all().empty()) std::cerr << sink.render(sources);
  if (!game) return 2;
  const auto graph = model::build_phase_graph(*game);
  const std::string dot = model::to_dot(*game, graph, model::DotOptions{});
  if (!write_output(args.output, dot, error)) {
    std::cerr << "loophole: error: " << error << "\n";
    return 2;
  }
  return 0;
}

}  // namespace loophole::cli
