// The lowering (loophole/checker/lowered.hpp) against the oracle: an
// evaluator of the lowered form, written here from the header's definitions,
// must give the oracle's value and first failure (gap site) for every
// expression of the rules (guards, conditions, properties, and every operand
// of every statement, with the locals of the enclosing for / choose / pick
// bound to each value of their domains), with `self` each player, on every
// state reachable in every ruleset the repository has and in the seed games
// at reduced scope. Assignment targets and card movements' places must name
// the oracle's slots.
#include "loophole/checker/lowered.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/semantics.hpp"
#include "loophole/model/game.hpp"

#include "disagreement.hpp"
#include "load_ruleset.hpp"
#include "loaded_game.hpp"

namespace loophole::checker {
namespace {

namespace fs = std::filesystem;
using lowered::Lowered;
using lowered::no_site;
using lowered::Place;
using lowered::S;
using lowered::X;

// ---------------------------------------------------------------------------
// An evaluator of the lowered form, from the header's definitions alone.

struct LEnv {
  const std::int32_t* s = nullptr;
  std::int64_t* locals = nullptr;
  int self = 0;
  int error = -1;
};

class LEval {
 public:
  explicit LEval(const Lowered& l) : l_(l) {}

  std::int64_t fail(LEnv& env, int site) const {
    if (env.error < 0) env.error = site;
    return 0;
  }
  std::int64_t over(LEnv& env, const lowered::Expr& n) const {
    return fail(env, n.overflow >= 0 ? n.overflow : no_site);
  }

  int slot(const Place& pl, LEnv& env) const {
    std::int64_t player = 0, index = 0;
    if (pl.player >= 0) player = eval(pl.player, env);
    if (pl.index >= 0) {
      index = eval(pl.index, env);
      if (pl.bound > 0 && (index < 0 || index >= pl.bound)) {
        fail(env, pl.site);
        return -1;
      }
    }
    if (env.error >= 0) return -1;
    return pl.base + static_cast<int>(player) * pl.player_stride +
           static_cast<int>(index) * pl.index_stride;
  }

  std::int64_t eval(int i, LEnv& env) const {
    const lowered::Expr& n = l_.exprs[i];
    const std::int32_t* s = env.s;
    auto x = [&](int k) { return eval(n.x[k], env); };
    std::int64_t r = 0;
    switch (n.op) {
      case X::konst:
        return n.k;
      case X::field:
        return s[n.a];
      case X::self:
        return env.self;
      case X::local:
        return env.locals[n.a];
      case X::next_player:
        return (x(0) + 1) % l_.players;
      case X::read: {
        const int at = slot(l_.places[n.a], env);
        return at < 0 ? 0 : s[at];
      }
      case X::count: {
        const int at = slot(l_.places[n.a], env);
        if (at < 0) return 0;
        std::int64_t total = 0;
        for (int k : l_.lists[n.b]) total += s[at + k];
        return total;
      }
      case X::stack_top: {
        const int size = s[l_.ctl.stack_size];
        return size == 0 ? 0 : s[l_.ctl.stack_base + 2 * (size - 1) + n.a];
      }
      case X::not_:
        return x(0) == 0 ? 1 : 0;
      case X::neg: {
        const std::int64_t a = x(0);
        return a == std::numeric_limits<std::int64_t>::min() ? over(env, n) : -a;
      }
      case X::and_:
        return x(0) != 0 && x(1) != 0;
      case X::or_:
        return x(0) != 0 || x(1) != 0;
      case X::cond:
        return x(0) != 0 ? x(1) : x(2);
      case X::abs: {
        const std::int64_t a = x(0);
        return a == std::numeric_limits<std::int64_t>::min() ? over(env, n) : a < 0 ? -a : a;
      }
      case X::min: {
        const std::int64_t a = x(0);
        return std::min(a, x(1));
      }
      case X::max: {
        const std::int64_t a = x(0);
        return std::max(a, x(1));
      }
      case X::clamp: {
        const std::int64_t a = x(0), lo = x(1), hi = x(2);
        return std::max(lo, std::min(a, hi));
      }
      case X::exists:
      case X::forall:
      case X::count_of:
      case X::sum: {
        const lowered::Domain& d = l_.domains[n.a];
        const int size = l_.domain_size(d, env.self);
        std::int64_t acc = n.op == X::forall ? 1 : 0;
        for (int v = 0; v < size; ++v) {
          env.locals[n.b] = l_.domain_value(d, v, env.self);
          const std::int64_t b = x(0);
          if (env.error >= 0) return 0;
          if (n.op == X::exists && b != 0) return 1;
          if (n.op == X::forall && b == 0) return 0;
          if (n.op == X::count_of) acc += b != 0 ? 1 : 0;
          if (n.op == X::sum && __builtin_add_overflow(acc, b, &acc)) return over(env, n);
        }
        return acc;
      }
      default:
        break;
    }
    const std::int64_t a = x(0), b = x(1);
    switch (n.op) {
      case X::add:
        return __builtin_add_overflow(a, b, &r) ? over(env, n) : r;
      case X::sub:
        return __builtin_sub_overflow(a, b, &r) ? over(env, n) : r;
      case X::mul:
        return __builtin_mul_overflow(a, b, &r) ? over(env, n) : r;
      case X::div:
      case X::mod:
        if (b == 0) return fail(env, n.site);
        if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return over(env, n);
        return n.op == X::div ? a / b : a % b;
      case X::eq:
        return a == b;
      case X::ne:
        return a != b;
      case X::lt:
        return a < b;
      case X::le:
        return a <= b;
      case X::gt:
        return a > b;
      case X::ge:
        return a >= b;
      default:
        break;
    }
    ADD_FAILURE() << "lowered: no value for op " << static_cast<int>(n.op);
    return 0;
  }

