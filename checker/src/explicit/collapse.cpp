// Collapse compression: see collapse.hpp.
#include "collapse.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace loophole::checker {

Collapse::Collapse(const Packer& packer, const std::vector<int>& component_of, MemoryBudget& budget)
    : words_(packer.words()), budget_(budget) {
  if (words_ > max_words || component_of.size() != packer.fields()) {
    throw std::logic_error("loophole: internal error: Collapse of an unsuitable layout");
  }
  std::array<int, max_components> dense;
  dense.fill(-1);
  for (std::size_t f = 0; f < component_of.size(); ++f) {
    const int c = component_of[f];
    if (c < 0 || static_cast<std::size_t>(c) >= max_components) {
      throw std::logic_error("loophole: internal error: Collapse component out of range");
    }
    if (packer.field_bits(f) == 0) continue;
    if (dense[c] < 0) {
      dense[c] = static_cast<int>(components_.size());
      components_.emplace_back();
    }
    packer.field_mask(f, components_[dense[c]].mask.data());
  }
  for (Component& c : components_) {
    unsigned bits = 0;
    for (const Word m : c.mask) bits += static_cast<unsigned>(std::popcount(m));
    c.values_max = bits >= 32 ? std::uint64_t{1} << 32 : std::uint64_t{1} << bits;
  }
  for (Component& c : components_) {
    c.slots.assign(64, 0);
    c.values.reserve(16 * words_);
  }
  account();
  lay_out();
}

Collapse::~Collapse() { budget_.release(accounted_); }

std::uint64_t Collapse::values() const {
  std::uint64_t n = 0;
  for (const Component& c : components_) n += c.count;
  return n;
}

std::uint64_t Collapse::allocated() const {
  std::uint64_t bytes = 0;
  for (const Component& c : components_) {
    bytes += c.values.capacity() * sizeof(Word) + c.slots.capacity() * sizeof(std::uint32_t);
  }
  return bytes;
}

bool Collapse::reserve(std::uint64_t extra) {
  // Asked of the budget, not allocated: a table grows only with the values
  // interned (at worst twice what they need, and an index of four 4-byte
  // slots a value). A chunk's new states rarely bring many new values, so
  // the room is for at most as many again as a table has, and 4096 more;
  // what grows past it is taken anyway (MemoryBudget::force).
  std::uint64_t bytes = 0;
  for (const Component& c : components_) {
    const std::uint64_t more = std::min(extra, std::uint64_t{c.count} + 4096);
    const std::uint64_t need = std::min(c.values_max, c.count + more);
    bytes += std::max<std::uint64_t>(c.values.capacity() * sizeof(Word),
                                     2 * need * words_ * sizeof(Word)) +
             std::max<std::uint64_t>(c.slots.capacity() * sizeof(std::uint32_t),
                                     4 * need * sizeof(std::uint32_t));
  }
  if (bytes > accounted_) {
    if (!budget_.acquire(bytes - accounted_)) return false;
    accounted_ = bytes;
  }
  return true;
}

void Collapse::account() {
  const std::uint64_t bytes = allocated();
  if (bytes > accounted_) {
    // (Interning cannot wait: past the limit, the search's next reserve fails.)
    if (!budget_.acquire(bytes - accounted_)) budget_.force(bytes - accounted_);
    accounted_ = bytes;
  }
}

void Collapse::lay_out() {
  // Laid out again only when a table has outgrown its width: each re-lay
  // rewrites every record stored (serially, at the end of a batch). The
  // record takes the bytes the tables need now, and the bits left over in
  // its last byte go to the tables past one value, one at a time, first to
  // those that outgrew their width (the ones growing), so that the next few
  // widenings fit without a re-lay. (At operators `attack_copies=1`, 13.8 M
  // states: 32 re-lays down to 9, bench/RESULTS.md, 2026-11-28 14:05-15:50.)
  std::array<std::uint32_t, max_components> need{};
  std::uint32_t bits = 0;
  bool fits = true;
  for (std::size_t c = 0; c < components_.size(); ++c) {
    const std::uint32_t n = components_[c].count;
    need[c] = n <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(n - 1));
    fits = fits && need[c] <= layout_.width[c];
    bits += need[c];
  }
  if (fits) return;
  std::array<std::size_t, max_components> order{};
  std::size_t growing = 0;
  for (std::size_t c = 0; c < components_.size(); ++c) {
    if (need[c] > layout_.width[c]) order[growing++] = c;
  }
  for (std::size_t c = 0; c < components_.size(); ++c) {
    if (need[c] != 0 && need[c] <= layout_.width[c]) order[growing++] = c;
  }
  for (std::uint32_t spare = (bits + 7) / 8 * 8 - bits, k = 0; spare > 0; --spare, ++k) {
    ++need[order[k % growing]];
  }
  bits = 0;
  for (std::size_t c = 0; c < components_.size(); ++c) {
    layout_.offset[c] = bits;
    layout_.width[c] = need[c];
    bits += need[c];
  }
  layout_.bits = bits;
}

std::uint64_t Collapse::key_hash(const Word* key) const {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (std::size_t w = 0; w < words_; ++w) {
    h = (h ^ key[w]) * 0xFF51AFD7ED558CCDULL;
    h ^= h >> 32;
  }
  return h;
}

