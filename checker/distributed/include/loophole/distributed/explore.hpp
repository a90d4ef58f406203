// The explicit search distributed over MPI ranks (issue 38, first part):
// states are hash-partitioned over the ranks of a communicator by a hash of
// the whole state, each rank expands the states it owns with the compiled
// generator and sends every successor to its owner. The search is
// level-synchronous: a level is expanded in rounds of at most `batch`
// states a rank, one all-to-all exchange a round, so that messages stay
// bounded (a few thousand states) whatever the level's size, and an
// all-reduce a round carries the stop flags (a limit, a signal) so that
// every rank stops at the same round.
//
// What it answers so far: the state and transition counts and the BFS depth,
// and the state-local questions the caller asks (Options::questions:
// deadlocks grouped by control point, rule gaps by statement, ...), each
// group with its state count and a shortest trace rebuilt across the ranks
// (the parent chain is followed from owner to owner) and replayed on the
// reference semantics on rank 0. The cycle-based analyses are not
// distributed yet.
//
// Every call is collective: all ranks of `comm` call it with the same game.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
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

struct Options {
  std::uint64_t max_states = 0;    // 0: no limit (a global count, checked a round)
  double timeout_seconds = 0;      // 0: none (rank 0's clock decides)
  std::uint64_t max_resident = 0;  // bytes a rank may hold resident; 0: none
  std::size_t batch = 4096;        // states a rank expands per round
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
};

struct RankFigures {
  std::uint64_t states = 0;         // owned
  std::uint64_t transitions = 0;    // generated from owned states
  std::uint64_t bytes_sent = 0;     // to other ranks
  std::uint64_t messages = 0;       // nonempty sends to other ranks
  std::uint64_t peak_resident = 0;  // of the process (VmHWM)
  std::uint64_t store_bytes = 0;    // the state store's chunks and index at the end
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
};

[[nodiscard]] Result explore(const checker::Semantics& sem, MPI_Comm comm, const Options& options);

}  // namespace loophole::distributed
