// The engines behind pipeline::Engine: the explicit search with the
// analyses on its graph, the SMT engine (smt_check.cpp), the explicit search
// over MPI ranks, the structural checks alone (no question), and `auto`, a
// composition of the first two. Each answers per question
// (engine.hpp, Results); pipeline.cpp derives the report from that.
#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>

#include "loophole/checker/semantics.hpp"
#include "loophole/pipeline/engine.hpp"
#include "loophole/pipeline/mpi.hpp"
#include "loophole/pipeline/pipeline.hpp"
#include "loophole/properties/state_groups.hpp"

#ifdef LOOPHOLE_WITH_MPI
#include <mpi.h>

#include "loophole/distributed/explore.hpp"
#endif

#include "smt_check.hpp"

namespace loophole::pipeline {

std::string_view to_string(Answer a) {
  switch (a) {
    case Answer::holds:
      return "holds";
    case Answer::violated:
      return "violated";
    case Answer::unknown:
      return "unknown";
    case Answer::not_checked:
      return "not checked";
  }
  return "?";
}

void QuestionResult::answer_from(const std::vector<properties::Finding>& all, bool open,
                                 const std::string& open_reason, bool unknown_counts) {
  bool violated = false;
  const properties::Finding* unknown = nullptr;
  for (const std::size_t i : findings) {
    const auto& f = all[i];
    if (f.verdict == properties::Verdict::violated) violated = true;
    if (f.verdict == properties::Verdict::unknown && unknown == nullptr) unknown = &f;
  }
  cut_short = false;
  if (violated) {
    answer = Answer::violated;
    reason.clear();
  } else if (unknown != nullptr && unknown_counts) {
    answer = Answer::unknown;
    reason = unknown->message;
  } else if (open) {
    answer = Answer::unknown;
    reason = open_reason;
  } else {
    answer = Answer::holds;
    reason.clear();
  }
}

Results::Results() {
  for (std::size_t i = 0; i < questions.size(); ++i)
    questions[i].question = properties::all_questions[i];
}

QuestionResult& Results::at(properties::Question q) {
  return questions[static_cast<std::size_t>(q)];
}

const QuestionResult& Results::at(properties::Question q) const {
  return questions[static_cast<std::size_t>(q)];
}

bool Results::inconclusive() const {
  return stopped || std::any_of(questions.begin(), questions.end(), [](const QuestionResult& r) {
           return r.answer == Answer::unknown || (r.answer == Answer::not_checked && r.cut_short);
         });
}

void Results::reindex() {
  for (auto& r : questions) r.findings.clear();
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (const auto q = properties::question_of(findings[i].kind)) at(*q).findings.push_back(i);
  }
}

void Results::settle(const std::function<bool(properties::Question)>& handled,
                     const std::function<bool(properties::Question)>& open,
                     const std::string& open_reason, const std::string& not_handled_reason,
                     bool unknown_counts) {
  reindex();
  for (auto& r : questions) {
    if (!handled(r.question)) {
      r.answer = Answer::not_checked;
      r.reason = not_handled_reason;
      continue;
    }
    r.answer_from(findings, open(r.question), open_reason, unknown_counts);
  }
}

void Engine::complete(const model::Game& /*game*/, Results& /*earlier*/,
                      const Options& /*options*/) {}

namespace {

using properties::Question;

bool asked(std::span<const Question> questions, Question q) {
  return std::find(questions.begin(), questions.end(), q) != questions.end();
}

std::string cannot(std::string_view engine) {
  return "the " + std::string(engine) + " engine does not answer it";
}

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
  l.layer_states = o.layer_states;
  return l;
}

// The analyses of run_checks that answer `questions`.
properties::CheckSelection selection_for(std::span<const Question> questions) {
  properties::CheckSelection s;
  s.deadlocks = asked(questions, Question::deadlocks);
  s.response_loops =
      asked(questions, Question::response_loops) || asked(questions, Question::turn_loops);
  s.stalemates =
      asked(questions, Question::stalemates) || asked(questions, Question::ends_out_of_reach);
  s.unreachable_wins = asked(questions, Question::unreachable_wins);
  s.rule_gaps = asked(questions, Question::rule_gaps) || asked(questions, Question::ties);
  s.dead_rules = asked(questions, Question::dead_rules);
  s.user_properties = asked(questions, Question::user_properties);
  return s;
}

// The structural checks alone (pipeline.cpp runs them before every engine):
// no question answered.
class StructureEngine final : public Engine {
 public:
  [[nodiscard]] std::string_view name() const override { return "structure"; }
  [[nodiscard]] bool can_handle(Question /*q*/, const model::Game& /*game*/) const override {
    return false;
  }
  Results answer(const model::Game& /*game*/, std::span<const Question> /*questions*/,
                 const Options& /*options*/) override {
    Results r;
    r.engine = "structure";
    r.settle([](Question) { return false; }, [](Question) { return false; }, "",
             cannot("structure"));
    return r;
  }
};

