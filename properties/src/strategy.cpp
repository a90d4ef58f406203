// analyse_strategies (strategy.hpp). One pass over every state reads its
// moves (move_groups.hpp: the generator's successors grouped as the
// simulator groups them) and, where a successor ends the game, who won and
// by which end condition; the edges are the engine's, read in place
// (detail::Digraph), and their predecessors are built once, in CSR form.
// Every objective is then an attractor computed with counters: per move the
// outcomes it still needs, per state the moves it still needs; a state that
// joins is pushed on a queue, and its predecessor edges each decrement their
// move's counter once. A state's rank is the round it joins in (the queue is
// first in, first out), and the move that completed it leads only to states
// of smaller rank: replaying the witness against every reply reaches a win
// in at most rank moves. A fair coin is the almost-sure reachability of
// stochastic games (a nested fixpoint): within a region W, the states that
// reach the goal with positive probability (a nature move needs one good
// outcome); the rest, and whatever the opponents and nature can lead into
// them, leave W; until nothing leaves.
#include "loophole/properties/strategy.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "loophole/checker/generator.hpp"

#include "graph_algorithms.hpp"
#include "move_groups.hpp"

namespace loophole::properties {
namespace {

using checker::StateId;

// The graph with its moves and predecessors, built once.
struct Arena {
  const StrategyAnalysis& a;
  detail::Digraph g;
  StateId n = 0;
  std::vector<std::uint8_t> final;        // per state: game over (or a rule gap)
  std::vector<std::uint32_t> outcomes;    // per move: its successors
  std::vector<StateId> move_state;        // per move: its state
  std::vector<std::uint64_t> pred_begin;  // per state: its predecessor edges
  struct Pred {
    std::uint32_t move;   // global move id of the edge
    std::uint32_t index;  // successor index of the edge at its state
  };
  std::vector<Pred> pred;

