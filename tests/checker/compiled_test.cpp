// The compiled successor generator against the reference semantics: on every
// state reachable in every ruleset the repository has (fixtures, doc
// examples, the seed games at the reduced scopes of tests/seeds), the two
// must give the same successors in the same order with the same move fields.
// A census checks that those rulesets together use every construct of the
// language, so a construct the compiler got wrong cannot hide; constructs
// the corpus lacks are added by the small rulesets below.
#include "explicit/compiled.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"

#include "disagreement.hpp"
#include "load_ruleset.hpp"
#include "loaded_game.hpp"
#include "native_cache.hpp"
#include "sanitized.hpp"

namespace loophole::checker {
namespace {

namespace fs = std::filesystem;

struct Agreement {
  std::uint64_t states = 0;
  testing::ConditionTally tally;  // what the compiled conditions were asked
  std::size_t compiled = 0;       // conditions that ran compiled
  std::uint64_t successors = 0;
  std::uint64_t gaps = 0;  // rule-gap successors among them
  std::set<GapSite::Kind> gap_kinds;
  bool complete = false;
};

// Breadth-first over the reference's successors from its initial states,
// comparing the compiled successors of every state met (up to `cap` states).
// With `native`, the compiled generator runs as machine code (native.hpp).
Agreement agree(const Semantics& sem, const std::string& name, std::uint64_t cap,
                bool native = false) {
  const CompiledSystem compiled(sem, native ? NativeMode::on : NativeMode::off);
  if (native && compiled.generator() != "native") {
    ADD_FAILURE() << name << ": " << compiled.generator();
    return {};
  }
  const auto exprs = testing::all_conditions(sem.game());
  const Conditions conditions(sem, exprs);
  Agreement a;
  a.compiled = conditions.compiled();
  std::unordered_set<StateVec, testing::VecHash> seen;
  std::vector<StateVec> queue;
  for (const StateVec& s : sem.initial_states()) {
    if (seen.insert(s).second) queue.push_back(s);
  }
  testing::AgreementScratch x(sem);
  const std::vector<Successor>& ref = x.ref;
  int failures = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    if (queue.size() > cap) return a;
    const StateVec s = queue[head];
    std::string diff = testing::disagreement(sem, compiled, s, x);
    if (diff.empty()) diff = testing::condition_disagreement(sem, conditions, exprs, s, a.tally);
    ++a.states;
    a.successors += ref.size();
    if (!diff.empty()) {
      ADD_FAILURE() << name << ": state " << head << " (" << testing::show(s, sem.layout())
                    << "): " << diff;
      if (++failures == 3) return a;
    }
    for (const Successor& succ : ref) {
      if (succ.state[sem.layout().over] == 2) {
        ++a.gaps;
        a.gap_kinds.insert(sem.gaps()[succ.state[sem.layout().gap] - 1].kind);
      }
      if (seen.insert(succ.state).second) queue.push_back(succ.state);
    }
  }
  a.complete = true;
  return a;
}

std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  for (const char* dir : {"tests/fixtures", "docs/examples", "rulesets/examples"}) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().extension() == ".yaml")
        files.push_back(e.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// ---------------------------------------------------------------------------
// The construct census.

class Census {
 public:
  void game(const model::Game& g) {
    stmt(g.setup.get());
    for (const auto& st : g.steps) {
      stmt(st.effects.get());
      expr(st.repeat_while.get());
      expr(st.end_turn_if.get());
      if (st.repeat_while) seen_.insert("step repeat_while");
      if (st.end_turn_if) seen_.insert("step end_turn_if");
      if (st.window >= 0) {
        const auto& w = g.windows[st.window];
        seen_.insert("protocol " + std::to_string(static_cast<int>(w.protocol)));
        for (const auto& r : w.roles) {
          if (r.lead_if_active_idle) seen_.insert("lead_if active_idle");
        }
        for (const auto t : w.order) {
          seen_.insert("sequence turn " + std::to_string(static_cast<int>(t)));
        }
        if (w.protocol == model::Protocol::alternate && !w.may_pass) {
          seen_.insert("alternate without pass");
        }
      }
    }
    for (const auto& a : g.actions) {
      expr(a.guard.get());
      stmt(a.cost.get());
      stmt(a.effect.get());
      if (a.play_kind >= 0) seen_.insert("action plays a card");
      if (a.limit.per_turn > 0) seen_.insert("limit per_turn");
      if (a.limit.per_window > 0) seen_.insert("limit per_window");
      if (!a.answerable) seen_.insert("action not answerable");
      if (!a.negatable) seen_.insert("action not negatable");
      for (const auto& t : a.targets) {
        expr(t.where.get());
        seen_.insert(t.entry ? "entry target" : "target");
      }
      seen_.insert("action who " + std::to_string(static_cast<int>(a.who)));
    }
    for (const auto& t : g.triggers) {
      expr(t.condition.get());
      stmt(t.effect.get());
      if (t.optional) seen_.insert("optional trigger");
      seen_.insert("trigger event " + std::to_string(static_cast<int>(g.events[t.event].kind)));
    }
    for (const auto& e : g.end_conditions) {
      expr(e.condition.get());
      seen_.insert(e.win ? "end win" : "end lose");
    }
  }

  // Every construct the language has (docs/language.md).
  static std::vector<std::string> all() {
    std::vector<std::string> out = {"step repeat_while",
                                    "step end_turn_if",
                                    "protocol 0",
                                    "protocol 1",
                                    "protocol 2",
                                    "lead_if active_idle",
                                    "sequence turn 0",
                                    "sequence turn 1",
                                    "sequence turn 2",
                                    "alternate without pass",
                                    "action plays a card",
                                    "limit per_turn",
                                    "limit per_window",
                                    "action not answerable",
                                    "action not negatable",
                                    "target",
                                    "entry target",
                                    "optional trigger",
                                    "end win",
                                    "end lose"};
    for (int w = 0; w <= static_cast<int>(model::Role::others); ++w) {
      if (w == static_cast<int>(model::Role::each)) continue;  // not an action's `who`
      out.push_back("action who " + std::to_string(w));
    }
    for (int e = 0; e <= static_cast<int>(model::EventDecl::Kind::end_step); ++e) {
      out.push_back("trigger event " + std::to_string(e));
    }
    for (int k = static_cast<int>(model::ExprKind::int_lit);
         k <= static_cast<int>(model::ExprKind::builtin); ++k) {
      out.push_back("expr " + std::to_string(k));
    }
    using model::Op;
    for (Op op : {Op::neg, Op::not_})
      out.push_back("unary " + std::to_string(static_cast<int>(op)));
    for (int op = static_cast<int>(Op::add); op <= static_cast<int>(Op::or_); ++op) {
      out.push_back("binary " + std::to_string(op));
    }
    for (int op = static_cast<int>(Op::exists); op <= static_cast<int>(Op::sum); ++op) {
      out.push_back("quant " + std::to_string(op));
    }
    for (int op = static_cast<int>(Op::min); op <= static_cast<int>(Op::clamp); ++op) {
      out.push_back("builtin " + std::to_string(op));
    }
    for (int d = 0; d <= static_cast<int>(model::Domain::Kind::kinds_tagged); ++d) {
      out.push_back("domain " + std::to_string(d));
    }
    for (const char* z :
         {"zone kind", "zone all", "zone tag", "zone computed kind", "zone owner computed",
          "zone shared", "var index computed", "var player computed", "var record field"}) {
      out.emplace_back(z);
    }
    for (int s = static_cast<int>(model::StmtKind::block);
         s <= static_cast<int>(model::StmtKind::skip); ++s) {
      out.push_back("stmt " + std::to_string(s));
    }
    for (const char* s : {"assign +=", "assign -=", "assign :=", "if else", "choose where"}) {
      out.emplace_back(s);
    }
    return out;
  }

  [[nodiscard]] std::vector<std::string> missing() const {
    std::vector<std::string> out;
    for (const auto& c : all()) {
      if (seen_.count(c) == 0) out.push_back(c);
    }
    return out;
  }

 private:
  static bool literal(const model::Expr& e) {
    return e.kind >= model::ExprKind::int_lit && e.kind <= model::ExprKind::action_lit;
  }

  void domain(const model::Domain& d) {
    seen_.insert("domain " + std::to_string(static_cast<int>(d.kind)));
  }

  void expr(const model::Expr* e) {
    if (e == nullptr) return;
    using model::ExprKind;
    seen_.insert("expr " + std::to_string(static_cast<int>(e->kind)));
    switch (e->kind) {
      case ExprKind::unary:
        seen_.insert("unary " + std::to_string(static_cast<int>(e->op)));
        break;
      case ExprKind::binary:
        seen_.insert("binary " + std::to_string(static_cast<int>(e->op)));
        break;
      case ExprKind::quant:
        seen_.insert("quant " + std::to_string(static_cast<int>(e->op)));
        domain(e->domain);
        break;
      case ExprKind::builtin:
        seen_.insert("builtin " + std::to_string(static_cast<int>(e->op)));
        break;
      case ExprKind::zone_count:
        seen_.insert(e->value >= 0    ? "zone kind"
                     : e->value == -1 ? "zone all"
                     : e->value == -2 ? "zone tag"
                                      : "zone computed kind");
        if (!e->args.empty() && !literal(*e->args[0]) && e->value != -3) {
          seen_.insert("zone owner computed");
        }
        if (e->args.empty()) seen_.insert("zone shared");
        break;
      case ExprKind::var:
        if (e->field > 0) seen_.insert("var record field");
        if (!e->args.empty() && !literal(*e->args.back())) {
          seen_.insert(e->args.size() == 2 ? "var index computed" : "var player computed");
        }
        if (e->args.size() == 2 && !literal(*e->args[0])) seen_.insert("var player computed");
        break;
      default:
        break;
    }
    for (const auto& a : e->args) expr(a.get());
  }

  void stmt(const model::Stmt* s) {
    if (s == nullptr) return;
    using model::StmtKind;
    seen_.insert("stmt " + std::to_string(static_cast<int>(s->kind)));
    if (s->kind == StmtKind::assign) {
      seen_.insert(s->op == model::Op::add   ? "assign +="
                   : s->op == model::Op::sub ? "assign -="
                                             : "assign :=");
    }
    if (s->kind == StmtKind::if_ && s->bodies.size() > s->conds.size()) seen_.insert("if else");
    if ((s->kind == StmtKind::choose || s->kind == StmtKind::pick) && !s->conds.empty()) {
      seen_.insert("choose where");
    }
    if (s->kind == StmtKind::for_ || s->kind == StmtKind::choose || s->kind == StmtKind::pick) {
      domain(s->domain);
    }
    expr(s->target.get());
    expr(s->value.get());
    for (const auto& a : s->args) expr(a.get());
    for (const auto& c : s->conds) expr(c.get());
    for (const auto& b : s->bodies) stmt(b.get());
  }

  std::set<std::string> seen_;
};

// ---------------------------------------------------------------------------

// Files that are not meant to load on their own: bad input, included parts.
bool meant_to_fail(const std::string& path) {
  return path.find("/bad/") != std::string::npos || path.find("/include/") != std::string::npos ||
         fs::path(path).filename() == "bad.yaml";
}

void agrees_on_every_fixture_and_example(bool native) {
  int loaded = 0;
  std::uint64_t states = 0;
  testing::ConditionTally tally;
  for (const std::string& path : corpus_files()) {
    auto l = test_support::load_game(path);
    EXPECT_EQ(l->game.has_value(), !meant_to_fail(path)) << path;
    if (!l->game) continue;
    ++loaded;
    const Semantics sem(*l->game);
    // The big ones are checked on their first states here (the pool game
    // in full at a reduced scope below).
    const bool big = path == "tests/fixtures/cli/big.yaml" ||
                     path == "rulesets/examples/speed-biomes-pool-game.yaml" ||
                     path == "rulesets/examples/priority-stack.yaml";
    const Agreement a = agree(sem, path, 20000, native);
    EXPECT_EQ(a.complete, !big) << path;
    states += a.states;
    const auto exprs = testing::all_conditions(*l->game);
    EXPECT_EQ(a.compiled, exprs.size() - static_cast<std::size_t>(
                                             std::count(exprs.begin(), exprs.end(), nullptr)))
        << path << ": a condition ran on the reference";
    tally.asked += a.tally.asked;
    tally.held += a.tally.held;
    tally.enabled += a.tally.enabled;
  }
  EXPECT_GE(loaded, 57);
  EXPECT_GT(states, 30000U);
  // (Both outcomes, many times: the comparison saw conditions hold and fail,
  // and actions enabled.)
  EXPECT_GT(tally.held, 50000U);
  EXPECT_GT(tally.asked - tally.held, 50000U);
  EXPECT_GT(tally.enabled, 10000U);
}

TEST(Compiled, AgreesWithReferenceOnEveryFixtureAndExample) {
  agrees_on_every_fixture_and_example(false);
}

void agrees_on_the_seeds_at_reduced_scope(bool native) {
  struct Case {
    const char* ruleset;
    std::map<std::string, std::int64_t> params;
    std::uint64_t states;
    std::uint64_t held, enabled;  // conditions held, actions enabled, summed over the states
  };
  const std::vector<Case> cases = {
      {"rulesets/containment.yaml",
       {{"hand_target", 1}, {"item_copies", 0}, {"opportunity_copies", 0}, {"event_copies", 0}},
       34394,
       450778,
       318},
      {"rulesets/cosmere.yaml",
       {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}},
       13758,
       118024,
       1755},
      {"rulesets/operators.yaml",
       {{"item_copies", 0}, {"attack_copies", 0}, {"defence_copies", 0}, {"opening_hand", 0}},
       46903,
       137390,
       8736},
      // speed-biomes: 11433 / 61320 / 2802 and the pool game 33720 / 218499 /
      // 5049 while Speed-1 actions could answer (removed by issue 34).
      {"rulesets/speed-biomes.yaml",
       {{"gear_copies", 0}, {"anomaly_copies", 0}},
       11027,
       59448,
       2503},
      {"rulesets/examples/speed-biomes-pool-game.yaml",
       {{"opening_hand", 2}, {"quick_step_copies", 0}},
       33098,
       214457,
       4277},
  };
  for (const Case& c : cases) {
    auto l = test_support::load_game(c.ruleset, {.params = c.params});
    ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
    const Semantics sem(*l->game);
    const Agreement a = agree(sem, c.ruleset, 1000000, native);
    EXPECT_TRUE(a.complete);
    EXPECT_EQ(a.states, c.states) << c.ruleset;
    EXPECT_EQ(a.tally.held, c.held) << c.ruleset;
    EXPECT_EQ(a.tally.enabled, c.enabled) << c.ruleset;
    const auto exprs = testing::all_conditions(*l->game);
    EXPECT_EQ(a.compiled, exprs.size() - static_cast<std::size_t>(
                                             std::count(exprs.begin(), exprs.end(), nullptr)))
        << c.ruleset << ": a condition ran on the reference";
  }
}