// The explicit search, then the analyses on the explored graph: every
// question reads the graph.
class ExplicitEngine final : public Engine {
 public:
  [[nodiscard]] std::string_view name() const override { return "explicit"; }
  [[nodiscard]] bool can_handle(Question /*q*/, const model::Game& /*game*/) const override {
    return true;
  }
  Results answer(const model::Game& game, std::span<const Question> questions,
                 const Options& o) override {
    Results r;
    r.engine = "explicit";
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
    run_options.limits = &limits;
    auto graph = checker::explore(semantics, run_options);
    const std::uint64_t search_peak = checker::peak_resident_bytes();
    clear(o);  // before any warning below
    r.completion = graph->completion();
    if (r.completion == checker::Completion::interrupted) r.completion = limits.reason();
    // An interrupt during the exploration stops it, and the analyses still
    // report on what was explored (under the memory and time limits); one
    // during the analyses stops them, and so does a limit. (A second signal
    // ends the process.)
    if (r.completion == checker::Completion::interrupted) limits.ignore_interrupt();
    auto checked = properties::run_checks(*graph, selection_for(questions), nullptr,
                                          o.explore.threads, o.analyses_progress, &limits);
    clear(o);
    if (!checked.not_run.empty()) {
      r.completion = limits.reason() != checker::Completion::complete
                         ? limits.reason()
                         : checker::Completion::interrupted;
    }
    // bytes/state: the resident peak of the whole check (search and
    // analyses) over the states explored.
    r.statistics = graph->statistics();
    const std::uint64_t states = r.statistics->states;
    graph.reset();
    if (const std::uint64_t peak = checker::peak_resident_bytes(); peak != 0) {
      r.statistics->bytes = peak;
      r.statistics->search_bytes = search_peak;
      r.statistics->bytes_per_state =
          states == 0 ? 0 : static_cast<double>(peak) / static_cast<double>(states);
    }
    r.findings = std::move(checked.findings);
    const auto cut = [&checked](Question q) {
      const auto name = properties::to_string(q);
      return std::find(checked.not_run.begin(), checked.not_run.end(), name) !=
             checked.not_run.end();
    };
    const bool open = r.completion != checker::Completion::complete;
    r.settle([&](Question q) { return asked(questions, q) && !cut(q); },
             [open](Question) { return open; }, properties::incomplete_reason(r.completion, states),
             "not asked", false);
    for (auto& q : r.questions) {
      if (asked(questions, q.question) && cut(q.question)) {
        q.cut_short = true;
        q.reason = "cut short: " + properties::incomplete_reason(r.completion, states);
      }
    }
    r.stopped = open;
    return r;
  }
};

// BMC, k-induction and static checks (smt_check.cpp): questions about
// single states; leads_to properties get an `unknown` finding each, cycles
// and whole-graph facts need the explored graph.
class SmtEngine final : public Engine {
 public:
  [[nodiscard]] std::string_view name() const override { return "smt"; }
  [[nodiscard]] bool can_handle(Question q, const model::Game& /*game*/) const override {
    return q == Question::deadlocks || q == Question::unreachable_wins ||
           q == Question::rule_gaps || q == Question::user_properties;
  }
  Results answer(const model::Game& game, std::span<const Question> questions,
                 const Options& o) override {
    auto smt = detail::check_smt(game, o.depth, smt_limits(o));
    clear(o);
    return from_check(game, questions, std::move(smt));
  }
  // --symbolic PARAM: the same questions, at every value of the param.
  Results symbolic(const model::Game& game, const std::string& param,
                   const std::function<const model::Game*(std::int64_t)>& load, const Options& o,
                   std::string& error) {
    auto smt = detail::symbolic_scope(game, param, o.depth, load, smt_limits(o), error);
    clear(o);
    return from_check(game, properties::all_questions, std::move(smt));
  }
  // After an earlier engine (the explicit search): static checks, and, when
  // its search hit a limit, the SMT engine's answers to what it left
  // unknown (a proof replaces an explicit `unknown`; a violation deeper than
  // the search got is added).
  void complete(const model::Game& game, Results& r, const Options& o) override {
    auto smt = detail::complete_with_smt(game, r.findings, r.completion, o.depth, smt_limits(o));
    clear(o);
    if (!smt.unsupported.empty()) {
      // The earlier engine's answers stand alone.
      r.messages.push_back(smt.unsupported);
      return;
    }
    for (auto& f : smt.notes) r.notes.push_back(std::move(f));
    const bool interrupted = r.completion == checker::Completion::interrupted;
    if (r.completion == checker::Completion::complete) r.completion = smt.completion;
    r.reindex();
    if (smt.answered) {
      // What the SMT engine answers is now settled by the merged findings.
      for (auto& q : r.questions) {
        if (q.answer != Answer::not_checked && can_handle(q.question, game)) {
          q.answer_from(r.findings, false, "");
        }
      }
    }
    // After a limit, what is still open is what the questions leave unknown
    // (an interrupt always leaves the run open).
    if (!interrupted) r.stopped = smt.completion != checker::Completion::complete;
  }

