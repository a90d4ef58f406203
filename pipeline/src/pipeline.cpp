// The pipeline: structural findings first, then the engine's answers
// (engine.hpp; the engines are in engines.cpp) turned into the report in one
// place, a step the phase graph already shows unreachable reported once (as
// structure); every part under one set of limits (checker::RunLimits).
#include "loophole/pipeline/pipeline.hpp"

#include <set>

#include "loophole/model/phase_graph.hpp"
#include "loophole/pipeline/engine.hpp"
#include "loophole/properties/structural.hpp"

#include "smt_check.hpp"

namespace loophole::pipeline {
namespace {

// A step the phase graph already shows unreachable is reported once, as the
// structural error, not again as a dead rule.
void add_findings(reports::RulesetReport& rs, std::vector<properties::Finding>& found) {
  std::set<std::string> structural;
  for (const auto& f : rs.findings) structural.insert(f.rule);
  for (auto& f : found) {
    if (f.kind == properties::Kind::dead_rule && structural.count(f.rule) != 0) continue;
    rs.findings.push_back(std::move(f));
  }
}

// The report from the engine's answers, in one place: the findings after
// the structural ones (the answers, then the notes), the questions not
// checked (in properties::all_questions order), and whether the run is
// inconclusive (a question unknown or cut short, or the run stopped).
void report(Results r, Checked& out) {
  auto& rs = out.report;
  rs.engine = r.engine;
  rs.completion = r.completion;
  rs.statistics = r.statistics;
  for (auto& m : r.messages) out.messages.push_back(std::move(m));
  rs.not_checked.clear();
  for (const auto& q : r.questions) {
    if (q.answer == Answer::not_checked)
      rs.not_checked.emplace_back(properties::to_string(q.question));
  }
  out.inconclusive = out.inconclusive || r.inconclusive();
  for (auto& f : r.notes) r.findings.push_back(std::move(f));
  add_findings(rs, r.findings);
}

// With --native, says when the rules ran interpreted after all (no C
// compiler, a failed compilation: the generator says why); before the
// engines' other messages.
void warn_unless_native(const Options& o, const Results& r, const std::string& file,
                        std::vector<std::string>& messages) {
  if (o.explore.native != checker::NativeMode::on || o.engine == EngineChoice::distributed ||
      !r.statistics || r.statistics->generator == "native") {
    return;
  }
  messages.insert(messages.begin(),
                  "loophole: warning: " + file +
                      ": --native: the rules ran interpreted: " + r.statistics->generator);
}

Checked structure(const model::Game& game, const std::string& display_file) {
  Checked out;
  auto& rs = out.report;
  rs.file = display_file;
  rs.game = game.name;
  rs.model = &game;
  rs.players = game.players;
  for (const auto& p : game.params) rs.params[p.name] = p.value;
  rs.findings = properties::check_structure(game, model::build_phase_graph(game));
  rs.engine = "structure";
  return out;
}

}  // namespace

std::optional<EngineChoice> parse_engine(std::string_view name) {
  if (name == "structure") return EngineChoice::structure;
  if (name == "explicit") return EngineChoice::explicit_search;
  if (name == "smt") return EngineChoice::smt;
  if (name == "auto") return EngineChoice::automatic;
  return std::nullopt;
}

std::string_view to_string(EngineChoice e) {
  switch (e) {
    case EngineChoice::structure:
      return "structure";
    case EngineChoice::explicit_search:
      return "explicit";
    case EngineChoice::smt:
      return "smt";
    case EngineChoice::automatic:
      return "auto";
    case EngineChoice::distributed:
      return "distributed";
  }
  return "?";
}

bool can_handle(EngineChoice engine, properties::Question q, const model::Game& game) {
  return make_engine(engine)->can_handle(q, game);
}

Checked check_game(const model::Game& game, const std::string& display_file,
                   const Options& options) {
  Checked out = structure(game, display_file);
  Options o = options;
  if (options.write_partial) {
    // A partial report (the distributed search, when a rank dies): the
    // structural findings and what the engine knew.
    o.write_partial = [&out, &options](const reports::RulesetReport& engine_part) {
      reports::RulesetReport partial = out.report;
      partial.engine = engine_part.engine;
      partial.completion = engine_part.completion;
      partial.statistics = engine_part.statistics;
      partial.not_checked = engine_part.not_checked;
      options.write_partial(partial);
    };
  }
  Results r = make_engine(options.engine)->answer(game, properties::all_questions, o);
  warn_unless_native(options, r, display_file, r.messages);
  report(std::move(r), out);
  return out;
}

Checked check_symbolic(const model::Game& game, const std::string& display_file,
                       const std::string& param,
                       const std::function<const model::Game*(std::int64_t)>& load,
                       const Options& options, std::string& error) {
  Checked out = structure(game, display_file);
  out.report.engine = "smt";
  Results r = detail::symbolic_results(game, param, load, options, error);
  if (!error.empty()) return out;
  report(std::move(r), out);
  return out;
}

std::optional<Analyzed> analyze(const std::string& file, const std::string& display_file,
                                const model::LoadOptions& load, const Options& options,
                                model::SourceManager& sources, model::DiagnosticSink& sink) {
  auto game = model::load_game(file, load, sources, sink);
  if (!game) return std::nullopt;
  return analyze(std::move(*game), display_file, options);
}

Analyzed analyze(model::Game game, const std::string& display_file, const Options& options) {
  Analyzed out;
  out.game = std::make_unique<model::Game>(std::move(game));
  auto checked = check_game(*out.game, display_file, options);
  out.report = std::move(checked.report);
  out.inconclusive = checked.inconclusive;
  out.messages = std::move(checked.messages);
  return out;
}

checker::NativeMode native_mode(bool native, bool no_native) {
  if (native) return checker::NativeMode::on;
  return no_native ? checker::NativeMode::off : checker::NativeMode::automatic;
}

}  // namespace loophole::pipeline