TEST(Compiled, AgreesWithReferenceOnTheSeedsAtReducedScope) {
  agrees_on_the_seeds_at_reduced_scope(false);
}

// The same walks with the programs run as machine code (--native): the
// generated C is compiled once per ruleset (about half a second each with
// gcc -O2), and it is not instrumented, so sanitized builds add nothing.
TEST(Native, AgreesWithReferenceOnEveryFixtureAndExample) {
  LOOPHOLE_RELEASE_ONLY("compiles 60 rulesets' native code, which no sanitizer sees into");
  testing::use_test_native_cache();
  agrees_on_every_fixture_and_example(true);
}

TEST(Native, AgreesWithReferenceOnTheSeedsAtReducedScope) {
  LOOPHOLE_RELEASE_ONLY("native code, which no sanitizer sees into");
  testing::use_test_native_cache();
  agrees_on_the_seeds_at_reduced_scope(true);
}

// A thread keeps its scratch buffers between systems. A system made after
// another was destroyed is often allocated where the old one was; it must
// size the buffers for its own ruleset, not take back ones sized for the old.
// (It did: the release build then wrote past the work state, a ruleset of 135
// fields into buffers of 5; sanitized builds never reuse the address so
// soon, which is why the release tests run in CI too.)
TEST(Compiled, ALaterSystemDoesNotTakeBackAnEarlierOnesScratch) {
  auto small = test_support::load_game("tests/fixtures/semantics/counter.yaml");
  auto big = test_support::load_game("rulesets/examples/speed-biomes-pool-game.yaml");
  ASSERT_TRUE(small->game && big->game);
  const Semantics small_sem(*small->game), big_sem(*big->game);
  ASSERT_LT(small_sem.layout().fields.size() * 4, big_sem.layout().fields.size());
  std::vector<Successor> got, want;
  for (int round = 0; round < 8; ++round) {
    {
      const CompiledSystem c(small_sem);
      c.successors(small_sem.initial_states().front(), got);
    }
    const CompiledSystem c(big_sem);
    for (const StateVec& s : big_sem.initial_states()) {
      c.successors(s, got);
      big_sem.successors(s, want, false);
      ASSERT_EQ("", testing::compare(want, got, big_sem.layout())) << "round " << round;
    }
  }
}

