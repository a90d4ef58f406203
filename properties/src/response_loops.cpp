// Response loops are the cycles of the explored graph that use no progress
// move: the strongly connected components (Boost.Graph) of the subgraph of
// non-progress edges. Each component is shown by one lasso, the shortest: a
// shortest path to its shallowest state, then the shortest cycle back to it;
// the cycle is classified as the MTG rules classify loops, by who makes the
// choices on it. Components that repeat the same actions under the same
// class are one finding, and one that needs several players (or nature) is
// folded into a loop of the same rules that one player controls. A loop that
// one player keeps going while every way out of it loses for that player is
// a stall. A chain that instead grows until the stack is full ends in a
// stack-overflow gap state: unbounded_chains.cpp.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "analyses.hpp"
#include "loop_forcing.hpp"

namespace loophole::properties::detail {
namespace {

struct RuleUse {
  bool trigger = false;
  int ref = -1;
  int count = 0;
  int answers = 0;  // uses played on a non-empty stack (the others lead or resolve at once)
};

struct Loop {
  StateId entry = checker::no_state;
  std::vector<StateId> members;  // its component of non-progress moves
  std::vector<Edge> cycle;
  LoopChoice choice;
  std::vector<RuleUse> uses;  // in order of first appearance on the cycle
  // What makes two loops one finding: the class, the controlling player of
  // an optional loop (each player's infinite combo is a finding of its own),
  // and the rules used on the cycle.
  LoopKey key;
};

std::string rule_id(const Context& cx, const RuleUse& u) {
  return u.trigger ? "trigger:" + cx.game.triggers[u.ref].name
                   : "action:" + cx.game.actions[u.ref].name;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) s += i + 1 == names.size() ? " and " : ", ";
    s += names[i];
  }
  return s;
}

std::string loop_message(const Context& cx, const Loop& loop) {
  std::vector<std::string> actions, triggers, all;
  int answers = 0;
  for (const RuleUse& u : loop.uses) {
    if (u.trigger) {
      triggers.push_back(fmt::format("'{}'", cx.game.triggers[u.ref].name));
      all.push_back(triggers.back());
    } else {
      actions.push_back(cx.action_label(u.ref));
      all.push_back(actions.back());
      answers += u.answers;
    }
  }
  const std::string where = cx.place(loop.entry);
  if (all.empty()) return fmt::format("the game can repeat forever without advancing in {}", where);
  if (triggers.empty()) {
    // "Answer" only for actions played on a non-empty stack; the others lead
    // (or resolve at once) again and again.
    if (actions.size() == 1) {
      return answers > 0 ? fmt::format("{} can answer itself forever in {}", actions[0], where)
                         : fmt::format(
                               "{} can be played again and again forever in {}, each "
                               "time on an empty stack",
                               actions[0], where);
    }
    return answers > 0
               ? fmt::format("{} can answer each other forever in {}", joined(actions), where)
               : fmt::format(
                     "{} can be played one after another forever in {}, each "
                     "time on an empty stack",
                     joined(actions), where);
  }
  if (actions.empty()) {
    if (triggers.size() == 1) {
      return fmt::format("trigger {} re-fires itself forever in {}", triggers[0], where);
    }
    return fmt::format("triggers {} re-fire each other forever in {}", joined(triggers), where);
  }
  return fmt::format("{} keep repeating forever in {}", joined(all), where);
}

// A stall: by every move out of the loop (and there is one) the loop's
// player can no longer reach any end but their own loss, so keeping it going
// is the only way not to lose. (`doomed`: states from which only that loss
// is reachable, however long the players put it off.)
bool stalls(const Context& cx, const Loop& loop, const std::vector<bool>& doomed) {
  bool exit = false;
  for (const StateId v : loop.members) {
    for (const Edge& e : cx.moves.out(v)) {
      if (std::binary_search(loop.members.begin(), loop.members.end(), e.to)) continue;
      if (!doomed[e.to]) return false;
      exit = true;
    }
  }
  return exit;
}

std::string choice_detail(const LoopChoice& c) {
  switch (c.loop) {
    case LoopClass::mandatory:
      return "nobody has a choice on the cycle: the game hangs";
    case LoopClass::optional_one:
      return fmt::format("only {} chooses on the cycle, and can repeat it as often as they like",
                         Context::player(c.player));
    case LoopClass::several_players: {
      std::vector<std::string> names;
      for (const int p : c.players) names.push_back(Context::player(p));
      return fmt::format("it goes on only while {} keep choosing it", joined(names));
    }
    case LoopClass::chance:
      return "it goes on only while nature's choices repeat";
    case LoopClass::none:
      break;
  }
  return "";
}

