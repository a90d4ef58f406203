// The reference semantics on tiny games built in code (tests/checker/
// game_builder.hpp): exact layouts, initial states, successor lists and
// reachable-state counts computed by hand (each explained where it is
// asserted), the three window protocols, triggers, draws, every kind of
// rule gap, game end, transcripts and replay.
#include "loophole/checker/semantics.hpp"

#include <algorithm>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/source.hpp"

#include "game_builder.hpp"

namespace loophole::checker {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): the builder vocabulary
using model::Protocol;
using model::Role;
using model::SequenceTurn;

// --- helpers -----------------------------------------------------------------

int field(const Semantics& sem, const std::string& name) {
  const auto& fields = sem.layout().fields;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) return static_cast<int>(i);
  }
  ADD_FAILURE() << "no field " << name;
  return 0;
}

// A state spelled out in full: every field 0 except those named.
StateVec state(const Semantics& sem, std::initializer_list<std::pair<std::string, int>> values) {
  StateVec s(sem.layout().fields.size(), 0);
  for (const auto& [name, v] : values) s[field(sem, name)] = v;
  return s;
}

std::vector<std::string> names(const Layout& l) {
  std::vector<std::string> out;
  for (const auto& f : l.fields) out.push_back(f.name);
  return out;
}

struct Counts {
  std::size_t states = 0, transitions = 0;
};

// Naive BFS over the semantics; also checks every state against the layout.
Counts explore(const Semantics& sem, std::size_t limit = 100000) {
  std::set<StateVec> seen;
  std::deque<StateVec> queue;
  for (auto& s : sem.initial_states()) {
    if (seen.insert(s).second) queue.push_back(s);
  }
  Counts c;
  std::vector<Successor> out;
  while (!queue.empty() && seen.size() < limit) {
    const StateVec s = queue.front();
    queue.pop_front();
    const auto& fields = sem.layout().fields;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      EXPECT_GE(s[i], fields[i].lo) << fields[i].name;
      EXPECT_LE(s[i], fields[i].hi) << fields[i].name;
    }
    sem.successors(s, out);
    c.transitions += out.size();
    for (const auto& succ : out) {
      if (seen.insert(succ.state).second) queue.push_back(succ.state);
    }
  }
  c.states = seen.size();
  return c;
}

// Every move of every reachable state, breadth-first: fn(state, successor,
// its index among the state's successors).
template <class Fn>
void for_each_move(const Semantics& sem, Fn fn) {
  std::set<StateVec> seen;
  std::deque<StateVec> queue;
  for (auto& s : sem.initial_states()) queue.push_back(s);
  std::vector<Successor> out;
  while (!queue.empty()) {
    const StateVec s = queue.front();
    queue.pop_front();
    if (!seen.insert(s).second) continue;
    sem.successors(s, out);
    for (std::size_t i = 0; i < out.size(); ++i) {
      fn(s, out[i], static_cast<std::uint32_t>(i));
      queue.push_back(out[i].state);
    }
  }
}

std::string moves(const Semantics& sem, const std::vector<Successor>& out) {
  static const char* kinds[] = {"start", "advance", "enter",   "effects", "action",
                                "pass",  "resolve", "trigger", "decline"};
  std::string text;
  for (const auto& s : out) {
    if (!text.empty()) text += ", ";
    text += kinds[static_cast<int>(s.kind)];
    if (s.ref >= 0) {
      const bool trigger = s.kind == MoveKind::trigger || s.kind == MoveKind::decline;
      text += " " + (trigger ? sem.game().triggers[s.ref].name : sem.game().actions[s.ref].name);
    }
    if (s.player >= 0) text += " P" + std::to_string(s.player + 1);
  }
  return text;
}

// Loads a ruleset from a file, or from `text` when given (kept in memory).
std::optional<model::Game> load(const std::string& path, const std::string& text = "") {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  if (!text.empty()) sources.add(path, text);
  auto g = model::load_game(path, {}, sources, sink);
  if (!g) ADD_FAILURE() << sink.render(sources);
  return g;
}

std::string fixture(const std::string& name) {
  return std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/semantics/" + name;
}

std::vector<Successor> successors(const Semantics& sem, const StateVec& s, bool choices = false) {
  std::vector<Successor> out;
  sem.successors(s, out, choices);
  return out;
}

// Follows `lines` from `s`, each the text of one successor without the data
// summary in parentheses (a rule gap's text keeps its parentheses when
// `keep_gaps`), and returns the state reached; a line no successor has is a
// test failure naming the successors there.
std::optional<StateVec> follow(const Semantics& sem, StateVec s,
                               const std::vector<std::string>& lines, bool keep_gaps = false) {
  std::vector<Successor> out;
  for (const auto& line : lines) {
    sem.successors(s, out);
    bool found = false;
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < out.size() && !found; ++i) {
      std::string text = sem.describe(s, out[i], static_cast<std::uint32_t>(i)).text;
      if (const auto at = text.find(" (");
          at != std::string::npos && !(keep_gaps && text.find("rule gap") != std::string::npos))
        text.resize(at);
      seen.push_back(text);
      if (text == line) {
        s = out[i].state;
        found = true;
      }
    }
    if (!found) {
      ADD_FAILURE() << "no move '" << line << "' among: " << ::testing::PrintToString(seen);
      return std::nullopt;
    }
  }
  return s;
}

// --- a counter: the plainest turn structure ----------------------------------

// One phase `main` with one step `only` whose `do` is x := min(2, x + 1).
model::Game counter_game() {
  GameBuilder b;
  const int x = b.var("x", 0, 2, 0);
  const int ph = b.phase("main");
  b.step(ph, "only", assign(var(x), builtin(Op::min, num(2), bin(Op::add, var(x), num(1)))));
  return b.finish();
}

TEST(Semantics, LayoutHasDataThenOnlyUsedControlFields) {
  const auto g = counter_game();
  Semantics sem(g);
  // No window, stack, trigger or limit: only the always-present control
  // fields, plus `gap` because the assignment is a gap site.
  EXPECT_EQ(names(sem.layout()), (std::vector<std::string>{"x", "ctl.over", "ctl.gap", "ctl.active",
                                                           "ctl.turn", "ctl.step", "ctl.stage"}));
  const auto& l = sem.layout();
  EXPECT_EQ(l.data_fields, 1u);
  EXPECT_EQ(l.over, 1);
  EXPECT_EQ(l.gap, 2);
  EXPECT_EQ(l.active, 3);
  EXPECT_EQ(l.turn, 4);
  EXPECT_EQ(l.step, 5);
  EXPECT_EQ(l.stage, 6);
  EXPECT_EQ(l.window_holder, -1);
  EXPECT_EQ(l.stack_size, -1);
  EXPECT_EQ(l.fields[4].lo, 1);
  EXPECT_EQ(l.fields[4].hi, 2);  // scope.turns defaults to 2
  ASSERT_EQ(sem.gaps().size(), 1u);
  EXPECT_EQ(sem.gaps()[0].kind, GapSite::Kind::range);
  EXPECT_EQ(sem.gaps()[0].rule, "step:main.only");
}

TEST(Semantics, CounterInitialStateAndSuccessors) {
  const auto g = counter_game();
  Semantics sem(g);
  const auto init = sem.initial_states();
  ASSERT_EQ(init.size(), 1u);
  EXPECT_EQ(init[0], (StateVec{0, 0, 0, 0, 1, 0, 0}));  // x=0, turn 1, stage start
  const auto out = successors(sem, init[0]);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, MoveKind::start);
  EXPECT_EQ(out[0].player, -1);
  EXPECT_TRUE(out[0].progress);
  EXPECT_EQ(out[0].chooser, Chooser::none);
  // Entering runs `do` and, without a window, goes to post (3).
  EXPECT_EQ(out[0].state, (StateVec{1, 0, 0, 0, 1, 0, 3}));
  const auto next = successors(sem, out[0].state);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].kind, MoveKind::advance);
  EXPECT_TRUE(next[0].progress);
  // A new turn: P2 active, turn 2, x saturates at 2.
  EXPECT_EQ(next[0].state, (StateVec{2, 0, 0, 1, 2, 0, 3}));
}

TEST(Semantics, CounterReachableStates) {
  const auto g = counter_game();
  Semantics sem(g);
  // start (x0 T1 P1) -> post x1 T1 P1 -> post x2 T2 P2 -> post x2 T2 P1 -> back
  // to post x2 T2 P2: 4 states, one move each.
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 4u);
  EXPECT_EQ(c.transitions, 4u);
}

// --- drawing ------------------------------------------------------------------

// Kinds a (2 copies) and b (1 copy); decks start with all copies; the only
// step draws 2 for the active player.
model::Game draw_game() {
  GameBuilder b;
  b.kind("a", 2);
  b.kind("b", 1);
  b.zone("deck", true, true);
  b.zone("hand");
  const int ph = b.phase("main");
  b.step(ph, "draw", draw(active(), num(2)));
  return b.finish();
}

TEST(Semantics, DrawOutcomesAreMultisetsInCanonicalOrder) {
  const auto g = draw_game();
  Semantics sem(g);
  EXPECT_EQ(
      names(sem.layout()),
      (std::vector<std::string>{"deck[P1].a", "deck[P1].b", "deck[P2].a", "deck[P2].b",
                                "hand[P1].a", "hand[P1].b", "hand[P2].a", "hand[P2].b", "ctl.over",
                                "ctl.gap", "ctl.active", "ctl.turn", "ctl.step", "ctl.stage"}));
  ASSERT_EQ(sem.gaps().size(), 2u);  // draw: empty deck, then overfull hand / negative count
  EXPECT_EQ(sem.gaps()[0].kind, GapSite::Kind::empty_zone);
  EXPECT_EQ(sem.gaps()[1].kind, GapSite::Kind::range);
  const auto init = sem.initial_states();
  ASSERT_EQ(init.size(), 1u);
  EXPECT_EQ(init[0], (StateVec{2, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}));
  const auto out = successors(sem, init[0], true);
  ASSERT_EQ(out.size(), 2u);
  // Counts (a, b) in lexicographic order: (1, 1) before (2, 0).
  EXPECT_EQ(out[0].state, (StateVec{1, 0, 2, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 3}));
  EXPECT_EQ(out[1].state, (StateVec{0, 1, 2, 1, 2, 0, 0, 0, 0, 0, 0, 1, 0, 3}));
  for (const auto& s : out) {
    EXPECT_EQ(s.kind, MoveKind::start);
    EXPECT_EQ(s.chooser, Chooser::nature);
    EXPECT_TRUE(s.progress);
    ASSERT_EQ(s.choices.size(), 1u);
    EXPECT_EQ(s.choices[0].by, Choice::By::nature);
  }
  EXPECT_EQ(out[0].choices[0].text, "drew 'a', 'b'");
  EXPECT_EQ(out[1].choices[0].text, "drew 'a' ×2");
  EXPECT_EQ(out[0].notes, (std::vector<std::string>{"P1 draws 'a', 'b'"}));
  EXPECT_EQ(out[1].notes, (std::vector<std::string>{"P1 draws 'a' ×2"}));
}

