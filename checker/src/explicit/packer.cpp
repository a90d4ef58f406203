// Packing and unpacking of states; see packer.hpp. A field is written with
// one shift into its word; the few fields that straddle a word boundary get
// their high part in a second loop. Range checks are OR-ed together and
// only a failure goes back to find the field, so the hot loop never branches.
#include "packer.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define LOOPHOLE_PACKER_AVX2 1
#endif

namespace loophole::checker {

static_assert(std::endian::native == std::endian::little,
              "packed states are stored as the low bytes of little-endian words");

Packer::Packer(const Layout& layout) {
  fields_.reserve(layout.fields.size());
  for (const Field& f : layout.fields) {
    if (f.hi < f.lo) {
      throw std::logic_error("loophole: internal error: field '" + f.name + "' has empty range " +
                             std::to_string(f.lo) + ".." + std::to_string(f.hi));
    }
    Slot s;
    s.lo = f.lo;
    s.span = static_cast<std::uint32_t>(static_cast<std::int64_t>(f.hi) - f.lo);
    s.bits = static_cast<std::uint8_t>(s.span == 0 ? 0 : std::bit_width(s.span));
    s.mask = s.bits == 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << s.bits) - 1;
    // A constant field has no bits and reads word 0 (bits_ / 64 may be one
    // past the last word when the state ends on a word boundary).
    s.word = static_cast<std::uint16_t>(s.bits == 0 ? 0 : bits_ / 64);
    s.shift = static_cast<std::uint8_t>(s.bits == 0 ? 0 : bits_ % 64);
    bits_ += s.bits;
    if (s.straddles()) straddlers_.push_back(static_cast<std::uint32_t>(fields_.size()));
    fields_.push_back(s);
    names_.push_back(f.name);
  }
  words_ = bits_ == 0 ? 1 : (bits_ + 63) / 64;
  patches_.resize(fields_.size());
  straddling_.assign((fields_.size() + 63) / 64, 0);
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const Slot& f = fields_[i];
    patches_[i] = {~(Word{f.mask} << f.shift), f.lo, f.span, f.word, f.shift};
    if (f.straddles()) straddling_[i / 64] |= std::uint64_t{1} << (i % 64);
  }
  const std::size_t padded = fields_.size() + 3;
  unpack_lo_.assign(padded, 0);
  unpack_shift_.assign(padded, 0);
  unpack_mask_.assign(padded, 0);
  word_end_.assign(words_, 0);
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const Slot& f = fields_[i];
    unpack_lo_[i] = f.lo;
    unpack_shift_[i] = f.shift;
    unpack_mask_[i] = f.mask;
    if (f.bits != 0) word_end_[f.word] = static_cast<std::uint32_t>(i + 1);
  }
  for (std::size_t w = 1; w < words_; ++w) word_end_[w] = std::max(word_end_[w], word_end_[w - 1]);
  word_end_[words_ - 1] = static_cast<std::uint32_t>(fields_.size());
#ifdef LOOPHOLE_PACKER_AVX2
  simd_ = __builtin_cpu_supports("avx2") != 0;
#endif
}

namespace {

#ifdef LOOPHOLE_PACKER_AVX2
// Four fields a step; the straddlers' high parts are added by the caller.
// A step may run past its word's run: those fields are written again by the
// next run (which starts exactly at its first field), the last run's excess
// lands in the padding of `out`.
__attribute__((target("avx2"))) void unpack_avx2(const Word* in, std::size_t words,
                                                 const std::uint32_t* word_end,
                                                 const std::uint64_t* shift,
                                                 const std::uint64_t* mask, const std::int32_t* lo,
                                                 std::int32_t* out) {
  const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0);
  std::uint32_t begin = 0;
  for (std::size_t w = 0; w < words; ++w) {
    const __m256i x = _mm256_set1_epi64x(static_cast<long long>(in[w]));
    const std::uint32_t end = word_end[w];
    for (std::uint32_t i = begin; i < end; i += 4) {
      __m256i v =
          _mm256_srlv_epi64(x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(shift + i)));
      v = _mm256_and_si256(v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(mask + i)));
      const __m128i low = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, even));
      const __m128i sum =
          _mm_add_epi32(low, _mm_loadu_si128(reinterpret_cast<const __m128i*>(lo + i)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), sum);
    }
    begin = end;
  }
}
#endif

}  // namespace

void Packer::check_size(const StateVec& state) const {
  if (state.size() != fields_.size()) {
    throw std::logic_error("loophole: internal error: state has " + std::to_string(state.size()) +
                           " fields, layout has " + std::to_string(fields_.size()));
  }
}

