// Engine agreement: the same fixtures through the explicit engine and the
// SMT engine, with the same expectations. Each engine answers, per question
// (a deadlock group, a rule-gap site, an end condition per player, a user
// property), whether a witness exists within depth K — the explicit search's
// depth, so both cover every reachable state — and how long its trace is:
// BFS and BMC with increasing depth both give shortest traces, so the
// lengths must be equal. The typed suite pins the exact answers per fixture
// for every engine; the parameterised one requires the two engines to agree
// on every fixture of tests/fixtures/{findings,semantics,smt}.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/smt/engine.hpp"

namespace loophole::smt {
namespace {

namespace fs = std::filesystem;
using properties::Finding;
using properties::Kind;
using properties::Verdict;

// found: a witness (deadlock, gap, violation, reached goal) with a trace of
// `trace` moves; otherwise none within the depth.
struct Outcome {
  bool found = false;
  std::size_t trace = 0;
  friend bool operator==(const Outcome&, const Outcome&) = default;
};
using Answers = std::map<std::string, Outcome>;

std::string show(const Answers& a) {
  std::string s;
  for (const auto& [k, v] : a) {
    s += "    {\"" + k + "\", {" + (v.found ? "true" : "false") + ", " + std::to_string(v.trace) +
         "}},\n";
  }
  return s;
}

properties::CheckSelection selection() {
  properties::CheckSelection s;
  s.response_loops = false;
  s.stalemates = false;
  s.dead_rules = false;
  s.report_holds = true;
  return s;
}

Answers answers(const model::Game& g, const std::vector<Finding>& found) {
  Answers out;
  for (const auto& f : found) {
    const std::size_t len = f.trace ? f.trace->size() : 0;
    switch (f.kind) {
      case Kind::deadlock:
      case Kind::rule_gap:
        // `unknown`: "no other one within the depth", which the map says by
        // leaving it out; a violation is a witness with its trace.
        if (f.message.starts_with("candidate") || f.verdict == Verdict::unknown) break;
        EXPECT_EQ(f.verdict, Verdict::violated) << f.message;
        EXPECT_TRUE(f.trace) << f.message;
        out[std::string(f.kind == Kind::deadlock ? "deadlock " : "rule-gap " + f.rule + " ") +
            f.message] = Outcome{true, len};
        break;
      case Kind::unreachable_win:
        // Not reached within the depth: proved never (violated) or not
        // settled beyond it (unknown). Nothing else is an answer.
        if (f.verdict == Verdict::violated || f.verdict == Verdict::unknown) {
          out["unreached " + f.rule] = Outcome{false, 0};
        } else {
          ADD_FAILURE() << "unreachable-win with verdict " << properties::to_string(f.verdict)
                        << ": " << f.message;
        }
        break;
      case Kind::property_violation: {
        const auto it = std::find_if(g.properties.begin(), g.properties.end(),
                                     [&](const auto& p) { return "property:" + p.name == f.rule; });
        if (it == g.properties.end() || it->kind == model::Property::Kind::leads_to) break;
        const bool reachable = it->kind == model::Property::Kind::reachable;
        const bool witness =
            reachable ? f.verdict == Verdict::holds : f.verdict == Verdict::violated;
        out[std::string(reachable ? "reached " : "violated ") + f.rule] =
            Outcome{witness, witness ? len : 0};
        break;
      }
      default:
        break;
    }
  }
  return out;
}

struct Loaded {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::optional<model::Game> game;
  std::unique_ptr<checker::Semantics> sem;
  int depth = 0;  // K: the deepest reachable state, in moves, at most max_depth
  bool capped = false;
};

// Deeper fixtures are compared within this depth, to keep the suite fast.
constexpr int max_depth = 10;

// Only witnesses within depth K count. An end condition has no trace when it
// is reached, so when K does not cover every reachable state, end conditions
// are not compared.
Answers within(Answers a, int depth, bool capped) {
  for (auto it = a.begin(); it != a.end();) {
    auto& o = it->second;
    if (o.found && o.trace > static_cast<std::size_t>(depth)) o = Outcome{false, 0};
    const bool several = it->first.starts_with("deadlock ") || it->first.starts_with("rule-gap ");
    if ((capped && it->first.starts_with("unreached ")) || (several && !o.found)) {
      it = a.erase(it);
    } else {
      ++it;
    }
  }
  return a;
}

std::unique_ptr<Loaded> load(const std::string& path,
                             const std::map<std::string, std::int64_t>& params = {},
                             int cap = max_depth) {
  auto l = std::make_unique<Loaded>();
  model::LoadOptions options;
  options.param_overrides = params;
  options.override_origin = model::SourceSpan{"<test>", 0, 0, 0};
  l->game = model::load_game(path, options, l->sources, l->sink);
  EXPECT_TRUE(l->game) << l->sink.render(l->sources);
  if (!l->game) return l;
  l->sem = std::make_unique<checker::Semantics>(*l->game);
  checker::ExplicitOptions eo;
  eo.threads = 1;
  const int deepest = static_cast<int>(checker::explore(*l->sem, eo)->statistics().depth) - 1;
  l->depth = std::min(cap, deepest);
  l->capped = deepest > cap;
  return l;
}

struct ExplicitEngine {
  static Answers run(const Loaded& l) {
    checker::ExplicitOptions eo;
    eo.threads = 1;
    const auto graph = checker::explore(*l.sem, eo);
    EXPECT_EQ(graph->completion(), checker::Completion::complete);
    return within(answers(*l.game, properties::check_all(*graph, selection())), l.depth, l.capped);
  }
};

struct SmtEngine {
  static Answers run(const Loaded& l) {
    Engine engine(*l.sem);
    EXPECT_FALSE(engine.unsupported()) << engine.unsupported()->message();
    Options o;
    o.depth = l.depth;
    o.induction = false;
    o.completeness = false;
    o.timeout_ms = 30000;
    return within(answers(*l.game, engine.check(o, selection()).findings), l.depth, l.capped);
  }
};

// ---------------------------------------------------------------------------
// Typed: the same pinned answers from every engine, one fixture per kind of
// question (a deadlock, a rule gap, a violated property, an unreachable win,
// a reachable property and invariants that hold).

struct Pinned {
  std::string file;  // under tests/fixtures/
  Answers expected;
};

const std::vector<Pinned>& pinned() {
  static const std::vector<Pinned> cases = {
      {"findings/deadlock/no-pass.yaml",
       {{"deadlock in 'combat · fight', P1 holds priority and can neither act nor pass",
         {true, 2}}}},
      {"findings/rule-gap/empty-deck.yaml",
       {{"rule-gap step:main.draw draw from an empty deck", {true, 3}}}},
      {"findings/property-violation/hand-limit.yaml",
       {{"violated property:hand_limit", {true, 6}}}},
      {"findings/unreachable-win/first-player-only.yaml",
       {{"unreached end:points/P2", {false, 0}}}},
      {"findings/property-violation/holds.yaml",
       {{"reached property:full_treasury", {true, 6}},
        {"violated property:hand_limit", {false, 0}},
        {"violated property:no_overflow", {false, 0}}}},
  };
  return cases;
}

template <class E>
class EngineAgreement : public ::testing::Test {};
using Engines = ::testing::Types<ExplicitEngine, SmtEngine>;
TYPED_TEST_SUITE(EngineAgreement, Engines);

TYPED_TEST(EngineAgreement, PinnedAnswers) {
  for (const auto& c : pinned()) {
    const auto l = load(std::string(LOOPHOLE_SOURCE_DIR) + "/tests/fixtures/" + c.file);
    ASSERT_TRUE(l->game);
    const Answers got = TypeParam::run(*l);
    EXPECT_FALSE(got.empty()) << c.file;
    EXPECT_EQ(got, c.expected) << c.file << ":\n" << show(got);
  }
}

// ---------------------------------------------------------------------------
// Every fixture: the two engines agree.

std::vector<std::string> fixtures() {
  std::vector<std::string> out;
  const fs::path root = fs::path(LOOPHOLE_SOURCE_DIR) / "tests" / "fixtures";
  for (const char* dir : {"findings", "semantics", "smt"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (e.path().extension() == ".yaml") out.push_back(e.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

class Agreement : public ::testing::TestWithParam<std::string> {};

TEST_P(Agreement, SameAnswersAndTraceLengths) {
  const auto l = load(GetParam());
  ASSERT_TRUE(l->game);
  const Answers expl = ExplicitEngine::run(*l);
  const Answers smt = SmtEngine::run(*l);
  EXPECT_EQ(expl, smt) << "depth " << l->depth << "\nexplicit:\n"
                       << show(expl) << "smt:\n"
                       << show(smt);
}

// Seed rulesets at the reduced scopes of tests/seeds, within three moves:
// the language as the seeds use it (priority windows with a stack, triggers,
// tags, records), not only the constructs the fixtures plant.
TEST(SeedAgreement, OperatorsAndCosmereWithinThreeMoves) {
  struct Seed {
    const char* file;
    std::map<std::string, std::int64_t> params;
  };
  for (const Seed& seed :
       {Seed{"operators.yaml", {{"item_copies", 0}}},
        Seed{"cosmere.yaml", {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}}}}) {
    const auto l =
        load(std::string(LOOPHOLE_SOURCE_DIR) + "/rulesets/" + seed.file, seed.params, 3);
    ASSERT_TRUE(l->game);
    const Answers expl = ExplicitEngine::run(*l);
    const Answers smt = SmtEngine::run(*l);
    EXPECT_EQ(expl, smt) << seed.file << "\nexplicit:\n" << show(expl) << "smt:\n" << show(smt);
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Agreement, ::testing::ValuesIn(fixtures()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           const fs::path p(info.param);
                           std::string name =
                               p.parent_path().filename().string() + "_" + p.stem().string();
                           for (char& ch : name) {
                             if (std::isalnum(static_cast<unsigned char>(ch)) == 0) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace loophole::smt
