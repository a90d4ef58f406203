// explore(): the explicit engine on a game's rules. The search itself
// (bfs.cpp) runs over TransitionSystem; the rules come in compiled
// (compiled.hpp), or through the reference Semantics (SemanticsSystem,
// bfs.hpp) when the compiler declines the game, which Statistics::generator
// then says.
#include "loophole/checker/explicit.hpp"

#include <memory>

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

std::unique_ptr<ExploredGraph> explore(const Semantics& sem, const ExplicitOptions& options) {
  const std::unique_ptr<TransitionSystem> system =
      rules_system(sem, options.native, options.native_after_seconds);
  return explore_system(*system, options, &sem);
}

}  // namespace loophole::checker
