// The ExploredGraph the explicit engine returns: the packed states of a
// StateStore, the moves of an EdgeStore, and the BFS level boundaries
// (depth is found by binary search over them, so no per-state depth is
// stored). Parents are not stored either (but under hash compaction, whose
// regenerator walks them): BFS inserts a state when it meets it first in
// (parent, successor index) order, so a state's parent is the first state of
// the level before it with an edge to it, and the successor index the
// parent used is that edge's position in its list. parent() finds them by
// reading the previous level's edges once for a whole level, and keeps a
// few levels' parents (traces walk level by level; 4 bytes a state held
// only for the levels asked, where a stored parent cost 4 bytes for every
// state from the search on).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "loophole/checker/explored.hpp"

#include "edge_store.hpp"
#include "frontier.hpp"
#include "memory_budget.hpp"
#include "packer.hpp"
#include "state_store.hpp"
#include "symmetry.hpp"

namespace loophole::checker {

class Regenerator;       // regenerate.hpp
class RunLimits;         // limits.hpp
class TransitionSystem;  // bfs.hpp

class ExplicitGraph final : public ExploredGraph {
 public:
  // `semantics` may be null for graphs of test systems (semantics() throws).
  // With `compact`, the store keeps a 64-bit fingerprint per state (hash
  // compaction): the search reads its sources from a Frontier, and after it
  // states are rebuilt by the generator (set_regenerator).
  ExplicitGraph(const Layout& layout, const Semantics* semantics, std::uint64_t memory_limit,
                bool compact = false);
  ~ExplicitGraph() override;
  ExplicitGraph(const ExplicitGraph&) = delete;
  ExplicitGraph& operator=(const ExplicitGraph&) = delete;

  [[nodiscard]] const Semantics& semantics() const override;
  [[nodiscard]] std::uint64_t size() const override { return store_.size(); }
  [[nodiscard]] std::uint32_t initial_count() const override { return initial_count_; }
  [[nodiscard]] StateVec state(StateId id) const override;
  [[nodiscard]] std::vector<Edge> edges(StateId id) const override;
  void state_into(StateId id, StateVec& out) const override;
  void edges_into(StateId id, std::vector<Edge>& out) const override;
  void fields_into(StateId id, std::span<const int> which, std::int32_t absent,
                   std::int32_t* out) const override;
  [[nodiscard]] std::uint64_t expanded() const override { return edges_.states(); }
  [[nodiscard]] StateId parent(StateId id) const override;
  [[nodiscard]] std::uint32_t parent_index(StateId id) const override;
  // A level whose parents are not kept is not found whole: the state's own
  // parent is the first of the level before with an edge to it, found by
  // reading that level's edges up to it (no array of the level's parents:
  // 4 bytes a state of a level, which at 66.6 M operators states, beside
  // the analyses' components, was the whole check's peak).
  [[nodiscard]] StateId trace_parent(StateId id, std::uint32_t& index) const override;
  [[nodiscard]] std::uint32_t depth(StateId id) const override;
  [[nodiscard]] bool numbered_by_depth() const override { return true; }  // levels in id order
  [[nodiscard]] Completion completion() const override { return completion_; }
  [[nodiscard]] std::optional<CompactEdges> compact_edges() const override {
    return edges_.compact();
  }
  [[nodiscard]] const Statistics& statistics() const override { return statistics_; }
  [[nodiscard]] bool reduced() const override { return symmetry_ != nullptr; }
  void canonicalise(StateVec& state) const override {
    if (symmetry_ != nullptr) symmetry_->canonicalise(state.data());
  }

  // The search's side.
  [[nodiscard]] const Packer& packer() const { return packer_; }
  [[nodiscard]] MemoryBudget& budget() { return budget_; }
  [[nodiscard]] StateStore& store() { return store_; }
  [[nodiscard]] EdgeStore& edge_store() { return edges_; }
  [[nodiscard]] const EdgeStore& edge_store() const { return edges_; }
  // levels()[d] is the first state of BFS level d; the last entry starts the
  // level being filled (it may be empty).
  [[nodiscard]] std::vector<StateId>& levels() { return levels_; }
  void set_initial_count(std::uint32_t n) { initial_count_ = n; }
  // The search stores canonical forms under `symmetry` (null, or active).
  void set_symmetry(std::shared_ptr<const Symmetry> symmetry) { symmetry_ = std::move(symmetry); }
  [[nodiscard]] const Symmetry* symmetry() const { return symmetry_.get(); }
  void finish(Completion completion, const Statistics& statistics);
  // Hash compaction: the levels' packed states while searching (null
  // otherwise), and then what rebuilds states from `system` (which must
  // outlive the graph, or be kept by it); its caches count in budget() and
  // ask `limits` (may be null) before they grow.
  [[nodiscard]] Frontier* frontier() { return frontier_.get(); }
  [[nodiscard]] bool compact() const { return compact_; }
  void set_regenerator(const TransitionSystem& system, RunLimits* limits = nullptr);
  void keep(std::unique_ptr<TransitionSystem> system) { kept_system_ = std::move(system); }
  // State `id`'s packed words (packer().words() of them).
  void load(StateId id, Word* out) const;

  // Where the memory went, taken at the end of the search (before the hash
  // index is freed): for the benchmark's bytes-per-state figures.
  struct MemoryUse {
    std::uint64_t states = 0;  // packed states and parents
    std::uint64_t index = 0;   // hash index and claim scratch
    std::uint64_t edges = 0;   // CSR offsets, targets and labels
  };
  void record_memory() {
    memory_use_ = {store_.state_memory(), store_.index_memory(), edges_.memory()};
  }
  [[nodiscard]] const MemoryUse& memory_use() const { return memory_use_; }

 private:
  const Semantics* semantics_;
  Packer packer_;
  MemoryBudget budget_;
  StateStore store_;
  EdgeStore edges_;
  std::vector<StateId> levels_;
  std::uint32_t initial_count_ = 0;
  Completion completion_ = Completion::complete;
  Statistics statistics_;
  MemoryUse memory_use_;
  std::shared_ptr<const Symmetry> symmetry_;
  bool compact_ = false;
  std::unique_ptr<TransitionSystem> kept_system_;  // (destroyed after the regenerator)
  std::unique_ptr<Frontier> frontier_;
  std::unique_ptr<Regenerator> regenerator_;

  // Derived parents (thread-safe: analyses run side by side): the levels
  // whose parents were found, oldest first, and the states they hold.
  struct LevelParents {
    std::uint32_t depth = 0;
    std::vector<StateId> parents;  // of states levels_[depth] ...
  };
  [[nodiscard]] const std::vector<StateId>& level_parents(std::uint32_t depth) const;
  [[nodiscard]] StateId level_end(std::uint32_t depth) const;
  mutable std::mutex parents_mutex_;
  mutable std::vector<LevelParents> parent_levels_;
  mutable std::uint64_t parent_entries_ = 0;
};

}  // namespace loophole::checker
