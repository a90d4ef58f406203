// strategy_tree (strategy.hpp): a depth-first walk of the strategy's
// branches on the explored graph, the coalition's moves from the analysis,
// every other successor as a reply.
#include <algorithm>

#include "loophole/properties/strategy.hpp"

namespace loophole::properties {

StrategyTree strategy_tree(const checker::ExploredGraph& graph, const StrategyAnalysis& a,
                           std::size_t k, bool win, checker::StateId initial,
                           std::uint32_t max_choices, std::size_t max_nodes) {
  StrategyTree tree;
  const CoalitionStrategy& st = a.coalitions.at(k);
  const std::uint32_t c = st.members;
  tree.nodes.push_back({initial, 0, StrategyTree::By::forced, StrategyTree::End::none, 0, {}});
  std::vector<checker::StateId> branch;  // the states on the path to the node
  const auto final_state = [&](checker::StateId v) { return a.moves(v) == 0; };
  // (A recursive walk: branches are at most max_choices coalition moves and
  // the win ranks deep, and every node is counted against max_nodes.)
  const auto walk = [&](const auto& self, std::size_t at) -> void {
    const checker::StateId v = tree.nodes[at].state;
    if (final_state(v)) {
      if (tree.nodes[at].end == StrategyTree::End::none)
        tree.nodes[at].end = StrategyTree::End::lost;
      return;
    }
    // (An endless strategy comes back to its states; so does a win one
    // against a fair coin, which wins with probability 1, not within a bound.)
    if (std::find(branch.begin(), branch.end(), v) != branch.end()) {
      tree.nodes[at].end = StrategyTree::End::repeat;
      return;
    }
    const std::uint32_t choices = tree.nodes[at].choices;
    const bool chooses = a.chooses(v, c);
    if (chooses && choices >= max_choices) {
      tree.nodes[at].end = StrategyTree::End::cut;
      tree.cut = true;
      return;
    }
    const std::int32_t move = win ? st.win_move[v] : st.endless_move[v];
    const std::vector<checker::Edge> edges = graph.edges(v);
    std::size_t outcomes = 0;  // of the coalition's move
    if (chooses && move != no_move) {
      const std::uint16_t m = a.move(v, static_cast<std::size_t>(move));
      for (const checker::Edge& e : edges) outcomes += a.move(v, e.index) == m ? 1 : 0;
      if (a.picks(v, m, c)) outcomes = 1;
    }
    std::vector<std::size_t> kids;
    for (const checker::Edge& e : edges) {
      StrategyTree::By by = edges.size() == 1 ? StrategyTree::By::forced : StrategyTree::By::reply;
      if (chooses) {
        const std::uint16_t m = a.move(v, e.index);
        if (move == no_move || m != a.move(v, static_cast<std::size_t>(move))) continue;
        if (a.picks(v, m, c) && e.index != static_cast<std::uint32_t>(move)) continue;
        // The coalition's move; several outcomes of it are nature's.
        by = outcomes == 1 ? StrategyTree::By::coalition : StrategyTree::By::outcome;
      }
      if (tree.nodes.size() >= max_nodes) {
        tree.nodes[at].end = StrategyTree::End::cut;
        tree.cut = true;
        break;
      }
      StrategyTree::Node child{
          e.to, e.index, by, StrategyTree::End::none, choices + (chooses ? 1U : 0U), {}};
      if (a.winner[a.edge_begin[v] + e.index] >= 0 &&
          ((c >> static_cast<unsigned>(a.winner[a.edge_begin[v] + e.index])) & 1U) != 0) {
        child.end = StrategyTree::End::win;
      }
      tree.nodes[at].children.push_back(tree.nodes.size());
      kids.push_back(tree.nodes.size());
      tree.nodes.push_back(child);
    }
    branch.push_back(v);
    for (const std::size_t kid : kids) {
      if (tree.nodes[kid].end == StrategyTree::End::win) continue;
      self(self, kid);
    }
    branch.pop_back();
  };
  walk(walk, 0);
  return tree;
}

}  // namespace loophole::properties
