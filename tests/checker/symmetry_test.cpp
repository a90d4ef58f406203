// Slot symmetry (checker/src/explicit/symmetry.hpp): the canonical forms, the
// syntactic decision, and searches with and without it on the fixtures of
// tests/fixtures/symmetry, whose state counts are known: one state per orbit,
// the same shortest distances, and traces that replay concretely.
#include "explicit/symmetry.hpp"

#include <map>
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"

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
  EXPECT_EQ(sym.summary(), "slots of units");
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
  EXPECT_EQ(on->statistics().symmetry, "slots of units");
  EXPECT_EQ(on->statistics().symmetric_arrays, std::vector<std::string>{"units"});
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
  EXPECT_EQ(on->statistics().symmetry, "slots of units");
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
  EXPECT_FALSE(sym.active());
  EXPECT_THAT(sym.summary(), HasSubstr("off: 'i' used as a value at "));
  EXPECT_THAT(sym.summary(), HasSubstr("broken.yaml:51:18"));
  EXPECT_THAT(sym.summary(), HasSubstr("'marks' indexed by an expression, not a binder, at "));
  EXPECT_THAT(sym.summary(), HasSubstr("the 'for' over slots reads a variable it adds to at "));
  EXPECT_THAT(sym.summary(), HasSubstr("broken.yaml:31:18"));
  const auto on = run(*l->sem, true);
  const auto off = run(*l->sem, false);
  EXPECT_EQ(on->size(), off->size());
  EXPECT_EQ(on->statistics().orbit_states, 0U);
  EXPECT_FALSE(on->reduced());
}

// The decision reads the lowered rules: 'opponent' and 'next(active)' are
// the same lowered player, so one binder indexing both is one owner's.
TEST(Symmetry, OwnersCompareAsLowered) {
  const auto l = load("same-owner.yaml");
  const Symmetry sym(*l->game, l->sem->layout().fields.size(), true);
  EXPECT_EQ(sym.summary(), "slots of units");
  ASSERT_EQ(sym.groups().size(), 2U);
  const auto off = run(*l->sem, false);
  const auto on = run(*l->sem, true);
  EXPECT_EQ(off->size(), 994U);
  EXPECT_EQ(on->size(), 445U);  // (the IR decision, two owners, stored 994)
  expect_same_depths(*off, *on);
}

TEST(Symmetry, NothingToSayWithoutArrays) {
  const auto l = test_support::load_game(
      std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/findings/deadlock/clean.yaml",
      {.with_semantics = true});
  ASSERT_TRUE(l->game.has_value());
  const auto on = run(*l->sem, true);
  EXPECT_EQ(on->statistics().symmetry, "");
  EXPECT_FALSE(on->reduced());
}

}  // namespace
}  // namespace loophole::checker
