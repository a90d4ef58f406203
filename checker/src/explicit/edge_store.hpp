// The moves of an explored graph in CSR form: per state a start offset into
// one array of edge targets, appended in state order as BFS expands states.
// An edge costs 5 bytes: its target (4) and a one-byte label, an index into a
// table of the distinct (kind, progress, chooser, chooser player) tuples the
// run produced (a chooser player only with chooser `player`: at most
// 9 x 2 x (2 + 8) = 180 for the language's 8 players; a game has far fewer). The successor
// index is not stored: edges are kept in successor order, duplicates included,
// so an edge's index is its position in its state's list. Offsets are 2 bytes
// per state, relative to a 64-bit base per 64 states (2.125 bytes a state,
// where 4 bytes relative to a base per 1024 states cost 4.01); a state more
// than 65,534 moves after its group's base has its start in a sorted list
// of its own (CompactEdges::wide_rel: not on the seeds, whose states have a
// few moves each).
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "loophole/checker/explored.hpp"
#include "loophole/model/game.hpp"

#include "memory_budget.hpp"
#include "region.hpp"

namespace loophole::checker {

class EdgeStore {
 public:
  explicit EdgeStore(MemoryBudget& budget);

  // The raw label of a successor (14 bits: kind 4, progress 1, chooser 2,
  // chooser player + 1 4, for players 0..7, and the turn 3: Edge::turn);
  // interned by add().
  static constexpr std::size_t raw_labels = std::size_t{1} << 14;
  static constexpr int max_chooser_player = model::max_players - 1;
  static_assert(max_chooser_player + 1 < 16, "chooser player + 1 must fit its 4 bits");
  [[nodiscard]] static std::uint16_t label(MoveKind kind, bool progress, Chooser chooser,
                                           int chooser_player, int turn = 0) {
    if (chooser_player < -1 || chooser_player > max_chooser_player ||
        static_cast<unsigned>(kind) > static_cast<unsigned>(MoveKind::decline) ||
        static_cast<unsigned>(turn) > static_cast<unsigned>(max_chooser_player)) {
      bad_label(chooser_player);
    }
    return static_cast<std::uint16_t>(static_cast<unsigned>(kind) | (progress ? 1U : 0U) << 4 |
                                      static_cast<unsigned>(chooser) << 5 |
                                      static_cast<unsigned>(chooser_player + 1) << 7 |
                                      static_cast<unsigned>(turn) << 11);
  }

  // Room for `states` closed states and `edges` edges in all; false when the
  // budget refuses.
  // (Grown memory is populated at once, on `parallel` when given, or left
  // to `later` when given.)
  [[nodiscard]] bool reserve(std::uint64_t states, std::uint64_t edges,
                             const ParallelFor& parallel = {}, Backing* later = nullptr);
  // Appends an edge of the open state (the one after the last closed state).
  void add(StateId to, std::uint16_t raw_label);
  void close_state();  // the open state's list is complete; the next state opens

  // The same in bulk, for filling a chunk's edges on several threads:
  // intern() every label first (serial), close_states() gives the open states
  // their degrees (serial, advances size()), then set() writes the edges at
  // their positions (thread-safe for distinct positions).
  std::uint8_t intern(std::uint16_t raw_label);
  void close_states(const std::vector<std::uint32_t>& degrees);
  // close_states() split over the tasks of a chunk, for states [states(),
  // end) whose edges start at known positions: prepare_close(end) (serial),
  // then close_bases() for every task (parallel, each its own run of states
  // and degrees, starting at state `first` and edge `first_edge`), then
  // close_offsets() for every task (parallel, after all close_bases()), and
  // finish_close(end, edges) (serial, any time after close_bases()). The
  // result is close_states()'s.
  void prepare_close(std::uint64_t end);
  void close_bases(std::uint64_t first, std::uint64_t first_edge,
                   std::span<const std::uint32_t> degrees);
  void close_offsets(std::uint64_t first, std::uint64_t first_edge,
                     std::span<const std::uint32_t> degrees);
  void finish_close(std::uint64_t end, std::uint64_t edges);
  void set(std::uint64_t e, StateId to, std::uint16_t raw_label) {
    to_[e] = to;
    attr_[e] = static_cast<std::uint8_t>(code_[raw_label]);
  }

  [[nodiscard]] std::uint64_t states() const { return closed_; }  // states with edge lists
  [[nodiscard]] std::uint64_t size() const { return count_; }     // edges
  [[nodiscard]] std::uint64_t begin(StateId s) const {
    const std::uint16_t r = rel_[s];
    return r != CompactEdges::wide_rel ? base_[s >> group_shift] + r
                                       : CompactEdges::wide_begin(wide_, s);
  }
  [[nodiscard]] std::uint64_t end(StateId s) const { return begin(s + 1); }
  [[nodiscard]] StateId target(std::uint64_t e) const { return to_[e]; }
  [[nodiscard]] Edge edge(std::uint64_t e, std::uint32_t index) const;
  [[nodiscard]] std::uint64_t memory() const;
  // Sorts the starts set_rel() put aside (from several threads, maybe out of
  // order): every serial step does, and the search when it ends; begin()
  // and compact() need it.
  void seal();
  // The arrays in place, for ExploredGraph::compact_edges().
  [[nodiscard]] CompactEdges compact() const;

 private:
  [[noreturn]] static void bad_label(int chooser_player);
  [[nodiscard]] static Edge decode(unsigned raw_label);  // its `to` and `index` unset
  static constexpr unsigned group_shift = CompactEdges::group_shift;
  static constexpr std::uint64_t group_mask = (std::uint64_t{1} << group_shift) - 1;
  void open_state();
  void set_rel(std::uint64_t s, std::uint64_t count);

  MemoryBudget& budget_;
  StableArray<StateId> to_;
  StableArray<std::uint8_t> attr_;
  StableArray<std::uint16_t> rel_;  // start of state s relative to base_[s >> group_shift]
  std::vector<std::uint64_t> base_;
  // The starts too far from their bases (rel_ wide_rel), by state once
  // finish_close() or close_state() sorted them; set_rel() may append from
  // several threads.
  std::vector<CompactEdges::Wide> wide_;
  std::mutex wide_mutex_;
  bool wide_unsorted_ = false;
  std::array<std::int16_t, raw_labels> code_;  // raw label -> attr byte, -1 when not yet seen
  std::vector<std::uint16_t> raw_;             // attr byte -> raw label
  std::uint64_t closed_ = 0;
  std::uint64_t count_ = 0;
};

}  // namespace loophole::checker
