// Bit packing: sizes follow the ranges exactly, and pack/unpack round-trips
// every value of small layouts exhaustively and every bit offset and width of
// fields that straddle 64-bit words; delta packing from another state gives
// the same words as packing from scratch. unpack() (AVX2 where the CPU has
// it) and the portable unpack_scalar() agree everywhere.
#include "explicit/packer.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "fake_systems.hpp"

namespace loophole::checker {
namespace {

using testing::make_layout;

TEST(Packer, BitsPerFieldAreCeilLog2OfTheRange) {
  const Packer p(make_layout({{0, 0},
                              {5, 5},
                              {0, 1},
                              {0, 2},
                              {0, 3},
                              {0, 4},
                              {-1, 6},
                              {-8, 8},
                              {0, 255},
                              {0, 256},
                              {-3, -3}}));
  const unsigned expected[] = {0, 0, 1, 2, 2, 3, 3, 5, 8, 9, 0};
  for (std::size_t i = 0; i < p.fields(); ++i) EXPECT_EQ(expected[i], p.field_bits(i)) << i;
  EXPECT_EQ(33U, p.bits());
  EXPECT_EQ(5U, p.bytes());
  EXPECT_EQ(1U, p.words());
}

TEST(Packer, FullInt32RangeTakes32Bits) {
  constexpr auto lo = std::numeric_limits<std::int32_t>::min();
  constexpr auto hi = std::numeric_limits<std::int32_t>::max();
  const Packer p(make_layout({{lo, hi}, {lo, hi}, {lo, hi}}));
  EXPECT_EQ(96U, p.bits());
  EXPECT_EQ(12U, p.bytes());
  EXPECT_EQ(2U, p.words());
  for (const StateVec& s : {StateVec{lo, hi, 0}, StateVec{hi, lo, -1}, StateVec{-1, 1, lo}}) {
    std::vector<Word> w(p.words());
    p.pack(s, w.data());
    StateVec back;
    p.unpack(w.data(), back);
    EXPECT_EQ(s, back);
  }
}

TEST(Packer, ConstantLayoutPacksToNothing) {
  const Packer p(make_layout({{4, 4}, {-2, -2}}));
  EXPECT_EQ(0U, p.bits());
  EXPECT_EQ(0U, p.bytes());
  EXPECT_EQ(1U, p.words());
  Word w = 123;
  p.pack({4, -2}, &w);
  EXPECT_EQ(0U, w);
  StateVec back;
  p.unpack(&w, back);
  EXPECT_EQ((StateVec{4, -2}), back);
}

TEST(Packer, RoundTripsEveryStateOfSmallLayouts) {
  const std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>> layouts = {
      {{0, 0}, {-3, 4}, {0, 1}, {5, 5}, {0, 2}, {-1, 0}, {0, 6}},
      {{0, 9}, {0, 9}, {0, 9}, {0, 9}, {0, 9}},
      {{-100, 100}, {0, 1}, {7, 30}},
  };
  for (const auto& ranges : layouts) {
    const Packer p(make_layout(ranges));
    StateVec s;
    for (const auto& r : ranges) s.push_back(r.first);
    std::vector<Word> w(p.words());
    std::vector<StateVec> bases;  // delta packing from some earlier states
    std::vector<std::vector<Word>> base_words;
    std::uint64_t count = 0;
    for (;;) {
      p.pack(s, w.data());
      if (p.bits() % 64 != 0) {
        EXPECT_EQ(0U, w.back() >> (p.bits() % 64)) << "padding not zero";
      }
      StateVec back;
      p.unpack(w.data(), back);
      ASSERT_EQ(s, back);
      StateVec scalar(p.fields());
      p.unpack_scalar(w.data(), scalar.data());
      ASSERT_EQ(s, scalar);
      for (std::size_t b = 0; b < bases.size(); ++b) {
        std::vector<Word> delta(p.words());
        p.pack_delta(bases[b], base_words[b].data(), s, delta.data());
        ASSERT_EQ(w, delta) << "delta from base " << b;
      }
      if (count % 97 == 0 && bases.size() < 8) {
        bases.push_back(s);
        base_words.push_back(w);
      }
      ++count;
      std::size_t f = 0;
      while (f < s.size() && s[f] == ranges[f].second) {
        s[f] = ranges[f].first;
        ++f;
      }
      if (f == s.size()) break;
      ++s[f];
    }
    std::uint64_t expected = 1;
    for (const auto& r : ranges) expected *= static_cast<std::uint64_t>(r.second - r.first + 1);
    EXPECT_EQ(expected, count);
  }
}

TEST(Packer, DistinctStatesPackDistinctly) {
  const auto ranges = std::vector<std::pair<std::int32_t, std::int32_t>>{{0, 2}, {-1, 1}, {0, 4}};
  const Packer p(make_layout(ranges));
  std::set<Word> packed;
  for (int a = 0; a <= 2; ++a) {
    for (int b = -1; b <= 1; ++b) {
      for (int c = 0; c <= 4; ++c) {
        Word w = 0;
        p.pack({a, b, c}, &w);
        packed.insert(w);
      }
    }
  }
  EXPECT_EQ(45U, packed.size());
}

// A field of every width 1..32 at every bit offset 0..127, so that every way
// of straddling a word boundary occurs, with its extreme and random values.
TEST(Packer, RoundTripsEveryOffsetAndWidth) {
  std::mt19937_64 rng(42);
  for (int width = 1; width <= 32; ++width) {
    for (int offset = 0; offset < 128; ++offset) {
      std::vector<std::pair<std::int32_t, std::int32_t>> ranges;
      for (int i = 0; i < offset; ++i) ranges.push_back({0, 1});  // one bit each
      const std::int64_t lo = -7;
      const std::int64_t hi = lo + (width == 32 ? 0xFFFFFFFFLL : (1LL << width) - 1);
      const auto lo32 =
          static_cast<std::int32_t>(width == 32 ? std::numeric_limits<std::int32_t>::min() : lo);
      const auto hi32 =
          static_cast<std::int32_t>(width == 32 ? std::numeric_limits<std::int32_t>::max() : hi);
      ranges.push_back({lo32, hi32});
      ranges.push_back({0, 1});  // a neighbour after it
      const Packer p(make_layout(ranges));
      ASSERT_EQ(static_cast<std::size_t>(offset + width + 1), p.bits());
      std::vector<Word> w(p.words());
      StateVec previous(ranges.size(), 0);
      previous[offset] = lo32;
      std::vector<Word> previous_words(p.words());
      p.pack(previous, previous_words.data());
      for (int trial = 0; trial < 6; ++trial) {
        StateVec s(ranges.size());
        for (int i = 0; i < offset; ++i) s[i] = static_cast<std::int32_t>(rng() & 1);
        const auto span = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi32) - lo32);
        const std::uint64_t pick = trial == 0 ? 0 : trial == 1 ? span : rng() % (span + 1);
        s[offset] = static_cast<std::int32_t>(lo32 + static_cast<std::int64_t>(pick));
        s[offset + 1] = trial % 2;
        p.pack(s, w.data());
        StateVec back;
        p.unpack(w.data(), back);
        ASSERT_EQ(s, back) << "width " << width << " offset " << offset;
        StateVec scalar(p.fields());
        p.unpack_scalar(w.data(), scalar.data());
        ASSERT_EQ(s, scalar) << "width " << width << " offset " << offset;
        for (std::size_t i = 0; i < s.size(); ++i) {
          ASSERT_EQ(s[i], p.field(w.data(), i))
              << "field " << i << " width " << width << " offset " << offset;
        }
        std::vector<Word> delta(p.words());
        p.pack_delta(previous, previous_words.data(), s, delta.data());
        ASSERT_EQ(w, delta) << "width " << width << " offset " << offset;
        // pack_fields given the fields that differ, or (odd trials) a
        // superset: every field.
        std::vector<std::uint64_t> dirty((s.size() + 63) / 64, 0);
        for (std::size_t i = 0; i < s.size(); ++i) {
          if (trial % 2 == 1 || s[i] != previous[i]) dirty[i / 64] |= std::uint64_t{1} << (i % 64);
        }
        std::vector<Word> patched(p.words());
        p.pack_fields(previous_words.data(), s.data(), dirty.data(), patched.data());
        ASSERT_EQ(w, patched) << "width " << width << " offset " << offset;
        previous = s;
        previous_words = w;
      }
    }
  }
}

