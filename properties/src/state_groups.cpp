// The state-local questions' keys and findings (state_groups.hpp), shared by
// the analyses over an explored graph and by engines that visit the states
// themselves.
#include "loophole/properties/state_groups.hpp"

#include <algorithm>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "loophole/checker/questions.hpp"

namespace loophole::properties {
namespace {

using checker::question::player;

Finding violated(Kind kind, Severity severity, const std::string& engine) {
  Finding f;
  f.kind = kind;
  f.severity = severity;
  f.verdict = Verdict::violated;
  f.engine = engine;
  return f;
}

std::string outcome(const model::EndCondition& end, int p) {
  return fmt::format("'{}' ({} {})", end.name, player(p), end.win ? "wins" : "loses");
}

}  // namespace

void deadlock_keys(const checker::Semantics& sem, const checker::StateVec& s, bool no_moves,
                   std::vector<GroupKey>& out) {
  const checker::Layout& layout = sem.layout();
  if (!no_moves || s[layout.over] != 0) return;
  const int stage = s[layout.stage];
  const int holder =
      stage == static_cast<int>(checker::Stage::window) ? s[layout.window_holder] : -1;
  // The grouping of the question (checker/questions.hpp), as BMC blocks it.
  const int seat = checker::question::deadlock_seat(holder, s[layout.active], sem.game().players);
  out.push_back({s[layout.step], stage, seat});
}

void rule_gap_keys(const checker::Semantics& sem, const checker::StateVec& s,
                   std::vector<GroupKey>& out) {
  const checker::Layout& layout = sem.layout();
  if (s[layout.over] != 2) return;
  const int gap = s[layout.gap];
  const auto& gaps = sem.gaps();
  if (gap <= 0 || static_cast<std::size_t>(gap) > gaps.size()) return;
  if (gaps[static_cast<std::size_t>(gap) - 1].kind == checker::GapSite::Kind::stack_overflow)
    return;
  out.push_back({gap});
}

void tie_keys(const checker::Semantics& sem, const checker::StateVec& s,
              std::vector<GroupKey>& out) {
  if (s[sem.layout().over] != 1) return;
  const auto& conditions = sem.game().end_conditions;
  const int players = sem.game().players;
  std::vector<std::pair<int, int>> holding;
  sem.end_conditions_holding(s, holding);
  if (holding.size() < 2) return;
  // Who can still be the winner: a win names its player, a loss everyone else.
  std::vector<bool> winner(static_cast<std::size_t>(players), true);
  for (const auto& [c, p] : holding) {
    for (int q = 0; q < players; ++q) {
      if ((q == p) != conditions[static_cast<std::size_t>(c)].win) winner[q] = false;
    }
  }
  for (const bool w : winner) {
    if (w) return;
  }
  GroupKey key;
  for (const auto& [c, p] : holding) {
    key.push_back(c);
    key.push_back(p);
  }
  out.push_back(std::move(key));
}

void end_condition_keys(const checker::Semantics& sem, const checker::StateVec& s,
                        std::vector<GroupKey>& out) {
  std::vector<std::pair<int, int>> holding;
  sem.end_conditions_holding(s, holding);
  for (const auto& [c, p] : holding) out.push_back({c, p});
}

StateOutcome state_outcome(const checker::Semantics& sem, const checker::StateVec& s,
                           const checker::Ending& ending,
                           std::vector<std::pair<int, int>>& holding) {
  StateOutcome o;
  if (s[sem.layout().over] != 1) return o;
  o.loses = ending.loses;
  o.wins = ending.wins;
  if (!ending.conditions) return o;
  const model::Game& game = sem.game();
  const auto np = static_cast<unsigned>(game.players);
  holding.clear();
  sem.end_conditions_holding(s, holding);
  for (const auto& [c, p] : holding) {
    const bool win = game.end_conditions[static_cast<std::size_t>(c)].win;
    for (unsigned q = 0; q < np; ++q) {
      const bool named = q == static_cast<unsigned>(p);
      if (win) {
        (named ? o.wins : o.loses) |= 1U << q;
      } else if (named) {
        o.loses |= 1U << q;
      } else if (np == 2) {
        o.wins |= 1U << q;
      }
    }
  }
  return o;
}

namespace {

bool ends_the_game(const model::Stmt* s) {
  if (s == nullptr) return false;
  if (s->kind == model::StmtKind::win || s->kind == model::StmtKind::lose) return true;
  return std::any_of(s->bodies.begin(), s->bodies.end(),
                     [](const model::StmtPtr& b) { return ends_the_game(b.get()); });
}

}  // namespace

bool ends_by_statement(const model::Game& game) {
  if (ends_the_game(game.setup.get())) return true;
  for (const model::Step& st : game.steps) {
    if (ends_the_game(st.effects.get())) return true;
  }
  for (const model::Action& a : game.actions) {
    if (ends_the_game(a.cost.get()) || ends_the_game(a.effect.get())) return true;
  }
  return std::any_of(game.triggers.begin(), game.triggers.end(),
                     [](const model::Trigger& t) { return ends_the_game(t.effect.get()); });
}

std::uint32_t outcome_marks(const checker::Semantics& sem, const checker::StateVec& s,
                            const checker::Ending& ending,
                            std::vector<std::pair<int, int>>& holding) {
  const StateOutcome o = state_outcome(sem, s, ending, holding);
  std::uint32_t m = 0;
  for (int p = 0; p < sem.game().players; ++p) {
    m |= ((o.loses >> p) & 1U) != 0 ? 1U << (1 + 2 * p) : 1U << (2 + 2 * p);
  }
  return m;
}

std::uint64_t end_marks(const checker::Semantics& sem, const checker::StateVec& s,
                        const checker::Ending& ending, std::vector<std::pair<int, int>>& holding) {
  if (s[sem.layout().over] != 1) return 0;
  const StateOutcome o = state_outcome(sem, s, ending, holding);
  std::uint64_t m = 1;
  for (int p = 0; p < sem.game().players; ++p) {
    if (((o.loses >> p) & 1U) != 0) m |= std::uint64_t{1} << (1 + 2 * p);
    if (((o.wins >> p) & 1U) != 0) m |= std::uint64_t{1} << (2 + 2 * p);
  }
  return m;
}

bool property_applies(const model::Game& game, const model::Property& p, int step) {
  if (p.at_phases.empty() && p.at_steps.empty()) return true;
  if (std::find(p.at_steps.begin(), p.at_steps.end(), step) != p.at_steps.end()) return true;
  if (step < 0 || static_cast<std::size_t>(step) >= game.steps.size()) return false;
  const int phase = game.steps[static_cast<std::size_t>(step)].phase;
  return std::find(p.at_phases.begin(), p.at_phases.end(), phase) != p.at_phases.end();
}

std::vector<const model::Expr*> property_conditions(const model::Game& game) {
  std::vector<const model::Expr*> out;
  for (const model::Property& p : game.properties) out.push_back(p.expr.get());
  return out;
}

void user_property_keys(const checker::Semantics& sem, const checker::Conditions& conditions,
                        const checker::StateVec& s, std::vector<GroupKey>& out) {
  const model::Game& game = sem.game();
  const int step = s[sem.layout().step];
  for (std::size_t i = 0; i < game.properties.size(); ++i) {
    const model::Property& p = game.properties[i];
    if (p.kind == model::Property::Kind::leads_to || !p.expr) continue;
    if (!property_applies(game, p, step)) continue;
    if ((p.kind == model::Property::Kind::always) != conditions.holds(i, s)) {
      out.push_back({static_cast<std::int64_t>(i)});
    }
  }
}

void dead_rule_keys(const checker::Semantics& sem, const checker::Conditions& conditions,
                    const checker::StateVec& s, std::span<const checker::MoveFields> moves,
                    std::vector<GroupKey>& out) {
  const model::Game& game = sem.game();
  const checker::Layout& layout = sem.layout();
  const int step = s[layout.step];
  const int stage = s[layout.stage];
  const int over = s[layout.over];
  const bool valid_step = step >= 0 && static_cast<std::size_t>(step) < game.steps.size();
  if (valid_step && stage != static_cast<int>(checker::Stage::start)) out.push_back({0, step});
  if (over == 2) {
    // A step whose effects always leave the bounds is still entered.
    const int gap = s[layout.gap];
    const auto& gaps = sem.gaps();
    if (gap > 0 && static_cast<std::size_t>(gap) <= gaps.size()) {
      const std::string& rule = gaps[static_cast<std::size_t>(gap) - 1].rule;
      for (std::size_t k = 0; k < game.steps.size(); ++k) {
        if (game.step_rule(static_cast<int>(k)) == rule) {
          out.push_back({0, static_cast<std::int64_t>(k)});
          break;
        }
      }
    }
  }
  if (over != 0) return;
  if (stage == static_cast<int>(checker::Stage::window) && valid_step) {
    std::vector<int> actions;
    conditions.enabled_actions(s, actions);
    for (const int a : actions) {
      if (a >= 0 && static_cast<std::size_t>(a) < game.actions.size()) out.push_back({2, a});
    }
    const int w = game.steps[static_cast<std::size_t>(step)].window;
    if (w >= 0 && std::any_of(moves.begin(), moves.end(), [](const checker::MoveFields& m) {
          return m.kind == checker::MoveKind::action;
        })) {
      out.push_back({1, w});
    }
  }
  for (const checker::MoveFields& m : moves) {
    const bool trigger_move =
        m.kind == checker::MoveKind::trigger || m.kind == checker::MoveKind::decline;
    if (trigger_move && m.ref >= 0 && static_cast<std::size_t>(m.ref) < game.triggers.size()) {
      out.push_back({3, m.ref});
    }
  }
}

std::vector<Finding> dead_rule_findings(const model::Game& game, const std::vector<GroupKey>& alive,
                                        bool complete, const std::string& incomplete_reason,
                                        const std::string& engine) {
  const std::set<GroupKey> seen(alive.begin(), alive.end());
  const auto is = [&](std::int64_t what, std::size_t i) {
    return seen.contains(GroupKey{what, static_cast<std::int64_t>(i)});
  };
  std::vector<Finding> out;
  const auto report = [&](std::string rule, model::SourceSpan where, std::string message,
                          std::string detail) {
    Finding f = violated(Kind::dead_rule, complete ? Severity::warning : Severity::note, engine);
    if (!complete) f.verdict = Verdict::unknown;
    f.rule = std::move(rule);
    f.where = std::move(where);
    f.message = std::move(message);
    if (!detail.empty()) f.details.push_back(std::move(detail));
    if (!complete) f.details.push_back(incomplete_reason);
    out.push_back(std::move(f));
  };
  for (std::size_t s = 0; s < game.steps.size(); ++s) {
    if (is(0, s)) continue;
    report(game.step_rule(static_cast<int>(s)), game.steps[s].where,
           fmt::format("step '{}' is never reached", game.step_label(static_cast<int>(s))), "");
  }
  for (std::size_t w = 0; w < game.windows.size(); ++w) {
    if (is(1, w)) continue;
    // Only windows that do open: a window of unreached steps is explained by them.
    std::string opened_in;
    for (std::size_t s = 0; s < game.steps.size() && opened_in.empty(); ++s) {
      if (is(0, s) && game.steps[s].window == static_cast<int>(w)) {
        opened_in = game.step_label(static_cast<int>(s));
      }
    }
    if (opened_in.empty()) continue;
    report(
        "window:" + game.windows[w].name, game.windows[w].where,
        fmt::format("nobody can ever act in window '{}'", game.windows[w].name),
        fmt::format("it opens in '{}', but no player ever has an action to take there", opened_in));
  }
  for (std::size_t a = 0; a < game.actions.size(); ++a) {
    if (is(2, a)) continue;
    const model::Action& action = game.actions[a];
    report("action:" + action.name, action.where, checker::question::action_never_taken(action),
           "it is enabled for the player to move in no reachable window");
  }
  for (std::size_t t = 0; t < game.triggers.size(); ++t) {
    if (is(3, t)) continue;
    report("trigger:" + game.triggers[t].name, game.triggers[t].where,
           fmt::format("trigger '{}' never fires", game.triggers[t].name),
           "it never becomes pending in a reachable state");
  }
  return out;
}

Finding deadlock_finding(const checker::Semantics& sem, const checker::StateVec& first,
                         std::uint64_t states, const std::string& engine) {
  const model::Game& game = sem.game();
  const checker::Layout& layout = sem.layout();
  const int step = first[layout.step];
  const bool in_window = first[layout.stage] == static_cast<int>(checker::Stage::window);
  Finding f = violated(Kind::deadlock, Severity::error, engine);
  // The question's words (checker/questions.hpp), as the SMT engine says them.
  f.rule = checker::question::deadlock_rule(game, step);
  f.where = checker::question::deadlock_where(game, step, in_window);
  f.message = checker::question::deadlock_message(game, step, in_window,
                                                  in_window ? first[layout.window_holder] : -1);
  if (states > 1) {
    f.details.push_back(fmt::format("{} reachable states are stuck at this point", states));
  }
  return f;
}

Finding rule_gap_finding(const checker::Semantics& sem, int gap, std::uint64_t states,
                         const std::string& engine) {
  const checker::GapSite& site = sem.gaps()[static_cast<std::size_t>(gap) - 1];
  Finding f = violated(Kind::rule_gap, Severity::error, engine);
  f.rule = site.rule;
  f.where = site.where;
  f.message = site.message;
  if (states > 1) f.details.push_back(fmt::format("{} reachable states end in this gap", states));
  return f;
}

std::vector<Finding> tie_findings(const model::Game& game, const std::vector<GroupKey>& ties,
                                  const std::function<checker::Trace(std::size_t)>& trace,
                                  const std::string& engine) {
  const auto& conditions = game.end_conditions;
  std::vector<Finding> out;
  std::set<std::set<std::int64_t>> reported;  // one finding per set of conditions
  for (std::size_t i = 0; i < ties.size(); ++i) {
    const GroupKey& pairs = ties[i];
    std::set<std::int64_t> names;
    for (std::size_t k = 0; k + 1 < pairs.size(); k += 2) names.insert(pairs[k]);
    if (!reported.insert(names).second) continue;
    const auto c0 = static_cast<std::size_t>(pairs[0]);
    const int p0 = static_cast<int>(pairs[1]);
    Finding f = violated(Kind::tie, Severity::error, engine);
    f.rule = fmt::format("end:{}/{}", conditions[c0].name, player(p0));
    f.where = conditions[c0].where;
    std::string all;
    const std::size_t n = pairs.size() / 2;
    for (std::size_t k = 0; k < n; ++k) {
      if (k > 0) all += k + 1 == n ? " and " : ", ";
      all += outcome(conditions[static_cast<std::size_t>(pairs[2 * k])],
                     static_cast<int>(pairs[2 * k + 1]));
    }
    f.message = fmt::format("{} hold at once and the rules do not say who wins", all);
    f.details.push_back(
        fmt::format("the first in declaration order decides: {}", outcome(conditions[c0], p0)));
    f.trace = trace(i);
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<Finding> unreachable_win_findings(const model::Game& game,
                                              const std::vector<GroupKey>& reached, bool complete,
                                              std::uint64_t states,
                                              const std::string& incomplete_reason,
                                              const std::string& engine) {
  const std::set<GroupKey> seen(reached.begin(), reached.end());
  std::vector<Finding> out;
  for (std::size_t c = 0; c < game.end_conditions.size(); ++c) {
    const model::EndCondition& end = game.end_conditions[c];
    for (int p = 0; p < game.players; ++p) {
      if (!checker::question::end_asked(end, p)) continue;  // `win: P1`: no other player's
      if (seen.contains(GroupKey{static_cast<std::int64_t>(c), p})) continue;
      const Severity severity = end.win ? Severity::error : Severity::warning;
      Finding f = violated(Kind::unreachable_win, complete ? severity : Severity::note, engine);
      if (!complete) f.verdict = Verdict::unknown;
      f.rule = checker::question::end_rule(end, p);
      f.where = end.where;
      f.message = checker::question::end_never_message(end, p);
      f.details.push_back(checker::question::end_never_detail(
          p, complete,
          complete ? fmt::format("all {} reachable states searched", states) : incomplete_reason));
      out.push_back(std::move(f));
    }
  }
  return out;
}

std::vector<Finding> user_property_findings(const model::Game& game,
                                            const std::vector<std::optional<PropertyHit>>& first,
                                            bool complete, bool report_holds,
                                            const std::string& incomplete_reason,
                                            const std::string& engine) {
  std::vector<Finding> out;
  for (std::size_t i = 0; i < game.properties.size() && i < first.size(); ++i) {
    const model::Property& p = game.properties[i];
    if (p.kind == model::Property::Kind::leads_to) continue;
    const auto finding = [&](Verdict verdict) {
      Finding f = violated(Kind::property_violation, Severity::error, engine);
      f.rule = checker::question::property_rule(p);
      f.where = p.where;
      f.verdict = verdict;
      if (verdict != Verdict::violated) f.severity = Severity::note;
      return f;
    };
    const std::optional<PropertyHit>& hit = first[i];
    if (p.kind == model::Property::Kind::reachable) {
      if (hit) {
        if (report_holds) {
          Finding f = finding(Verdict::holds);
          f.message = checker::question::property_reached(game, p, hit->step);
          f.trace = hit->trace;
          out.push_back(std::move(f));
        }
        continue;
      }
      Finding f = finding(complete ? Verdict::violated : Verdict::unknown);
      f.message = checker::question::property_never_reached(p);
      if (!complete) f.details.push_back(incomplete_reason);
      out.push_back(std::move(f));
      continue;
    }
    if (!hit) {  // no violation: it holds, or after an incomplete search it is unknown
      if (!complete) {
        Finding f = finding(Verdict::unknown);
        f.message = checker::question::property_not_violated(p, "in the states explored");
        f.details.push_back(incomplete_reason);
        out.push_back(std::move(f));
      } else if (report_holds) {
        Finding f = finding(Verdict::holds);
        f.message = checker::question::property_holds(p);
        out.push_back(std::move(f));
      }
      continue;
    }
    Finding f = finding(Verdict::violated);
    f.message = checker::question::property_fails(game, p, hit->step);
    f.trace = hit->trace;
    out.push_back(std::move(f));
  }
  return out;
}

std::string incomplete_reason(checker::Completion completion, std::uint64_t states) {
  const char* limit = "a limit";
  switch (completion) {
    case checker::Completion::complete:
      return "the exploration was complete";
    case checker::Completion::state_limit:
      limit = "the state limit";
      break;
    case checker::Completion::memory_limit:
      limit = "the memory limit";
      break;
    case checker::Completion::time_limit:
      limit = "the time limit";
      break;
    case checker::Completion::interrupted:
      limit = "an interruption";
      break;
  }
  return fmt::format("the exploration stopped at {} after {} states", limit, states);
}

std::vector<StateKeys> state_questions(const checker::Semantics& sem) {
  const checker::Semantics* s = &sem;
  // The properties' conditions and the enabled actions (dead rules), both
  // asked of the compiled generator; one Conditions a list of questions,
  // used by one thread at a time.
  auto conditions =
      std::make_shared<const checker::Conditions>(sem, property_conditions(sem.game()));
  using Moves = std::span<const checker::MoveFields>;
  return {
      [s](const checker::StateVec& v, Moves moves, std::vector<GroupKey>& out) {
        deadlock_keys(*s, v, moves.empty(), out);
      },
      [s](const checker::StateVec& v, Moves, std::vector<GroupKey>& out) {
        rule_gap_keys(*s, v, out);
      },
      [s](const checker::StateVec& v, Moves, std::vector<GroupKey>& out) { tie_keys(*s, v, out); },
      [s](const checker::StateVec& v, Moves, std::vector<GroupKey>& out) {
        end_condition_keys(*s, v, out);
      },
      [s, conditions](const checker::StateVec& v, Moves, std::vector<GroupKey>& out) {
        user_property_keys(*s, *conditions, v, out);
      },
      [s, conditions](const checker::StateVec& v, Moves moves, std::vector<GroupKey>& out) {
        dead_rule_keys(*s, *conditions, v, moves, out);
      },
  };
}

std::vector<Finding> state_findings(const checker::Semantics& sem,
                                    const std::vector<std::map<GroupKey, StateGroup>>& groups,
                                    bool complete, bool report_holds, std::uint64_t states,
                                    const std::string& incomplete_reason,
                                    const std::string& engine) {
  std::vector<Finding> out;
  if (groups.size() != 6) return out;
  for (const auto& [key, g] : groups[0]) {
    const auto replay = sem.replay(g.trace);
    if (!replay.ok) continue;  // (traces come replayed; a broken one is no finding)
    Finding f = deadlock_finding(sem, replay.states.back(), g.states, engine);
    f.trace = g.trace;
    out.push_back(std::move(f));
  }
  for (const auto& [key, g] : groups[1]) {
    Finding f = rule_gap_finding(sem, static_cast<int>(key[0]), g.states, engine);
    f.trace = g.trace;
    out.push_back(std::move(f));
  }
  std::vector<GroupKey> ties;
  std::vector<const checker::Trace*> traces;
  for (const auto& [key, g] : groups[2]) {
    ties.push_back(key);
    traces.push_back(&g.trace);
  }
  for (auto& f : tie_findings(
           sem.game(), ties, [&](std::size_t i) { return *traces[i]; }, engine)) {
    out.push_back(std::move(f));
  }
  std::vector<GroupKey> reached;
  for (const auto& [key, g] : groups[3]) reached.push_back(key);
  for (auto& f :
       unreachable_win_findings(sem.game(), reached, complete, states, incomplete_reason, engine)) {
    out.push_back(std::move(f));
  }
  std::vector<std::optional<PropertyHit>> hits(sem.game().properties.size());
  for (const auto& [key, g] : groups[4]) {
    const auto replay = sem.replay(g.trace);
    if (!replay.ok) continue;
    hits[static_cast<std::size_t>(key[0])] =
        PropertyHit{replay.states.back()[sem.layout().step], g.trace};
  }
  for (auto& f : user_property_findings(sem.game(), hits, complete, report_holds, incomplete_reason,
                                        engine)) {
    out.push_back(std::move(f));
  }
  std::vector<GroupKey> alive;
  for (const auto& [key, g] : groups[5]) alive.push_back(key);
  for (auto& f : dead_rule_findings(sem.game(), alive, complete, incomplete_reason, engine)) {
    out.push_back(std::move(f));
  }
  mark_invented_rules(sem.game(), out);
  return out;
}

}  // namespace loophole::properties
