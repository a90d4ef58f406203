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

bool reads_var(const model::Expr& e, int var) {
  if (e.kind == model::ExprKind::var && e.ref == var) return true;
  for (const auto& a : e.args) {
    if (a && reads_var(*a, var)) return true;
  }
  return false;
}

// Whether `b`, between two assignments to one variable (or a win and a
// lose), neither changes nor reads what the first one wrote: skip and
// shuffle do nothing; a fire evaluates the conditions of the triggers
// listening to its event at once (their effects resolve later, after this
// statement list), so it reads the variable when one of those conditions
// does. Anything else may read or write state and ends the search.
bool inert(const detail::Encoding& en, const model::Stmt& b, const model::Stmt& a) {
  using model::StmtKind;
  if (b.kind == StmtKind::skip || b.kind == StmtKind::shuffle) return true;
  if (b.kind != StmtKind::fire) return false;
  if (a.kind != StmtKind::assign || !a.target) return true;
  if (b.ref < 0 || static_cast<std::size_t>(b.ref) >= en.prep.triggers_by_event.size())
    return false;
  for (const int t : en.prep.triggers_by_event[static_cast<std::size_t>(b.ref)]) {
    const auto& trig = en.game.triggers[static_cast<std::size_t>(t)];
    if (trig.condition && reads_var(*trig.condition, a.target->ref)) return false;
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
  z3::expr guard_holds(const model::Expr* guard, model::Role role) {
    z3::expr_vector ors(en_.ctx);
    std::vector<std::int64_t> binders(static_cast<std::size_t>(std::max(0, en_.game.binder_slots)),
                                      0);
    const z3::expr active = en_.x[static_cast<std::size_t>(en_.prep.ctl.active)];
    for (int a = 0; a < en_.players; ++a) {
      for (int p = 0; p < en_.players; ++p) {
        if (!en_.prep.covers(role, p, a)) continue;
        detail::Ev ev = en_.env(en_.x, binders, a, p);
        const z3::expr h = en_.guard(guard, ev);
        ors.push_back(active == a && h && ev.err == -1);
      }
    }
    return z3::mk_or(ors);
  }

  // `place` says where the statements run, for the message: "in one step",
  // "in the effect of 'stamp'".
  void contradictions(const std::string& rule, const std::string& place, const model::Stmt* s,
                      std::vector<Finding>& out) {
    if (s == nullptr) return;
    if (s->kind == model::StmtKind::block) {
      const auto& list = s->bodies;
      for (std::size_t i = 0; i < list.size(); ++i) {
        const model::Stmt* a = list[i].get();
        if (a == nullptr) continue;
        for (std::size_t j = i + 1; j < list.size(); ++j) {
          const model::Stmt* b = list[j].get();
          if (b == nullptr) break;
          if (pair(rule, place, *a, *b, out)) break;
          if (!inert(en_, *b, *a)) break;
        }
      }
    }
    for (const auto& b : s->bodies) contradictions(rule, place, b.get(), out);
  }

 private:
  // Reports a contradiction between a and b (b after a, only inert
  // statements between); true when one was reported.
  bool pair(const std::string& rule, const std::string& place, const model::Stmt& a,
            const model::Stmt& b, std::vector<Finding>& out) {
    using model::StmtKind;
    if (a.kind == StmtKind::assign && b.kind == StmtKind::assign && a.op == model::Op::none &&
        b.op == model::Op::none && a.target && b.target &&
        model::to_string(*a.target) == model::to_string(*b.target) &&
        !reads_var(*b.value, b.target->ref)) {
      std::vector<std::int64_t> binders(
          static_cast<std::size_t>(std::max(0, en_.game.binder_slots)), 0);
      z3::expr_vector ors(en_.ctx);
      const z3::expr active = en_.x[static_cast<std::size_t>(en_.prep.ctl.active)];
      for (int act = 0; act < en_.players; ++act) {
        detail::Ev ea = en_.env(en_.x, binders, act, act);
        detail::Ev eb = en_.env(en_.x, binders, act, act);
        const z3::expr va = en_.eval_int(*a.value, ea);
        const z3::expr vb = en_.eval_int(*b.value, eb);
        ors.push_back(active == act && va != vb);
      }
      if (sat(z3::mk_or(ors)) != z3::sat) return false;
      const auto& v = en_.game.vars[static_cast<std::size_t>(a.target->ref)];
      Finding f = static_finding(Kind::dead_rule, Severity::warning);
      f.rule = rule;
      f.where = b.where;
      f.message = fmt::format("contradictory effects: '{}' is set twice {}, to different values",
                              v.name, place);
      f.details.push_back(fmt::format("the first assignment, at {}:{}:{}, is always overwritten",
                                      a.where.file, a.where.line, a.where.col));
      out.push_back(std::move(f));
      return true;
    }
    const bool ends_a = a.kind == StmtKind::win || a.kind == StmtKind::lose;
    const bool ends_b = b.kind == StmtKind::win || b.kind == StmtKind::lose;
    if (ends_a && ends_b && a.kind != b.kind && !a.args.empty() && !b.args.empty() &&
        model::to_string(*a.args[0]) == model::to_string(*b.args[0])) {
      Finding f = static_finding(Kind::dead_rule, Severity::warning);
      f.rule = rule;
      f.where = b.where;
      f.message =
          fmt::format("contradictory effects: the same player both wins and loses {}", place);
      f.details.push_back(fmt::format("the game ends at {}:{}:{}; this statement never runs",
                                      a.where.file, a.where.line, a.where.col));
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

  // Dead guards.
  for (const auto& a : g.actions) {
    if (!a.guard) continue;
    if (ck.sat(ck.guard_holds(a.guard.get(), a.who)) != z3::unsat) continue;
    Finding f = static_finding(Kind::dead_rule, Severity::warning);
    f.rule = "action:" + a.name;
    f.where = a.guard->where;
    f.message = fmt::format("'{}' can never be taken: its guard holds in no state", a.name);
    f.details.push_back(
        "no assignment of the variables within their ranges satisfies it (static check)");
    out.push_back(std::move(f));
  }
  for (const auto& t : g.triggers) {
    if (!t.condition) continue;
    if (ck.sat(ck.guard_holds(t.condition.get(), t.controller)) != z3::unsat) continue;
    Finding f = static_finding(Kind::dead_rule, Severity::warning);
    f.rule = "trigger:" + t.name;
    f.where = t.condition->where;
    f.message = fmt::format("trigger '{}' can never fire: its condition holds in no state", t.name);
    f.details.push_back(
        "no assignment of the variables within their ranges satisfies it (static check)");
    out.push_back(std::move(f));
  }
  for (const auto& e : g.end_conditions) {
    if (!e.condition) continue;
    if (ck.sat(ck.guard_holds(e.condition.get(), e.who)) != z3::unsat) continue;
    Finding f = static_finding(Kind::unreachable_win, e.win ? Severity::error : Severity::warning);
    f.rule = "end:" + e.name;
    f.where = e.condition->where;
    f.message = fmt::format("'{}' can never {}: its condition holds in no state", e.name,
                            e.win ? "be won" : "be lost");
    f.details.push_back(
        "no assignment of the variables within their ranges satisfies it (static check)");
    out.push_back(std::move(f));
  }

  // Contradictory mandatory effects.
  ck.contradictions("setup", "in setup", g.setup.get(), out);
  for (std::size_t s = 0; s < g.steps.size(); ++s) {
    ck.contradictions(g.step_rule(static_cast<int>(s)), "in one step", g.steps[s].effects.get(),
                      out);
  }
  for (const auto& a : g.actions) {
    ck.contradictions("action:" + a.name, fmt::format("in the cost of '{}'", a.name), a.cost.get(),
                      out);
    ck.contradictions("action:" + a.name, fmt::format("in the effect of '{}'", a.name),
                      a.effect.get(), out);
  }
  for (const auto& t : g.triggers) {
    ck.contradictions("trigger:" + t.name, fmt::format("in the effect of trigger '{}'", t.name),
                      t.effect.get(), out);
  }

  // Candidate rule gaps.
  const auto& sites = en.sem.gaps();
  const z3::expr running = en.x[static_cast<std::size_t>(en.prep.ctl.over)] == 0;
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
