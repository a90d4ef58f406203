// Building the context is the one pass over every state that all analyses
// share: read each state's control point, and take the edges in the
// engine's compact form (read in place: a copy into 12-byte edges was a
// third of a whole check's peak), or copied into it from another graph.
// After an incomplete exploration the states past ExploredGraph::expanded()
// have no edges only because the search stopped first: no analysis may call
// them deadlocks or dead ends.
#include "context.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include <fmt/format.h>

#include "loophole/checker/memory.hpp"
#include "loophole/checker/questions.hpp"
#include "loophole/properties/state_groups.hpp"

namespace loophole::properties::detail {

Context::Context(const checker::ExploredGraph& explored, const CheckSelection& chosen,
                 const std::atomic<bool>* interrupt, checker::RunLimits* limits, int threads)
    : graph(explored),
      semantics(explored.semantics()),
      game(explored.semantics().game()),
      selection(chosen),
      complete(explored.completion() == checker::Completion::complete),
      expanded_(explored.expanded()),
      interrupt_(limits != nullptr ? &limits->stop() : interrupt),
      limits_(limits),
      depth_ordered_(explored.numbered_by_depth()) {
  const auto n = static_cast<StateId>(graph.size());
  const checker::Layout& layout = semantics.layout();
  gap_field_ = layout.gap;
  if (game.steps.size() > static_cast<std::size_t>(Point::max_steps) ||
      game.scope.turns > static_cast<int>(Point::max_turn)) {
    throw std::length_error(fmt::format(
        "loophole: the analyses handle at most {} steps and {} turns; this game has {} and {}",
        Point::max_steps, Point::max_turn, game.steps.size(), game.scope.turns));
  }
  // The engine's edges are read in place; another graph's are copied into
  // the same compact form (5 bytes an edge).
  auto compact = graph.compact_edges();
  const std::uint64_t copied =
      compact ? 0 : graph.statistics().transitions * 5 + std::uint64_t{n} * 4;
  if (!afford(std::uint64_t{n} * sizeof(Point) + copied)) {
    return;  // interrupted() is set: every analysis stops at once
  }
  if (compact) moves = Digraph(std::move(*compact));
  moves.resize(n);
  moves.stop = interrupt_;
  moves.limits = limits_;
  // (Backed at once: the analyses' largest array, whose first touches would
  // be a page fault every 4 KiB; memory.hpp.)
  points.reserve(n);
  std::vector<Edge> out;
  // (Only the control fields: unpacking every field of every state cost as
  // much again as the rest of this pass.)
  const std::array<int, 6> control = {layout.over,   layout.step,          layout.stage,
                                      layout.active, layout.window_holder, layout.turn};
  const auto point_of = [&](StateId v) {
    std::array<std::int32_t, 6> c{};
    graph.fields_into(v, control, 0, c.data());
    Point p;
    p.over = static_cast<std::uint32_t>(c[0]) & 3U;
    p.step = c[1];
    p.stage = static_cast<std::uint32_t>(c[2]) & 7U;
    p.active = static_cast<std::uint32_t>(c[3]) & 7U;
    p.turn = static_cast<std::uint32_t>(c[5]) & Point::max_turn;
    if (p.stage == static_cast<unsigned>(checker::Stage::window)) p.holder = c[4];
    return p;
  };
  // The engine's graph on several threads: each reads its share of the
  // states (reading a state's fields is most of this pass), as long as the
  // points have 1-byte indices; otherwise, and for other graphs (whose
  // edges are copied in order), one thread.
  constexpr StateId parallel_above = StateId{1} << 16;
  if (compact && threads > 1 && n > parallel_above &&
      points.fill_parallel(n, threads, point_of, interrupt_)) {
    return;
  }
  for (StateId v = 0; v < n; ++v) {
    if (interrupted()) break;  // every analysis sees the flag and stops too
    if (!compact) {
      graph.edges_into(v, out);
      moves.add_state(out);
    }
    points.push_back(point_of(v));
  }
  // (Interrupted: the rest as default points, as every analysis stops.)
  if (points.size() < n) points.fill(n, Point{});
}

void Points::reserve(std::size_t n) {
  capacity_ = n;
  checker::reserve_backed(narrow_, n);
}

void Points::push_back(Point p) {
  if (width_ == 4) {
    raw_.push_back(p);
    ++size_;
    return;
  }
  const auto bits = std::bit_cast<std::uint32_t>(p);
  // (A direct-mapped cache before the map: a lookup in the map per state
  // cost 6% of the pass.)
  Cached& c = slot(cache_, bits);
  if (c.bits != bits) {
    auto [at, fresh] = index_.try_emplace(bits, static_cast<std::uint32_t>(table_.size()));
    if (fresh) {
      table_.push_back(p);
      if (table_.size() > (width_ == 1 ? 256U : 65536U)) {
        widen();
        if (width_ == 4) {
          raw_.push_back(p);
          ++size_;
          return;
        }
      }
    }
    c = {bits, at->second};
  }
  if (width_ == 1) {
    narrow_.push_back(static_cast<std::uint8_t>(c.index));
  } else {
    wide_.push_back(static_cast<std::uint16_t>(c.index));
  }
  ++size_;
}

void Points::fill(std::size_t n, Point p) {
  if (size_ >= n) return;
  push_back(p);
  while (size_ < n) {
    switch (width_) {
      case 1:
        narrow_.push_back(narrow_.back());
        break;
      case 2:
        wide_.push_back(wide_.back());
        break;
      default:
        raw_.push_back(p);
    }
    ++size_;
  }
}

bool Points::fill_parallel(std::size_t n, int threads, const std::function<Point(StateId)>& of,
                           const std::atomic<bool>* stop) {
  if (size_ != 0 || width_ != 1) return false;
  narrow_.resize(n);
  std::mutex mutex;
  std::atomic<bool> too_many{false};
  const auto work = [&](std::size_t lo, std::size_t hi) {
    Cache cache{};
    for (std::size_t v = lo; v < hi; ++v) {
      if ((v & 4095U) == 0 && (too_many.load(std::memory_order_relaxed) ||
                               (stop != nullptr && stop->load(std::memory_order_relaxed)))) {
        return;
      }
      const Point p = of(static_cast<StateId>(v));
      const auto bits = std::bit_cast<std::uint32_t>(p);
      Cached& c = slot(cache, bits);
      if (c.bits != bits) {
        const std::lock_guard lock(mutex);
        const auto [at, fresh] =
            index_.try_emplace(bits, static_cast<std::uint32_t>(table_.size()));
        if (fresh) table_.push_back(p);
        if (at->second > 255) {
          too_many.store(true, std::memory_order_relaxed);
          return;
        }
        c = {bits, at->second};
      }
      narrow_[v] = static_cast<std::uint8_t>(c.index);
    }
  };
  {
    std::vector<std::jthread> team;
    const auto t = static_cast<std::size_t>(threads);
    for (std::size_t i = 1; i < t; ++i) team.emplace_back(work, n * i / t, n * (i + 1) / t);
    work(0, n / t);
  }
  if (too_many.load()) {
    // (More than 256 distinct points: the caller goes over them again on
    // one thread, widening as it needs.)
    narrow_.clear();
    table_.clear();
    index_.clear();
    return false;
  }
  // (Interrupted: the states not reached read as some point, as every
  // analysis stops.)
  if (table_.empty()) {
    table_.push_back(Point{});
    index_.emplace(std::bit_cast<std::uint32_t>(Point{}), 0);
  }
  size_ = n;
  cache_.fill(Cached{});
  return true;
}

// One byte an index is not enough (or two): the indices so far move to the
// wider array, once (backed at once, as the narrow one was).
void Points::widen() {
  if (width_ == 1) {
    checker::reserve_backed(wide_, capacity_);
    wide_.assign(narrow_.begin(), narrow_.end());
    std::vector<std::uint8_t>().swap(narrow_);
    width_ = 2;
    return;
  }
  checker::reserve_backed(raw_, capacity_);
  for (const std::uint16_t i : wide_) raw_.push_back(table_[i]);
  std::vector<std::uint16_t>().swap(wide_);
  std::unordered_map<std::uint32_t, std::uint32_t>().swap(index_);
  width_ = 4;
}

bool Context::earlier(StateId a, StateId b) const {
  if (depth_ordered_) return a < b;
  const auto da = graph.depth(a), db = graph.depth(b);
  return da != db ? da < db : a < b;
}

int Context::gap(StateId v) const {
  if (points[v].over != 2) return 0;
  std::int32_t g = 0;
  graph.fields_into(v, std::span<const int>(&gap_field_, 1), 0, &g);
  return g;
}

const std::vector<bool>& Context::can_finish() const {
  std::call_once(can_finish_once_, [&] {
    cyclic();
    if (interrupted()) return;
    can_finish_.assign(size(), false);
    for (StateId v = 0; v < size(); ++v) can_finish_[v] = (reach_bits(v) & reach_finish) != 0;
  });
  return can_finish_;
}

const CyclicStates& Context::cyclic() const {
  std::call_once(components_once_, [&] { components(); });
  return cyclic_;
}

ComponentList Context::cyclic_components(const EdgePredicate& keep) const {
  const CyclicStates& within = cyclic();
  if (within.count == 0) return {};
  const std::lock_guard lock(cyclic_components_mutex_);
  return detail::cyclic_components(moves, keep, &within);
}

void Context::components() const {
  const StateId n = size();
  // (Not on a slice, whose answers come from the whole graph: known_ends,
  // assume_can_finish.)
  const bool ends = selection.stalemates && !game.end_conditions.empty() && known_ends == nullptr &&
                    !finish_given_ && n > 0;
  const std::size_t np = ends ? static_cast<std::size_t>(game.players) : 0;
  const auto pass = [&](auto& marks) {
    using Mark = typename std::remove_reference_t<decltype(marks)>::value_type;
    if (!afford(std::uint64_t{n} * sizeof(Mark))) return;
    marks.assign(n, 0);
    // The targets: the final states and the frontier (can_finish), the real
    // ends and the frontier (can_end), each player's losses and wins (the
    // frontier counts as both: what lies beyond it is unknown).
    std::vector<bool> beyond(n, false);
    for (StateId v = 0; v < n; ++v) {
      beyond[v] = frontier(v);
      if (final_state(v) || beyond[v]) marks[v] |= reach_finish;
      if (points[v].over == 1 || beyond[v]) marks[v] |= reach_end;
    }
    if (ends) {
      Outcomes o = outcomes(*this);
      if (interrupted()) return;
      for (std::size_t p = 0; p < np; ++p) {
        const auto lose = static_cast<Mark>(Mark{1} << (reach_players + 2 * p));
        const auto win = static_cast<Mark>(Mark{1} << (reach_players + 2 * p + 1));
        for (StateId v = 0; v < n; ++v) {
          if (o.loses[p][v] || beyond[v]) marks[v] |= lose;
          if (o.wins[p][v] || beyond[v]) marks[v] |= win;
        }
        o.loses[p] = {};
        o.wins[p] = {};
      }
    }
    beyond = {};
    cyclic_ = reach_through_components(moves, marks, static_cast<Mark>(reach_endless));
  };
  if (reach_players + 2 * np <= 8) {
    pass(reach8_);
  } else {
    pass(reach32_);
  }
}

void Context::assume_can_finish(std::vector<bool> can_finish) {
  finish_given_ = true;
  std::call_once(can_finish_once_, [&] { can_finish_ = std::move(can_finish); });
}

checker::Successor Context::move(StateId from, const Edge& e) const {
  std::vector<checker::Successor> out;
  semantics.successors(graph.state(from), out);
  if (e.index >= out.size()) {
    throw std::logic_error(fmt::format(
        "loophole: internal error: state {} has {} successors on the semantics, edge index {}",
        from, out.size(), e.index));
  }
  return std::move(out[e.index]);
}

std::string Context::step_label(int step) const { return game.step_label(step); }

std::string Context::place(StateId v) const {
  const Point& p = points[v];
  std::string label = fmt::format("'{}'", step_label(p.step));
  if (p.stage != static_cast<std::int8_t>(checker::Stage::start) || p.turn > 1 || p.active != 0) {
    return label;
  }
  for (StateId u = v;; u = graph.parent(u)) {  // entered a step on the way here?
    if (points[u].stage != static_cast<std::int8_t>(checker::Stage::start)) return label;
    if (depth(u) == 0) break;
  }
  return fmt::format("setup, before {} begins", label);
}

std::string Context::step_rule(int step) const { return game.step_rule(step); }

// The words of checker/questions.hpp, as the other analyses and the SMT
// engine name actions and players.
std::string Context::action_label(int action) const {
  return checker::question::action_label(game.actions[action]);
}

std::string Context::player(int p) { return checker::question::player(p); }

std::string Context::incomplete_reason() const {
  return properties::incomplete_reason(graph.completion(), graph.size());
}

Finding Context::finding(Kind kind, Severity severity) const {
  Finding f;
  f.kind = kind;
  f.severity = severity;
  f.verdict = Verdict::violated;
  f.engine = "explicit";
  return f;
}

Finding Context::absence(Kind kind, Severity severity) const {
  Finding f = finding(kind, complete ? severity : Severity::note);
  if (!complete) f.verdict = Verdict::unknown;
  return f;
}

checker::Trace Context::trace(StateId from, const std::vector<Edge>& path,
                              const std::vector<Edge>& cycle) const {
  if (path.empty()) return cycle.empty() ? graph.trace_to(from) : graph.lasso(from, cycle);
  if (graph.reduced()) return graph.trace_along(from, path, cycle);  // (made concrete)
  // A path that goes on from `from`: extend the shortest trace move by move,
  // transcribed like the engine's own traces, and replay the result.
  checker::Trace t = graph.trace_to(from);
  std::vector<checker::Successor> out;
  const auto append = [&](StateId u, const Edge& e) {
    const checker::StateVec before = graph.state(u);
    semantics.successors(before, out, true);
    if (e.index >= out.size()) {
      throw std::logic_error(fmt::format(
          "loophole: internal error: edge index {} out of range at state {}", e.index, u));
    }
    checker::TraceStep step = semantics.describe(before, out[e.index], e.index);
    step.successor = e.index;
    t.steps.push_back(std::move(step));
  };
  StateId at = from;
  for (const Edge& e : path) {
    append(at, e);
    at = e.to;
  }
  if (!cycle.empty()) t.loop_start = static_cast<int>(t.steps.size());
  for (const Edge& e : cycle) {
    append(at, e);
    at = e.to;
  }
  const auto replay = semantics.replay(t);
  if (!replay.ok) {
    throw std::logic_error(
        fmt::format("loophole: internal error: a trace built from the graph does not replay: {}",
                    replay.error));
  }
  return t;
}

Outcomes outcomes(const Context& cx) {
  const auto np = static_cast<std::size_t>(cx.game.players);
  const int players = cx.game.players;
  Outcomes o{std::vector<std::vector<bool>>(np, std::vector<bool>(cx.size(), false)), {}};
  o.wins = o.loses;
  checker::StateVec state;
  std::vector<std::pair<int, int>> scratch;
  // Where a statement can end the game, who the moves into each game-over
  // state named: each source of such a move recomputed with its record
  // (strategy.cpp reads them the same way). `entered`: bit 0 some move in
  // was ended by an end condition, bit 1 some move leads in.
  const bool recorded = ends_by_statement(cx.game);
  std::vector<std::uint8_t> entered;
  if (recorded) {
    entered.assign(cx.size(), 0);
    std::vector<checker::Successor> moves;
    for (StateId u = 0; u < cx.size(); ++u) {
      if (cx.interrupted()) return o;  // the caller sees the flag too
      if (cx.final_state(u)) continue;
      const auto out = cx.moves.out(u);
      if (std::none_of(out.begin(), out.end(),
                       [&](const Edge& e) { return cx.points[e.to].over == 1; })) {
        continue;
      }
      cx.graph.state_into(u, state);
      cx.semantics.successors(state, moves, true);
      for (const Edge& e : out) {
        if (cx.points[e.to].over != 1) continue;
        if (e.index >= moves.size()) {
          throw std::logic_error(fmt::format(
              "loophole: internal error: state {} has {} successors on the semantics, edge {}", u,
              moves.size(), e.index));
        }
        checker::Ending one;
        one.add(moves[e.index], players);
        for (std::size_t q = 0; q < np; ++q) {
          if (((one.loses >> q) & 1U) != 0) o.loses[q][e.to] = true;
          if (((one.wins >> q) & 1U) != 0) o.wins[q][e.to] = true;
        }
        entered[e.to] |= one.conditions ? 3U : 2U;
      }
    }
  }
  checker::Ending by_conditions;
  by_conditions.conditions = true;
  for (StateId v = 0; v < cx.size(); ++v) {
    if (cx.interrupted()) break;  // the caller sees the flag too
    if (cx.points[v].over != 1) continue;
    // (Ended by a statement only: what the moves in named is all.)
    if (recorded && entered[v] == 2) continue;
    cx.graph.state_into(v, state);
    const StateOutcome so = state_outcome(cx.semantics, state, by_conditions, scratch);
    for (std::size_t q = 0; q < np; ++q) {
      if (((so.loses >> q) & 1U) != 0) o.loses[q][v] = true;
      if (((so.wins >> q) & 1U) != 0) o.wins[q][v] = true;
    }
  }
  return o;
}

}  // namespace loophole::properties::detail
