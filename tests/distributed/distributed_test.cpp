// The distributed search against the single-process one: run under mpirun
// with 1, 2 and 4 ranks (tests/distributed/CMakeLists.txt), every rank runs
// every test in the same order (the searches are collective), and rank 0
// compares. On every agreement fixture and the seeds at reduced scope: the
// state and transition counts and the BFS depth are identical; the deadlock
// and rule-gap groups are those the single-process graph gives (the same
// keys, state counts and shallowest depths); every group of every
// state-local question has a trace that replays on the reference semantics
// and ends in a state of the group; and the findings built from the groups
// (deadlocks, rule gaps, ties, unreachable wins, always/never/reachable
// properties, dead rules) are those `check` reports
// (message, location, verdict, details, trace length).
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/state_codec.hpp"
#include "loophole/distributed/explore.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/properties/state_groups.hpp"

#include "../smt/fixture_files.hpp"
#include "loaded_game.hpp"

namespace loophole::distributed {
namespace {

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

struct Expected {
  std::map<GroupKey, std::pair<std::uint64_t, std::uint32_t>> deadlocks, gaps;  // states, depth
};

// The deadlock and gap groups computed on the single-process graph, state by
// state, independently of the key functions.
Expected groups_of(const checker::ExploredGraph& g) {
  const checker::Semantics& sem = g.semantics();
  const checker::Layout& layout = sem.layout();
  const int players = sem.game().players;
  Expected e;
  const auto note = [&](std::pair<std::uint64_t, std::uint32_t>& into, std::uint32_t depth) {
    into.second = into.first == 0 ? depth : std::min(into.second, depth);
    ++into.first;
  };
  for (checker::StateId v = 0; v < g.size(); ++v) {
    const checker::StateVec s = g.state(v);
    if (s[layout.over] == 2) {
      const int gap = s[layout.gap];
      if (gap > 0 && sem.gaps()[gap - 1].kind != checker::GapSite::Kind::stack_overflow) {
        note(e.gaps[{gap}], g.depth(v));
      }
      continue;
    }
    if (s[layout.over] != 0 || !g.edges(v).empty()) continue;
    const int stage = s[layout.stage];
    const int holder =
        stage == static_cast<int>(checker::Stage::window) ? s[layout.window_holder] : -1;
    const int seat = holder < 0 ? -1 : (holder - s[layout.active] + players) % players;
    note(e.deadlocks[{s[layout.step], stage, seat}], g.depth(v));
  }
  return e;
}

// The states in a cyclic strongly connected component (several states, or
// one with a self-loop) of any of the cycle analyses' three subgraphs on
// the single-process graph, by Tarjan's algorithm here, independently of
// the distributed coloring: moves that enter no step (response loops),
// moves within a turn between running states (turn loops), moves among
// states that cannot reach a final state (stalemates).
std::uint64_t cyclic_states_of(const checker::ExploredGraph& g) {
  const checker::Layout& layout = g.semantics().layout();
  const std::size_t n = g.size();
  std::vector<std::vector<checker::Edge>> out(n);
  std::vector<std::vector<checker::StateId>> in(n);
  std::vector<checker::StateVec> states(n);
  for (checker::StateId v = 0; v < n; ++v) {
    out[v] = g.edges(v);
    states[v] = g.state(v);
    for (const auto& e : out[v]) in[e.to].push_back(v);
  }
  std::vector<bool> finishes(n, false);
  std::vector<checker::StateId> work;
  for (checker::StateId v = 0; v < n; ++v) {
    if (states[v][layout.over] != 0) {
      finishes[v] = true;
      work.push_back(v);
    }
  }
  while (!work.empty()) {
    const checker::StateId v = work.back();
    work.pop_back();
    for (const checker::StateId u : in[v]) {
      if (!finishes[u]) {
        finishes[u] = true;
        work.push_back(u);
      }
    }
  }
  const auto same_turn = [&](checker::StateId a, checker::StateId b) {
    const auto& x = states[a];
    const auto& y = states[b];
    return x[layout.over] == 0 && y[layout.over] == 0 && x[layout.step] >= 0 &&
           y[layout.step] >= 0 && x[layout.active] == y[layout.active] &&
           x[layout.turn] == y[layout.turn];
  };
  const std::vector<std::function<bool(checker::StateId, const checker::Edge&)>> subgraphs = {
      [](checker::StateId, const checker::Edge& e) { return !e.progress; },
      [&](checker::StateId v, const checker::Edge& e) { return same_turn(v, e.to); },
      [&](checker::StateId v, const checker::Edge&) { return !finishes[v]; }};
  std::vector<bool> cyclic(n, false);
  for (const auto& keep : subgraphs) {
    // Iterative Tarjan.
    constexpr std::uint64_t none = ~std::uint64_t{0};
    std::vector<std::uint64_t> index(n, none), low(n, 0);
    std::vector<bool> on_stack(n, false);
    std::vector<checker::StateId> stack;
    std::vector<std::pair<checker::StateId, std::size_t>> calls;
    std::uint64_t next = 0;
    for (checker::StateId root = 0; root < n; ++root) {
      if (index[root] != none) continue;
      calls.emplace_back(root, 0);
      index[root] = low[root] = next++;
      stack.push_back(root);
      on_stack[root] = true;
      while (!calls.empty()) {
        auto& [v, i] = calls.back();
        if (i < out[v].size()) {
          const checker::Edge& e = out[v][i++];
          if (!keep(v, e)) continue;
          const checker::StateId w = e.to;
          if (index[w] == none) {
            index[w] = low[w] = next++;
            stack.push_back(w);
            on_stack[w] = true;
            calls.emplace_back(w, 0);
          } else if (on_stack[w]) {
            low[v] = std::min(low[v], index[w]);
          }
          continue;
        }
        const checker::StateId done = v;
        calls.pop_back();
        if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[done]);
        if (low[done] != index[done]) continue;
        std::vector<checker::StateId> members;
        checker::StateId w = checker::no_state;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          members.push_back(w);
        } while (w != done);
        bool loop = members.size() > 1;
        for (const auto& e : out[done]) loop = loop || (e.to == done && keep(done, e));
        if (loop) {
          for (const checker::StateId m : members) cyclic[m] = true;
        }
      }
    }
  }
  return static_cast<std::uint64_t>(std::count(cyclic.begin(), cyclic.end(), true));
}