std::size_t Collapse::probe(const Component& c, const Word* key, std::uint64_t h) const {
  const std::size_t mask = c.slots.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    const std::uint32_t s = c.slots[i];
    if (s == 0) return i;
    const Word* v = &c.values[std::size_t{s - 1} * words_];
    Word diff = 0;
    for (std::size_t w = 0; w < words_; ++w) diff |= v[w] ^ key[w];
    if (diff == 0) return i;
  }
}

Collapse::Near::Near(const Collapse& collapse, const std::uint8_t* record) {
  if (record == nullptr) return;
  // (A copy: get() reads whole words, and the record after it may be
  // being written by another thread.)
  std::memcpy(bytes_.data(), record, collapse.layout_.bytes());
  given_ = true;
}

bool Collapse::same_as_near(std::size_t c, const Word* key, const Near& near,
                            std::uint32_t& id) const {
  if (!near.given_) return false;
  id = get(near.bytes_.data(), layout_, c);
  const Word* v = &components_[c].values[std::size_t{id} * words_];
  Word diff = 0;
  for (std::size_t w = 0; w < words_; ++w) diff |= v[w] ^ key[w];
  return diff == 0;
}

bool Collapse::find(const Word* state, Ids& ids, const std::uint8_t* near_record) const {
  const Near near(*this, near_record);
  std::array<Word, max_words> key;
  for (std::size_t c = 0; c < components_.size(); ++c) {
    const Component& comp = components_[c];
    for (std::size_t w = 0; w < words_; ++w) key[w] = state[w] & comp.mask[w];
    if (same_as_near(c, key.data(), near, ids[c])) continue;
    const std::uint32_t s = comp.slots[probe(comp, key.data(), key_hash(key.data()))];
    if (s == 0) return false;
    ids[c] = s - 1;
  }
  return true;
}

bool Collapse::intern(const Word* state, Ids& ids, Layout& old, const std::uint8_t* near_record) {
  const Near near(*this, near_record);
  std::array<Word, max_words> key;
  bool added = false;
  for (std::size_t c = 0; c < components_.size(); ++c) {
    Component& comp = components_[c];
    for (std::size_t w = 0; w < words_; ++w) key[w] = state[w] & comp.mask[w];
    if (same_as_near(c, key.data(), near, ids[c])) continue;
    const std::uint64_t h = key_hash(key.data());
    std::size_t i = probe(comp, key.data(), h);
    if (comp.slots[i] == 0) {
      if (comp.count == ~std::uint32_t{0} - 1) {
        throw std::length_error("loophole: too many distinct values of a state component");
      }
      if (std::uint64_t{comp.count + 1} * 2 > comp.slots.size()) {
        grow(comp, comp.slots.size() * 2);
        i = probe(comp, key.data(), h);
      }
      comp.values.insert(comp.values.end(), key.begin(), key.begin() + words_);
      comp.slots[i] = ++comp.count;
      added = true;
    }
    ids[c] = comp.slots[i] - 1;
  }
  if (!added) return false;
  account();
  old = layout_;
  lay_out();
  for (std::size_t c = 0; c < components_.size(); ++c) {
    if (layout_.width[c] != old.width[c]) return true;
  }
  return false;
}

void Collapse::grow(Component& c, std::size_t size) {
  std::vector<std::uint32_t> slots(size, 0);
  c.slots.swap(slots);
  for (std::uint32_t e = 0; e < c.count; ++e) {
    const Word* key = &c.values[std::size_t{e} * words_];
    c.slots[probe(c, key, key_hash(key))] = e + 1;
  }
}

void Collapse::release_index() {
  for (Component& c : components_) {
    c.slots.clear();
    c.slots.shrink_to_fit();
    c.values.shrink_to_fit();
  }
  budget_.release(accounted_ - allocated());
  accounted_ = allocated();
}

void Collapse::put(std::uint8_t* p, const Layout& l, const Ids& ids) {
  std::array<Word, max_components / 2 + 2> buf{};
  for (std::size_t c = 0; c < max_components; ++c) {
    const std::uint32_t w = l.width[c];
    if (w == 0) continue;
    const std::uint32_t o = l.offset[c], sh = o % 64;
    const Word v = ids[c];
    buf[o / 64] |= v << sh;
    if (sh + w > 64) buf[o / 64 + 1] |= v >> (64 - sh);
  }
  std::memcpy(p, buf.data(), l.bytes());
}

void Collapse::relay(std::uint8_t* arena, std::uint64_t n, const Layout& from) const {
  const std::size_t a = from.bytes(), b = layout_.bytes();
  if (b < a) throw std::logic_error("loophole: internal error: Collapse layout shrank");
  Ids ids{};
  // From the last record down: record i moves to i * b >= i * a, over
  // records already moved and its own old place, read before it is written.
  // (A record read 8 bytes at a time past its end: those bytes are the next
  // records' or the arena's slack, and only the record's bits are used.)
  for (std::uint64_t i = n; i-- > 0;) {
    const std::uint8_t* p = arena + i * a;
    for (std::size_t c = 0; c < components_.size(); ++c) ids[c] = get(p, from, c);
    put(arena + i * b, layout_, ids);
  }
}

}  // namespace loophole::checker
