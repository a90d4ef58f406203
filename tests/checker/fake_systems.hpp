// Small hand-written transition systems for testing the explicit engine
// without the rules semantics, and a naive reference BFS (std::map, one
// thread, no packing) whose numbering, parents and edges the engine must
// reproduce exactly.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "explicit/bfs.hpp"

namespace loophole::checker::testing {

inline Layout make_layout(const std::vector<std::pair<std::int32_t, std::int32_t>>& ranges) {
  Layout l;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    std::string name = "f";
    name += std::to_string(i);
    l.fields.push_back({name, ranges[i].first, ranges[i].second});
  }
  l.data_fields = ranges.size();
  return l;
}

inline Successor make_successor(StateVec s, MoveKind kind, int player, bool progress = false,
                                Chooser chooser = Chooser::none, int chooser_player = -1) {
  Successor x;
  x.state = std::move(s);
  x.kind = kind;
  x.player = player;
  x.progress = progress;
  x.chooser = chooser;
  x.chooser_player = chooser_player;
  return x;
}

// (x, y) on an n x n torus: player 0 steps x, player 1 steps y. n*n states,
// 2*n*n transitions, the deepest state (n-1, n-1) at 2n-2 moves.
class Torus final : public TransitionSystem {
 public:
  explicit Torus(int n) : n_(n), layout_(make_layout({{0, n - 1}, {0, n - 1}})) {}
  const Layout& layout() const override { return layout_; }
  std::vector<StateVec> initial_states() const override { return {{0, 0}}; }
  void successors(const StateVec& s, std::vector<Successor>& out) const override {
    out.clear();
    out.push_back(
        make_successor({(s[0] + 1) % n_, s[1]}, MoveKind::action, 0, false, Chooser::player, 0));
    out.push_back(make_successor({s[0], (s[1] + 1) % n_}, MoveKind::advance, 1, true));
  }

 private:
  int n_;
  Layout layout_;
};

// An irregular system: a state's successors are derived from a hash of the
// state, with 0..5 successors (so some deadlocks), duplicate successors,
// self loops, several (duplicate) initial states, all move labels, and
// fields straddling 64-bit words. Its size is set by the field ranges.
class Scrambled final : public TransitionSystem {
 public:
  explicit Scrambled(std::uint64_t seed, int wide_fields = 3, int range = 201)
      : seed_(seed),
        range_(range),
        layout_(make_layout({{0, 0}, {-5, 40}, {0, 1}, {3, 3}, {0, 200}})) {
    for (int i = 0; i < wide_fields; ++i) layout_.fields.push_back({"w", -1000000, 1000000});
  }
  const Layout& layout() const override { return layout_; }
  std::vector<StateVec> initial_states() const override {
    StateVec a = base();
    StateVec b = base();
    b[1] = 7;
    return {a, b, a};
  }
  void successors(const StateVec& s, std::vector<Successor>& out) const override {
    out.clear();
    std::uint64_t h = seed_;
    for (const std::int32_t v : s) h = (h ^ static_cast<std::uint32_t>(v)) * 0x100000001B3ULL;
    const int degree = static_cast<int>(h % 6);
    for (int i = 0; i < degree; ++i) {
      h = h * 6364136223846793005ULL + 1442695040888963407ULL;
      StateVec t = s;
      const std::uint64_t r = h >> 20;
      if (i > 0 && (r & 15) == 0) {
        t = out.back().state;  // a duplicate successor
      } else if ((r & 15) == 1) {
        // self loop
      } else {
        t[1] = static_cast<std::int32_t>(-5 + (r >> 4) % 46);
        t[2] = static_cast<std::int32_t>((r >> 10) & 1);
        t[4] = static_cast<std::int32_t>((r >> 11) % 201) % range_;
        for (std::size_t f = 5; f < t.size(); ++f) {
          t[f] = static_cast<std::int32_t>((r >> 13) % 3) * 1000000 - 1000000;
        }
      }
      const auto kind = static_cast<MoveKind>((r >> 23) % 9);
      const auto chooser = static_cast<Chooser>((r >> 27) % 3);
      const int cp = chooser == Chooser::player ? static_cast<int>((r >> 29) % 4) : -1;
      out.push_back(make_successor(std::move(t), kind, cp, ((r >> 31) & 1) != 0, chooser, cp));
    }
  }

