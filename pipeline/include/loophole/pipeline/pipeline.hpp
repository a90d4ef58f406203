// One pipeline for every command that checks a ruleset (`check` and its
// --sweep, `diff`, `graph --trace`, `explain`): structural checks on the
// phase graph, then the engine --engine names (an object behind
// pipeline::Engine, engine.hpp, which answers per question), into one
// reports::RulesetReport derived from those answers, under the run's
// limits (checker::RunLimits: the resident size of the process, the
// deadline of --timeout, signals). The commands only load rulesets, print
// and pick exit codes (docs/architecture.md, The pipeline).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/limits.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/reports/report.hpp"

namespace loophole::pipeline {

// The engines a run may use (`--engine`; make_engine, engine.hpp): the
// structural checks alone, the explicit search, the SMT engine, or auto
// (the explicit search, then the SMT engine for static checks, proofs and
// what a limit left open).
// `distributed` is the explicit search over MPI ranks (docs/distributed.md):
// `check` chooses it for --engine explicit when mpirun started it.
enum class EngineChoice : std::uint8_t { structure, explicit_search, smt, automatic, distributed };
// "structure", "explicit", "smt", "auto"; nullopt for any other name.
[[nodiscard]] std::optional<EngineChoice> parse_engine(std::string_view name);
[[nodiscard]] std::string_view to_string(EngineChoice e);

// Whether `engine` answers question `q` about `game` (make_engine(engine)->
// can_handle, engine.hpp). What the chosen engine cannot handle is reported
// not checked (RulesetReport::not_checked), in properties::all_questions
// order; the structural checks answer none of the questions (they run
// before every engine).
[[nodiscard]] bool can_handle(EngineChoice engine, properties::Question q, const model::Game& game);

// How a run checks each ruleset. One struct for every command, so a new
// option is one field here and one line where a command sets it.
struct Options {
  EngineChoice engine = EngineChoice::explicit_search;
  int depth = 20;  // smt and auto: the BMC depth (moves)
  // smt and auto: the breadth-first layers' budget in states
  // (smt::Options::layer_states; 0: BMC only; nullopt: the engine's default).
  std::optional<std::size_t> layer_states;
  // The explicit search: threads, native mode, max_states, progress. Its
  // memory budget, deadline and interrupt are set from the limits below.
  checker::ExplicitOptions explore;
  // The whole run's limits: the resident size of the process (0: none) and
  // the wall-clock deadline, shared by the search, the analyses and the SMT
  // engine; a signal sets `interrupted`.
  std::uint64_t max_resident = 0;
  std::optional<checker::RunLimits::Clock::time_point> deadline;
  const std::atomic<bool>* interrupted = nullptr;
  // Progress, for a terminal's progress line (any may be empty): the
  // analyses, the SMT engine (BMC depth of max_depth, seconds, what it
  // asks), and a call before anything is printed on stderr.
  properties::AnalysisProgress analyses_progress;
  std::function<void(int depth, int max_depth, double seconds, std::string_view what)> smt_progress;
  std::function<void()> clear_progress;
  // The distributed search, rank 0: when a rank dies, the partial report of
  // the ruleset being checked (what the last finished round knew), to be
  // written at once; the process then ends with exit code 3.
  std::function<void(const reports::RulesetReport&)> write_partial;
};

struct Checked {
  reports::RulesetReport report;  // points into the Game it was checked from
  // Some question stayed unknown, or a limit or a signal cut the run short:
  // exit 3 unless a finding fails the run.
  bool inconclusive = false;
  // For stderr, in order: "loophole: warning: FILE: --native: ..." and the
  // SMT engine's "file:line:col: unsupported in the smt engine: ...".
  std::vector<std::string> messages;
};

// Checks one loaded game; `display_file` is the name the report gives it.
Checked check_game(const model::Game& game, const std::string& display_file,
                   const Options& options);

// --symbolic PARAM (the SMT engine): every value of the param in its
// declared min..max, each loaded by `load` (nullptr: it did not load). Sets
// `error` (and returns an empty report) when the param has no such range.
Checked check_symbolic(const model::Game& game, const std::string& display_file,
                       const std::string& param,
                       const std::function<const model::Game*(std::int64_t)>& load,
                       const Options& options, std::string& error);

// A ruleset loaded and checked, with the Game its report points into.
struct Analyzed {
  std::unique_ptr<model::Game> game;
  reports::RulesetReport report;
  bool inconclusive = false;
  std::vector<std::string> messages;
};

// Loads `file` and checks it; nullopt when it does not load (diagnostics in
// `sink`).
std::optional<Analyzed> analyze(const std::string& file, const std::string& display_file,
                                const model::LoadOptions& load, const Options& options,
                                model::SourceManager& sources, model::DiagnosticSink& sink);
// The same for a game already loaded.
Analyzed analyze(model::Game game, const std::string& display_file, const Options& options);

// --native and --no-native as a NativeMode.
[[nodiscard]] checker::NativeMode native_mode(bool native, bool no_native);

}  // namespace loophole::pipeline