// Each loop (one per cyclic component of the moves that enter no step),
// classified, with its key, handed to `visit` with its component's members
// (which the loop does not keep: a component's members are copied only for
// the loops a finding shows).
template <class Visit>
void each_response_loop(const Context& cx, Visit&& visit) {
  const EdgePredicate quiet = [](StateId, const Edge& e) { return !e.progress; };
  const int stack_size = cx.semantics.layout().stack_size;
  for (const auto members : cx.cyclic_components(quiet)) {
    if (cx.interrupted()) return;
    if (!cx.looks_at(members, 0)) continue;
    Loop loop;
    loop.entry = earliest(cx, members);
    loop.cycle = shortest_cycle(cx.moves, loop.entry, members, quiet);
    if (loop.cycle.empty()) continue;
    loop.choice = classify_cycle(cx.moves, loop.entry, loop.cycle);
    StateId at = loop.entry;
    for (const Edge& e : loop.cycle) {
      const checker::Successor m = cx.move(at, e);
      const bool on_stack = stack_size >= 0 && cx.graph.state(at)[stack_size] > 0 &&
                            cx.points[at].stage == static_cast<std::int8_t>(checker::Stage::window);
      const bool is_action = m.kind == checker::MoveKind::action;
      const bool is_trigger =
          m.kind == checker::MoveKind::trigger || m.kind == checker::MoveKind::decline;
      if ((is_action || is_trigger) && m.ref >= 0) {
        auto it = std::find_if(loop.uses.begin(), loop.uses.end(), [&](const RuleUse& u) {
          return u.trigger == is_trigger && u.ref == m.ref;
        });
        if (it == loop.uses.end())
          it = loop.uses.insert(loop.uses.end(), RuleUse{is_trigger, m.ref, 0});
        ++it->count;
        if (is_action && on_stack) ++it->answers;
      }
      at = e.to;
    }
    loop.key.loop = loop.choice.loop;
    loop.key.player = loop.choice.loop == LoopClass::optional_one ? loop.choice.player : -1;
    for (const RuleUse& u : loop.uses) loop.key.rules.insert(rule_id(cx, u));
    visit(std::move(loop), members);
  }
}

}  // namespace

void response_loop_summaries(const Context& cx, std::vector<LoopSummary>& out) {
  each_response_loop(cx, [&](const Loop& loop, std::span<const StateId>) {
    LoopSummary s;
    s.analysis = 0;
    s.entry = loop.entry;
    s.words = {cx.depth(loop.entry) + loop.cycle.size()};
    const auto key = key_words(loop.key);
    s.words.insert(s.words.end(), key.begin(), key.end());
    out.push_back(std::move(s));
  });
}