 private:
  const Lowered& l_;
};

// ---------------------------------------------------------------------------
// The comparison, state by state.

struct Tally {
  std::uint64_t states = 0, exprs = 0, failed = 0, places = 0;
  std::set<int> ops;  // lowered expression ops met
};

class Compare {
 public:
  Compare(const model::Game& g, const Lowered& l)
      : g_(g),
        l_(l),
        sem_(g),
        lev_(l),
        obind_(std::max(1, g.binder_slots)),
        lbind_(std::max(1, l.locals)) {}

  // Every expression root and place of the rules in state s; the first
  // disagreement, or "".
  std::string state(const StateVec& s, Tally& t) {
    s_ = &s;
    t_ = &t;
    err_.clear();
    const auto& r = l_.rules;
    for (int self = 0; self < l_.players && err_.empty(); ++self) {
      self_ = self;
      stmt(r.setup);
      for (std::size_t i = 0; i < r.step_effect.size(); ++i) {
        stmt(r.step_effect[i]);
        expr(r.step_repeat[i]);
        expr(r.step_end_turn[i]);
      }
      for (std::size_t i = 0; i < r.action_guard.size(); ++i) {
        expr(r.action_guard[i]);
        stmt(r.action_cost[i]);
        stmt(r.action_effect[i]);
      }
      for (std::size_t i = 0; i < r.trigger_condition.size(); ++i) {
        expr(r.trigger_condition[i]);
        stmt(r.trigger_effect[i]);
      }
      for (int e : r.end_condition) expr(e);
      for (std::size_t i = 0; i < r.property_expr.size(); ++i) {
        expr(r.property_expr[i]);
        expr(r.property_to[i]);
      }
    }
    ++t.states;
    return err_;
  }

 private:
  Semantics::Value oracle(const model::Expr& e) { return sem_.evaluate(e, *s_, self_, obind_); }
  LEnv lenv() { return LEnv{s_->data(), lbind_.data(), self_, -1}; }

  void expr(int i) {
    if (i < 0 || !err_.empty()) return;
    const auto* origin = static_cast<const model::Expr*>(l_.exprs[i].origin);
    const Semantics::Value want = oracle(*origin);
    LEnv le = lenv();
    const std::int64_t got = lev_.eval(i, le);
    ++t_->exprs;
    if (want.error >= 0) ++t_->failed;
    if (want.error != le.error || (want.error < 0 && want.value != got)) {
      std::ostringstream o;
      o << "'" << model::to_string(*origin) << "' (self P" << self_ + 1 << "): oracle "
        << want.value << " failing at " << want.error << ", lowered " << got << " failing at "
        << le.error;
      err_ = o.str();
    }
  }