// What must agree of a finding: kind, rule, location, verdict, message,
// details and the trace's length (traces of equal length may differ in
// their moves).
std::vector<std::string> summaries(const std::vector<properties::Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) {
    std::string line = std::to_string(static_cast<int>(f.kind)) + " " + f.rule + " " +
                       std::to_string(f.where.line) + ":" + std::to_string(f.where.col) + " " +
                       std::to_string(static_cast<int>(f.verdict)) + " " + f.message + " |";
    for (const auto& d : f.details) line += " " + d;
    line += " | " + std::to_string(f.trace ? f.trace->size() : 0);
    // The severity, and the rule gap a finding is a consequence of.
    line += " | " + std::to_string(static_cast<int>(f.severity));
    if (!f.caused_by.empty()) line += " follows from " + f.caused_by;
    // The classification of a loop, and the trace itself (the distributed
    // search numbers states and picks parents as the single-process one
    // does, so its traces are the same moves).
    line += " | " + std::to_string(static_cast<int>(f.loop)) + " " + std::to_string(f.loop_player);
    if (f.forced_by) {
      line += " forced by";
      for (const auto c : *f.forced_by) line += " " + std::to_string(c);
    }
    if (f.trace) {
      line += " | loop at " + std::to_string(f.trace->loop_start) + ":";
      for (const auto& step : f.trace->steps) line += " " + std::to_string(step.successor);
    }
    out.push_back(std::move(line));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// How many cycle findings the comparisons saw (so that a suite where none
// had any would show).
std::size_t cycle_findings_seen = 0;
std::size_t ends_findings_seen = 0;   // of them ends out of reach
std::size_t ends_causes_seen = 0;     // with a rule gap as cause (the forward search)
std::size_t leads_to_seen = 0;        // leads_to violations
std::size_t leads_to_stuck_seen = 0;  // of them at a dead end (not a cycle)
// States OWCTY left between cycles, not gathered (so that a suite where the
// SCC split had nothing to remove would show).
std::uint64_t between_cycles_seen = 0;
// States of cyclic components no finding shows, not gathered.
std::uint64_t not_shown_seen = 0;

std::vector<properties::LoopSummary> summaries_of(const std::vector<ComponentSummary>& all) {
  std::vector<properties::LoopSummary> out;
  for (const auto& c : all) out.push_back({c.subgraph, c.entry, c.num, c.words});
  return out;
}

void compare(const std::string& path, const std::map<std::string, std::int64_t>& params,
             std::size_t threads = 1) {
  const auto l = test_support::load_game(path, {.params = params, .with_semantics = true});
  ASSERT_TRUE(l->game) << l->diagnostics();
  const checker::Semantics& sem = *l->sem;
  Options options;
  options.batch = 64;  // many rounds a level, even on the fixtures
  // Many messages a round, and ranks that wait for a send slot (receiving
  // meanwhile), even on the fixtures.
  options.message_states = 5;
  options.in_flight = 2;
  options.threads = threads;
  options.thread_questions = [&sem] {
    std::vector<StateQuestion> copy;
    for (auto& q : properties::state_questions(sem)) copy.push_back(std::move(q));
    return copy;
  };
  const auto questions = properties::state_questions(sem);
  for (const auto& q : questions) options.questions.push_back(q);
  options.traced.assign(properties::state_question_traced.begin(),
                        properties::state_question_traced.end());
  options.cycles = true;
  options.endings = properties::ends_by_statement(sem.game());
  options.marks = [&sem, holding = std::vector<std::pair<int, int>>()](
                      const checker::StateVec& s, const checker::Ending& e) mutable {
    return properties::outcome_marks(sem, s, e, holding);
  };
  options.end_marks = [&sem, holding = std::vector<std::pair<int, int>>()](
                          const checker::StateVec& s, const checker::Ending& e) mutable {
    return properties::end_marks(sem, s, e, holding);
  };
  for (const auto& p : sem.game().properties) {
    if (p.kind == model::Property::Kind::leads_to) ++options.leads_count;
  }
  if (options.leads_count > 0) options.leads_marks = properties::leads_to_marks(sem);
  // The components summarised on their ranks, only those shown gathered
  // (as `check` under mpirun runs it).
  options.summarize = [](const checker::ExploredGraph& slice, std::vector<bool> can_finish,
                         const std::vector<std::uint8_t>& designated) {
    std::vector<ComponentSummary> out;
    for (auto& s : properties::loop_summaries(slice, std::move(can_finish), designated)) {
      out.push_back({s.analysis, s.entry, 0, std::move(s.words), 0});
    }
    return out;
  };
  options.choose = [](const std::vector<ComponentSummary>& all) {
    std::vector<std::size_t> chosen;
    (void)properties::loop_counts(summaries_of(all), 3, &chosen);
    return chosen;
  };
  const Result r = explore(sem, MPI_COMM_WORLD, options);
  EXPECT_EQ(r.completion, checker::Completion::complete);
  if (rank() != 0) return;
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ASSERT_EQ(r.ranks, size);
  ASSERT_EQ(r.per_rank.size(), static_cast<std::size_t>(size));
  ASSERT_EQ(r.answers.size(), questions.size());

  // (The distributed search stores every state: no symmetry reduction.)
  checker::ExplicitOptions one_process;
  one_process.symmetry = false;
  const auto g = checker::explore(sem, one_process);
  const checker::Statistics& st = g->statistics();
  EXPECT_EQ(r.states, st.states) << path;
  EXPECT_EQ(r.transitions, st.transitions) << path;
  EXPECT_EQ(r.depth, st.depth) << path;
  std::uint64_t owned = 0;
  for (const RankFigures& f : r.per_rank) owned += f.states;
  EXPECT_EQ(owned, r.states);
  // Successors went to other ranks as they were generated, in messages of
  // at most message_states states (a round's all-to-all would send all of
  // a round's successors for a rank in one): parent, key, label and the
  // packed state each.
  const std::uint64_t record = (checker::StateCodec(sem.layout()).words() + 3) * 8;
  std::uint64_t largest = 0;
  for (const RankFigures& f : r.per_rank) largest = std::max(largest, f.largest_message);
  EXPECT_LE(largest, options.message_states * record) << path;
  if (size > 1 && r.states >= 800) {  // (the seeds, the larger fixtures)
    EXPECT_EQ(largest, options.message_states * record) << path;
  }

  // Every traced group's trace replays, is as long as the group's
  // shallowest depth, and ends in a state with the group's key.
  std::vector<std::map<GroupKey, properties::StateGroup>> groups(questions.size());
  for (std::size_t q = 0; q < questions.size(); ++q) {
    for (const auto& [key, group] : r.answers[q]) {
      if (!properties::state_question_traced[q]) {
        EXPECT_FALSE(group.trace) << path;
        groups[q][key] = {group.states, {}};
        continue;
      }
      ASSERT_TRUE(group.trace) << path;
      EXPECT_EQ(group.trace->size(), group.depth) << path;
      const auto replay = sem.replay(*group.trace);
      ASSERT_TRUE(replay.ok) << replay.error;
      std::vector<checker::Successor> succ;
      sem.successors(replay.states.back(), succ);
      std::vector<checker::MoveFields> moves;
      for (const auto& m : succ) {
        moves.push_back({m.kind, m.player, m.ref, m.chooser, m.chooser_player, m.progress});
      }
      std::vector<GroupKey> keys;
      questions[q](replay.states.back(), moves, keys);
      EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << path << " question " << q;
      groups[q][key] = {group.states, *group.trace};
    }
  }
  // The deadlock and gap groups are the single-process graph's.
  const Expected e = groups_of(*g);
  ASSERT_EQ(r.answers[0].size(), e.deadlocks.size()) << path;
  for (const auto& [key, group] : r.answers[0]) {
    ASSERT_TRUE(e.deadlocks.contains(key)) << path;
    EXPECT_EQ(group.states, e.deadlocks.at(key).first) << path;
    EXPECT_EQ(group.depth, e.deadlocks.at(key).second) << path;
  }
  ASSERT_EQ(r.answers[1].size(), e.gaps.size()) << path;
  for (const auto& [key, group] : r.answers[1]) {
    ASSERT_TRUE(e.gaps.contains(key)) << path;
    EXPECT_EQ(group.states, e.gaps.at(key).first) << path;
    EXPECT_EQ(group.depth, e.gaps.at(key).second) << path;
  }
  // The findings built from the groups are those check_all reports on the
  // single-process graph: deadlocks, rule gaps, ties, unreachable wins, the
  // always/never/reachable properties and dead rules.
  const std::vector<properties::Finding> mine =
      properties::state_findings(sem, groups, true, false, r.states, "", "explicit");
  std::set<std::string> paths_only;  // leads_to: a question about paths
  for (const auto& p : l->game->properties) {
    if (p.kind == model::Property::Kind::leads_to) paths_only.insert("property:" + p.name);
  }
  std::vector<properties::Finding> theirs;
  for (const properties::Kind k :
       {properties::Kind::deadlock, properties::Kind::rule_gap, properties::Kind::unreachable_win,
        properties::Kind::property_violation, properties::Kind::dead_rule}) {
    for (auto& f : properties::check_all(*g, properties::CheckSelection::only(k))) {
      if ((f.kind == k || f.kind == properties::Kind::tie) && !paths_only.contains(f.rule)) {
        theirs.push_back(std::move(f));
      }
    }
  }
  EXPECT_EQ(summaries(mine), summaries(theirs)) << path;

  // The cycle analyses on the gathered slice: the response loops (with
  // stalls), turn loops and stalemates check_all reports, classification,
  // forcing coalitions and lassos included. The slice holds the states of
  // the cyclic components (split from what OWCTY leaves on the ranks:
  // exactly those of the single-process graph, none between cycles), the
  // states their moves lead to and the parent chains, never more than the
  // whole graph.
  ASSERT_TRUE(r.slice) << path;
  EXPECT_LE(r.slice->size(), r.states) << path;
  EXPECT_EQ(r.cyclic_states, cyclic_states_of(*g)) << path;
  EXPECT_LE(r.cyclic_states, r.core_states) << path;
  EXPECT_LE(r.shown_states, r.cyclic_states) << path;
  EXPECT_LE(r.shown_states, r.slice->size()) << path;
  ASSERT_EQ(r.designated.size(), r.slice->size()) << path;
  between_cycles_seen += r.core_states - r.cyclic_states;
  not_shown_seen += r.cyclic_states - r.shown_states;
  const properties::LoopCounts counts = properties::loop_counts(summaries_of(r.summaries), 3);
  // Ends out of reach too (cannot lose, cannot end), on the same slice told
  // the whole graph's answers: the same state, severity, details, trace
  // moves and the rule gap each is a consequence of.
  const properties::EndsReach ends{r.can_end, r.endless,       r.can_lose,
                                   r.can_win, r.start_can_end, r.start_can_lose};
  // With the rule gaps (state_findings'), under which a finding that
  // follows from one is listed, as check_all lists it among the gaps.
  std::vector<properties::Finding> gap_findings;
  for (const auto& f : mine) {
    if (f.kind == properties::Kind::rule_gap) gap_findings.push_back(f);
  }
  const std::vector<properties::Finding> cycles =
      properties::cycle_findings(*r.slice, r.can_finish, r.doomed, r.overflows, 3, &ends,
                                 gap_findings, &counts, &r.designated);
  std::vector<properties::Finding> expected;
  properties::CheckSelection selection =
      properties::CheckSelection::only(properties::Kind::response_loop);
  selection.stalemates = true;
  selection.rule_gaps = true;
  for (auto& f : properties::check_all(*g, selection)) {
    if (f.kind == properties::Kind::response_loop || f.kind == properties::Kind::stall ||
        f.kind == properties::Kind::turn_loop || f.kind == properties::Kind::stalemate ||
        f.kind == properties::Kind::unbounded_chain || f.kind == properties::Kind::cannot_lose ||
        f.kind == properties::Kind::cannot_end || f.kind == properties::Kind::rule_gap) {
      expected.push_back(std::move(f));
    }
  }
  EXPECT_EQ(summaries(cycles), summaries(expected)) << path;
  cycle_findings_seen += cycles.size();
  for (const auto& f : cycles) {
    if (f.kind == properties::Kind::cannot_lose || f.kind == properties::Kind::cannot_end) {
      ++ends_findings_seen;
      if (!f.caused_by.empty()) ++ends_causes_seen;
    }
  }

  // leads_to on the same slice: the violations check_all reports (message,
  // the `from` state, trace moves, loop start); one that holds gives none.
  if (paths_only.empty()) return;
  ASSERT_EQ(r.leads_bad.size(), paths_only.size()) << path;
  ASSERT_EQ(r.leads_bits.size(), r.slice->size()) << path;
  std::vector<properties::Finding> leads_expected;
  for (auto& f : properties::check_all(
           *g, properties::CheckSelection::only(properties::Kind::property_violation))) {
    if (paths_only.contains(f.rule)) leads_expected.push_back(std::move(f));
  }
  const auto leads = properties::leads_to_findings(*r.slice, r.leads_bits, r.leads_bad);
  EXPECT_EQ(summaries(leads), summaries(leads_expected)) << path;
  leads_to_seen += leads.size();
  for (const auto& f : leads) {
    if (f.message.find("get stuck") != std::string::npos) ++leads_to_stuck_seen;
  }
}

class Fixture : public ::testing::TestWithParam<std::string> {};

TEST_P(Fixture, SameAnswersAsOneProcess) { compare(GetParam(), {}); }

INSTANTIATE_TEST_SUITE_P(Agreement, Fixture,
                         ::testing::ValuesIn(smt::testing::agreement_fixtures()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return smt::testing::fixture_test_name(info.param);
                         });

// The seeds at the reduced scopes of the one-step SMT test (806..11,027
// states), every card kind's copies pinned (the defaults may grow).
TEST(Seeds, SameAnswersAsOneProcess) {
  const std::string root = std::string(LOOPHOLE_SOURCE_DIR) + "/rulesets/";
  compare(root + "containment.yaml", {{"hand_target", 1},
                                      {"item_copies", 0},
                                      {"opportunity_copies", 0},
                                      {"personnel_copies", 0},
                                      {"anomaly_copies", 1},
                                      {"event_copies", 0}});
  compare(root + "cosmere.yaml",
          {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 1}, {"ace_copies", 0}});
  compare(root + "operators.yaml", {{"item_copies", 0},
                                    {"effect_copies", 0},
                                    {"strategy_copies", 1},
                                    {"attack_copies", 0},
                                    {"defence_copies", 0},
                                    {"opening_hand", 0}});
  compare(root + "speed-biomes.yaml", {{"gear_copies", 0},
                                       {"opening_hand", 1},
                                       {"agent_copies", 1},
                                       {"tactic_copies", 1},
                                       {"anomaly_copies", 0}});
}