TEST(Semantics, DrawGameReachableStatesEndInEmptyDeckGaps) {
  const auto g = draw_game();
  Semantics sem(g);
  // initial (1) -> P1 draws 2: 2 outcomes (2 states) -> P2 draws 2 in each:
  // 2 x 2 = 4 states -> P1 must draw 2 from a deck of 1: each of the 4 ends
  // in a gap state (the state before the move, over = 2, gap = 1).
  // States 1 + 2 + 4 + 4 = 11; moves 2 + 4 + 4 = 10.
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 11u);
  EXPECT_EQ(c.transitions, 10u);

  const StateVec b = {1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 2, 0, 3};  // both drew a+b, P2 active
  const auto out = successors(sem, b, true);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, MoveKind::advance);
  EXPECT_FALSE(out[0].progress);  // a gap state enters nothing
  StateVec gap = b;
  gap[sem.layout().over] = 2;
  gap[sem.layout().gap] = 1;
  EXPECT_EQ(out[0].state, gap);
  EXPECT_TRUE(sem.is_final(out[0].state));
  ASSERT_EQ(out[0].notes.size(), 1u);
  EXPECT_EQ(out[0].notes[0], "rule gap: draw from an empty deck: deck[P1] holds 1, 2 needed");
  EXPECT_TRUE(successors(sem, out[0].state).empty());
}

TEST(Semantics, ThreeKindDrawOrder) {
  GameBuilder b;
  b.kind("a", 1);
  b.kind("b", 2);
  b.kind("c", 1);
  b.zone("deck", true, true);
  b.zone("hand");
  b.step(b.phase("main"), "draw", draw(active(), num(2)));
  const auto g = b.finish();
  Semantics sem(g);
  const auto out = successors(sem, sem.initial_states()[0], true);
  std::vector<std::string> drawn;
  for (const auto& s : out) drawn.push_back(s.choices.at(0).text);
  // (a, b, c) counts summing to 2, lexicographic: (0,1,1) (0,2,0) (1,0,1) (1,1,0).
  EXPECT_EQ(drawn, (std::vector<std::string>{"drew 'b', 'c'", "drew 'b' ×2", "drew 'a', 'c'",
                                             "drew 'a', 'b'"}));
}

TEST(Semantics, NestedChoicesAreDepthFirstInStatementOrder) {
  // choose n in 1..2 do draw(active, n) end, deck {a, b}: n = 1 draws b or a
  // (b first: (0,1) < (1,0)), n = 2 draws both.
  GameBuilder b;
  b.kind("a", 1);
  b.kind("b", 1);
  b.zone("deck", true, true);
  b.zone("hand");
  b.step(b.phase("main"), "draw", choose(0, range(1, 2), nullptr, draw(active(), bound(0))));
  const auto g = b.finish();
  Semantics sem(g);
  const auto out = successors(sem, sem.initial_states()[0], true);
  ASSERT_EQ(out.size(), 3u);
  std::vector<std::string> path;
  for (const auto& s : out) {
    std::string p;
    for (const auto& c : s.choices) p += (p.empty() ? "" : " / ") + c.text;
    path.push_back(p);
    EXPECT_EQ(s.chooser, Chooser::nature);
  }
  EXPECT_EQ(path, (std::vector<std::string>{"chose 1 / drew 'b'", "chose 1 / drew 'a'",
                                            "chose 2 / drew 'a', 'b'"}));
}

// --- the priority protocol ------------------------------------------------------

// speeds 1 and 3; window `main`: active leads at 1 and answers at 3, the
// opponent only answers at 3. spark: active, speed 1, once per turn, no
// effect. ward: opponent, speed 3, once per window, negate(). Stack 2,
// turn_number stays 1.
model::Game priority_game() {
  GameBuilder b;
  auto& g = b.game();
  g.speeds = {1, 3};
  g.scope.stack = 2;
  g.scope.turns = 1;
  const int w = b.window("main", Protocol::priority,
                         {role(Role::active, {1}, {3}), role(Role::opponent, {}, {3})});
  auto& spark = b.action("spark", Role::active, 1);
  spark.limit.per_turn = 1;
  auto& ward = b.action("ward", Role::opponent, 3);
  ward.limit.per_window = 1;
  ward.effect = stmt(StmtKind::negate);
  b.step(b.phase("main"), "main", nullptr, w);
  return b.finish();
}

TEST(Semantics, PriorityLayout) {
  const auto g = priority_game();
  Semantics sem(g);
  EXPECT_EQ(
      names(sem.layout()),
      (std::vector<std::string>{
          "ctl.over", "ctl.gap", "ctl.active", "ctl.turn", "ctl.step", "ctl.stage", "ctl.holder",
          "ctl.passes", "ctl.stack_size", "ctl.stack[0].action", "ctl.stack[0].controller",
          "ctl.stack[1].action", "ctl.stack[1].controller", "ctl.uses[spark][P1]",
          "ctl.uses[spark][P2]", "ctl.window_uses[ward][P1]", "ctl.window_uses[ward][P2]"}));
  // Gap sites: pushing spark, pushing ward.
  ASSERT_EQ(sem.gaps().size(), 2u);
  EXPECT_EQ(sem.gaps()[0].kind, GapSite::Kind::stack_overflow);
  EXPECT_EQ(sem.gaps()[0].rule, "action:spark");
  EXPECT_EQ(sem.layout().window_holder, 6);
  EXPECT_EQ(sem.layout().stack_size, 8);
}

TEST(Semantics, PriorityActionsPassesAnswersAndResolution) {
  const auto g = priority_game();
  Semantics sem(g);
  auto st = [&](std::initializer_list<std::pair<std::string, int>> v) {
    StateVec s = state(sem, v);
    s[field(sem, "ctl.turn")] = 1;
    return s;
  };
  const auto init = sem.initial_states();
  ASSERT_EQ(init.size(), 1u);
  EXPECT_EQ(init[0], st({}));
  // start opens the window with P1 holding priority.
  const StateVec w0 = st({{"ctl.stage", 2}});
  auto out = successors(sem, init[0]);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].state, w0);

  // P1 may lead spark (speed 1) or pass.
  out = successors(sem, w0);
  EXPECT_EQ(moves(sem, out), "action spark P1, pass P1");
  const StateVec w1 = st({{"ctl.stage", 2},
                          {"ctl.holder", 1},
                          {"ctl.stack_size", 1},
                          {"ctl.uses[spark][P1]", 1}});  // stack[0] = (spark 0, P1 0)
  const StateVec w2 = st({{"ctl.stage", 2}, {"ctl.holder", 1}, {"ctl.passes", 1}});
  EXPECT_EQ(out[0].state, w1);
  EXPECT_EQ(out[1].state, w2);
  EXPECT_EQ(out[0].chooser, Chooser::player);
  EXPECT_EQ(out[0].chooser_player, 0);
  EXPECT_FALSE(out[0].progress);

  // P2 answers with ward (speed 3 is in the opponent's answers) or passes.
  out = successors(sem, w1);
  EXPECT_EQ(moves(sem, out), "action ward P2, pass P2");
  const StateVec w3 = st({{"ctl.stage", 2},
                          {"ctl.stack_size", 2},
                          {"ctl.stack[1].action", 1},
                          {"ctl.stack[1].controller", 1},
                          {"ctl.uses[spark][P1]", 1},
                          {"ctl.window_uses[ward][P2]", 1}});
  EXPECT_EQ(out[0].state, w3);
  EXPECT_EQ(
      out[1].state,
      st({{"ctl.stage", 2}, {"ctl.passes", 1}, {"ctl.stack_size", 1}, {"ctl.uses[spark][P1]", 1}}));

  // P1 cannot answer at speed 1; passes.
  out = successors(sem, w3);
  EXPECT_EQ(moves(sem, out), "pass P1");
  EXPECT_EQ(out[0].chooser, Chooser::none);
  const StateVec w5 = st({{"ctl.stage", 2},
                          {"ctl.holder", 1},
                          {"ctl.passes", 1},
                          {"ctl.stack_size", 2},
                          {"ctl.stack[1].action", 1},
                          {"ctl.stack[1].controller", 1},
                          {"ctl.uses[spark][P1]", 1},
                          {"ctl.window_uses[ward][P2]", 1}});
  EXPECT_EQ(out[0].state, w5);

  // Both passed in succession: ward resolves and negates spark below it;
  // priority returns to the active player.
  out = successors(sem, w5);
  EXPECT_EQ(moves(sem, out), "resolve ward P2");
  EXPECT_EQ(out[0].state,
            st({{"ctl.stage", 2}, {"ctl.uses[spark][P1]", 1}, {"ctl.window_uses[ward][P2]", 1}}));

  // With an empty stack, two passes close the window (window uses reset).
  out = successors(sem, w2);
  EXPECT_EQ(moves(sem, out), "pass P2");
  EXPECT_EQ(out[0].state, st({{"ctl.stage", 3}}));
}

TEST(Semantics, PriorityGameReachableStates) {
  const auto g = priority_game();
  Semantics sem(g);
  // Per active player A (O the other), from the window opening:
  //   W0 A holds            -> spark (W1) | pass (W2)
  //   W1 O holds, [spark]   -> ward (W3) | pass (W4)
  //   W2 O holds, 1 pass    -> pass: close (Post_a)
  //   W3 A holds, [spark ward] -> pass (W5)
  //   W4 A holds, 1 pass, [spark] -> pass: spark resolves (W7)
  //   W5 O holds, 1 pass    -> pass: ward resolves, negates spark (W6)
  //   W6 A holds, spark used, ward used -> pass (W8)
  //   W7 A holds, spark used -> pass (W9)
  //   W8, W9 O holds, 1 pass -> pass: close (Post_b: spark used this turn)
  //   Post_a, Post_b        -> advance: O's W0
  // 12 states and 14 moves per player, plus the initial state and its start
  // move: 25 states, 29 transitions.
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 25u);
  EXPECT_EQ(c.transitions, 29u);
}

TEST(Semantics, LeadIfActiveIdle) {
  GameBuilder b;
  auto& g = b.game();
  g.speeds = {1, 3};
  const int w = b.window("main", Protocol::priority,
                         {role(Role::active, {1, 3}, {3}), role(Role::opponent, {3}, {3}, true)});
  b.action("spark", Role::active, 1);
  b.action("quick", Role::any, 3);
  b.step(b.phase("main"), "main", nullptr, w);
  const auto game = b.finish();
  Semantics sem(game);
  ASSERT_GE(field(sem, "ctl.acted"), 0);
  auto st = [&](std::initializer_list<std::pair<std::string, int>> v) {
    StateVec s = state(sem, v);
    s[field(sem, "ctl.turn")] = 1;
    s[field(sem, "ctl.stage")] = 2;
    return s;
  };
  std::vector<int> enabled;
  sem.enabled_actions(st({}), enabled);
  EXPECT_EQ(enabled, (std::vector<int>{0, 1}));  // P1: spark and quick
  // P1 passed without acting: P2 may lead quick.
  sem.enabled_actions(st({{"ctl.holder", 1}, {"ctl.passes", 1}}), enabled);
  EXPECT_EQ(enabled, (std::vector<int>{1}));
  // P1 acted earlier in this window (its action resolved): P2 may not lead.
  sem.enabled_actions(st({{"ctl.holder", 1}, {"ctl.passes", 1}, {"ctl.acted", 1}}), enabled);
  EXPECT_TRUE(enabled.empty());
  // ... but may answer.
  sem.enabled_actions(st({{"ctl.holder", 1}, {"ctl.acted", 1}, {"ctl.stack_size", 1}}), enabled);
  EXPECT_EQ(enabled, (std::vector<int>{1}));
  // Taking spark marks `acted`.
  const auto out = successors(sem, st({}));
  ASSERT_EQ(moves(sem, out), "action spark P1, action quick P1, pass P1");
  EXPECT_EQ(out[0].state[field(sem, "ctl.acted")], 1);
}

