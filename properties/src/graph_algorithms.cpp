// Strongly connected components come from Boost.Graph (Tarjan's algorithm,
// iterative, so a component of millions of states does not overflow the call
// stack) on a compressed_sparse_row_graph holding only the kept edges and
// the states they leave. Backward reachability sweeps the forward edges
// (breadth-first numbering points most of them forward) and searches the
// reversed graph only for what the sweeps leave. The cycle search is a pair
// of breadth-first searches inside one component (forward from the entry,
// backward to it), which gives the shortest cycle through the entry that
// uses a required edge in time linear in the component, without touching
// the rest of the graph.
#include "graph_algorithms.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <set>
#include <unordered_map>
#include <utility>

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/strong_components.hpp>

#include "loophole/checker/memory.hpp"

namespace loophole::properties::detail {
namespace {

constexpr std::uint32_t unreached = std::numeric_limits<std::uint32_t>::max();

using Csr =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                       boost::no_property, std::uint32_t, std::uint64_t>;

// The player who chose an edge, or -1 (Edge keeps it in a signed byte).
int chooser_of(const Edge& e) {
  return e.chooser_player < 0 ? -1 : static_cast<unsigned char>(e.chooser_player);
}

bool kept(const EdgePredicate& keep, StateId from, const Edge& e) { return !keep || keep(from, e); }

}  // namespace

std::vector<std::vector<StateId>> cyclic_components(const Digraph& g, const EdgePredicate& keep) {
  const auto n = static_cast<StateId>(g.size());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  // Only a state with a kept edge out of it can be on a cycle. When those
  // are few (a leads_to's states where `to` does not hold, the doomed states
  // of a stalemate), the components are computed on them alone, numbered
  // 0..m-1 in the same order, and the others never enter Tarjan's search.
  std::vector<StateId> active;  // the states with a kept edge out, ascending
  // (The kept edges are counted first, a bit each, so that both arrays are
  // allocated once at their size, backed at once: grown by doubling, every
  // step touched fresh pages and copied what it had.)
  std::vector<std::uint64_t> is_kept((g.edges.size() + 63) / 64, 0);
  std::size_t kept_edges = 0, kept_states = 0;
  for (StateId v = 0; v < n; ++v) {
    const std::size_t before = kept_edges;
    for (std::uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
      if (!kept(keep, v, g.edges[i])) continue;
      is_kept[i >> 6] |= std::uint64_t{1} << (i & 63);
      ++kept_edges;
    }
    if (kept_edges != before) ++kept_states;
  }
  checker::reserve_backed(pairs, kept_edges);
  checker::reserve_backed(active, kept_states);
  for (StateId v = 0; v < n; ++v) {
    const std::size_t before = pairs.size();
    for (std::uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
      if ((is_kept[i >> 6] >> (i & 63) & 1) != 0) pairs.emplace_back(v, g.edges[i].to);
    }
    if (pairs.size() != before) active.push_back(v);
  }
  is_kept = {};
  const auto m = static_cast<std::uint32_t>(active.size());
  if (m < n) {
    auto local = checker::backed<std::uint32_t>(n, unreached);
    for (std::uint32_t i = 0; i < m; ++i) local[active[i]] = i;
    std::size_t kept_pairs = 0;
    for (const auto& [from, to] : pairs) {
      if (local[to] != unreached) pairs[kept_pairs++] = {local[from], local[to]};
    }
    pairs.resize(kept_pairs);
  }
  const auto global = [&](std::uint32_t i) { return m < n ? active[i] : i; };
  std::vector<bool> self_loop(m, false);
  for (const auto& [from, to] : pairs) {
    if (from == to) self_loop[from] = true;
  }
  // (In order of source, which is all edges_are_sorted asks: no sort.)
  const Csr csr(boost::edges_are_sorted, pairs.begin(), pairs.end(), m, pairs.size());
  pairs = {};
  // (Tarjan's per-state arrays are ours, backed at once, not Boost's own.)
  auto component = checker::backed<std::uint32_t>(m);
  auto root = checker::backed<std::uint32_t>(m), discovered = checker::backed<std::uint32_t>(m);
  const auto index = boost::get(boost::vertex_index, csr);
  const auto count = boost::strong_components(
      csr, boost::make_iterator_property_map(component.begin(), index),
      boost::root_map(boost::make_iterator_property_map(root.begin(), index))
          .discover_time_map(boost::make_iterator_property_map(discovered.begin(), index)));
  root = {};
  discovered = {};

  auto size = checker::backed<std::uint32_t>(count);
  for (std::uint32_t i = 0; i < m; ++i) ++size[component[i]];
  auto slot = checker::backed<std::uint32_t>(count, unreached);  // component -> index in result
  std::vector<std::vector<StateId>> result;
  for (std::uint32_t i = 0; i < m; ++i) {
    const auto c = component[i];
    if (size[c] < 2 && !self_loop[i]) continue;
    if (slot[c] == unreached) {
      slot[c] = static_cast<std::uint32_t>(result.size());
      result.emplace_back();
      result.back().reserve(size[c]);
    }
    result[slot[c]].push_back(global(i));
  }
  return result;
}

std::vector<Edge> shortest_cycle(const Digraph& g, StateId entry,
                                 const std::vector<StateId>& members, const EdgePredicate& keep,
                                 const EdgePredicate& must) {
  const auto m = static_cast<std::uint32_t>(members.size());
  const auto local = [&](StateId v) -> std::uint32_t {
    const auto it = std::lower_bound(members.begin(), members.end(), v);
    return it != members.end() && *it == v ? static_cast<std::uint32_t>(it - members.begin())
                                           : unreached;
  };
  const std::uint32_t start = local(entry);
  if (start == unreached) return {};

  // Kept edges inside the component, forward and reversed, by local number.
  struct Link {
    std::uint32_t from, to;
    const Edge* edge;
  };
  std::vector<Link> links;
  std::uint64_t out_edges = 0;  // (at most this many: backed at once)
  for (const StateId v : members) out_edges += g.offsets[v + 1] - g.offsets[v];
  checker::reserve_backed(links, out_edges);
  for (std::uint32_t u = 0; u < m; ++u) {
    for (const Edge& e : g.out(members[u])) {
      if (!kept(keep, members[u], e)) continue;
      const auto w = local(e.to);
      if (w != unreached) links.push_back({u, w, &e});
    }
  }
  auto fwd_at = checker::backed<std::uint32_t>(m + 1),
       rev_at = checker::backed<std::uint32_t>(m + 1);
  for (const Link& l : links) {
    ++fwd_at[l.from + 1];
    ++rev_at[l.to + 1];
  }
  for (std::uint32_t i = 0; i < m; ++i) {
    fwd_at[i + 1] += fwd_at[i];
    rev_at[i + 1] += rev_at[i];
  }
  auto rev = checker::backed<std::uint32_t>(links.size());
  {
    auto fill = rev_at;
    for (std::uint32_t i = 0; i < links.size(); ++i) rev[fill[links[i].to]++] = i;
  }  // links are already grouped by `from` in ascending order, so fwd_at indexes them directly

  // Forward BFS from the entry (pred: the link that reached a state) and
  // backward BFS to it (next: the link that leads a state toward the entry).
  auto df = checker::backed<std::uint32_t>(m, unreached), db = checker::backed(m, unreached),
       pred = checker::backed(m, unreached), next = checker::backed(m, unreached);
  std::deque<std::uint32_t> queue{start};
  df[start] = 0;
  while (!queue.empty()) {
    const auto u = queue.front();
    queue.pop_front();
    for (auto i = fwd_at[u]; i < fwd_at[u + 1]; ++i) {
      const auto w = links[i].to;
      if (df[w] != unreached) continue;
      df[w] = df[u] + 1;
      pred[w] = i;
      queue.push_back(w);
    }
  }
  queue = {start};
  db[start] = 0;
  while (!queue.empty()) {
    const auto v = queue.front();
    queue.pop_front();
    for (auto k = rev_at[v]; k < rev_at[v + 1]; ++k) {
      const auto i = rev[k];
      const auto u = links[i].from;
      if (db[u] != unreached) continue;
      db[u] = db[v] + 1;
      next[u] = i;
      queue.push_back(u);
    }
  }

  std::uint32_t best = unreached;
  std::uint64_t best_cost = std::numeric_limits<std::uint64_t>::max();
  for (std::uint32_t i = 0; i < links.size(); ++i) {
    const Link& l = links[i];
    if (df[l.from] == unreached || db[l.to] == unreached) continue;
    if (must && !must(members[l.from], *l.edge)) continue;
    const std::uint64_t cost = std::uint64_t{df[l.from]} + 1 + db[l.to];
    if (cost < best_cost) {
      best_cost = cost;
      best = i;
    }
  }
  if (best == unreached) return {};

  std::vector<Edge> cycle;
  for (auto u = links[best].from; u != start; u = links[pred[u]].from) {
    cycle.push_back(*links[pred[u]].edge);
  }
  std::reverse(cycle.begin(), cycle.end());
  cycle.push_back(*links[best].edge);
  for (auto v = links[best].to; v != start; v = links[next[v]].to) {
    cycle.push_back(*links[next[v]].edge);
  }
  return cycle;
}

bool shortest_path(const Digraph& g, StateId from, const StatePredicate& goal,
                   const StatePredicate& inside, const EdgePredicate& keep,
                   std::vector<Edge>& path) {
  path.clear();
  if (goal(from)) return true;
  std::unordered_map<StateId, std::pair<StateId, Edge>> pred;  // reached state -> (from, edge)
  pred.emplace(from, std::pair{checker::no_state, Edge{}});
  std::deque<StateId> queue{from};
  while (!queue.empty()) {
    const StateId u = queue.front();
    queue.pop_front();
    for (const Edge& e : g.out(u)) {
      if (!kept(keep, u, e) || pred.contains(e.to)) continue;
      const bool is_goal = goal(e.to);
      if (!is_goal && !inside(e.to)) continue;
      pred.emplace(e.to, std::pair{u, e});
      if (is_goal) {
        for (StateId v = e.to; v != from;) {
          const auto& [p, edge] = pred.at(v);
          path.push_back(edge);
          v = p;
        }
        std::reverse(path.begin(), path.end());
        return true;
      }
      queue.push_back(e.to);
    }
  }
  return false;
}

std::vector<bool> can_go_on_forever(const Digraph& g) {
  // The states every path from which stops are the least fixpoint of "every
  // successor stops" (a state with no move stops). As in can_reach, sweeps
  // from the last state to the first settle it in a few passes over the
  // edges with a bit per state, where the components would cost 8 bytes an
  // edge (operators: a whole check's peak 197 -> 146 MiB); paths that go back
  // to earlier states many times fall back to the components.
  const auto n = static_cast<StateId>(g.size());
  std::vector<bool> stops(n, false);
  constexpr int max_sweeps = 16;
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    bool changed = false;
    for (StateId v = n; v-- > 0;) {
      if (stops[v]) continue;
      const auto out = g.out(v);
      if (std::all_of(out.begin(), out.end(), [&](const Edge& e) { return stops[e.to]; })) {
        stops[v] = true;
        changed = true;
      }
    }
    if (!changed) {
      stops.flip();
      return stops;
    }
  }
  std::vector<bool> on_cycle(n, false);
  for (const auto& members : cyclic_components(g, [](StateId, const Edge&) { return true; })) {
    for (const StateId v : members) on_cycle[v] = true;
  }
  return can_reach(g, on_cycle);
}

