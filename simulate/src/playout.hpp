// One thread's playouts and what they add up to. A Playout plays game i from
// its own random stream (seed, i) and adds its ending, length, winner and
// rule uses to the thread's Tally; the tallies of all threads are summed in
// any order (sums only), and each problem keeps the playout of its lowest
// game index, so the merged result does not depend on which thread played
// which game.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "loophole/checker/conditions.hpp"
#include "loophole/checker/generator.hpp"
#include "loophole/simulate/simulate.hpp"

#include "potential.hpp"

namespace loophole::simulate::detail {

// C(n, k), as a double (the weight of taking k of n cards).
[[nodiscard]] double binomial(std::int32_t n, std::int32_t k);

// A problem met in a playout: what it is and where.
struct ProblemKey {
  properties::Kind kind = properties::Kind::rule_gap;
  int a = -1, b = -1, c = -1;  // gap site; or step, stage, seat; or property
  friend auto operator<=>(const ProblemKey&, const ProblemKey&) = default;
};

// The first playout (lowest game index) that met a problem.
struct Example {
  std::uint64_t game = ~std::uint64_t{0};
  std::uint64_t games = 0;  // games that met it
  std::uint32_t initial = 0;
  std::vector<std::uint32_t> moves;  // up to the state where it was met
  checker::StateVec last;            // that state
};

struct Tally {
  std::uint64_t games = 0;
  std::vector<std::uint64_t> wins, losses;
  std::uint64_t no_winner = 0, ended = 0, gaps = 0, deadlocks = 0, cut_off = 0;
  std::vector<std::uint64_t> lengths;
  std::vector<std::uint64_t> action_uses, action_games, trigger_uses, trigger_games, step_uses,
      step_games;
  std::map<ProblemKey, Example> problems;
};

// What every thread shares (read only).
struct Shared {
  const checker::Semantics& sem;
  const checker::Generator& generator;
  const Options& options;
  std::vector<checker::StateVec> initial;
  std::vector<double> initial_weights;
  std::vector<int> zone_slots;                  // data slots that count cards in a zone
  std::vector<const model::Property*> watched;  // always/never properties
  std::unique_ptr<Potential> potential;         // greedy only
  std::atomic<bool> stop{false};                // set by the driver: a limit or a signal
};

class Playout {
 public:
  Playout(const Shared& shared, Tally& tally);
  // Plays game `game`; false when Shared::stop cut it short (it counts nothing).
  bool play(std::uint64_t game);

 private:
  struct Group {
    std::size_t first = 0, end = 0;
  };
  std::uint64_t next();
  double unit();
  std::size_t below(std::size_t n);
  [[nodiscard]] double weight(const std::int32_t* before, const std::int32_t* after) const;
  std::size_t weighted(const std::int32_t* before, std::size_t first, std::size_t end);
  std::size_t choose(const std::int32_t* before);
  void check_properties(const std::int32_t* state, std::uint64_t game);
  void met(const ProblemKey& key, std::uint64_t game, const std::int32_t* state);
  void finish(std::uint64_t game);

  const Shared& sh_;
  Tally& t_;
  checker::Generator::Buffer buf_;
  checker::Conditions conditions_;
  std::vector<Group> groups_;
  std::vector<double> weights_;
  std::vector<std::size_t> best_;
  std::uint64_t rng_ = 0;
  std::uint32_t initial_ = 0;
  std::vector<std::uint32_t> moves_;
  checker::StateVec state_, prev_;
  std::vector<bool> violated_;  // per watched property, in this game
  std::vector<std::uint64_t> action_seen_, trigger_seen_, step_seen_;  // 1 + last game using it
  std::vector<checker::Successor> ref_;
};

}  // namespace loophole::simulate::detail
