// Bounded model checking: one solver, frames added one at a time, and at each
// depth one query for all open questions together in a push/pop scope, so
// depth k+1 reuses everything learnt at depth k. Depths are tried in
// increasing order, so the first counterexample of a question is a shortest
// one, of the same length as the explicit engine's BFS trace. Questions with
// several answers (deadlocks by control point, rule gaps by site) block each
// answer and ask again. After each depth the engine asks whether a simple
// path one move longer exists from an initial state (a witness on the
// semantics first, Z3 only without one); when none does, every reachable
// state has been seen and each "not found" is final. What stays open is
// handed to k-induction (induction.cpp).
#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "loophole/checker/conditions.hpp"
#include "loophole/checker/questions.hpp"

#include "impl.hpp"
#include "layers.hpp"
#include "unrolling.hpp"

namespace loophole::smt {

using checker::Finding;
using checker::Kind;
using checker::Severity;
using checker::Verdict;

namespace {

struct Goal {
  enum class What : std::uint8_t { deadlock, gap, property, end } what;
  int ref = -1;
  int player = -1;
  z3::expr pred;  // over the template state x
  bool multi = false;
  std::vector<z3::expr> blocks;
  // The same blocks for the layers' concrete states: a deadlock's group
  // (step, stage, seat or -1), a rule gap's gap field.
  std::vector<std::array<int, 3>> concrete_blocks;
  struct Hit {
    checker::StateVec last;
    checker::Trace trace;
    bool beyond = false;  // found by k-induction's base case, deeper than the BMC depth
    bool pdr = false;     // ... or by IC3/PDR, then BMC for the trace
    bool layers = false;  // ... or by the breadth-first layers at a BMC depth
  };
  std::vector<Hit> hits;
  bool open = true;
  bool unknown = false;
  Proof proof;  // after an incomplete search: what k-induction said about the rest
};

// How a proof was found: k-induction's k, or IC3/PDR.
std::string proved_by(const Proof& pr) {
  return pr.pdr ? std::string("proved by IC3/PDR (Z3's Spacer)")
                : fmt::format("proved by k-induction (k = {})", pr.k);
}

Finding smt_finding(Kind kind, Severity severity) {
  Finding f;
  f.kind = kind;
  f.severity = severity;
  f.verdict = Verdict::violated;
  f.engine = "smt";
  return f;
}

// Whether a simple path of `moves` moves from an initial state exists, by
// a depth-first search on the reference semantics within `budget` expanded
// states; false also when the budget ran out. A path found is a witness
// that the completeness query would be sat, so it need not be asked: in a
// game that goes on (every seed) the first successors already make one, in
// microseconds, where Z3 took seconds to find it (cosmere at depth 8:
// 15.5 s of the depth's 17 s). Only a game that may be exhausted gets the
// query.
bool simple_path_exists(const checker::Semantics& sem, int moves, std::size_t budget) {
  std::vector<checker::StateVec> path;
  std::vector<checker::Successor> succ;
  std::size_t spent = 0;
  const auto extend = [&](const auto& self) -> bool {
    if (static_cast<int>(path.size()) > moves) return true;
    if (++spent > budget) return false;
    sem.successors(path.back(), succ);
    std::vector<checker::StateVec> next;
    next.reserve(succ.size());
    for (auto& n : succ) next.push_back(std::move(n.state));
    for (auto& n : next) {
      if (std::find(path.begin(), path.end(), n) != path.end()) continue;
      path.push_back(std::move(n));
      if (self(self)) return true;
      path.pop_back();
      if (spent > budget) return false;
    }
    return false;
  };
  for (auto& init : sem.initial_states()) {
    path.assign(1, std::move(init));
    if (extend(extend)) return true;
    if (spent > budget) return false;
  }
  return false;
}

}  // namespace

Result Engine::check(const Options& o, const Questions& sel) {
  Result res;
  if (impl_->unsupported) return res;
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto& control = impl_->control;
  const detail::Control::Watch watch(control, o);
  // Stopped while encoding: no encoding, every question below stays open
  // (its predicate is never asked).
  detail::Encoding* const enc = impl_->en.get();
  const model::Game& g = impl_->sem.game();
  const int n = g.players;
  z3::context& c = impl_->ctx;
  const std::vector<z3::expr> none;
  const auto& x = enc != nullptr ? enc->x : none;
  auto field = [&](int index) { return x[static_cast<std::size_t>(index)]; };
  const z3::expr open_question = c.bool_val(true);

  std::vector<Goal> goals;
  auto add_goal = [&](Goal::What what, int ref, int player, const z3::expr& pred, bool multi) {
    goals.push_back(Goal{what, ref, player, pred, multi, {}, {}, {}, true, false, Proof{}});
  };
  if (sel.deadlocks) {
    add_goal(Goal::What::deadlock, -1, -1, enc != nullptr ? enc->deadlock(x) : open_question, true);
  }
  const auto& sites = impl_->sem.gaps();
  if (sel.rule_gaps && enc == nullptr &&
      std::any_of(sites.begin(), sites.end(), [](const checker::GapSite& site) {
        return site.kind != checker::GapSite::Kind::stack_overflow;
      })) {
    add_goal(Goal::What::gap, -1, -1, open_question, true);
  } else if (sel.rule_gaps && enc != nullptr && enc->low.ctl.gap >= 0) {
    const auto& ctl = enc->low.ctl;
    z3::expr_vector any(c);
    for (std::size_t s = 0; s < sites.size(); ++s) {
      if (sites[s].kind == checker::GapSite::Kind::stack_overflow) continue;
      any.push_back(field(ctl.gap) == static_cast<int>(s + 1));
    }
    if (!any.empty())
      add_goal(Goal::What::gap, -1, -1, field(ctl.over) == 2 && z3::mk_or(any), true);
  }
  if (sel.user_properties) {
    for (std::size_t i = 0; i < g.properties.size(); ++i) {
      const auto& p = g.properties[i];
      if (p.kind == model::Property::Kind::leads_to || !p.expr) continue;
      z3::expr bad = open_question;
      if (enc != nullptr) {
        const z3::expr h = enc->property_holds(static_cast<int>(i), x);
        const z3::expr at = enc->restricted(p, x);
        bad = p.kind == model::Property::Kind::always ? at && !h : at && h;
      }
      add_goal(Goal::What::property, static_cast<int>(i), -1, bad, false);
    }
  }
  if (sel.unreachable_wins) {
    for (std::size_t e = 0; e < g.end_conditions.size(); ++e) {
      for (int p = 0; p < n; ++p) {
        if (!checker::question::end_asked(g.end_conditions[e], p)) continue;
        add_goal(Goal::What::end, static_cast<int>(e), p,
                 enc != nullptr ? enc->end_holds(static_cast<int>(e), p, x) : open_question, false);
      }
    }
  }

  // A deadlock is blocked by its group (step, stage and the holder's seat,
  // as properties/ groups them), a rule gap by its site.
  // The group of a deadlock state: its step, stage and (in a window) the
  // holder's seat, as checker::question::deadlock_seat counts it.
  auto deadlock_group = [&](const checker::StateVec& s) -> std::array<int, 3> {
    const auto& ctl = enc->low.ctl;
    const int stage = s[static_cast<std::size_t>(ctl.stage)];
    const int seat =
        ctl.holder >= 0 && stage == static_cast<int>(checker::Stage::window)
            ? checker::question::deadlock_seat(s[static_cast<std::size_t>(ctl.holder)],
                                               s[static_cast<std::size_t>(ctl.active)], n)
            : -1;
    return {s[static_cast<std::size_t>(ctl.step)], stage, seat};
  };
  auto block = [&](Goal& goal, const checker::StateVec& last) {
    const auto& ctl = enc->low.ctl;
    if (goal.what == Goal::What::gap) {
      goal.blocks.push_back(field(ctl.gap) != last[static_cast<std::size_t>(ctl.gap)]);
      goal.concrete_blocks.push_back({last[static_cast<std::size_t>(ctl.gap)], 0, 0});
      return;
    }
    goal.concrete_blocks.push_back(deadlock_group(last));
    z3::expr same = field(ctl.step) == last[static_cast<std::size_t>(ctl.step)] &&
                    field(ctl.stage) == last[static_cast<std::size_t>(ctl.stage)];
    if (ctl.holder >= 0 &&
        last[static_cast<std::size_t>(ctl.stage)] == static_cast<int>(checker::Stage::window)) {
      // The question's grouping (checker/questions.hpp), as the explicit
      // analyses group deadlocks.
      const int seat =
          checker::question::deadlock_seat(last[static_cast<std::size_t>(ctl.holder)],
                                           last[static_cast<std::size_t>(ctl.active)], n);
      z3::expr_vector seats(c);
      for (int a = 0; a < n; ++a) {
        seats.push_back(field(ctl.active) == a && field(ctl.holder) == (a + seat) % n);
      }
      same = same && z3::mk_or(seats);
    }
    goal.blocks.push_back(!same);
  };

  auto& stats = res.statistics;
  stats.fields = x.size();
  auto goal_name = [&](const Goal& goal) -> std::string {
    switch (goal.what) {
      case Goal::What::deadlock:
        return "deadlocks";
      case Goal::What::gap:
        return "rule gaps";
      case Goal::What::property:
        return fmt::format("property '{}'", g.properties[static_cast<std::size_t>(goal.ref)].name);
      case Goal::What::end:
        return fmt::format("'{}' for {}", g.end_conditions[static_cast<std::size_t>(goal.ref)].name,
                           checker::question::player(goal.player));
    }
    return "";
  };
  // BMC, depth by depth, until `depth`, completeness, or a stop (a limit or
  // an interrupt: then `depth` is the last depth every question was asked at).
  if (enc != nullptr) {
    auto& en = *enc;
    auto unrolling =
        std::make_unique<detail::Unrolling>(en, true, o.timeout_ms, "s", impl_->pruning(o));
    detail::Unrolling& u = *unrolling;
    if (!o.solver_params.empty()) {
      z3::params params(c);
      std::size_t at = 0;
      while (at < o.solver_params.size()) {
        std::size_t end = o.solver_params.find(' ', at);
        if (end == std::string::npos) end = o.solver_params.size();
        const std::string item = o.solver_params.substr(at, end - at);
        at = end + 1;
        const auto eq = item.find('=');
        if (eq == std::string::npos) continue;
        const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
        if (value == "true" || value == "false") {
          params.set(name.c_str(), value == "true");
        } else if (!value.empty() && std::isdigit(static_cast<unsigned char>(value[0])) != 0) {
          params.set(name.c_str(), static_cast<unsigned>(std::stoul(value)));
        } else {
          params.set(name.c_str(), value.c_str());
        }
      }
      u.solver.set(params);
    }
    stats.paths = en.paths.size();
    try {
      auto lap = [last = Clock::now()]() mutable {
        const auto now = Clock::now();
        const double s = std::chrono::duration<double>(now - last).count();
        last = now;
        return s;
      };
      // The breadth-first layers answer the depths while the states are few
      // (layers.hpp); BMC's frames are added only when its queries are needed.
      detail::Layers layers(impl_->sem, control, o.layer_states);
      auto by_layers = [&](int k) {
        if (!layers.reach(k)) return false;
        stats.layer_states = layers.size();
        return true;
      };
      // The questions asked of the layers' concrete states: the goals'
      // predicates evaluated on integers (the state's fields, the compiled
      // conditions, the reference's end conditions), with their blocks.
      const auto& ctl = en.low.ctl;
      auto at = [](const checker::StateVec& s, int f) { return s[static_cast<std::size_t>(f)]; };
      std::unique_ptr<checker::Conditions> conditions;
      std::vector<std::vector<bool>> listed(g.properties.size());  // per property, per step
      if (layers.alive() && sel.user_properties && !g.properties.empty()) {
        std::vector<const model::Expr*> exprs;
        for (std::size_t i = 0; i < g.properties.size(); ++i) {
          const auto& p = g.properties[i];
          exprs.push_back(p.kind == model::Property::Kind::leads_to ? nullptr : p.expr.get());
          auto& steps = listed[i];
          steps.assign(g.steps.size(), p.at_phases.empty() && p.at_steps.empty());
          for (std::size_t st = 0; st < g.steps.size(); ++st) {
            if (std::find(p.at_steps.begin(), p.at_steps.end(), static_cast<int>(st)) !=
                    p.at_steps.end() ||
                std::find(p.at_phases.begin(), p.at_phases.end(), g.steps[st].phase) !=
                    p.at_phases.end()) {
              steps[st] = true;
            }
          }
        }
        conditions = std::make_unique<checker::Conditions>(impl_->sem, std::move(exprs));
      }
      std::vector<std::pair<int, int>> holding;  // the end conditions holding in a state
      bool ends_known = false;                   // ... in the state asked about now
      auto concrete_bad = [&](const Goal& goal, std::size_t i, const checker::StateVec& s) {
        auto blocked = [&](const std::array<int, 3>& key) {
          return std::find(goal.concrete_blocks.begin(), goal.concrete_blocks.end(), key) !=
                 goal.concrete_blocks.end();
        };
        switch (goal.what) {
          case Goal::What::deadlock:
            return at(s, ctl.over) == 0 && !blocked(deadlock_group(s)) && layers.stuck(i);
          case Goal::What::gap: {
            if (at(s, ctl.over) != 2) return false;
            const int gap = at(s, ctl.gap);
            return gap >= 1 && gap <= static_cast<int>(sites.size()) &&
                   sites[static_cast<std::size_t>(gap - 1)].kind !=
                       checker::GapSite::Kind::stack_overflow &&
                   !blocked({gap, 0, 0});
          }
          case Goal::What::property: {
            const auto r = static_cast<std::size_t>(goal.ref);
            const int step = at(s, ctl.step);
            if (step < 0 || step >= static_cast<int>(listed[r].size()) ||
                !listed[r][static_cast<std::size_t>(step)]) {
              return false;
            }
            const bool h = conditions->holds(r, s);
            return g.properties[r].kind == model::Property::Kind::always ? !h : h;
          }
          case Goal::What::end:
            if (!ends_known) {
              holding.clear();
              impl_->sem.end_conditions_holding(s, holding);
              ends_known = true;
            }
            return std::find(holding.begin(), holding.end(),
                             std::pair<int, int>{goal.ref, goal.player}) != holding.end();
        }
        return false;
      };
      // Under Options::layers_past_depth the layers go on past `depth` while
      // they hold (a complete search settles every depth); BMC never does.
      for (int k = 0; k <= o.depth || (o.layers_past_depth && layers.alive()); ++k) {
        if (control.check_limits() != Stop::none) break;
        lap();
        bool answered = by_layers(k);
        // Which states of layer k have no move is recorded as the next
        // layer is computed (as the completeness check below does anyway).
        if (answered && o.completeness) layers.reach(k + 1);
        const double frame = lap();
        if (answered) {
          // Each open question asked of the states first reached at depth k,
          // in their order: the first that holds a bad state answers it (a
          // question with several answers blocks it and goes on).
          control.doing(k, "the states reached in that many moves");
          const auto [first, end] = layers.layer(k);
          for (std::size_t i = first; i < end && answered; ++i) {
            if (control.stopped() != Stop::none) {
              answered = false;
              break;
            }
            const checker::StateVec& s = layers.view(i);
            ends_known = false;
            bool open = false;
            for (auto& goal : goals) {
              if (!goal.open) continue;
              open = true;
              if (!concrete_bad(goal, i, s)) continue;
              const checker::StateVec last = s;
              goal.hits.push_back(
                  {last, detail::trace_through(impl_->sem, layers.path_to(i)), false, false, true});
              if (goal.multi) {
                block(goal, last);
              } else {
                goal.open = false;
              }
            }
            if (!open) break;
          }
          // A stop: handled below; BMC does not take over.
          if (!answered) layers.give_up();
          if (!answered && control.stopped() != Stop::none) break;
          if (answered) stats.layer_depth = k;
        }
        if (!answered && k > o.depth) break;
        if (!answered) {
          // (Not after a stop: a frame of speed-biomes takes 0.3 s to add.)
          while (k > u.depth() && control.check_limits() == Stop::none) u.extend();
          if (k > u.depth()) break;
        }
        // One query per depth for all open questions together (most of
        // them are unsat, and an unsat query is the expensive kind): a
        // model answers every question whose bad state it reaches, and
        // the query is asked again without those until it is unsat. A
        // query the solver gives up on falls back to one query per
        // question, so a timeout leaves only that question open.
        bool one_by_one = false;
        while (!answered && !one_by_one && control.stopped() == Stop::none) {
          std::vector<Goal*> asked;
          z3::expr_vector bad(c);
          for (auto& goal : goals) {
            if (!goal.open) continue;
            z3::expr q = goal.pred;
            for (const auto& b : goal.blocks) q = q && b;
            asked.push_back(&goal);
            bad.push_back(u.at(q, k));
          }
          if (asked.empty()) break;
          control.doing(k, asked.size() == 1 ? goal_name(*asked.front())
                                             : fmt::format("{} questions", asked.size()));
          u.solver.push();
          u.solver.add(z3::mk_or(bad));
          const z3::check_result r = control.check(u.solver);
          if (r == z3::sat) {
            const z3::model m = u.solver.get_model();
            const checker::StateVec last = u.state(m, k);
            const checker::Trace trace = u.trace(m, k);
            for (std::size_t i = 0; i < asked.size(); ++i) {
              if (!m.eval(bad[static_cast<int>(i)], true).is_true()) continue;
              Goal& goal = *asked[i];
              goal.hits.push_back({last, trace, false, false});
              if (goal.multi) {
                block(goal, last);
              } else {
                goal.open = false;
              }
            }
          }
          u.solver.pop();
          if (r == z3::unknown && control.stopped() == Stop::none) one_by_one = true;
          if (r != z3::sat) break;
        }
        for (auto& goal : goals) {
          while (one_by_one && goal.open && control.stopped() == Stop::none) {
            control.doing(k, goal_name(goal));
            z3::expr q = goal.pred;
            for (const auto& b : goal.blocks) q = q && b;
            u.solver.push();
            u.solver.add(u.at(q, k));
            const z3::check_result r = control.check(u.solver);
            if (r == z3::sat) {
              const z3::model m = u.solver.get_model();
              const checker::StateVec last = u.state(m, k);
              goal.hits.push_back({last, u.trace(m, k), false, false});
              if (goal.multi) {
                block(goal, last);
              } else {
                goal.open = false;
              }
            } else if (r == z3::unknown && control.stopped() == Stop::none) {
              goal.unknown = true;
              goal.open = false;
            }
            u.solver.pop();
            if (r != z3::sat) break;
          }
        }
        if (control.check_limits() != Stop::none) break;
        stats.depth = k;
        stats.depth_seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        stats.query_seconds.push_back(lap());
        stats.frame_seconds.push_back(frame);
        stats.completeness_seconds.push_back(0);
        detail::ControlPaths* const prune = impl_->pruning(o);
        stats.frame_paths.push_back(prune != nullptr ? prune->paths_at(k).size() : en.paths.size());
        stats.frame_controls.push_back(prune != nullptr ? prune->controls_at(k) : 0);
        // Completeness: is there a simple path of k + 1 moves from an initial state?
        if (!o.completeness) continue;
        control.doing(k, "whether a longer path exists");
        // The layers settle it when they reach depth k + 1: none is new
        // there, so every reachable state lies within k moves; else a
        // shortest path to a new one is a simple path of k + 1 moves.
        if (answered && by_layers(k + 1)) {
          const auto [first, end] = layers.layer(k + 1);
          stats.frame_seconds.back() += lap();
          if (first == end) {
            stats.complete = true;
            break;
          }
          continue;
        }
        if (k > o.depth) break;  // past the depth: the layers alone settle it
        // Else a witness found on the semantics settles it first (see
        // simple_path_exists); only when none is found is Z3 asked, with
        // the k^2/2 pairs of distinct frames in a push/pop scope. (Keeping
        // them for good, so that the query needs nothing of its own, made
        // no difference above the noise: measured, not kept.)
        while (k + 1 > u.depth() && control.check_limits() == Stop::none) u.extend();
        if (k + 1 > u.depth()) break;
        stats.frame_seconds.back() += lap();
        if (simple_path_exists(impl_->sem, k + 1, 10000)) continue;
        u.solver.push();
        for (int i = 0; i <= k + 1; ++i) {
          for (int j = i + 1; j <= k + 1; ++j) u.solver.add(u.differ(i, j));
        }
        const z3::check_result longer = control.check(u.solver);
        u.solver.pop();
        stats.completeness_seconds.back() = lap();
        if (longer == z3::unsat) {
          stats.complete = true;
          break;
        }
      }
      stats.layer_bytes = layers.bytes();
      stats.z3_bytes = Z3_get_estimated_alloc_size();
    } catch (const z3::exception&) {
      // Z3 cancelled a model or a substitution: only ever after a stop.
      if (control.stopped() == Stop::none) throw;
    }
    const z3::stats zs = u.solver.statistics();
    for (unsigned i = 0; i < zs.size(); ++i) {
      stats.solver_statistics +=
          fmt::format("{} {}\n", zs.key(i),
                      zs.is_uint(i) ? std::to_string(zs.uint_value(i))
                                    : fmt::format("{:.2f}", zs.double_value(i)));
    }
    // After a stop the run is about to end: tearing down the solver's
    // frames took 0.5 s of the stop's latency on cosmere; the engine keeps
    // them until it is destroyed (or the process exits).
    if (control.stopped() != Stop::none) impl_->parked.push_back(std::move(unrolling));
  }
  stats.stopped = control.stopped();

  const bool complete = stats.complete;
  res.gaps_settled = complete || std::none_of(goals.begin(), goals.end(), [](const Goal& goal) {
                       return goal.what == Goal::What::gap;
                     });
  // After an incomplete search, k-induction settles what BMC left open:
  // that no bad state (beyond the deadlock groups and gap sites found) is
  // reachable at any depth. Its base case may instead reach one deeper than
  // the BMC depth: that is a real answer (replayed), kept as a hit, and for
  // questions with several answers the proof is tried again without it.
  for (auto& goal : goals) {
    if (complete || (!goal.multi && !goal.hits.empty())) continue;
    if (control.stopped() != Stop::none) {
      goal.proof.reason = "not tried";
      continue;
    }
    if (goal.unknown) {
      goal.proof.reason = fmt::format("the solver gave up (timeout) at depth {}", stats.depth);
      continue;
    }
    if (!o.induction) {
      goal.proof.reason = "not tried";
      continue;
    }
    for (int round = 0;; ++round) {
      z3::expr rest = goal.pred;
      for (const auto& b : goal.blocks) rest = rest && b;
      control.doing(-1, "k-induction: " + goal_name(goal));
      Proof pr = detail::prove(*enc, !rest, o, impl_->pruning(o));
      if (pr.status == ProofStatus::violated && pr.trace && round < 16) {
        const auto replayed = impl_->sem.replay(*pr.trace);
        goal.hits.push_back({replayed.states.back(), std::move(*pr.trace), true, pr.pdr});
        if (goal.multi) {
          block(goal, goal.hits.back().last);
          continue;
        }
      } else if (pr.status == ProofStatus::violated) {
        pr.status = ProofStatus::unknown;
        pr.reason = "too many answers beyond the depth";
      }
      goal.proof = std::move(pr);
      break;
    }
  }
  stats.stopped = control.stopped();
  const bool stopped = stats.stopped != Stop::none;
  const std::string depth_text =
      complete  ? fmt::format("every reachable state lies within {} moves", stats.depth)
      : stopped ? fmt::format("{}; stopped by {}",
                              stats.depth < 0 ? "no depth was searched"
                              // (past the depth: by the layers, under --symbolic)
                              : stats.depth > o.depth
                                  ? fmt::format("searched to depth {}", stats.depth)
                                  : fmt::format("searched to depth {} of {}", stats.depth, o.depth),
                              to_string(stats.stopped))
                : fmt::format("searched to depth {}", stats.depth);
  // "within depth 3", or "found before the stop" (before depth 0 was done).
  const std::string within = stats.depth < 0 ? std::string("found before the stop")
                                             : fmt::format("within depth {}", stats.depth);
  auto found_at = [&](const Goal::Hit& hit) {
    if (hit.pdr) {
      return fmt::format(
          "found by IC3/PDR, its trace by bounded model checking at depth {} (beyond the "
          "bounded model checking depth {})",
          hit.trace.size(), stats.depth);
    }
    if (hit.beyond) {
      return fmt::format(
          "found by the base case of k-induction at depth {} (beyond the bounded model "
          "checking depth {})",
          hit.trace.size(), stats.depth);
    }
    return hit.layers
               ? fmt::format("found by breadth-first search at depth {}", hit.trace.size())
               : fmt::format("found by bounded model checking at depth {}", hit.trace.size());
  };
  // Deadlocks and rule gaps not found stay open unless the search was
  // complete or k-induction proved them absent: one `unknown` finding each.
  auto open_rest = [&](const Goal& goal, Kind kind, std::string_view what) {
    if (complete || goal.proof.status == ProofStatus::proved) return true;
    Finding f = smt_finding(kind, Severity::note);
    f.verdict = Verdict::unknown;
    f.rule = std::string(checker::to_string(kind));
    f.message = fmt::format("no {}{} {}; deeper ones are not ruled out",
                            goal.hits.empty() ? "" : "other ", what, within);
    f.details.push_back(fmt::format("{}; k-induction: {}", depth_text, goal.proof.reason));
    res.findings.push_back(std::move(f));
    return false;
  };
  // How each question that can hold was settled (Result::settled).
  const std::string searched =
      complete && stats.layer_depth == stats.depth && stats.layer_states > 0
          ? fmt::format("all {} reachable states searched, every one within {} moves",
                        stats.layer_states, stats.depth)
          : depth_text;
  for (const auto& goal : goals) {
    if (goal.what == Goal::What::end) continue;
    if (goal.what == Goal::What::property &&
        g.properties[static_cast<std::size_t>(goal.ref)].kind == model::Property::Kind::reachable) {
      continue;
    }
    const bool violated = !goal.multi && !goal.hits.empty();
    std::string how =
        violated   ? std::string("violated")
        : complete ? searched
        : goal.proof.status == ProofStatus::proved
            ? proved_by(goal.proof)
            : fmt::format("unknown: {}; k-induction: {}", depth_text,
                          goal.proof.reason.empty() ? "not tried" : goal.proof.reason);
    if (goal.what == Goal::What::deadlock) {
      res.settled.push_back({Kind::deadlock, "deadlock", std::move(how)});
    } else if (goal.what == Goal::What::gap) {
      res.settled.push_back({Kind::rule_gap, "rule-gap", std::move(how)});
    } else {
      res.settled.push_back(
          {Kind::property_violation,
           checker::question::property_rule(g.properties[static_cast<std::size_t>(goal.ref)]),
           std::move(how)});
    }
  }
  for (auto& goal : goals) {
    switch (goal.what) {
      case Goal::What::deadlock:
        for (auto& hit : goal.hits) {
          const checker::StateVec& last = hit.last;
          const auto& ctl = enc->low.ctl;
          const int step = last[static_cast<std::size_t>(ctl.step)];
          const int stage = last[static_cast<std::size_t>(ctl.stage)];
          // The question's words (checker/questions.hpp), as the explicit
          // analyses say them.
          Finding f = smt_finding(Kind::deadlock, Severity::error);
          const bool in_window = stage == static_cast<int>(checker::Stage::window);
          f.rule = checker::question::deadlock_rule(g, step);
          f.where = checker::question::deadlock_where(g, step, in_window);
          f.message = checker::question::deadlock_message(
              g, step, in_window, last[static_cast<std::size_t>(ctl.holder)]);
          f.details.push_back(found_at(hit));
          f.trace = std::move(hit.trace);
          res.findings.push_back(std::move(f));
        }
        open_rest(goal, Kind::deadlock, "deadlock");
        break;
      case Goal::What::gap:
        for (auto& hit : goal.hits) {
          const checker::StateVec& last = hit.last;
          const auto& ctl = enc->low.ctl;
          const auto& site =
              sites[static_cast<std::size_t>(last[static_cast<std::size_t>(ctl.gap)] - 1)];
          Finding f = smt_finding(Kind::rule_gap, Severity::error);
          f.rule = site.rule;
          f.where = site.where;
          f.message = site.message;
          f.details.push_back(found_at(hit));
          f.trace = std::move(hit.trace);
          res.findings.push_back(std::move(f));
        }
        res.gaps_settled = open_rest(goal, Kind::rule_gap, "rule gap");
        break;
      case Goal::What::property: {
        const auto& p = g.properties[static_cast<std::size_t>(goal.ref)];
        Finding f = smt_finding(Kind::property_violation, Severity::error);
        f.rule = checker::question::property_rule(p);
        f.where = p.where;
        const bool reachable = p.kind == model::Property::Kind::reachable;
        if (!goal.hits.empty()) {
          Goal::Hit& hit = goal.hits.front();
          const auto& ctl = enc->low.ctl;
          if (hit.beyond) f.details.push_back(found_at(hit));
          const int at = hit.last[static_cast<std::size_t>(ctl.step)];
          if (reachable) {
            if (!sel.report_holds) break;
            f.verdict = Verdict::holds;
            f.severity = Severity::note;
            f.message = checker::question::property_reached(g, p, at);
          } else {
            f.message = checker::question::property_fails(g, p, at);
          }
          f.trace = std::move(hit.trace);
          res.findings.push_back(std::move(f));
          break;
        }
        // Not found within the depth: final when the search was complete,
        // else a proof that the bad (or, for reachable, the good) states are
        // unreachable settles it.
        const Proof& pr = goal.proof;
        const bool settled = complete || pr.status == ProofStatus::proved;
        const std::string why = complete ? depth_text
                                : pr.status == ProofStatus::proved
                                    ? proved_by(pr)
                                    : fmt::format("{}; k-induction: {}", depth_text,
                                                  pr.reason.empty() ? "not tried" : pr.reason);
        if (reachable) {
          f.verdict = settled ? Verdict::violated : Verdict::unknown;
          if (!settled) f.severity = Severity::note;
          f.message = checker::question::property_never_reached(p);
          f.details.push_back(why);
          res.findings.push_back(std::move(f));
        } else if (settled) {
          if (!sel.report_holds) break;
          f.verdict = Verdict::holds;
          f.severity = Severity::note;
          f.message = checker::question::property_holds(p);
          f.details.push_back(why);
          res.findings.push_back(std::move(f));
        } else {
          f.verdict = Verdict::unknown;
          f.severity = Severity::note;
          f.message = checker::question::property_not_violated(p, within);
          f.details.push_back(why);
          res.findings.push_back(std::move(f));
        }
        break;
      }
      case Goal::What::end: {
        if (!goal.hits.empty()) break;
        const auto& end = g.end_conditions[static_cast<std::size_t>(goal.ref)];
        const Proof& pr = goal.proof;
        const bool settled = complete || pr.status == ProofStatus::proved;
        Finding f = smt_finding(
            Kind::unreachable_win,
            !settled ? Severity::note : (end.win ? Severity::error : Severity::warning));
        f.verdict = settled ? Verdict::violated : Verdict::unknown;
        f.rule = checker::question::end_rule(end, goal.player);
        f.where = end.where;
        f.message = checker::question::end_never_message(end, goal.player);
        f.details.push_back(checker::question::end_never_detail(
            goal.player, settled,
            complete  ? depth_text
            : settled ? proved_by(pr)
                      : fmt::format("{}; k-induction: {}", depth_text,
                                    pr.reason.empty() ? "not tried" : pr.reason)));
        res.findings.push_back(std::move(f));
        break;
      }
    }
  }
  stats.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return res;
}

}  // namespace loophole::smt
