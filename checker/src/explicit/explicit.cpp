// explore(): the explicit engine on a game's rules. The search itself
// (bfs.cpp) runs over TransitionSystem; the rules come in compiled
// (compiled.hpp), or through the reference Semantics (SemanticsSystem,
// bfs.hpp) when the compiler declines the game, which Statistics::generator
// then says.
#include "loophole/checker/explicit.hpp"

#include <algorithm>
#include <memory>
#include <thread>

#include "bfs.hpp"
#include "compiled.hpp"

namespace loophole::checker {

std::unique_ptr<TransitionSystem> rules_system(const Semantics& sem, NativeMode native,
                                               double native_after_seconds) {
  try {
    return std::make_unique<CompiledSystem>(sem, native, native_after_seconds);
  } catch (const CompiledSystem::Unsupported& e) {
    return std::make_unique<SemanticsSystem>(sem, e.what());
  }
}

double native_after_seconds(const ExplicitOptions& options) {
  if (options.native_after_seconds >= 0) return options.native_after_seconds;
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return options.threads > 0 && options.threads < cores ? 1.0 : 5.0;
}

std::unique_ptr<ExploredGraph> explore(const Semantics& sem, const ExplicitOptions& options) {
  const std::unique_ptr<TransitionSystem> system =
      rules_system(sem, options.native, native_after_seconds(options));
  return explore_system(*system, options, &sem);
}

}  // namespace loophole::checker