void find_response_loops_only(const Context& cx, std::vector<Finding>& out) {
  const EdgePredicate quiet = [](StateId, const Edge& e) { return !e.progress; };
  // Of the loops with the same key, the one with the shortest lasso (then
  // the earliest entry) is shown; the others are only counted.
  LoopsByKey<Loop> by_key(cx);
  each_response_loop(cx, [&](Loop&& loop, std::span<const StateId> members) {
    by_key.add(std::move(loop), members);
  });
  if (cx.interrupted()) return;
  const std::map<LoopKey, std::size_t> places = by_key.places(0);
  const std::vector<Loop> loops = std::move(by_key).shown();

  // A loop that one player controls, or that nobody can stop, says more than
  // the same rules looping only with several players' (or nature's) help: the
  // weaker forms are folded into it as a detail, not findings of their own.
  const auto strong = [](LoopClass c) {
    return c == LoopClass::mandatory || c == LoopClass::optional_one;
  };
  std::set<std::set<std::string>> strong_rules;
  for (const Loop& loop : loops) {
    if (strong(loop.key.loop)) strong_rules.insert(loop.key.rules);
  }
  std::map<std::set<std::string>, std::set<LoopClass>> folded;
  for (const Loop& loop : loops) {
    if (!strong(loop.key.loop) && strong_rules.count(loop.key.rules) != 0) {
      folded[loop.key.rules].insert(loop.key.loop);
    }
  }
  if (cx.known_counts != nullptr) {
    // The whole graph's: a slice of the loops shown may lack the weaker ones.
    folded.clear();
    for (const Loop& loop : loops) {
      const auto it = cx.known_counts->folded.find(rules_words(loop.key.rules));
      if (it == cx.known_counts->folded.end()) continue;
      for (const int c : it->second) folded[loop.key.rules].insert(static_cast<LoopClass>(c));
    }
  }

  // The states from which a player can reach their own loss and nothing
  // else (no other end, no rule gap, no unexplored state): computed once,
  // when some loop is one player's to keep going.
  std::vector<std::vector<bool>> doomed;
  const auto stall_of = [&](const Loop& loop) {
    if (loop.choice.loop != LoopClass::optional_one) return false;
    if (doomed.empty() && !cx.known_doomed.empty()) doomed = cx.known_doomed;
    if (doomed.empty()) {
      // Per player: their losses (set 2p) and every other way out (2p + 1),
      // all searched backwards at once.
      std::vector<std::vector<bool>> sets;
      for (auto& loses : outcomes(cx).loses) {
        std::vector<bool> other(cx.size(), false);
        for (StateId v = 0; v < cx.size(); ++v) {
          other[v] = (cx.final_state(v) && !loses[v]) || cx.frontier(v);
        }
        sets.push_back(std::move(loses));
        sets.push_back(std::move(other));
      }
      const std::vector<std::vector<bool>> reach = can_reach_each(cx.moves, std::move(sets));
      for (std::size_t p = 0; 2 * p + 1 < reach.size(); ++p) {
        const std::vector<bool>& can_lose = reach[2 * p];
        const std::vector<bool>& can_escape = reach[2 * p + 1];
        std::vector<bool> d(cx.size(), false);
        for (StateId v = 0; v < cx.size() && v < can_lose.size() && v < can_escape.size(); ++v) {
          d[v] = can_lose[v] && !can_escape[v];
        }
        doomed.push_back(std::move(d));
      }
    }
    return stalls(cx, loop, doomed[static_cast<std::size_t>(loop.choice.player)]);
  };

  std::set<LoopKey> reported;
  std::vector<std::pair<LoopKey, std::size_t>> shown;  // key -> index in out
  LoopForcing forcing(cx);
  for (const Loop& loop : loops) {
    if (folded.count(loop.key.rules) != 0 && folded.at(loop.key.rules).count(loop.key.loop))
      continue;
    if (!reported.insert(loop.key).second) continue;
    const bool stall = stall_of(loop);
    Finding f = cx.finding(stall ? Kind::stall : Kind::response_loop, Severity::error);
    f.loop = loop.choice.loop;
    f.loop_player = loop.choice.player;
    const RuleUse* most = nullptr;  // the first of the most used
    for (const RuleUse& u : loop.uses) {
      if (most == nullptr || u.count > most->count) most = &u;
    }
    if (most != nullptr) {
      f.rule = rule_id(cx, *most);
      f.where =
          most->trigger ? cx.game.triggers[most->ref].where : cx.game.actions[most->ref].where;
    } else {
      const int step = cx.points[loop.entry].step;
      f.rule = cx.step_rule(step);
      f.where = step >= 0 ? cx.game.steps[step].where : cx.game.where;
    }
    f.message = loop_message(cx, loop);
    f.details.push_back(fmt::format("the cycle has {} move{}; {}", loop.cycle.size(),
                                    loop.cycle.size() == 1 ? "" : "s", choice_detail(loop.choice)));
    f.forced_by = forcing.coalitions(loop.members, loop.entry, quiet);
    f.details.push_back(forcing_detail(*f.forced_by, cx.game.players));
    if (stall) {
      f.details.push_back(fmt::format(
          "a stall: every way out of the loop leads to {0}'s loss, so {0} can keep it going "
          "to refuse losing",
          Context::player(loop.choice.player)));
    }
    if (const auto n = places.at(loop.key); n > 1) {
      f.details.push_back(fmt::format("the same loop occurs in {} places of the state graph", n));
    }
    if (const auto it = folded.find(loop.key.rules); it != folded.end()) {
      for (const LoopClass c : it->second) {
        f.details.push_back(c == LoopClass::chance
                                ? "the same rules also loop where nature's choices keep it going"
                                : "the same rules also loop where several players' choices keep "
                                  "it going");
      }
    }
    f.trace = cx.trace(loop.entry, {}, loop.cycle);
    shown.emplace_back(loop.key, out.size());
    out.push_back(std::move(f));
  }

  link_joined_loops(shown, out);
}

void find_response_loops(const Context& cx, std::vector<Finding>& out) {
  find_response_loops_only(cx, out);
  find_unbounded_chains(cx, out);  // unbounded_chains.cpp
}

}  // namespace loophole::properties::detail
