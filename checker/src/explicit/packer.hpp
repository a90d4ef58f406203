// Bit packing of states. Every field of the Layout gets exactly the bits its
// range needs, ceil(log2(hi - lo + 1)) (none for a constant field), and the
// fields are laid end to end, straddling 64-bit word boundaries, so a state
// takes the minimal number of bytes. Packed states are handled as 64-bit words
// (padding bits zero, so equal states have equal words and equal hashes) and
// stored as their first bytes() bytes (little-endian). Packing and unpacking
// run once per move and per expanded state, so both loops are branch-free;
// pack_delta packs a successor by patching its source's words where the two
// differ, which is most of the work saved: a move changes few fields.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "loophole/checker/semantics.hpp"

namespace loophole::checker {

using Word = std::uint64_t;

class Packer {
 public:
  explicit Packer(const Layout& layout);

  [[nodiscard]] std::size_t fields() const { return fields_.size(); }
  [[nodiscard]] std::size_t bits() const { return bits_; }
  [[nodiscard]] std::size_t bytes() const { return (bits_ + 7) / 8; }
  [[nodiscard]] std::size_t words() const { return words_; }  // at least 1
  [[nodiscard]] unsigned field_bits(std::size_t field) const { return fields_[field].bits; }
  // Sets the bits field `field` occupies in a packed state's words().
  void field_mask(std::size_t field, Word* mask) const {
    const Slot& s = fields_[field];
    if (s.bits == 0) return;
    mask[s.word] |= Word{s.mask} << s.shift;
    if (s.straddles()) mask[s.word + 1] |= Word{s.mask} >> (64 - s.shift);
  }

  // Writes words() words. A value outside its field's range is an internal
  // error (the semantics produced a state its own layout does not allow).
  void pack(const StateVec& state, Word* out) const;
  // The same as pack(state, out), given base_words = pack(base).
  void pack_delta(const StateVec& base, const Word* base_words, const StateVec& state,
                  Word* out) const {
    check_size(state);
    check_size(base);
    pack_delta(base.data(), base_words, state.data(), out);
  }
  // The same over fields() values each.
  void pack_delta(const std::int32_t* base, const Word* base_words, const std::int32_t* state,
                  Word* out) const;
  // The same given the fields that may differ from base (bit i of
  // dirty[i / 64]; every other field of state equals base's).
  void pack_fields(const Word* base_words, const std::int32_t* state, const std::uint64_t* dirty,
                   Word* out) const;
  void unpack(const Word* in, StateVec& out) const;
  // The same into `out`, which must hold unpacked_size() values (fields()
  // and some padding the vector code may write).
  void unpack(const Word* in, std::int32_t* out) const;
  [[nodiscard]] std::size_t unpacked_size() const {
    return std::max(fields_.size(), unpack_lo_.size());
  }
  // The portable loop unpack() uses where AVX2 is missing (for tests).
  void unpack_scalar(const Word* in, std::int32_t* out) const;
  // One field of a packed state (field < fields()).
  [[nodiscard]] std::int32_t field(const Word* in, std::size_t field) const {
    const Slot& s = fields_[field];
    Word w = in[s.word] >> s.shift;
    if (s.straddles()) w |= in[s.word + 1] << (64 - s.shift);
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(s.lo) +
                                     (static_cast<std::uint32_t>(w) & s.mask));
  }
  [[nodiscard]] bool simd() const { return simd_; }

 private:
  struct Slot {
    std::int32_t lo = 0;
    std::uint32_t span = 0;  // hi - lo
    std::uint32_t mask = 0;  // bits ones
    std::uint16_t word = 0;
    std::uint8_t shift = 0;
    std::uint8_t bits = 0;
    [[nodiscard]] bool straddles() const { return shift + bits > 64; }
  };
  void check_size(const StateVec& state) const;
  [[noreturn]] void out_of_range(const std::int32_t* state) const;

  std::vector<Slot> fields_;
  std::vector<std::uint32_t> straddlers_;  // fields continued in the next word
  // pack_fields()' view of fields_: what patching field i into its word
  // takes, in one 24-byte record (the value, lo-based, shifted into place
  // over the cleared bits), and the straddlers as a bit set per 64 fields,
  // whose high parts follow in a second loop.
  struct Patch {
    Word clear = ~Word{0};  // ~(mask << shift)
    std::int32_t lo = 0;
    std::uint32_t span = 0;
    std::uint32_t word = 0;
    std::uint32_t shift = 0;
  };
  std::vector<Patch> patches_;
  std::vector<std::uint64_t> straddling_;
  // unpack()'s view of fields_, one array per member, padded by three
  // fields: the value of field i is lo + (word >> shift & mask), plus the
  // next word's bits for straddlers. Fields laid end to end make each word's
  // fields one run, [word_end_[w - 1], word_end_[w]). With AVX2 a run is
  // unpacked four fields at a time from its word broadcast to every lane
  // (no gathers: they are slow on some CPUs), a quarter of the scalar
  // loop's instructions.
  std::vector<std::int32_t> unpack_lo_;
  std::vector<std::uint64_t> unpack_shift_, unpack_mask_;
  std::vector<std::uint32_t> word_end_;
  bool simd_ = false;
  std::vector<std::string> names_;
  std::size_t bits_ = 0;
  std::size_t words_ = 1;
};

[[gnu::always_inline]] inline void Packer::pack_fields(const Word* base_words,
                                                       const std::int32_t* state,
                                                       const std::uint64_t* dirty,
                                                       Word* out) const {
  for (std::size_t w = 0; w < words_; ++w) out[w] = base_words[w];
  std::uint32_t bad = 0;
  const Patch* patches = patches_.data();
  for (std::size_t g = 0; g < straddling_.size(); ++g) {
    const std::uint64_t written = dirty[g];
    for (std::uint64_t bits = written; bits != 0; bits &= bits - 1) {
      const std::size_t i = g * 64 + static_cast<std::size_t>(std::countr_zero(bits));
      const Patch& p = patches[i];
      // (In range, u fits the field's bits; out of range, out_of_range() throws.)
      const std::uint32_t u =
          static_cast<std::uint32_t>(state[i]) - static_cast<std::uint32_t>(p.lo);
      bad |= static_cast<std::uint32_t>(u > p.span);
      out[p.word] = (out[p.word] & p.clear) | (Word{u} << p.shift);
    }
    for (std::uint64_t bits = written & straddling_[g]; bits != 0; bits &= bits - 1) {
      const std::size_t i = g * 64 + static_cast<std::size_t>(std::countr_zero(bits));
      const Slot& s = fields_[i];
      const std::uint32_t u =
          static_cast<std::uint32_t>(state[i]) - static_cast<std::uint32_t>(s.lo);
      const unsigned rest = 64 - s.shift;
      out[s.word + 1] = (out[s.word + 1] & ~(Word{s.mask} >> rest)) | (Word{u & s.mask} >> rest);
    }
  }
  if (bad != 0) out_of_range(state);
}

// The hash of a packed state (all words() words).
[[nodiscard]] inline std::uint64_t hash_words(const Word* w, std::size_t n) {
  std::uint64_t h = 0x243F6A8885A308D3ULL;
  for (std::size_t i = 0; i < n; ++i) {
    h = (h ^ w[i]) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
  }
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDULL;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace loophole::checker
