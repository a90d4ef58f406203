// Static rule checks: questions about single rules, asked over every state
// whose fields lie in their declared ranges, with no exploration at all.
//  - a guard (an action's or trigger's `when`, an end condition) that no
//    in-range state satisfies for any player it covers: the rule is dead
//    whatever is reachable;
//  - two mandatory assignments of one statement list to the same variable
//    with values that can differ, and nothing between that reads it (a
//    `fire` whose triggers' conditions read it does): the rule contradicts
//    itself (the first assignment is lost), and `win` and `lose` of the
//    same player together;
//  - a gap site that some move can reach from some in-range state in which
//    its rule is enabled: a candidate rule gap, then confirmed or refuted
//    by the search results handed in (explicit or BMC); a confirmed one is
//    the search's finding already and is not reported again.
#include <algorithm>

#include <fmt/format.h>

#include "loophole/checker/questions.hpp"

#include "impl.hpp"

namespace loophole::smt {

using checker::Finding;
using checker::Kind;
using checker::Severity;
using checker::Verdict;

namespace {

Finding static_finding(Kind kind, Severity severity) {
  Finding f;
  f.kind = kind;
  f.severity = severity;
  f.verdict = Verdict::violated;
  f.engine = "smt";
  return f;
}

using checker::lowered::Lowered;
using checker::lowered::S;
using checker::lowered::X;

// The variable a data slot belongs to, or -1 (a zone's, a control field).
int slot_var(const model::Game& g, int slot) {
  return slot >= 0 && static_cast<std::size_t>(slot) < g.slots.size()
             ? g.slots[static_cast<std::size_t>(slot)].var
             : -1;
}

// Whether expression node `node` reads some field of variable `var`.
bool reads_var(const Lowered& l, int node, int var) {
  if (node < 0) return false;
  const auto& e = l.exprs[static_cast<std::size_t>(node)];
  if (e.op == X::field && slot_var(*l.game, e.a) == var) return true;
  if (e.op == X::read || e.op == X::count) {
    const auto& pl = l.places[static_cast<std::size_t>(e.a)];
    if (e.op == X::read && slot_var(*l.game, pl.base) == var) return true;
    if (reads_var(l, pl.player, var) || reads_var(l, pl.index, var)) return true;
  }
  for (const int x : e.x) {
    if (reads_var(l, x, var)) return true;
  }
  return false;
}

bool same_expr(const Lowered& l, int a, int b);

bool same_place(const Lowered& l, int a, int b) {
  const auto& p = l.places[static_cast<std::size_t>(a)];
  const auto& q = l.places[static_cast<std::size_t>(b)];
  return p.base == q.base && p.player_stride == q.player_stride &&
         p.index_stride == q.index_stride && p.bound == q.bound &&
         same_expr(l, p.player, q.player) && same_expr(l, p.index, q.index);
}

// Whether two expression nodes are the same expression (the same operations
// on the same places, constants and locals).
bool same_expr(const Lowered& l, int a, int b) {
  if (a < 0 || b < 0) return a == b;
  const auto& e = l.exprs[static_cast<std::size_t>(a)];
  const auto& f = l.exprs[static_cast<std::size_t>(b)];
  if (e.op != f.op || e.k != f.k || e.b != f.b) return false;
  switch (e.op) {
    case X::read:
    case X::count:
      if (!same_place(l, e.a, f.a)) return false;
      break;
    case X::exists:
    case X::forall:
    case X::count_of:
    case X::sum: {
      const auto& d = l.domains[static_cast<std::size_t>(e.a)];
      const auto& g = l.domains[static_cast<std::size_t>(f.a)];
      if (d.kind != g.kind || d.lo != g.lo || d.size != g.size || d.list != g.list) return false;
      break;
    }
    default:
      if (e.a != f.a) return false;
      break;
  }
  for (int i = 0; i < 3; ++i) {
    if (!same_expr(l, e.x[i], f.x[i])) return false;
  }
  return true;
}

// Where a node comes from, for a finding's location (the lowered form keeps
// its origin for diagnostics).
const model::SourceSpan& where(const checker::lowered::Stmt& s) {
  return static_cast<const model::Stmt*>(s.origin)->where;
}
const model::SourceSpan& where(const Lowered& l, int expr) {
  return static_cast<const model::Expr*>(l.exprs[static_cast<std::size_t>(expr)].origin)->where;
}

// The variable an assignment writes.
int target_var(const Lowered& l, const checker::lowered::Stmt& s) {
  return slot_var(*l.game, l.places[static_cast<std::size_t>(s.a)].base);
}

// Whether `b`, between two assignments to one variable (or a win and a
// lose), neither changes nor reads what the first one wrote: skip and
// shuffle (an empty sequence) do nothing; a fire evaluates the conditions
// of the triggers listening to its event at once (their effects resolve
// later, after this statement list), so it reads the variable when one of
// those conditions does. Anything else may read or write state and ends the
// search.
bool inert(const Lowered& l, const checker::lowered::Stmt& b, const checker::lowered::Stmt& a) {
  if (b.op == S::seq && b.body.empty()) return true;
  if (b.op != S::fire) return false;
  if (a.op != S::assign) return true;
  if (b.a < 0 || static_cast<std::size_t>(b.a) >= l.triggers_by_event.size()) return false;
  const int var = target_var(l, a);
  for (const int arg : b.conds) {
    if (reads_var(l, arg, var)) return false;
  }
  for (const int t : l.triggers_by_event[static_cast<std::size_t>(b.a)]) {
    if (reads_var(l, l.rules.trigger_condition[static_cast<std::size_t>(t)], var)) return false;
  }
  return true;
}

class Checker {
 public:
  explicit Checker(detail::Encoding& en) : en_(en), solver_(en.ctx) {
    solver_.add(en.in_range(en.x));
  }