 private:
  Results from_check(const model::Game& game, std::span<const Question> questions,
                     detail::SmtCheck smt) {
    Results r;
    r.engine = "smt";
    r.completion = smt.completion;
    r.stopped = smt.completion != checker::Completion::complete;
    r.findings = std::move(smt.findings);
    r.notes = std::move(smt.notes);
    const bool refused = !smt.unsupported.empty();
    if (refused) r.messages.push_back(smt.unsupported);
    // A refused game leaves every question it handles unknown; otherwise
    // each open question has an `unknown` finding that says how deep BMC
    // got and what stopped it.
    r.settle([&](Question q) { return asked(questions, q) && can_handle(q, game); },
             [refused](Question) { return refused; },
             refused ? "the smt engine does not support the game" : "", cannot("smt"));
    return r;
  }
};

// Engines one after the other over one Results: the first answers, each
// later one completes what it left open (Engine::complete).
class Composition final : public Engine {
 public:
  Composition(std::string name, std::vector<std::unique_ptr<Engine>> engines)
      : name_(std::move(name)), engines_(std::move(engines)) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] bool can_handle(Question q, const model::Game& game) const override {
    return std::any_of(engines_.begin(), engines_.end(),
                       [&](const auto& e) { return e->can_handle(q, game); });
  }
  Results answer(const model::Game& game, std::span<const Question> questions,
                 const Options& o) override {
    Results r = engines_.front()->answer(game, questions, o);
    for (std::size_t i = 1; i < engines_.size(); ++i) engines_[i]->complete(game, r, o);
    return r;
  }

 private:
  std::string name_;
  std::vector<std::unique_ptr<Engine>> engines_;
};