TEST(Semantics, NonAnswerableActionResolvesAtOnce) {
  GameBuilder b;
  const int x = b.var("x", 0, 1, 0);
  const int w = b.window("main", Protocol::priority, {role(Role::each, {0}, {0})});
  auto& now = b.action("now", Role::active);
  now.answerable = false;
  now.effect = assign(var(x), num(1));
  now.guard = bin(Op::eq, var(x), num(0));
  b.step(b.phase("main"), "main", nullptr, w);
  const auto g = b.finish();
  Semantics sem(g);
  EXPECT_EQ(sem.layout().stack_size, -1);  // nothing is ever pushed: no stack fields
  StateVec s = state(sem, {{"ctl.turn", 1}, {"ctl.stage", 2}});
  const auto out = successors(sem, s);
  ASSERT_EQ(moves(sem, out), "action now P1, pass P1");
  // x := 1, holder stays with P1, passes reset.
  EXPECT_EQ(out[0].state, state(sem, {{"x", 1}, {"ctl.turn", 1}, {"ctl.stage", 2}}));
}

// --- alternate and sequence ------------------------------------------------------

// Each player has one token; `use` spends the user's token. Alternate window.
model::Game alternate_game() {
  GameBuilder b;
  const int tokens = b.var("tokens", 0, 1, 1, true);
  const int w = b.window("combat", Protocol::alternate, {}, false);
  auto& use = b.action("use", Role::any);
  use.guard = bin(Op::gt, var(tokens, self()), num(0));
  use.effect = assign(var(tokens, self()), num(0));
  b.step(b.phase("main"), "combat", nullptr, w);
  return b.finish();
}

TEST(Semantics, AlternateProtocol) {
  const auto g = alternate_game();
  Semantics sem(g);
  EXPECT_EQ(names(sem.layout()), (std::vector<std::string>{"tokens[P1]", "tokens[P2]", "ctl.over",
                                                           "ctl.gap", "ctl.active", "ctl.turn",
                                                           "ctl.step", "ctl.stage", "ctl.holder"}));
  auto out = successors(sem, sem.initial_states()[0]);
  ASSERT_EQ(out.size(), 1u);
  // Window open, P1 (active, has an action) to move: [t1 t1 | over gap active turn step stage
  // holder]
  EXPECT_EQ(out[0].state, (StateVec{1, 1, 0, 0, 0, 1, 0, 2, 0}));
  out = successors(sem, out[0].state);
  EXPECT_EQ(moves(sem, out), "action use P1");                     // no pass without may_pass
  EXPECT_EQ(out[0].state, (StateVec{0, 1, 0, 0, 0, 1, 0, 2, 1}));  // P2 next
  out = successors(sem, out[0].state);
  EXPECT_EQ(moves(sem, out), "action use P2");
  EXPECT_EQ(out[0].state, (StateVec{0, 0, 0, 0, 0, 1, 0, 3, 0}));  // nobody can act: closed
  // Next turn (P2 active): nobody has an action, the window closes at once.
  out = successors(sem, out[0].state);
  EXPECT_EQ(out[0].state, (StateVec{0, 0, 0, 0, 1, 2, 0, 3, 0}));

  // initial -> P1 to move -> P2 to move -> post T1 P1 -> post T2 P2 -> post
  // T2 P1 -> post T2 P2 again: 6 states, 6 moves.
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 6u);
  EXPECT_EQ(c.transitions, 6u);
}

TEST(Semantics, AlternateSkipsAPlayerWithoutActions) {
  GameBuilder b;
  const int tokens = b.var("tokens", 0, 1, 0, true);
  const int w = b.window("combat", Protocol::alternate, {}, true);
  auto& use = b.action("use", Role::any);
  use.guard = bin(Op::gt, var(tokens, self()), num(0));
  use.effect = assign(var(tokens, self()), num(0));
  b.step(b.phase("main"), "combat", nullptr, w);
  auto g = b.finish();
  g.slots[1].init = 1;  // only P2 starts with a token
  Semantics sem(g);
  auto out = successors(sem, sem.initial_states()[0]);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].state[sem.layout().window_holder], 1);  // P1 has nothing: P2 first
  out = successors(sem, out[0].state);
  EXPECT_EQ(moves(sem, out), "action use P2, pass P2");  // may_pass
}

// Sequence window [active, opponent, active_if_answered]; `play` once per
// window per player, no effect. turn_number stays 1.
model::Game sequence_game() {
  GameBuilder b;
  b.game().scope.turns = 1;
  const int w =
      b.window("strategy", Protocol::sequence, {}, true,
               {SequenceTurn::active, SequenceTurn::opponent, SequenceTurn::active_if_answered});
  b.action("play", Role::any).limit.per_window = 1;
  b.step(b.phase("main"), "strategy", nullptr, w);
  return b.finish();
}

TEST(Semantics, SequenceProtocol) {
  const auto g = sequence_game();
  Semantics sem(g);
  EXPECT_EQ(names(sem.layout()),
            (std::vector<std::string>{"ctl.over", "ctl.active", "ctl.turn", "ctl.step", "ctl.stage",
                                      "ctl.holder", "ctl.acted", "ctl.seat",
                                      "ctl.window_uses[play][P1]", "ctl.window_uses[play][P2]"}));
  auto st = [&](std::initializer_list<std::pair<std::string, int>> v) {
    StateVec s = state(sem, v);
    s[field(sem, "ctl.turn")] = 1;
    s[field(sem, "ctl.stage")] = 2;
    return s;
  };
  const StateVec q0 = st({});
  auto out = successors(sem, q0);
  EXPECT_EQ(moves(sem, out), "action play P1, pass P1");
  EXPECT_EQ(out[0].state, st({{"ctl.acted", 1}, {"ctl.window_uses[play][P1]", 1}}));
  EXPECT_EQ(out[1].state, st({{"ctl.seat", 1}, {"ctl.holder", 1}}));
  // P2 passes without playing: the active_if_answered seat is skipped.
  out = successors(sem, st({{"ctl.seat", 1}, {"ctl.holder", 1}}));
  EXPECT_EQ(moves(sem, out), "action play P2, pass P2");
  EXPECT_EQ(out[1].state[field(sem, "ctl.stage")], 3);
  // P2 played: P1 gets the third seat.
  out = successors(
      sem,
      st({{"ctl.seat", 1}, {"ctl.holder", 1}, {"ctl.acted", 1}, {"ctl.window_uses[play][P2]", 1}}));
  EXPECT_EQ(moves(sem, out), "pass P2");
  EXPECT_EQ(out[0].state, st({{"ctl.seat", 2}, {"ctl.window_uses[play][P2]", 1}}));

  // Per active player A, from the window opening (seat, acted, uses A/O):
  //   Q0 seat0        -> play (Q1) | pass (Q2)
  //   Q1 seat0 acted, A used -> pass (Q3)
  //   Q2 seat1        -> play (Q4) | pass: close (Post)
  //   Q3 seat1, A used -> play (Q5) | pass: close
  //   Q4 seat1 acted, O used -> pass (Q6: seat 2)
  //   Q5 seat1 acted, both used -> pass (Q7: seat 2)
  //   Q6 seat2, O used -> play (Q8) | pass: close
  //   Q7 seat2, both used -> pass: close
  //   Q8 seat2 acted, both used -> pass: close
  //   Post -> advance to O's Q0
  // 10 states and 14 moves per player, plus initial: 21 states, 29 moves.
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 21u);
  EXPECT_EQ(c.transitions, 29u);
}

// --- triggers ---------------------------------------------------------------------

TEST(Semantics, TriggersActivePlayerFirstControllerChoosesOrder) {
  GameBuilder b;
  const int hits = b.var("hits", 0, 3, 0, true);
  const int ph = b.phase("main");
  const int st = b.step(ph, "s");
  const int begin = b.game().steps[st].begin_event;
  b.trigger("t_a", begin, Role::each, assign(var(hits, self()), num(1), Op::add));
  b.trigger("t_b", begin, Role::active, nullptr, true);
  b.trigger("t_c", begin, Role::opponent, assign(var(hits, self()), num(1), Op::add));
  const auto g = b.finish();
  Semantics sem(g);
  // Entering the step makes four triggers pending and stops before `do`.
  auto out = successors(sem, sem.initial_states()[0]);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].progress);
  const StateVec pending = state(sem, {{"ctl.turn", 1},
                                       {"ctl.stage", 1},
                                       {"ctl.pending[t_a][P1]", 1},
                                       {"ctl.pending[t_a][P2]", 1},
                                       {"ctl.pending[t_b][P1]", 1},
                                       {"ctl.pending[t_c][P2]", 1}});
  EXPECT_EQ(out[0].state, pending);
  // The active player's triggers first, in any order P1 chooses; t_b may be declined.
  out = successors(sem, pending);
  EXPECT_EQ(moves(sem, out), "trigger t_a P1, trigger t_b P1, decline t_b P1");
  for (const auto& s : out) {
    EXPECT_EQ(s.chooser, Chooser::player);
    EXPECT_EQ(s.chooser_player, 0);
    EXPECT_FALSE(s.progress);
  }
  EXPECT_EQ(out[0].state, state(sem, {{"hits[P1]", 1},
                                      {"ctl.turn", 1},
                                      {"ctl.stage", 1},
                                      {"ctl.pending[t_a][P2]", 1},
                                      {"ctl.pending[t_b][P1]", 1},
                                      {"ctl.pending[t_c][P2]", 1}}));
  const StateVec declined = out[2].state;
  EXPECT_EQ(declined[field(sem, "ctl.pending[t_b][P1]")], 0);
  out = successors(sem, out[0].state);
  EXPECT_EQ(moves(sem, out), "trigger t_b P1, decline t_b P1");
  // Then P2's two.
  out = successors(sem, out[1].state);
  EXPECT_EQ(moves(sem, out), "trigger t_a P2, trigger t_c P2");
  EXPECT_EQ(out[0].chooser_player, 1);
  out = successors(sem, out[1].state);
  EXPECT_EQ(moves(sem, out), "trigger t_a P2");
  EXPECT_EQ(out[0].chooser, Chooser::none);  // the only move
  out = successors(sem, out[0].state);
  EXPECT_EQ(moves(sem, out), "effects");
  EXPECT_EQ(out[0].state,
            state(sem, {{"hits[P1]", 1}, {"hits[P2]", 2}, {"ctl.turn", 1}, {"ctl.stage", 3}}));
}

TEST(Semantics, TriggerIsNeverPendingTwice) {
  GameBuilder b;
  const int e = b.custom_event("ping");
  b.step(b.phase("main"), "s");
  b.trigger("pong", e, Role::active);
  auto g = b.finish();
  g.setup = seq(fire(e), fire(e));
  Semantics sem(g);
  const auto init = sem.initial_states();
  ASSERT_EQ(init.size(), 1u);
  EXPECT_EQ(init[0][field(sem, "ctl.pending[pong][P1]")], 1);
  const auto out = successors(sem, init[0]);
  EXPECT_EQ(moves(sem, out), "trigger pong P1");  // resolves before the start
}

TEST(Semantics, EndEventTriggersLeaveThenEnter) {
  GameBuilder b;
  const int st = b.step(b.phase("main"), "s");
  b.trigger("cleanup", b.game().steps[st].end_event, Role::active);
  const auto g = b.finish();
  Semantics sem(g);
  EXPECT_GE(field(sem, "ctl.target"), 0);
  auto out = successors(sem, sem.initial_states()[0]);
  const StateVec post = out.at(0).state;
  out = successors(sem, post);
  ASSERT_EQ(moves(sem, out), "advance");
  EXPECT_FALSE(out[0].progress);  // left, not entered
  EXPECT_EQ(out[0].state, state(sem, {{"ctl.turn", 1},
                                      {"ctl.stage", 4},
                                      {"ctl.new_turn", 1},
                                      {"ctl.pending[cleanup][P1]", 1}}));
  out = successors(sem, out[0].state);
  ASSERT_EQ(moves(sem, out), "trigger cleanup P1");
  out = successors(sem, out[0].state);
  ASSERT_EQ(moves(sem, out), "enter");
  EXPECT_TRUE(out[0].progress);
  EXPECT_EQ(out[0].state, state(sem, {{"ctl.active", 1}, {"ctl.turn", 2}, {"ctl.stage", 3}}));
}

