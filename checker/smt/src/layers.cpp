// Breadth-first layers on the rules executed on integers (layers.hpp).
#include "layers.hpp"

#include <algorithm>
#include <cstring>

namespace loophole::smt::detail {

namespace {

bool in_range(const checker::Layout& layout, const checker::StateVec& s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto& f = layout.fields[i];
    if (s[i] < f.lo || s[i] > f.hi) return false;
  }
  return true;
}

}  // namespace

Layers::Layers(const checker::Semantics& sem, Control& control, std::size_t budget)
    : sem_(sem), control_(control), budget_(budget), alive_(budget > 0) {
  if (!alive_) return;
  rules_ = std::make_unique<checker::CompiledSuccessors>(sem_);
  fields_ = rules_->fields();
  words_ = std::max<std::size_t>(1, rules_->words());
  scratch_.assign(std::max(rules_->unpacked_size(), fields_), 0);
  padded_ = scratch_;
  index_.assign(1024, 0);
  begin_.push_back(0);
  std::vector<std::uint64_t> packed(words_, 0);
  for (auto& s : sem_.initial_states()) {
    // BMC's frame 0 is an initial state within the ranges.
    if (!in_range(sem_.layout(), s)) continue;
    std::fill(packed.begin(), packed.end(), 0);
    rules_->pack(s.data(), packed.data());
    if (!add(packed.data(), hash(packed.data()), static_cast<std::uint32_t>(count_))) {
      alive_ = false;
      break;
    }
  }
  begin_.push_back(count_);
}

Layers::~Layers() { control_.release(reserved_); }

std::uint64_t Layers::hash(const std::uint64_t* w) const {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (std::size_t i = 0; i < words_; ++i) {
    h ^= w[i];
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
  }
  h *= 0x94D049BB133111EBULL;
  return h ^ (h >> 29);
}

bool Layers::account(std::uint64_t extra) {
  const std::uint64_t held =
      chunks_.size() * chunk_states * words_ * sizeof(std::uint64_t) +
      chunks_.capacity() * sizeof(void*) + parent_.capacity() * sizeof(std::uint32_t) +
      index_.capacity() * sizeof(std::uint32_t) + stuck_.capacity() * sizeof(std::uint64_t) + extra;
  if (held <= reserved_) return true;
  // Ahead by an eighth (at least 4 KiB): one reservation (a lock and a
  // look at Z3's allocation) per eighth of growth.
  const std::uint64_t more = held - reserved_ + std::max<std::uint64_t>(held / 8, 4 << 10);
  if (!control_.reserve(more)) return false;
  reserved_ += more;
  return true;
}

bool Layers::grow_index() {
  const std::size_t size = index_.size() * 2;
  // The old index and the new one are both held while it is rebuilt.
  if (!account(size * sizeof(std::uint32_t))) return false;
  std::vector<std::uint32_t> next(size, 0);
  const std::size_t mask = size - 1;
  for (std::size_t i = 0; i < count_; ++i) {
    std::size_t pos = hash(words(i)) & mask;
    while (next[pos] != 0) pos = (pos + 1) & mask;
    next[pos] = static_cast<std::uint32_t>(i + 1);
  }
  index_.swap(next);
  return true;
}

bool Layers::add(const std::uint64_t* w, std::uint64_t h, std::uint32_t parent) {
  // Load at most 0.7; linear probing.
  if ((count_ + 1) * 10 > index_.size() * 7 && !grow_index()) return false;
  const std::size_t mask = index_.size() - 1;
  std::size_t pos = h & mask;
  const std::size_t bytes = words_ * sizeof(std::uint64_t);
  while (index_[pos] != 0) {
    if (std::memcmp(words(index_[pos] - 1), w, bytes) == 0) return true;  // seen
    pos = (pos + 1) & mask;
  }
  if (count_ >= budget_ || count_ >= 0xFFFFFFFEU) return false;
  if ((count_ & (chunk_states - 1)) == 0) {
    if (!account(chunk_states * bytes)) return false;
    chunks_.push_back(std::make_unique<std::uint64_t[]>(chunk_states * words_));
  }
  std::memcpy(chunks_.back().get() + (count_ & (chunk_states - 1)) * words_, w, bytes);
  parent_.push_back(parent);
  index_[pos] = static_cast<std::uint32_t>(count_ + 1);
  ++count_;
  return (count_ & (chunk_states - 1)) != 0 || account();
}

const checker::StateVec& Layers::view(std::size_t i) {
  rules_->unpack(words(i), padded_.data());
  view_.assign(padded_.begin(), padded_.begin() + static_cast<std::ptrdiff_t>(fields_));
  return view_;
}

checker::StateVec Layers::state(std::size_t i) const {
  std::vector<std::int32_t> all(std::max(rules_->unpacked_size(), fields_), 0);
  rules_->unpack(words(i), all.data());
  all.resize(fields_);
  return all;
}

bool Layers::reach(int k) {
  while (alive_ && static_cast<int>(begin_.size()) - 2 < k) alive_ = expand();
  return alive_;
}

std::vector<checker::StateVec> Layers::path_to(std::size_t i) const {
  std::vector<checker::StateVec> out;
  for (;;) {
    out.push_back(state(i));
    if (parent_[i] == i) break;
    i = parent_[i];
  }
  std::reverse(out.begin(), out.end());
  return out;
}

bool Layers::stuck(std::size_t i) {
  if (i < expanded_) return ((stuck_[i >> 6] >> (i & 63)) & 1U) != 0;
  rules_->unpack(words(i), scratch_.data());
  return rules_->successors(scratch_.data()) == 0;
}

bool Layers::expand() {
  const std::size_t from = begin_[begin_.size() - 2], to = begin_.back();
  std::vector<std::uint64_t> packed(words_, 0);
  for (std::size_t i = from; i < to; ++i) {
    if (control_.stopped() != Stop::none) return false;
    rules_->unpack(words(i), scratch_.data());
    const std::size_t n = rules_->successors(scratch_.data());
    if (stuck_.size() * 64 <= i) {
      if (stuck_.capacity() * 64 <= i && !account(stuck_.capacity() * sizeof(std::uint64_t)))
        return false;
      stuck_.resize(i / 64 + 1, 0);
    }
    if (n == 0) stuck_[i >> 6] |= std::uint64_t{1} << (i & 63);
    expanded_ = i + 1;
    for (std::size_t j = 0; j < n; ++j) {
      rules_->pack_from(scratch_.data(), words(i), rules_->successor(j), packed.data());
      if (!add(packed.data(), hash(packed.data()), static_cast<std::uint32_t>(i))) return false;
    }
  }
  begin_.push_back(count_);
  return true;
}

}  // namespace loophole::smt::detail
