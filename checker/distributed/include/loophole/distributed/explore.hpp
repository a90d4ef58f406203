// The explicit search distributed over MPI ranks (issue 38, first part):
// states are hash-partitioned over the ranks of a communicator by a hash of
// the whole state, each rank expands the states it owns with the compiled
// generator and sends every successor to its owner. The search is
// level-synchronous, and the exchange overlaps expansion: successors for
// another rank go in messages of a few thousand states, sent non-blocking
// as soon as that many are queued and received between expansions, and a
// level ends once every rank has every other rank's end-of-level marker.
// A level is expanded in rounds of at most `batch` states a rank, and an
// all-reduce a round carries the stop flags (a limit, a signal) so that
// every rank stops at the same round.
//
// What it answers so far: the state and transition counts and the BFS depth,
// and the state-local questions the caller asks (Options::questions:
// deadlocks grouped by control point, rule gaps by statement, ...), each
// group with its state count and a shortest trace rebuilt across the ranks
// (the parent chain is followed from owner to owner) and replayed on the
// reference semantics on rank 0. States are numbered as the single-process
// search numbers them (level by level, in the order a one-thread
// breadth-first search meets them), and each keeps the parent that search
// gives it, so traces are those of `check`.
//
// With Options::cycles, a complete search then keeps going on the
// partitioned graph for the cycle analyses (see Options::cycles).
//
// Every call is collective: all ranks of `comm` call it with the same game.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include "loophole/checker/explored.hpp"
#include "loophole/checker/generator.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/checker/trace.hpp"

