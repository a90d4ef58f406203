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

std::unique_ptr<ExploredGraph> explore(const Semantics& sem, const ExplicitOptions& options) {
  std::unique_ptr<CompiledSystem> compiled;
  std::string why;
  try {
    compiled = std::make_unique<CompiledSystem>(sem);
  } catch (const CompiledSystem::Unsupported& e) {
    why = e.what();
  }
  if (compiled) return explore_system(*compiled, options, &sem);
  const SemanticsSystem system(sem, why);
  return explore_system(system, options, &sem);
}

}  // namespace loophole::checker