  // sat / unsat / unknown of a condition over x (in range); unknown once
  // the engine is stopped.
  z3::check_result sat(const z3::expr& cond) {
    solver_.push();
    solver_.add(cond);
    const auto r = en_.control.check(solver_);
    solver_.pop();
    return r;
  }

  // The condition under which `guard` holds for some player `role` covers.
  // `args`: the values locals 0..k-1 may take (a trigger's event
  // arguments), each combination tried.
  z3::expr guard_holds(int guard, model::Role role, const std::vector<model::EventArg>& args = {}) {
    z3::expr_vector ors(en_.ctx);
    std::vector<std::int64_t> locals(static_cast<std::size_t>(std::max(0, en_.low.locals)), 0);
    const z3::expr active = en_.x[static_cast<std::size_t>(en_.low.ctl.active)];
    const auto each = [&](const auto& self, std::size_t j) -> void {
      if (j < args.size()) {
        for (std::int64_t v = args[j].lo; v <= args[j].hi; ++v) {
          locals[j] = v;
          self(self, j + 1);
        }
        return;
      }
      for (int a = 0; a < en_.players; ++a) {
        for (int p = 0; p < en_.players; ++p) {
          for (int o = 0; o < en_.orders(); ++o) {
            if (!en_.covers(role, p, a, o != 0)) continue;
            detail::Ev ev = en_.env(en_.x, locals, a, p);
            const z3::expr h = en_.guard(guard, ev);
            const z3::expr in_order = en_.orders() == 1 ? en_.ctx.bool_val(true)
                                                        : en_.field(en_.x, en_.low.ctl.order) == o;
            ors.push_back(active == a && in_order && h && ev.err == -1);
          }
        }
      }
    };
    each(each, 0);
    return z3::mk_or(ors);
  }

  // `place` says where the statements run, for the message: "in one step",
  // "in the effect of 'stamp'".
  void contradictions(const std::string& rule, const std::string& place, int node,
                      std::vector<Finding>& out) {
    if (node < 0) return;
    const auto& l = en_.low;
    const auto& s = l.stmts[static_cast<std::size_t>(node)];
    if (s.op == S::seq) {
      const auto& list = s.body;
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (list[i] < 0) continue;
        const auto& a = l.stmts[static_cast<std::size_t>(list[i])];
        for (std::size_t j = i + 1; j < list.size(); ++j) {
          if (list[j] < 0) break;
          const auto& b = l.stmts[static_cast<std::size_t>(list[j])];
          if (pair(rule, place, a, b, out)) break;
          if (!inert(l, b, a)) break;
        }
      }
    }
    for (const int b : s.body) contradictions(rule, place, b, out);
  }