// --- rule gaps ----------------------------------------------------------------------

TEST(Semantics, GapsOfEveryKind) {
  // One step per gap kind, each reached in order; arr[y] with y = 2 is out of
  // range of an array of 2; 1 / y with y = 0 divides by zero.
  GameBuilder b;
  const int x = b.var("x", 0, 1, 1);
  const int y = b.var("y", 0, 2, 0);
  const int arr = b.var("arr", 0, 1, 0, false, 2);
  const int ph = b.phase("main");
  b.step(ph, "range", assign(var(x), num(1), Op::add));
  b.step(ph, "div", assign(var(x), bin(Op::div, num(1), var(y))));
  b.step(ph, "index", seq(assign(var(y), num(2)), assign(var(arr, nullptr, var(y)), num(1))));
  const auto g = b.finish();
  Semantics sem(g);
  std::vector<GapSite::Kind> kinds;
  for (const auto& s : sem.gaps()) kinds.push_back(s.kind);
  // Sites in walk order: range (x +=), div (1 / y), range (x :=), range (y :=),
  // index (arr[y]), range (arr[y] :=).
  EXPECT_EQ(kinds, (std::vector<GapSite::Kind>{GapSite::Kind::range, GapSite::Kind::div_zero,
                                               GapSite::Kind::range, GapSite::Kind::range,
                                               GapSite::Kind::index, GapSite::Kind::range}));
  const StateVec init = sem.initial_states()[0];
  auto gap_of = [&](const StateVec& s) { return s[sem.layout().gap]; };
  // start enters `range`: x := x + 1 leaves 0..1.
  auto out = successors(sem, init);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].state[sem.layout().over], 2);
  EXPECT_EQ(gap_of(out[0].state), 1);
  StateVec expected = init;
  expected[sem.layout().over] = 2;
  expected[sem.layout().gap] = 1;
  EXPECT_EQ(out[0].state, expected);  // the state before the move

  // From post of step `range` (pretend it passed), entering `div` divides by 0.
  StateVec s = init;
  s[sem.layout().stage] = 3;
  out = successors(sem, s);
  EXPECT_EQ(gap_of(out.at(0).state), 2);
  s[sem.layout().step] = 1;
  out = successors(sem, s);
  EXPECT_EQ(gap_of(out.at(0).state), 5);  // arr[2]
}

TEST(Semantics, StackOverflowIsAGap) {
  GameBuilder b;
  b.game().speeds = {1, 3};
  b.game().scope.stack = 1;
  const int w = b.window("main", Protocol::priority,
                         {role(Role::active, {1}, {3}), role(Role::opponent, {}, {3})});
  b.action("spark", Role::active, 1);
  b.action("counter", Role::any, 3);
  b.step(b.phase("main"), "main", nullptr, w);
  const auto g = b.finish();
  Semantics sem(g);
  StateVec s = state(sem, {{"ctl.turn", 1},
                           {"ctl.stage", 2},
                           {"ctl.holder", 1},
                           {"ctl.stack_size", 1}});  // spark by P1 on the stack
  const auto out = successors(sem, s, true);
  ASSERT_EQ(moves(sem, out), "action counter P2, pass P2");
  const int gap = out[0].state[sem.layout().gap];
  ASSERT_GT(gap, 0);
  EXPECT_EQ(out[0].state[sem.layout().over], 2);
  EXPECT_EQ(sem.gaps()[gap - 1].kind, GapSite::Kind::stack_overflow);
  EXPECT_EQ(sem.gaps()[gap - 1].rule, "action:counter");
  StateVec expected = s;
  expected[sem.layout().over] = 2;
  expected[sem.layout().gap] = gap;
  EXPECT_EQ(out[0].state, expected);
}

TEST(Semantics, GuardedDivisionShortCircuits) {
  GameBuilder b;
  const int x = b.var("x", 0, 5, 0);
  const int y = b.var("y", 0, 2, 0);
  // if y != 0 and 4 / y > 1 then x := 1 end
  b.step(b.phase("main"), "s",
         if_(bin(Op::and_, bin(Op::ne, var(y), num(0)),
                 bin(Op::gt, bin(Op::div, num(4), var(y)), num(1))),
             assign(var(x), num(1))));
  const auto g = b.finish();
  Semantics sem(g);
  const auto out = successors(sem, sem.initial_states()[0]);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].state[sem.layout().over], 0);
}

TEST(Semantics, MovesChosenByThePlayerAndTheirGaps) {
  GameBuilder b;
  b.kind("a", 1);
  b.kind("b", 1);
  const int deck = b.zone("deck", true, true);
  const int hand = b.zone("hand");
  const int pile = b.zone("pile", false);
  const int ph = b.phase("main");
  // move(deck[active], hand[active], 1): the active player picks the kind.
  b.step(ph, "take", call(StmtKind::move_any, zone(deck, active()), zone(hand, active()), num(1)));
  // move(hand[active], pile, a, 1): a gap when the hand holds no a.
  b.step(ph, "give",
         call(StmtKind::move_kind, zone(hand, active()), zone(pile), kind_lit(0), num(1)));
  const auto g = b.finish();
  Semantics sem(g);
  EXPECT_EQ(sem.layout().fields[field(sem, "pile.a")].hi, 2);  // shared: copies x players
  auto out = successors(sem, sem.initial_states()[0], true);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].choices.at(0).text, "moved 'b'");
  EXPECT_EQ(out[1].choices.at(0).text, "moved 'a'");
  for (const auto& x : out) {
    EXPECT_EQ(x.chooser, Chooser::player);
    EXPECT_EQ(x.chooser_player, 0);
    EXPECT_EQ(x.choices[0].by, Choice::By::player);
  }
  // Took b: giving an a is a gap (source too small, the first site of the move).
  const auto took_b = successors(sem, out[0].state, true);
  ASSERT_EQ(took_b.size(), 1u);
  const int gap = took_b[0].state[sem.layout().gap];
  ASSERT_GT(gap, 0);
  EXPECT_EQ(sem.gaps()[gap - 1].kind, GapSite::Kind::empty_zone);
  EXPECT_EQ(took_b[0].notes.back(), "rule gap: move from hand[P1]: it holds 0 a, 1 needed");
  // Took a: it goes to the pile.
  const auto took_a = successors(sem, out[1].state);
  ASSERT_EQ(took_a.size(), 1u);
  EXPECT_EQ(took_a[0].state[field(sem, "pile.a")], 1);
  EXPECT_EQ(took_a[0].state[field(sem, "hand[P1].a")], 0);
}

TEST(Semantics, MoveOverfillingAZoneIsARangeGap) {
  GameBuilder b;
  b.kind("a", 1);
  const int deck = b.zone("deck", true, true);
  const int hand = b.zone("hand");
  b.step(
      b.phase("main"), "steal",
      call(StmtKind::move_kind, zone(deck, player(1)), zone(hand, player(0)), kind_lit(0), num(1)));
  auto g = b.finish();
  g.setup =
      call(StmtKind::move_kind, zone(deck, player(0)), zone(hand, player(0)), kind_lit(0), num(1));
  Semantics sem(g);
  const StateVec init = sem.initial_states().at(0);
  EXPECT_EQ(init[field(sem, "hand[P1].a")], 1);
  const auto out = successors(sem, init);
  ASSERT_EQ(out.size(), 1u);
  const int gap = out[0].state[sem.layout().gap];
  ASSERT_GT(gap, 0);
  EXPECT_EQ(sem.gaps()[gap - 1].kind, GapSite::Kind::range);
  EXPECT_EQ(sem.gaps()[gap - 1].rule, "step:main.steal");
}

TEST(Semantics, StatementsForIfElifElseSkipShuffleLose) {
  GameBuilder b;
  const int life = b.var("life", 0, 3, 3, true);
  const int mode = b.var("mode", 0, 2, 0);
  b.kind("a", 1);
  const int deck = b.zone("deck", true, true);
  b.zone("hand");
  auto branch = stmt(StmtKind::if_);
  branch->conds.push_back(bin(Op::eq, var(life, player(0)), num(3)));
  branch->bodies.push_back(assign(var(mode), num(1)));
  branch->conds.push_back(bin(Op::eq, var(life, player(0)), num(2)));
  branch->bodies.push_back(assign(var(mode), num(2)));
  branch->bodies.push_back(assign(var(mode), num(0)));
  const int ph = b.phase("main");
  b.step(
      ph, "s",
      seq(for_(0, domain(Domain::Kind::players),
               assign(var(life, bound(0, Type::player())), num(1), Op::sub)),
          std::move(branch), stmt(StmtKind::skip), call(StmtKind::shuffle, zone(deck, active()))));
  b.step(ph, "t", call(StmtKind::lose, active()));
  const auto g = b.finish();
  Semantics sem(g);
  auto out = successors(sem, sem.initial_states()[0], true);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].state[field(sem, "life[P1]")], 2);
  EXPECT_EQ(out[0].state[field(sem, "life[P2]")], 2);
  EXPECT_EQ(out[0].state[field(sem, "mode")], 2);  // the elif branch
  out = successors(sem, out[0].state, true);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].state[sem.layout().over], 1);
  EXPECT_EQ(out[0].notes, (std::vector<std::string>{"P1 loses"}));
}

TEST(Semantics, SuccessorsFromSeveralThreadsAgree) {
  const auto g = priority_game();
  Semantics sem(g);
  Counts a, b;
  std::thread t1([&] { a = explore(sem); });
  std::thread t2([&] { b = explore(sem); });
  t1.join();
  t2.join();
  EXPECT_EQ(a.states, 25u);
  EXPECT_EQ(b.states, 25u);
  EXPECT_EQ(a.transitions, b.transitions);
}

// --- game end -------------------------------------------------------------------------

TEST(Semantics, EndConditionsAfterEveryMove) {
  GameBuilder b;
  const int x = b.var("x", 0, 3, 0);
  b.step(b.phase("main"), "s", assign(var(x), num(1), Op::add));
  b.end("enough", false, Role::active, bin(Op::ge, var(x), num(2)));
  const auto g = b.finish();
  Semantics sem(g);
  auto out = successors(sem, sem.initial_states()[0]);
  EXPECT_EQ(out.at(0).state[sem.layout().over], 0);  // x = 1
  out = successors(sem, out[0].state, true);
  // x = 2 after P2's step: P2 (active) loses.
  EXPECT_EQ(out.at(0).state[sem.layout().over], 1);
  EXPECT_EQ(out[0].state[0], 2);
  EXPECT_EQ(out[0].notes.back(), "'enough': P2 loses");
  EXPECT_TRUE(sem.is_final(out[0].state));
  std::vector<std::pair<int, int>> holding;
  sem.end_conditions_holding(out[0].state, holding);
  EXPECT_EQ(holding, (std::vector<std::pair<int, int>>{{0, 1}}));
  // initial -> x1 -> x2 over: 3 states, 2 moves.
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 3u);
  EXPECT_EQ(c.transitions, 2u);
}

TEST(Semantics, WinStopsTheEffect) {
  GameBuilder b;
  const int x = b.var("x", 0, 3, 0);
  b.step(b.phase("main"), "s",
         seq(assign(var(x), num(1)), call(StmtKind::win, opponent()), assign(var(x), num(3))));
  const auto g = b.finish();
  Semantics sem(g);
  const auto out = successors(sem, sem.initial_states()[0], true);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].state[0], 1);  // x := 3 never ran
  EXPECT_EQ(out[0].state[sem.layout().over], 1);
  EXPECT_EQ(out[0].notes, (std::vector<std::string>{"P2 wins"}));
}

