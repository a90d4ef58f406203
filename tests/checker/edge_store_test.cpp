// The edge store's labels: every (kind, progress, chooser, chooser player)
// the language can produce, for up to its 8 players, packs into a raw label
// and reads back from the stored edge; a player outside that range is an
// internal error, not a wrong edge.
#include "explicit/edge_store.hpp"

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

// Under player symmetry a label also holds the move's turn (Edge::turn, the
// successor's active player before it was rotated to P1), which PlayerView
// rotates by: each of the 8 reads back beside any other field, and a turn
// of 0 is the label of a search without player symmetry.
TEST(EdgeStore, EveryTurnReadsBackWithTheOtherFields) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  EdgeStore store(budget);
  ASSERT_TRUE(store.reserve(1, 16));
  for (int turn = 0; turn <= EdgeStore::max_chooser_player; ++turn) {
    store.add(static_cast<StateId>(turn),
              EdgeStore::label(MoveKind::action, true, Chooser::player, 7 - turn, turn));
    store.add(static_cast<StateId>(100 + turn),
              EdgeStore::label(MoveKind::decline, false, Chooser::none, -1, turn));
  }
  store.close_state();
  ASSERT_EQ(16U, store.end(0) - store.begin(0));
  for (int turn = 0; turn <= EdgeStore::max_chooser_player; ++turn) {
    const auto at = store.begin(0) + 2 * static_cast<std::uint64_t>(turn);
    const Edge a = store.edge(at, 0);
    EXPECT_EQ(turn, a.turn);
    EXPECT_EQ(MoveKind::action, a.kind);
    EXPECT_TRUE(a.progress);
    EXPECT_EQ(Chooser::player, a.chooser);
    EXPECT_EQ(7 - turn, a.chooser_player);
    const Edge b = store.edge(at + 1, 1);
    EXPECT_EQ(turn, b.turn);
    EXPECT_EQ(MoveKind::decline, b.kind);
    EXPECT_EQ(-1, b.chooser_player);
  }
  EXPECT_EQ(EdgeStore::label(MoveKind::action, false, Chooser::none, -1),
            EdgeStore::label(MoveKind::action, false, Chooser::none, -1, 0));
  EXPECT_THROW((void)EdgeStore::label(MoveKind::action, false, Chooser::none, -1, 8),
               std::logic_error);
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

}  // namespace
}  // namespace loophole::checker
