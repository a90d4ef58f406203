// The edge store's labels: every (kind, progress, chooser, chooser player)
// the language can produce, for up to its 8 players, packs into a raw label
// and reads back from the stored edge; a player outside that range is an
// internal error, not a wrong edge.
#include "explicit/edge_store.hpp"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace loophole::checker {
namespace {

TEST(EdgeStore, EveryLabelOfEightPlayersReadsBack) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  EdgeStore store(budget);
  struct Label {
    MoveKind kind;
    bool progress;
    Chooser chooser;
    int player;
  };
  std::vector<Label> labels;
  for (unsigned k = 0; k <= static_cast<unsigned>(MoveKind::decline); ++k) {
    for (const bool progress : {false, true}) {
      labels.push_back({static_cast<MoveKind>(k), progress, Chooser::none, -1});
      labels.push_back({static_cast<MoveKind>(k), progress, Chooser::nature, -1});
      for (int p = 0; p <= EdgeStore::max_chooser_player; ++p) {
        labels.push_back({static_cast<MoveKind>(k), progress, Chooser::player, p});
      }
    }
  }
  ASSERT_EQ(9U * 2U * 10U, labels.size());  // every label a game can have, all interned
  ASSERT_TRUE(store.reserve(1, labels.size()));
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const Label& l = labels[i];
    store.add(static_cast<StateId>(i), EdgeStore::label(l.kind, l.progress, l.chooser, l.player));
  }
  store.close_state();
  ASSERT_EQ(labels.size(), store.end(0) - store.begin(0));
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const Edge e = store.edge(store.begin(0) + i, static_cast<std::uint32_t>(i));
    EXPECT_EQ(static_cast<StateId>(i), e.to);
    EXPECT_EQ(labels[i].kind, e.kind) << i;
    EXPECT_EQ(labels[i].progress, e.progress) << i;
    EXPECT_EQ(labels[i].chooser, e.chooser) << i;
    EXPECT_EQ(labels[i].player, e.chooser_player) << i;
  }
}

TEST(EdgeStore, APlayerBeyondTheLanguagesEightIsAnInternalError) {
  EXPECT_THROW((void)EdgeStore::label(MoveKind::action, false, Chooser::player, 8),
               std::logic_error);
  EXPECT_THROW((void)EdgeStore::label(MoveKind::action, false, Chooser::player, -2),
               std::logic_error);
}

// Starts are 2 bytes relative to a base per 64 states; a state whose start
// lies 65,535 moves or more past its group's base has it in a sorted list
// (CompactEdges::wide_rel). Both ways of closing states give every start
// back, and so does the compact view the analyses read; the chunked way also
// when its tasks set their starts out of order (as threads may).
TEST(EdgeStore, StartsPastSixteenBitsReadBack) {
  // Degrees: state 1 has 70,000 moves, so states 2..63 of group 0 start
  // past 16 bits; group 1 (states 64..) starts afresh; state 100 has 65,462,
  // so 101 starts 65,534 past its base (the last that fits) and 102..127 at
  // 65,535 and beyond; group 2 (128..) fits again.
  std::vector<std::uint32_t> degrees(160, 2);
  degrees[1] = 70000;
  degrees[100] = 65462;
  degrees[101] = 1;
  std::vector<std::uint64_t> starts{0};
  for (const std::uint32_t d : degrees) starts.push_back(starts.back() + d);
  const std::uint16_t label = EdgeStore::label(MoveKind::action, false, Chooser::none, -1);
  const auto expect_starts = [&](const EdgeStore& store) {
    ASSERT_EQ(degrees.size(), store.states());
    ASSERT_EQ(starts.back(), store.size());
    for (StateId s = 0; s < degrees.size(); ++s) {
      ASSERT_EQ(starts[s], store.begin(s)) << s;
      ASSERT_EQ(starts[s + 1], store.end(s)) << s;
    }
    const CompactEdges c = store.compact();
    for (StateId s = 0; s < degrees.size(); ++s) {
      const std::uint16_t r = c.rel[s];
      const std::uint64_t begin = r != CompactEdges::wide_rel
                                      ? c.base[s >> CompactEdges::group_shift] + r
                                      : CompactEdges::wide_begin(c.wide, s);
      ASSERT_EQ(starts[s], begin) << s;
    }
    EXPECT_EQ(62U + 26U, c.wide.size());  // states 2..63 and 102..127
  };
  MemoryBudget budget(std::uint64_t{1} << 30);
  {
    SCOPED_TRACE("one state at a time");
    EdgeStore store(budget);
    ASSERT_TRUE(store.reserve(degrees.size(), starts.back()));
    for (const std::uint32_t d : degrees) {
      for (std::uint32_t k = 0; k < d; ++k) store.add(0, label);
      store.close_state();
    }
    expect_starts(store);
  }
  {
    SCOPED_TRACE("in two chunks of tasks, offsets closed last task first");
    EdgeStore store(budget);
    ASSERT_TRUE(store.reserve(degrees.size(), starts.back()));
    (void)store.intern(label);
    for (const auto& [first, end] : {std::pair<std::size_t, std::size_t>{0, 90}, {90, 160}}) {
      const std::size_t mid = (first + end) / 2;
      const std::span<const std::uint32_t> all(degrees);
      const auto a = all.subspan(first, mid - first), b = all.subspan(mid, end - mid);
      store.prepare_close(end);
      store.close_bases(first, starts[first], a);
      store.close_bases(mid, starts[mid], b);
      store.finish_close(end, starts[end]);
      store.close_offsets(mid, starts[mid], b);
      store.close_offsets(first, starts[first], a);
      for (std::uint64_t e = starts[first]; e < starts[end]; ++e) store.set(e, 0, label);
    }
    store.seal();
    expect_starts(store);
  }
}

