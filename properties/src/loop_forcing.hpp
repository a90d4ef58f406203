// Who can force a loop: the coalitions of players that can keep the play in a
// loop's strongly connected component forever, whatever the other players
// and nature choose (nature adversarial). A safety game on the component:
// the greatest set of its states where a coalition's state has a move whose
// outcomes all stay in the set (one, where the coalition picks the outcome)
// and every move of anyone else does. Solved by counters: one pass over the
// component's internal edges per coalition, each edge decremented at most
// once, so a loop costs time linear in its component's edges (and the
// generator's successors of its states, which give the moves).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loophole/checker/generator.hpp"

#include "context.hpp"

namespace loophole::properties::detail {

class LoopForcing {
 public:
  explicit LoopForcing(const Context& cx);
  // The smallest coalitions (bit p for player p) that can force the play to
  // stay forever in `members` (sorted; a component of the `keep` edges)
  // from `entry`, by moves along `keep` edges; {0} when nobody can leave it,
  // {} when no coalition of players can keep it (nature or the rules end it).
  [[nodiscard]] std::vector<std::uint32_t> coalitions(const std::vector<StateId>& members,
                                                      StateId entry, const EdgePredicate& keep);

 private:
  const Context& cx_;
  std::unique_ptr<checker::Generator> generator_;  // made on first use
};

// The detail line: "P1 alone can force this loop, ...".
std::string forcing_detail(const std::vector<std::uint32_t>& coalitions, int players);

}  // namespace loophole::properties::detail