// A state that ends exactly on a word boundary, with constant fields after
// (and between) the full words: nothing reads or writes past the last word
// (ASan would say so in the dev build).
TEST(Packer, ConstantFieldsAfterAFullWordStayInside) {
  constexpr auto lo = std::numeric_limits<std::int32_t>::min();
  constexpr auto hi = std::numeric_limits<std::int32_t>::max();
  const Packer p(make_layout({{lo, hi}, {7, 7}, {lo, hi}, {-1, -1}, {3, 3}}));
  EXPECT_EQ(64U, p.bits());
  ASSERT_EQ(1U, p.words());
  const StateVec s{-5, 7, hi, -1, 3};
  const auto w = std::make_unique<Word[]>(1);  // exactly one word: ASan sees any overrun
  p.pack(s, w.get());
  StateVec back;
  p.unpack(w.get(), back);
  EXPECT_EQ(s, back);
  StateVec scalar(p.fields());
  p.unpack_scalar(w.get(), scalar.data());
  EXPECT_EQ(s, scalar);
}

TEST(Packer, OutOfRangeValueIsAnInternalError) {
  const Packer p(make_layout({{0, 3}, {-2, 2}}));
  Word w = 0;
  EXPECT_THROW(p.pack({4, 0}, &w), std::logic_error);
  EXPECT_THROW(p.pack({0, -3}, &w), std::logic_error);
  EXPECT_THROW(p.pack({-1, 0}, &w), std::logic_error);
  EXPECT_THROW(p.pack({0}, &w), std::logic_error);
  const Word base = 0;
  EXPECT_THROW(p.pack_delta({0, 0}, &base, {0, 3}, &w), std::logic_error);
  EXPECT_THROW(p.pack_delta({0, 0}, &base, {-1, 0}, &w), std::logic_error);
  const std::int32_t out[] = {0, 3};
  const std::uint64_t second = 2;
  std::vector<Word> patched(p.words());
  EXPECT_THROW(p.pack_fields(&base, out, &second, patched.data()), std::logic_error);
  try {
    p.pack({0, 5}, &w);
  } catch (const std::logic_error& e) {
    EXPECT_STREQ("loophole: internal error: state field 'f1' is 5, outside its range -2..2",
                 e.what());
  }
}

TEST(Packer, EmptyRangeIsAnInternalError) {
  EXPECT_THROW(Packer(make_layout({{3, 2}})), std::logic_error);
}

}  // namespace
}  // namespace loophole::checker
