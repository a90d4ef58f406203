// Who can force what (properties/strategy.hpp) on fixtures with known
// answers: a race P1 can force and P2 cannot, a draw nobody can force, a
// stall a doomed player can force. Every witness strategy is replayed on
// the reference semantics against every reply of the others and of nature:
// a win strategy reaches a win for its player on every branch, within its
// rank; an endless one never reaches an end.
#include "loophole/properties/strategy.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"

#include "../common/loaded_game.hpp"

namespace loophole::properties {
namespace {

struct Solved {
  std::unique_ptr<test_support::LoadedGame> loaded;
  std::unique_ptr<checker::ExploredGraph> graph;
  StrategyAnalysis analysis;
  std::map<checker::StateVec, checker::StateId> ids;
};

Solved solve(const std::string& path) {
  Solved s;
  s.loaded = test_support::load_game(path, {.with_semantics = true});
  EXPECT_TRUE(s.loaded->game) << s.loaded->diagnostics();
  checker::ExplicitOptions o;
  o.threads = 1;
  s.graph = checker::explore(*s.loaded->sem, o);
  s.analysis = analyse_strategies(*s.graph);
  for (checker::StateId v = 0; v < s.graph->size(); ++v) s.ids[s.graph->state(v)] = v;
  return s;
}

// The successors of `state` the strategy of player p allows at it: all of
// them where p does not choose; where p does, the outcomes of the chosen
// move (all, or the chosen one where p picks the outcome too).
std::vector<std::size_t> allowed(const Solved& s, checker::StateId v, int p, std::int32_t chosen,
                                 std::size_t count) {
  std::vector<std::size_t> out;
  const auto& a = s.analysis;
  const auto& picker = a.picker[v];
  const bool chooses = a.owner[v] == p || (picker.size() == 1 && picker[0] == p);
  for (std::size_t i = 0; i < count; ++i) {
    if (!chooses) {
      out.push_back(i);
      continue;
    }
    EXPECT_NE(chosen, no_move) << "no move where the player chooses";
    const auto m = a.move_of[v][i];
    if (m != a.move_of[v][static_cast<std::size_t>(chosen)]) continue;
    if (picker[m] == p && i != static_cast<std::size_t>(chosen)) continue;
    out.push_back(i);
  }
  return out;
}

// Replays p's win strategy from every initial state against every reply:
// every branch ends in a win for p, and ranks fall by at least one a move.
void replay_win(const Solved& s, int p) {
  const auto& sem = *s.loaded->sem;
  const auto& st = s.analysis.players[static_cast<std::size_t>(p)];
  std::vector<std::pair<checker::StateVec, std::uint32_t>> todo;
  for (const auto& init : sem.initial_states()) todo.emplace_back(init, ~0u);
  std::size_t wins = 0;
  while (!todo.empty()) {
    auto [state, bound] = todo.back();
    todo.pop_back();
    const checker::StateId v = s.ids.at(state);
    ASSERT_TRUE(st.win[v]) << sem.where(state);
    ASSERT_LT(st.win_rank[v], bound) << sem.where(state);
    std::vector<checker::Successor> next;
    sem.successors(state, next, true);
    ASSERT_FALSE(next.empty());
    for (const std::size_t i : allowed(s, v, p, st.win_move[v], next.size())) {
      const auto& x = next[i];
      if (sem.is_final(x.state)) {
        ASSERT_GE(x.end_player, 0) << "a branch ends without a winner: " << sem.where(state);
        const int winner = x.end_win ? x.end_player : 1 - x.end_player;
        ASSERT_EQ(winner, p) << sem.where(state);
        ++wins;
        continue;
      }
      todo.emplace_back(x.state, st.win_rank[v]);
    }
  }
  EXPECT_GT(wins, 0u);
}

// Replays p's endless strategy: every reachable state stays in the region,
// is not final and has a move (a search over the states it reaches).
void replay_endless(const Solved& s, int p) {
  const auto& sem = *s.loaded->sem;
  const auto& st = s.analysis.players[static_cast<std::size_t>(p)];
  std::vector<checker::StateVec> todo = sem.initial_states();
  std::map<checker::StateVec, bool> seen;
  while (!todo.empty()) {
    const checker::StateVec state = todo.back();
    todo.pop_back();
    if (!seen.emplace(state, true).second) continue;
    ASSERT_FALSE(sem.is_final(state)) << sem.where(state);
    const checker::StateId v = s.ids.at(state);
    ASSERT_TRUE(st.endless[v]) << sem.where(state);
    std::vector<checker::Successor> next;
    sem.successors(state, next);
    ASSERT_FALSE(next.empty()) << "a dead end: " << sem.where(state);
    for (const std::size_t i : allowed(s, v, p, st.endless_move[v], next.size())) {
      todo.push_back(next[i].state);
    }
  }
  EXPECT_GT(seen.size(), 1u);
}

// race.yaml: whoever gains every turn reaches 3 first, and P1 moves first.
TEST(Strategy, P1CanForceTheRace) {
  const Solved s = solve("tests/fixtures/simulate/race.yaml");
  ASSERT_EQ(s.analysis.players.size(), 2u);
  EXPECT_TRUE(s.analysis.players[0].win_from_start);
  EXPECT_FALSE(s.analysis.players[1].win_from_start);
  // By its one end condition, not by an effect (it has none).
  EXPECT_EQ(s.analysis.players[0].win_by_condition_from_start, (std::vector<bool>{false, true}));
  EXPECT_EQ(s.analysis.players[1].win_by_condition_from_start, (std::vector<bool>{false, false}));
  replay_win(s, 0);
  // P1 forces a win in at most 5 own gains and the moves between: the rank
  // is the longest branch.
  EXPECT_GT(s.analysis.players[0].win_rank[0], 5u);
}

// biased.yaml: a blue card (nature) beats P1's claim, and P2 has no choice.
TEST(Strategy, NobodyCanForceTheDraw) {
  const Solved s = solve("tests/fixtures/simulate/biased.yaml");
  for (const auto& p : s.analysis.players) {
    EXPECT_FALSE(p.win_from_start);
    EXPECT_FALSE(p.endless_from_start);
  }
  // After a red draw P1 can force the win: claim.
  bool red = false;
  for (checker::StateId v = 0; v < s.graph->size(); ++v) {
    if (s.analysis.owner[v] == 0 && s.analysis.players[0].win[v]) red = true;
  }
  EXPECT_TRUE(red);
}

// doomed-turn.yaml: P1 loses when the first turn is cleaned up, unless P1
// keeps pondering forever: P1 can stall, nobody can force a win.
TEST(Strategy, TheDoomedPlayerCanStall) {
  const Solved s = solve("tests/fixtures/findings/stall/doomed-turn.yaml");
  const auto& p1 = s.analysis.players[0];
  const auto& p2 = s.analysis.players[1];
  EXPECT_TRUE(p1.endless_from_start);
  EXPECT_FALSE(p1.win_from_start);
  EXPECT_FALSE(p2.win_from_start);
  EXPECT_FALSE(p2.endless_from_start);
  replay_endless(s, 0);
  // Once P1 lets the turn go, P2 wins: a state where P2 can force the win.
  bool p2_wins_somewhere = false;
  for (checker::StateId v = 0; v < s.graph->size(); ++v) {
    p2_wins_somewhere = p2_wins_somewhere || p2.win[v];
  }
  EXPECT_TRUE(p2_wins_somewhere);
}

// race-pass.yaml: a pass keeps the window open, so each player alone can
// keep the game going on their own turn, and nobody can force a win.
TEST(Strategy, EachPlayerSustainsTheirOwnLoop) {
  const Solved s = solve("tests/fixtures/simulate/race-pass.yaml");
  for (int p = 0; p < 2; ++p) {
    EXPECT_TRUE(s.analysis.players[static_cast<std::size_t>(p)].endless_from_start) << p;
    EXPECT_FALSE(s.analysis.players[static_cast<std::size_t>(p)].win_from_start) << p;
    replay_endless(s, p);
  }
  // In race.yaml (no pass) nobody can: every turn someone acts.
  const Solved race = solve("tests/fixtures/simulate/race.yaml");
  for (const auto& p : race.analysis.players) EXPECT_FALSE(p.endless_from_start);
}

}  // namespace
}  // namespace loophole::properties
