// What travels between ranks, and how a rank knows whose a state is: the
// global ids ((rank << 40) | local number), a move's label word, the
// control fields the cycle analyses cut the graph by, and the hash that
// partitions the states. Private to loophole::distributed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "loophole/checker/generator.hpp"
#include "loophole/checker/semantics.hpp"

namespace loophole::distributed::detail {

constexpr std::uint64_t k_initial = std::uint64_t{1} << 63;  // parent of an initial state
constexpr unsigned k_rank_shift = 40;
constexpr std::uint64_t k_local_mask = (std::uint64_t{1} << k_rank_shift) - 1;

// A move travels as a label word: its successor index (24 bits), whether it
// enters a step, who chooses it, the chooser, its kind, and the control
// fields of the state at its other end (ctl(): the source's on the way to
// the successor's owner, the successor's on the way back).
constexpr unsigned k_index_bits = 24;
constexpr unsigned k_ctl_shift = 35;
constexpr std::uint64_t k_index_mask = (std::uint64_t{1} << k_index_bits) - 1;

inline std::uint64_t label_of(std::size_t index, const checker::MoveFields& m, std::uint32_t ctl) {
  return static_cast<std::uint64_t>(index) | (std::uint64_t{m.progress} << 24) |
         (static_cast<std::uint64_t>(m.chooser) << 25) |
         (static_cast<std::uint64_t>((m.chooser_player + 1) & 15) << 27) |
         (static_cast<std::uint64_t>(m.kind) << 31) |
         (static_cast<std::uint64_t>(ctl) << k_ctl_shift);
}
inline std::uint64_t with_ctl(std::uint64_t label, std::uint32_t ctl) {
  return (label & ((std::uint64_t{1} << k_ctl_shift) - 1)) |
         (static_cast<std::uint64_t>(ctl) << k_ctl_shift);
}
inline std::uint32_t ctl_of_label(std::uint64_t label) {
  return static_cast<std::uint32_t>(label >> k_ctl_shift);
}
inline bool progress_of(std::uint64_t label) { return ((label >> 24) & 1U) != 0; }
inline checker::Edge edge_of(std::uint64_t label) {
  checker::Edge e;
  e.index = static_cast<std::uint32_t>(label & k_index_mask);
  e.progress = progress_of(label);
  e.chooser = static_cast<checker::Chooser>((label >> 25) & 3U);
  e.chooser_player = static_cast<std::int8_t>(static_cast<int>((label >> 27) & 15U) - 1);
  e.kind = static_cast<checker::MoveKind>((label >> 31) & 15U);
  return e;
}

// The control fields the cycle analyses' subgraphs are cut by (properties'
// Point): whether the game is over, the step, the active player, the turn.
struct Ctl {
  std::uint32_t over, step1, active, turn;  // step1: step + 1
};
inline Ctl ctl_fields(std::uint32_t c) {
  return {c & 3U, (c >> 2) & 1023U, (c >> 12) & 7U, (c >> 15) & 1023U};
}
inline std::uint32_t ctl_of(const checker::Layout& layout, const std::int32_t* s) {
  const auto u = [](std::int32_t v, std::uint32_t mask) {
    return static_cast<std::uint32_t>(v) & mask;
  };
  return u(s[layout.over], 3U) | (u(s[layout.step] + 1, 1023U) << 2) |
         (u(s[layout.active], 7U) << 12) | (u(s[layout.turn], 1023U) << 15);
}

// The three subgraphs (Options::cycles): moves that enter no step
// (response loops), moves within a turn (turn loops), moves among states
// that cannot finish (stalemates).
enum Subgraph : unsigned { k_quiet, k_same_turn, k_stuck, k_subgraphs, k_all = k_subgraphs };
// The cores gathered (the cycle analyses'): k_all's (Options::end_marks:
// every move, for whether the game can go on forever) is not.
constexpr std::uint8_t k_gathered_cores = (1U << k_subgraphs) - 1;
// A state's bit in core_ that OWCTY left it in one of those subgraphs (on
// or between its cycles; the bits below: in a cyclic component).
constexpr std::uint8_t k_owcty_core = 1U << (k_subgraphs + 1);
// Options::end_marks: a state's bit in marks_ that a cycle can be reached
// (backwards from k_all's core).
constexpr std::uint64_t k_endless = std::uint64_t{1} << 63;

inline std::uint64_t hash_words(const std::uint64_t* w, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= w[i];
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  }
  h ^= h >> 29;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 32;
  return h;
}

}  // namespace loophole::distributed::detail
