// Turn loops: cycles that enter steps again and again while the turn never
// moves on (a `repeat_while` a player keeps true, steps that lead back to
// each other). They are invisible to the response-loop search, which counts
// entering a step as progress, and to the stalemate search, which asks for a
// turn to pass. The strongly connected components of the moves that do not
// start a new turn (the active player or the turn number stays), keeping
// those with a cycle that enters a step, are the loops; each is classified
// by who chooses on its shortest cycle, as response loops are. Nobody
// choosing is a hang, an error whatever the mechanism; a loop the game can
// still leave is said to be a stall (someone can keep it going to put off
// the end).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "analyses.hpp"

namespace loophole::properties::detail {
namespace {

struct TurnLoop {
  StateId entry = checker::no_state;
  std::vector<Edge> cycle;
  LoopChoice choice;
  int step = -1;  // the step the cycle enters first
};

std::string who_detail(const LoopChoice& c) {
  switch (c.loop) {
    case LoopClass::mandatory:
      return "nobody has a choice on the cycle: the game hangs";
    case LoopClass::optional_one:
      return fmt::format("only {} chooses on the cycle, and can keep it going as long as they like",
                         Context::player(c.player));
    case LoopClass::several_players:
      return "it goes on only while several players keep choosing it";
    case LoopClass::chance:
      return "it goes on only while nature's choices repeat";
    case LoopClass::none:
      break;
  }
  return "";
}

}  // namespace

void find_turn_loops(const Context& cx, std::vector<Finding>& out) {
  const auto same_turn = [&](StateId from, const Edge& e) {
    const Point& a = cx.points[from];
    const Point& b = cx.points[e.to];
    return a.over == 0 && b.over == 0 && a.active == b.active && a.turn == b.turn && a.step >= 0 &&
           b.step >= 0;
  };
  const EdgePredicate keep = same_turn;
  const EdgePredicate enters = [](StateId, const Edge& e) { return e.progress; };
  std::vector<TurnLoop> loops;
  for (const auto& members : cyclic_components(cx.moves, keep)) {
    if (cx.interrupted()) return;
    TurnLoop loop;
    loop.entry = earliest(cx, members);
    loop.cycle = shortest_cycle(cx.moves, loop.entry, members, keep, enters);
    if (loop.cycle.empty()) continue;  // only answers and passes: a response loop
    for (const Edge& e : loop.cycle) {
      if (e.progress) {
        loop.step = cx.points[e.to].step;
        break;
      }
    }
    loops.push_back(std::move(loop));
  }
  if (loops.empty()) return;
  std::sort(loops.begin(), loops.end(), [&](const TurnLoop& a, const TurnLoop& b) {
    const auto la = cx.depth(a.entry) + a.cycle.size(), lb = cx.depth(b.entry) + b.cycle.size();
    return la != lb ? la < lb : a.entry < b.entry;
  });
  // Whether the game can still end (or stop at a limit) from a state.
  std::vector<bool> ends(cx.size(), false);
  for (StateId v = 0; v < cx.size(); ++v) ends[v] = cx.final_state(v) || cx.frontier(v);
  const std::vector<bool> can_end = can_reach(cx.moves, ends);

  // One finding per step, class and controlling player; the rest counted.
  std::map<std::tuple<int, LoopClass, int>, std::size_t> places;
  for (TurnLoop& loop : loops) {
    loop.choice = classify_cycle(cx.moves, loop.entry, loop.cycle);
    const int player = loop.choice.loop == LoopClass::optional_one ? loop.choice.player : -1;
    ++places[{loop.step, loop.choice.loop, player}];
  }
  std::set<std::tuple<int, LoopClass, int>> reported;
  for (const TurnLoop& loop : loops) {
    const int player = loop.choice.loop == LoopClass::optional_one ? loop.choice.player : -1;
    const auto key = std::make_tuple(loop.step, loop.choice.loop, player);
    if (!reported.insert(key).second) continue;
    Finding f = cx.finding(Kind::turn_loop, Severity::error);
    f.loop = loop.choice.loop;
    f.loop_player = loop.choice.player;
    f.rule = cx.step_rule(loop.step);
    f.where = loop.step >= 0 ? cx.game.steps[loop.step].where : cx.game.where;
    const bool stall = can_end[loop.entry] && loop.choice.loop != LoopClass::mandatory;
    f.message = stall ? fmt::format(
                            "'{}' can be re-entered forever while the game could still end: the "
                            "turn never moves on (a stall)",
                            cx.step_label(loop.step))
                      : fmt::format("'{}' is re-entered forever: the turn never moves on",
                                    cx.step_label(loop.step));
    f.details.push_back(fmt::format("the cycle has {} move{}; {}", loop.cycle.size(),
                                    loop.cycle.size() == 1 ? "" : "s", who_detail(loop.choice)));
    if (const auto n = places.at(key); n > 1) {
      f.details.push_back(fmt::format("the same loop occurs in {} places of the state graph", n));
    }
    f.trace = cx.trace(loop.entry, {}, loop.cycle);
    out.push_back(std::move(f));
  }
}

}  // namespace loophole::properties::detail
