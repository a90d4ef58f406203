// The states of a graph explored under hash compaction, which stored a
// fingerprint per state and not the state: rebuilt on demand by the
// generator the search ran, from the initial states along the parent links
// (each a state's first edge from its parent, as the search numbered it).
// Every state rebuilt is checked against its stored fingerprint.
//
// The analyses ask for states in two ways: passes over every state in id
// order (level by level), and single states (a trace, a finding's place).
// Each thread keeps one level of packed states: a pass moves it on level by
// level (one expansion of each level per pass, as the search did), and a
// single state is rebuilt from its nearest ancestor in that level or among
// the last 2^16 states rebuilt so (a trace asks for one state per level,
// each the child of the one before; random reads share ancestors near the
// initial states). So the analyses hold one level and a few MiB per thread,
// not every state.
//
// Those caches count in the graph's MemoryBudget and ask the run's limits
// (RunLimits::afford) before they grow. When either says no, the run stops
// (memory_limit, so the analyses end with a partial report) and the thread
// serves what it is still asked state by state from its ancestors, in the
// memory it already holds (or, without even the 2^16 states', in a ring of
// 64): slower, but within the limit and still checked.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "bfs.hpp"
#include "edge_store.hpp"
#include "memory_budget.hpp"
#include "packer.hpp"
#include "state_store.hpp"
#include "symmetry.hpp"

namespace loophole::checker {

class RunLimits;  // limits.hpp

// The packed (and, under symmetry, canonical) successors of a packed state,
// in successor order, as the search stores them.
class PackedSuccessors {
 public:
  PackedSuccessors(const TransitionSystem& system, const Packer& packer, const Symmetry* symmetry);
  // Fills packed() with count() states of packer.words() words.
  void expand(const Word* source);
  [[nodiscard]] std::size_t count() const { return out_.count; }
  [[nodiscard]] const Word* state(std::size_t i) const { return &packed_[i * packer_.words()]; }

 private:
  const TransitionSystem& system_;
  const Packer& packer_;
  const Symmetry* symmetry_;
  FlatSuccessors out_;
  std::vector<std::int32_t> state_, scratch_;
  std::vector<Word> packed_;
};

class Regenerator {
 public:
  // The graph's parts: `store` holds one fingerprint word per state. The
  // caches count in `budget` and ask `limits` (may be null) before they grow.
  Regenerator(const TransitionSystem& system, const Packer& packer, const Symmetry* symmetry,
              const StateStore& store, const EdgeStore& edges, const std::vector<StateId>& levels,
              MemoryBudget& budget, RunLimits* limits);
  ~Regenerator();
  Regenerator(const Regenerator&) = delete;
  Regenerator& operator=(const Regenerator&) = delete;

  // State `id`'s packed words into out (packer.words() words); thread-safe.
  void load(StateId id, Word* out) const;

 private:
  struct Cache;
  Cache& cache() const;
  [[nodiscard]] std::uint32_t depth(StateId id) const;
  [[nodiscard]] StateId level_begin(std::uint32_t d) const;
  [[nodiscard]] StateId level_end(std::uint32_t d) const;
  [[nodiscard]] std::uint32_t parent_index(StateId id) const;
  void check(StateId id, const Word* words) const;  // against the stored fingerprint
  // Reserves `bytes` more for c: false (and nothing reserved; the run
  // stopped for memory_limit) when the budget or the limit would be passed.
  bool grow(Cache& c, std::uint64_t bytes) const;
  bool fit(Cache& c, std::vector<Word>& v, std::uint64_t n) const;  // capacity >= n
  bool fit(Cache& c, std::vector<bool>& v, std::uint64_t n) const;
  bool advance(Cache& c) const;                   // its level to the next (false: no room)
  const Word* chain(Cache& c, StateId id) const;  // rebuilt from the nearest ancestor known

  const TransitionSystem& system_;
  const Packer& packer_;
  const Symmetry* symmetry_;
  const StateStore& store_;
  const EdgeStore& edges_;
  const std::vector<StateId>& levels_;
  MemoryBudget& budget_;
  RunLimits* limits_;
  std::vector<Word> initial_;  // level 0, packed
  mutable std::mutex mutex_;
  mutable std::map<std::thread::id, std::unique_ptr<Cache>> caches_;
};

}  // namespace loophole::checker
