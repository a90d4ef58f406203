// analyse_strategies (strategy.hpp). Each state's successors are grouped
// into moves as the simulator groups them (consecutive successors of one
// kind, player and action or trigger: checker::Generator gives those
// fields); the first level is the owner's choice of a move, the second
// nature's (or the picker's) choice of an outcome. Both objectives are
// solved by rounds over all states (round k adds the states that force the
// objective using only states of earlier rounds), which gives every state
// of the win region a rank that the witness move decreases: replaying the
// witness against every reply reaches a win in at most rank moves.
#include "loophole/properties/strategy.hpp"

#include <algorithm>

#include "loophole/checker/generator.hpp"

namespace loophole::properties {
namespace {

using checker::StateId;

struct Node {
  std::vector<checker::Edge> edges;  // by successor index
  bool final = false;
};

// The moves of a node one by one (its edges grouped by move): whether player
// p forces `good` with the move (every outcome good, or one good when p picks
// the outcome) and the successor index that shows it; `visit(forced, index)`
// returns false to stop.
template <class Good, class Visit>
void forced_moves(const Node& node, const std::vector<std::uint16_t>& move_of,
                  const std::vector<std::int8_t>& picker, int p, const Good& good,
                  const Visit& visit) {
  std::size_t i = 0;
  while (i < node.edges.size()) {
    const std::uint16_t m = move_of[node.edges[i].index];
    const bool mine = picker[m] == p;
    bool every = true;
    std::int32_t some = no_move;
    std::size_t j = i;
    for (; j < node.edges.size() && move_of[node.edges[j].index] == m; ++j) {
      const bool g = good(node.edges[j]);
      every = every && g;
      if (g && some == no_move) some = static_cast<std::int32_t>(node.edges[j].index);
    }
    const bool forced = mine ? some != no_move : every;
    if (!visit(forced, mine ? some : static_cast<std::int32_t>(node.edges[i].index))) return;
    i = j;
  }
}

}  // namespace

StrategyAnalysis analyse_strategies(const checker::ExploredGraph& graph) {
  StrategyAnalysis out;
  if (graph.completion() != checker::Completion::complete) return out;
  const checker::Semantics& sem = graph.semantics();
  const int players = sem.game().players;
  const auto n = static_cast<StateId>(graph.size());
  const checker::Generator generator(sem);
  checker::Generator::Buffer buf;
  std::vector<checker::Successor> recorded;
  std::vector<Node> nodes(n);
  out.owner.assign(n, -1);
  out.move_of.resize(n);
  out.picker.resize(n);
  out.wins.resize(n);
  out.ended_by.resize(n);
  checker::StateVec s;
  const auto over = static_cast<std::size_t>(sem.layout().over);
  for (StateId v = 0; v < n; ++v) {
    graph.state_into(v, s);
    Node& node = nodes[v];
    node.final = s[over] != 0;
    if (node.final) continue;
    node.edges = graph.edges(v);
    std::sort(node.edges.begin(), node.edges.end(),
              [](const checker::Edge& a, const checker::Edge& b) { return a.index < b.index; });
    generator.successors(s.data(), buf);
    auto& move_of = out.move_of[v];
    auto& picker = out.picker[v];
    auto& wins = out.wins[v];
    auto& ended_by = out.ended_by[v];
    move_of.assign(buf.size(), 0);
    wins.assign(buf.size(), -1);
    ended_by.assign(buf.size(), -1);
    std::uint16_t move = 0;
    int mover = -2;  // the players who own the moves: -2 none yet, -1 several
    bool recorded_done = false;
    for (std::size_t i = 0; i < buf.size(); ++i) {
      const checker::MoveFields m = buf.move(i);
      if (i > 0) {
        const checker::MoveFields prev = buf.move(i - 1);
        if (m.kind != prev.kind || m.player != prev.player || m.ref != prev.ref) ++move;
      }
      move_of[i] = move;
      if (i == 0 || move_of[i - 1] != move) {
        mover = mover == -2 ? m.player : (mover == m.player ? mover : -1);
        picker.push_back(-1);
      }
      if (buf.state(i)[over] == 1) {
        if (!recorded_done) {
          sem.successors(s, recorded, true);
          recorded_done = true;
        }
        const checker::Successor& r = recorded[i];
        ended_by[i] = static_cast<std::int16_t>(r.end_condition);
        if (r.end_player >= 0 && r.end_win) wins[i] = static_cast<std::int8_t>(r.end_player);
        if (r.end_player >= 0 && !r.end_win && players == 2) {
          wins[i] = static_cast<std::int8_t>(1 - r.end_player);
        }
      }
    }
    if (picker.size() > 1 && mover >= 0) out.owner[v] = static_cast<std::int8_t>(mover);
    // A lone move's outcomes chosen by a player (a `pick`): theirs.
    if (picker.size() == 1 && buf.size() > 1 && buf.move(0).chooser == checker::Chooser::player) {
      picker[0] = static_cast<std::int8_t>(buf.move(0).chooser_player);
    }
  }

  out.players.resize(static_cast<std::size_t>(players));
  for (int p = 0; p < players; ++p) {
    PlayerStrategy& st = out.players[static_cast<std::size_t>(p)];
    // Win: rounds of the attractor to the moves `target` accepts.
    std::vector<StateId> added;
    const auto attract = [&](const auto& target, std::vector<bool>& win,
                             std::vector<std::int32_t>& win_move,
                             std::vector<std::uint32_t>& win_rank) {
      win.assign(n, false);
      win_move.assign(n, no_move);
      win_rank.assign(n, 0);
      for (std::uint32_t round = 1;; ++round) {
        added.clear();
        for (StateId v = 0; v < n; ++v) {
          const Node& node = nodes[v];
          if (node.final || win[v] || node.edges.empty()) continue;
          const auto& move_of = out.move_of[v];
          const auto& picker = out.picker[v];
          const auto good = [&](const checker::Edge& e) {
            return target(v, e.index) || (!nodes[e.to].final && win[e.to]);
          };
          // Per move: forced (every outcome good, or one when p picks it).
          std::int32_t choice = no_move;
          bool all = true, any = false;
          forced_moves(node, move_of, picker, p, good, [&](bool forced, std::int32_t index) {
            if (forced && !any) choice = index;
            any = any || forced;
            all = all && forced;
            return true;
          });
          const bool in = out.owner[v] == p ? any : all;
          if (!in) continue;
          added.push_back(v);
          const bool chooses = out.owner[v] == p || (picker.size() == 1 && picker[0] == p);
          win_move[v] = chooses ? choice : no_move;
          win_rank[v] = round;
        }
        if (added.empty()) break;
        for (const StateId v : added) win[v] = true;
      }
    };
    attract([&](StateId v, std::uint32_t i) { return out.wins[v][i] == p; }, st.win, st.win_move,
            st.win_rank);
    // Per end condition (and -1, the win/lose effects): a win for p by it.
    const auto from_start = [&](const std::vector<bool>& region) {
      bool all = graph.initial_count() > 0;
      for (StateId v = 0; v < graph.initial_count(); ++v) all = all && region[v];
      return all;
    };
    for (int c = -1; c < static_cast<int>(sem.game().end_conditions.size()); ++c) {
      std::vector<bool> region;
      std::vector<std::int32_t> moves;
      std::vector<std::uint32_t> ranks;
      attract([&](StateId v,
                  std::uint32_t i) { return out.wins[v][i] == p && out.ended_by[v][i] == c; },
              region, moves, ranks);
      st.win_by_condition_from_start.push_back(from_start(region));
    }
    // Endless: the others' attractor to any end (a final state or a dead
    // end), complemented.
    std::vector<bool> ends(n, false);
    for (StateId v = 0; v < n; ++v) ends[v] = nodes[v].final || nodes[v].edges.empty();
    for (;;) {
      added.clear();
      for (StateId v = 0; v < n; ++v) {
        if (ends[v]) continue;
        const Node& node = nodes[v];
        const auto& move_of = out.move_of[v];
        const auto& picker = out.picker[v];
        bool all = true, any = false;
        std::size_t i = 0;
        while (i < node.edges.size()) {
          const std::uint16_t m = move_of[node.edges[i].index];
          const bool mine = picker[m] == p;
          bool every = true, some = false;
          std::size_t j = i;
          for (; j < node.edges.size() && move_of[node.edges[j].index] == m; ++j) {
            const bool e = ends[node.edges[j].to];
            every = every && e;
            some = some || e;
          }
          const bool forced = mine ? every : some;  // the others force an end
          any = any || forced;
          all = all && forced;
          i = j;
        }
        if (out.owner[v] == p ? all : any) added.push_back(v);
      }
      if (added.empty()) break;
      for (const StateId v : added) ends[v] = true;
    }
    st.endless.assign(n, false);
    st.endless_move.assign(n, no_move);
    for (StateId v = 0; v < n; ++v) {
      if (ends[v]) continue;
      st.endless[v] = true;
      const auto& picker = out.picker[v];
      const bool chooses = out.owner[v] == p || (picker.size() == 1 && picker[0] == p);
      if (!chooses) continue;
      // A move that stays: every outcome outside `ends`, or one when p picks.
      const auto stays = [&](const checker::Edge& e) { return !ends[e.to]; };
      forced_moves(nodes[v], out.move_of[v], picker, p, stays,
                   [&](bool forced, std::int32_t index) {
                     if (forced) st.endless_move[v] = index;
                     return !forced;
                   });
    }
    st.win_from_start = graph.initial_count() > 0;
    st.endless_from_start = graph.initial_count() > 0;
    for (StateId v = 0; v < graph.initial_count(); ++v) {
      st.win_from_start = st.win_from_start && st.win[v];
      st.endless_from_start = st.endless_from_start && st.endless[v];
    }
  }
  return out;
}

}  // namespace loophole::properties
