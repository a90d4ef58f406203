// smt::Engine: encodes the game once (a construct the encoding lacks makes
// the engine refuse the game, never guess) and answers the queries of
// bmc.cpp, induction.cpp and static_checks.cpp on that one encoding.
#include "loophole/smt/engine.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "impl.hpp"
#include "unrolling.hpp"

namespace loophole::smt {

std::string z3_version() {
  unsigned major = 0, minor = 0, build = 0, revision = 0;
  Z3_get_version(&major, &minor, &build, &revision);
  return fmt::format("{}.{}.{}", major, minor, build);
}

std::string Unsupported::message() const {
  if (!where.known()) return "unsupported in the smt engine: " + construct;
  return fmt::format("{}:{}:{}: unsupported in the smt engine: {}", where.file, where.line,
                     where.col, construct);
}

// A stop while encoding leaves no encoding: every question is then
// `unknown` (Engine::check says so), which is what the partial report shows.
Engine::Engine(const checker::Semantics& sem, const Options& options)
    : impl_(std::make_unique<Impl>(sem)) {
  const detail::Control::Watch watch(impl_->control, options);
  impl_->control.doing(-1, "encoding the rules");
  try {
    impl_->en = std::make_unique<detail::Encoding>(sem, impl_->ctx, impl_->control);
  } catch (const detail::Unsupported& u) {
    impl_->en.reset();
    impl_->unsupported = Unsupported{u.what(), u.where};
  } catch (const detail::Stopped&) {
    impl_->en.reset();
  } catch (const z3::exception&) {
    // Z3 cancelled a simplification: only ever after a stop.
    if (impl_->control.stopped() == Stop::none) throw;
    impl_->en.reset();
  }
}

Engine::~Engine() = default;

const std::optional<Unsupported>& Engine::unsupported() const { return impl_->unsupported; }

Stop Engine::stopped() const { return impl_->control.stopped(); }

const checker::Semantics& Engine::semantics() const { return impl_->sem; }

std::vector<checker::StateVec> Engine::successors(const checker::StateVec& s, std::size_t limit,
                                                  int depth) {
  detail::Encoding& en = *impl_->en;
  z3::context& ctx = impl_->ctx;
  // One solver holds the relation over the template (x, y) for every call
  // (one per depth for the pruned relations); a call fixes x in a scope of
  // its own.
  std::unique_ptr<z3::solver>& made = depth < 0 ? impl_->one_step : impl_->one_step_at[depth];
  if (!made) {
    made = std::make_unique<z3::solver>(ctx);
    Options all;
    all.prune_control = true;
    made->add(depth < 0 ? en.transition() : impl_->pruning(all)->relation(depth));
    made->add(en.in_range(en.y));
  }
  z3::solver& solver = *made;
  solver.push();
  for (std::size_t i = 0; i < en.x.size(); ++i) solver.add(en.x[i] == s[i]);
  std::vector<checker::StateVec> out;
  while (out.size() <= limit) {
    const z3::check_result r = solver.check();
    if (r == z3::unsat) break;
    if (r != z3::sat) {
      const std::string why = solver.reason_unknown();
      solver.pop();
      throw std::runtime_error("z3 answered unknown: " + why);
    }
    checker::StateVec t = detail::decode_state(solver.get_model(), en.y);
    z3::expr_vector same(ctx);
    for (std::size_t i = 0; i < t.size(); ++i) same.push_back(en.y[i] == t[i]);
    solver.add(!z3::mk_and(same));
    out.push_back(std::move(t));
  }
  solver.pop();
  return out;
}

checker::Trace trace_through(const checker::Semantics& sem,
                             const std::vector<checker::StateVec>& states) {
  return detail::trace_through(sem, states);
}

}  // namespace loophole::smt