TEST(Compiled, AgreesOnConstructsTheCorpusLacks) {
  const auto l = testing::load_ruleset("extra.yaml", testing::extra_yaml);
  ASSERT_TRUE(l->sem);
  const Agreement a = agree(*l->sem, "extra.yaml", 200000);
  EXPECT_TRUE(a.complete);
  EXPECT_EQ(a.states, 106U);
  EXPECT_GT(a.gaps, 0U);
}

TEST(Compiled, CorpusUsesEveryConstruct) {
  Census census;
  for (const std::string& path : corpus_files()) {
    auto l = test_support::load_game(path);
    if (l->game) census.game(*l->game);
  }
  for (const char* seed : {"rulesets/containment.yaml", "rulesets/cosmere.yaml",
                           "rulesets/operators.yaml", "rulesets/speed-biomes.yaml"}) {
    auto l = test_support::load_game(seed);
    ASSERT_TRUE(l->game.has_value());
    census.game(*l->game);
  }
  const auto extra = testing::load_ruleset("extra.yaml", testing::extra_yaml);
  ASSERT_TRUE(extra->game);
  census.game(*extra->game);
  std::string missing;
  for (const auto& m : census.missing()) missing += m + "; ";
  EXPECT_EQ(missing, "");
}

// The compiler's own forms (fused comparisons, player-relative slots, leaves
// folded into the operator or the and/or after them, one-leaf programs): the
// corpus the agreement tests run must use each of them, so a wrong fusion
// cannot hide behind a construct that happens to compile the plain way.
TEST(Compiled, CorpusRunsEveryInstructionForm) {
  std::set<std::string> used;
  const auto add = [&](const Semantics& sem) {
    const CompiledSystem c(sem);
    for (const auto& f : c.instruction_forms()) used.insert(f);
  };
  for (const std::string& path : corpus_files()) {
    auto l = test_support::load_game(path);
    if (!l->game) continue;
    add(Semantics(*l->game));
  }
  for (const char* seed : {"rulesets/containment.yaml", "rulesets/cosmere.yaml",
                           "rulesets/operators.yaml", "rulesets/speed-biomes.yaml"}) {
    auto l = test_support::load_game(seed);
    ASSERT_TRUE(l->game.has_value());
    add(Semantics(*l->game));
  }
  const auto extra = testing::load_ruleset("extra.yaml", testing::extra_yaml);
  ASSERT_TRUE(extra->sem);
  add(*extra->sem);
  std::string missing;
  for (const auto& f : CompiledSystem::all_instruction_forms()) {
    if (used.count(f) == 0) missing += f + "; ";
  }
  EXPECT_EQ(missing, "");
  // And nothing is used that the list does not know.
  const auto all = CompiledSystem::all_instruction_forms();
  std::string unknown;
  for (const auto& f : used) {
    if (!std::binary_search(all.begin(), all.end(), f)) unknown += f + "; ";
  }
  EXPECT_EQ(unknown, "");
}

