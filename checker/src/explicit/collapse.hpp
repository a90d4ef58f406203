// Collapse compression of packed states (SPIN's COLLAPSE, in the form that
// measured best on the seeds: bench/RESULTS.md, 2026-11-28 10:55-12:45).
// The fields of a state are split into components: the data slots no player
// owns, each player's data slots, and the control fields. Each component's
// distinct values are interned in a table of their own, and a stored state
// is the record of its components' table indices, each in just the bits its
// table needs now (widths grow as tables do; the store then re-lays its
// records). On the seeds a component has a few hundred to a few thousand
// distinct values where the states number millions (containment: 22, 248,
// 248 and 319 values for 4.7 M states), so a state's 11-18 packed bytes
// become 4-5.
//
// A table entry is the component's bits in place, a packed state's words()
// with every other field zero, so a state is rebuilt by OR-ing its
// components' entries (no bit shuffling), and a component is found by
// masking a packed state's words. Interning (intern) is serial; find() only
// reads and may run on any number of threads while nothing interns.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "memory_budget.hpp"
#include "packer.hpp"

namespace loophole::checker {

class Collapse {
 public:
  static constexpr std::size_t max_components = 10;  // shared, 8 players, control
  static constexpr std::size_t max_words = 16;       // wider states are not collapsed
  using Ids = std::array<std::uint32_t, max_components>;

  // component_of[f] in [0, max_components): the component of field f.
  Collapse(const Packer& packer, const std::vector<int>& component_of, MemoryBudget& budget);
  ~Collapse();
  Collapse(const Collapse&) = delete;
  Collapse& operator=(const Collapse&) = delete;

  // Where each component's index lies in a record (bit offset and width).
  struct Layout {
    std::array<std::uint32_t, max_components> offset{}, width{};
    std::uint32_t bits = 0;
    [[nodiscard]] std::size_t bytes() const { return (bits + 7) / 8; }
  };
  [[nodiscard]] const Layout& layout() const { return layout_; }
  [[nodiscard]] std::size_t components() const { return components_.size(); }

  // The state of the record at p (layout().bytes() bytes, readable 8 bytes
  // past them) into words() words.
  void expand(const std::uint8_t* p, Word* out) const {
    for (std::size_t w = 0; w < words_; ++w) out[w] = 0;
    for (std::size_t c = 0; c < components_.size(); ++c) {
      const Word* e = &components_[c].values[std::size_t{get(p, layout_, c)} * words_];
      for (std::size_t w = 0; w < words_; ++w) out[w] |= e[w];
    }
  }
  // The indices of state's components; false when some value is not in its
  // table (read-only: thread-safe while nothing interns). With `near`, a
  // record of the current layout (the state's parent), a component equal to
  // near's takes near's index without a lookup: a move changes a component
  // or two, and comparing with one table entry is cheaper than hashing and
  // probing (operators `attack_copies=1`: 55% of the lookups of new states'
  // components so saved; bench/RESULTS.md, 2026-11-28 14:05-15:50).
  [[nodiscard]] bool find(const Word* state, Ids& ids, const std::uint8_t* near = nullptr) const;
  // The same, adding the values not yet seen (serial). True when the layout
  // had to widen: then `old` is the layout before, and the caller re-lays
  // every record it stored (relay) before writing more.
  bool intern(const Word* state, Ids& ids, Layout& old, const std::uint8_t* near = nullptr);
  // Room for `extra` more states' values, asked of the budget (see
  // collapse.cpp for how much); false when the budget refuses.
  [[nodiscard]] bool reserve(std::uint64_t extra);
  // Writes ids as a record of `layout` (layout.bytes() bytes at p).
  void write(std::uint8_t* p, const Ids& ids) const { put(p, layout_, ids); }
  // Rewrites records [0, n) of an arena from stride from.bytes() to
  // layout().bytes() (not smaller), in place (the arena has room for both).
  void relay(std::uint8_t* arena, std::uint64_t n, const Layout& from) const;
  // Frees the tables' hash indexes (find and intern are then no longer
  // possible; expand is).
  void release_index();
  [[nodiscard]] std::uint64_t memory() const { return accounted_; }  // asked of the budget
  [[nodiscard]] std::uint64_t allocated() const;                     // held
  [[nodiscard]] std::uint64_t values() const;  // distinct component values, in all
  // What the values take in the tables (with an index at load 1/2).
  [[nodiscard]] std::uint64_t values_bytes() const {
    return values() * (words_ * sizeof(Word) + 2 * sizeof(std::uint32_t));
  }

  [[nodiscard]] static std::uint32_t get(const std::uint8_t* p, const Layout& l, std::size_t c) {
    const std::uint32_t w = l.width[c];
    if (w == 0) return 0;
    std::uint64_t v;
    std::memcpy(&v, p + l.offset[c] / 8, sizeof v);
    return static_cast<std::uint32_t>((v >> (l.offset[c] % 8)) & ((std::uint64_t{1} << w) - 1));
  }
  static void put(std::uint8_t* p, const Layout& l, const Ids& ids);

 private:
  struct Component {
    std::array<Word, max_words> mask{};
    std::vector<Word> values;          // words_ per distinct value, in index order
    std::vector<std::uint32_t> slots;  // hash index: entry + 1, 0 empty
    std::uint32_t count = 0;
    std::uint64_t values_max = 0;  // 2^(the component's bits)
  };
  // A record to find components near (find), copied.
  class Near {
   public:
    Near(const Collapse& collapse, const std::uint8_t* record);

   private:
    friend class Collapse;
    std::array<std::uint8_t, (max_components * 32 + 7) / 8 + sizeof(Word)> bytes_{};
    bool given_ = false;
  };
  // Whether component c of a state, masked into key, is near's; its index
  // then in id.
  [[nodiscard]] bool same_as_near(std::size_t c, const Word* key, const Near& near,
                                  std::uint32_t& id) const;
  [[nodiscard]] std::uint64_t key_hash(const Word* key) const;
  // The slot of `key` in c's index: its entry's, or the empty one it would take.
  [[nodiscard]] std::size_t probe(const Component& c, const Word* key, std::uint64_t h) const;
  void grow(Component& c, std::size_t slots);
  void account();
  void lay_out();

  std::size_t words_;
  std::vector<Component> components_;
  Layout layout_;
  MemoryBudget& budget_;
  std::uint64_t accounted_ = 0;
};

}  // namespace loophole::checker
