// The edge store's labels: every (kind, progress, chooser, chooser player)
// the language can produce, for up to its 8 players, packs into a raw label
// and reads back from the stored edge; a player outside that range is an
// internal error, not a wrong edge.
#include "explicit/edge_store.hpp"

#include <stdexcept>
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

}  // namespace
}  // namespace loophole::checker
