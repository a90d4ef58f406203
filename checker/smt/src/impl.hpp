// The private state of smt::Engine: the Z3 context and the encoding of the
// game, shared by the files that implement Engine's members (bmc.cpp,
// induction.cpp, static_checks.cpp).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "loophole/smt/engine.hpp"

#include "encoding.hpp"
#include "unrolling.hpp"

namespace loophole::smt {

struct Engine::Impl {
  explicit Impl(const checker::Semantics& s) : sem(s), control(ctx) {}
  const checker::Semantics& sem;
  z3::context ctx;
  detail::Control control;
  std::unique_ptr<detail::Encoding> en;
  std::unique_ptr<z3::solver> one_step;  // Engine::successors' solver, made on first use
  std::optional<Unsupported> unsupported;
  std::vector<std::unique_ptr<detail::Unrolling>> parked;  // solvers of a stopped run
};

namespace detail {

// k-induction of a predicate over the template state x (induction.cpp).
Proof prove(Encoding& en, const z3::expr& good, const Options& options);

}  // namespace detail
}  // namespace loophole::smt