// Three threads a rank (the rank's own and two more, claiming the states
// of a round in chunks): the same graph, groups, findings and trace moves
// as one process, whichever thread expanded which state; and the cyclic
// components summarised in three groups a rank, one a thread (ward-duel:
// 3 components; charges-run-out and self-answer: 9 each, of which rank 0
// gathers those a finding shows).
TEST(Threads, SameAnswersAsOneProcess) {
  const std::string root = std::string(LOOPHOLE_SOURCE_DIR) + "/rulesets/";
  const std::string findings = std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/";
  compare(root + "operators.yaml",
          {{"item_copies", 0},
           {"effect_copies", 0},
           {"strategy_copies", 1},
           {"attack_copies", 0},
           {"defence_copies", 0},
           {"opening_hand", 0}},
          3);
  compare(findings + "response-loop/ward-duel.yaml", {}, 3);
  compare(findings + "response-loop/charges-run-out.yaml", {}, 3);
  compare(findings + "unbounded-chain/self-answer.yaml", {}, 3);
}

// leads_to failing at a dead end (property-violation/alarm fails on a
// cycle), a second leads_to property that holds beside it.
TEST(LeadsTo, StuckSameAsOneProcess) {
  compare(std::string(LOOPHOLE_SOURCE_DIR) + "/tests/distributed/fixtures/leads-to-stuck.yaml", {});
}