std::vector<bool> can_reach(const Digraph& g, const std::vector<bool>& targets,
                            const EdgePredicate& keep) {
  const auto n = static_cast<StateId>(g.size());
  std::vector<bool> reach(targets);
  reach.resize(n, false);
  // Sweeps over the forward edges, from the last state to the first: a state
  // reaches a target when a successor does. States are numbered breadth-first,
  // so most edges lead to a later state, whose mark a sweep has already set;
  // each further sweep follows one more edge back to an earlier state. On the
  // seed games 6 to 8 sweeps settle it, reading the edges in order (a bit
  // per state: the marks stay in cache) instead of chasing predecessor lists
  // through memory (5 times faster on containment's 8 million edges).
  constexpr int max_sweeps = 16;
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    bool changed = false;
    for (StateId v = n; v-- > 0;) {
      if (reach[v]) continue;
      for (const Edge& e : g.out(v)) {
        if (reach[e.to] && kept(keep, v, e)) {
          reach[v] = true;
          changed = true;
          break;
        }
      }
    }
    if (!changed) return reach;
  }
  // Paths that go back to earlier states many times: finish with a search
  // backwards from every state marked so far, over the reversed kept edges.
  auto at = checker::backed<std::uint64_t>(std::size_t{n} + 1);
  for (StateId v = 0; v < n; ++v) {
    for (const Edge& e : g.out(v)) {
      if (kept(keep, v, e)) ++at[e.to + 1];
    }
  }
  for (StateId v = 0; v < n; ++v) at[v + 1] += at[v];
  auto sources = checker::backed<StateId>(at[n]);
  {
    auto fill = at;
    for (StateId v = 0; v < n; ++v) {
      for (const Edge& e : g.out(v)) {
        if (kept(keep, v, e)) sources[fill[e.to]++] = v;
      }
    }
  }
  std::vector<StateId> stack;
  for (StateId v = 0; v < n; ++v) {
    if (reach[v]) stack.push_back(v);
  }
  while (!stack.empty()) {
    const StateId v = stack.back();
    stack.pop_back();
    for (auto i = at[v]; i < at[v + 1]; ++i) {
      if (!reach[sources[i]]) {
        reach[sources[i]] = true;
        stack.push_back(sources[i]);
      }
    }
  }
  return reach;
}