 private:
  // Reports a contradiction between a and b (b after a, only inert
  // statements between); true when one was reported.
  bool pair(const std::string& rule, const std::string& place, const checker::lowered::Stmt& a,
            const checker::lowered::Stmt& b, std::vector<Finding>& out) {
    const auto& l = en_.low;
    if (a.op == S::assign && b.op == S::assign && a.assign_op == model::Op::none &&
        b.assign_op == model::Op::none && same_place(l, a.a, b.a) &&
        !reads_var(l, b.x, target_var(l, b))) {
      std::vector<std::int64_t> locals(static_cast<std::size_t>(std::max(0, l.locals)), 0);
      z3::expr_vector ors(en_.ctx);
      const z3::expr active = en_.x[static_cast<std::size_t>(l.ctl.active)];
      for (int act = 0; act < en_.players; ++act) {
        detail::Ev ea = en_.env(en_.x, locals, act, act);
        detail::Ev eb = en_.env(en_.x, locals, act, act);
        const z3::expr va = en_.eval_int(a.x, ea);
        const z3::expr vb = en_.eval_int(b.x, eb);
        ors.push_back(active == act && va != vb);
      }
      if (sat(z3::mk_or(ors)) != z3::sat) return false;
      const auto& v = en_.game.vars[static_cast<std::size_t>(target_var(l, a))];
      const auto& at = where(a);
      Finding f = static_finding(Kind::dead_rule, Severity::warning);
      f.rule = rule;
      f.where = where(b);
      f.message = fmt::format("contradictory effects: '{}' is set twice {}, to different values",
                              v.name, place);
      f.details.push_back(fmt::format("the first assignment, at {}:{}:{}, is always overwritten",
                                      at.file, at.line, at.col));
      out.push_back(std::move(f));
      return true;
    }
    if (a.op == S::end && b.op == S::end && a.a != b.a && same_expr(l, a.x, b.x)) {
      const auto& at = where(a);
      Finding f = static_finding(Kind::dead_rule, Severity::warning);
      f.rule = rule;
      f.where = where(b);
      f.message =
          fmt::format("contradictory effects: the same player both wins and loses {}", place);
      f.details.push_back(fmt::format("the game ends at {}:{}:{}; this statement never runs",
                                      at.file, at.line, at.col));
      out.push_back(std::move(f));
      return true;
    }
    return false;
  }

  detail::Encoding& en_;
  z3::solver solver_;
};

}  // namespace

