// Frames and counterexample decoding. A model gives one concrete state per
// frame; the trace is rebuilt on the reference semantics by matching each
// next state among the successors of the previous one (the first equal one,
// as BFS would pick), so an SMT trace carries the same transcript as an
// explicit one and is replayed by the same code before it is reported.
#include "unrolling.hpp"

#include <algorithm>
#include <stdexcept>

namespace loophole::smt::detail {

namespace {

[[noreturn]] void fail(const std::string& why) {
  throw std::logic_error("loophole: internal error: an smt counterexample does not replay: " + why);
}

}  // namespace

Unrolling::Unrolling(Encoding& e, bool from_initial, unsigned timeout_ms, std::string tag,
                     ControlPaths* prune)
    : en(e),
      solver(e.ctx),
      tag_(std::move(tag)),
      relation_(e.transition()),
      prune_(from_initial ? prune : nullptr) {
  if (timeout_ms > 0) {
    z3::params p(en.ctx);
    p.set("timeout", timeout_ms);
    solver.set(p);
  }
  frames.push_back(new_frame());
  if (from_initial) {
    z3::expr_vector inits(en.ctx);
    for (const auto& s : en.sem.initial_states()) {
      z3::expr_vector eq(en.ctx);
      for (std::size_t i = 0; i < s.size(); ++i) eq.push_back(frames[0][i] == s[i]);
      inits.push_back(z3::mk_and(eq));
    }
    solver.add(z3::mk_or(inits));
  }
}

std::vector<z3::expr> Unrolling::new_frame() {
  const std::string prefix = tag_ + std::to_string(frames.size()) + "!";
  std::vector<z3::expr> f = en.frame(prefix);
  solver.add(en.in_range(f));
  return f;
}

z3::check_result Unrolling::violated_at(const z3::expr& good, int k,
                                        std::optional<checker::Trace>& trace) {
  while (k > depth()) extend();
  solver.push();
  solver.add(!at(good, k));
  const z3::check_result r = en.control.check(solver);
  if (r == z3::sat) trace = this->trace(solver.get_model(), k);
  solver.pop();
  return r;
}

void Unrolling::extend() {
  const int k = depth();
  frames.push_back(new_frame());
  const z3::expr relation = prune_ != nullptr ? prune_->relation(k) : relation_;
  solver.add(en.instantiate(relation, frames[static_cast<std::size_t>(k)],
                            frames[static_cast<std::size_t>(k) + 1], tag_ + std::to_string(k)));
}

z3::expr Unrolling::at(const z3::expr& over_x, int k) const {
  z3::expr_vector from(en.ctx), to(en.ctx);
  for (std::size_t i = 0; i < en.x.size(); ++i) {
    from.push_back(en.x[i]);
    to.push_back(frames[static_cast<std::size_t>(k)][i]);
  }
  z3::expr e = over_x;
  return e.substitute(from, to);
}

z3::expr Unrolling::differ(int i, int j) const {
  return !en.equal(frames[static_cast<std::size_t>(i)], frames[static_cast<std::size_t>(j)]);
}

checker::Trace Unrolling::trace(const z3::model& m, int k) const {
  std::vector<checker::StateVec> states;
  for (int i = 0; i <= k; ++i) states.push_back(state(m, i));
  return trace_through(en.sem, states);
}

checker::Trace trace_through(const checker::Semantics& sem,
                             const std::vector<checker::StateVec>& states) {
  if (states.empty()) fail("it has no states");
  std::optional<checker::Trace> begun = sem.begin_trace(states.front());
  if (!begun) fail("its first state is not an initial state");
  checker::Trace trace = std::move(*begun);
  std::vector<checker::Successor> succ;
  for (std::size_t i = 0; i + 1 < states.size(); ++i) {
    sem.successors(states[i], succ, true);
    std::size_t j = 0;
    while (j < succ.size() && succ[j].state != states[i + 1]) ++j;
    if (j == succ.size()) {
      fail("move " + std::to_string(i + 1) + " (at " + sem.where(states[i]) +
           ") is not a move of the semantics");
    }
    checker::TraceStep step = sem.describe(states[i], succ[j], static_cast<std::uint32_t>(j));
    step.successor = static_cast<std::uint32_t>(j);
    trace.steps.push_back(std::move(step));
  }
  const auto r = sem.replay(trace);
  if (!r.ok) fail(r.error);
  if (r.states.empty() || r.states.back() != states.back()) fail("the replay ends elsewhere");
  return trace;
}

}  // namespace loophole::smt::detail
