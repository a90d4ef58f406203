// The questions whose answer is read state by state, for engines that visit
// the states themselves (the distributed search, docs/distributed.md): which
// groups a state belongs to (its keys), and the findings built from the
// groups found. The analyses over an explored graph build their findings
// with the same functions (deadlock.cpp, rule_gaps.cpp, ties.cpp,
// unreachable_win.cpp), so a message, location or detail is written once.
// The callers attach traces.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "loophole/checker/conditions.hpp"
#include "loophole/checker/explored.hpp"
#include "loophole/checker/generator.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/checker/trace.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::properties {

using GroupKey = std::vector<std::int64_t>;

// deadlocks: a state not over with no move, keyed {step, stage, the window
// holder's seat relative to the active player (-1 outside a window)}.
void deadlock_keys(const checker::Semantics& sem, const checker::StateVec& s, bool no_moves,
                   std::vector<GroupKey>& out);
// dead rules: what a state shows alive, keyed {0, step} a step entered (a
// gap state counts for the step whose effect left the bounds), {1, window}
// a window in which the player to move has an action move, {2, action} an
// action enabled for the window holder, {3, trigger} a trigger that fires
// or is declined. `moves`: the moves out of s.
void dead_rule_keys(const checker::Semantics& sem, const checker::Conditions& conditions,
                    const checker::StateVec& s, std::span<const checker::MoveFields> moves,
                    std::vector<GroupKey>& out);
// rule gaps: a gap state, keyed {gap site, 1-based} (a full stack is not
// one: it is an unbounded response chain, a cycle question).
void rule_gap_keys(const checker::Semantics& sem, const checker::StateVec& s,
                   std::vector<GroupKey>& out);
// ties: a state where the game is over and the end conditions holding at
// once name no single winner, keyed by those (condition, player) pairs,
// flattened.
void tie_keys(const checker::Semantics& sem, const checker::StateVec& s,
              std::vector<GroupKey>& out);
// end conditions reached: one key {condition, player} per pair holding in s
// (over or not), for the unreachable-wins question.
void end_condition_keys(const checker::Semantics& sem, const checker::StateVec& s,
                        std::vector<GroupKey>& out);

// Who loses and who wins in a game-over state (bit p for player p; none
// when the game is not over): what the moves into it named (`ending`:
// a `win`/`lose` statement's player), and, when an end condition ended it
// (ending.conditions), the end conditions holding there: a win names its
// player (and, with two players, a loss names the other as winner); when a
// tie leaves it open every outcome named is kept. `holding`: scratch.
struct StateOutcome {
  std::uint32_t loses = 0, wins = 0;
};
[[nodiscard]] StateOutcome state_outcome(const checker::Semantics& sem, const checker::StateVec& s,
                                         const checker::Ending& ending,
                                         std::vector<std::pair<int, int>>& holding);
// Whether a statement of the rules ends the game (`win`/`lose`). Only then
// must the moves into a game-over state be recorded (Semantics::successors
// with its record) for its checker::Ending; otherwise every game-over state
// was ended by an end condition (checker::Ending{.conditions = true}).
[[nodiscard]] bool ends_by_statement(const model::Game& game);

// The same as the bits the cycle analyses search backwards from
// (cycle_findings' `doomed`): for each player p, bit 1 + 2p when p loses
// in s, else bit 2 + 2p (a way out that is no loss of p's). For a final
// state (over != 0); a rule-gap state is no loss.
[[nodiscard]] std::uint32_t outcome_marks(const checker::Semantics& sem, const checker::StateVec& s,
                                          const checker::Ending& ending,
                                          std::vector<std::pair<int, int>>& holding);

// The bits ends out of reach searches backwards from, for a final state
// (over != 0): bit 0 when it is a real end (over == 1, no rule gap), then
// for each player p bit 1 + 2p when p loses there and 2 + 2p when p wins
// (the outcomes ends_out_of_reach.cpp reads). None for a rule-gap state.
[[nodiscard]] std::uint64_t end_marks(const checker::Semantics& sem, const checker::StateVec& s,
                                      const checker::Ending& ending,
                                      std::vector<std::pair<int, int>>& holding);

// The whole graph's answers ends out of reach needs, for the states of a
// slice (cycle_findings): whether a real end can still be reached, per
// player whether their loss and their win can be, whether the game can go
// on forever (a cycle can be reached); and whether some initial state of
// the whole graph can reach a real end, and each player's loss.
struct EndsReach {
  std::vector<bool> can_end, endless;
  std::vector<std::vector<bool>> can_lose, can_win;
  bool start_can_end = false;
  std::vector<bool> start_can_lose;
};

