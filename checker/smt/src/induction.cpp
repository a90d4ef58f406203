// k-induction with simple-path constraints. For a predicate `good` over the
// state: the base case is BMC from the initial states (a bad state within k
// moves is a real counterexample, decoded and replayed); the inductive step
// asks for a simple path of k + 1 in-range states, good in the first k and
// bad in the last, from anywhere. When there is none, `good` holds in every
// reachable state. The step solver grows by one frame per k, so each k reuses
// the previous one. Unreachable in-range states can keep the step satisfiable
// for every k: then the answer is `unknown`, honestly, with the k reached.
#include <chrono>

#include <fmt/format.h>

#include "impl.hpp"
#include "unrolling.hpp"

namespace loophole::smt::detail {

Proof prove(Encoding& en, const z3::expr& good, const Options& o, ControlPaths* prune) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  Proof proof;
  Unrolling base(en, true, o.timeout_ms, "b", prune);
  Unrolling step(en, false, o.timeout_ms, "i");
  auto done = [&](Proof p) {
    p.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return p;
  };
  auto stopped = [&] {
    proof.reason = fmt::format("stopped by {}", to_string(en.control.stopped()));
    return done(proof);
  };
  try {
    for (int k = 0; k <= o.max_k; ++k) {
      if (en.control.check_limits() != Stop::none) return stopped();
      // Base: no bad state k moves from an initial state.
      const z3::check_result b = base.violated_at(good, k, proof.trace);
      if (b == z3::sat) {
        proof.status = ProofStatus::violated;
        return done(proof);
      }
      if (b == z3::unknown && en.control.stopped() != Stop::none) return stopped();
      if (b == z3::unknown) {
        proof.reason = "the solver gave up (timeout) in the base case at k = " + std::to_string(k);
        return done(proof);
      }
      // Step: good in frames 0..k-1 of a simple path, bad in frame k.
      if (k > step.depth()) {
        step.extend();
        for (int i = 0; i < k; ++i) step.solver.add(step.differ(i, k));
      }
      step.solver.push();
      step.solver.add(!step.at(good, k));
      const z3::check_result s = en.control.check(step.solver);
      step.solver.pop();
      if (s == z3::unsat) {
        proof.status = ProofStatus::proved;
        proof.k = k;
        return done(proof);
      }
      if (s == z3::unknown && en.control.stopped() != Stop::none) return stopped();
      if (s == z3::unknown) {
        proof.reason =
            "the solver gave up (timeout) in the inductive step at k = " + std::to_string(k);
        return done(proof);
      }
      step.solver.add(step.at(good, k));
    }
  } catch (const z3::exception&) {
    // Z3 cancelled a model: only ever after a stop.
    if (en.control.stopped() == Stop::none) throw;
    return stopped();
  }
  proof.reason = "not inductive up to k = " + std::to_string(o.max_k);
  if (o.pdr_seconds > 0) {
    en.control.doing(-1, "IC3/PDR");
    Proof pdr = prove_pdr(en, good, o, prune, o.pdr_seconds * 1000);
    if (pdr.status != ProofStatus::unknown) {
      pdr.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      return pdr;
    }
    proof.reason += "; " + pdr.reason;
  }
  return done(proof);
}

}  // namespace loophole::smt::detail

namespace loophole::smt {

Proof Engine::prove_property(int property, const Options& options) {
  if (!impl_->en) return Proof{ProofStatus::unknown, -1, std::nullopt, "unsupported", 0};
  auto& en = *impl_->en;
  const detail::Control::Watch watch(impl_->control, options);
  const auto& p = en.game.properties[static_cast<std::size_t>(property)];
  if (!p.expr ||
      (p.kind != model::Property::Kind::always && p.kind != model::Property::Kind::never)) {
    return Proof{ProofStatus::unknown, -1, std::nullopt,
                 "only always/never properties are invariants", 0};
  }
  const z3::expr h = en.property_holds(property, en.x);
  const z3::expr at = en.restricted(p, en.x);
  const z3::expr good = p.kind == model::Property::Kind::always ? !at || h : !at || !h;
  return detail::prove(en, good, options, impl_->pruning(options));
}

Proof Engine::prove_no_gap(const Options& options) {
  if (!impl_->en) return Proof{ProofStatus::unknown, -1, std::nullopt, "unsupported", 0};
  auto& en = *impl_->en;
  const detail::Control::Watch watch(impl_->control, options);
  return detail::prove(en, en.x[static_cast<std::size_t>(en.low.ctl.over)] != 2, options,
                       impl_->pruning(options));
}

}  // namespace loophole::smt