LoopChoice classify_cycle(const Digraph& g, StateId entry, const std::vector<Edge>& cycle) {
  LoopChoice result;
  std::set<int> players;
  bool nature = false;
  bool any_choice = false;
  StateId v = entry;
  for (const Edge& taken : cycle) {
    const auto out = g.out(v);
    if (out.size() > 1) {
      any_choice = true;
      // The chooser of the move taken; if it names nobody (it should not at a
      // choice point), whoever chooses among the state's other moves.
      checker::Chooser by = taken.chooser;
      int player = chooser_of(taken);
      for (std::size_t i = 0; by == checker::Chooser::none && i < out.size(); ++i) {
        by = out[i].chooser;
        player = chooser_of(out[i]);
      }
      if (by == checker::Chooser::nature) nature = true;
      if (by == checker::Chooser::player && player >= 0) players.insert(player);
    }
    v = taken.to;
  }
  result.players.assign(players.begin(), players.end());
  if (!any_choice || (players.empty() && !nature)) {
    result.loop = LoopClass::mandatory;
  } else if (!nature && players.size() == 1) {
    result.loop = LoopClass::optional_one;
    result.player = *players.begin();
  } else if (nature) {
    result.loop = LoopClass::chance;
  } else {
    result.loop = LoopClass::several_players;
  }
  return result;
}

}  // namespace loophole::properties::detail