std::vector<Finding> Engine::static_checks(const Options& o, const std::vector<Finding>& searched,
                                           bool complete) {
  std::vector<Finding> out;
  // Stopped: nothing is claimed (a query cut short proves nothing either).
  if (!impl_->en || impl_->control.stopped() != Stop::none) return out;
  auto& en = *impl_->en;
  const model::Game& g = en.game;
  const detail::Control::Watch watch(impl_->control, o);
  impl_->control.doing(-1, "static checks");
  Checker ck(en);

  const auto& rules = en.low.rules;
  // Dead guards.
  for (std::size_t i = 0; i < g.actions.size(); ++i) {
    const auto& a = g.actions[i];
    if (rules.action_guard[i] < 0) continue;
    if (ck.sat(ck.guard_holds(rules.action_guard[i], a.who)) != z3::unsat) continue;
    Finding f = static_finding(Kind::dead_rule, Severity::warning);
    f.rule = "action:" + a.name;
    f.where = where(en.low, rules.action_guard[i]);
    f.message = checker::question::action_never_taken(a) + ": its guard holds in no state";
    f.details.push_back(
        "no assignment of the variables within their ranges satisfies it (static check)");
    out.push_back(std::move(f));
  }
  for (std::size_t i = 0; i < g.triggers.size(); ++i) {
    const auto& t = g.triggers[i];
    if (rules.trigger_condition[i] < 0) continue;
    const std::vector<model::EventArg> none;
    const auto& args = t.params.empty() ? none : g.events[static_cast<std::size_t>(t.event)].args;
    if (ck.sat(ck.guard_holds(rules.trigger_condition[i], t.controller, args)) != z3::unsat) {
      continue;
    }
    Finding f = static_finding(Kind::dead_rule, Severity::warning);
    f.rule = "trigger:" + t.name;
    f.where = where(en.low, rules.trigger_condition[i]);
    f.message = fmt::format("trigger '{}' can never fire: its condition holds in no state", t.name);
    f.details.push_back(
        "no assignment of the variables within their ranges satisfies it (static check)");
    out.push_back(std::move(f));
  }
  for (std::size_t i = 0; i < g.end_conditions.size(); ++i) {
    const auto& e = g.end_conditions[i];
    if (rules.end_condition[i] < 0) continue;
    if (ck.sat(ck.guard_holds(rules.end_condition[i], e.who)) != z3::unsat) continue;
    Finding f = static_finding(Kind::unreachable_win, e.win ? Severity::error : Severity::warning);
    f.rule = "end:" + e.name;
    f.where = where(en.low, rules.end_condition[i]);
    f.message = fmt::format("'{}' can never {}: its condition holds in no state", e.name,
                            e.win ? "be won" : "be lost");
    f.details.push_back(
        "no assignment of the variables within their ranges satisfies it (static check)");
    out.push_back(std::move(f));
  }

  // Contradictory mandatory effects.
  ck.contradictions("setup", "in setup", rules.setup, out);
  for (std::size_t s = 0; s < g.steps.size(); ++s) {
    ck.contradictions(g.step_rule(static_cast<int>(s)), "in one step", rules.step_effect[s], out);
  }
  for (std::size_t i = 0; i < g.actions.size(); ++i) {
    const auto& a = g.actions[i];
    ck.contradictions("action:" + a.name, fmt::format("in the cost of '{}'", a.name),
                      rules.action_cost[i], out);
    ck.contradictions("action:" + a.name, fmt::format("in the effect of '{}'", a.name),
                      rules.action_effect[i], out);
  }
  for (std::size_t i = 0; i < g.triggers.size(); ++i) {
    ck.contradictions("trigger:" + g.triggers[i].name,
                      fmt::format("in the effect of trigger '{}'", g.triggers[i].name),
                      rules.trigger_effect[i], out);
  }

  // Candidate rule gaps.
  const auto& sites = en.sem.gaps();
  const z3::expr running = en.x[static_cast<std::size_t>(en.low.ctl.over)] == 0;
  for (std::size_t s = 0; s < sites.size(); ++s) {
    const auto& site = sites[s];
    if (site.kind == checker::GapSite::Kind::stack_overflow) continue;
    z3::expr_vector ors(en.ctx);
    for (const auto& p : en.paths) {
      if (!p.gap) continue;
      const z3::expr hit = (p.site == static_cast<int>(s)).simplify();
      if (hit.is_false()) continue;
      ors.push_back(p.pc && hit);
    }
    if (ors.empty() || ck.sat(running && z3::mk_or(ors)) != z3::sat) continue;
    const auto found = std::find_if(searched.begin(), searched.end(), [&](const Finding& f) {
      return f.kind == Kind::rule_gap && f.verdict == Verdict::violated && f.rule == site.rule &&
             f.message == site.message && f.where.line == site.where.line &&
             f.where.col == site.where.col;
    });
    // A candidate the search confirmed is its finding already (an error
    // with the trace): reported once, there.
    if (found != searched.end()) continue;
    Finding f = static_finding(Kind::rule_gap, Severity::note);
    f.rule = site.rule;
    f.where = site.where;
    f.message = "candidate rule gap: " + site.message;
    f.details.push_back("some in-range state in which the rule applies leads here (static check)");
    if (complete) {
      f.verdict = Verdict::holds;
      f.details.push_back(
          "refuted: no reachable state leads here (a complete search, or k-induction)");
    } else {
      f.verdict = Verdict::unknown;
      f.details.push_back(
          "neither confirmed nor refuted: the search did not cover every reachable state");
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace loophole::smt