void Packer::pack(const StateVec& state, Word* out) const {
  check_size(state);
  for (std::size_t w = 0; w < words_; ++w) out[w] = 0;
  const std::int32_t* v = state.data();
  std::uint32_t bad = 0;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const Slot& s = fields_[i];
    const std::uint32_t u = static_cast<std::uint32_t>(v[i]) - static_cast<std::uint32_t>(s.lo);
    bad |= static_cast<std::uint32_t>(u > s.span);
    out[s.word] |= Word{u} << s.shift;
  }
  if (bad != 0) out_of_range(state.data());
  for (const std::uint32_t i : straddlers_) {
    const Slot& s = fields_[i];
    const std::uint32_t u = static_cast<std::uint32_t>(v[i]) - static_cast<std::uint32_t>(s.lo);
    out[s.word + 1] |= Word{u} >> (64 - s.shift);
  }
}

void Packer::pack_delta(const std::int32_t* base, const Word* base_words, const std::int32_t* state,
                        Word* out) const {
  for (std::size_t w = 0; w < words_; ++w) out[w] = base_words[w];
  const std::int32_t* a = base;
  const std::int32_t* b = state;
  const std::size_t n = fields_.size();
  std::uint32_t bad = 0;
  // Compare eight fields at a time (a fixed trip count the compiler turns
  // into vector compares); patch only the fields that differ.
  auto patch = [&](std::size_t i) {
    const Slot& s = fields_[i];
    const std::uint32_t u = static_cast<std::uint32_t>(b[i]) - static_cast<std::uint32_t>(s.lo);
    bad |= static_cast<std::uint32_t>(u > s.span);
    const Word field = Word{u & s.mask};
    out[s.word] = (out[s.word] & ~(Word{s.mask} << s.shift)) | (field << s.shift);
    if (s.straddles()) {
      const unsigned rest = 64 - s.shift;
      out[s.word + 1] = (out[s.word + 1] & ~(Word{s.mask} >> rest)) | (field >> rest);
    }
  };
  constexpr std::size_t block = 8;
  std::size_t i0 = 0;
  for (; i0 + block <= n; i0 += block) {
    std::uint32_t diff = 0;
    for (std::size_t k = 0; k < block; ++k) {
      diff |= static_cast<std::uint32_t>(a[i0 + k] ^ b[i0 + k]);
    }
    if (diff == 0) continue;
    for (std::size_t k = 0; k < block; ++k) {
      if (a[i0 + k] != b[i0 + k]) patch(i0 + k);
    }
  }
  for (; i0 < n; ++i0) {
    if (a[i0] != b[i0]) patch(i0);
  }
  if (bad != 0) out_of_range(state);
}

void Packer::unpack(const Word* in, StateVec& out) const {
  // Written into the padding too, then cut back (capacity stays).
  out.resize(unpacked_size());
  unpack(in, out.data());
  out.resize(fields_.size());
}

void Packer::unpack(const Word* in, std::int32_t* out) const {
#ifdef LOOPHOLE_PACKER_AVX2
  if (simd_) {
    unpack_avx2(in, words_, word_end_.data(), unpack_shift_.data(), unpack_mask_.data(),
                unpack_lo_.data(), out);
    for (const std::uint32_t i : straddlers_) {
      const Slot& s = fields_[i];
      const auto high = static_cast<std::uint32_t>(in[s.word + 1] << (64 - s.shift)) & s.mask;
      out[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(out[i]) + high);
    }
    return;
  }
#endif
  unpack_scalar(in, out);
}

void Packer::unpack_scalar(const Word* in, std::int32_t* v) const {
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const Slot& s = fields_[i];
    const auto u = static_cast<std::uint32_t>(in[s.word] >> s.shift) & s.mask;
    v[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(s.lo) + u);
  }
  for (const std::uint32_t i : straddlers_) {
    const Slot& s = fields_[i];
    const auto u =
        static_cast<std::uint32_t>((in[s.word] >> s.shift) | (in[s.word + 1] << (64 - s.shift))) &
        s.mask;
    v[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(s.lo) + u);
  }
}

void Packer::out_of_range(const std::int32_t* state) const {
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const Slot& s = fields_[i];
    const std::int64_t v = state[i];
    if (v >= s.lo && v <= static_cast<std::int64_t>(s.lo) + s.span) continue;
    throw std::logic_error("loophole: internal error: state field '" + names_[i] + "' is " +
                           std::to_string(v) + ", outside its range " + std::to_string(s.lo) +
                           ".." + std::to_string(static_cast<std::int64_t>(s.lo) + s.span));
  }
  throw std::logic_error("loophole: internal error: state out of range");
}

}  // namespace loophole::checker
