// Read access to an explored graph; see explicit_graph.hpp.
#include "explicit_graph.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "bfs.hpp"
#include "regenerate.hpp"

namespace loophole::checker {

ExplicitGraph::ExplicitGraph(const Layout& layout, const Semantics* semantics,
                             std::uint64_t memory_limit, bool compact)
    : semantics_(semantics),
      packer_(layout),
      budget_(memory_limit),
      store_(compact ? 1 : packer_.words(), compact ? sizeof(Word) : packer_.bytes(), budget_,
             compact),
      edges_(budget_),
      compact_(compact) {
  if (compact) {
    frontier_ = std::make_unique<Frontier>(packer_.words(), budget_);
  } else if (packer_.words() <= Collapse::max_words) {
    // Collapsed states (collapse.hpp): the data slots no player owns, each
    // player's, and the control fields, each interned on its own.
    // (The data fields are the game's slots, in order: layout.cpp.)
    const std::vector<model::Slot>* slots =
        semantics != nullptr ? &semantics->game().slots : nullptr;
    std::vector<int> component_of(layout.fields.size());
    for (std::size_t f = 0; f < layout.fields.size(); ++f) {
      const int owner = slots != nullptr && f < slots->size() ? (*slots)[f].owner : -1;
      component_of[f] = f >= layout.data_fields ? static_cast<int>(Collapse::max_components) - 1
                        : owner >= 0 && owner + 2 < static_cast<int>(Collapse::max_components)
                            ? owner + 1
                            : 0;
    }
    store_.collapse(packer_, component_of);
  }
}

ExplicitGraph::~ExplicitGraph() = default;

void ExplicitGraph::set_regenerator(const TransitionSystem& system, RunLimits* limits) {
  frontier_.reset();
  regenerator_ = std::make_unique<Regenerator>(system, packer_, symmetry_.get(), store_, edges_,
                                               levels_, budget_, limits);
}

void ExplicitGraph::load(StateId id, Word* out) const {
  if (regenerator_ != nullptr) {
    regenerator_->load(id, out);
  } else {
    store_.load(id, out);
  }
}

const Semantics& ExplicitGraph::semantics() const {
  if (semantics_ == nullptr) {
    throw std::logic_error("loophole: internal error: graph was explored without Semantics");
  }
  return *semantics_;
}

StateVec ExplicitGraph::state(StateId id) const {
  StateVec out;
  state_into(id, out);
  return out;
}

namespace {

// A state's packed words, loaded where the caller keeps them: a packed state
// is a few words, on the stack unless it is unusually wide.
class Words {
 public:
  Words(const ExplicitGraph& graph, StateId id) {
    if (graph.packer().words() > small_.size()) {
      large_.resize(graph.packer().words());
      w_ = large_.data();
    }
    graph.load(id, w_);
  }
  Words(const Words&) = delete;  // (w_ may point into this object)
  Words& operator=(const Words&) = delete;
  [[nodiscard]] const Word* get() const { return w_; }

