// Structural checks on the phase/step graph (see structural.hpp).
//
// Reachability is plain graph search from the turn-start vertex, forward and
// backward; conditions were already folded when the graph was built, so a
// guarded edge counts as a way through (it might be taken) and a constant
// one is either there or not. Each finding names its cause where the graph
// knows it (the step before that repeats forever or always ends the turn),
// because "unreachable" alone sends a designer hunting. Windows are checked
// against the actions: if no action fits any role's lead speeds, nobody can
// ever make the first move, and answers need a first move. And one lint on
// the rules' text: `opponent` read by an action the non-active player uses.
#include "loophole/properties/structural.hpp"

#include <algorithm>
#include <string>
#include <tuple>

namespace loophole::properties {

namespace {

using model::Guard;
using model::PhaseGraph;
using model::PhaseVertex;

std::string step_name(const model::Game& game, int step) {
  const model::Step& s = game.steps[step];
  return game.phases[s.phase].name + "." + s.name;
}

Finding structure_finding(Severity severity, std::string rule, model::SourceSpan where,
                          std::string message) {
  Finding f;
  f.kind = Kind::structure;
  f.severity = severity;
  f.verdict = Verdict::violated;
  f.rule = std::move(rule);
  f.where = std::move(where);
  f.message = std::move(message);
  f.engine = "structure";
  return f;
}

// "its repeat_while 'x > 0' always holds" (the text is left out when unknown).
std::string always_holds(const char* key, const std::string& text) {
  std::string s = std::string("its ") + key;
  if (!text.empty()) s += " '" + text + "'";
  return s + " always holds";
}

// Why control cannot get past `step`, if the graph says (else "").
std::string blocked_by(const model::Game& game, const PhaseGraph& g, int step) {
  const PhaseVertex& v = g.vertex(PhaseGraph::step_vertex(step));
  const std::string name = "step '" + step_name(game, step) + "'";
  if (v.repeat == Guard::always) {
    return name + " repeats forever: " + always_holds("repeat_while", game.steps[step].repeat_text);
  }
  if (v.end_turn == Guard::always) {
    return name +
           " always ends the turn: " + always_holds("end_turn_if", game.steps[step].end_turn_text);
  }
  return "";
}

bool stuck(const PhaseGraph& g, model::PhaseVertexId v) {
  for (const model::PhaseEdgeRef& e : g.out_edges(v)) {
    if (e.to != v) return false;
  }
  return true;
}

void check_steps(const model::Game& game, const PhaseGraph& g, std::vector<Finding>& out) {
  const std::vector<bool> reached = g.reachable_from(g.start);
  int last_reached = -1;  // the last reachable step before the current one
  for (int s = 0; s < static_cast<int>(game.steps.size()); ++s) {
    const model::Step& step = game.steps[s];
    const model::PhaseVertexId v = PhaseGraph::step_vertex(s);
    const std::string rule = "step:" + step_name(game, s);
    if (!reached[v]) {
      Finding f = structure_finding(
          Severity::error, rule, step.where,
          "step '" + step_name(game, s) + "' is unreachable from the start of the turn");
      if (last_reached >= 0) {
        if (std::string why = blocked_by(game, g, last_reached); !why.empty())
          f.details.push_back(std::move(why));
      }
      out.push_back(std::move(f));
    } else {
      last_reached = s;
    }
    if (stuck(g, v)) {
      std::string message = "step '" + step_name(game, s) + "' has no way onward";
      if (g.vertex(v).repeat == Guard::always)
        message += ": " + always_holds("repeat_while", step.repeat_text);
      Finding f = structure_finding(Severity::error, rule, step.where, std::move(message));
      f.details.emplace_back("the turn can never get past it");
      out.push_back(std::move(f));
    }
  }
}

void check_turn(const model::Game& game, const PhaseGraph& g, std::vector<Finding>& out) {
  const std::vector<bool> from_start = g.reachable_from(g.start);
  if (!from_start[g.end]) {
    Finding f = structure_finding(
        Severity::error, "turn", game.where,
        "the turn never passes to the next player: its end is unreachable from its start");
    for (int s = 0; s < static_cast<int>(game.steps.size()); ++s) {
      if (from_start[PhaseGraph::step_vertex(s)] && stuck(g, PhaseGraph::step_vertex(s))) {
        if (std::string why = blocked_by(game, g, s); !why.empty())
          f.details.push_back(std::move(why));
      }
    }
    out.push_back(std::move(f));
    return;
  }
  if (!g.reachable_from(g.end)[g.start]) {
    out.push_back(structure_finding(
        Severity::error, "turn", game.where,
        "the turn never passes to the next player: nothing leads from its end to the "
        "next player's turn"));
  }
}

// --- windows ----------------------------------------------------------------

// Which kinds of player a role covers, as a bit set: the active player, the
// next player (the opponent), and the players after that (3+ players only).
constexpr unsigned active_bit = 1, next_bit = 2, rest_bit = 4;

unsigned role_players(model::Role role, int players) {
  const unsigned present = players >= 3   ? active_bit | next_bit | rest_bit
                           : players == 2 ? active_bit | next_bit
                                          : active_bit;
  switch (role) {
    case model::Role::active:
      return active_bit & present;
    case model::Role::opponent:
      return next_bit & present;
    case model::Role::others:
      return (next_bit | rest_bit) & present;
    case model::Role::each:
    case model::Role::any:
      return present;
  }
  return 0;
}

std::string_view role_name(model::Role role) {
  switch (role) {
    case model::Role::active:
      return "active";
    case model::Role::opponent:
      return "opponent";
    case model::Role::each:
      return "each";
    case model::Role::any:
      return "any";
    case model::Role::others:
      return "others";
  }
  return "?";
}

// The players who get turns in a window at all, whatever the roles say.
unsigned seated_players(const model::Window& w, int players) {
  if (w.protocol != model::Protocol::sequence) return role_players(model::Role::each, players);
  unsigned seated = 0;
  for (const model::SequenceTurn t : w.order) {
    seated |= t == model::SequenceTurn::opponent ? role_players(model::Role::opponent, players)
                                                 : role_players(model::Role::active, players);
  }
  return seated;
}

bool usable_in(const model::Action& a, int window) {
  return a.windows.empty() ||
         std::find(a.windows.begin(), a.windows.end(), window) != a.windows.end();
}

bool speed_fits(const model::Game& game, int speed, const std::vector<int>& speeds) {
  return game.speeds.empty() || std::find(speeds.begin(), speeds.end(), speed) != speeds.end();
}

// Whether some player may take `a` as the first action in `w` (empty stack).
// Roles (and speeds) restrict priority windows always, others only when listed.
bool can_lead(const model::Game& game, const model::Window& w, const model::Action& a) {
  const unsigned who = role_players(a.who, game.players) & seated_players(w, game.players);
  if (who == 0) return false;
  if (w.protocol != model::Protocol::priority && w.roles.empty()) return true;
  return std::any_of(w.roles.begin(), w.roles.end(), [&](const model::RoleSpeeds& r) {
    return (role_players(r.role, game.players) & who) != 0 && speed_fits(game, a.speed, r.lead);
  });
}

bool can_answer(const model::Game& game, const model::Window& w, const model::Action& a) {
  const unsigned who = role_players(a.who, game.players);
  return std::any_of(w.roles.begin(), w.roles.end(), [&](const model::RoleSpeeds& r) {
    return (role_players(r.role, game.players) & who) != 0 && speed_fits(game, a.speed, r.answer);
  });
}

std::string speed_list(const std::vector<int>& speeds) {
  std::string s;
  for (const int x : speeds) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s.empty() ? "none" : s;
}

void check_windows(const model::Game& game, std::vector<Finding>& out) {
  for (int wi = 0; wi < static_cast<int>(game.windows.size()); ++wi) {
    const model::Window& w = game.windows[wi];
    std::vector<const model::Action*> usable;
    for (const model::Action& a : game.actions) {
      if (usable_in(a, wi)) usable.push_back(&a);
    }
    if (std::any_of(usable.begin(), usable.end(),
                    [&](const model::Action* a) { return can_lead(game, w, *a); })) {
      continue;
    }
    const std::string head = "no role may ever act in window '" + w.name + "': ";
    std::string reason;
    std::vector<std::string> details;
    if (usable.empty()) {
      reason = "no action can be used in it";
    } else if (w.protocol == model::Protocol::priority && w.roles.empty()) {
      reason = "it lists no roles";
    } else if (w.protocol == model::Protocol::priority || !w.roles.empty()) {
      reason = "no action usable in it fits a role and a lead speed it allows";
      std::string roles;
      for (const model::RoleSpeeds& r : w.roles) {
        roles += (roles.empty() ? "" : "; ") + std::string(role_name(r.role)) + " leads at " +
                 speed_list(r.lead);
      }
      details.push_back("the window allows: " + roles);
      for (const model::Action* a : usable) {
        std::string d = "action '" + a->name + "' (who: " + std::string(role_name(a->who));
        if (!game.speeds.empty()) d += ", speed " + std::to_string(a->speed);
        d += ")";
        if (w.protocol == model::Protocol::priority && can_answer(game, w, *a))
          d += " could only answer, and answers need an action to answer";
        details.push_back(std::move(d));
      }
    } else {
      reason = "no action usable in it is for a player who has a turn in it";
    }
    Finding f = structure_finding(Severity::warning, "window:" + w.name, w.where, head + reason);
    f.details = std::move(details);
    out.push_back(std::move(f));
  }
}

// The first read of `opponent` in a tree, or nullptr.
const model::Expr* opponent_read(const model::Expr* e) {
  if (e == nullptr) return nullptr;
  if (e->kind == model::ExprKind::opponent) return e;
  for (const model::ExprPtr& a : e->args) {
    if (const model::Expr* found = opponent_read(a.get())) return found;
  }
  return nullptr;
}

const model::Expr* opponent_read(const model::Stmt* s) {
  if (s == nullptr) return nullptr;
  for (const model::Expr* e : {s->target.get(), s->value.get()}) {
    if (const model::Expr* found = opponent_read(e)) return found;
  }
  for (const auto* list : {&s->args, &s->conds}) {
    for (const model::ExprPtr& a : *list) {
      if (const model::Expr* found = opponent_read(a.get())) return found;
    }
  }
  for (const model::StmtPtr& b : s->bodies) {
    if (const model::Expr* found = opponent_read(b.get())) return found;
  }
  return nullptr;
}

// `opponent` is next(active), whoever reads it. In an action that a player
// other than the active one may use, that is not "the other player" of its
// user: on the other player's turn a 2-player instant aimed at `opponent`
// hits its own caster. The rules mean something else almost every time, so
// it is a warning (baselines accept it like any finding when it is meant).
void check_opponent_reads(const model::Game& game, std::vector<Finding>& out) {
  for (const model::Action& a : game.actions) {
    if (a.who == model::Role::active) continue;
    const model::Expr* read = opponent_read(a.guard.get());
    if (read == nullptr) read = opponent_read(a.cost.get());
    if (read == nullptr) read = opponent_read(a.effect.get());
    if (read == nullptr) continue;
    const bool always_self = a.who == model::Role::opponent && game.players == 2;
    std::string message = "action '" + a.name + "' (who: " + std::string(role_name(a.who)) +
                          ") reads 'opponent', the player after the active one: " +
                          (always_self ? "for this action that is always its own user"
                                       : "when its user is not the active player, that can be "
                                         "its own user");
    Finding f = structure_finding(Severity::warning, "action:" + a.name,
                                  read->where.known() ? read->where : a.where, std::move(message));
    f.details.push_back(
        "hint: write 'next(self)' for the player after its user, or 'active' for the player "
        "whose turn it is; 'opponent' is next(active)");
    out.push_back(std::move(f));
  }
}

}  // namespace

std::vector<Finding> check_structure(const model::Game& game, const model::PhaseGraph& graph) {
  std::vector<Finding> out;
  check_steps(game, graph, out);
  check_turn(game, graph, out);
  check_windows(game, out);
  check_opponent_reads(game, out);
  std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.where.file, a.where.line, a.where.col) <
           std::tie(b.where.file, b.where.line, b.where.col);
  });
  return out;
}

}  // namespace loophole::properties