// A target is stored as 3 bytes relative to its block's reference; one more
// than 2^23 - 1 away either way (or exactly -2^23, the code that marks a far
// target) is listed aside. Every pair round-trips, at the ends of the 32-bit
// range too.
TEST(CompactEdgesTargets, EveryDeltaRoundTripsNearOrFar) {
  constexpr std::int64_t max = CompactEdges::max_delta;
  const std::vector<std::int64_t> refs = {0, 1, max, max + 1, std::int64_t{1} << 31, 0xFFFFFFFF};
  const std::vector<std::int64_t> deltas = {
      0,        1,        -1,      max,        -max,       max + 1,
      -max - 1, -max - 2, 1 << 24, -(1 << 24), 0xFFFFFFFF, -std::int64_t{0xFFFFFFFF}};
  std::vector<std::uint8_t> to;
  std::vector<StateId> ref_of;
  std::vector<StateId> want;
  std::vector<CompactEdges::Far> far;
  std::size_t near = 0;
  for (const std::int64_t r : refs) {
    for (const std::int64_t d : deltas) {
      const std::int64_t t = r + d;
      if (t < 0 || t > 0xFFFFFFFF) continue;
      // One block a pair, so that each edge has its own reference.
      const std::uint64_t e = want.size() << CompactEdges::edge_block_shift;
      to.resize(3 * (e + 1));
      ref_of.push_back(static_cast<StateId>(r));
      want.push_back(static_cast<StateId>(t));
      const bool fits =
          CompactEdges::put_target(to.data(), e, static_cast<StateId>(r), static_cast<StateId>(t));
      EXPECT_EQ(d >= -max && d <= max, fits) << r << " " << d;
      if (fits) {
        ++near;
      } else {
        far.push_back({e, static_cast<StateId>(t)});
      }
    }
  }
  ASSERT_GT(near, 20U);
  ASSERT_GT(far.size(), 10U);
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::uint64_t e = i << CompactEdges::edge_block_shift;
    EXPECT_EQ(want[i], CompactEdges::target(to.data(), ref_of.data(), far, e)) << i;
  }
}

