// The private state of smt::Engine: the Z3 context and the encoding of the
// game, shared by the files that implement Engine's members (bmc.cpp,
// induction.cpp, static_checks.cpp).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "loophole/smt/engine.hpp"

#include "control_paths.hpp"
#include "encoding.hpp"
#include "successors.hpp"
#include "unrolling.hpp"

namespace loophole::smt {

struct Engine::Impl {
  explicit Impl(const checker::Semantics& s) : sem(s), control(ctx) {}
  const checker::Semantics& sem;
  z3::context ctx;
  detail::Control control;
  std::unique_ptr<detail::Encoding> en;
  std::unique_ptr<detail::Successors> step;             // Engine::successors', made on first use
  std::unique_ptr<detail::ControlPaths> control_paths;  // made on first use
  // The control paths per depth for unrollings from the initial states, or
  // nullptr when `options` turn the pruning off (or there is no encoding).
  detail::ControlPaths* pruning(const Options& options) {
    if (!options.prune_control || !en) return nullptr;
    return paths();
  }
  // The same analysis, whatever the options (the layers' path filter).
  detail::ControlPaths* paths() {
    if (!control_paths) control_paths = std::make_unique<detail::ControlPaths>(*en);
    return control_paths.get();
  }
  std::optional<Unsupported> unsupported;
  std::vector<std::unique_ptr<detail::Unrolling>> parked;  // solvers of a stopped run
};

namespace detail {

// k-induction of a predicate over the template state x (induction.cpp).
// The base case unrolls with `prune` (control_paths.hpp) when given.
Proof prove(Encoding& en, const z3::expr& good, const Options& options,
            ControlPaths* prune = nullptr);
// The same invariant by IC3/PDR (Z3's Spacer, constrained Horn clauses)
// within budget_ms (pdr.cpp); a violation is found again by BMC for its trace.
Proof prove_pdr(Encoding& en, const z3::expr& good, const Options& options, ControlPaths* prune,
                unsigned budget_ms);

}  // namespace detail
}  // namespace loophole::smt
