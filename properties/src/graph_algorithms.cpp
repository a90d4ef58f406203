// Strongly connected components come from Pearce's variant of Tarjan's
// algorithm ("A space-efficient algorithm for finding strongly connected
// components", 2016), iterative (a component of millions of states must not
// overflow the call stack) and run on the moves in place, the predicate
// asked as each edge is met: one 4-byte number per state besides the search's
// stacks. (Boost.Graph's Tarjan on a copy of the kept edges cost 12 bytes an
// edge and 28 a state: containment's turn loops, 242 MiB above the rest.)
// The same search over every edge also answers backward reachability, each
// component taking its successors' marks as it completes
// (reach_through_components): the analyses share one such pass. Otherwise
// backward reachability sweeps the forward edges (breadth-first numbering
// points most of them forward) and searches the reversed graph only for
// what the sweeps leave. The cycle search is a pair
// of breadth-first searches inside one component (forward from the entry,
// backward to it), which gives the shortest cycle through the entry that
// uses a required edge in time linear in the component, without touching
// the rest of the graph.
#include "graph_algorithms.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

#include "loophole/checker/memory.hpp"

namespace loophole::properties::detail {
namespace {

constexpr std::uint32_t unreached = std::numeric_limits<std::uint32_t>::max();

// The player who chose an edge, or -1 (Edge keeps it in a signed byte).
int chooser_of(const Edge& e) {
  return e.chooser_player < 0 ? -1 : static_cast<unsigned char>(e.chooser_player);
}

bool kept(const EdgePredicate& keep, StateId from, const Edge& e) { return !keep || keep(from, e); }

// Whether to stop at state v of a pass over every state: the stop flag is
// read once every 4096 states.
bool stop_at(const Digraph& g, StateId v) { return (v & 4095U) == 0 && g.stopped(); }

}  // namespace

Digraph::Digraph(checker::CompactEdges view)
    : size_(view.states),
      with_lists_(view.states),
      edges_(view.edges),
      to_(view.to),
      label_(view.label),
      rel_(view.rel),
      base_(view.base),
      wide_(view.wide),
      labels_(std::move(view.labels)) {}

void Digraph::refresh() {
  to_ = own_to_.data();
  label_ = own_label_.data();
  rel_ = own_rel_.data();
  base_ = own_base_.data();
  wide_ = own_wide_;
}

void Digraph::add_state(std::span<const Edge> out_edges) {
  constexpr std::uint64_t mask = (std::uint64_t{1} << checker::CompactEdges::group_shift) - 1;
  if ((with_lists_ & mask) == 0) own_base_.push_back(edges_);
  if (const std::uint64_t rel = edges_ - own_base_.back(); rel < checker::CompactEdges::wide_rel) {
    own_rel_.push_back(static_cast<std::uint16_t>(rel));
  } else {
    own_rel_.push_back(checker::CompactEdges::wide_rel);
    own_wide_.push_back({static_cast<StateId>(with_lists_), edges_});
  }
  for (const Edge& e : out_edges) {
    const auto same = [&](const Edge& l) {
      return l.kind == e.kind && l.progress == e.progress && l.chooser == e.chooser &&
             l.chooser_player == e.chooser_player;
    };
    auto it = std::find_if(labels_.begin(), labels_.end(), same);
    if (it == labels_.end()) {
      if (labels_.size() == 256) {
        throw std::logic_error("loophole: internal error: more than 256 distinct move labels");
      }
      Edge l = e;
      l.to = checker::no_state;
      l.index = 0;
      it = labels_.insert(labels_.end(), l);
    }
    own_to_.push_back(e.to);
    own_label_.push_back(static_cast<std::uint8_t>(it - labels_.begin()));
    ++edges_;
  }
  ++with_lists_;
  size_ = std::max<std::size_t>(size_, with_lists_);
  refresh();
}

std::uint64_t Digraph::own_bytes() const {
  return own_to_.capacity() * sizeof(StateId) + own_label_.capacity() +
         own_rel_.capacity() * sizeof(std::uint16_t) +
         own_base_.capacity() * sizeof(std::uint64_t) +
         own_wide_.capacity() * sizeof(checker::CompactEdges::Wide);
}

void CyclicStates::count_members() {
  before.assign(bits.size(), 0);
  count = 0;
  for (std::size_t b = 0; b < bits.size(); ++b) {
    before[b] = static_cast<std::uint32_t>(count);
    count += static_cast<std::uint64_t>(std::popcount(bits[b]));
  }
}

template <class Mark>
CyclicStates reach_through_components(const Digraph& g, std::vector<Mark>& marks, Mark endless) {
  const auto n = static_cast<StateId>(g.size());
  CyclicStates cyclic;
  // rindex as in cyclic_components; a state whose number is above
  // `component` belongs to a completed component, whose marks are final.
  // Whether a state is its component's root, and whether it has a
  // self-loop, are only asked while it is on the search's path: they live
  // in its frame, not in arrays over every state.
  if (!g.afford(std::uint64_t{n} * sizeof(std::uint32_t) + n / 8)) return cyclic;
  marks.resize(n, 0);
  auto rindex = checker::backed<std::uint32_t>(n, 0);
  struct Frame {
    StateId v;
    std::uint32_t next;
    bool root, self_loop;
  };
  std::vector<Frame> path;
  std::vector<StateId> stack;
  cyclic.reset(n);
  std::uint32_t index = 1, component = n;
  const auto enter = [&](StateId v) {
    rindex[v] = index++;
    path.push_back({v, 0, true, false});
  };
  for (StateId s = 0; s < n; ++s) {
    if (rindex[s] != 0) continue;
    enter(s);
    for (std::uint32_t steps = 1; !path.empty(); ++steps) {
      if (stop_at(g, steps)) return {};
      Frame& f = path.back();
      const StateId v = f.v;
      const std::uint64_t first = g.begin(v), last = g.end(v);
      Mark m = marks[v];
      StateId down = checker::no_state;
      for (; first + f.next < last; ++f.next) {
        const StateId w = g.target(first + f.next);
        const std::uint32_t r = rindex[w];
        if (w == v) {
          f.self_loop = true;
        } else if (r == 0) {
          down = w;
          break;
        } else if (r > component) {
          m |= marks[w];  // a completed component
        } else if (r < rindex[v]) {
          rindex[v] = r;
          f.root = false;
        }
      }
      marks[v] = m;
      if (down != checker::no_state) {
        enter(down);
        continue;
      }
      const Frame done = f;
      path.pop_back();
      if (!done.root) {
        stack.push_back(v);
        continue;
      }
      // v's component: v and the states above it on the stack.
      std::size_t bottom = stack.size();
      while (bottom > 0 && rindex[v] <= rindex[stack[bottom - 1]]) --bottom;
      const bool cycle = done.self_loop || bottom < stack.size();
      for (std::size_t i = bottom; i < stack.size(); ++i) m |= marks[stack[i]];
      if (cycle) m |= endless;
      for (std::size_t i = bottom; i < stack.size(); ++i) {
        const StateId u = stack[i];
        marks[u] = m;
        rindex[u] = component;
        if (cycle) cyclic.mark(u);
        --index;
      }
      stack.resize(bottom);
      marks[v] = m;
      if (cycle) cyclic.mark(v);
      --index;
      rindex[v] = component--;
    }
  }
  if (g.stopped()) return {};
  cyclic.count_members();
  return cyclic;
}

template CyclicStates reach_through_components(const Digraph&, std::vector<std::uint8_t>&,
                                               std::uint8_t);
template CyclicStates reach_through_components(const Digraph&, std::vector<std::uint32_t>&,
                                               std::uint32_t);

std::vector<std::vector<StateId>> ComponentList::nested() const {
  std::vector<std::vector<StateId>> out;
  for (const auto members : *this) out.emplace_back(members.begin(), members.end());
  return out;
}

ComponentList cyclic_components(const Digraph& g, const EdgePredicate& keep,
                                const CyclicStates* within) {
  if (within != nullptr && within->count == 0) return {};
  const auto n = static_cast<StateId>(g.size());
  // Within `within`, only its members are searched, and the arrays below
  // are indexed by a member's rank among them (its local number): 4 bytes a
  // member, not a state (4.25 bytes a state of every graph were the loop
  // analyses' peak: cosmere's default scope, 250 MiB for 2.7 M cyclic
  // states of 42.5 M). Without, a state's local number is itself.
  const bool everywhere = within == nullptr;
  const StateId m = everywhere ? n : static_cast<StateId>(within->count);
  const auto inside = [&](StateId v) { return everywhere || within->contains(v); };
  const auto local = [&](StateId v) { return everywhere ? v : within->rank(v); };
  // rindex[l]: 0 before the state is visited; while it is on the search's
  // path or stack, its visit number, lowered to the smallest one it
  // reaches; once its component is complete, the component's number,
  // counted down from m (so always above every visit number still in use:
  // Pearce's invariant).
  if (!g.afford(std::uint64_t{m} * sizeof(std::uint32_t) + m / 4)) return {};
  auto rindex = checker::backed<std::uint32_t>(m, 0);
  std::vector<bool> root(m, false), self_loop(m, false);
  struct Frame {
    StateId v, l;        // the state and its local number
    std::uint32_t next;  // the next of v's edges to look at, from its first
  };
  std::vector<Frame> path;
  std::vector<StateId> stack;  // local numbers
  std::uint32_t index = 1, component = m;
  const auto enter = [&](StateId v) {
    const StateId l = local(v);
    rindex[l] = index++;
    root[l] = true;
    path.push_back({v, l, 0});
  };
  for (StateId s = 0; s < n; ++s) {
    if (!inside(s) || rindex[local(s)] != 0) continue;
    enter(s);
    for (std::uint32_t steps = 1; !path.empty(); ++steps) {
      if (stop_at(g, steps)) return {};
      const StateId v = path.back().v, lv = path.back().l;
      const std::uint64_t first = g.begin(v), last = g.end(v);
      bool descended = false;
      // (An edge that leads to an unvisited state is looked at again when
      // the search comes back from it, to take its lowered number.)
      for (std::uint32_t& next = path.back().next; first + next < last; ++next) {
        const std::uint64_t e = first + next;
        const StateId w = g.target(e);
        if (!inside(w) || !kept(keep, v, g.edge(e, first))) continue;
        const StateId lw = local(w);
        if (w == v) self_loop[lv] = true;
        if (rindex[lw] == 0) {
          descended = true;
          break;
        }
        if (rindex[lw] < rindex[lv]) {
          rindex[lv] = rindex[lw];
          root[lv] = false;
        }
      }
      if (descended) {
        enter(g.target(first + path.back().next));
        continue;
      }
      path.pop_back();
      if (!root[lv]) {
        stack.push_back(lv);
        continue;
      }
      --index;
      while (!stack.empty() && rindex[lv] <= rindex[stack.back()]) {
        rindex[stack.back()] = component;
        stack.pop_back();
        --index;
      }
      rindex[lv] = component--;
    }
  }
  root = {};
  path = {};
  stack = {};
  if (g.stopped()) return {};

  // Components ordered by their smallest member, members ascending: which
  // components have two members or more is counted a bit per component
  // (a 4-byte size per component cost as much as rindex again: containment's
  // response loops, 18 MiB), and each cyclic state finds its component's
  // place in the result by binary search in the list of cyclic components.
  // Local numbers ascend with the states, so a walk over the states in
  // order meets the members in order.
  std::vector<bool> seen(std::size_t{m} + 1, false), several(std::size_t{m} + 1, false);
  for (StateId l = 0; l < m; ++l) {
    const std::uint32_t c = rindex[l];
    if (seen[c]) several[c] = true;
    seen[c] = true;
  }
  seen.assign(seen.size(), false);
  const auto cyclic = [&](StateId l) { return several[rindex[l]] || self_loop[l]; };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> slot;  // component -> index in result
  for (StateId l = 0; l < m; ++l) {
    if (!cyclic(l) || seen[rindex[l]]) continue;
    seen[rindex[l]] = true;
    slot.emplace_back(rindex[l], static_cast<std::uint32_t>(slot.size()));
  }
  std::sort(slot.begin(), slot.end());
  const auto place = [&](StateId l) {
    return std::lower_bound(slot.begin(), slot.end(), std::pair{rindex[l], std::uint32_t{0}})
        ->second;
  };
  std::vector<std::uint32_t> starts(slot.size() + 1, 0);
  for (StateId l = 0; l < m; ++l) {
    if (cyclic(l)) ++starts[place(l) + 1];
  }
  for (std::size_t i = 0; i < slot.size(); ++i) starts[i + 1] += starts[i];
  std::vector<StateId> members(starts.back());
  {
    std::vector<std::uint32_t> fill(starts.begin(), starts.end() - 1);
    for (StateId v = 0, l = 0; v < n && l < m; ++v) {
      if (!inside(v)) continue;
      if (cyclic(l)) members[fill[place(l)]++] = v;
      ++l;
    }
  }
  return {std::move(members), std::move(starts)};
}

std::vector<Edge> shortest_cycle(const Digraph& g, StateId entry, std::span<const StateId> members,
                                 const EdgePredicate& keep, const EdgePredicate& must) {
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
    Edge edge;
  };
  std::vector<Link> links;
  std::uint64_t out_edges = 0;  // (at most this many: backed at once)
  for (const StateId v : members) out_edges += g.end(v) - g.begin(v);
  if (!g.afford(out_edges * sizeof(Link) + std::uint64_t{m} * 6 * sizeof(std::uint32_t))) return {};
  checker::reserve_backed(links, out_edges);
  for (std::uint32_t u = 0; u < m; ++u) {
    for (const Edge& e : g.out(members[u])) {
      if (!kept(keep, members[u], e)) continue;
      const auto w = local(e.to);
      if (w != unreached) links.push_back({u, w, e});
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
    if (must && !must(members[l.from], l.edge)) continue;
    const std::uint64_t cost = std::uint64_t{df[l.from]} + 1 + db[l.to];
    if (cost < best_cost) {
      best_cost = cost;
      best = i;
    }
  }
  if (best == unreached) return {};

  std::vector<Edge> cycle;
  for (auto u = links[best].from; u != start; u = links[pred[u]].from) {
    cycle.push_back(links[pred[u]].edge);
  }
  std::reverse(cycle.begin(), cycle.end());
  cycle.push_back(links[best].edge);
  for (auto v = links[best].to; v != start; v = links[next[v]].to) {
    cycle.push_back(links[next[v]].edge);
  }
  return cycle;
}

bool shortest_path(const Digraph& g, StateId from, const StatePredicate& goal,
                   const StatePredicate& inside, const EdgePredicate& keep,
                   std::vector<Edge>& path) {
  path.clear();
  if (goal(from)) return true;
  // The breadth-first queue keeps every state reached, level by level, and
  // a bit per state says which are reached: 4 bytes a state reached (a hash
  // map of reached states cost 10 s of 13 in ends out of reach at
  // operators' 13.8 M states, where the nearest rule gap lies millions of
  // states away; the place each was reached from, 4 bytes more, was the
  // whole check's peak at 66.5 M). On the way back, a state's parent is the
  // first state of the level before with a kept edge to it, as the search
  // met it (no earlier level has one), and the edge is that first kept
  // edge: each level is read once.
  std::vector<StateId> queue{from};
  std::vector<std::size_t> level{0, 1};  // level d: queue[level[d], level[d + 1])
  std::vector<bool> seen(g.size(), false);
  seen[from] = true;
  // (The edges come by value: a copy, not a reference into the range.)
  const auto edge_to = [&](StateId u, StateId w) -> std::optional<Edge> {
    for (const Edge& e : g.out(u)) {
      if (e.to == w && kept(keep, u, e)) return e;
    }
    return std::nullopt;
  };
  for (std::size_t head = 0; head < queue.size(); ++head) {
    if (stop_at(g, static_cast<StateId>(head))) return false;
    if (head == level.back()) level.push_back(queue.size());
    const StateId u = queue[head];
    for (const Edge& e : g.out(u)) {
      if (seen[e.to] || !kept(keep, u, e)) continue;
      const bool is_goal = goal(e.to);
      if (!is_goal && !inside(e.to)) continue;
      seen[e.to] = true;
      queue.push_back(e.to);
      if (!is_goal) continue;
      // u is on level level.size() - 2 (the last entry of `level` starts
      // the level being filled, e.to's): the parents are on that level and
      // each one before it.
      StateId w = e.to;
      for (std::size_t d = level.size() - 1; d-- > 0;) {
        for (std::size_t i = level[d]; i < level[d + 1]; ++i) {
          if (const std::optional<Edge> taken = edge_to(queue[i], w)) {
            path.push_back(*taken);
            w = queue[i];
            break;
          }
        }
      }
      std::reverse(path.begin(), path.end());
      return true;
    }
  }
  return false;
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
      if (stop_at(g, v)) return reach;
      if (reach[v]) continue;
      const std::uint64_t first = g.begin(v), last = g.end(v);
      for (std::uint64_t i = first; i < last; ++i) {
        if (reach[g.target(i)] && kept(keep, v, g.edge(i, first))) {
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
  if (!g.afford((std::uint64_t{n} + 1) * 2 * sizeof(std::uint64_t) +
                g.edge_count() * sizeof(StateId))) {
    return reach;
  }
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
  for (StateId popped = 1; !stack.empty(); ++popped) {
    if (stop_at(g, popped)) return reach;
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

std::vector<std::vector<bool>> can_reach_each(const Digraph& g,
                                              std::vector<std::vector<bool>> targets) {
  const auto n = static_cast<StateId>(g.size());
  std::vector<std::vector<bool>> result(targets.size());
  std::vector<std::uint8_t> marks;
  for (std::size_t group = 0; group < targets.size(); group += 8) {
    const std::size_t sets = std::min<std::size_t>(8, targets.size() - group);
    if (!g.afford(n)) return result;
    marks.assign(n, 0);
    for (std::size_t k = 0; k < sets; ++k) {
      std::vector<bool>& t = targets[group + k];
      const auto bit = static_cast<std::uint8_t>(1U << k);
      for (StateId v = 0; v < n && v < t.size(); ++v) {
        if (t[v]) marks[v] |= bit;
      }
      std::vector<bool>().swap(t);  // (freed as it is read)
    }
    const auto all = static_cast<std::uint8_t>((1U << sets) - 1);
    // The sweeps of can_reach, every set at once: a state's marks are the
    // union of its successors' (and its own).
    constexpr int max_sweeps = 16;
    bool settled = false;
    for (int sweep = 0; sweep < max_sweeps && !settled; ++sweep) {
      bool changed = false;
      for (StateId v = n; v-- > 0;) {
        if (stop_at(g, v)) return result;
        std::uint8_t m = marks[v];
        if (m == all) continue;
        for (std::uint64_t i = g.begin(v), last = g.end(v); i < last && m != all; ++i) {
          m |= marks[g.target(i)];
        }
        if (m != marks[v]) {
          marks[v] = m;
          changed = true;
        }
      }
      settled = !changed;
    }
    for (std::size_t k = 0; k < sets; ++k) {
      std::vector<bool>& r = result[group + k];
      r.assign(n, false);
      for (StateId v = 0; v < n; ++v) r[v] = ((marks[v] >> k) & 1U) != 0;
      // Unsettled: the marks so far lie between the targets and what reaches
      // them, so can_reach from them gives the same answer.
      if (!settled) r = can_reach(g, r);
    }
  }
  return result;
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
