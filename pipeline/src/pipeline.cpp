// The pipeline: structural findings first, then the engine's, a step the
// phase graph already shows unreachable reported once (as structure); every
// part under one set of limits (checker::RunLimits).
#include "loophole/pipeline/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>

#include "loophole/checker/semantics.hpp"
#include "loophole/model/phase_graph.hpp"
#include "loophole/pipeline/mpi.hpp"
#include "loophole/properties/state_groups.hpp"
#include "loophole/properties/structural.hpp"

#ifdef LOOPHOLE_WITH_MPI
#include <mpi.h>

#include "loophole/distributed/explore.hpp"
#endif

#include "smt_check.hpp"

namespace loophole::pipeline {
namespace {

void clear(const Options& o) {
  if (o.clear_progress) o.clear_progress();
}

detail::SmtLimits smt_limits(const Options& o) {
  detail::SmtLimits l;
  l.interrupted = o.interrupted;
  // The whole run's limits: the SMT engine stops at the same deadline as
  // the explicit search, and bounds Z3's allocation by the same size.
  l.max_memory_bytes = o.max_resident;
  l.deadline = o.deadline;
  l.progress = o.smt_progress;
  return l;
}

// The questions `engine` leaves unanswered, named as reports name them.
std::vector<std::string> not_handled(EngineChoice engine, const model::Game& game) {
  std::vector<std::string> out;
  for (const auto q : properties::all_questions) {
    if (!can_handle(engine, q, game)) out.emplace_back(properties::to_string(q));
  }
  return out;
}

// With --native, says when the rules ran interpreted after all (no C
// compiler, a failed compilation: the generator says why).
void warn_unless_native(const checker::ExplicitOptions& explore,
                        const checker::Statistics& statistics, const std::string& file,
                        std::vector<std::string>& messages) {
  if (explore.native != checker::NativeMode::on || statistics.generator == "native") return;
  messages.push_back("loophole: warning: " + file +
                     ": --native: the rules ran interpreted: " + statistics.generator);
}

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

// --engine smt: BMC, k-induction and static checks (smt_check.cpp).
void run_smt(const model::Game& game, const Options& o, Checked& out) {
  auto& rs = out.report;
  rs.engine = "smt";
  auto smt = detail::check_smt(game, o.depth, smt_limits(o));
  clear(o);
  if (!smt.unsupported.empty()) out.messages.push_back(smt.unsupported);
  // What the run covered: a signal or a limit cuts the search short
  // (exit 3); the analyses the SMT engine never runs are not checked. (The
  // run has no explored-state statistics; how deep BMC got, and what
  // stopped it, is in the details of each finding it left unknown.)
  rs.completion = smt.completion;
  out.inconclusive =
      out.inconclusive || smt.inconclusive || smt.completion != checker::Completion::complete;
  rs.not_checked = not_handled(EngineChoice::smt, game);
  for (auto& f : smt.findings) rs.findings.push_back(std::move(f));
}

// --engine explicit and auto: the explicit search, then the analyses on the
// explored graph; under auto the SMT engine adds static checks, proofs and
// answers for what a limit left open.
void run_explicit(const model::Game& game, const Options& o, Checked& out) {
  auto& rs = out.report;
  rs.engine = "explicit";
  const checker::Semantics semantics(game);
  // The peak of this ruleset's check alone, for bytes/state.
  checker::reset_peak_resident();
  checker::RunLimits limits(o.max_resident, o.deadline, o.interrupted);
  checker::ExplicitOptions run_options = o.explore;
  // The search's own budget: what the process may still grow by.
  if (o.max_resident != 0) {
    const std::uint64_t resident = checker::resident_bytes();
    run_options.max_memory_bytes = o.max_resident > resident ? o.max_resident - resident : 1;
  }
  run_options.timeout_seconds = limits.seconds_left();
  run_options.interrupt = &limits.stop();
  auto graph = checker::explore(semantics, run_options);
  const std::uint64_t search_peak = checker::peak_resident_bytes();
  clear(o);  // before any warning below
  rs.completion = graph->completion();
  if (rs.completion == checker::Completion::interrupted) rs.completion = limits.reason();
  warn_unless_native(o.explore, graph->statistics(), rs.file, out.messages);
  // An interrupt during the exploration stops it, and the analyses still
  // report on what was explored (under the memory and time limits); one
  // during the analyses stops them, and so does a limit. (A second signal
  // ends the process.)
  if (rs.completion == checker::Completion::interrupted) limits.ignore_interrupt();
  auto checked = properties::run_checks(*graph, properties::CheckSelection{}, nullptr,
                                        o.explore.threads, o.analyses_progress, &limits);
  clear(o);
  if (!checked.not_run.empty()) {
    rs.completion = limits.reason() != checker::Completion::complete
                        ? limits.reason()
                        : checker::Completion::interrupted;
  }
  rs.not_checked = std::move(checked.not_run);
  // bytes/state: the resident peak of the whole check (search and
  // analyses) over the states explored.
  rs.statistics = graph->statistics();
  graph.reset();
  if (const std::uint64_t peak = checker::peak_resident_bytes(); peak != 0) {
    rs.statistics->bytes = peak;
    rs.statistics->search_bytes = search_peak;
    rs.statistics->bytes_per_state =
        rs.statistics->states == 0
            ? 0
            : static_cast<double>(peak) / static_cast<double>(rs.statistics->states);
  }
  bool open = rs.completion != checker::Completion::complete;
  auto& found = checked.findings;
  if (o.engine == EngineChoice::automatic) {
    // Explicit search for what it finished; SMT for static checks, proofs
    // and what a limit left open (smt_check.cpp).
    auto smt = detail::complete_with_smt(game, found, rs.completion, o.depth, smt_limits(o));
    clear(o);
    if (!smt.unsupported.empty()) out.messages.push_back(smt.unsupported);
    for (auto& f : smt.findings) found.push_back(std::move(f));
    // After a limit, what is still open is what the merged findings leave
    // unknown (an interrupt always leaves the run open).
    if (smt.unsupported.empty() && rs.completion != checker::Completion::interrupted) {
      open = smt.inconclusive || smt.completion != checker::Completion::complete;
    }
    if (rs.completion == checker::Completion::complete) rs.completion = smt.completion;
  }
  out.inconclusive = out.inconclusive || open;
  add_findings(rs, found);
}

// The explicit search distributed over MPI ranks (checker/distributed):
// every state is asked properties/' state-local questions, and rank 0
// builds the findings from the groups; the other ranks report nothing.
void run_distributed([[maybe_unused]] const model::Game& game, [[maybe_unused]] const Options& o,
                     [[maybe_unused]] Checked& out) {
#ifdef LOOPHOLE_WITH_MPI
  auto& rs = out.report;
  rs.engine = "explicit";
  const checker::Semantics sem(game);
  distributed::Options d;
  d.max_states = o.explore.max_states;
  d.max_resident = o.max_resident;
  if (o.deadline) {
    d.timeout_seconds = std::max(
        1e-3,
        std::chrono::duration<double>(*o.deadline - checker::RunLimits::Clock::now()).count());
  }
  d.interrupt = o.interrupted;
  for (auto& q : properties::state_questions(sem)) d.questions.push_back(std::move(q));
  // -j N: N threads a rank (by default one: one rank a core is the usual
  // layout under mpirun), each with its own copy of the questions.
  d.threads = o.explore.threads > 0 ? static_cast<std::size_t>(o.explore.threads) : 1;
  d.thread_questions = [&sem] {
    std::vector<distributed::StateQuestion> copy;
    for (auto& q : properties::state_questions(sem)) copy.push_back(std::move(q));
    return copy;
  };
  d.traced.assign(properties::state_question_traced.begin(),
                  properties::state_question_traced.end());
  if (o.write_partial) {
    d.on_abandon = [&rs, &o](const distributed::Snapshot& s) {
      reports::RulesetReport partial = rs;
      partial.completion = checker::Completion::interrupted;
      checker::Statistics st;
      st.states = s.states;
      st.transitions = s.transitions;
      st.depth = s.depth;
      st.seconds = s.seconds;
      partial.statistics = st;
      partial.not_checked.clear();
      for (const auto q : properties::all_questions) {
        partial.not_checked.emplace_back(properties::to_string(q));
      }
      o.write_partial(partial);
      pipeline::record_exit_code(3);  // (the process then ends with 3)
    };
  }
  // The cycle analyses: the final states' outcomes for the stalls.
  d.cycles = true;
  d.marks = [&sem,
             holding = std::vector<std::pair<int, int>>()](const checker::StateVec& s) mutable {
    return properties::outcome_marks(sem, s, holding);
  };
  d.end_marks = [&sem,
                 holding = std::vector<std::pair<int, int>>()](const checker::StateVec& s) mutable {
    return properties::end_marks(sem, s, holding);
  };
  d.leads_count = static_cast<std::size_t>(
      std::count_if(game.properties.begin(), game.properties.end(),
                    [](const auto& p) { return p.kind == model::Property::Kind::leads_to; }));
  if (d.leads_count > 0 && d.leads_count <= 32) d.leads_marks = properties::leads_to_marks(sem);
  const distributed::Result r = distributed::explore(sem, MPI_COMM_WORLD, d);
  clear(o);
  rs.completion = r.completion;
  checker::Statistics st;
  st.states = r.states;
  st.transitions = r.transitions;
  st.depth = r.depth;
  st.seconds = r.seconds;
  st.threads = r.ranks;
  st.generator = "compiled, " + std::to_string(r.ranks) + " MPI ranks";
  // Memory: the resident peaks of all ranks together, over the states.
  for (const auto& f : r.per_rank) st.bytes += f.peak_resident;
  st.bytes_per_state =
      r.states == 0 ? 0 : static_cast<double>(st.bytes) / static_cast<double>(r.states);
  rs.statistics = st;
  rs.not_checked = not_handled(EngineChoice::distributed, game);
  const bool complete = r.completion == checker::Completion::complete;
  out.inconclusive = out.inconclusive || !complete;
  if (r.per_rank.empty()) return;  // not rank 0: it reports nothing
  std::vector<std::map<properties::GroupKey, properties::StateGroup>> groups(r.answers.size());
  for (std::size_t q = 0; q < r.answers.size(); ++q) {
    for (const auto& [key, g] : r.answers[q]) {
      groups[q][key] = {g.states, g.trace ? *g.trace : checker::Trace{}};
    }
  }
  auto found = properties::state_findings(
      sem, groups, complete, false, r.states,
      complete ? "" : properties::incomplete_reason(r.completion, r.states), "explicit");
  if (r.slice) {
    const properties::EndsReach ends{r.can_end, r.endless,       r.can_lose,
                                     r.can_win, r.start_can_end, r.start_can_lose};
    // The rule gaps go with them: a finding that follows from one is
    // listed beneath it.
    std::vector<properties::Finding> gaps, rest;
    for (auto& f : found)
      (f.kind == properties::Kind::rule_gap ? gaps : rest).push_back(std::move(f));
    found = std::move(rest);
    if (d.leads_marks) {
      for (auto& f : properties::leads_to_findings(*r.slice, r.leads_bits, r.leads_bad)) {
        gaps.push_back(std::move(f));
      }
    }
    for (auto& f : properties::cycle_findings(*r.slice, r.can_finish, r.doomed, r.overflows,
                                              properties::CheckSelection().max_stalemates, &ends,
                                              std::move(gaps))) {
      found.push_back(std::move(f));
    }
  } else {
    for (const auto q : {properties::Question::response_loops, properties::Question::turn_loops,
                         properties::Question::stalemates, properties::Question::ends_out_of_reach,
                         properties::Question::user_properties}) {
      if (q == properties::Question::user_properties && !d.leads_marks) continue;
      const auto name = std::string(properties::to_string(q));
      if (std::find(rs.not_checked.begin(), rs.not_checked.end(), name) == rs.not_checked.end()) {
        rs.not_checked.push_back(name);
      }
    }
  }
  add_findings(rs, found);
#else
  throw std::logic_error("the distributed search needs a build with MPI");
#endif
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
  using properties::Question;
  switch (engine) {
    case EngineChoice::structure:
      return false;
    case EngineChoice::explicit_search:
    case EngineChoice::automatic:
      return true;  // every analysis reads the explored graph
    case EngineChoice::distributed:
      // The questions read state by state (properties/state_groups.hpp),
      // and the cycle analyses and ends out of reach on the gathered slice
      // (cycle_findings).
      switch (q) {
        case Question::deadlocks:
        case Question::rule_gaps:
        case Question::ties:
        case Question::unreachable_wins:
        case Question::dead_rules:
        case Question::response_loops:
        case Question::turn_loops:
        case Question::stalemates:
        case Question::ends_out_of_reach:
          return true;
        case Question::user_properties:
          // leads_to on the slice, at most 32 properties (a word of bits).
          return std::count_if(game.properties.begin(), game.properties.end(), [](const auto& p) {
                   return p.kind == model::Property::Kind::leads_to;
                 }) <= 32;
        default:
          return false;
      }
    case EngineChoice::smt:
      // BMC and k-induction answer questions about single states (leads_to
      // properties get an `unknown` finding each); cycles and whole-graph
      // facts need the explored graph.
      return q == Question::deadlocks || q == Question::unreachable_wins ||
             q == Question::rule_gaps || q == Question::user_properties;
  }
  return false;
}

Checked check_game(const model::Game& game, const std::string& display_file,
                   const Options& options) {
  Checked out = structure(game, display_file);
  switch (options.engine) {
    case EngineChoice::structure:
      break;
    case EngineChoice::smt:
      run_smt(game, options, out);
      break;
    case EngineChoice::explicit_search:
    case EngineChoice::automatic:
      run_explicit(game, options, out);
      break;
    case EngineChoice::distributed:
      run_distributed(game, options, out);
      break;
  }
  return out;
}

Checked check_symbolic(const model::Game& game, const std::string& display_file,
                       const std::string& param,
                       const std::function<const model::Game*(std::int64_t)>& load,
                       const Options& options, std::string& error) {
  Checked out = structure(game, display_file);
  auto& rs = out.report;
  rs.engine = "smt";
  auto smt = detail::symbolic_scope(game, param, options.depth, load, smt_limits(options), error);
  clear(options);
  if (!error.empty()) return out;
  if (!smt.unsupported.empty()) out.messages.push_back(smt.unsupported);
  rs.completion = smt.completion;
  out.inconclusive = smt.inconclusive || smt.completion != checker::Completion::complete;
  rs.not_checked = not_handled(EngineChoice::smt, game);
  for (auto& f : smt.findings) rs.findings.push_back(std::move(f));
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
