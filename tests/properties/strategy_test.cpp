// Who can force what (properties/strategy.hpp) on fixtures with known
// answers: a race P1 can force and P2 cannot, a draw nobody can force, a
// stall a doomed player can force, a win only both players together can
// force, a coin flip won almost surely with a fair coin and never against
// adversarial nature. Every witness strategy is replayed on the reference
// semantics against every reply of the others and of nature: a win
// strategy reaches a win for its coalition on every branch, within its
// rank; an endless one never reaches an end; and the decision tree the
// report prints holds exactly the strategy's move and every reply.
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

Solved solve(const std::string& path, Nature nature = Nature::adversarial) {
  Solved s;
  s.loaded = test_support::load_game(path, {.with_semantics = true});
  EXPECT_TRUE(s.loaded->game) << s.loaded->diagnostics();
  checker::ExplicitOptions o;
  o.threads = 1;
  s.graph = checker::explore(*s.loaded->sem, o);
  s.analysis = analyse_strategies(*s.graph, nature);
  for (checker::StateId v = 0; v < s.graph->size(); ++v) s.ids[s.graph->state(v)] = v;
  return s;
}

// The successors of `state` the strategy of coalition c allows at it: all
// of them where c does not choose; where c does, the outcomes of the chosen
// move (all, or the chosen one where c picks the outcome too).
std::vector<std::size_t> allowed(const Solved& s, checker::StateId v, std::uint32_t c,
                                 std::int32_t chosen, std::size_t count) {
  std::vector<std::size_t> out;
  const auto& a = s.analysis;
  for (std::size_t i = 0; i < count; ++i) {
    if (!a.chooses(v, c)) {
      out.push_back(i);
      continue;
    }
    EXPECT_NE(chosen, no_move) << "no move where the coalition chooses";
    const auto m = a.move(v, i);
    if (m != a.move(v, static_cast<std::size_t>(chosen))) continue;
    if (a.picks(v, m, c) && i != static_cast<std::size_t>(chosen)) continue;
    out.push_back(i);
  }
  return out;
}

bool in(std::uint32_t c, int player) {
  return player >= 0 && ((c >> static_cast<unsigned>(player)) & 1U) != 0;
}

// The winner of a final successor (two players: a loss names the other).
int winner_of(const checker::Successor& x) {
  if (x.end_player < 0) return -1;
  return x.end_win ? x.end_player : 1 - x.end_player;
}

// Replays coalition k's win strategy from every initial state against
// every reply: every branch ends in a win for a member, and ranks fall by
// at least one a move.
void replay_win(const Solved& s, std::size_t k) {
  const auto& sem = *s.loaded->sem;
  const auto& st = s.analysis.coalitions[k];
  const std::uint32_t c = st.members;
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
    for (const std::size_t i : allowed(s, v, c, st.win_move[v], next.size())) {
      const auto& x = next[i];
      if (sem.is_final(x.state)) {
        ASSERT_GE(x.end_player, 0) << "a branch ends without a winner: " << sem.where(state);
        ASSERT_TRUE(in(c, winner_of(x))) << sem.where(state);
        ++wins;
        continue;
      }
      todo.emplace_back(x.state, st.win_rank[v]);
    }
  }
  EXPECT_GT(wins, 0u);
}

// Replays coalition k's endless strategy: every reachable state stays in
// the region, is not final and has a move (a search over the states it
// reaches).
void replay_endless(const Solved& s, std::size_t k) {
  const auto& sem = *s.loaded->sem;
  const auto& st = s.analysis.coalitions[k];
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
    for (const std::size_t i : allowed(s, v, st.members, st.endless_move[v], next.size())) {
      todo.push_back(next[i].state);
    }
  }
  EXPECT_GT(seen.size(), 1u);
}

// race.yaml: whoever gains every turn reaches 3 first, and P1 moves first.
TEST(Strategy, P1CanForceTheRace) {
  const Solved s = solve("tests/fixtures/simulate/race.yaml");
  // P1, P2, then both.
  ASSERT_EQ(s.analysis.coalitions.size(), 3u);
  EXPECT_EQ(s.analysis.coalitions[2].members, 3u);
  EXPECT_TRUE(s.analysis.coalitions[0].win_from_start);
  EXPECT_FALSE(s.analysis.coalitions[1].win_from_start);
  // By its one end condition, not by an effect (it has none).
  EXPECT_EQ(s.analysis.coalitions[0].win_by_condition_from_start, (std::vector<bool>{false, true}));
  EXPECT_EQ(s.analysis.coalitions[1].win_by_condition_from_start,
            (std::vector<bool>{false, false}));
  replay_win(s, 0);
  // P1 forces a win in at most 5 own gains and the moves between: the rank
  // is the longest branch.
  EXPECT_GT(s.analysis.coalitions[0].win_rank[0], 5u);
}

