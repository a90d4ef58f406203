// The per-ruleset pipeline of `loophole check` with the explicit engine, as
// a function: structural findings first, then the explored ones, a step the
// phase graph already shows unreachable reported once (as structure).
#include "analyze.hpp"

#include <iostream>
#include <set>

#include "loophole/checker/semantics.hpp"
#include "loophole/model/phase_graph.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/properties/structural.hpp"

namespace loophole::cli {

std::optional<Analyzed> analyze(const std::string& file, const std::string& display_file,
                                const model::LoadOptions& load,
                                const checker::ExplicitOptions& explore,
                                model::SourceManager& sources, model::DiagnosticSink& sink) {
  auto game = model::load_game(file, load, sources, sink);
  if (!game) return std::nullopt;
  return analyze(std::move(*game), display_file, explore);
}

Analyzed analyze(model::Game game, const std::string& display_file,
                 const checker::ExplicitOptions& explore) {
  Analyzed out;
  out.game = std::make_unique<model::Game>(std::move(game));
  const model::Game& g = *out.game;
  auto& rs = out.report;
  rs.file = display_file;
  rs.game = g.name;
  rs.model = &g;
  rs.players = g.players;
  for (const auto& p : g.params) rs.params[p.name] = p.value;
  rs.findings = properties::check_structure(g, model::build_phase_graph(g));
  rs.engine = "explicit";
  const checker::Semantics semantics(g);
  const auto graph = checker::explore(semantics, explore);
  rs.completion = graph->completion();
  rs.statistics = graph->statistics();
  warn_unless_native(explore, graph->statistics(), display_file);
  std::set<std::string> structural;
  for (const auto& f : rs.findings) structural.insert(f.rule);
  for (auto& f :
       properties::run_checks(*graph, properties::CheckSelection{}, nullptr, explore.threads)
           .findings) {
    if (f.kind == properties::Kind::dead_rule && structural.count(f.rule) != 0) continue;
    rs.findings.push_back(std::move(f));
  }
  return out;
}

checker::NativeMode native_mode(bool native, bool no_native) {
  if (native) return checker::NativeMode::on;
  return no_native ? checker::NativeMode::off : checker::NativeMode::automatic;
}

void warn_unless_native(const checker::ExplicitOptions& explore,
                        const checker::Statistics& statistics, const std::string& file) {
  if (explore.native != checker::NativeMode::on || statistics.generator == "native") return;
  std::cerr << "loophole: warning: " << file
            << ": --native: the rules ran interpreted: " << statistics.generator << "\n";
}

}  // namespace loophole::cli