namespace loophole::distributed {

// A question asked of every state, by whoever runs the search (properties/
// describes them: state_groups.hpp): the keys of the groups the state
// belongs to, none, one or several, given the moves out of it (empty: a
// state that has no successor, or is over).
using GroupKey = std::vector<std::int64_t>;
using StateQuestion =
    std::function<void(const checker::StateVec& state, std::span<const checker::MoveFields> moves,
                       std::vector<GroupKey>& keys)>;

// A group: how many states have its key, and a shortest trace to one.
struct Group {
  std::uint64_t states = 0;
  std::uint32_t depth = 0;              // BFS level of the shallowest state
  std::optional<checker::Trace> trace;  // rank 0 only, if traced: to a shallowest state
};

// What the run knew at its last finished round (rank 0's view).
struct Snapshot {
  std::uint64_t states = 0;       // stored on all ranks
  std::uint64_t transitions = 0;  // generated on all ranks
  std::uint32_t depth = 0;        // BFS levels begun
  double seconds = 0;
};

// One cyclic component's summary (Options::summarize): its subgraph (0
// response loops, 1 turn loops, 2 stalemates), its entry (a state of the
// slice summarised; then its number in the single-process order, filled in
// by the search), the caller's words (what makes loops one finding, the
// lasso's length) and, on rank 0, its root (the component's id).
struct ComponentSummary {
  unsigned subgraph = 0;
  checker::StateId entry = checker::no_state;
  std::uint64_t num = 0;
  std::vector<std::uint64_t> words;
  std::uint64_t root = 0;
};

struct Options {
  std::uint64_t max_states = 0;    // 0: no limit (a global count, checked a round)
  double timeout_seconds = 0;      // 0: none (rank 0's clock decides)
  std::uint64_t max_resident = 0;  // bytes a rank may hold resident; 0: none
  std::size_t batch = 4096;        // states a rank expands per round (between limit checks)
  // States a message to another rank carries at most (it is sent once so
  // many are queued, the rest at the level's end), and the sends a rank
  // may have outstanding before it waits for one to complete.
  std::size_t message_states = 4096;
  std::size_t in_flight = 8;
  // Threads expanding a rank's states (0 and 1: the rank's own only); the
  // questions are asked on every thread, each with its own copy:
  // thread_questions() makes one (the same list as `questions`; a
  // question may keep scratch that one thread at a time may use).
  // Only the calling thread calls MPI (MPI_THREAD_FUNNELED is enough).
  std::size_t threads = 1;
  std::function<std::vector<StateQuestion>()> thread_questions;
  // Set by a signal handler (SIGINT; SIGTERM, which mpirun sends every rank
  // when it is interrupted or a rank dies): the run stops at the next round
  // with Completion::interrupted.
  const std::atomic<bool>* interrupt = nullptr;
  // Rank 0: when `interrupt` is set and the run has not ended `grace_seconds`
  // later (a rank died, so the next collective never completes; mpirun
  // sends SIGKILL one second after its SIGTERM), called from a watcher
  // thread with the last snapshot; the process then ends with exit code 3.
  std::function<void(const Snapshot&)> on_abandon;
  double grace_seconds = 0.4;
  // Asked of every state once it is expanded (on every rank: the same list).
  std::vector<StateQuestion> questions;
  // Per question, whether its groups get a trace (rebuilding one costs a
  // broadcast per move); empty: all do. Existence questions (a rule seen
  // alive, an end condition reached) need none.
  std::vector<bool> traced;
  // The cycle analyses (response loops, turn loops, stalemates): each rank
  // keeps the moves into the states it owns and, after a complete search,
  // (1) sends them to the source's owner (every rank then has the moves out
  // of and into its states), (2) searches backwards from the final states
  // for the sets `marks` names (level-synchronous, one all-to-all a round),
  // (3) for each analysis' subgraph removes, round by round, the states with
  // no move into or out of them within it (OWCTY elimination), which leaves
  // the states on or between its cycles, then splits those into strongly
  // connected components (coloring, on the ranks) and keeps the states of
  // the cyclic ones, and (4) gathers on rank 0 those states with their
  // moves, the states the moves lead to and the parent chains of all of
  // them: Result::slice. Only that part of the graph is gathered, never the
  // whole of it, nor the states between cycles.
  bool cycles = false;
  // The bits of a final state (`over` != 0) to search backwards from: bit 0
  // (every final state) gives Result::can_finish; bits 1 + 2p (player p
  // loses) and 2 + 2p (a final state where p does not lose) give
  // Result::doomed. Asked on the rank that owns the state, with who the
  // moves into it named (`endings`; else checker::Ending{.conditions = true}).
  std::function<std::uint32_t(const checker::StateVec& state, const checker::Ending& ending)> marks;
  // Whether `marks` and `end_marks` are told who the moves into a
  // game-over state named (a statement of the rules ends the game:
  // properties::ends_by_statement): then each move into one is recomputed,
  // with its record, on its source's owner.
  bool endings = false;
  // Ends out of reach (with `cycles`): the bits of a final state to search
  // backwards from besides `marks` (properties::end_marks: bit 0 a real
  // end, 1 + 2p player p loses there, 2 + 2p p wins), kept from bit
  // 1 + 2 * players on. Then the whole graph is trimmed too (every move, for
  // whether a cycle can be reached), the earliest state of each ends-out-
  // of-reach finding is found, and rank 0 also gathers those states and,
  // from each that cannot go on forever, the states nearer than the nearest
  // rule gap with their moves (the search for the gap it is a consequence
  // of): Result::can_end and the fields after it.
  std::function<std::uint64_t(const checker::StateVec& state, const checker::Ending& ending)>
      end_marks;
  // leads_to properties (with `cycles`; properties::leads_to_marks): per
  // property k, bit 2k its `from` holds in a state, 2k + 1 its `to`. Each
  // move's source learns its target's bits; per property, OWCTY on the
  // states where `to` does not hold and the game goes on, then a backward
  // search within them from what remains and their dead ends, gives the
  // states that can avoid `to` forever; an all-reduce the earliest `from`
  // state among them; rank 0 gathers the states of the region reachable
  // from it, with their moves: Result::leads_bits and leads_bad.
  std::function<std::uint64_t(const checker::StateVec& state)> leads_marks;
  std::size_t leads_count = 0;  // leads_to properties (at most 32)
  // The cyclic components summarised where they are, and only those chosen
  // gathered (with `cycles`; properties::loop_summaries, loop_counts). Each
  // component goes whole to one rank (by a hash of its root), with its moves and the states
  // they lead to; `summarize` runs there on a slice of that rank's
  // components (every state with its depth and number; can_finish per slice
  // state; designated: bit k, a state of subgraph k's component) and
  // returns their summaries (on Options::threads threads at once, each with
  // a slice of its own); rank 0 gathers every rank's (Result::summaries)
  // and `choose` gives the indices of those whose components it gathers
  // into Result::slice. Unset: every cyclic component is gathered.
  std::function<std::vector<ComponentSummary>(const checker::ExploredGraph& slice,
                                              std::vector<bool> can_finish,
                                              const std::vector<std::uint8_t>& designated)>
      summarize;
  std::function<std::vector<std::size_t>(const std::vector<ComponentSummary>& all)> choose;
};

struct RankFigures {
  std::uint64_t states = 0;           // owned
  std::uint64_t transitions = 0;      // generated from owned states
  std::uint64_t bytes_sent = 0;       // to other ranks
  std::uint64_t messages = 0;         // nonempty sends to other ranks
  std::uint64_t peak_resident = 0;    // of the process (VmHWM)
  std::uint64_t store_bytes = 0;      // the state store's chunks and index, numbers, move indices
  std::uint64_t edge_bytes = 0;       // Options::cycles: the moves kept (in and out) and marks
  std::uint64_t largest_message = 0;  // bytes, of the search's messages (message_states bounds it)
};

struct Result {
  checker::Completion completion = checker::Completion::complete;
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  std::uint32_t depth = 0;  // BFS levels, as checker::Statistics::depth counts them
  double seconds = 0;
  int ranks = 1;
  std::vector<std::map<GroupKey, Group>> answers;  // per question, on every rank
  std::vector<RankFigures> per_rank;               // rank 0 only
  // Options::cycles, on rank 0, after a complete search (null otherwise, or
  // when a stop came during the cycle phase): the slice of the graph, its
  // states numbered in the single-process order, and for each of its
  // states whether a final state can be reached (can_finish) and, per
  // player, whether only that player's loss can be (doomed).
  std::unique_ptr<checker::ExploredGraph> slice;
  std::vector<bool> can_finish;
  std::vector<std::vector<bool>> doomed;
  // States on or between cycles (what OWCTY leaves), and those of them in
  // a cyclic component (what is gathered), over the three subgraphs; the
  // rounds of the SCC searches that told them apart.
  std::uint64_t core_states = 0, cyclic_states = 0, scc_rounds = 0;
  // Of those, the states of the components gathered (Options::summarize:
  // those chosen; else all), and every component's summary (rank 0) with,
  // per slice state, the subgraphs whose chosen component it is in (bit k).
  std::uint64_t shown_states = 0;
  std::vector<ComponentSummary> summaries;
  std::vector<std::uint8_t> designated;
  double gather_seconds = 0;     // gathering the slice (rank 0's clock)
  double summarize_seconds = 0;  // Options::summarize: the components summarised, chosen
  // Per stack-overflow gap site (1-based): its states in the whole graph.
  // The slice holds the first 4,096 of each (in the single-process order).
  std::map<int, std::uint64_t> overflows;
  // Options::end_marks, per slice state (as can_finish): a real end can be
  // reached, a cycle can be (the game can go on forever), and per player
  // their loss, their win; and whether an initial state of the whole graph
  // can reach a real end, and each player's loss.
  std::vector<bool> can_end, endless;
  std::vector<std::vector<bool>> can_lose, can_win;
  bool start_can_end = false;
  std::vector<bool> start_can_lose;
  // Options::leads_marks, per slice state: bit 2k when property k's `to`
  // does not hold and the game goes on, 2k + 1 a dead end among those
  // states; per property, its earliest failing `from` state in the
  // slice (checker::no_state: none).
  std::vector<std::uint64_t> leads_bits;
  std::vector<checker::StateId> leads_bad;
};

[[nodiscard]] Result explore(const checker::Semantics& sem, MPI_Comm comm, const Options& options);

}  // namespace loophole::distributed
