// Slot and player symmetry (checker/src/explicit/symmetry.hpp): the
// canonical forms, the syntactic decisions, and searches with and without
// them on the fixtures of tests/fixtures/symmetry, whose state counts are
// known: one state per orbit, the same shortest distances, traces that
// replay concretely, and for player rotations the concrete graph itself
// (PlayerView, player_view.hpp) move by move.
#include "explicit/symmetry.hpp"

#include <map>
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"

#include "explicit/player_view.hpp"
#include "loaded_game.hpp"

namespace loophole::checker {
namespace {

using ::testing::HasSubstr;

std::string fixture(const std::string& name) {
  return std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/symmetry/" + name;
}

std::unique_ptr<test_support::LoadedGame> load(const std::string& name,
                                               std::map<std::string, std::int64_t> params = {}) {
  auto l = test_support::load_game(fixture(name), {.params = params, .with_semantics = true});
  EXPECT_TRUE(l->game.has_value()) << l->diagnostics();
  return l;
}

std::unique_ptr<ExploredGraph> run(const Semantics& sem, bool symmetry, int threads = 1) {
  ExplicitOptions o;
  o.threads = threads;
  o.symmetry = symmetry;
  return explore(sem, o);
}

// The distinct valuations of the data fields among the explored states.
std::size_t data_valuations(const ExploredGraph& g) {
  std::set<StateVec> seen;
  for (StateId s = 0; s < g.size(); ++s) {
    StateVec v = g.state(s);
    v.resize(g.semantics().layout().data_fields);
    seen.insert(std::move(v));
  }
  return seen.size();
}

// Every concrete state of `off` has its canonical form in `on` at the same
// BFS depth (the shortest distance is one of the orbit), and every state of
// `on` is such a form.
void expect_same_depths(const ExploredGraph& off, const ExploredGraph& on) {
  std::map<StateVec, std::uint32_t> depth;
  for (StateId s = 0; s < off.size(); ++s) {
    StateVec c = off.state(s);
    on.canonicalise(c);
    const auto [it, fresh] = depth.emplace(c, off.depth(s));
    if (!fresh) it->second = std::min(it->second, off.depth(s));
  }
  ASSERT_EQ(depth.size(), on.size());
  for (StateId s = 0; s < on.size(); ++s) {
    const auto it = depth.find(on.state(s));
    ASSERT_NE(it, depth.end()) << "stored state " << s << " is no canonical form of a state";
    EXPECT_EQ(it->second, on.depth(s)) << "state " << s;
  }
}

TEST(Symmetry, SortsEachOwnersRecords) {
  const auto l = load("slots.yaml");
  const Layout& layout = l->sem->layout();
  const Symmetry sym(*l->game, layout.fields.size(), true);
  ASSERT_TRUE(sym.active());
  EXPECT_EQ(sym.summary(), "players (rotations of 2); slots of units");
  // units[P1][0..1] and units[P2][0..1], records (on, level).
  ASSERT_EQ(sym.groups().size(), 2U);
  EXPECT_EQ(sym.groups()[0].first, 0);
  EXPECT_EQ(sym.groups()[1].first, 4);
  EXPECT_EQ(sym.groups()[1].count, 2);
  EXPECT_EQ(sym.groups()[1].width, 2);

  StateVec s(layout.fields.size(), 0);
  s[layout.turn] = 1;
  const StateVec p1 = {1, 1, 1, 0}, p2 = {0, 0, 1, 0};
  std::copy(p1.begin(), p1.end(), s.begin());
  std::copy(p2.begin(), p2.end(), s.begin() + 4);
  StateVec c = s;
  EXPECT_TRUE(sym.canonicalise(c.data()));
  EXPECT_EQ(StateVec(c.begin(), c.begin() + 8), (StateVec{1, 0, 1, 1, 0, 0, 1, 0}));
  EXPECT_TRUE(std::equal(c.begin() + 8, c.end(), s.begin() + 8));  // control untouched
  StateVec again = c;
  EXPECT_FALSE(sym.canonicalise(again.data()));
  EXPECT_EQ(sym.orbit_size(c.data()), 4U);  // two distinct records for each owner

  // The packed form: canonicalised in place, the same state.
  const Packer packer(layout);
  std::vector<Word> w(packer.words());
  packer.pack(s, w.data());
  std::vector<std::int32_t> scratch(packer.unpacked_size());
  sym.canonicalise_packed(packer, w.data(), scratch.data());
  StateVec back;
  packer.unpack(w.data(), back);
  EXPECT_EQ(back, c);
  EXPECT_EQ(sym.orbit_size_packed(packer, w.data()), 4U);

  StateVec equal(layout.fields.size(), 0);
  EXPECT_EQ(sym.orbit_size(equal.data()), 1U);  // all records alike
}

TEST(Symmetry, StoresOneStatePerOrbit) {
  const auto l = load("slots.yaml");
  const auto off = run(*l->sem, false);
  const auto on = run(*l->sem, true);
  // A pair of units takes 3 x 3 values, 6 up to order, for each player.
  EXPECT_EQ(data_valuations(*off), 81U);
  EXPECT_EQ(data_valuations(*on), 36U);
  EXPECT_EQ(off->size(), 514U);
  EXPECT_EQ(on->size(), 235U);
  // Every permutation is reachable here, so the orbits are the states.
  EXPECT_EQ(on->statistics().orbit_states, off->size());
  EXPECT_EQ(off->statistics().orbit_states, 0U);
  EXPECT_EQ(on->statistics().symmetry, "players (rotations of 2); slots of units");
  EXPECT_EQ(on->statistics().symmetric_arrays, (std::vector<std::string>{"players", "units"}));
  // Stored: one state per orbit of the rotations and the slot sort; the
  // graph the analyses read is that of the slot sort alone (above).
  EXPECT_EQ(on->statistics().states, 127U);
  EXPECT_EQ(off->statistics().symmetry, "off (--no-symmetry)");
  expect_same_depths(*off, *on);
  // Two threads store the same states.
  const auto two = run(*l->sem, true, 2);
  EXPECT_EQ(two->size(), on->size());
  EXPECT_EQ(two->statistics().transitions, on->statistics().transitions);
}

TEST(Symmetry, FactorGrowsWithTheSlots) {
  const auto l = load("slots.yaml", {{"copies", 3}});
  const auto off = run(*l->sem, false);
  const auto on = run(*l->sem, true);
  // 27 valuations of three units, 10 up to order, for each player.
  EXPECT_EQ(data_valuations(*off), 27U * 27U);
  EXPECT_EQ(data_valuations(*on), 10U * 10U);
  EXPECT_EQ(on->statistics().orbit_states, off->size());
  expect_same_depths(*off, *on);
}

TEST(Symmetry, TracesReplayConcretely) {
  const auto l = load("slots.yaml", {{"copies", 3}});
  const auto on = run(*l->sem, true);
  for (StateId s = 0; s < on->size(); s += 7) {
    const Trace t = on->trace_to(s);  // replayed on the semantics, or it throws
    EXPECT_EQ(t.size(), on->depth(s));
  }
}

TEST(Symmetry, LowestFreeSlotIdiom) {
  const auto l = load("first-free.yaml", {{"copies", 3}});
  const auto off = run(*l->sem, false);
  const auto on = run(*l->sem, true);
  EXPECT_EQ(on->statistics().symmetry, "players (rotations of 2); slots of units");
  // The first free slot: deployed units come first, so the concrete search
  // meets 1 + 2 + 4 + 8 valuations per player, 1 + 2 + 3 + 4 up to order.
  EXPECT_EQ(data_valuations(*off), 15U * 15U);
  EXPECT_EQ(data_valuations(*on), 10U * 10U);
  // The orbits hold permutations no rule reaches here.
  EXPECT_GT(on->statistics().orbit_states, off->size());
  expect_same_depths(*off, *on);
  for (StateId s = 0; s < on->size(); s += 5) EXPECT_EQ(on->trace_to(s).size(), on->depth(s));
}

TEST(Symmetry, SlotNumbersBreakIt) {
  const auto l = load("broken.yaml");
  const Symmetry sym(*l->game, l->sem->layout().fields.size(), true);
  EXPECT_FALSE(sym.slots());
  EXPECT_EQ(sym.rotations(), 2);
  EXPECT_THAT(sym.summary(), HasSubstr("off: 'i' used as a value at "));
  EXPECT_THAT(sym.summary(), HasSubstr("broken.yaml:51:18"));
  EXPECT_THAT(sym.summary(), HasSubstr("'marks' indexed by an expression, not a binder, at "));
  EXPECT_THAT(sym.summary(), HasSubstr("the 'for' over slots reads a variable it adds to at "));
  EXPECT_THAT(sym.summary(), HasSubstr("broken.yaml:31:18"));
  const auto on = run(*l->sem, true);
  const auto off = run(*l->sem, false);
  EXPECT_EQ(on->size(), off->size());
  EXPECT_EQ(on->statistics().orbit_states, off->size());  // (the rotations' orbits)
  EXPECT_EQ(on->statistics().states, 232U);
  EXPECT_FALSE(on->reduced());
}

// The decision reads the lowered rules: 'opponent' and 'next(active)' are
// the same lowered player, so one binder indexing both is one owner's.
TEST(Symmetry, OwnersCompareAsLowered) {
  const auto l = load("same-owner.yaml");
  const Symmetry sym(*l->game, l->sem->layout().fields.size(), true);
  EXPECT_EQ(sym.summary(), "players (rotations of 2); slots of units");
  ASSERT_EQ(sym.groups().size(), 2U);
  const auto off = run(*l->sem, false);
  const auto on = run(*l->sem, true);
  EXPECT_EQ(off->size(), 994U);
  EXPECT_EQ(on->size(), 445U);  // (the IR decision, two owners, stored 994)
  expect_same_depths(*off, *on);
}

// Without arrays of records only the rotations are said; the view's states
// are concrete (nothing is sorted).
TEST(Symmetry, PlayersWithoutArrays) {
  const auto l = test_support::load_game(
      std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/deadlock/clean.yaml",
      {.with_semantics = true});
  ASSERT_TRUE(l->game.has_value());
  const auto on = run(*l->sem, true);
  EXPECT_EQ(on->statistics().symmetry, "players (rotations of 2)");
  EXPECT_FALSE(on->reduced());
}

// The graph the analyses read under player rotations is the concrete one:
// the same states (canonical under the slot sort, if any) at the same
// depths, and the same moves from each: the same successor, index, kind,
// progress and chooser.
void expect_concrete_graph(const ExploredGraph& off, const ExploredGraph& on) {
  ASSERT_EQ(on.size(), off.size());
  EXPECT_EQ(on.initial_count(), off.initial_count());
  std::map<StateVec, StateId> id;
  for (StateId s = 0; s < off.size(); ++s) id.emplace(off.state(s), s);
  ASSERT_EQ(id.size(), off.size());
  for (StateId s = 0; s < on.size(); ++s) {
    const auto it = id.find(on.state(s));
    ASSERT_NE(it, id.end()) << "pair " << s << " is no concrete state";
    EXPECT_EQ(on.depth(s), off.depth(it->second)) << "pair " << s;
    const std::vector<Edge> a = on.edges(s), b = off.edges(it->second);
    ASSERT_EQ(a.size(), b.size()) << "pair " << s;
    for (std::size_t j = 0; j < a.size(); ++j) {
      EXPECT_EQ(on.state(a[j].to), off.state(b[j].to)) << "pair " << s << " move " << j;
      EXPECT_EQ(a[j].index, b[j].index);
      EXPECT_EQ(a[j].kind, b[j].kind);
      EXPECT_EQ(a[j].progress, b[j].progress);
      EXPECT_EQ(a[j].chooser, b[j].chooser);
      EXPECT_EQ(a[j].chooser_player, b[j].chooser_player) << "pair " << s << " move " << j;
    }
  }
}

TEST(PlayerSymmetry, RotatesTheActivePlayerToP1) {
  const auto l = load("players-race.yaml");
  const Symmetry sym(*l->game, l->sem->layout().fields.size(), true);
  ASSERT_EQ(sym.rotations(), 2);
  EXPECT_FALSE(sym.slots());
  EXPECT_EQ(sym.summary(), "players (rotations of 2)");
  // score[P1], score[P2], luck[P1], luck[P2], then control fields.
  StateVec s = l->sem->initial_states().at(0);
  const auto active = static_cast<std::size_t>(l->sem->layout().active);
  s[0] = 2, s[1] = 1, s[2] = 0, s[3] = 2, s[active] = 1;
  StateVec r(s.size());
  sym.rotate(s.data(), 1, r.data());
  EXPECT_EQ(r[0], 1);
  EXPECT_EQ(r[1], 2);
  EXPECT_EQ(r[2], 2);
  EXPECT_EQ(r[3], 0);
  EXPECT_EQ(r[active], 0);
  StateVec back(s.size());
  sym.rotate(r.data(), sym.inverse(1), back.data());
  EXPECT_EQ(back, s);
  StateVec c = s;
  EXPECT_TRUE(sym.canonicalise(c.data()));
  EXPECT_EQ(c, r);
  EXPECT_FALSE(sym.canonicalise(c.data()));
}

TEST(PlayerSymmetry, StoresOneStatePerOrbitAndReadsTheConcreteGraph) {
  const auto l = load("players-race.yaml");
  const auto off = run(*l->sem, false);
  const auto on = run(*l->sem, true);
  EXPECT_EQ(off->size(), 127U);
  EXPECT_EQ(on->statistics().states, 67U);
  EXPECT_EQ(on->statistics().orbit_states, 127U);
  EXPECT_EQ(on->statistics().depth, off->statistics().depth);
  EXPECT_EQ(on->statistics().symmetric_arrays, std::vector<std::string>{"players"});
  const auto* view = dynamic_cast<const PlayerView*>(on.get());
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->base().size(), 67U);
  expect_concrete_graph(*off, *on);
  for (StateId s = 0; s < on->size(); ++s) EXPECT_EQ(on->trace_to(s).size(), on->depth(s));
  // Two threads store the same states.
  const auto two = run(*l->sem, true, 2);
  EXPECT_EQ(two->statistics().states, 67U);
  expect_concrete_graph(*off, *two);
}

TEST(PlayerSymmetry, ThreePlayers) {
  const auto l = load("players-deadlock.yaml");
  const auto off = run(*l->sem, false);
  const auto on = run(*l->sem, true);
  EXPECT_EQ(off->size(), 41U);
  EXPECT_EQ(on->statistics().states, 25U);
  EXPECT_EQ(on->statistics().symmetry, "players (rotations of 3)");
  expect_concrete_graph(*off, *on);
  for (StateId s = 0; s < on->size(); ++s) EXPECT_EQ(on->trace_to(s).size(), on->depth(s));
}

TEST(PlayerSymmetry, OffWhereTheRulesTellPlayersApart) {
  const auto literal = load("players-literal.yaml");
  const Symmetry a(*literal->game, literal->sem->layout().fields.size(), true);
  EXPECT_EQ(a.rotations(), 0);
  EXPECT_THAT(a.summary(), HasSubstr("players off: 'P1' named at "));
  EXPECT_THAT(a.summary(), HasSubstr("players-literal.yaml:15:26"));
  const auto order = load("players-order.yaml");
  const Symmetry b(*order->game, order->sem->layout().fields.size(), true);
  EXPECT_EQ(b.rotations(), 0);
  EXPECT_THAT(b.summary(), HasSubstr("players off: 'pick' over the players, in player order at "));
  EXPECT_THAT(b.summary(), HasSubstr("players-order.yaml:14:16"));
  const auto on = run(*order->sem, true);
  EXPECT_EQ(on->statistics().states, on->size());
  EXPECT_EQ(on->statistics().orbit_states, 0U);
  EXPECT_EQ(dynamic_cast<const PlayerView*>(on.get()), nullptr);
}

}  // namespace
}  // namespace loophole::checker