  // The slot a place names against the oracle's values of the player and
  // index it reads (and of the target itself, for an index out of range).
  void var_place(int place, const model::Expr& target) {
    if (!err_.empty()) return;
    const auto& v = g_.vars[target.ref];
    std::size_t arg = 0;
    std::int64_t player = 0, index = 0;
    int error = oracle(target).error;
    if (v.per_player) player = oracle(*target.args[arg++]).value;
    if (v.array > 0) index = oracle(*target.args[arg]).value;
    const int want =
        error >= 0 ? -1 : v.slot(static_cast<int>(player), static_cast<int>(index), target.field);
    LEnv le = lenv();
    const int got = lev_.slot(l_.places[place], le);
    ++t_->places;
    if (error != le.error || want != got) {
      err_ = "assignment to '" + model::to_string(target) + "': oracle slot " +
             std::to_string(want) + ", lowered " + std::to_string(got);
    }
  }
  void zone_place(int place, int zone, const model::Expr* owner) {
    if (!err_.empty()) return;
    const auto& z = g_.zones[zone];
    Semantics::Value o{0, -1};
    if (z.per_player && owner != nullptr) o = oracle(*owner);
    const int want = o.error >= 0 ? -1 : z.slot(static_cast<int>(o.value), 0, l_.kinds);
    LEnv le = lenv();
    const int got = lev_.slot(l_.places[place], le);
    ++t_->places;
    if (o.error != le.error || want != got) {
      err_ = "zone '" + z.name + "': oracle slot " + std::to_string(want) + ", lowered " +
             std::to_string(got);
    }
  }

  // Binds local b (the oracle's binder b) to each value of domain d in turn.
  template <class F>
  void each_value(int d, int b, F&& f) {
    const auto& dom = l_.domains[d];
    const int n = l_.domain_size(dom, self_);
    for (int v = 0; v < n && err_.empty(); ++v) {
      lbind_[b] = obind_[b] = l_.domain_value(dom, v, self_);
      f();
    }
  }

  void stmt(int i) {
    if (i < 0 || !err_.empty()) return;
    const lowered::Stmt& n = l_.stmts[i];
    const auto* origin = static_cast<const model::Stmt*>(n.origin);
    switch (n.op) {
      case S::seq:
        for (int b : n.body) stmt(b);
        return;
      case S::assign:
        var_place(n.a, *origin->target);
        expr(n.x);
        return;
      case S::if_:
        for (int c : n.conds) expr(c);
        for (int b : n.body) stmt(b);
        return;
      case S::for_:
        each_value(n.a, n.b, [&] { stmt(n.body[0]); });
        return;
      case S::choose:
      case S::pick:
        each_value(n.a, n.b, [&] {
          expr(n.x);
          stmt(n.body[0]);
        });
        return;
      case S::move: {
        const bool draw = origin->kind == model::StmtKind::draw;
        const model::Expr* from_owner = draw ? origin->args[0].get()
                                        : origin->args[0]->args.empty()
                                            ? nullptr
                                            : origin->args[0]->args[0].get();
        const model::Expr* to_owner = draw ? origin->args[0].get()
                                      : origin->args[1]->args.empty()
                                          ? nullptr
                                          : origin->args[1]->args[0].get();
        zone_place(n.move.from, n.move.from_zone, from_owner);
        zone_place(n.move.to, n.move.to_zone, to_owner);
        expr(n.move.kind);
        expr(n.move.count);
        expr(n.x);
        return;
      }
      case S::end:
        expr(n.x);
        return;
      case S::fire:
      case S::negate:
      case S::draw_without_zones:
        return;
    }
  }