// operators at the one-step SMT test's scope (806 states), every card
// kind's copies pinned: the limits tests' game.
std::unique_ptr<test_support::LoadedGame> small_operators() {
  return test_support::load_game(std::string(LOOPHOLE_SOURCE_DIR) + "/rulesets/operators.yaml",
                                 {.params = {{"item_copies", 0},
                                             {"effect_copies", 0},
                                             {"strategy_copies", 1},
                                             {"attack_copies", 0},
                                             {"defence_copies", 0},
                                             {"opening_hand", 0}},
                                  .with_semantics = true});
}

// A state limit stops every rank at the same round, with what was explored.
TEST(Limits, StateLimitStopsEveryRank) {
  const auto l = small_operators();
  ASSERT_TRUE(l->game) << l->diagnostics();
  Options options;
  options.max_states = 200;
  options.batch = 16;
  const Result r = explore(*l->sem, MPI_COMM_WORLD, options);
  EXPECT_EQ(r.completion, checker::Completion::state_limit);
  EXPECT_GT(r.states, 200U);
  EXPECT_LT(r.states, 806U);
}

// An interrupt on one rank (a signal) stops every rank at the same round.
TEST(Limits, InterruptOnOneRankStopsEveryRank) {
  const auto l = small_operators();
  ASSERT_TRUE(l->game) << l->diagnostics();
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::atomic<bool> interrupt{rank() == size - 1};
  Options options;
  options.batch = 16;
  options.interrupt = &interrupt;
  const Result r = explore(*l->sem, MPI_COMM_WORLD, options);
  EXPECT_EQ(r.completion, checker::Completion::interrupted);
  // One round: the initial state and its successors, no more.
  EXPECT_LT(r.states, 20U);
  EXPECT_GE(r.states, 1U);
}

