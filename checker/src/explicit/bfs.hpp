// The breadth-first search behind explore(), over a small interface so that it
// can be run (and tested, and benchmarked) on transition systems other than
// Semantics: the tests use tiny hand-written systems with known graphs.
#pragma once

#include <memory>
#include <vector>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"

#include "explicit_graph.hpp"

namespace loophole::checker {

class TransitionSystem {
 public:
  virtual ~TransitionSystem() = default;
  [[nodiscard]] virtual const Layout& layout() const = 0;
  [[nodiscard]] virtual std::vector<StateVec> initial_states() const = 0;
  // Must be safe to call from several threads at once.
  virtual void successors(const StateVec& state, std::vector<Successor>& out) const = 0;
};

// The rules semantics as a TransitionSystem (what explore() searches).
class SemanticsSystem final : public TransitionSystem {
 public:
  explicit SemanticsSystem(const Semantics& sem) : sem_(sem) {}
  [[nodiscard]] const Layout& layout() const override { return sem_.layout(); }
  [[nodiscard]] std::vector<StateVec> initial_states() const override {
    return sem_.initial_states();
  }
  void successors(const StateVec& state, std::vector<Successor>& out) const override {
    sem_.successors(state, out, false);
  }

 private:
  const Semantics& sem_;
};

// How a level is cut into chunks. The result does not depend on it (tests
// check that with tiny chunks); it trades barrier overhead against buffer size.
struct SearchTuning {
  std::uint64_t chunk_records = std::uint64_t{1} << 17;  // successors per chunk, roughly
  StateId min_chunk = 64;                                // sources per chunk
  StateId max_chunk = StateId{1} << 16;
};

// `semantics` (may be null) is what the returned graph's semantics() gives.
[[nodiscard]] std::unique_ptr<ExplicitGraph> explore_system(const TransitionSystem& system,
                                                            const ExplicitOptions& options,
                                                            const Semantics* semantics,
                                                            const SearchTuning& tuning = {});

}  // namespace loophole::checker
