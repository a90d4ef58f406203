// One-step agreement: on every reachable state of every fixture of
// tests/fixtures/{findings,semantics,smt} and of each seed at a reduced
// scope, the states the SMT transition relation admits one move later are
// exactly the reference semantics' successors (as a set). Trace agreement
// (agreement_test.cpp) only sees the moves some counterexample runs
// through; a move the encoding lacks could stand behind a wrong "proved",
// and one it invents behind a wrong violation. This test sees every move of
// every state. Engine::successors asks the relation with the state
// substituted and simplified (checker/smt/src/successors.hpp, the
// breadth-first layers' successor function): 0.6-4 ms a state on the
// release build, where a solver holding the whole relation took 14-150 ms.
#include <algorithm>
#include <cctype>
#include <deque>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/smt/engine.hpp"

#include "../common/loaded_game.hpp"
#include "../common/sanitized.hpp"
#include "fixture_files.hpp"

namespace loophole::smt {
namespace {

namespace fs = std::filesystem;
using checker::StateVec;

std::string show_state(const StateVec& s) {
  std::ostringstream out;
  out << "[";
  for (std::size_t i = 0; i < s.size(); ++i) out << (i == 0 ? "" : " ") << s[i];
  out << "]";
  return out.str();
}

struct Walk {
  std::size_t states = 0;  // reachable states walked, each asked about
  std::size_t moves = 0;   // distinct (state, successor) pairs compared
  bool complete = true;    // every reachable state was walked (no cap)
  std::size_t disagreements = 0;
};

// Breadth-first over the reference's states (at most `cap`), comparing the
// successor set of every one with the set the relation admits. The first
// few disagreements are reported with the state and the states only one
// side has.
Walk compare(const checker::Semantics& sem, Engine& engine, const std::string& name,
             std::size_t cap) {
  Walk w;
  std::set<StateVec> seen;
  std::deque<StateVec> queue;
  for (const StateVec& s : sem.initial_states()) {
    if (seen.insert(s).second) queue.push_back(s);
  }
  std::vector<checker::Successor> succ;
  while (!queue.empty()) {
    if (w.states == cap) {
      w.complete = false;
      break;
    }
    const StateVec s = std::move(queue.front());
    queue.pop_front();
    ++w.states;
    sem.successors(s, succ);
    std::set<StateVec> reference;
    for (checker::Successor& t : succ) {
      if (seen.insert(t.state).second) queue.push_back(t.state);
      reference.insert(std::move(t.state));
    }
    const std::vector<StateVec> admitted = engine.successors(s);
    const std::set<StateVec> smt(admitted.begin(), admitted.end());
    w.moves += reference.size();
    if (smt == reference) continue;
    if (++w.disagreements > 3) continue;
    std::ostringstream why;
    why << name << ": state " << sem.describe_state(s) << " " << show_state(s)
        << "\n  only the reference has:";
    for (const StateVec& t : reference) {
      if (smt.count(t) == 0) why << "\n    " << show_state(t);
    }
    why << "\n  only smt admits:";
    for (const StateVec& t : smt) {
      if (reference.count(t) == 0) why << "\n    " << show_state(t);
    }
    ADD_FAILURE() << why.str();
  }
  return w;
}

// A fixture over this many states is walked on the release build only:
// cannot-end/operators-stuck, 16,858 states, 12 s of CPU there (the largest
// below it, semantics/stack-targets, takes 1.8 s under the sanitizers).
constexpr std::size_t big_fixture = 5000;

class OneStep : public ::testing::TestWithParam<std::string> {};

TEST_P(OneStep, SuccessorsEqualTheReferenceOnReachableStates) {
  const auto l = test_support::load_game(GetParam(), {.with_semantics = true});
  ASSERT_TRUE(l->game) << l->diagnostics();
  checker::ExplicitOptions eo;
  eo.threads = 1;
  const std::size_t states = checker::explore(*l->sem, eo)->size();
  if (states > big_fixture) LOOPHOLE_RELEASE_ONLY("the relation asked about 16,858 states");
  Engine engine(*l->sem);
  ASSERT_FALSE(engine.unsupported()) << engine.unsupported()->message();
  const Walk w = compare(*l->sem, engine, GetParam(), 20000);
  EXPECT_TRUE(w.complete) << GetParam() << ": more than 20,000 states";
  EXPECT_EQ(w.states, states) << GetParam();
  EXPECT_EQ(w.disagreements, 0U) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Fixtures, OneStep, ::testing::ValuesIn(testing::agreement_fixtures()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return testing::fixture_test_name(info.param);
                         });

// The seeds at reduced scopes: the language as the seeds use it (priority
// windows with a stack, triggers, tags, records), which the fixtures only
// plant one by one. containment: one anomaly, no items, opportunities or
// personnel, a hand of one (1,634 states); cosmere: one face and one number
// card, no aces (1,206); operators: no items or effects (806); speed-biomes:
// no gear, an opening hand of one (11,027: its smallest game that plays a
// tactic, a response window with the stack). Both tests below walk them.
struct Seed {
  const char* file;
  std::map<std::string, std::int64_t> params;
  std::size_t states;  // reachable at that scope (the explicit engine's count)
  std::size_t pairs;   // (state k, k) pairs with k <= 12: the frame-relation test's
  // Encoding containment or speed-biomes takes seconds under the
  // sanitizers: those two run on the release build.
  bool release_only = false;
};

void PrintTo(const Seed& seed, std::ostream* out) { *out << seed.file; }

const auto seeds = ::testing::Values(
    Seed{"containment.yaml",
         {{"hand_target", 1},
          {"item_copies", 0},
          {"opportunity_copies", 0},
          {"personnel_copies", 0},
          {"event_copies", 0}},
         1634,
         13,
         true},
    Seed{"cosmere.yaml",
         {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 1}, {"ace_copies", 0}},
         1206,
         52},
    Seed{"operators.yaml",
         {{"item_copies", 0},
          {"effect_copies", 0},
          {"attack_copies", 0},
          {"defence_copies", 0},
          {"opening_hand", 0}},
         806,
         596},
    Seed{"speed-biomes.yaml",
         {{"gear_copies", 0}, {"opening_hand", 1}, {"anomaly_copies", 0}},
         11027,
         605,
         true});

std::string seed_name(const ::testing::TestParamInfo<Seed>& info) {
  std::string name = fs::path(info.param.file).stem().string();
  for (char& ch : name) {
    if (std::isalnum(static_cast<unsigned char>(ch)) == 0) ch = '_';
  }
  return name;
}

std::unique_ptr<test_support::LoadedGame> load_seed(const Seed& seed) {
  const std::string path = std::string(LOOPHOLE_SOURCE_DIR) + "/rulesets/" + seed.file;
  return test_support::load_game(path, {.params = seed.params, .with_semantics = true});
}

class SeedOneStep : public ::testing::TestWithParam<Seed> {};

// Every state, on the release build (CPU: speed-biomes 9-11 s,
// containment 5 s, cosmere 1 s, operators 0.5 s; the sanitizers make a
// state several times dearer).
TEST_P(SeedOneStep, SuccessorsEqualTheReferenceOnReachableStates) {
  const Seed& seed = GetParam();
  LOOPHOLE_RELEASE_ONLY("the relation asked about every state of a seed");
  const auto l = load_seed(seed);
  ASSERT_TRUE(l->game) << l->diagnostics();
  Engine engine(*l->sem);
  ASSERT_FALSE(engine.unsupported()) << engine.unsupported()->message();
  const Walk w = compare(*l->sem, engine, seed.file, seed.states + 1);
  EXPECT_TRUE(w.complete);
  EXPECT_EQ(w.states, seed.states) << seed.file;
  EXPECT_EQ(w.disagreements, 0U) << seed.file;
}

INSTANTIATE_TEST_SUITE_P(Seeds, SeedOneStep, seeds, seed_name);

// The relation BMC instantiates at frame k holds only the control paths
// possible after k moves (checker/smt/src/control_paths.hpp). On every state
// reached in exactly k moves (layer by layer from the initial states, not
// only the shortest way) it must admit exactly the reference's successors:
// a path pruned wrongly shows here as a successor only the reference has.
// Every such (state, depth) pair up to the depth given is asked about.
struct Layers {
  std::size_t compared = 0;  // (state, depth) pairs compared
  std::size_t disagreements = 0;
  int depth = -1;  // the deepest layer compared
};

Layers compare_layers(const checker::Semantics& sem, Engine& engine, const std::string& name,
                      int max_depth) {
  Layers out;
  std::set<StateVec> layer;
  for (const StateVec& s : sem.initial_states()) layer.insert(s);
  std::vector<checker::Successor> succ;
  for (int k = 0; k <= max_depth && !layer.empty(); ++k) {
    std::set<StateVec> next;
    for (const StateVec& s : layer) {
      ++out.compared;
      sem.successors(s, succ);
      std::set<StateVec> reference;
      for (checker::Successor& t : succ) reference.insert(std::move(t.state));
      next.insert(reference.begin(), reference.end());
      const std::vector<StateVec> admitted = engine.successors(s, 1000, k);
      const std::set<StateVec> smt(admitted.begin(), admitted.end());
      if (smt == reference) continue;
      if (++out.disagreements > 3) continue;
      std::ostringstream why;
      why << name << ": at depth " << k << ", state " << sem.describe_state(s) << " "
          << show_state(s) << ": the reference has " << reference.size()
          << " successors, the relation of frame " << k << " admits " << smt.size();
      ADD_FAILURE() << why.str();
    }
    out.depth = k;
    layer = std::move(next);
  }
  return out;
}

class PrunedOneStep : public ::testing::TestWithParam<std::string> {};

TEST_P(PrunedOneStep, FrameRelationAdmitsEverySuccessorWithinDepth) {
  const auto l = test_support::load_game(GetParam(), {.with_semantics = true});
  ASSERT_TRUE(l->game) << l->diagnostics();
  Engine engine(*l->sem);
  ASSERT_FALSE(engine.unsupported()) << engine.unsupported()->message();
  const Layers w = compare_layers(*l->sem, engine, GetParam(), 10);
  EXPECT_GT(w.compared, 0U);
  EXPECT_EQ(w.disagreements, 0U) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Fixtures, PrunedOneStep,
                         ::testing::ValuesIn(testing::agreement_fixtures()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return testing::fixture_test_name(info.param);
                         });

class SeedPrunedOneStep : public ::testing::TestWithParam<Seed> {};

// On the seeds the pruning must also cut: at depth 0 only the paths of the
// initial states' control remain, fewer than a quarter of them.
TEST_P(SeedPrunedOneStep, FrameRelationAdmitsEverySuccessorWithinDepth) {
  const Seed& seed = GetParam();
  if (seed.release_only) LOOPHOLE_RELEASE_ONLY("encoding a seed of thousands of control paths");
  const auto l = load_seed(seed);
  ASSERT_TRUE(l->game) << l->diagnostics();
  Engine engine(*l->sem);
  ASSERT_FALSE(engine.unsupported()) << engine.unsupported()->message();
  const Layers w = compare_layers(*l->sem, engine, seed.file, 12);
  EXPECT_EQ(w.depth, 12) << seed.file;
  EXPECT_EQ(w.compared, seed.pairs) << seed.file;
  EXPECT_EQ(w.disagreements, 0U) << seed.file;
  Options o;
  o.depth = 2;
  o.induction = false;
  o.completeness = false;
  const Result r = engine.check(o, Questions{});
  ASSERT_EQ(r.statistics.frame_paths.size(), 3U);
  EXPECT_LT(r.statistics.frame_paths[0] * 4, r.statistics.paths) << seed.file;
  EXPECT_GT(r.statistics.frame_controls[0], 0U) << seed.file;
}

INSTANTIATE_TEST_SUITE_P(Seeds, SeedPrunedOneStep, seeds, seed_name);

}  // namespace
}  // namespace loophole::smt
