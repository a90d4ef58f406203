// Level-synchronous breadth-first search: the levels, their chunks
// (bfs_chunk.cpp: each chunk's phases on the thread team), the limits
// between chunks and the progress reports.
//
// Limits are checked between chunks and, for time and interrupts, inside a
// chunk's expansion; a stopped chunk is dropped whole, and a state limit
// cuts the chunk before the first source whose new states would not fit, so
// every kept state has a fully expanded parent. Every counterexample the
// properties find is a shortest one: states are numbered level by level.
#include "bfs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "bfs_chunk.hpp"

namespace loophole::checker {

namespace {

using Clock = std::chrono::steady_clock;

class Search {
 public:
  Search(const TransitionSystem& system, const ExplicitOptions& options, const SearchTuning& tuning,
         ExplicitGraph& graph, int threads)
      : system_(system),
        options_(options),
        tuning_(tuning),
        graph_(graph),
        packer_(graph.packer()),
        store_(graph.store()),
        edges_(graph.edge_store()),
        budget_(graph.budget()),
        frontier_(graph.frontier()),
        stop_(options),
        chunks_(make_chunk_search(system, options, tuning, graph, threads, stop_)) {}

  Completion run() {
    start_ = Clock::now();
    next_progress_ = start_ + std::chrono::milliseconds(250);
    stop_.start(start_);
    auto& levels = graph_.levels();
    levels = {0};
    if (!insert_initial()) return stop_.reason();
    levels.push_back(static_cast<StateId>(store_.size()));
    StateId next = 0;
    for (level_ = 0;; ++level_) {
      const StateId level_end = levels[level_ + 1];
      while (next < level_end) {
        if (stop_.check()) return stop_.reason();
        system_.between_chunks(seconds(), next, tuning_.wait_between_chunks);
        const StateId end = next + chunk_size(level_end - next);
        if (!chunks_->expand(next, end)) return stop_.reason();
        next = end;
        report_progress();
      }
      if (store_.size() == level_end) return Completion::complete;
      if (frontier_ != nullptr) {
        count_orbits();  // (of the level expanded, before its states are dropped)
        frontier_->advance(static_cast<StateId>(store_.size()));
      }
      levels.push_back(static_cast<StateId>(store_.size()));
    }
  }

  // Under hash compaction with symmetry, the concrete states the stored
  // ones stand for, counted from the frontier as levels leave it: the
  // level being expanded, and at the end (`all`) the one being filled.
  void count_orbits(bool all = false) {
    const Symmetry* sym = graph_.symmetry();
    if (sym == nullptr || frontier_ == nullptr) return;
    const std::uint64_t upto = all ? store_.size() : frontier_->current_end();
    frontier_->for_each(
        upto, [&](const Word* w) { orbit_states_ += sym->orbit_size_packed(packer_, w); });
  }
  [[nodiscard]] std::uint64_t orbit_states() const { return orbit_states_; }

  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }
  [[nodiscard]] std::uint32_t levels_reached() const {
    const auto& levels = graph_.levels();
    return static_cast<std::uint32_t>(levels.size() - 1 + (store_.size() > levels.back() ? 1 : 0));
  }

 private:
  bool insert_initial() {
    std::vector<Word> w(packer_.words());
    std::vector<std::int32_t> scratch(packer_.unpacked_size());
    for (const StateVec& s : system_.initial_states()) {
      packer_.pack(s, w.data());
      if (const Symmetry* sym = graph_.symmetry()) {
        sym->canonicalise_packed(packer_, w.data(), scratch.data());
      }
      // (Under hash compaction the store's key is the state's hash, hashed
      // again as the store hashes keys: bfs_chunk.cpp.)
      const Word fingerprint = hash_words(w.data(), w.size());
      const std::uint64_t hash = frontier_ != nullptr ? hash_words(&fingerprint, 1) : fingerprint;
      const Word* key = frontier_ != nullptr ? &fingerprint : w.data();
      if (options_.max_states != 0 && store_.size() >= options_.max_states &&
          store_.find(key, hash) == no_state) {
        stop_.stop(Completion::state_limit);
        break;
      }
      if (frontier_ != nullptr && !frontier_->reserve(store_.size() + 1)) {
        stop_.stop(Completion::memory_limit);
        break;
      }
      const StateStore::Inserted in = store_.insert(key, hash, no_state);
      if (in.id == no_state) {
        stop_.stop(Completion::memory_limit);
        break;
      }
      if (frontier_ != nullptr && in.fresh) frontier_->put(in.id, w.data());
    }
    graph_.set_initial_count(static_cast<std::uint32_t>(store_.size()));
    if (frontier_ != nullptr) frontier_->advance(static_cast<StateId>(store_.size()));
    return !stop_.stopped();
  }

