// The SMT engine: the transition system of a Game encoded for Z3 (over the
// same state layout as checker::Semantics), searched by bounded model
// checking, proved by k-induction, and inspected rule by rule without any
// exploration (static checks). Every counterexample is decoded into a
// checker::Trace, matched move by move against Semantics::successors and
// replayed before it is reported; one that does not replay is an internal
// error, never a finding. This header is Z3-free: only checker/smt/src
// includes z3++.h.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loophole/checker/finding.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/checker/trace.hpp"
#include "loophole/model/game.hpp"

namespace loophole::smt {

// The version of the Z3 library linked in ("4.8.12"), for `loophole --version`.
std::string z3_version();

// Why a run stopped before it was done (the rest of it stays `unknown`).
enum class Stop : std::uint8_t { none, interrupted, time_limit, memory_limit };
// "an interrupt", "the time limit", "the memory limit" (what stopped a run).
std::string_view to_string(Stop s);

// What the engine is doing, for a progress line: BMC at `depth` of
// `max_depth` (or k-induction, the static checks...), `seconds` since the
// engine was created.
struct Activity {
  int depth = -1;
  int max_depth = 0;
  double seconds = 0;
  std::string what;  // "deadlock", "rule gaps", "property 'hand_limit'", "encoding"
};

// Options::layer_states by default, and under --symbolic (which also sets
// Options::layers_past_depth).
inline constexpr std::size_t default_layer_states = 1000000;
inline constexpr std::size_t symbolic_layer_states = 100000000;

struct Options {
  int depth = 20;            // BMC: states up to `depth` moves from an initial state
  int max_k = 6;             // k-induction: the largest k tried
  unsigned timeout_ms = 0;   // per solver query (0: none); a timeout is `unknown`
  bool induction = true;     // try to prove what BMC did not violate
  bool completeness = true;  // after each depth, ask whether a longer simple path exists
  // Unrollings from the initial states instantiate at depth k only the
  // control paths possible after k moves (a forward analysis of the control
  // fields; off: the whole relation at every depth, for measurements).
  bool prune_control = true;
  // BMC's depths are answered by a breadth-first search of the relation,
  // its successors computed on integers by the rules' compiled programs
  // (checker/smt/src/layers.hpp), while the states reached number
  // at most this many; beyond, by BMC's queries from that depth on (0: BMC
  // only). The answers are the same; on a small ruleset the search is
  // complete at the largest distance of a state instead of the longest
  // simple path, in milliseconds instead of BMC's seconds a depth.
  std::size_t layer_states = default_layer_states;
  // The layers go on past `depth` while they hold at most layer_states
  // states, until they are complete (every depth settled) or over the
  // budget; BMC's queries still stop at `depth` (--symbolic: a value whose
  // reachable states fit is settled without a proof).
  bool layers_past_depth = false;
  // What k-induction leaves unknown is tried by IC3/PDR (Z3's Spacer) for at
  // most this long per question (0: not tried). `--symbolic` turns it on.
  unsigned pdr_seconds = 0;
  // Z3 parameters for the BMC solver, "name=value" separated by spaces
  // (smt_bench --z3, to measure a tactic or setting against the default).
  std::string solver_params;
  // Limits of the whole run: the first reached stops it within milliseconds
  // (Z3 is interrupted mid-check), and what was not answered is `unknown`.
  const std::atomic<bool>* interrupt = nullptr;                   // SIGINT, SIGTERM
  std::optional<std::chrono::steady_clock::time_point> deadline;  // --timeout
  std::uint64_t max_memory_bytes = 0;  // Z3's allocation; 0: no limit of ours
  // Called from a thread of the engine at most every 250 ms while it works.
  std::function<void(const Activity&)> progress;
};

// A construct the encoding does not handle: the engine refuses the game
// rather than answer wrongly ("unsupported in the smt engine: <construct>").
struct Unsupported {
  std::string construct;
  model::SourceSpan where;
  [[nodiscard]] std::string message() const;  // "file:line:col: unsupported in the smt engine: ..."
};

enum class ProofStatus : std::uint8_t { proved, violated, unknown };

struct Proof {
  ProofStatus status = ProofStatus::unknown;
  int k = -1;                           // proved: the k of the inductive step
  std::optional<checker::Trace> trace;  // violated: shortest counterexample
  std::string reason;                   // unknown: why ("not inductive up to k = 6", "timeout")
  bool pdr = false;                     // proved or violated by IC3/PDR (Options::pdr_seconds)
  double seconds = 0;
};

struct Statistics {
  int depth = -1;             // deepest BMC frame checked
  bool complete = false;      // no simple path is longer: every reachable state was covered
  Stop stopped = Stop::none;  // a limit or an interrupt ended the search before `depth`
  double seconds = 0;
  std::size_t paths = 0;              // disjuncts of the transition relation
  std::size_t fields = 0;             // state fields
  std::vector<double> depth_seconds;  // cumulative time when each depth was done
  // Per depth: seconds in the questions' queries, in the completeness
  // query, and in adding the frame (the relation instantiated); smt_bench.
  std::vector<double> query_seconds, completeness_seconds, frame_seconds;
  // Per depth k: the paths of the transition out of frame k (all of them
  // without Options::prune_control), and the control valuations possible
  // after k moves (0: not tracked).
  std::vector<std::size_t> frame_paths, frame_controls;
  // Depths 0..layer_depth were answered by the breadth-first layers
  // (Options::layer_states), which held layer_states states (-1, 0: none).
  int layer_depth = -1;
  std::size_t layer_states = 0;
  // The memory the layers reserved against Options::max_memory_bytes for
  // their tables (their largest), and Z3's estimated allocation (process
  // wide) when the depths were done: the two the limit is compared with.
  std::uint64_t layer_bytes = 0;
  std::uint64_t z3_bytes = 0;
  std::string solver_statistics;  // Z3's, of the BMC solver at the end ("key value" lines)
};

// The questions check() is asked: the ones the SMT engine answers (single
// states: deadlocks, rule gaps, unreachable end conditions, the designer's
// always/never/reachable properties; pipeline::can_handle). Cycles and
// whole-graph facts need the explored graph and are not among them.
struct Questions {
  bool deadlocks = true;
  bool rule_gaps = true;
  bool unreachable_wins = true;
  bool user_properties = true;
  // Also report the properties that hold (verdict holds, severity note),
  // for reports that list passing checks (JUnit).
  bool report_holds = false;
};

struct Result {
  std::vector<checker::Finding> findings;  // engine "smt"
  Statistics statistics;
  // Every rule gap site not reported is unreachable (the search was complete,
  // or k-induction proved it): what static_checks needs to refute candidates.
  bool gaps_settled = false;
  // How each question that can hold was settled, in words (--symbolic says
  // it per value): deadlocks (rule "deadlock"), rule gaps ("rule-gap") and
  // each always/never property ("property:NAME"): "all 23 reachable states
  // searched, every one within 7 moves", "proved by IC3/PDR (Z3's
  // Spacer)", or "unknown: " and why.
  struct Settled {
    checker::Kind kind = checker::Kind::deadlock;
    std::string rule;
    std::string how;
  };
  std::vector<Settled> settled;
};

class Engine {
 public:
  // Encodes the game (within the limits of `options`); check unsupported()
  // and stopped() before anything else.
  explicit Engine(const checker::Semantics& sem, const Options& options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  [[nodiscard]] const std::optional<Unsupported>& unsupported() const;
  // Once a limit or an interrupt stopped the engine (while encoding, or in
  // any query), it stays stopped: every later question is `unknown`.
  [[nodiscard]] Stop stopped() const;
  [[nodiscard]] const checker::Semantics& semantics() const;

  // BMC (then k-induction for what stayed open) for deadlocks, rule gaps,
  // unreachable end conditions and the designer's always/never/reachable
  // properties. Findings follow the explicit engine's rules and messages;
  // what neither a violation within the depth nor a proof settles is
  // `unknown`. Response loops, stalemates, dead rules and leads_to need cycles
  // or whole-graph facts and are not checked here.
  Result check(const Options& options, const Questions& selection);

  // k-induction on one always/never property (index into Game::properties),
  // and on "no rule gap is ever reached".
  Proof prove_property(int property, const Options& options);
  Proof prove_no_gap(const Options& options);

  // Static checks (no exploration): guards that no in-range state satisfies
  // (dead actions, triggers and end conditions), contradictory mandatory
  // effects, and candidate rule gaps (an effect that can leave its bounds
  // from some in-range state). `confirmed` holds the findings of a search
  // (explicit or BMC) used to confirm or refute each candidate; `complete`
  // says whether no other gap site is reachable (the search covered every
  // reachable state, or Result::gaps_settled).
  std::vector<checker::Finding> static_checks(const Options& options,
                                              const std::vector<checker::Finding>& searched,
                                              bool complete);

  // The states the transition relation admits one move after the concrete
  // state `s` (every field in range), in no particular order, distinct: the
  // relation's paths with s substituted and simplified, as the breadth-first
  // layers compute them (what still depends on a choice is enumerated by a
  // solver, which stops past `limit` states). For the one-step agreement
  // test, which compares them with Semantics::successors on every reachable
  // state: a move the encoding lacks or invents shows there even when no
  // trace runs through it. Throws std::runtime_error when Z3 answers
  // unknown.
  // With `depth` >= 0, the relation of BMC's frame `depth`: only the control
  // paths possible after `depth` moves (Options::prune_control), so on a
  // state reached in exactly `depth` moves it must admit the same states.
  std::vector<checker::StateVec> successors(const checker::StateVec& s, std::size_t limit = 1000,
                                            int depth = -1);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Symbolic scope: for each value of `param` in lo..hi (each loaded by
// `load`, which returns nullptr on an error), run the engine and report for
// each violated finding the values at which it appears, summarised
// ("deadlock appears when deck <= 2"). A value whose check left a question
// `unknown` (depth reached without completeness or proof) is *unsettled*:
// the summaries then only hold within the depth, and the unknown answers are
// kept (`open`), grouped the same way.
struct ScopeAnswer {
  checker::Kind kind = checker::Kind::deadlock;
  std::string rule;
  std::string message;
  std::vector<std::int64_t> values;  // ascending
  std::string summary;               // "deck <= 2", "deck >= 3", "deck in {1, 4}"
  checker::Finding first;            // the finding at the smallest value (with its trace)
  std::int64_t first_value = 0;
};
// One value's check: how far it got and how each question was settled.
struct ScopeValue {
  std::int64_t value = 0;
  bool settled = false;    // no question left unknown, not stopped
  bool complete = false;   // every reachable state searched (or BMC's completeness)
  std::size_t states = 0;  // held by the breadth-first layers
  int depth = -1;          // the deepest depth searched
  double seconds = 0;      // the check's (the encoding not counted)
  std::vector<Result::Settled> settled_how;
};
struct ScopeResult {
  std::vector<ScopeValue> values;       // per value checked, in order
  std::vector<ScopeAnswer> answers;     // violated findings
  std::vector<ScopeAnswer> open;        // unknown findings (values: where they are unknown)
  std::vector<std::int64_t> checked;    // the values checked
  std::vector<std::int64_t> unsettled;  // checked values with some question left unknown
  int depth = -1;                       // the deepest BMC frame over all values
  Stop stopped = Stop::none;
  std::optional<Unsupported> unsupported;
};
ScopeResult symbolic_scope(const std::string& param, std::int64_t lo, std::int64_t hi,
                           const std::function<const model::Game*(std::int64_t)>& load,
                           const Options& options, const Questions& selection);

// The trace through a sequence of states, as every SMT counterexample is
// decoded: each consecutive pair matched to the first successor of the
// semantics that equals the next state, described and replayed. Throws
// std::logic_error ("loophole: internal error: an smt counterexample does
// not replay: ...") when a pair is not a move or the replay disagrees.
checker::Trace trace_through(const checker::Semantics& sem,
                             const std::vector<checker::StateVec>& states);

// "deck <= 2" for values {min..2} of lo..hi, "deck >= 3", "deck == 4", "deck in {1, 3}".
std::string summarise_values(const std::string& param, const std::vector<std::int64_t>& values,
                             std::int64_t lo, std::int64_t hi);

}  // namespace loophole::smt
