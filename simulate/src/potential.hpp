// The greedy policy's yardstick: how close a state is to the end conditions
// that favour a player. Each end condition is read as a sum of comparisons
// (`and`/`or` add up, `not` negates); a comparison `L op R` whose sides are
// linear in the state's counters (variables, zone counts, constants, + - and
// products with a constant) scores by how far it is from holding: for `<` and
// `<=`, R - L; for `>` and `>=`, L - R; for `==`, -|L - R|; anything else 0.
// A player's potential is the sum over (end condition, player it is checked
// for) of that score, added when it favours them (their win, another's loss)
// and subtracted when it does not. Only the declared `end:` conditions count:
// a `win`/`lose` inside an effect is invisible to it (docs/simulate.md).
#pragma once

#include <cstdint>
#include <vector>

#include "loophole/checker/semantics.hpp"
#include "loophole/model/game.hpp"

namespace loophole::simulate::detail {

class Potential {
 public:
  // Reads the active player and the turn order (`ctl.order`, 1 reversed;
  // a field only when a rule reverses it) at their places in `layout`.
  Potential(const model::Game& game, const checker::Layout& layout);
  // The potential of `state` for player `p`.
  [[nodiscard]] std::int64_t of(const std::int32_t* state, int p) const;
  // Whether any end condition gave a comparison to score.
  [[nodiscard]] bool empty() const { return atoms_.empty(); }

 private:
  struct Term {
    int slot = 0;
    std::int64_t coef = 0;
  };
  struct Atom {
    model::Op op = model::Op::eq;  // lt/le/gt/ge/eq, after folding `not`
    std::vector<Term> terms;       // L - R as Σ coef · state[slot] + constant
    std::int64_t constant = 0;
    std::int64_t sign = 1;  // -1 under a `not`
    int self = 0;           // the player the condition is checked for
    int active = 0;         // the active player it was resolved for
    bool reversed = false;  // and the turn order (`opponent`, next/prev_player)
    bool win = true;        // the end condition's outcome for `self`
  };
  void atoms_of(const model::Expr& e, int self, int active, bool reversed, bool win,
                std::int64_t sign);

  const model::Game& game_;
  int active_field_;
  int order_field_;
  std::vector<Atom> atoms_;
};

}  // namespace loophole::simulate::detail
