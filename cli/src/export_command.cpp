// `loophole export --format promela`: the ruleset as a SPIN model with the
// same states and moves (docs/promela.md), for cross-checking loophole's
// verdicts with an independent model checker.
#include <iostream>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/promela/promela.hpp"

#include "commands.hpp"
#include "options.hpp"
#include "signals.hpp"

namespace loophole::cli {

int run_export(const ExportArgs& args) {
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
  if (args.players > 0) load.players = args.players;
  load.override_origin = model::SourceSpan{"<command line>", 0, 0, 0};
  load.include_roots = args.include_roots;
  model::SourceManager sources;
  model::DiagnosticSink sink;
  auto game = model::load_game(args.file, load, sources, sink);
  if (!sink.all().empty()) std::cerr << sink.render(sources);
  if (!game) return 2;
  std::string text;
  try {
    text = promela::to_promela(*game, args.file);
  } catch (const promela::Unsupported& e) {
    model::DiagnosticSink refused;
    refused.error(e.where(), e.what());
    std::cerr << refused.render(sources);
    return 2;
  }
  signals_ask_to_stop();
  if (!write_output(args.output, text, error)) {
    std::cerr << "loophole: error: " << error << "\n";
    return 2;
  }
  return 0;
}

}  // namespace loophole::cli
