// The CSR edge store of edge_store.hpp: label packing and interning, and the
// relative offsets.
#include "edge_store.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace loophole::checker {

EdgeStore::EdgeStore(MemoryBudget& budget) : budget_(budget) { code_.fill(-1); }

void EdgeStore::bad_label(int chooser_player) {
  throw std::logic_error("loophole: internal error: successor label out of range (chooser player " +
                         std::to_string(chooser_player) + ")");
}

bool EdgeStore::reserve(std::uint64_t states, std::uint64_t edges, const ParallelFor& parallel,
                        Backing* later) {
  Backing now;
  Backing& backing = later != nullptr ? *later : now;
  seal();
  const bool grown = to_.ensure(edges, budget_, backing) && attr_.ensure(edges, budget_, backing) &&
                     rel_.ensure(states + 1, budget_, backing);
  now.run(parallel);
  if (!grown) return false;
  if (base_.empty()) open_state();
  return true;
}

void EdgeStore::open_state() {
  const std::uint64_t s = closed_;
  if ((s & group_mask) == 0) base_.push_back(count_);
  set_rel(s, count_);
}

void EdgeStore::set_rel(std::uint64_t s, std::uint64_t count) {
  const std::uint64_t rel = count - base_[s >> group_shift];
  if (rel < CompactEdges::wide_rel) {
    rel_[s] = static_cast<std::uint16_t>(rel);
    return;
  }
  rel_[s] = CompactEdges::wide_rel;
  const std::lock_guard lock(wide_mutex_);
  if (!wide_.empty() && wide_.back().state >= s) wide_unsorted_ = true;
  wide_.push_back({static_cast<StateId>(s), count});
}

// By state, one entry each (a chunk's first state is set twice: by the
// chunk before it, as the open state, and by its own tasks; both the same).
void EdgeStore::seal() {
  if (!wide_unsorted_) return;
  wide_unsorted_ = false;
  const auto by_state = [](const CompactEdges::Wide& a, const CompactEdges::Wide& b) {
    return a.state < b.state;
  };
  std::stable_sort(wide_.begin(), wide_.end(), by_state);
  wide_.erase(std::unique(wide_.begin(), wide_.end(),
                          [](const auto& a, const auto& b) { return a.state == b.state; }),
              wide_.end());
}

// base_ holds one entry per group up to the open state's; the chunk's
// groups get theirs from the tasks that hold their first state.
void EdgeStore::prepare_close(std::uint64_t end) {
  seal();
  if (base_.size() < (end >> group_shift) + 1) base_.resize((end >> group_shift) + 1);
}

void EdgeStore::close_bases(std::uint64_t first, std::uint64_t first_edge,
                            std::span<const std::uint32_t> degrees) {
  std::uint64_t count = first_edge, s = first;
  for (const std::uint32_t d : degrees) {
    if ((s & group_mask) == 0) base_[s >> group_shift] = count;
    count += d;
    ++s;
  }
}

void EdgeStore::close_offsets(std::uint64_t first, std::uint64_t first_edge,
                              std::span<const std::uint32_t> degrees) {
  std::uint64_t count = first_edge, s = first;
  for (const std::uint32_t d : degrees) {
    set_rel(s, count);
    count += d;
    ++s;
  }
}

void EdgeStore::finish_close(std::uint64_t end, std::uint64_t edges) {
  closed_ = end;
  count_ = edges;
  if ((end & group_mask) == 0) base_[end >> group_shift] = edges;
  set_rel(end, edges);
  seal();
}

std::uint8_t EdgeStore::intern(std::uint16_t raw_label) {
  std::int16_t code = code_[raw_label];
  if (code < 0) {
    if (raw_.size() == 256) {
      throw std::logic_error("loophole: internal error: more than 256 distinct move labels");
    }
    code = static_cast<std::int16_t>(raw_.size());
    code_[raw_label] = code;
    raw_.push_back(raw_label);
  }
  return static_cast<std::uint8_t>(code);
}

void EdgeStore::add(StateId to, std::uint16_t raw_label) {
  to_[count_] = to;
  attr_[count_] = intern(raw_label);
  ++count_;
}

void EdgeStore::close_states(const std::vector<std::uint32_t>& degrees) {
  for (const std::uint32_t d : degrees) {
    count_ += d;
    close_state();
  }
}

void EdgeStore::close_state() {
  seal();
  ++closed_;
  open_state();
}

Edge EdgeStore::decode(unsigned raw) {
  Edge out;
  out.kind = static_cast<MoveKind>(raw & 15U);
  out.progress = ((raw >> 4) & 1U) != 0;
  out.chooser = static_cast<Chooser>((raw >> 5) & 3U);
  out.chooser_player = static_cast<std::int8_t>(static_cast<int>((raw >> 7) & 15U) - 1);
  out.turn = static_cast<std::uint8_t>((raw >> 11) & 7U);
  return out;
}

Edge EdgeStore::edge(std::uint64_t e, std::uint32_t index) const {
  Edge out = decode(raw_[attr_[e]]);
  out.to = to_[e];
  out.index = index;
  return out;
}

CompactEdges EdgeStore::compact() const {
  if (wide_unsorted_) throw std::logic_error("loophole: internal error: edge starts not sealed");
  CompactEdges c;
  c.states = closed_;
  c.edges = count_;
  if (count_ != 0) {
    c.to = &to_[0];
    c.label = &attr_[0];
  }
  if (!base_.empty()) {
    c.rel = &rel_[0];
    c.base = base_.data();
  }
  c.wide = wide_;
  c.labels.reserve(raw_.size());
  for (const std::uint16_t raw : raw_) c.labels.push_back(decode(raw));
  return c;
}

std::uint64_t EdgeStore::memory() const {
  return to_.bytes() + attr_.bytes() + rel_.bytes() + base_.capacity() * sizeof(std::uint64_t) +
         wide_.capacity() * sizeof(CompactEdges::Wide);
}

}  // namespace loophole::checker
