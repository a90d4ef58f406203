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

#include <fmt/format.h>

#include "analyses.hpp"
#include "loop_forcing.hpp"

namespace loophole::properties::detail {
namespace {

struct TurnLoop {
  StateId entry = checker::no_state;
  std::vector<StateId> members;  // its component of same-turn moves
  std::vector<Edge> cycle;
  LoopChoice choice;
  int step = -1;  // the step the cycle enters first
  // What makes two loops one finding, as for response loops: the class, the
  // controlling player of an optional loop, and the rules on the cycle (the
  // actions and triggers taken on it; the step, when there are none).
  LoopKey key;
};

// The actions and triggers taken on the cycle ("action:hold"), or the step
// it enters first when it takes none.
std::set<std::string> cycle_rules(const Context& cx, const TurnLoop& loop) {
  std::set<std::string> rules;
  StateId at = loop.entry;
  for (const Edge& e : loop.cycle) {
    if (e.kind == checker::MoveKind::action || e.kind == checker::MoveKind::trigger) {
      const checker::Successor m = cx.move(at, e);
      if (m.ref >= 0) {
        rules.insert(m.kind == checker::MoveKind::action
                         ? "action:" + cx.game.actions[static_cast<std::size_t>(m.ref)].name
                         : "trigger:" + cx.game.triggers[static_cast<std::size_t>(m.ref)].name);
      }
    }
    at = e.to;
  }
  if (rules.empty()) rules.insert(cx.step_rule(loop.step));
  return rules;
}

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

// The moves within a turn between running states, and those that enter a step.
bool same_turn(const Context& cx, StateId from, const Edge& e) {
  const Point& a = cx.points[from];
  const Point& b = cx.points[e.to];
  return a.over == 0 && b.over == 0 && a.active == b.active && a.turn == b.turn && a.step >= 0 &&
         b.step >= 0;
}

// Each loop (one per cyclic component of the same-turn moves whose
// shortest cycle enters a step), classified, with its key, handed to
// `visit` with its component's members (which the loop does not keep).
template <class Visit>
void each_turn_loop(const Context& cx, Visit&& visit) {
  const EdgePredicate keep = [&](StateId from, const Edge& e) { return same_turn(cx, from, e); };
  const EdgePredicate enters = [](StateId, const Edge& e) { return e.progress; };
  for (const auto members : cx.cyclic_components(keep)) {
    if (cx.interrupted()) return;
    if (!cx.looks_at(members, 1)) continue;
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
    loop.choice = classify_cycle(cx.moves, loop.entry, loop.cycle);
    loop.key.loop = loop.choice.loop;
    loop.key.player = loop.choice.loop == LoopClass::optional_one ? loop.choice.player : -1;
    loop.key.rules = cycle_rules(cx, loop);
    visit(std::move(loop), members);
  }
}

}  // namespace

void turn_loop_summaries(const Context& cx, std::vector<LoopSummary>& out) {
  each_turn_loop(cx, [&](const TurnLoop& loop, std::span<const StateId>) {
    LoopSummary s;
    s.analysis = 1;
    s.entry = loop.entry;
    s.words = {cx.depth(loop.entry) + loop.cycle.size()};
    const auto key = key_words(loop.key);
    s.words.insert(s.words.end(), key.begin(), key.end());
    out.push_back(std::move(s));
  });
}

void find_turn_loops(const Context& cx, std::vector<Finding>& out) {
  const EdgePredicate keep = [&](StateId from, const Edge& e) { return same_turn(cx, from, e); };
  // Of the loops with the same key, the one with the shortest lasso (then
  // the earliest entry) is shown; the others are only counted.
  LoopsByKey<TurnLoop> by_key(cx);
  each_turn_loop(cx, [&](TurnLoop&& loop, std::span<const StateId> members) {
    by_key.add(std::move(loop), members);
  });
  if (cx.interrupted()) return;
  // (Over the whole graph, when the slice holds only the loops shown.)
  const std::map<LoopKey, std::size_t> places = by_key.places(1);
  const std::vector<TurnLoop> loops = std::move(by_key).shown();
  if (loops.empty()) return;
  // Whether the game can still end (or stop at a limit) from a state.
  const std::vector<bool>& can_end = cx.can_finish();
  if (cx.interrupted()) return;

  // One finding per class, controlling player and rules on the cycle (per
  // card, as response loops: each player's loop with the same card is a
  // finding of its own); the rest counted.
  std::set<LoopKey> reported;
  std::vector<std::pair<LoopKey, std::size_t>> shown;  // key -> index in out
  LoopForcing forcing(cx);
  for (const TurnLoop& loop : loops) {
    const auto& key = loop.key;
    if (!reported.insert(key).second) continue;
    Finding f = cx.finding(Kind::turn_loop, Severity::error);
    f.loop = loop.choice.loop;
    f.loop_player = loop.choice.player;
    f.rule = cx.step_rule(loop.step);
    f.where = loop.step >= 0 ? cx.game.steps[loop.step].where : cx.game.where;
    const bool stall = can_end[loop.entry] && loop.choice.loop != LoopClass::mandatory;
    // The cards that keep it going, when any: "by 'hold' and 'echo'".
    std::string by;
    for (const std::string& r : key.rules) {
      if (r.rfind("step:", 0) == 0) continue;
      by += fmt::format("{}'{}'", by.empty() ? " by " : ", ", r.substr(r.find(':') + 1));
    }
    if (const auto last = by.rfind(", "); last != std::string::npos) by.replace(last, 2, " and ");
    f.message = stall ? fmt::format(
                            "'{}' can be re-entered forever{} while the game could still end: "
                            "the turn never moves on (a stall)",
                            cx.step_label(loop.step), by)
                      : fmt::format("'{}' is re-entered forever{}: the turn never moves on",
                                    cx.step_label(loop.step), by);
    f.details.push_back(fmt::format("the cycle has {} move{}; {}", loop.cycle.size(),
                                    loop.cycle.size() == 1 ? "" : "s", who_detail(loop.choice)));
    f.forced_by = forcing.coalitions(loop.members, loop.entry, keep);
    f.details.push_back(forcing_detail(*f.forced_by, cx.game.players));
    if (const auto n = places.at(key); n > 1) {
      f.details.push_back(fmt::format("the same loop occurs in {} places of the state graph", n));
    }
    f.trace = cx.trace(loop.entry, {}, loop.cycle);
    shown.emplace_back(key, out.size());
    out.push_back(std::move(f));
  }

  link_joined_loops(shown, out);
}

}  // namespace loophole::properties::detail