// The explicit search distributed over MPI ranks (checker/distributed):
// every state is asked properties/' state-local questions, and rank 0
// builds the findings from the groups; the other ranks report nothing.
class DistributedEngine final : public Engine {
 public:
  [[nodiscard]] std::string_view name() const override { return "distributed"; }
  [[nodiscard]] bool can_handle(Question q, const model::Game& game) const override {
    // The questions read state by state (properties/state_groups.hpp), and
    // the cycle analyses and ends out of reach on the gathered slice
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
        return leads_to_count(game) <= 32;
    }
    return false;
  }
  Results answer([[maybe_unused]] const model::Game& game,
                 [[maybe_unused]] std::span<const Question> questions,
                 [[maybe_unused]] const Options& o) override {
#ifdef LOOPHOLE_WITH_MPI
    Results out;
    out.engine = "explicit";
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
      // What the last finished round knew: every question not checked
      // (pipeline.cpp adds the structural findings).
      d.on_abandon = [&o](const distributed::Snapshot& s) {
        reports::RulesetReport partial;
        partial.engine = "explicit";
        partial.completion = checker::Completion::interrupted;
        checker::Statistics st;
        st.states = s.states;
        st.transitions = s.transitions;
        st.depth = s.depth;
        st.seconds = s.seconds;
        partial.statistics = st;
        for (const auto q : properties::all_questions) {
          partial.not_checked.emplace_back(properties::to_string(q));
        }
        o.write_partial(partial);
        pipeline::record_exit_code(3);  // (the process then ends with 3)
      };
    }
    // The cycle analyses: the final states' outcomes for the stalls.
    d.cycles = true;
    d.endings = properties::ends_by_statement(game);
    d.marks = [&sem, holding = std::vector<std::pair<int, int>>()](
                  const checker::StateVec& s, const checker::Ending& e) mutable {
      return properties::outcome_marks(sem, s, e, holding);
    };
    d.end_marks = [&sem, holding = std::vector<std::pair<int, int>>()](
                      const checker::StateVec& s, const checker::Ending& e) mutable {
      return properties::end_marks(sem, s, e, holding);
    };
    d.leads_count = leads_to_count(game);
    if (d.leads_count > 0 && d.leads_count <= 32) d.leads_marks = properties::leads_to_marks(sem);
    // Each cyclic component summarised on its rank; rank 0 gathers only
    // those a finding shows.
    const std::size_t max_stalemates = properties::CheckSelection().max_stalemates;
    const auto summaries_of = [](const std::vector<distributed::ComponentSummary>& all) {
      std::vector<properties::LoopSummary> out;
      for (const auto& c : all) out.push_back({c.subgraph, c.entry, c.num, c.words});
      return out;
    };
    d.summarize = [](const checker::ExploredGraph& slice, std::vector<bool> can_finish,
                     const std::vector<std::uint8_t>& designated) {
      std::vector<distributed::ComponentSummary> out;
      for (auto& s : properties::loop_summaries(slice, std::move(can_finish), designated)) {
        out.push_back({s.analysis, s.entry, 0, std::move(s.words), 0});
      }
      return out;
    };
    d.choose = [&](const std::vector<distributed::ComponentSummary>& all) {
      std::vector<std::size_t> chosen;
      (void)properties::loop_counts(summaries_of(all), max_stalemates, &chosen);
      return chosen;
    };
    const distributed::Result r = distributed::explore(sem, MPI_COMM_WORLD, d);
    clear(o);
    out.completion = r.completion;
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
    out.statistics = st;
    const bool complete = r.completion == checker::Completion::complete;
    out.stopped = !complete;
    // Without the slice (a limit), the cycle analyses and leads_to are not
    // checked.
    const auto on_slice = [&](Question q) {
      if (r.slice) return true;
      switch (q) {
        case Question::response_loops:
        case Question::turn_loops:
        case Question::stalemates:
        case Question::ends_out_of_reach:
          return false;
        case Question::user_properties:
          return !d.leads_marks;
        default:
          return true;
      }
    };
    const auto handled = [&](Question q) {
      return asked(questions, q) && can_handle(q, game) && on_slice(q);
    };
    const std::string reason =
        complete ? "" : properties::incomplete_reason(r.completion, r.states);
    if (r.per_rank.empty()) {  // not rank 0: it reports nothing
      out.settle(
          handled, [](Question) { return false; }, "", cannot("distributed"));
      return out;
    }
    std::vector<std::map<properties::GroupKey, properties::StateGroup>> groups(r.answers.size());
    for (std::size_t q = 0; q < r.answers.size(); ++q) {
      for (const auto& [key, g] : r.answers[q]) {
        groups[q][key] = {g.states, g.trace ? *g.trace : checker::Trace {}};
      }
    }
    auto found =
        properties::state_findings(sem, groups, complete, false, r.states, reason, "explicit");
    if (r.slice) {
      const properties::EndsReach ends{r.can_end, r.endless,       r.can_lose,
                                       r.can_win, r.start_can_end, r.start_can_lose};
      // The rule gaps go with them: a finding that follows from one is
      // listed beneath it.
      std::vector<properties::Finding> gaps, rest;
      for (auto& f : found) {
        (f.kind == properties::Kind::rule_gap ? gaps : rest).push_back(std::move(f));
      }
      found = std::move(rest);
      if (d.leads_marks) {
        for (auto& f : properties::leads_to_findings(*r.slice, r.leads_bits, r.leads_bad)) {
          gaps.push_back(std::move(f));
        }
      }
      const properties::LoopCounts counts =
          properties::loop_counts(summaries_of(r.summaries), max_stalemates);
      for (auto& f :
           properties::cycle_findings(*r.slice, r.can_finish, r.doomed, r.overflows, max_stalemates,
                                      &ends, std::move(gaps), &counts, &r.designated)) {
        found.push_back(std::move(f));
      }
    }
    out.findings = std::move(found);
    out.settle(
        handled, [complete](Question) { return !complete; }, reason, cannot("distributed"), false);
    return out;
#else
    throw std::logic_error("the distributed search needs a build with MPI");
#endif
  }

 private:
  static std::size_t leads_to_count(const model::Game& game) {
    return static_cast<std::size_t>(
        std::count_if(game.properties.begin(), game.properties.end(),
                      [](const auto& p) { return p.kind == model::Property::Kind::leads_to; }));
  }
};

}  // namespace

std::unique_ptr<Engine> make_engine(EngineChoice choice) {
  switch (choice) {
    case EngineChoice::structure:
      return std::make_unique<StructureEngine>();
    case EngineChoice::explicit_search:
      return std::make_unique<ExplicitEngine>();
    case EngineChoice::smt:
      return std::make_unique<SmtEngine>();
    case EngineChoice::automatic: {
      // Explicit search for what it finishes; SMT for static checks, proofs
      // and what a limit left open.
      std::vector<std::unique_ptr<Engine>> engines;
      engines.push_back(std::make_unique<ExplicitEngine>());
      engines.push_back(std::make_unique<SmtEngine>());
      return std::make_unique<Composition>("auto", std::move(engines));
    }
    case EngineChoice::distributed:
      return std::make_unique<DistributedEngine>();
  }
  return std::make_unique<StructureEngine>();
}

namespace detail {

Results symbolic_results(const model::Game& game, const std::string& param,
                         const std::function<const model::Game*(std::int64_t)>& load,
                         const Options& o, std::string& error) {
  return SmtEngine().symbolic(game, param, load, o, error);
}

}  // namespace detail

}  // namespace loophole::pipeline