 private:
  std::array<Word, 16> small_;
  std::vector<Word> large_;
  Word* w_ = small_.data();
};

}  // namespace

void ExplicitGraph::state_into(StateId id, StateVec& out) const {
  packer_.unpack(Words(*this, id).get(), out);
}

void ExplicitGraph::fields_into(StateId id, std::span<const int> which, std::int32_t absent,
                                std::int32_t* out) const {
  const Words words(*this, id);
  const Word* w = words.get();
  for (std::size_t i = 0; i < which.size(); ++i) {
    const int f = which[i];
    out[i] = f >= 0 && static_cast<std::size_t>(f) < packer_.fields()
                 ? packer_.field(w, static_cast<std::size_t>(f))
                 : absent;
  }
}

std::vector<Edge> ExplicitGraph::edges(StateId id) const {
  std::vector<Edge> out;
  edges_into(id, out);
  return out;
}

void ExplicitGraph::edges_into(StateId id, std::vector<Edge>& out) const {
  out.clear();
  if (id >= edges_.states()) return;
  const std::uint64_t b = edges_.begin(id), e = edges_.end(id);
  out.reserve(e - b);
  for (std::uint64_t i = b; i < e; ++i)
    out.push_back(edges_.edge(i, static_cast<std::uint32_t>(i - b)));
}

namespace {

// Derived parents kept: at least the level just found, and then levels up to
// 2^20 states or a sixteenth of all in all (4 MiB, or a quarter of a byte a
// state: a trace's walk finds each level once, and the unbounded-chain
// analysis walks back up to 4096 chains, shallowest first, over the same
// levels).
constexpr std::uint64_t kept_parent_entries = std::uint64_t{1} << 20;

}  // namespace

StateId ExplicitGraph::level_end(std::uint32_t depth) const {
  return depth + 1 < levels_.size() ? levels_[depth + 1] : static_cast<StateId>(store_.size());
}

StateId ExplicitGraph::parent(StateId id) const {
  if (store_.keeps_parents()) return store_.parent(id);
  const std::uint32_t d = depth(id);
  if (d == 0) return no_state;
  const std::lock_guard lock(parents_mutex_);
  return level_parents(d)[id - levels_[d]];
}

// (Under parents_mutex_.) The parents of level `depth` >= 1: every state of
// the level before, in id order, gives its edges' targets in this level that
// have none yet itself as their parent.
const std::vector<StateId>& ExplicitGraph::level_parents(std::uint32_t depth) const {
  for (const LevelParents& l : parent_levels_) {
    if (l.depth == depth) return l.parents;
  }
  const StateId begin = levels_[depth], end = level_end(depth);
  std::vector<StateId> parents(end - begin, no_state);
  std::uint64_t missing = parents.size();
  const StateId from_end = std::min<StateId>(begin, static_cast<StateId>(edges_.states()));
  for (StateId p = levels_[depth - 1]; p < from_end && missing != 0; ++p) {
    for (std::uint64_t e = edges_.begin(p), e_end = edges_.end(p); e < e_end; ++e) {
      const StateId t = edges_.target(e);
      if (t >= begin && t < end && parents[t - begin] == no_state) {
        parents[t - begin] = p;
        --missing;
      }
    }
  }
  if (missing != 0) {
    throw std::logic_error("loophole: internal error: a state of level " + std::to_string(depth) +
                           " is no successor of the level before it");
  }
  const std::uint64_t keep = std::max(kept_parent_entries, store_.size() / 16);
  while (!parent_levels_.empty() && parent_entries_ + parents.size() > keep) {
    parent_entries_ -= parent_levels_.front().parents.size();
    parent_levels_.erase(parent_levels_.begin());
  }
  parent_entries_ += parents.size();
  parent_levels_.push_back({depth, std::move(parents)});
  return parent_levels_.back().parents;
}

StateId ExplicitGraph::trace_parent(StateId id, std::uint32_t& index) const {
  index = 0;
  if (store_.keeps_parents()) {
    const StateId p = store_.parent(id);
    if (p != no_state) index = parent_index(id);
    return p;
  }
  const std::uint32_t d = depth(id);
  if (d == 0) return no_state;
  StateId p = no_state;
  {
    const std::lock_guard lock(parents_mutex_);
    for (const LevelParents& l : parent_levels_) {
      if (l.depth == d) p = l.parents[id - levels_[d]];
    }
  }
  const StateId from_end = std::min<StateId>(levels_[d], static_cast<StateId>(edges_.states()));
  for (StateId u = p != no_state ? p : levels_[d - 1]; u < from_end; ++u) {
    const std::uint64_t b = edges_.begin(u), e = edges_.end(u);
    for (std::uint64_t i = b; i < e; ++i) {
      if (edges_.target(i) == id) {
        index = static_cast<std::uint32_t>(i - b);
        return u;
      }
    }
    if (p != no_state) break;
  }
  throw std::logic_error("loophole: internal error: state " + std::to_string(id) + " of level " +
                         std::to_string(d) + " is no successor of the level before it");
}

std::uint32_t ExplicitGraph::parent_index(StateId id) const {
  const StateId p = parent(id);
  if (p == no_state) return 0;
  const std::uint64_t b = edges_.begin(p), e = edges_.end(p);
  for (std::uint64_t i = b; i < e; ++i) {
    if (edges_.target(i) == id) return static_cast<std::uint32_t>(i - b);
  }
  throw std::logic_error("loophole: internal error: state " + std::to_string(id) +
                         " is not a successor of its parent " + std::to_string(p));
}

std::uint32_t ExplicitGraph::depth(StateId id) const {
  const auto it = std::upper_bound(levels_.begin(), levels_.end(), id);
  return static_cast<std::uint32_t>(it - levels_.begin() - 1);
}

void ExplicitGraph::finish(Completion completion, const Statistics& statistics) {
  completion_ = completion;
  statistics_ = statistics;
}

}  // namespace loophole::checker