// After every test: the fixtures of the cycle kinds did give cycle
// findings to compare (unless a filter left them out).
class CycleFindingsCompared : public ::testing::Environment {
 public:
  void TearDown() override {
    const std::string filter = ::testing::GTEST_FLAG(filter);
    if (rank() != 0 || (!filter.empty() && filter != "*")) return;
    std::printf(
        "cycle findings compared: %zu (ends out of reach %zu, %zu caused by a gap), "
        "leads_to violations %zu (%zu stuck); not gathered: %llu states between cycles, %llu "
        "of cyclic components no finding shows\n",
        cycle_findings_seen, ends_findings_seen, ends_causes_seen, leads_to_seen,
        leads_to_stuck_seen, static_cast<unsigned long long>(between_cycles_seen),
        static_cast<unsigned long long>(not_shown_seen));
    EXPECT_GE(between_cycles_seen, 1U);
    EXPECT_GE(not_shown_seen, 1U);
    EXPECT_GE(leads_to_seen, 2U);
    EXPECT_GE(leads_to_stuck_seen, 1U);
    EXPECT_GE(cycle_findings_seen, 20U);
    EXPECT_GE(ends_findings_seen, 1U);
    EXPECT_GE(ends_causes_seen, 1U);
  }
};

// An interrupt during the cycle phase (here: while the last rank marks
// its final states) ends the run as interrupted on every rank, with the
// search's counts and no slice (the cycle analyses are then not checked).
TEST(Limits, InterruptInTheCyclePhaseStopsEveryRank) {
  const auto l = small_operators();
  ASSERT_TRUE(l->game) << l->diagnostics();
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::atomic<bool> interrupt{false};
  Options options;
  options.interrupt = &interrupt;
  options.cycles = true;
  options.marks = [&](const checker::StateVec&, const checker::Ending&) {
    if (rank() == size - 1) interrupt.store(true);
    return 0U;
  };
  const Result r = explore(*l->sem, MPI_COMM_WORLD, options);
  EXPECT_EQ(r.completion, checker::Completion::interrupted);
  EXPECT_EQ(r.states, 806U);  // the whole search ran
  EXPECT_FALSE(r.slice);
}

}  // namespace
}  // namespace loophole::distributed

int main(int argc, char** argv) {
  // (Options::threads: only the calling thread calls MPI.)
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new loophole::distributed::CycleFindingsCompared);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    // One report: rank 0's (the others' results are collective anyway).
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
