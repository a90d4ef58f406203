// Ends out of reach: from some reachable state a player can neither lose nor
// win any more (cannot-lose), or no end condition can be reached at all and
// only a rule gap still stops the game (cannot-end). Rule gaps do not count
// as ends here: a game that ends only by running into one has no end its
// rules wrote. The context's one pass of strongly connected components
// answers for all target sets at once (real ends, each player's losses and
// wins) which states can still get there; the frontier
// of an incomplete exploration counts as reaching everything, so what is
// reported holds whatever lies beyond it. Each (player, kind) is reported
// once, at the earliest such state, with the shortest trace to it. States
// that cannot reach any final state are stalemates (stalemate.cpp), and a
// win nobody ever reaches is an unreachable win: neither is repeated here.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "analyses.hpp"

namespace loophole::properties::detail {
namespace {

// The earliest running, expanded state satisfying `pick`.
template <class Pick>
StateId first_state(const Context& cx, const Pick& pick) {
  StateId best = checker::no_state;
  for (StateId v = 0; v < cx.size(); ++v) {
    if (cx.points[v].over != 0 || cx.frontier(v) || !pick(v)) continue;
    if (best == checker::no_state || cx.earlier(v, best)) best = v;
  }
  return best;
}

// Whether some initial state (one per outcome of the setup) is marked.
template <class Marked>
bool from_start(const Context& cx, const Marked& marked) {
  for (StateId v = 0; v < cx.size(); ++v) {
    if (cx.depth(v) == 0 && marked(v)) return true;
  }
  return false;
}

}  // namespace

void find_ends_out_of_reach(const Context& cx, std::vector<Finding>& out) {
  const StateId n = cx.size();
  const int players = cx.game.players;
  if (n == 0 || cx.game.end_conditions.empty()) return;
  // On a slice of a graph kept elsewhere (the distributed search): the whole
  // graph's answers, given.
  const EndsReach* known = cx.known_ends;
  // Else the whole graph's pass of strongly connected components, which
  // the context shares (Context::cyclic), answers every backward search:
  // the real ends, each player's losses and wins, and where the game can go
  // on forever (a cycle is reachable; when it is not, every way on runs into
  // a rule gap and the finding is that gap's consequence, often a scope
  // effect: the deck runs out first).
  if (known == nullptr) cx.cyclic();
  const std::vector<bool>& can_finish = cx.can_finish();
  if (cx.interrupted()) return;
  const auto can_end = [&](StateId v) {
    return known != nullptr ? static_cast<bool>(known->can_end[v]) : cx.can_end(v);
  };
  const auto can_lose = [&](std::size_t p, StateId v) {
    return known != nullptr ? static_cast<bool>(known->can_lose[p][v]) : cx.can_lose(p, v);
  };
  const auto can_win = [&](std::size_t p, StateId v) {
    return known != nullptr ? static_cast<bool>(known->can_win[p][v]) : cx.can_win(p, v);
  };
  const auto endless = [&](StateId v) {
    return known != nullptr ? static_cast<bool>(known->endless[v]) : cx.endless(v);
  };
  const auto severity = [&](StateId v) { return endless(v) ? Severity::warning : Severity::note; };
  // A note (every way on stops at a rule gap) is that gap's consequence: the
  // gap its shortest way on runs into is its cause, and it is listed beneath
  // that gap's finding (root_causes.cpp).
  const auto gap_cause = [&](StateId v) -> std::optional<Finding::Cause> {
    if (endless(v)) return std::nullopt;
    const auto& gaps = cx.semantics.gaps();
    const StatePredicate at_gap = [&](StateId s) {
      const int gap = cx.gap(s);
      return gap > 0 && static_cast<std::size_t>(gap) <= gaps.size() &&
             gaps[static_cast<std::size_t>(gap - 1)].kind != checker::GapSite::Kind::stack_overflow;
    };
    std::vector<Edge> path;
    if (!shortest_path(
            cx.moves, v, at_gap, [](StateId) { return true; }, {}, path)) {
      return std::nullopt;
    }
    const StateId end = path.empty() ? v : path.back().to;
    return Finding::Cause{Kind::rule_gap, gaps[static_cast<std::size_t>(cx.gap(end) - 1)].rule, -1};
  };
  const auto gap_detail = [&](StateId v) {
    return endless(v) ? std::string(
                            "from here the game can go on forever, or stop at a rule "
                            "gap, which is no end")
                      : std::string(
                            "every way on from here stops at a rule gap, which is no "
                            "end: a consequence of that gap, or of a scope too small to "
                            "reach an end");
  };

  // Where every end is out of reach but a rule gap still stops the game (with
  // no final state at all it is a stalemate). Not from the start: then every
  // end is an unreachable win.
  const StateId stuck =
      (known != nullptr ? known->start_can_end : from_start(cx, can_end))
          ? first_state(cx, [&](StateId s) { return can_finish[s] && !can_end(s); })
          : checker::no_state;
  std::vector<std::string> also_stuck;  // players who can no longer lose there too

  // Where a player, still able to lose from the start, can no longer lose or
  // win. (One who can still win is winning, not stuck.) At the state where
  // the game can no longer end this is a consequence, listed under it.
  for (int p = 0; p < players; ++p) {
    const auto i = static_cast<std::size_t>(p);
    const auto loses = [&](StateId s) { return can_lose(i, s); };
    if (!(known != nullptr ? known->start_can_lose[i] : from_start(cx, loses))) {
      continue;  // an unreachable loss: unreachable_win.cpp
    }
    const StateId v = first_state(
        cx, [&](StateId s) { return can_finish[s] && !can_lose(i, s) && !can_win(i, s); });
    if (v == checker::no_state) continue;
    if (v == stuck) {
      also_stuck.push_back(Context::player(p));
      continue;
    }
    const int step = cx.points[v].step;
    Finding f = cx.finding(Kind::cannot_lose, severity(v));
    f.rule = fmt::format("{}/{}", cx.step_rule(step), Context::player(p));
    f.where = step >= 0 ? cx.game.steps[static_cast<std::size_t>(step)].where : cx.game.where;
    f.message = fmt::format("from '{}' {} can no longer lose, nor win", cx.step_label(step),
                            Context::player(p));
    f.details.push_back(
        can_end(v) ? fmt::format("the game can still end, but never with {} losing or winning",
                                 Context::player(p))
                   : std::string("no end condition can hold any more"));
    if (!can_end(v)) {
      f.details.push_back(gap_detail(v));
      f.cause = gap_cause(v);
    }
    f.trace = cx.trace(v);
    out.push_back(std::move(f));
  }

  if (stuck == checker::no_state) return;
  const int step = cx.points[stuck].step;
  Finding f = cx.finding(Kind::cannot_end, severity(stuck));
  f.rule = cx.step_rule(step);
  f.where = step >= 0 ? cx.game.steps[static_cast<std::size_t>(step)].where : cx.game.where;
  f.message =
      fmt::format("from '{}' the game can no longer end: no end condition can hold any more",
                  cx.step_label(step));
  f.details.push_back(gap_detail(stuck));
  if (!also_stuck.empty()) {
    std::string who;
    for (std::size_t i = 0; i < also_stuck.size(); ++i) {
      if (i > 0) who += i + 1 == also_stuck.size() ? " and " : ", ";
      who += also_stuck[i];
    }
    f.details.push_back(fmt::format("so from here {} can no longer lose", who));
  }
  f.cause = gap_cause(stuck);
  f.trace = cx.trace(stuck);
  out.push_back(std::move(f));
}

}  // namespace loophole::properties::detail