// Where-clauses compiled once per value of their binder, pick bodies and
// `for` loops over a few known values once per value, with the value folded
// in (ifs it decides leave one branch), and quantifiers over a few known
// values as chains: every way the folding can go, next to the ways it must
// not
// (a division by zero and an array index out of range stay run-time
// failures, found at the same place as the reference finds them; a
// quantifier inside the clause; a player binder that makes a slot fixed).
const char* const per_binder_value_yaml = R"yaml(
loophole: 1
game: per-binder-value
players: 2
scope:
  turns: 2
kinds:
  gem: {copies: 2}
zones:
  deck: {per: player, init: all}
  hand: {per: player}
state:
  f: {type: int, range: [0, 2], init: 1, per: player}
  n: {type: int, range: [0, 3], init: 0}
  m: {type: int, range: [0, 1], init: 0}
  g:
    per: player
    array: 2
    record:
      v: {type: int, range: [0, 1], init: 1}
turn:
  phases:
    - name: main
      steps:
        - name: draw
          do: "draw(active, 1)"
        - name: decide
          do: |
            pick t in 0..3 where (t == 0 and f[active] > 0) or (t == 1 and f[next(active)] > 0) or t == 3 do
              if t == 1 then
                n := 1
              elif t > 1 and n == 0 then
                n := t
              else
                n := 3 - t
              end
            end
            pick u in 0..2 where f[active] + u > 2 or u == 7 do
              f[active] := u
            end
            pick p in players where count(hand[p], gem) > 0 and (f[p] < 2 and true) do
              f[p] += 1
            end
            pick w in 0..1 where n == 1 and w == 1 or n == 3 and w == 5 or m == 1 or w == 0 do
              m := w
            end
            pick r in players where exists s in players: f[s] > f[r] do
              f[r] += 1
            end
        - name: risk
          do: |
            pick d in 0..2 where n < 3 or 6 / d > 2 do
              n := d
            end
            pick q in 0..2 where q < 2 and g[active][q].v > 0 or n == 0 and f[active] == 2 and g[active][q].v > 5 do
              g[active][0].v := 0
            end
        - name: loops
          do: |
            for p in players do
              pick x in 0..2 where x <= f[p] and x + n > 1 do
                f[p] := x
              end
              g[p][1].v := 1 - g[p][1].v
            end
            for k in 0..5 do
              if k == n + 2 then m := 1 - m end
            end
            pick z in 0..5 where z == n + 1 do
              m := z % 2
            end
            if (forall p in players: f[p] > 1) or (count k in 0..2: k < n) == 2 then
              m := (sum k in 0..2: g[active][k % 2].v + k) % 2
            end
)yaml";