// The store's targets, through both ways of closing states and the compact
// view the analyses read: states with no edge, with 70,000 (past 16-bit
// starts and across many blocks), and targets near their source, at the
// ends of the 3-byte range from their block's reference and past it.
TEST(EdgeStore, TargetsNearAndFarReadBack) {
  std::vector<std::uint32_t> degrees(300, 3);
  for (std::size_t s = 0; s < degrees.size(); s += 7) degrees[s] = 0;
  degrees[1] = 0;
  degrees[2] = 70000;
  degrees[130] = 1000;
  std::vector<std::uint64_t> starts{0};
  for (const std::uint32_t d : degrees) starts.push_back(starts.back() + d);
  const std::uint64_t edges = starts.back();
  // The reference of each block: the source of its first edge.
  std::vector<StateId> source(edges);
  for (StateId s = 0; s < degrees.size(); ++s) {
    for (std::uint64_t e = starts[s]; e < starts[s + 1]; ++e) source[e] = s;
  }
  const auto ref = [&](std::uint64_t e) {
    return source[(e >> CompactEdges::edge_block_shift) << CompactEdges::edge_block_shift];
  };
  const std::int64_t max = CompactEdges::max_delta;
  std::vector<StateId> want(edges);
  std::uint64_t far = 0;
  for (std::uint64_t e = 0; e < edges; ++e) {
    const std::int64_t r = ref(e);
    switch (e % 6) {
      case 0:
        want[e] = source[e] + 1;
        break;  // near
      case 1:
        want[e] = static_cast<StateId>(r + max);
        break;  // the last that fits
      case 2:
        want[e] = static_cast<StateId>(r + max + 1);
        ++far;
        break;  // the first past it
      case 3:
        want[e] = 0xFFFFFFFFU;
        ++far;
        break;  // the largest id
      case 4:
        want[e] = 0;
        break;
      default:
        want[e] = static_cast<StateId>(e);
        break;  // near (e < 2^23)
    }
  }
  const std::uint16_t a = EdgeStore::label(MoveKind::action, false, Chooser::none, -1);
  const std::uint16_t b = EdgeStore::label(MoveKind::pass, true, Chooser::player, 1);
  const auto label = [&](std::uint64_t e) { return e % 5 == 0 ? b : a; };
  const auto expect_edges = [&](const EdgeStore& store) {
    ASSERT_EQ(edges, store.size());
    EXPECT_EQ(far, store.far_targets());
    for (StateId s = 0; s < degrees.size(); ++s) {
      ASSERT_EQ(starts[s], store.begin(s)) << s;
      for (std::uint64_t e = store.begin(s); e < store.end(s); ++e) {
        ASSERT_EQ(want[e], store.target(e)) << e;
        const Edge got = store.edge(e, static_cast<std::uint32_t>(e - starts[s]));
        ASSERT_EQ(want[e], got.to) << e;
        ASSERT_EQ(label(e) == b ? MoveKind::pass : MoveKind::action, got.kind) << e;
      }
    }
    const CompactEdges c = store.compact();
    ASSERT_EQ(edges, c.edges);
    EXPECT_EQ(far, c.far.size());
    for (std::uint64_t e = 0; e < edges; ++e) {
      ASSERT_EQ(want[e], CompactEdges::target(c.to, c.to_ref, c.far, e)) << e;
    }
  };
  MemoryBudget budget(std::uint64_t{1} << 30);
  {
    SCOPED_TRACE("one state at a time");
    EdgeStore store(budget);
    ASSERT_TRUE(store.reserve(degrees.size(), edges));
    std::uint64_t e = 0;
    for (const std::uint32_t d : degrees) {
      for (std::uint32_t k = 0; k < d; ++k, ++e) store.add(want[e], label(e));
      store.close_state();
    }
    expect_edges(store);
  }
  {
    SCOPED_TRACE("in two chunks of tasks, edges written last first");
    EdgeStore store(budget);
    ASSERT_TRUE(store.reserve(degrees.size(), edges));
    (void)store.intern(a);
    (void)store.intern(b);
    for (const auto& [first, end] : {std::pair<std::size_t, std::size_t>{0, 100}, {100, 300}}) {
      const std::size_t mid = (first + end) / 2;
      const std::span<const std::uint32_t> all(degrees);
      const auto x = all.subspan(first, mid - first), y = all.subspan(mid, end - mid);
      store.prepare_close(end);
      store.close_bases(mid, starts[mid], y);
      store.close_bases(first, starts[first], x);
      store.finish_close(end, starts[end]);
      store.close_offsets(first, starts[first], x);
      store.close_offsets(mid, starts[mid], y);
      for (std::uint64_t e = starts[end]; e-- > starts[first];) store.set(e, want[e], label(e));
    }
    store.seal();
    expect_edges(store);
  }
}

}  // namespace
}  // namespace loophole::checker