// user properties: a state where an `always` property fails, or a `never`
// or `reachable` one holds (within its `at:` steps and phases), keyed {the
// property's index}. `leads_to` is a question about paths, not states: it
// has no key here. `conditions` holds the properties' expressions in their
// order (property_conditions), compiled.
void user_property_keys(const checker::Semantics& sem, const checker::Conditions& conditions,
                        const checker::StateVec& s, std::vector<GroupKey>& out);
// The properties' expressions in Game::properties order, for Conditions.
[[nodiscard]] std::vector<const model::Expr*> property_conditions(const model::Game& game);
// Whether property `p` applies in step `step` (its `at:` steps and phases).
[[nodiscard]] bool property_applies(const model::Game& game, const model::Property& p, int step);

// A deadlock finding for a group of `states` stuck states whose shallowest
// one is `first`.
[[nodiscard]] Finding deadlock_finding(const checker::Semantics& sem,
                                       const checker::StateVec& first, std::uint64_t states,
                                       const std::string& engine);
// A rule-gap finding for `states` gap states of the gap site `gap`.
[[nodiscard]] Finding rule_gap_finding(const checker::Semantics& sem, int gap, std::uint64_t states,
                                       const std::string& engine);
// The tie findings of the groups `ties` (keys as tie_keys gives them, in
// key order): one finding per set of conditions, the first group of each;
// `trace(i)` gives the trace to group i's state.
[[nodiscard]] std::vector<Finding> tie_findings(
    const model::Game& game, const std::vector<GroupKey>& ties,
    const std::function<checker::Trace(std::size_t)>& trace, const std::string& engine);
// The unreachable-win findings: every (condition, player) pair not in
// `reached` (keys as end_condition_keys gives them). After an incomplete
// search (`complete` false) each is unknown, with `incomplete_reason`;
// `states` is the number of states searched.
[[nodiscard]] std::vector<Finding> unreachable_win_findings(const model::Game& game,
                                                            const std::vector<GroupKey>& reached,
                                                            bool complete, std::uint64_t states,
                                                            const std::string& incomplete_reason,
                                                            const std::string& engine);

// The dead-rule findings: every step, window (that opens), action and
// trigger not in `alive` (keys as dead_rule_keys gives them).
[[nodiscard]] std::vector<Finding> dead_rule_findings(const model::Game& game,
                                                      const std::vector<GroupKey>& alive,
                                                      bool complete,
                                                      const std::string& incomplete_reason,
                                                      const std::string& engine);

// The findings of the `always`, `never` and `reachable` properties, from
// the first state (`first[i]`: its step and the trace to it, nullopt when
// none) at which each is decided (leads_to properties are skipped).
// `report_holds`: also a finding (a note) for each that holds.
struct PropertyHit {
  int step = -1;
  checker::Trace trace;
};
[[nodiscard]] std::vector<Finding> user_property_findings(
    const model::Game& game, const std::vector<std::optional<PropertyHit>>& first, bool complete,
    bool report_holds, const std::string& incomplete_reason, const std::string& engine);

// Why a claim of absence is only unknown after a search that stopped:
// "the exploration stopped at the time limit after 1234 states".
[[nodiscard]] std::string incomplete_reason(checker::Completion completion, std::uint64_t states);

// For an engine that visits the states itself: the questions to ask of
// every state (deadlocks, rule gaps, ties, end conditions reached, user
// properties other than leads_to, dead rules, in this order; `moves`: the
// moves out of the state), and the findings, as check_all reports them,
// from the groups it found (one map per question, in the same order; each
// group's state count and a trace to a shallowest state of it).
// `complete`: every reachable state was visited (`states` of them);
// otherwise `incomplete_reason` says why not. `report_holds`: also notes
// for the properties that hold.
using StateKeys =
    std::function<void(const checker::StateVec& state, std::span<const checker::MoveFields> moves,
                       std::vector<GroupKey>& keys)>;
struct StateGroup {
  std::uint64_t states = 0;
  checker::Trace trace;  // (empty for the questions not traced)
};
[[nodiscard]] std::vector<StateKeys> state_questions(const checker::Semantics& sem);
// Which of them need a trace to their groups (the others are existence
// questions: end conditions reached, rules seen alive).
inline constexpr std::array<bool, 6> state_question_traced = {true, true, true, false, true, false};
[[nodiscard]] std::vector<Finding> state_findings(
    const checker::Semantics& sem, const std::vector<std::map<GroupKey, StateGroup>>& groups,
    bool complete, bool report_holds, std::uint64_t states, const std::string& incomplete_reason,
    const std::string& engine);