TEST(Semantics, InitialStatesFromSetupChoicesAreEndChecked) {
  GameBuilder b;
  const int x = b.var("x", 0, 3, 0);
  b.step(b.phase("main"), "s");
  b.end("lucky", true, Role::active, bin(Op::eq, var(x), num(2)));
  auto g = b.finish();
  g.setup = choose(0, range(1, 3), bin(Op::ne, bound(0), num(3)), assign(var(x), bound(0)));
  Semantics sem(g);
  const auto init = sem.initial_states();
  ASSERT_EQ(init.size(), 2u);  // x = 1, x = 2 (where excludes 3)
  EXPECT_EQ(init[0][0], 1);
  EXPECT_EQ(init[0][sem.layout().over], 0);
  EXPECT_EQ(init[1][0], 2);
  EXPECT_EQ(init[1][sem.layout().over], 1);
}

// --- choices by players ---------------------------------------------------------------

TEST(Semantics, PickIsTheActingPlayersChoice) {
  GameBuilder b;
  const int x = b.var("x", 0, 3, 0);
  b.step(b.phase("main"), "s", choose(0, range(1, 2), nullptr, assign(var(x), bound(0)), true));
  const auto g = b.finish();
  Semantics sem(g);
  const auto out = successors(sem, sem.initial_states()[0], true);
  ASSERT_EQ(out.size(), 2u);
  for (const auto& s : out) {
    EXPECT_EQ(s.chooser, Chooser::player);
    EXPECT_EQ(s.chooser_player, 0);
    EXPECT_EQ(s.choices.at(0).by, Choice::By::player);
  }
  EXPECT_EQ(out[1].choices[0].text, "picked 2");
}

// --- expressions ----------------------------------------------------------------------

TEST(Semantics, ExpressionsOverZonesQuantifiersAndBuiltins) {
  GameBuilder b;
  b.game().tags = {"unit"};
  b.kind("a", 2);
  b.kind("b", 1, {0});
  b.zone("deck", true, true);
  b.zone("hand");
  const int life = b.var("life", 0, 5, 3, true);
  b.step(b.phase("main"), "s");
  const auto g = b.finish();
  Semantics sem(g);
  StateVec s = sem.initial_states()[0];
  auto eq = [](ExprPtr a, std::int64_t v) { return bin(Op::eq, std::move(a), num(v)); };
  EXPECT_TRUE(sem.holds(*eq(zone(0, player(0)), 3), s));
  EXPECT_TRUE(sem.holds(*eq(zone(0, player(1), 0), 2), s));
  EXPECT_TRUE(sem.holds(*eq(zone_tag(0, active(), 0), 1), s));
  EXPECT_TRUE(sem.holds(*eq(zone(1, self()), 0), s, 1));
  EXPECT_TRUE(sem.holds(*eq(next_of(player(1)), 0), s));
  EXPECT_TRUE(sem.holds(*eq(turn_number(), 1), s));
  EXPECT_TRUE(sem.holds(*eq(stack_size(), 0), s));
  // sum p in players: life[p] == 6; count p in others: life[p] > 2 == 1 (self P1)
  EXPECT_TRUE(sem.holds(
      *eq(quant(Op::sum, 0, domain(Domain::Kind::players), var(life, bound(0, Type::player()))), 6),
      s));
  EXPECT_TRUE(sem.holds(*eq(quant(Op::count, 0, domain(Domain::Kind::others),
                                  bin(Op::gt, var(life, bound(0, Type::player())), num(2))),
                            1),
                        s, 0));
  EXPECT_TRUE(sem.holds(
      *quant(Op::exists, 1, domain(Domain::Kind::kinds_tagged, 0), eq(bound(1, Type::kind()), 1)),
      s));
  EXPECT_FALSE(sem.holds(
      *quant(Op::forall, 1, domain(Domain::Kind::kinds), eq(bound(1, Type::kind()), 1)), s));
  EXPECT_TRUE(sem.holds(*eq(builtin(Op::clamp, num(9), num(0), num(4)), 4), s));
  EXPECT_TRUE(sem.holds(*eq(builtin(Op::abs, un(Op::neg, num(3))), 3), s));
  EXPECT_TRUE(sem.holds(*eq(bin(Op::mod, num(-7), num(3)), -1), s));  // C++ remainder
  EXPECT_TRUE(sem.holds(*eq(cond(boolean(false), num(1), num(2)), 2), s));
  EXPECT_FALSE(sem.holds(*eq(bin(Op::div, num(1), num(0)), 0), s));  // a failure is false
}

// --- transcripts and replay -----------------------------------------------------------

// Every trace starts from the state after setup, described by kind: the
// deal a designer reads before move 1.
TEST(Semantics, BeginTraceDescribesTheStateAfterSetup) {
  const auto dg = draw_game();
  Semantics sem(dg);
  const StateVec init = sem.initial_states()[0];
  const auto t = sem.begin_trace(init);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->initial, 0u);
  EXPECT_TRUE(t->steps.empty());
  EXPECT_EQ(t->start,
            "deck[P1]: 'a' ×2, 'b'; deck[P2]: 'a' ×2, 'b'; hand[P1]: empty; "
            "hand[P2]: empty");
  std::vector<Successor> out;
  sem.successors(init, out);
  EXPECT_FALSE(sem.begin_trace(out[0].state).has_value());  // not an initial state
}

TEST(Semantics, DescribeAndWhere) {
  const auto dg = draw_game();
  Semantics draw_sem(dg);
  const StateVec init = draw_sem.initial_states()[0];
  std::vector<Successor> out;
  draw_sem.successors(init, out);  // without choices: describe recomputes them
  const TraceStep t = draw_sem.describe(init, out[0], 0);
  EXPECT_EQ(t.text, "start at main · draw; P1 draws 'a', 'b' (deck[P1] 3→1, hand[P1] 0→2)");
  EXPECT_EQ(t.choices.at(0).text, "drew 'a', 'b'");
  EXPECT_EQ(t.turn, 1);
  EXPECT_EQ(t.active, 0);
  EXPECT_TRUE(t.progress);
  EXPECT_EQ(draw_sem.where(out[0].state), "T1 P1 main · draw");
  std::vector<std::string> changed;
  for (const auto& c : t.changes) changed.push_back(c.what);
  EXPECT_EQ(changed, (std::vector<std::string>{"deck[P1].a", "deck[P1].b", "hand[P1].a",
                                               "hand[P1].b", "stage"}));

  const auto pg = priority_game();
  Semantics sem(pg);
  auto st = [&](std::initializer_list<std::pair<std::string, int>> v) {
    StateVec s = state(sem, v);
    s[field(sem, "ctl.turn")] = 1;
    s[field(sem, "ctl.stage")] = 2;
    return s;
  };
  const StateVec w0 = st({});
  sem.successors(w0, out);
  EXPECT_EQ(sem.describe(w0, out[0], 0).text, "P1 plays 'spark' (speed 1)");
  EXPECT_EQ(sem.describe(w0, out[1], 1).text, "P1 passes");
  const StateVec w1 = st({{"ctl.holder", 1}, {"ctl.stack_size", 1}, {"ctl.uses[spark][P1]", 1}});
  sem.successors(w1, out);
  const TraceStep answer = sem.describe(w1, out[0], 0);
  EXPECT_EQ(answer.text, "P2 answers with 'ward' (speed 3)");
  EXPECT_EQ(answer.changes.size(), 2u);  // holder 1→0, stack 1→2
  const StateVec w4 = st({{"ctl.passes", 1}, {"ctl.stack_size", 1}, {"ctl.uses[spark][P1]", 1}});
  sem.successors(w4, out);
  EXPECT_EQ(sem.describe(w4, out[0], 0).text, "'spark' resolves");
  const StateVec w5 = st({{"ctl.holder", 1},
                          {"ctl.passes", 1},
                          {"ctl.stack_size", 2},
                          {"ctl.stack[1].action", 1},
                          {"ctl.stack[1].controller", 1},
                          {"ctl.window_uses[ward][P2]", 1}});
  sem.successors(w5, out);
  EXPECT_EQ(sem.describe(w5, out[0], 0).text, "'ward' resolves; 'spark' is negated");
  const StateVec post = state(sem, {{"ctl.turn", 1}, {"ctl.stage", 3}});
  sem.successors(post, out);
  EXPECT_EQ(sem.describe(post, out[0], 0).text, "advance to P2's turn, main · main");
}

TEST(Semantics, DescribeTriggersAndGaps) {
  GameBuilder b;
  b.kind("a", 1);
  b.zone("deck", true, true);
  b.zone("hand");
  const int st = b.step(b.phase("main"), "s", draw(active(), num(2)));
  b.trigger("unsecured", b.game().steps[st].begin_event, Role::active, nullptr, true);
  const auto g = b.finish();
  Semantics sem(g);
  const StateVec init = sem.initial_states()[0];
  auto out = successors(sem, init);
  const StateVec pending = out.at(0).state;
  out = successors(sem, pending);
  ASSERT_EQ(moves(sem, out), "trigger unsecured P1, decline unsecured P1");
  EXPECT_EQ(sem.describe(pending, out[0], 0).text, "trigger 'unsecured' (P1)");
  EXPECT_EQ(sem.describe(pending, out[1], 1).text, "P1 declines 'unsecured'");
  const StateVec pre = out[0].state;
  out = successors(sem, pre);
  ASSERT_EQ(moves(sem, out), "effects");
  EXPECT_EQ(sem.describe(pre, out[0], 0).text,
            "main · s effects; rule gap: draw from an empty deck: deck[P1] holds 1, 2 needed");
}

TEST(Semantics, ReplayFollowsATraceAndReportsAMismatch) {
  const auto g = priority_game();
  Semantics sem(g);
  // start, spark, ward, pass, resolve (ward negates spark).
  Trace t;
  StateVec s = sem.initial_states()[0];
  const std::vector<std::uint32_t> path = {0, 0, 0, 0, 0};
  std::vector<Successor> out;
  for (std::uint32_t i : path) {
    sem.successors(s, out);
    ASSERT_LT(i, out.size());
    t.steps.push_back(sem.describe(s, out[i], i));
    s = out[i].state;
  }
  auto r = sem.replay(t);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.states.size(), 6u);
  EXPECT_EQ(r.states.back(), s);
  EXPECT_EQ(t.steps[4].kind, MoveKind::resolve);

  Trace bad = t;
  bad.steps[2].ref = 0;  // claims P2 answered with spark
  r = sem.replay(bad);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "move 3 (T1 P1 main · main): expected action 'spark' by P2, found action 'ward' by P2");
  bad = t;
  bad.steps[1].successor = 7;
  r = sem.replay(bad);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "move 2 (T1 P1 main · main): successor 7 does not exist (2 moves)");
}

TEST(Semantics, ReplayChecksALasso) {
  const auto g = counter_game();
  Semantics sem(g);
  Trace t;
  StateVec s = sem.initial_states()[0];
  std::vector<Successor> out;
  for (int i = 0; i < 4; ++i) {
    sem.successors(s, out);
    t.steps.push_back(sem.describe(s, out[0], 0));
    s = out[0].state;
  }
  t.loop_start = 2;  // states[2] (post x2 T2 P2) -> P1 -> P2 again
  EXPECT_TRUE(sem.replay(t).ok);
  t.loop_start = 1;
  EXPECT_FALSE(sem.replay(t).ok);
}

// --- the same games written as rulesets --------------------------------------------

