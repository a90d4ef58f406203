// Stalemates: the game keeps advancing (turns pass) but can never end. One
// backward search from the final states (and, after an incomplete
// exploration, from the unexpanded frontier, which might still end) marks
// every state that can still finish; the rest are doomed. The strongly
// connected components of the doomed states that contain a progress move are
// the stalemates, when a cycle through them starts a new turn (cycles within
// one turn are turn loops: turn_loops.cpp). Usually the whole tail of a
// broken game is one component, so only the shortest few lassos are reported
// and the rest counted. A cycle on which nobody chooses is a hang: an error,
// not a warning.
#include <algorithm>

#include <fmt/format.h>

#include "analyses.hpp"

namespace loophole::properties::detail {
namespace {

struct Stalemate {
  StateId entry = checker::no_state;
  std::vector<Edge> cycle;
};

// The stalemates (cyclic components of the states that cannot finish whose
// shortest cycle starts a new turn), shortest lassos first.
std::vector<Stalemate> stalemates(const Context& cx) {
  std::vector<Stalemate> found;
  const StateId n = cx.size();
  const std::vector<bool>& can_end = cx.can_finish();
  if (cx.interrupted() || can_end.size() != n) return found;
  // (Most games can end from every state: then there is nothing to look for.)
  if (std::find(can_end.begin(), can_end.end(), false) == can_end.end()) return found;

  // Edges out of a doomed state only lead to doomed states.
  const EdgePredicate doomed = [&](StateId from, const Edge&) { return !can_end[from]; };
  const EdgePredicate new_turn = [&](StateId from, const Edge& e) {
    const Point& a = cx.points[from];
    const Point& b = cx.points[e.to];
    return a.active != b.active || a.turn != b.turn;
  };
  for (const auto& members : cx.cyclic_components(doomed)) {
    if (cx.interrupted()) return found;
    if (!cx.looks_at(members, 2)) continue;
    Stalemate s;
    s.entry = earliest(cx, members);
    s.cycle = shortest_cycle(cx.moves, s.entry, members, doomed, new_turn);
    if (!s.cycle.empty()) found.push_back(std::move(s));
  }
  std::sort(found.begin(), found.end(), [&](const Stalemate& a, const Stalemate& b) {
    const auto la = cx.depth(a.entry) + a.cycle.size(), lb = cx.depth(b.entry) + b.cycle.size();
    return la != lb ? la < lb : a.entry < b.entry;
  });
  return found;
}

}  // namespace

void stalemate_summaries(const Context& cx, std::vector<LoopSummary>& out) {
  for (const Stalemate& s : stalemates(cx)) {
    out.push_back({2, s.entry, 0, {cx.depth(s.entry) + s.cycle.size()}});
  }
}

void find_stalemates(const Context& cx, std::vector<Finding>& out) {
  const std::vector<Stalemate> found = stalemates(cx);
  if (cx.interrupted()) return;
  // (Over the whole graph, when the slice holds only those shown.)
  const std::size_t total = cx.known_counts != nullptr ? cx.known_counts->stalemates : found.size();

  const std::size_t shown = std::min(found.size(), cx.selection.max_stalemates);
  for (std::size_t i = 0; i < shown; ++i) {
    const Stalemate& s = found[i];
    const int step = cx.points[s.entry].step;
    const LoopChoice choice = classify_cycle(cx.moves, s.entry, s.cycle);
    const bool hang = choice.loop == LoopClass::mandatory;
    Finding f = cx.finding(Kind::stalemate, hang ? Severity::error : Severity::warning);
    if (hang) f.loop = LoopClass::mandatory;
    f.rule = cx.step_rule(step);
    f.where = step >= 0 ? cx.game.steps[step].where : cx.game.where;
    f.message = fmt::format("from '{}' the game can go on forever: no sequence of moves ends it",
                            cx.step_label(step));
    const auto advancing =
        std::count_if(s.cycle.begin(), s.cycle.end(), [](const Edge& e) { return e.progress; });
    f.details.push_back(fmt::format("the cycle has {} move{}, {} of them entering a step{}",
                                    s.cycle.size(), s.cycle.size() == 1 ? "" : "s", advancing,
                                    hang ? "; nobody has a choice on it: the game hangs" : ""));
    if (total > 1) {
      f.details.push_back(fmt::format(
          "{} separate parts of the state graph never end; the {} shortest are reported", total,
          shown));
    }
    f.trace = cx.trace(s.entry, {}, s.cycle);
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