 private:
  StateVec base() const {
    StateVec s(layout_.fields.size(), 0);
    s[3] = 3;
    for (std::size_t f = 5; f < s.size(); ++f) s[f] = -1000000;
    return s;
  }
  std::uint64_t seed_;
  int range_;
  Layout layout_;
};

// Wraps a system: sleeps in every successors() call and/or raises a flag
// after a number of calls (for time limits and interrupts).
class Slow final : public TransitionSystem {
 public:
  Slow(const TransitionSystem& inner, std::chrono::microseconds pause,
       std::atomic<bool>* raise = nullptr, int after = 0)
      : inner_(inner), pause_(pause), raise_(raise), after_(after) {}
  const Layout& layout() const override { return inner_.layout(); }
  std::vector<StateVec> initial_states() const override { return inner_.initial_states(); }
  void successors(const StateVec& s, std::vector<Successor>& out) const override {
    if (pause_.count() > 0) std::this_thread::sleep_for(pause_);
    if (raise_ != nullptr && calls_.fetch_add(1) + 1 >= after_) raise_->store(true);
    inner_.successors(s, out);
  }

 private:
  const TransitionSystem& inner_;
  std::chrono::microseconds pause_;
  std::atomic<bool>* raise_;
  int after_;
  mutable std::atomic<int> calls_{0};
};

// Breadth-first search the obvious way.
struct ReferenceGraph {
  std::vector<StateVec> states;
  std::vector<StateId> parent;
  std::vector<std::uint32_t> parent_index;
  std::vector<std::uint32_t> depth;
  std::vector<std::vector<Edge>> edges;
  std::uint32_t initial_count = 0;
  std::uint64_t transitions = 0;
};

inline ReferenceGraph reference_bfs(const TransitionSystem& sys) {
  ReferenceGraph g;
  std::map<StateVec, StateId> ids;
  auto add = [&](const StateVec& s, StateId parent, std::uint32_t index, std::uint32_t depth) {
    const auto [it, fresh] = ids.emplace(s, static_cast<StateId>(g.states.size()));
    if (fresh) {
      g.states.push_back(s);
      g.parent.push_back(parent);
      g.parent_index.push_back(index);
      g.depth.push_back(depth);
    }
    return it->second;
  };
  for (const StateVec& s : sys.initial_states()) add(s, no_state, 0, 0);
  g.initial_count = static_cast<std::uint32_t>(g.states.size());
  std::vector<Successor> out;
  for (StateId id = 0; id < g.states.size(); ++id) {
    const StateVec s = g.states[id];
    const std::uint32_t d = g.depth[id];
    sys.successors(s, out);
    std::vector<Edge> edges;
    for (std::uint32_t i = 0; i < out.size(); ++i) {
      Edge e;
      e.to = add(out[i].state, id, i, d + 1);
      e.index = i;
      e.progress = out[i].progress;
      e.chooser = out[i].chooser;
      e.chooser_player = static_cast<std::int8_t>(out[i].chooser_player);
      e.kind = out[i].kind;
      edges.push_back(e);
    }
    g.transitions += edges.size();
    g.edges.push_back(std::move(edges));
  }
  return g;
}

inline bool same_edge(const Edge& a, const Edge& b) {
  return a.to == b.to && a.index == b.index && a.progress == b.progress && a.chooser == b.chooser &&
         a.chooser_player == b.chooser_player && a.kind == b.kind;
}

}  // namespace loophole::checker::testing