// The fixtures restate the games above in the rules language; the loader's
// IR must give the same layout and the same hand-computed counts.
TEST(SemanticsYaml, FixturesHaveTheHandComputedCounts) {
  const std::map<std::string, std::pair<std::size_t, std::size_t>> expected = {
      {"counter.yaml", {4, 4}},
      {"draw.yaml", {11, 10}},
      {"priority.yaml", {25, 29}},
      {"sequence.yaml", {21, 29}},
      {"alternate.yaml", {6, 6}}};
  for (const auto& [file, counts] : expected) {
    SCOPED_TRACE(file);
    const auto g = load(fixture(file));
    ASSERT_TRUE(g.has_value());
    Semantics sem(*g);
    const auto c = explore(sem);
    EXPECT_EQ(c.states, counts.first);
    EXPECT_EQ(c.transitions, counts.second);
  }
}

// Turn order as state (tests/fixtures/semantics/turn-order.yaml): the order
// and the pending skip are control fields only here, and the counts are the
// ones every engine agrees on (lowered_test, compiled_test, the SMT and SPIN
// agreement tests visit the fixture).
TEST(SemanticsYaml, TurnOrderFixtureCounts) {
  const auto g = load(fixture("turn-order.yaml"));
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  const auto n = names(sem.layout());
  EXPECT_EQ(std::count(n.begin(), n.end(), "ctl.order"), 1);
  EXPECT_EQ(std::count(n.begin(), n.end(), "ctl.skip"), 1);
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 1116U);
  EXPECT_EQ(c.transitions, 1297U);
  // A game without the statements has neither field.
  const auto plain = load(fixture("priority.yaml"));
  ASSERT_TRUE(plain.has_value());
  const auto pn = names(Semantics(*plain).layout());
  EXPECT_EQ(std::count(pn.begin(), pn.end(), "ctl.order"), 0);
  EXPECT_EQ(std::count(pn.begin(), pn.end(), "ctl.skip"), 0);
}

// The transcript names the right player at every move once the order is
// reversed and a player skipped: each line below is the one move of the
// state that has it (the test follows them from the initial state).
TEST(SemanticsYaml, TurnOrderTranscriptNamesThePlayers) {
  const auto g = load(fixture("turn-order.yaml"));
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  StateVec s = sem.initial_states().at(0);
  const std::vector<std::string> lines = {
      "start at main · play", "P1 plays 'flip'; the turn order is now reversed",
      "P1 passes",  // priority goes to P3, the next player in the reversed order
      "P3 passes", "P2 passes", "advance to main · clash", "advance to P3's turn, main · play",
      "P3 plays 'jump'; the next player in turn order will be skipped", "P3 passes", "P2 passes",
      "P1 passes", "advance to main · clash",
      // The alternate window hands over from P3 in the reversed order: P2
      // cannot bump, P1 (marked by the jump) can, twice.
      "P1 plays 'bump'", "P1 plays 'bump'",
      "advance to P1's turn, main · play",  // P2 skipped
  };
  ASSERT_TRUE(follow(sem, s, lines).has_value());
}

// A shared draw pile (tests/fixtures/semantics/shared-draw.yaml): draw(p, n)
// takes from the shared `deck`, and a hand counts each kind up to the copies
// of the whole game, since it receives cards from a shared zone; a hand fed
// by a player's own deck keeps 0..copies (draw.yaml).
TEST(SemanticsYaml, SharedDrawPileWidensTheHands) {
  const auto g = load(fixture("shared-draw.yaml"));
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  std::map<std::string, std::int32_t> hi;
  for (const auto& f : sem.layout().fields) hi[f.name] = f.hi;
  EXPECT_EQ(hi.at("hand[P1].gem"), 4);
  EXPECT_EQ(hi.at("hand[P2].rock"), 2);
  EXPECT_EQ(hi.at("deck.gem"), 4);
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 641U);
  EXPECT_EQ(c.transitions, 935U);
  // P2 draws its third 'gem', more than one player's 2 copies: the line names
  // the drawer, and the hoard end condition names the winner.
  StateVec s = sem.initial_states().at(0);
  const std::vector<std::string> lines = {"start at main · play",
                                          "P1 passes",
                                          "P2 passes",
                                          "advance to P2's turn, main · play",
                                          "P2 plays 'take'; P2 draws 'gem'",
                                          "P2 plays 'take'; P2 draws 'gem'",
                                          "P2 plays 'take'; P2 draws 'gem'; 'hoard': P2 wins"};
  ASSERT_TRUE(follow(sem, s, lines).has_value());
  const auto own = load(fixture("draw.yaml"));
  ASSERT_TRUE(own.has_value());
  std::map<std::string, std::int32_t> own_hi;
  const Semantics own_sem(*own);
  for (const auto& f : own_sem.layout().fields) own_hi[f.name] = f.hi;
  EXPECT_EQ(own_hi.at("hand[P1].a"), 2);
  EXPECT_EQ(own_hi.at("hand[P2].b"), 1);
}

// draw(p, n, z) (tests/fixtures/semantics/named-draw.yaml): draws from the
// shared stock and from the next player's reserve, and a move between two
// shared zones (the pile back into the stock).
TEST(SemanticsYaml, DrawFromANamedZone) {
  const auto g = load(fixture("named-draw.yaml"));
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  std::map<std::string, std::int32_t> hi;
  for (const auto& f : sem.layout().fields) hi[f.name] = f.hi;
  EXPECT_EQ(hi.at("hand[P1].gem"), 2);     // fed by the shared stock
  EXPECT_EQ(hi.at("reserve[P2].gem"), 1);  // fed by nothing
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 225U);
  EXPECT_EQ(c.transitions, 325U);
  StateVec s = sem.initial_states().at(0);
  const std::vector<std::string> lines = {
      "start at main · play", "P1 plays 'take'; P1 draws 'rock'",
      "P1 plays 'bury'; P1 moves 'rock' from pile to stock", "P1 plays 'take'; P1 draws 'rock'",
      "P1 plays 'raid'; P1 draws 'gem'; 'hoard': P1 wins"};
  const auto reached = follow(sem, s, lines);
  ASSERT_TRUE(reached.has_value());
  s = *reached;
  // The raid drew from the next player's reserve, not P1's; the stock got
  // the pile's rock and gave it up again.
  std::map<std::string, std::int32_t> at;
  for (std::size_t i = 0; i < sem.layout().fields.size(); ++i) {
    at[sem.layout().fields[i].name] = s[i];
  }
  EXPECT_EQ(at.at("reserve[P2].gem"), 0);
  EXPECT_EQ(at.at("reserve[P1].gem"), 1);
  EXPECT_EQ(at.at("stock.rock"), 0);
  EXPECT_EQ(at.at("pile.rock"), 0);
  EXPECT_EQ(at.at("hand[P1].rock"), 2);
}

// A draw from a named zone that runs dry is a gap named after that zone, not
// after `deck` (named-draw.yaml with the stock's guard taken away).
TEST(SemanticsYaml, EmptyNamedDrawSourceIsNamedInTheGap) {
  std::ifstream in(fixture("named-draw.yaml"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string guard = "when: \"count(stock) > 0\"";
  const auto at = text.find(guard);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, guard.size(), "when: \"true\"");
  const auto g = load(fixture("named-draw.yaml"), text);
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  std::vector<std::string> sites;
  for (const auto& gap : sem.gaps()) sites.push_back(gap.message);
  EXPECT_NE(std::find(sites.begin(), sites.end(), "draw from an empty stock"), sites.end())
      << ::testing::PrintToString(sites);
  EXPECT_EQ(std::count(sites.begin(), sites.end(), "draw from an empty deck"), 0);
  // P1 takes the stock's only card... the rock; P2 takes from an empty stock.
  StateVec s = sem.initial_states().at(0);
  std::vector<Successor> out;
  bool seen = false;
  std::deque<StateVec> todo{s};
  std::set<StateVec> done{s};
  std::vector<std::string> gap_notes;
  while (!todo.empty() && !seen) {
    const StateVec cur = todo.front();
    todo.pop_front();
    sem.successors(cur, out, true);
    for (const auto& o : out) {
      for (const auto& n : o.notes) {
        if (n == "rule gap: draw from an empty stock: stock holds 0, 1 needed") seen = true;
        if (n.find("rule gap") != std::string::npos) gap_notes.push_back(n);
      }
      if (done.insert(o.state).second) todo.push_back(o.state);
    }
  }
  EXPECT_TRUE(seen) << ::testing::PrintToString(gap_notes);
}

// A zone capacity (tests/fixtures/semantics/capacity.yaml): the hands pack
// into 0..2 per kind (not the 0..4 of a hand fed by the shared deck), and a
// draw, a move and a played card that overfill a zone are rule gaps whose
// notes name the zone, its owner and the capacity.
TEST(SemanticsYaml, ZoneCapacity) {
  const auto g = load(fixture("capacity.yaml"));
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  std::map<std::string, std::int32_t> hi;
  for (const auto& f : sem.layout().fields) hi[f.name] = f.hi;
  EXPECT_EQ(hi.at("hand[P1].gem"), 2);
  EXPECT_EQ(hi.at("hand[P2].rock"), 2);
  EXPECT_EQ(hi.at("pile.gem"), 1);
  EXPECT_EQ(hi.at("deck.gem"), 4);
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 621U);
  EXPECT_EQ(c.transitions, 920U);
  // Follows `lines` from the initial state, each the text of one successor.
  const auto walk = [&](const std::vector<std::string>& lines) {
    follow(sem, sem.initial_states().at(0), lines, true);
  };
  walk({"start at main · play", "P1 plays 'take'; P1 draws 'gem'",
        "P1 plays 'take'; P1 draws 'rock'",
        "P1 plays 'take'; P1 draws 'gem'; rule gap: draw overfills hand[P1] (capacity 2)"});
  walk({"start at main · play", "P1 plays 'take'; P1 draws 'gem'",
        "P1 plays 'toss_gem', playing 'gem'", "P1 plays 'take'; P1 draws 'rock'",
        "P1 plays 'toss_rock', playing 'rock'; rule gap: playing 'toss_rock' overfills pile "
        "(capacity 1)"});
  walk({"start at main · play", "P1 passes", "P2 passes", "advance to P2's turn, main · play",
        "P2 plays 'take'; P2 draws 'gem'", "P2 plays 'take'; P2 draws 'rock'",
        "P2 plays 'stash'; P2 moves 'gem' from deck to hand[P2]; rule gap: move overfills "
        "hand[P2] (capacity 2)"});
}

// Player- and kind-valued variables (player-kind-vars.yaml): slots like an
// enum's, shown as players and kinds in the transcript.
TEST(SemanticsYaml, PlayerAndKindVariables) {
  const auto g = load(fixture("player-kind-vars.yaml"));
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 243U);
  EXPECT_EQ(c.transitions, 270U);
  const StateVec s = sem.initial_states().at(0);
  EXPECT_EQ(s[0], 1);  // leader P2
  EXPECT_EQ(s[1], 1);  // trump blue
  EXPECT_EQ(g->slot_value(0, s[0]), "P2");
  EXPECT_EQ(g->slot_value(1, s[1]), "'blue'");
}

