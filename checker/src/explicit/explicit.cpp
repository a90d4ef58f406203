// explore(): the explicit engine on a game's rules. The search itself
// (bfs.cpp) runs over TransitionSystem; the rules come in compiled
// (compiled.hpp), or through the reference Semantics (SemanticsSystem,
// bfs.hpp) when the compiler declines the game, which Statistics::generator
// then says.
#include "loophole/checker/explicit.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

#include "loophole/checker/limits.hpp"

#include "bfs.hpp"
#include "compiled.hpp"
#include "player_view.hpp"

namespace loophole::checker {

std::unique_ptr<TransitionSystem> rules_system(
    const Semantics& sem, NativeMode native, double native_after_seconds,
    std::optional<std::chrono::steady_clock::time_point> deadline) {
  try {
    return std::make_unique<CompiledSystem>(sem, native, native_after_seconds, deadline);
  } catch (const CompiledSystem::Unsupported& e) {
    return std::make_unique<SemanticsSystem>(sem, e.what());
  }
}

double native_after_seconds(const ExplicitOptions& options) {
  if (options.native_after_seconds >= 0) return options.native_after_seconds;
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return options.threads > 0 && options.threads < cores ? 1.0 : 5.0;
}

// With a time limit, the compile before the search (NativeMode::on) counts
// towards it: it is stopped at the limit, and the search gets what is left.
std::unique_ptr<ExploredGraph> explore(const Semantics& sem, const ExplicitOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::optional<Clock::time_point> deadline;
  if (options.timeout_seconds > 0) {
    deadline = start + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options.timeout_seconds));
  }
  std::unique_ptr<TransitionSystem> system =
      rules_system(sem, options.native, native_after_seconds(options), deadline);
  auto symmetry =
      std::make_shared<const Symmetry>(sem.game(), sem.layout().fields.size(), options.symmetry);
  ExplicitOptions rest = options;
  if (deadline) {
    const double spent = std::chrono::duration<double>(Clock::now() - start).count();
    rest.timeout_seconds = std::max(1e-9, options.timeout_seconds - spent);
  }
  auto graph = explore_system(*system, rest, &sem, {}, std::move(symmetry));
  // (A compacted graph rebuilds its states with the generator the search ran.)
  if (graph->compact()) graph->keep(std::move(system));
  // Stored per orbit of the player rotations: the analyses read the
  // concrete graph through the view (player_view.hpp).
  if (graph->symmetry() != nullptr && graph->symmetry()->rotations() > 0) {
    // The view's arrays must fit under the run's memory limit, or the run
    // stops there (memory_limit) with the initial pairs only.
    const std::uint64_t limit =
        options.max_memory_bytes > 0 ? options.max_memory_bytes : default_memory_limit();
    const bool no_room =
        resident_bytes() + PlayerView::bytes_needed(graph->size(), graph->symmetry()->rotations()) >
        limit;
    return std::make_unique<PlayerView>(std::move(graph), deadline, no_room, options.interrupt);
  }
  return graph;
}

}  // namespace loophole::checker
