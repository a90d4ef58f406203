// smt::Engine: encodes the game once (a construct the encoding lacks makes
// the engine refuse the game, never guess) and answers the queries of
// bmc.cpp, induction.cpp and static_checks.cpp on that one encoding.
#include "loophole/smt/engine.hpp"

#include <algorithm>
#include <iterator>
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
  // The relation's paths that s's control admits (of frame `depth`'s when
  // pruned), each with x := s simplified: the layers' successor function.
  if (!impl_->step) impl_->step = std::make_unique<detail::Successors>(*impl_->en);
  detail::ControlPaths& cp = *impl_->paths();
  std::vector<std::uint32_t> paths = cp.paths_for(s);
  if (depth >= 0) {
    const std::vector<std::uint32_t>& frame = cp.paths_at(depth);
    std::vector<std::uint32_t> both;
    std::set_intersection(paths.begin(), paths.end(), frame.begin(), frame.end(),
                          std::back_inserter(both));
    paths = std::move(both);
  }
  std::vector<checker::StateVec> out;
  if (!impl_->step->of(s, paths, out, limit)) {
    throw std::runtime_error("z3 answered unknown on a state's successors");
  }
  return out;
}

checker::Trace trace_through(const checker::Semantics& sem,
                             const std::vector<checker::StateVec>& states) {
  return detail::trace_through(sem, states);
}

}  // namespace loophole::smt