// For an engine that keeps the graph itself (the distributed search): the
// cycle analyses (response loops, turn loops, stalemates), run on `slice`,
// a part of the explored graph that holds every state on or between the
// cycles of each analysis' subgraph (non-progress moves, moves within a
// turn, moves among states that cannot finish) with all its moves, the
// states those moves lead to, and the parents of all of them back to an
// initial state; numbered in the order of the whole graph (its depth, then
// its breadth-first numbering). `can_finish[v]`: a final state can be
// reached from slice state v in the whole graph; `doomed[p][v]`: only
// player p's loss can be reached from v. The findings are those check_all
// gives on the whole graph for these analyses (CheckSelection::only of
// response_loop and stalemate, without the unbounded chains, ends out of
// reach and the analyses it runs besides), sorted as check_all sorts.
// Unbounded response chains too: `overflows` gives, per stack-overflow gap
// site, how many such states the whole graph has, and the slice holds the
// first 4,096 of each (in the whole graph's order) with their parent chains.
// Ends out of reach too, when `ends` is given: the slice then also holds
// the earliest state of each finding the whole graph has (over its
// answers) and, from each that cannot go on forever, every state nearer
// than the nearest rule gap with its moves (the gap cause's search).
// `gaps`: the rule-gap findings (state_findings'), returned among the
// others, so that a finding that follows from a gap is listed beneath it as
// check_all lists it.
//
// For a search that splits the cyclic components on several machines and
// gathers only those a finding shows (the distributed search): each
// machine summarises its components (loop_summaries), one machine counts
// and chooses over all the summaries (loop_counts), and cycle_findings
// then runs on a slice that holds the chosen components, told the counts
// (`counts`: "the same loop occurs in N places", the loops folded into a
// stronger one, the number of stalemates) and, per slice state, which
// analyses' chosen components it belongs to (`designated`: bit 0 response
// loops, 1 turn loops, 2 stalemates; a component of an analysis is looked
// at only when every state of it has that bit).
struct LoopCounts;
[[nodiscard]] std::vector<Finding> cycle_findings(
    const checker::ExploredGraph& slice, std::vector<bool> can_finish,
    std::vector<std::vector<bool>> doomed, std::map<int, std::uint64_t> overflows,
    std::size_t max_stalemates, const EndsReach* ends = nullptr, std::vector<Finding> gaps = {},
    const LoopCounts* counts = nullptr, const std::vector<std::uint8_t>* designated = nullptr);

// One cyclic component's part in the cycle analyses: its analysis (0
// response loops, 1 turn loops, 2 stalemates), its entry (a state of the
// slice summarised; `order`: that state's number in the whole graph, which
// the caller fills in) and `words`, what makes loops one finding and the
// lasso's length, encoded (loop_counts reads them).
struct LoopSummary {
  unsigned analysis = 0;
  checker::StateId entry = checker::no_state;
  std::uint64_t order = 0;
  std::vector<std::uint64_t> words;
};
// The components of a slice that holds whole components (with their moves,
// the states the moves lead to, and each state's depth and number in the
// whole graph's order), summarised; `designated` as for cycle_findings.
[[nodiscard]] std::vector<LoopSummary> loop_summaries(const checker::ExploredGraph& slice,
                                                      std::vector<bool> can_finish,
                                                      const std::vector<std::uint8_t>& designated);
// Over every component's summary: the places of each loop (per analysis
// and key), the loop classes folded into a stronger loop of the same rules,
// the stalemates; and `chosen`, the summaries whose components cycle_findings
// shows (per key, the shortest lasso reached soonest; the first
// max_stalemates stalemates).
struct LoopCounts {
  std::map<std::vector<std::uint64_t>, std::size_t> places;       // [analysis, key words...]
  std::map<std::vector<std::uint64_t>, std::vector<int>> folded;  // [rules words...] -> classes
  std::size_t stalemates = 0;
};
[[nodiscard]] LoopCounts loop_counts(const std::vector<LoopSummary>& all,
                                     std::size_t max_stalemates,
                                     std::vector<std::size_t>* chosen = nullptr);

// leads_to (user properties) on a slice, for a search that keeps the graph
// elsewhere. leads_to_marks: per leads_to property k (the game's order,
// at most 32), bit 2k when its `from` holds in s (at its steps), 2k + 1
// when its `to` does. leads_to_findings: per slice state, bit 2k when
// property k's `to` does not hold and the game goes on, 2k + 1 when the
// state is a dead end among them; `bad[k]`, its earliest `from` state that
// can reach a cycle of them or such a dead end (no_state: none). The slice
// holds every state of them reachable from `bad[k]`, with its moves. The
// findings are check_all's; pass them to cycle_findings (with the gaps) to
// be ordered.
[[nodiscard]] std::function<std::uint64_t(const checker::StateVec&)> leads_to_marks(
    const checker::Semantics& sem);
[[nodiscard]] std::vector<Finding> leads_to_findings(const checker::ExploredGraph& slice,
                                                     const std::vector<std::uint64_t>& bits,
                                                     const std::vector<checker::StateId>& bad);

}  // namespace loophole::properties
