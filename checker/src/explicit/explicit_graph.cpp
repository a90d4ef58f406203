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
      store_(compact ? 1 : packer_.words(), compact ? sizeof(Word) : packer_.bytes(), budget_),
      edges_(budget_),
      compact_(compact) {
  if (compact) frontier_ = std::make_unique<Frontier>(packer_.words(), budget_);
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

std::uint32_t ExplicitGraph::parent_index(StateId id) const {
  const StateId p = store_.parent(id);
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
