// Breadth-first layers of the encoded relation (layers.hpp).
#include "layers.hpp"

#include <algorithm>

namespace loophole::smt::detail {

Layers::Layers(Encoding& en, const ControlPaths& paths, std::size_t budget)
    : en_(en), paths_(paths), budget_(budget), alive_(budget > 0), step_(en) {
  if (!alive_) return;
  begin_.push_back(0);
  for (auto& s : en_.sem.initial_states()) {
    // BMC's frame 0 is an initial state within the ranges.
    if (!step_.in_range(s) || seen_.count(s) != 0) continue;
    seen_.emplace(s, static_cast<std::uint32_t>(states_.size()));
    parent_.push_back(static_cast<std::uint32_t>(states_.size()));
    states_.push_back(std::move(s));
  }
  begin_.push_back(states_.size());
  if (states_.size() > budget_ || !account()) alive_ = false;
}

Layers::~Layers() { en_.control.release(reserved_); }

bool Layers::account() {
  // A state is held twice, in states_ and as the seen set's key (a red-black
  // node: four words of links and colour, the key and the index, the
  // allocator's header), each copy with its fields on the heap.
  const std::uint64_t fields = en_.x.size() * sizeof(std::int32_t) + 16;
  const std::uint64_t per_state = 2 * fields + 32 + sizeof(checker::StateVec) + 8 + 16;
  const std::uint64_t held = states_.capacity() * sizeof(checker::StateVec) +
                             parent_.capacity() * sizeof(std::uint32_t) +
                             states_.size() * per_state;
  if (held <= reserved_) return true;
  // 256 states ahead: one reservation (a lock and a look at Z3's
  // allocation) per 256 states.
  const std::uint64_t more = held - reserved_ + 256 * per_state;
  if (!en_.control.reserve(more)) return false;
  reserved_ += more;
  return true;
}

bool Layers::reach(int k) {
  while (alive_ && static_cast<int>(begin_.size()) - 2 < k) alive_ = expand();
  return alive_;
}

std::vector<checker::StateVec> Layers::path_to(std::size_t i) const {
  std::vector<checker::StateVec> out;
  for (;;) {
    out.push_back(states_[i]);
    if (parent_[i] == i) break;
    i = parent_[i];
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::optional<bool> Layers::holds(const z3::expr& pred, std::size_t i) {
  return step_.holds(pred, states_[i]);
}

bool Layers::expand() {
  const std::size_t from = begin_[begin_.size() - 2], to = begin_.back();
  std::vector<checker::StateVec> next;
  for (std::size_t i = from; i < to; ++i) {
    if (en_.control.stopped() != Stop::none) return false;
    if (!step_.of(states_[i], paths_.paths_for(states_[i]), next)) return false;
    for (auto& t : next) {
      if (seen_.count(t) != 0) continue;
      seen_.emplace(t, static_cast<std::uint32_t>(states_.size()));
      parent_.push_back(static_cast<std::uint32_t>(i));
      states_.push_back(std::move(t));
      if (states_.size() > budget_ || !account()) return false;
    }
  }
  begin_.push_back(states_.size());
  return true;
}

}  // namespace loophole::smt::detail