TEST(Compiled, CodePerBinderValueAgreesWithTheReference) {
  const auto l = testing::load_ruleset("per-binder-value.yaml", per_binder_value_yaml);
  ASSERT_TRUE(l->sem);
  // Every pick: t, u, p, w, r, d, q, z, and x once per turn of `for p`;
  // every body but z's (six values) once per value.
  const CompiledSystem c(*l->sem);
  EXPECT_EQ(c.choices_per_value(), 10);
  EXPECT_EQ(c.bodies_per_value(), 9);
  EXPECT_EQ(c.unrolled_turns(), 2);  // for p (two players); not k (six values)
  const Agreement a = agree(*l->sem, "per-binder-value", 100000);
  EXPECT_TRUE(a.complete);
  EXPECT_EQ(a.states, 272U);  // the reference's count (agree() walks its states)
  // Both run-time failures are reached (and the deck runs out).
  EXPECT_EQ(a.gap_kinds, (std::set<GapSite::Kind>{GapSite::Kind::empty_zone,
                                                  GapSite::Kind::div_zero, GapSite::Kind::index}));
}

// The compiled generator skips the end checks of a move that wrote nothing
// they read. A game where that goes wrong if the skip is too eager: the
// condition starts to hold when only the turn passes (its player is
// `active`, and it reads no field that changes then).
const char* const ends_on_handover_yaml = R"yaml(
loophole: 1
game: ends-on-handover
players: 2
state:
  idle: {type: int, range: [0, 2], init: 0}
