// `loophole export --format promela`: the ruleset as a SPIN model with the
// same states and moves (docs/promela.md), for cross-checking loophole's
// verdicts with an independent model checker.
#include <iostream>
#include <optional>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/promela/promela.hpp"

#include "command_line.hpp"
#include "commands.hpp"
#include "signals.hpp"

namespace loophole::cli {

int run_export(const ExportArgs& args) {
  model::LoadOptions load;
  std::string error;
  if (!apply_params(args.params, load)) return 2;
  if (args.players > 0) load.players = args.players;
  load.override_origin = model::SourceSpan{"<command line>", 0, 0, 0};
  load.include_roots = args.include_roots;
  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::string file = args.file;
  std::optional<model::Game> game;
  if (read_stdin_if_dash(file, sources, sink)) game = model::load_game(file, load, sources, sink);
  if (!sink.all().empty()) std::cerr << sink.render(sources);
  if (!game) return 2;
  std::string text;
  try {
    text = promela::to_promela(*game, file);
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