  explicit Arena(const StrategyAnalysis& analysis) : a(analysis) {}
  [[nodiscard]] std::uint64_t global_move(StateId v, std::uint64_t e) const {
    return a.move_begin[v] + a.move_of[e];
  }
};

// The attractor of a side: per state whether it joins (`in`), its round and
// the successor index that completed it. `allowed(v)`: states that may join;
// `ours_state(v)`: the side needs one good move there (else all);
// `ours_move(v, m)`: 1 (or true) one good outcome, 0 (false) all of them,
// 2 never good; `good(v, e)`: an edge good from the start (the goal).
struct Attracted {
  std::vector<std::uint8_t> in;
  std::vector<std::uint32_t> rank;
  std::vector<std::int32_t> choice;
};

template <class Allowed, class OursState, class OursMove, class Good>
void attract(const Arena& ar, const Allowed& allowed, const OursState& ours_state,
             const OursMove& ours_move, const Good& good, Attracted& out, bool with_moves) {
  const StrategyAnalysis& a = ar.a;
  const StateId n = ar.n;
  out.in.assign(n, 0);
  if (with_moves) {
    out.rank.assign(n, 0);
    out.choice.assign(n, no_move);
  }
  std::vector<std::uint32_t> move_need(ar.outcomes.size(), 0), state_need(n, 0);
  std::vector<StateId> queue;
  std::size_t head = 0;
  for (StateId v = 0; v < n; ++v) {
    if (!allowed(v)) continue;
    const auto moves = static_cast<std::uint32_t>(a.moves(v));
    state_need[v] = ours_state(v) ? 1 : moves;
    for (std::uint32_t m = 0; m < moves; ++m) {
      const std::uint64_t gm = a.move_begin[v] + m;
      const int kind = static_cast<int>(ours_move(v, static_cast<std::uint16_t>(m)));
      move_need[gm] = kind == 2 ? 0xFFFFFFFFU : kind == 1 ? 1 : ar.outcomes[gm];
    }
  }
  // One good outcome of move gm of v (successor `index`): when the move is
  // complete, one move fewer; when the state is, it joins.
  const auto hit = [&](StateId v, std::uint64_t gm, std::uint32_t index, std::uint32_t rank) {
    if (move_need[gm] == 0 || --move_need[gm] != 0) return;
    if (state_need[v] == 0 || --state_need[v] != 0) return;
    out.in[v] = 1;
    if (with_moves) {
      out.rank[v] = rank;
      out.choice[v] = static_cast<std::int32_t>(index);
    }
    queue.push_back(v);
  };
  for (StateId v = 0; v < n; ++v) {
    if (!allowed(v) || out.in[v] != 0) continue;
    const std::uint64_t b = ar.g.begin(v), e = ar.g.end(v);
    for (std::uint64_t x = b; x < e && out.in[v] == 0; ++x) {
      if (good(v, x)) hit(v, ar.global_move(v, x), static_cast<std::uint32_t>(x - b), 1);
    }
  }
  while (head < queue.size()) {
    const StateId w = queue[head++];
    const std::uint32_t r = with_moves ? out.rank[w] + 1 : 0;
    for (std::uint64_t j = ar.pred_begin[w]; j < ar.pred_begin[w + 1]; ++j) {
      const Arena::Pred& p = ar.pred[j];
      const StateId v = ar.move_state[p.move];
      if (out.in[v] != 0 || !allowed(v)) continue;
      hit(v, p.move, p.index, r);
    }
  }
}

}  // namespace

StrategyAnalysis analyse_strategies(const checker::ExploredGraph& graph, Nature nature) {
  StrategyAnalysis out;
  out.nature = nature;
  if (graph.completion() != checker::Completion::complete) return out;
  const checker::Semantics& sem = graph.semantics();
  const int players = sem.game().players;
  const auto n = static_cast<StateId>(graph.size());
  Arena ar(out);
  ar.n = n;
  if (auto compact = graph.compact_edges()) {
    ar.g = detail::Digraph(std::move(*compact));
  } else {
    std::vector<checker::Edge> edges;
    for (StateId v = 0; v < n; ++v) {
      graph.edges_into(v, edges);
      ar.g.add_state(edges);
    }
  }
  ar.g.resize(n);
  const std::uint64_t edges = ar.g.edge_count();
  if (edges > 0xFFFFFFFFULL) {
    throw std::length_error("loophole: solve handles at most 2^32 moves");
  }

  // The moves of every state, and who wins by each final successor.
  const checker::Generator generator(sem);
  checker::Generator::Buffer buf;
  std::vector<checker::Successor> recorded;
  detail::StateMoves sm;
  checker::StateVec s;
  const auto over = static_cast<std::size_t>(sem.layout().over);
  out.edge_begin.resize(std::size_t{n} + 1);
  out.move_begin.resize(std::size_t{n} + 1);
  out.move_of.assign(edges, 0);
  out.winner.assign(edges, -1);
  out.ended_by.assign(edges, -1);
  out.movers.assign(n, 0);
  out.nobody.assign(n, 0);
  ar.final.assign(n, 0);
  for (StateId v = 0; v < n; ++v) {
    const std::uint64_t b = ar.g.begin(v), e = ar.g.end(v);
    out.edge_begin[v] = b;
    out.move_begin[v] = out.picker.size();
    graph.state_into(v, s);
    ar.final[v] = s[over] != 0 ? 1 : 0;
    if (ar.final[v] != 0 || b == e) continue;
    generator.successors(s.data(), buf);
    if (buf.size() != e - b) {
      throw std::logic_error("loophole: internal error: the generator and the graph disagree");
    }
    detail::group_moves(buf, sm);
    out.movers[v] = sm.movers;
    out.nobody[v] = sm.nobody ? 1 : 0;
    out.picker.insert(out.picker.end(), sm.picker.begin(), sm.picker.end());
    const std::size_t first_move = ar.outcomes.size();
    ar.outcomes.resize(first_move + sm.moves(), 0);
    ar.move_state.resize(first_move + sm.moves(), v);
    bool recorded_done = false;
    for (std::uint64_t x = b; x < e; ++x) {
      const std::size_t i = x - b;
      out.move_of[x] = sm.move_of[i];
      ++ar.outcomes[first_move + sm.move_of[i]];
      if (buf.state(i)[over] != 1) continue;
      if (!recorded_done) {
        sem.successors(s, recorded, true);
        recorded_done = true;
      }
      const checker::Successor& r = recorded[i];
      out.ended_by[x] = static_cast<std::int16_t>(r.end_condition);
      if (r.end_player >= 0 && r.end_win) out.winner[x] = static_cast<std::int8_t>(r.end_player);
      if (r.end_player >= 0 && !r.end_win && players == 2) {
        out.winner[x] = static_cast<std::int8_t>(1 - r.end_player);
      }
    }
  }
  out.edge_begin[n] = ar.g.begin(n);
  out.move_begin[n] = out.picker.size();
  if (out.picker.size() > 0xFFFFFFFFULL) {
    throw std::length_error("loophole: solve handles at most 2^32 moves");
  }
  // Predecessors, grouped by target (counted, then placed).
  ar.pred_begin.assign(std::size_t{n} + 1, 0);
  for (std::uint64_t x = 0; x < edges; ++x) ++ar.pred_begin[ar.g.target(x) + 1];
  for (StateId v = 0; v < n; ++v) ar.pred_begin[v + 1] += ar.pred_begin[v];
  ar.pred.resize(edges);
  {
    std::vector<std::uint64_t> fill(ar.pred_begin.begin(), ar.pred_begin.end() - 1);
    for (StateId v = 0; v < n; ++v) {
      const std::uint64_t b = ar.g.begin(v), e = ar.g.end(v);
      for (std::uint64_t x = b; x < e; ++x) {
        ar.pred[fill[ar.g.target(x)]++] = {static_cast<std::uint32_t>(ar.global_move(v, x)),
                                           static_cast<std::uint32_t>(x - b)};
      }
    }
  }

  // The coalitions: each player alone, then every larger set.
  std::vector<std::uint32_t> masks;
  for (int p = 0; p < players; ++p) masks.push_back(1U << static_cast<unsigned>(p));
  std::vector<std::uint32_t> larger;
  for (std::uint32_t c = 1; c < (1U << static_cast<unsigned>(players)); ++c) {
    if (std::popcount(c) > 1) larger.push_back(c);
  }
  std::stable_sort(larger.begin(), larger.end(), [](std::uint32_t x, std::uint32_t y) {
    return std::popcount(x) < std::popcount(y);
  });
  masks.insert(masks.end(), larger.begin(), larger.end());

  const auto playable = [&](StateId v) { return ar.final[v] == 0 && out.moves(v) > 0; };
  const auto from_start = [&](const std::vector<std::uint8_t>& region) {
    bool all = graph.initial_count() > 0;
    for (StateId v = 0; v < graph.initial_count(); ++v) all = all && region[v] != 0;
    return all;
  };
  const auto random_move = [&](StateId v, std::uint16_t m) {
    const std::uint64_t gm = out.move_begin[v] + m;
    return out.picker[gm] < 0 && ar.outcomes[gm] > 1;
  };

  // The states from which coalition c wins by the edges `target` accepts:
  // the attractor, or with a fair coin the almost-sure region.
  Attracted win, gone;
  const auto solve_win = [&](std::uint32_t c, const auto& target, Attracted& region) {
    const auto ours_state = [&](StateId v) { return out.owns(v, c); };
    // (Fair: a nature move needs one good outcome, but none that leaves W:
    // `leaks`, recomputed as W shrinks.)
    std::vector<std::uint8_t> leaks;
    const auto ours_move = [&](StateId v, std::uint16_t m) -> int {
      if (out.picks(v, m, c)) return 1;
      if (nature != Nature::fair || !random_move(v, m)) return 0;
      return leaks[out.move_begin[v] + m] != 0 ? 2 : 1;
    };
    std::vector<std::uint8_t> w(n, 0);
    for (StateId v = 0; v < n; ++v) w[v] = playable(v) ? 1 : 0;
    for (;;) {
      if (nature == Nature::fair) {
        leaks.assign(ar.outcomes.size(), 0);
        for (StateId v = 0; v < n; ++v) {
          if (w[v] == 0) continue;
          for (std::uint64_t x = ar.g.begin(v); x < ar.g.end(v); ++x) {
            if (w[ar.g.target(x)] == 0 && !target(x)) leaks[ar.global_move(v, x)] = 1;
          }
        }
      }
      attract(
          ar, [&](StateId v) { return w[v] != 0; }, ours_state, ours_move,
          [&](StateId, std::uint64_t x) { return target(x); }, region, true);
      if (nature == Nature::adversarial) return;
      // The states of W that cannot even reach the goal with some
      // probability, and what the others (nature included) can push into
      // them or out of W, leave W.
      bool left = false;
      std::vector<std::uint8_t> lost(n, 0);
      for (StateId v = 0; v < n; ++v) {
        if (w[v] != 0 && region.in[v] == 0) {
          lost[v] = 1;
          w[v] = 0;
          left = true;
        }
      }
      if (!left) return;
      attract(
          ar, [&](StateId v) { return w[v] != 0; }, [&](StateId v) { return !out.owns(v, c); },
          [&](StateId v, std::uint16_t m) { return !out.picks(v, m, c); },
          [&](StateId, std::uint64_t x) {
            const StateId to = ar.g.target(x);
            return lost[to] != 0 || (w[to] == 0 && !target(x));
          },
          gone, false);
      for (StateId v = 0; v < n; ++v) {
        if (gone.in[v] != 0) w[v] = 0;
      }
    }
  };

  out.coalitions.resize(masks.size());
  for (std::size_t k = 0; k < masks.size(); ++k) {
    const std::uint32_t c = masks[k];
    CoalitionStrategy& st = out.coalitions[k];
    st.members = c;
    const auto wins_for_c = [&](std::uint64_t x) {
      return out.winner[x] >= 0 && ((c >> static_cast<unsigned>(out.winner[x])) & 1U) != 0;
    };
    solve_win(c, wins_for_c, win);
    st.win.assign(n, false);
    st.win_move.assign(n, no_move);
    st.win_rank = std::move(win.rank);
    for (StateId v = 0; v < n; ++v) {
      st.win[v] = win.in[v] != 0;
      if (st.win[v] && out.chooses(v, c)) st.win_move[v] = win.choice[v];
    }
    st.win_from_start = from_start(win.in);
    // Per end condition (and -1, the win/lose effects): a win by it.
    Attracted by;
    for (int cond = -1; cond < static_cast<int>(sem.game().end_conditions.size()); ++cond) {
      solve_win(
          c, [&](std::uint64_t x) { return wins_for_c(x) && out.ended_by[x] == cond; }, by);
      st.win_by_condition_from_start.push_back(from_start(by.in));
    }
    // Endless: the others' (and nature's) attractor to any end (a final
    // state or a dead end), complemented.
    Attracted ends;
    attract(
        ar, playable, [&](StateId v) { return !out.owns(v, c); },
        [&](StateId v, std::uint16_t m) { return !out.picks(v, m, c); },
        [&](StateId, std::uint64_t x) { return !playable(ar.g.target(x)); }, ends, false);
    st.endless.assign(n, false);
    st.endless_move.assign(n, no_move);
    std::vector<std::uint8_t> endless(n, 0);
    for (StateId v = 0; v < n; ++v) {
      endless[v] = playable(v) && ends.in[v] == 0 ? 1 : 0;
      st.endless[v] = endless[v] != 0;
    }
    for (StateId v = 0; v < n; ++v) {
      if (endless[v] == 0 || !out.chooses(v, c)) continue;
      // A move that stays: every outcome in the region, or one when c picks.
      const std::uint64_t b = ar.g.begin(v), e = ar.g.end(v);
      for (std::uint64_t x = b; x < e && st.endless_move[v] == no_move;) {
        const std::uint16_t m = out.move_of[x];
        const bool mine = out.picks(v, m, c);
        bool every = true;
        std::int32_t some = no_move;
        std::uint64_t y = x;
        for (; y < e && out.move_of[y] == m; ++y) {
          const bool stays = endless[ar.g.target(y)] != 0;
          every = every && stays;
          if (stays && some == no_move) some = static_cast<std::int32_t>(y - b);
        }
        if (mine ? some != no_move : every) {
          st.endless_move[v] = mine ? some : static_cast<std::int32_t>(x - b);
        }
        x = y;
      }
    }
    st.endless_from_start = from_start(endless);
  }
  return out;
}

}  // namespace loophole::properties