// biased.yaml: a blue card (nature) beats P1's claim, and P2 has no choice.
TEST(Strategy, NobodyCanForceTheDraw) {
  const Solved s = solve("tests/fixtures/simulate/biased.yaml");
  for (std::size_t p = 0; p < 2; ++p) {
    EXPECT_FALSE(s.analysis.coalitions[p].win_from_start);
    EXPECT_FALSE(s.analysis.coalitions[p].endless_from_start);
  }
  // Every end names a winner, so both together win whatever is drawn.
  EXPECT_TRUE(s.analysis.coalitions[2].win_from_start);
  replay_win(s, 2);
  // After a red draw P1 can force the win: claim.
  bool red = false;
  for (checker::StateId v = 0; v < s.graph->size(); ++v) {
    if (s.analysis.owns(v, 1U) && s.analysis.coalitions[0].win[v]) red = true;
  }
  EXPECT_TRUE(red);
}

// doomed-turn.yaml: P1 loses when the first turn is cleaned up, unless P1
// keeps pondering forever: P1 can stall, nobody can force a win.
TEST(Strategy, TheDoomedPlayerCanStall) {
  const Solved s = solve("tests/fixtures/findings/stall/doomed-turn.yaml");
  const auto& p1 = s.analysis.coalitions[0];
  const auto& p2 = s.analysis.coalitions[1];
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
    EXPECT_TRUE(s.analysis.coalitions[static_cast<std::size_t>(p)].endless_from_start) << p;
    EXPECT_FALSE(s.analysis.coalitions[static_cast<std::size_t>(p)].win_from_start) << p;
    replay_endless(s, static_cast<std::size_t>(p));
  }
  // In race.yaml (no pass) nobody can: every turn someone acts.
  const Solved race = solve("tests/fixtures/simulate/race.yaml");
  for (std::size_t p = 0; p < 2; ++p) EXPECT_FALSE(race.analysis.coalitions[p].endless_from_start);
}

// race-pass.yaml: neither player alone can force a win (the other passes
// forever), but both together can: one of them gains.
TEST(Strategy, OnlyBothTogetherForceAWin) {
  const Solved s = solve("tests/fixtures/simulate/race-pass.yaml");
  ASSERT_EQ(s.analysis.coalitions.size(), 3u);
  EXPECT_FALSE(s.analysis.coalitions[0].win_from_start);
  EXPECT_FALSE(s.analysis.coalitions[1].win_from_start);
  EXPECT_TRUE(s.analysis.coalitions[2].win_from_start);
  EXPECT_TRUE(s.analysis.coalitions[2].endless_from_start);
  replay_win(s, 2);
  replay_endless(s, 2);
}

// bystander.yaml (3 players): every coalition, single players first, then
// by size; each player alone is struck or strikes in the end, but all
// three together can keep the game going forever (nobody strikes), which
// the replay checks. A lose effect names no winner with 3 players: no
// coalition wins.
TEST(Strategy, EveryCoalitionOfThreePlayers) {
  const Solved s = solve("tests/fixtures/findings/cannot-lose/bystander.yaml");
  std::vector<std::uint32_t> members;
  for (const auto& c : s.analysis.coalitions) members.push_back(c.members);
  EXPECT_EQ(members, (std::vector<std::uint32_t>{1, 2, 4, 3, 5, 6, 7}));
  for (std::size_t k = 0; k < 3; ++k) EXPECT_FALSE(s.analysis.coalitions[k].endless_from_start);
  for (const auto& c : s.analysis.coalitions) EXPECT_FALSE(c.win_from_start);
  EXPECT_TRUE(s.analysis.coalitions[6].endless_from_start);
  replay_endless(s, 6);
}