  const model::Game& g_;
  const Lowered& l_;
  const Semantics sem_;
  LEval lev_;
  std::vector<std::int64_t> obind_, lbind_;
  const StateVec* s_ = nullptr;
  Tally* t_ = nullptr;
  int self_ = 0;
  std::string err_;
};

// Breadth-first over the oracle's reachable states (up to cap), comparing
// in each; whether the search completed.
bool agree(const model::Game& g, const std::string& name, std::uint64_t cap, Tally& t) {
  const Semantics sem(g);
  const Lowered l = lowered::lower(g);
  Compare cmp(g, l);
  for (const auto& n : l.exprs) t.ops.insert(static_cast<int>(n.op));
  std::unordered_set<StateVec, testing::VecHash> seen;
  std::vector<StateVec> queue;
  for (const StateVec& s : sem.initial_states()) {
    if (seen.insert(s).second) queue.push_back(s);
  }
  std::vector<Successor> succ;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    if (queue.size() > cap) return false;
    const StateVec s = queue[head];
    const std::string diff = cmp.state(s, t);
    if (!diff.empty()) {
      ADD_FAILURE() << name << ": state " << head << " (" << testing::show(s, sem.layout())
                    << "): " << diff;
      return false;
    }
    sem.successors(s, succ);
    for (const Successor& x : succ) {
      if (seen.insert(x.state).second) queue.push_back(x.state);
    }
  }
  return true;
}

TEST(Lowered, AgreesWithTheOracleOnEveryFixtureAndExample) {
  std::vector<std::string> files;
  for (const char* dir : {"tests/fixtures", "docs/examples", "rulesets/examples"}) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().extension() == ".yaml")
        files.push_back(e.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  Tally total;
  int games = 0;
  for (const auto& f : files) {
    auto l = test_support::load_game(f);
    if (!l->game) continue;  // fixtures of load errors
    ++games;
    Tally t;
    agree(*l->game, f, 20000, t);
    total.states += t.states;
    total.exprs += t.exprs;
    total.failed += t.failed;
    total.places += t.places;
    total.ops.insert(t.ops.begin(), t.ops.end());
  }
  // And the constructs the corpus lacks (count quantifiers, clamp, ...).
  const auto extra = testing::load_ruleset("extra.yaml", testing::extra_yaml);
  ASSERT_TRUE(extra->game.has_value());
  Tally t;
  EXPECT_TRUE(agree(*extra->game, "extra.yaml", 20000, t));
  EXPECT_EQ(t.states, 106U);
  total.failed += t.failed;
  total.ops.insert(t.ops.begin(), t.ops.end());
  EXPECT_GT(games, 100);
  // The walk saw failures (gap sites) and every kind of expression node.
  EXPECT_GT(total.failed, 0U);
  EXPECT_GT(total.places, 0U);
  for (int op = 0; op <= static_cast<int>(X::clamp); ++op) {
    EXPECT_TRUE(total.ops.count(op)) << "no fixture has lowered op " << op;
  }
  RecordProperty("states", std::to_string(total.states));
  RecordProperty("exprs", std::to_string(total.exprs));
}

TEST(Lowered, AgreesWithTheOracleOnTheSeedsAtReducedScope) {
  struct Case {
    const char* ruleset;
    std::map<std::string, std::int64_t> params;
    std::uint64_t states;
  };
  // The scopes and state counts of tests/checker/compiled_test.cpp.
  const std::vector<Case> cases = {
      {"rulesets/containment.yaml",
       {{"hand_target", 1}, {"item_copies", 0}, {"opportunity_copies", 0}},
       34394},
      {"rulesets/cosmere.yaml",
       {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}},
       13758},
      {"rulesets/operators.yaml", {{"item_copies", 0}}, 46903},
      {"rulesets/speed-biomes.yaml", {{"gear_copies", 0}}, 11027},
      {"rulesets/examples/speed-biomes-pool-game.yaml",
       {{"opening_hand", 2}, {"quick_step_copies", 0}},
       33098},
  };
  for (const Case& c : cases) {
    auto l = test_support::load_game(c.ruleset, {.params = c.params});
    ASSERT_TRUE(l->game.has_value()) << l->sink.render(l->sources);
    Tally t;
    EXPECT_TRUE(agree(*l->game, c.ruleset, 1000000, t)) << c.ruleset;
    EXPECT_EQ(t.states, c.states) << c.ruleset;
    EXPECT_GT(t.exprs, t.states) << c.ruleset;
  }
}

}  // namespace
}  // namespace loophole::checker
