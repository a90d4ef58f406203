// The engines behind one interface (docs/architecture.md, The pipeline and
// the engines): each says which questions it can answer (can_handle) and
// answers the questions it is given in one result type, per question:
// holds, violated (with its findings and their traces), unknown (with the
// reason) or not checked. `--engine auto` is a composition of engines over
// that type (the explicit search, then the SMT engine for proofs and what a
// limit left open), and the report is derived from it in one place
// (pipeline.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loophole/checker/explored.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::pipeline {

struct Options;

// The answer to one question.
enum class Answer : std::uint8_t {
  holds,        // settled: no problem of this kind
  violated,     // a problem found, each with its finding (and trace)
  unknown,      // neither: a limit, the depth, an open proof (the reason says which)
  not_checked,  // the engine cannot handle it, was not asked, or a limit cut it off
};
// "holds", "violated", "unknown", "not checked".
[[nodiscard]] std::string_view to_string(Answer a);

struct QuestionResult {
  properties::Question question = properties::Question::deadlocks;
  Answer answer = Answer::not_checked;
  std::string reason;                 // unknown and not_checked: why
  std::vector<std::size_t> findings;  // indices into Results::findings: this question's
  // not_checked because a limit or a signal cut its analysis off (the run
  // is then inconclusive), not because the engine cannot handle it.
  bool cut_short = false;
  // Answers it from its findings: violated when one is violated, else
  // unknown when one is unknown (if `unknown_counts`) or `open` (with
  // `open_reason`), else holds. A complete explicit search does not count
  // its unknowns: a response chain that reached scope.stack without
  // repeating is an answer within the scope, as every answer is.
  void answer_from(const std::vector<properties::Finding>& all, bool open,
                   const std::string& open_reason, bool unknown_counts = true);
};

// What one engine, or a composition of engines, answered about one game.
struct Results {
  std::string engine;  // the report's engine: "explicit", "smt", "structure"
  // The answers' findings, in the engine's order (violations with their
  // traces, unknowns with their reasons, properties that hold); each is one
  // question's (properties::question_of).
  std::vector<properties::Finding> findings;
  // Findings that answer no question: the SMT engine's static checks
  // (guards no state satisfies, candidate rule gaps). Reported after the
  // answers; they never make a run inconclusive.
  std::vector<properties::Finding> notes;
  // One per properties::all_questions, in that order.
  std::array<QuestionResult, properties::all_questions.size()> questions{};
  // complete, or the limit or signal that ended the search.
  checker::Completion completion = checker::Completion::complete;
  // A limit or a signal cut the run short where no question shows it (the
  // report is partial): exit 3 like an unknown answer.
  bool stopped = false;
  std::optional<checker::Statistics> statistics;
  // For stderr: "loophole: warning: FILE: --native: ...", "file:line:col:
  // unsupported in the smt engine: ...".
  std::vector<std::string> messages;

  Results();
  [[nodiscard]] QuestionResult& at(properties::Question q);
  [[nodiscard]] const QuestionResult& at(properties::Question q) const;
  // Some question is unknown or cut short, or the run was stopped: exit 3
  // unless a finding fails it.
  [[nodiscard]] bool inconclusive() const;
  // Answers every question `handled` from the findings (re-indexing them,
  // QuestionResult::answer_from), `open` where the engine did not cover the
  // question; the others are not checked, with `not_handled_reason`.
  void settle(const std::function<bool(properties::Question)>& handled,
              const std::function<bool(properties::Question)>& open, const std::string& open_reason,
              const std::string& not_handled_reason, bool unknown_counts = true);
  // Re-indexes the findings, keeping every answer and reason as it is.
  void reindex();
};

class Engine {
 public:
  virtual ~Engine() = default;
  // "explicit", "smt", "auto", "distributed", "structure".
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Whether this engine answers question `q` about `game`.
  [[nodiscard]] virtual bool can_handle(properties::Question q, const model::Game& game) const = 0;
  // Answers `questions` about `game` under the run's limits: each one it can
  // handle is holds, violated, unknown or (cut off by a limit) not checked;
  // every other question is not checked.
  virtual Results answer(const model::Game& game, std::span<const properties::Question> questions,
                         const Options& options) = 0;
  // As a later engine of a composition: answers what `earlier` left
  // unknown and it can handle, and adds its own checks. By default nothing.
  virtual void complete(const model::Game& game, Results& earlier, const Options& options);
};

// The engines `--engine` names (pipeline.hpp, EngineChoice).
enum class EngineChoice : std::uint8_t;
[[nodiscard]] std::unique_ptr<Engine> make_engine(EngineChoice choice);

}  // namespace loophole::pipeline
