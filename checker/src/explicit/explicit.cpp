// explore(): the explicit engine on a game's reference Semantics. The search
// itself (bfs.cpp) runs over TransitionSystem; SemanticsSystem (bfs.hpp)
// connects the two.
#include "loophole/checker/explicit.hpp"

#include "bfs.hpp"

namespace loophole::checker {

std::unique_ptr<ExploredGraph> explore(const Semantics& sem, const ExplicitOptions& options) {
  const SemanticsSystem system(sem);
  return explore_system(system, options, &sem);
}

}  // namespace loophole::checker