turn:
  phases:
    - name: main
      steps:
        - name: rest    # first: the move that passes the turn writes no idle
        - name: tick
          do: "idle := (idle + 1) % 3"
end:
  - name: second_player_idles
    lose: active
    when: "self == P2 and idle == 1"
)yaml";

TEST(Compiled, EndChecksSkippedOnlyWhenNothingTheyReadChanged) {
  const auto l = testing::load_ruleset("ends-on-handover.yaml", ends_on_handover_yaml);
  ASSERT_TRUE(l->sem);
  const Agreement a = agree(*l->sem, "ends-on-handover.yaml", 1000);
  EXPECT_TRUE(a.complete);
  EXPECT_EQ(a.states, 4U);  // P2 loses as the turn passes to them
  EXPECT_EQ(a.gaps, 0U);
}

// The small rulesets above, which add what the corpus lacks (constructs,
// code per binder value, run-time failures), as native code too; and the
// minimal game, which has no expression or statement (empty C tables).
TEST(Native, AgreesOnTheConstructsTheCorpusLacks) {
  testing::use_test_native_cache();
  const std::pair<const char*, std::uint64_t> cases[] = {{testing::extra_yaml, 106},
                                                         {per_binder_value_yaml, 272},
                                                         {ends_on_handover_yaml, 4},
                                                         {testing::minimal_yaml, 4}};
  for (const auto& [yaml, states] : cases) {
    const auto l = testing::load_ruleset("inline.yaml", yaml);
    ASSERT_TRUE(l->sem);
    const Agreement a = agree(*l->sem, l->sem->game().name, 200000, true);
    EXPECT_TRUE(a.complete) << l->sem->game().name;
    EXPECT_EQ(a.states, states) << l->sem->game().name;
  }
}

