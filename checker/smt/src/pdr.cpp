// IC3/PDR through Z3's Spacer: an invariant `good` proved for every depth as
// a system of constrained Horn clauses over one uninterpreted relation Inv
// over the state fields,
//
//   in_range(x) ∧ Init(x)                   → Inv(x)
//   Inv(x) ∧ T(x, y, choices) ∧ in_range(y) → Inv(y)
//   Inv(x) ∧ ¬good(x)                       → false
//
// sat (Spacer found an inductive Inv) proves `good` in every reachable
// state; unsat (a bad state is reachable) is confirmed by BMC from the
// initial states, deepening until the bad state is found, so the answer
// carries a shortest replayed trace like every other violation. Where
// k-induction fails because unreachable in-range states break the step,
// Spacer learns the lemmas that exclude them.
#include <chrono>

#include <fmt/format.h>

#include "impl.hpp"
#include "unrolling.hpp"

namespace loophole::smt::detail {

Proof prove_pdr(Encoding& en, const z3::expr& good, const Options& o, ControlPaths* prune,
                unsigned budget_ms) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  Proof proof;
  proof.pdr = true;
  auto done = [&](Proof p) {
    p.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return p;
  };
  z3::context& c = en.ctx;
  try {
    z3::sort_vector domain(c);
    for (std::size_t i = 0; i < en.x.size(); ++i) domain.push_back(c.int_sort());
    const z3::func_decl inv = c.function("inv", domain, c.bool_sort());
    z3::expr_vector xs(c), all(c);
    for (const auto& v : en.x) {
      xs.push_back(v);
      all.push_back(v);
    }
    z3::expr_vector ys(c);
    for (const auto& v : en.y) {
      ys.push_back(v);
      all.push_back(v);
    }
    for (const auto& v : en.choices) all.push_back(v);
    z3::expr_vector inits(c);
    for (const auto& s : en.sem.initial_states()) {
      z3::expr_vector eq(c);
      for (std::size_t i = 0; i < s.size(); ++i) eq.push_back(en.x[i] == s[i]);
      inits.push_back(z3::mk_and(eq));
    }
    z3::solver horn(c, "HORN");
    horn.add(z3::forall(xs, z3::implies(en.in_range(en.x) && z3::mk_or(inits), inv(xs))));
    horn.add(
        z3::forall(all, z3::implies(inv(xs) && en.transition() && en.in_range(en.y), inv(ys))));
    horn.add(z3::forall(xs, z3::implies(inv(xs) && !good, c.bool_val(false))));
    const z3::check_result r = en.control.check_within(horn, budget_ms);
    if (r == z3::sat) {
      proof.status = ProofStatus::proved;
      proof.k = -1;
      return done(proof);
    }
    if (r == z3::unknown) {
      proof.reason = en.control.stopped() != Stop::none
                         ? fmt::format("stopped by {}", to_string(en.control.stopped()))
                         : fmt::format("IC3/PDR gave up after {:.0f} s",
                                       std::chrono::duration<double>(Clock::now() - t0).count());
      return done(proof);
    }
    // A bad state is reachable: find it by BMC, deepening (a shortest trace).
    Unrolling base(en, true, o.timeout_ms, "p", prune);
    for (int k = 0;; ++k) {
      if (en.control.check_limits() != Stop::none) break;
      const z3::check_result b = base.violated_at(good, k, proof.trace);
      if (b == z3::sat) {
        proof.status = ProofStatus::violated;
        return done(proof);
      }
      if (b == z3::unknown) break;
    }
    proof.reason = "IC3/PDR found a reachable bad state that BMC did not reach";
    return done(proof);
  } catch (const z3::exception& e) {
    if (en.control.stopped() == Stop::none) {
      proof.reason = std::string("IC3/PDR failed: ") + e.msg();
      return done(proof);
    }
    proof.reason = fmt::format("stopped by {}", to_string(en.control.stopped()));
    return done(proof);
  }
}

}  // namespace loophole::smt::detail