// coin.yaml: P1 flips until heads. Adversarial nature lands tails forever
// when P1 hopes for heads (and heads when P1 hopes the game goes on): P1
// can force neither; a fair coin lands heads with probability 1: P1 wins
// almost surely, P2 still cannot.
TEST(Strategy, AFairCoinWinsAlmostSurely) {
  const Solved adversarial = solve("tests/fixtures/strategy/coin.yaml");
  EXPECT_FALSE(adversarial.analysis.coalitions[0].win_from_start);
  EXPECT_FALSE(adversarial.analysis.coalitions[0].endless_from_start);
  EXPECT_FALSE(adversarial.analysis.coalitions[1].win_from_start);
  // From the states after a tails the same: only a fair coin wins.
  std::size_t adversarial_wins = 0;
  for (const bool w : adversarial.analysis.coalitions[0].win) adversarial_wins += w ? 1 : 0;
  EXPECT_EQ(adversarial_wins, 0u);
  const Solved fair = solve("tests/fixtures/strategy/coin.yaml", Nature::fair);
  EXPECT_EQ(fair.analysis.nature, Nature::fair);
  const auto& p1 = fair.analysis.coalitions[0];
  EXPECT_TRUE(p1.win_from_start);
  EXPECT_FALSE(fair.analysis.coalitions[1].win_from_start);
  EXPECT_FALSE(p1.endless_from_start);  // (keeping it going is the same game)
  // The almost-sure strategy, replayed against every reply: every state it
  // reaches is in the region, and the chosen move has an outcome that wins
  // or lowers the rank (so the win has positive probability from each).
  const auto& sem = *fair.loaded->sem;
  std::vector<checker::StateVec> todo = sem.initial_states();
  std::map<checker::StateVec, bool> seen;
  std::size_t won = 0;
  while (!todo.empty()) {
    const checker::StateVec state = todo.back();
    todo.pop_back();
    if (!seen.emplace(state, true).second) continue;
    const checker::StateId v = fair.ids.at(state);
    ASSERT_TRUE(p1.win[v]) << sem.where(state);
    std::vector<checker::Successor> next;
    sem.successors(state, next, true);
    bool closer = false;
    for (const std::size_t i : allowed(fair, v, 1U, p1.win_move[v], next.size())) {
      const auto& x = next[i];
      if (sem.is_final(x.state)) {
        ASSERT_EQ(winner_of(x), 0) << sem.where(state);
        closer = true;
        ++won;
        continue;
      }
      closer = closer || p1.win_rank[fair.ids.at(x.state)] < p1.win_rank[v];
      todo.push_back(x.state);
    }
    EXPECT_TRUE(closer) << sem.where(state);
  }
  EXPECT_GT(won, 0u);
  EXPECT_GT(seen.size(), 1u);
  // Gambling wins with probability 1/2 only: never the strategy's move.
  for (checker::StateId v = 0; v < fair.graph->size(); ++v) {
    if (p1.win_move[v] == no_move) continue;
    std::vector<checker::Successor> next;
    sem.successors(fair.graph->state(v), next);
    EXPECT_NE(next[static_cast<std::size_t>(p1.win_move[v])].ref, 0) << "gamble";
  }
}

// Replays a strategy tree on the reference semantics: the root is an
// initial state; at each node where the coalition chooses its children are
// exactly the outcomes of its move (the picked one where it picks), and
// elsewhere every successor; each child's state is the successor's; a
// leaf is a win for the coalition (win trees) or a state already on its
// branch (endless trees), never a loss; no branch has more of the
// coalition's moves than `bound`.
void replay_tree(const Solved& s, std::size_t k, bool win, std::uint32_t bound) {
  const auto& sem = *s.loaded->sem;
  const auto& st = s.analysis.coalitions[k];
  const StrategyTree tree = strategy_tree(*s.graph, s.analysis, k, win, 0, bound, 100000);
  ASSERT_FALSE(tree.cut);
  ASSERT_EQ(s.graph->state(tree.nodes[0].state), sem.initial_states()[0]);
  std::size_t leaves = 0;
  for (const auto& node : tree.nodes) {
    const checker::StateVec state = s.graph->state(node.state);
    EXPECT_LE(node.choices, bound);
    if (node.children.empty()) {
      ++leaves;
      if (win) {
        EXPECT_EQ(node.end, StrategyTree::End::win) << sem.where(state);
      } else {
        EXPECT_EQ(node.end, StrategyTree::End::repeat) << sem.where(state);
      }
      continue;
    }
    std::vector<checker::Successor> next;
    sem.successors(state, next, true);
    const auto expected =
        allowed(s, node.state, st.members,
                win ? st.win_move[node.state] : st.endless_move[node.state], next.size());
    ASSERT_EQ(expected.size(), node.children.size()) << sem.where(state);
    for (std::size_t j = 0; j < expected.size(); ++j) {
      const auto& child = tree.nodes[node.children[j]];
      EXPECT_EQ(expected[j], child.index);
      EXPECT_EQ(next[expected[j]].state, s.graph->state(child.state));
      if (child.end == StrategyTree::End::win) {
        EXPECT_TRUE(in(st.members, winner_of(next[expected[j]]))) << sem.where(state);
      }
    }
  }
  EXPECT_GT(leaves, 0u);
}

TEST(Strategy, TheDecisionTreesReplayAgainstEveryReply) {
  const Solved race = solve("tests/fixtures/simulate/race.yaml");
  // P1 gains 3 times and P2's 2 replies each branch: no branch needs more
  // than P1's own moves, at most the rank.
  replay_tree(race, 0, true, race.analysis.coalitions[0].win_rank[0]);
  const Solved biased = solve("tests/fixtures/simulate/biased.yaml");
  replay_tree(biased, 2, true, biased.analysis.coalitions[2].win_rank[0]);
  const Solved doomed = solve("tests/fixtures/findings/stall/doomed-turn.yaml");
  replay_tree(doomed, 0, false, 20);
  const Solved pass = solve("tests/fixtures/simulate/race-pass.yaml");
  replay_tree(pass, 2, true, pass.analysis.coalitions[2].win_rank[0]);
  // Bounded: a small cap cuts the tree and says so.
  const StrategyTree small = strategy_tree(*race.graph, race.analysis, 0, true, 0, 1, 100000);
  EXPECT_TRUE(small.cut);
  const StrategyTree few = strategy_tree(*race.graph, race.analysis, 0, true, 0, 100, 3);
  EXPECT_TRUE(few.cut);
  EXPECT_LE(few.nodes.size(), 3u);
}

}  // namespace
}  // namespace loophole::properties
