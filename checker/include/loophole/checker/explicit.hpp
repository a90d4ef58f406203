// The explicit-state engine: breadth-first exploration of every reachable
// state of a Game's Semantics, with states bit-packed into a hash set and the
// moves kept as a compact graph (ExploredGraph) that properties analyse. BFS
// is level-synchronous and numbers states in the order a sequential search
// would, so every run, with any thread count, gives the same graph and every
// parent link lies on a shortest path. Limits stop a run cleanly: what was
// explored so far is kept and ExploredGraph::completion() says why it ended.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "loophole/checker/explored.hpp"
#include "loophole/checker/semantics.hpp"

namespace loophole::checker {

class RunLimits;  // limits.hpp

// A snapshot of a running exploration, for a progress line.
struct Progress {
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  std::uint32_t depth = 0;  // the BFS level being expanded (0: the initial states)
  double seconds = 0;
  double states_per_second = 0;  // over the whole run so far
  std::uint64_t bytes = 0;       // memory of the state store and graph now
};

// How the compiled generator's programs run (ExplicitOptions::native); the
// results are the same in every mode.
enum class NativeMode {
  off,  // interpreted
  on,   // as machine code compiled by the system's C compiler (cached) before
        // the search; interpreted when that fails (Statistics::generator says why)
  // As machine code when the cache has it compiled; else interpreted, and
  // compiled in the background once the search has run a while
  // (native_after_seconds), then switched to between two chunks (a search
  // that ends first stops the compiler). What `loophole check` does by default.
  automatic,
};

struct ExplicitOptions {
  int threads = 0;                               // 0 = all cores
  std::uint64_t max_states = 0;                  // 0 = no limit
  std::uint64_t max_memory_bytes = 0;            // 0 = 80% of the memory available at the start
  double timeout_seconds = 0;                    // 0 = none
  const std::atomic<bool>* interrupt = nullptr;  // set (e.g. by SIGINT) to stop early
  // The whole run's limits (may be null): under hash compaction, what
  // rebuilds states for the analyses asks them before its caches grow, and
  // stops the run (memory_limit) when they would pass the limit.
  RunLimits* limits = nullptr;
  // Run the compiled generator's programs as machine code, compiled by the
  // system's C compiler (cached); the same results, faster at large scopes.
  NativeMode native = NativeMode::off;
  // NativeMode::automatic: when to start compiling. Negative: after 1 s when
  // the search leaves a core for the compiler, else after 5 s (the compiler
  // then takes about a second of the search's CPU time, which the machine
  // code wins back only over a longer search).
  double native_after_seconds = -1;
  // Store one state per orbit of the arrays of records the rules never tell
  // apart (slot symmetry, docs/symmetry.md); off: every concrete state.
  bool symmetry = true;
  // Hash compaction (docs/compaction.md): store a 64-bit fingerprint per
  // state instead of the state, as SPIN's -DHC and TLC do. Two states with
  // the same fingerprint count as one, so a state may be missed: the
  // verdict is probabilistic (Statistics::omission_probability bounds it).
  bool compact = false;
  // Called on the calling thread about four times a second while exploring.
  std::function<void(const Progress&)> progress;
};

// Explores every state reachable from sem's initial states. Statistics::depth
// counts BFS levels (the deepest state lies depth - 1 moves from an initial
// state); Statistics::bytes is the peak of the engine's own buffers (state
// store, hash index, graph, level buffers), which max_memory_bytes bounds.
// The Semantics must outlive the returned graph.
[[nodiscard]] std::unique_ptr<ExploredGraph> explore(const Semantics& sem,
                                                     const ExplicitOptions& options);

}  // namespace loophole::checker