// The overflow fixtures as native code, compiled by cc and by tcc (which has
// no __builtin_*_overflow and no __int128: the C tests each bound
// explicitly): the reference's successors, its rule gaps at the same sites,
// and no SIGFPE from INT64_MIN / -1 or % -1.
TEST(Native, OverflowGapsAgreeCompiledByCcAndByTcc) {
  testing::use_test_native_cache();
  const char* before = std::getenv("LOOPHOLE_NATIVE_CC");
  const std::string saved = before == nullptr ? "" : before;
  for (const char* cc : {"cc", "tcc"}) {
    ::setenv("LOOPHOLE_NATIVE_CC", cc, 1);
    for (const auto& [path, states] :
         {std::pair<const char*, std::uint64_t>{"tests/fixtures/semantics/overflow-ops.yaml", 37},
          {"tests/fixtures/findings/rule-gap/overflow.yaml", 2}}) {
      const auto l = test_support::load_game(path, {.with_semantics = true});
      ASSERT_TRUE(l->sem) << l->diagnostics();
      const Agreement a = agree(*l->sem, path, 200000, true);
      EXPECT_TRUE(a.complete) << cc << " " << path;
      EXPECT_EQ(a.states, states) << cc << " " << path;
      EXPECT_GT(a.gaps, 0U) << cc << " " << path;
    }
  }
  if (before == nullptr) {
    ::unsetenv("LOOPHOLE_NATIVE_CC");
  } else {
    ::setenv("LOOPHOLE_NATIVE_CC", saved.c_str(), 1);
  }
}

TEST(Compiled, ExploreUsesTheCompiledGenerator) {
  const auto l = testing::load_ruleset("windows.yaml", testing::windows_yaml);
  ASSERT_TRUE(l->sem);
  ExplicitOptions options;
  options.threads = 1;
  const auto g = explore(*l->sem, options);
  EXPECT_EQ(g->statistics().generator, "compiled");
}

}  // namespace
}  // namespace loophole::checker