// `pick ... by P` (pick-by.yaml): P chooses, not the mover: the successors'
// chooser, the choice and the transcript name P.
TEST(SemanticsYaml, PickByNamesTheChooser) {
  const auto g = load(fixture("pick-by.yaml"));
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 182U);
  EXPECT_EQ(c.transitions, 232U);
  // Setup: P2 picks the judge, one initial state per value.
  const auto init = sem.initial_states();
  ASSERT_EQ(init.size(), 2U);
  EXPECT_EQ(init[0][0], 0);
  EXPECT_EQ(init[1][0], 1);
  // P1's first step: P1 draws both cards, and the opponent (P2) picks the
  // one P1 discards.
  const auto out = successors(sem, init[0], true);
  ASSERT_EQ(out.size(), 2U);
  for (const Successor& o : out) {
    EXPECT_EQ(o.chooser, Chooser::player);
    EXPECT_EQ(o.chooser_player, 1);
    ASSERT_EQ(o.choices.size(), 2U);
    EXPECT_EQ(o.choices[1].by, Choice::By::player);
    EXPECT_EQ(o.choices[1].player, 1);
  }
  // The pick's body speaks with P2's voice: P2 plays the card P2 picked.
  EXPECT_EQ(sem.describe(init[0], out[0], 0).text,
            "start at main · draw; P1 draws 'red', 'blue'; P2 picks 'red'; P2 moves 'red' from "
            "hand[P1] to discard[P1] (deck[P1] 2→0, hand[P1] 0→1, discard[P1] 0→1)");
}

// must_act (must-act.yaml, and findings/deadlock/must-act.yaml where P2
// holds no card): the next player moves though they cannot act, where the
// plain alternate window skips them.
TEST(SemanticsYaml, MustActSkipsNobody) {
  const auto clean = load(fixture("must-act.yaml"));
  ASSERT_TRUE(clean.has_value());
  const auto c = explore(Semantics(*clean));
  EXPECT_EQ(c.states, 92U);
  EXPECT_EQ(c.transitions, 110U);

  const std::string path =
      std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/deadlock/must-act.yaml";
  const auto g = load(path);
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  const int holder = sem.layout().window_holder;
  auto out = successors(sem, sem.initial_states().at(0));
  ASSERT_EQ(out.size(), 1U);
  const StateVec open = out[0].state;
  EXPECT_EQ(open[holder], 0);
  out = successors(sem, open, true);
  ASSERT_EQ(moves(sem, out), "action play P1");  // no pass
  EXPECT_EQ(sem.describe(open, out[0], 0).text, "P1 plays 'play' (cards[P1] 1→0)");
  const StateVec played = out[0].state;
  EXPECT_EQ(played[holder], 1);  // P2, who has no card: not skipped
  EXPECT_TRUE(successors(sem, played).empty());

  // The same window without must_act skips P2.
  auto plain = load(path);
  ASSERT_TRUE(plain.has_value());
  plain->windows[0].must_act = false;
  Semantics skip(*plain);
  out = successors(skip, successors(skip, skip.initial_states().at(0)).at(0).state);
  ASSERT_EQ(out.size(), 1U);
  EXPECT_EQ(out[0].state[holder], 2);
}

TEST(SemanticsYaml, FixtureLayoutsMatchTheBuiltGames) {
  const auto built = priority_game();
  const auto loaded = load(fixture("priority.yaml"));
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(names(Semantics(*loaded).layout()), names(Semantics(built).layout()));
  const auto built_draw = draw_game();
  const auto loaded_draw = load(fixture("draw.yaml"));
  ASSERT_TRUE(loaded_draw.has_value());
  EXPECT_EQ(names(Semantics(*loaded_draw).layout()), names(Semantics(built_draw).layout()));
  EXPECT_EQ(Semantics(*loaded_draw).initial_states(), Semantics(built_draw).initial_states());
}

TEST(SemanticsYaml, EffectsMoveDescribesTheDraw) {
  const auto g = load("inline/effects.yaml", R"yaml(
loophole: 1
game: effects
kinds:
  spark: {copies: 3}
zones:
  deck: {per: player, init: all}
  hand: {per: player}
triggers:
  - name: upkeep
    on: begin_step(main.draw)
    controller: active
    optional: true
turn:
  phases:
    - name: main
      steps:
        - name: draw
          do: "draw(active, 2)"
)yaml");
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  auto out = successors(sem, sem.initial_states().at(0));
  const StateVec pending = out.at(0).state;
  out = successors(sem, pending);
  ASSERT_EQ(moves(sem, out), "trigger upkeep P1, decline upkeep P1");
  const StateVec pre = out[1].state;
  out = successors(sem, pre);
  ASSERT_EQ(moves(sem, out), "effects");
  EXPECT_EQ(out[0].chooser, Chooser::none);  // one kind: a single outcome
  EXPECT_EQ(sem.describe(pre, out[0], 0).text, "P1 draws 'spark' ×2 (deck[P1] 3→1, hand[P1] 0→2)");
  EXPECT_EQ(sem.where(pre), "T1 P1 main · draw");
}

// The stack queries and negate(i) (tests/fixtures/semantics/stack-queries
// .yaml: bolt 0, shock 1, ward 2, unravel 3). P2's unravel over P1's bolt and
// P2's shock negates(stack_size - 2), the bottom entry: shock moves down to
// position 0 and then hits the controller of the bottom entry, now itself.
TEST(SemanticsYaml, StackQueriesAndNegateAtAPosition) {
  const auto g = load(fixture("stack-queries.yaml"));
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 179u);
  EXPECT_EQ(c.transitions, 201u);

  auto st = [&](std::initializer_list<std::pair<std::string, int>> v) {
    StateVec s = state(sem, v);
    s[field(sem, "ctl.turn")] = 1;
    s[field(sem, "ctl.stage")] = 2;
    return s;
  };
  // P2 holds priority over [bolt P1, shock P2]: unravel answers (its guard
  // reads stack_controller(0)); ward does not (stack_controller(1) is P2),
  // nor shock (its limit is used).
  const StateVec answer = st({{"ctl.holder", 1},
                              {"ctl.stack_size", 2},
                              {"ctl.stack[0].action", 0},
                              {"ctl.stack[0].controller", 0},
                              {"ctl.stack[1].action", 1},
                              {"ctl.stack[1].controller", 1},
                              {"ctl.uses[bolt][P1]", 1},
                              {"ctl.window_uses[shock][P2]", 1}});
  std::vector<Successor> out;
  sem.successors(answer, out);
  ASSERT_EQ(moves(sem, out), "action unravel P2, pass P2");
  EXPECT_EQ(sem.describe(answer, out[0], 0).text, "P2 answers with 'unravel' (speed 3)");
  // Everyone passed: unravel resolves and negates bolt at position 0.
  const StateVec resolve = st({{"ctl.passes", 1},
                               {"ctl.stack_size", 3},
                               {"ctl.stack[0].action", 0},
                               {"ctl.stack[0].controller", 0},
                               {"ctl.stack[1].action", 1},
                               {"ctl.stack[1].controller", 1},
                               {"ctl.stack[2].action", 3},
                               {"ctl.stack[2].controller", 1},
                               {"ctl.uses[bolt][P1]", 1},
                               {"ctl.uses[unravel][P2]", 1},
                               {"ctl.window_uses[shock][P2]", 1}});
  sem.successors(resolve, out);
  ASSERT_EQ(moves(sem, out), "action ward P1, resolve unravel P1");
  EXPECT_EQ(sem.describe(resolve, out[1], 1).text, "'unravel' resolves; 'bolt' is negated");
  const StateVec after = out[1].state;
  EXPECT_EQ(after[field(sem, "ctl.stack_size")], 1);
  EXPECT_EQ(after[field(sem, "ctl.stack[0].action")], 1);
  EXPECT_EQ(after[field(sem, "ctl.stack[0].controller")], 1);
  EXPECT_EQ(after[field(sem, "ctl.stack[1].action")], 0);
  EXPECT_EQ(after[field(sem, "ctl.stack[2].action")], 0);
  EXPECT_EQ(after[field(sem, "ctl.stack[2].controller")], 0);
  // Properties: speed 2 never answers speed 3, both witnesses are reached,
  // and an empty position reads as 0 (bolt, P1).
  ASSERT_EQ(g->properties.size(), 4u);
  EXPECT_FALSE(sem.holds(*g->properties[0].expr, resolve));
  EXPECT_TRUE(sem.holds(*g->properties[2].expr, after));
  EXPECT_TRUE(sem.holds(*g->properties[3].expr, after));
  EXPECT_FALSE(sem.holds(*g->properties[1].expr, after));
}

// Targets chosen on cast (tests/fixtures/semantics/stack-targets.yaml): one
// successor per legal choice, kept in the entry (ctl.stack[i].target[j]),
// named by the transcript, loaded when the entry resolves, moved down by
// negate, and re-checked: a counter whose burn was recalled does nothing.
TEST(SemanticsYaml, TargetsAreChosenOnCastAndCheckedOnResolve) {
  const auto g = load(fixture("stack-targets.yaml"));
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 655u);
  EXPECT_EQ(c.transitions, 871u);

  auto st = [&](std::initializer_list<std::pair<std::string, int>> v) {
    StateVec s = state(sem, v);
    s[field(sem, "ctl.turn")] = 1;
    s[field(sem, "ctl.stage")] = 2;
    s[field(sem, "life[P1]")] = 1;
    s[field(sem, "life[P2]")] = 1;
    return s;
  };
  // P1 leads: burn with each (victim, power), the last varying fastest.
  std::vector<Successor> out;
  sem.successors(st({}), out);
  ASSERT_EQ(moves(sem, out),
            "action burn P1, action burn P1, action burn P1, action burn P1, pass P1");
  EXPECT_EQ(sem.describe(st({}), out[3], 3).text,
            "P1 plays 'burn' (speed 1) targeting P2, choosing power = high");
  const StateVec cast = out[3].state;
  EXPECT_EQ(cast[field(sem, "ctl.stack[0].action")], 0);
  EXPECT_EQ(cast[field(sem, "ctl.stack[0].target[0]")], 1);
  EXPECT_EQ(cast[field(sem, "ctl.stack[0].target[1]")], 1);
  // P2 answers: counter can only target the burn (P2 controls no entry).
  sem.successors(cast, out);
  ASSERT_EQ(moves(sem, out), "action counter P2, pass P2");
  EXPECT_EQ(sem.describe(cast, out[0], 0).text,
            "P2 answers with 'counter' (speed 2) targeting entry 0 ('burn')");
  // [burn P1 -> P2 high, counter P2 -> entry 0], P1 to act: recall picks
  // its own burn (entry 0) and a refund of 0 or 1.
  const StateVec countered = out[0].state;
  sem.successors(countered, out);
  ASSERT_EQ(moves(sem, out), "action recall P1, action recall P1, pass P1");
  EXPECT_EQ(sem.describe(countered, out[1], 1).text,
            "P1 answers with 'recall' (speed 2) targeting entry 0 ('burn'), choosing refund = 1");
  EXPECT_EQ(out[1].state[field(sem, "ctl.stack[2].target[0]")], 0);
  EXPECT_EQ(out[1].state[field(sem, "ctl.stack[2].target[1]")], 1);
  // Both pass: recall resolves, negating the burn; the counter (and its
  // target) moves down to position 0.
  StateVec resolving = out[1].state;
  resolving[field(sem, "ctl.passes")] = 1;
  sem.successors(resolving, out);
  ASSERT_EQ(moves(sem, out).substr(0, 17), "resolve recall P2");
  const auto r = std::find_if(out.begin(), out.end(),
                              [](const Successor& x) { return x.kind == MoveKind::resolve; });
  const auto ri = static_cast<std::uint32_t>(r - out.begin());
  EXPECT_EQ(sem.describe(resolving, *r, ri).text,
            "'recall' resolves targeting entry 0 ('burn'), choosing refund = 1; 'burn' is negated "
            "(refunds 0→1)");
  const StateVec recalled = r->state;
  EXPECT_EQ(recalled[field(sem, "ctl.stack_size")], 1);
  EXPECT_EQ(recalled[field(sem, "ctl.stack[0].action")], 1);
  EXPECT_EQ(recalled[field(sem, "ctl.stack[0].target[0]")], 0);
  EXPECT_EQ(recalled[field(sem, "ctl.stack[1].action")], 0);
  EXPECT_EQ(recalled[field(sem, "ctl.stack[2].target[1]")], 0);
  // The counter's target (position 0) is no longer below it: it does nothing.
  StateVec fizzle = recalled;
  fizzle[field(sem, "ctl.passes")] = 1;
  sem.successors(fizzle, out);
  const auto f = std::find_if(out.begin(), out.end(),
                              [](const Successor& x) { return x.kind == MoveKind::resolve; });
  ASSERT_NE(f, out.end());
  EXPECT_EQ(sem.describe(fizzle, *f, static_cast<std::uint32_t>(f - out.begin())).text,
            "'counter' resolves targeting entry 0; 'counter' does nothing: its targets are no "
            "longer legal");
  EXPECT_EQ(f->state[field(sem, "ctl.stack_size")], 0);
  EXPECT_EQ(f->state[field(sem, "ctl.stack[0].target[0]")], 0);
}