  [[nodiscard]] StateId chunk_size(StateId remaining) const {
    const std::uint64_t expanded = edges_.states();
    const std::uint64_t degree =
        expanded == 0 ? 4 : std::max<std::uint64_t>(1, (edges_.size() + expanded - 1) / expanded);
    const auto want = static_cast<StateId>(
        std::clamp<std::uint64_t>(tuning_.chunk_records / degree, tuning_.min_chunk,
                                  std::max(tuning_.min_chunk, tuning_.max_chunk)));
    return std::min(remaining, want);
  }

  void report_progress() {
    if (!options_.progress) return;
    const auto now = Clock::now();
    if (now < next_progress_) return;
    next_progress_ = now + std::chrono::milliseconds(250);
    Progress p;
    p.states = store_.size();
    p.transitions = edges_.size();
    p.depth = level_;
    p.seconds = seconds();
    p.states_per_second = p.seconds > 0 ? static_cast<double>(p.states) / p.seconds : 0;
    p.bytes = budget_.used();
    options_.progress(p);
  }

  const TransitionSystem& system_;
  const ExplicitOptions& options_;
  const SearchTuning& tuning_;
  ExplicitGraph& graph_;
  const Packer& packer_;
  StateStore& store_;
  EdgeStore& edges_;
  MemoryBudget& budget_;
  Frontier* frontier_;  // hash compaction: the levels' states; else null
  std::uint64_t orbit_states_ = 0;
  SearchStop stop_;
  std::unique_ptr<ChunkSearch> chunks_;
  Clock::time_point start_, next_progress_;
  std::uint32_t level_ = 0;
};

}  // namespace

std::unique_ptr<ExplicitGraph> explore_system(const TransitionSystem& system,
                                              const ExplicitOptions& options,
                                              const Semantics* semantics,
                                              const SearchTuning& tuning,
                                              std::shared_ptr<const Symmetry> symmetry) {
  const int threads = options.threads > 0
                          ? options.threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  auto graph = std::make_unique<ExplicitGraph>(system.layout(), semantics, options.max_memory_bytes,
                                               options.compact);
  Statistics stats;
  if (symmetry != nullptr) {
    stats.symmetry = symmetry->summary();
    if (symmetry->active()) {
      stats.symmetric_arrays = symmetry->arrays();
      graph->set_symmetry(std::move(symmetry));
    }
  }
  Completion completion = Completion::complete;
  {
    Search search(system, options, tuning, *graph, threads);
    completion = search.run();
    stats.seconds = search.seconds();
    stats.depth = search.levels_reached();
    search.count_orbits(true);
    stats.orbit_states = search.orbit_states();
  }
  graph->edge_store().seal();
  graph->record_memory();
  graph->store().release_index();
  stats.states = graph->size();
  stats.transitions = graph->edge_store().size();
  stats.bytes = graph->budget().peak();
  stats.bytes_per_state =
      stats.states == 0 ? 0 : static_cast<double>(stats.bytes) / static_cast<double>(stats.states);
  stats.threads = threads;
  stats.generator = system.generator();
  stats.native_from = system.native_from();
  if (graph->compact()) {
    // The probability that two of n distinct states share a fingerprint, by
    // the birthday (union) bound over the n (n - 1) / 2 pairs, each equal
    // with probability 2^-64 (docs/compaction.md).
    const auto n = static_cast<double>(stats.states);
    stats.compact = true;
    stats.omission_probability = std::min(1.0, std::ldexp(n * std::max(0.0, n - 1), -65));
    graph->set_regenerator(system, options.limits);
  } else if (const Symmetry* sym = graph->symmetry()) {
    std::vector<Word> w(graph->packer().words());
    for (StateId s = 0; s < graph->size(); ++s) {
      graph->store().load(s, w.data());
      stats.orbit_states += sym->orbit_size_packed(graph->packer(), w.data());
    }
  }
  graph->finish(completion, stats);
  return graph;
}

}  // namespace loophole::checker
