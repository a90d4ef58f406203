// Simulation: random playouts of a game's rules, at any scope. Where the
// explicit engine stores every state, a playout keeps only its current state
// and the moves it took, so deck sizes no exhaustive search reaches are
// played through; what comes back is statistics (who wins, how long games
// last, which rules are used) and every rule gap, deadlock and violated
// `always`/`never` property met on the way, each with a trace replayed on the
// reference semantics. Every game has its own random stream, derived from
// (seed, game index), so the results are the same for any thread count.
// Perfect information is not an issue here (nobody plans), but the policies
// below see the whole state: hidden information is not modelled.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "loophole/checker/semantics.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::simulate {

// How a player picks among their moves (docs/simulate.md).
enum class Policy : std::uint8_t {
  uniform,  // each move (action, pass, trigger, decline) equally likely
  greedy,   // the move whose outcomes raise the mover's end-condition potential most
};

struct Options {
  std::uint64_t games = 1000;
  std::uint64_t seed = 1;
  int threads = 0;  // 0 = all cores
  Policy policy = Policy::uniform;
  std::uint32_t max_moves = 10000;  // a playout longer than this is cut off
  double timeout_seconds = 0;       // 0 = none
  const std::atomic<bool>* interrupt = nullptr;
  // Run the rules as machine code (checker::Generator): the same games.
  bool native = false;
};

// How a playout ended.
enum class Ending : std::uint8_t {
  over,      // the game ended (an end condition, or a win/lose effect)
  gap,       // a rule gap
  deadlock,  // a state that is not over and has no move
  cut_off,   // Options::max_moves moves without an end
};

// A 95% Wilson score interval of a proportion k/n ({0, 1} when n is 0).
struct Interval {
  double lo = 0, hi = 1;
};
[[nodiscard]] Interval wilson(std::uint64_t k, std::uint64_t n);

// How often one action, trigger or step was used: moves that took the
// action or resolved the trigger, or entered the step.
struct Usage {
  std::string rule;  // "action:spark", "trigger:upkeep", "step:main.draw"
  model::SourceSpan where;
  std::uint64_t uses = 0;
  std::uint64_t games = 0;  // games in which it was used at least once
};

struct Result {
  std::uint64_t games = 0;  // played to an ending (fewer than asked when stopped)
  std::uint64_t requested = 0;
  std::uint64_t seed = 0;
  Policy policy = Policy::uniform;
  std::uint32_t max_moves = 0;
  int threads = 1;
  std::string generator;  // checker::Generator::name()
  // "complete", "time-limit" or "interrupted".
  std::string completion = "complete";
  double seconds = 0;

  // Per seat (player index): games won, games lost.
  std::vector<std::uint64_t> wins, losses;
  // Games over with no single winner (a loss in a game of more than two
  // players, a win that is not one player's).
  std::uint64_t no_winner = 0;
  std::uint64_t ended = 0, gaps = 0, deadlocks = 0, cut_off = 0;  // by Ending

  // Game length in moves: lengths[m] games had m moves (m <= max_moves).
  std::vector<std::uint64_t> lengths;
  std::uint32_t min_length = 0, median_length = 0, p90_length = 0, max_length = 0;

  std::vector<Usage> actions, triggers, steps;  // in declaration order

  // Every rule gap, deadlock (by control point) and violated always/never
  // property met, each once, with the trace of the first game (by index)
  // that met it; Finding::details says in how many games it was met.
  std::vector<properties::Finding> problems;
  std::vector<std::uint64_t> problem_games;  // per problem: games that met it
};

// Plays Options::games games of sem's rules. Stops early (Result::completion)
// at the time limit or when *interrupt is set, with the games played so far.
[[nodiscard]] Result simulate(const checker::Semantics& sem, const Options& options);

[[nodiscard]] std::string_view to_string(Policy p);  // "uniform", "greedy"

}  // namespace loophole::simulate