// Events with arguments (tests/fixtures/semantics/event-args.yaml): a
// pending trigger keeps the arguments it was fired with, the transcript
// names them, and a second firing while it is pending is not seen: after
// 'double' (hit for 1, then hit for 2) P2's 'wounded' resolves once, for
// the first hit. The counts are the explorer's (the compiled generator, the
// SMT engine and SPIN agree on them in their own tests).
TEST(SemanticsYaml, EventArgumentsAreKeptWhilePending) {
  const auto g = load(fixture("event-args.yaml"));
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  const auto c = explore(sem);
  EXPECT_EQ(c.states, 299U);
  EXPECT_EQ(c.transitions, 437U);
  EXPECT_EQ(
      sem.layout().fields[static_cast<std::size_t>(field(sem, "ctl.pending[wounded][P2].n"))].hi,
      2);
  std::set<std::string> wounded;
  for_each_move(sem, [&](const StateVec& s, const Successor& x, std::uint32_t i) {
    const std::string text = sem.describe(s, x, i).text;
    if (text.rfind("trigger 'wounded'", 0) == 0 && s[field(sem, "life[P2]")] == 3) {
      wounded.insert(text);
    }
  });
  EXPECT_EQ(wounded, (std::set<std::string>{
                         "trigger 'wounded' (P2) on hit(P2, 1, 'blade', false) (life[P2] 3→2)",
                         "trigger 'wounded' (P2) on hit(P2, 1, 'blade', true) (life[P2] 3→2)"}));
}

// End conditions naming a player (docs/examples/end_per_player.yaml): the
// transcripts say that P1 wins by 'breach' and P2 by 'held', and never the
// other way round.
TEST(SemanticsYaml, EndsNamingAPlayerEndTheGameForThatPlayer) {
  const auto g = load(std::string(LOOPHOLE_SOURCE_DIR) + "/docs/examples/end_per_player.yaml");
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  std::set<std::string> ends;
  for_each_move(sem, [&](const StateVec& s, const Successor& x, std::uint32_t i) {
    const std::string text = sem.describe(s, x, i).text;
    for (const std::string end : {"'breach': ", "'held': "}) {
      const auto at = text.find(end);
      if (at == std::string::npos) continue;
      ends.insert(text.substr(at, text.find(' ', at + end.size()) - at));
    }
  });
  EXPECT_EQ(ends, (std::set<std::string>{"'breach': P1", "'held': P2"}));
}

// Speed 3 answering speed 3 forever: the chain grows until the stack is
// full, and the push past it is a stack-overflow gap, reached by a
// replayable trace.
TEST(SemanticsYaml, UnboundedResponseChainReachesStackOverflow) {
  const auto g = load("inline/mirror.yaml", R"yaml(
loophole: 1
game: mirror
scope: {stack: 3, turns: 1}
speeds: [1, 3]
windows:
  main:
    protocol: priority
    active: {lead: [1], answer: [3]}
    opponent: {lead: [], answer: [3]}
actions:
  - name: spark
    who: active
    speed: 1
    limit: {per_turn: 1}
  - name: mirror
    who: any
    speed: 3
turn:
  phases:
    - name: main
      steps:
        - name: main
          window: main
)yaml");
  ASSERT_TRUE(g.has_value());
  Semantics sem(*g);
  // BFS with parents to the first stack-overflow gap state.
  std::map<StateVec, std::pair<StateVec, std::uint32_t>> parent;
  std::deque<StateVec> queue;
  const StateVec init = sem.initial_states().at(0);
  parent[init] = {init, 0};
  queue.push_back(init);
  std::optional<StateVec> found;
  std::vector<Successor> out;
  while (!queue.empty() && !found) {
    const StateVec s = queue.front();
    queue.pop_front();
    sem.successors(s, out);
    for (std::uint32_t i = 0; i < out.size(); ++i) {
      if (parent.count(out[i].state) != 0) continue;
      parent[out[i].state] = {s, i};
      queue.push_back(out[i].state);
      if (out[i].state[sem.layout().over] == 2) found = out[i].state;
    }
  }
  ASSERT_TRUE(found.has_value());
  const GapSite& site = sem.gaps().at(static_cast<std::size_t>((*found)[sem.layout().gap] - 1));
  EXPECT_EQ(site.kind, GapSite::Kind::stack_overflow);
  EXPECT_EQ(site.rule, "action:mirror");
  // Rebuild the path and replay it.
  std::vector<std::pair<StateVec, std::uint32_t>> path;
  for (StateVec s = *found; s != init; s = parent[s].first)
    path.emplace_back(parent[s].first, parent[s].second);
  Trace t;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    sem.successors(it->first, out);
    t.steps.push_back(sem.describe(it->first, out[it->second], it->second));
  }
  // start, P1 spark, P2 mirror, P1 mirror (3 entries), then P2's push past them.
  ASSERT_EQ(t.steps.size(), 5u);
  EXPECT_EQ(t.steps[2].text, "P2 answers with 'mirror' (speed 3)");
  EXPECT_EQ(t.steps[3].text, "P1 answers with 'mirror' (speed 3)");
  EXPECT_EQ(t.steps[4].text,
            "P2 answers with 'mirror' (speed 3); rule gap: 'mirror' pushed onto a full stack "
            "(3 entries)");
  const auto r = sem.replay(t);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.states.back(), *found);
}

// --- integer overflow -----------------------------------------------------------------

// The overflow sites of a game: "rule line:col message", in table order.
std::vector<std::string> overflow_sites(const Semantics& sem) {
  std::vector<std::string> out;
  for (const GapSite& g : sem.gaps()) {
    if (g.kind != GapSite::Kind::overflow) continue;
    out.push_back(g.rule + " " + std::to_string(g.where.line) + ":" + std::to_string(g.where.col) +
                  " " + g.message);
  }
  return out;
}

// Every reachable state (breadth first from the initial ones) and the gap
// sites among them, as their messages.
std::set<std::string> reached_gaps(const Semantics& sem, std::size_t& states) {
  std::set<StateVec> seen;
  std::deque<StateVec> work;
  for (const StateVec& s : sem.initial_states()) {
    if (seen.insert(s).second) work.push_back(s);
  }
  std::set<std::string> gaps;
  std::vector<Successor> out;
  while (!work.empty()) {
    const StateVec s = work.front();
    work.pop_front();
    if (s[sem.layout().over] == 2) {
      const GapSite& g = sem.gaps().at(static_cast<std::size_t>(s[sem.layout().gap] - 1));
      gaps.insert(g.rule + " " + g.message);
      continue;
    }
    sem.successors(s, out);
    for (const Successor& n : out) {
      if (seen.insert(n.state).second) work.push_back(n.state);
    }
  }
  states = seen.size();
  return gaps;
}

// Each operation at the 64-bit bounds (tests/fixtures/semantics/overflow-ops.yaml)
// has one overflow site, at the expression, and each is reached as a rule
// gap: nothing wraps and nothing traps (INT64_MIN / -1 and % -1 raise SIGFPE
// when they run). A division by a constant -1 keeps no zero-divisor site.
TEST(Semantics, OverflowOfEveryOperationIsARuleGap) {
  const auto g = load(fixture("overflow-ops.yaml"));
  ASSERT_TRUE(g.has_value());
  const Semantics sem(*g);
  const std::vector<std::string> want = {
      "action:divide 29:76 integer overflow in 'low / minus_one'",
      "action:remainder 30:79 integer overflow in 'low % minus_one'",
      "action:absolute 31:78 integer overflow in 'abs(low)'",
      "action:negative 32:78 integer overflow in '-low'",
      "action:plus 33:74 integer overflow in 'high + x'",
      "action:minus 34:75 integer overflow in 'low - x'",
      "action:times 35:75 integer overflow in 'quarter * (x + 3)'",
      "action:unrolled 37:14 integer overflow in 'sum i in 1..4: quarter'",
      "action:looped 39:14 integer overflow in 'sum i in 1..9: quarter'",
  };
  EXPECT_EQ(overflow_sites(sem), want);
  for (const GapSite& site : sem.gaps()) EXPECT_NE(site.kind, GapSite::Kind::div_zero);
  std::size_t states = 0;
  const std::set<std::string> gaps = reached_gaps(sem, states);
  std::set<std::string> expected;
  for (const std::string& w : want) {
    const std::size_t space = w.find(' ');
    expected.insert(w.substr(0, space) + w.substr(w.find(' ', space + 1)));
  }
  EXPECT_EQ(gaps, expected);
  EXPECT_EQ(states, 37u);
}

// The interval analysis: with the params inside 64 bits by a margin, every
// operation provably fits and no overflow site is made (a site would widen
// ctl.gap for nothing); a sum over 1..4 of 1 cannot overflow either.
TEST(Semantics, NoOverflowSiteWhereTheIntervalsFit) {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  model::LoadOptions options;
  options.param_overrides = {{"low", -5}, {"high", 5}, {"minus_one", 1}, {"quarter", 1}};
  const auto g = model::load_game(fixture("overflow-ops.yaml"), options, sources, sink);
  ASSERT_TRUE(g.has_value()) << sink.render(sources);
  const Semantics sem(*g);
  EXPECT_EQ(overflow_sites(sem), std::vector<std::string>{});
  // x := low / minus_one and the rest: range sites only (9 assignments).
  EXPECT_EQ(sem.gaps().size(), 9u);
}

// Slot ranges bound a product: 32-bit slots times a 32-bit constant fit,
// the same slots times 2^40 times 2^40 do not. The site is the outer
// product, and a state that makes it overflow is a gap there.
TEST(Semantics, OverflowSitesFollowTheDeclaredRanges) {
  const std::string text = R"yaml(
loophole: 1
game: ranges
players: 2
params:
  k: {default: 1099511627776}
state:
  a: {type: int, range: [-1000, 1000], init: 1000}
  b: {type: int, range: [0, 1], init: 0}
turn:
  phases:
    - name: main
      steps:
        - name: s
          do: |
            b := if a * 2147483647 > 0 then 1 else 0
            b := if a * k * k > 0 then 1 else 0
)yaml";
  const auto g = load("ranges.yaml", text);
  ASSERT_TRUE(g.has_value());
  const Semantics sem(*g);
  EXPECT_EQ(overflow_sites(sem),
            std::vector<std::string>{"step:main.s 17:21 integer overflow in 'a * k * k'"});
  std::size_t states = 0;
  EXPECT_EQ(reached_gaps(sem, states),
            std::set<std::string>{"step:main.s integer overflow in 'a * k * k'"});
}

}  // namespace
}  // namespace loophole::checker
