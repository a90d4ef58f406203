// Builds checked model::Game values in code, for testing the semantics
// without the loader: expression and statement constructors (already
// resolved and typed, as the model's checker would leave them) and a
// GameBuilder that lays out slots (variables, then zones, owner-major) and
// creates the built-in events for every phase and step.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "loophole/model/game.hpp"

namespace loophole::checker::testing {

using model::Domain;
using model::Expr;
using model::ExprKind;
using model::ExprPtr;
using model::Op;
using model::Stmt;
using model::StmtKind;
using model::StmtPtr;
using model::Type;

inline ExprPtr node(ExprKind kind, Type type = Type::int_()) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->type = type;
  return e;
}
inline ExprPtr num(std::int64_t v) {
  auto e = node(ExprKind::int_lit);
  e->value = v;
  return e;
}
inline ExprPtr boolean(bool v) {
  auto e = node(ExprKind::bool_lit, Type::bool_());
  e->value = v ? 1 : 0;
  return e;
}
inline ExprPtr player(int p) {
  auto e = node(ExprKind::player_lit, Type::player());
  e->value = p;
  return e;
}
inline ExprPtr kind_lit(int k) {
  auto e = node(ExprKind::kind_lit, Type::kind());
  e->value = k;
  return e;
}
inline ExprPtr active() { return node(ExprKind::active, Type::player()); }
inline ExprPtr opponent() { return node(ExprKind::opponent, Type::player()); }
inline ExprPtr self() { return node(ExprKind::self, Type::player()); }
inline ExprPtr turn_number() { return node(ExprKind::turn_number); }
inline ExprPtr stack_size() { return node(ExprKind::stack_size); }
inline ExprPtr top_action() { return node(ExprKind::top_action, Type::action()); }
inline ExprPtr next_of(ExprPtr p) {
  auto e = node(ExprKind::next_player, Type::player());
  e->args.push_back(std::move(p));
  return e;
}
inline ExprPtr bound(int slot, Type type = Type::int_()) {
  auto e = node(ExprKind::bound, type);
  e->ref = slot;
  return e;
}
// var: [player] [index] .field
inline ExprPtr var(int ref, ExprPtr who = nullptr, ExprPtr index = nullptr, int field = 0) {
  auto e = node(ExprKind::var);
  e->ref = ref;
  e->field = field;
  if (who) e->args.push_back(std::move(who));
  if (index) e->args.push_back(std::move(index));
  return e;
}
// count(zone[owner]) / count(zone[owner], kind)
inline ExprPtr zone(int ref, ExprPtr owner = nullptr, int kind = -1) {
  auto e = node(ExprKind::zone_count);
  e->ref = ref;
  e->value = kind;
  if (owner) e->args.push_back(std::move(owner));
  return e;
}
inline ExprPtr zone_tag(int ref, ExprPtr owner, int tag) {
  auto e = zone(ref, std::move(owner), -2);
  e->tag = tag;
  return e;
}
inline ExprPtr bin(Op op, ExprPtr a, ExprPtr b) {
  const bool logic = op == Op::and_ || op == Op::or_ || op == Op::eq || op == Op::ne ||
                     op == Op::lt || op == Op::le || op == Op::gt || op == Op::ge;
  auto e = node(ExprKind::binary, logic ? Type::bool_() : Type::int_());
  e->op = op;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}
inline ExprPtr un(Op op, ExprPtr a) {
  auto e = node(ExprKind::unary, op == Op::not_ ? Type::bool_() : Type::int_());
  e->op = op;
  e->args.push_back(std::move(a));
  return e;
}
inline ExprPtr cond(ExprPtr c, ExprPtr a, ExprPtr b) {
  auto e = node(ExprKind::cond);
  e->args.push_back(std::move(c));
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}
template <class... A>
ExprPtr builtin(Op op, A... args) {
  auto e = node(ExprKind::builtin);
  e->op = op;
  (e->args.push_back(std::move(args)), ...);
  return e;
}
inline Domain range(std::int64_t lo, std::int64_t hi) {
  Domain d;
  d.kind = Domain::Kind::range;
  d.lo = lo;
  d.hi = hi;
  return d;
}
inline Domain domain(Domain::Kind kind, int ref = -1) {
  Domain d;
  d.kind = kind;
  d.ref = ref;
  return d;
}
inline ExprPtr quant(Op op, int slot, Domain d, ExprPtr body) {
  auto e = node(ExprKind::quant, op == Op::count || op == Op::sum ? Type::int_() : Type::bool_());
  e->op = op;
  e->ref = slot;
  e->domain = std::move(d);
  e->args.push_back(std::move(body));
  return e;
}

inline StmtPtr stmt(StmtKind kind) {
  auto s = std::make_unique<Stmt>();
  s->kind = kind;
  return s;
}
inline StmtPtr assign(ExprPtr target, ExprPtr value, Op op = Op::none) {
  auto s = stmt(StmtKind::assign);
  s->target = std::move(target);
  s->value = std::move(value);
  s->op = op;
  return s;
}
template <class... S>
StmtPtr seq(S... body) {
  auto s = stmt(StmtKind::block);
  (s->bodies.push_back(std::move(body)), ...);
  return s;
}
inline StmtPtr if_(ExprPtr c, StmtPtr then, StmtPtr otherwise = nullptr) {
  auto s = stmt(StmtKind::if_);
  s->conds.push_back(std::move(c));
  s->bodies.push_back(std::move(then));
  if (otherwise) s->bodies.push_back(std::move(otherwise));
  return s;
}
inline StmtPtr for_(int slot, Domain d, StmtPtr body) {
  auto s = stmt(StmtKind::for_);
  s->ref = slot;
  s->domain = std::move(d);
  s->bodies.push_back(std::move(body));
  return s;
}
inline StmtPtr choose(int slot, Domain d, ExprPtr where, StmtPtr body, bool pick = false) {
  auto s = stmt(pick ? StmtKind::pick : StmtKind::choose);
  s->ref = slot;
  s->domain = std::move(d);
  if (where) s->conds.push_back(std::move(where));
  s->bodies.push_back(std::move(body));
  return s;
}
template <class... A>
StmtPtr call(StmtKind kind, A... args) {
  auto s = stmt(kind);
  (s->args.push_back(std::move(args)), ...);
  return s;
}
inline StmtPtr draw(ExprPtr p, ExprPtr n) {
  return call(StmtKind::draw, std::move(p), std::move(n));
}
inline StmtPtr fire(int event) {
  auto s = stmt(StmtKind::fire);
  s->ref = event;
  return s;
}

class GameBuilder {
 public:
  explicit GameBuilder(int players = 2) {
    g_.name = "test";
    g_.file = "test.yaml";
    g_.players = g_.min_players = g_.max_players = players;
    event(model::EventDecl::Kind::begin_turn, "begin_turn");
    event(model::EventDecl::Kind::end_turn, "end_turn");
  }
  model::Game& game() { return g_; }

  int event(model::EventDecl::Kind kind, std::string name, int phase = -1, int step = -1) {
    model::EventDecl e;
    e.kind = kind;
    e.name = std::move(name);
    e.phase = phase;
    e.step = step;
    g_.events.push_back(std::move(e));
    return static_cast<int>(g_.events.size()) - 1;
  }
  int custom_event(std::string name) {
    return event(model::EventDecl::Kind::custom, std::move(name));
  }

  int var(std::string name, std::int32_t lo, std::int32_t hi, std::int32_t init,
          bool per_player = false, int array = 0, Type type = Type::int_()) {
    model::VarDecl v;
    v.name = std::move(name);
    v.per_player = per_player;
    v.array = array;
    model::Field f;
    f.type = type;
    f.lo = lo;
    f.hi = hi;
    f.init = init;
    v.fields.push_back(f);
    g_.vars.push_back(std::move(v));
    return static_cast<int>(g_.vars.size()) - 1;
  }
  int kind(std::string name, std::int32_t copies, std::vector<int> tags = {}) {
    model::KindDecl k;
    k.name = std::move(name);
    k.copies = copies;
    k.tags = std::move(tags);
    g_.kinds.push_back(std::move(k));
    return static_cast<int>(g_.kinds.size()) - 1;
  }
  int zone(std::string name, bool per_player = true, bool init_all = false) {
    model::ZoneDecl z;
    z.name = std::move(name);
    z.per_player = per_player;
    z.init_all = init_all;
    g_.zones.push_back(std::move(z));
    const int id = static_cast<int>(g_.zones.size()) - 1;
    if (g_.zones[id].name == "deck") g_.deck_zone = id;
    if (g_.zones[id].name == "hand") g_.hand_zone = id;
    if (g_.zones[id].name == "discard") g_.discard_zone = id;
    return id;
  }
  int phase(const std::string& name) {
    model::Phase p;
    p.name = name;
    const int id = static_cast<int>(g_.phases.size());
    p.begin_event = event(model::EventDecl::Kind::begin_phase, "begin_phase(" + name + ")", id);
    p.end_event = event(model::EventDecl::Kind::end_phase, "end_phase(" + name + ")", id);
    g_.phases.push_back(std::move(p));
    return id;
  }
  int step(int phase, const std::string& name, StmtPtr effects = nullptr, int window = -1) {
    model::Step s;
    s.name = name;
    s.phase = phase;
    s.index = static_cast<int>(g_.phases[phase].steps.size());
    s.effects = std::move(effects);
    s.window = window;
    const int id = static_cast<int>(g_.steps.size());
    const std::string full = g_.phases[phase].name + "." + name;
    s.begin_event =
        event(model::EventDecl::Kind::begin_step, "begin_step(" + full + ")", phase, id);
    s.end_event = event(model::EventDecl::Kind::end_step, "end_step(" + full + ")", phase, id);
    g_.steps.push_back(std::move(s));
    g_.phases[phase].steps.push_back(id);
    return id;
  }
  int window(std::string name, model::Protocol protocol, std::vector<model::RoleSpeeds> roles = {},
             bool may_pass = true, std::vector<model::SequenceTurn> order = {}) {
    model::Window w;
    w.name = std::move(name);
    w.protocol = protocol;
    w.roles = std::move(roles);
    w.may_pass = may_pass;
    w.order = std::move(order);
    g_.windows.push_back(std::move(w));
    return static_cast<int>(g_.windows.size()) - 1;
  }
  model::Action& action(std::string name, model::Role who, int speed = 0) {
    model::Action a;
    a.name = std::move(name);
    a.who = who;
    a.speed = speed;
    g_.actions.push_back(std::move(a));
    return g_.actions.back();
  }
  model::Trigger& trigger(std::string name, int event, model::Role controller,
                          StmtPtr effect = nullptr, bool optional = false) {
    model::Trigger t;
    t.name = std::move(name);
    t.event = event;
    t.controller = controller;
    t.effect = std::move(effect);
    t.optional = optional;
    g_.triggers.push_back(std::move(t));
    return g_.triggers.back();
  }
  void end(std::string name, bool win, model::Role who, ExprPtr condition) {
    model::EndCondition e;
    e.name = std::move(name);
    e.win = win;
    e.who = who;
    e.condition = std::move(condition);
    g_.end_conditions.push_back(std::move(e));
  }

  // Lays out the data slots; call once, after every declaration.
  model::Game finish() {
    const int n = g_.players;
    auto pname = [](int p) { return "P" + std::to_string(p + 1); };
    for (std::size_t v = 0; v < g_.vars.size(); ++v) {
      auto& d = g_.vars[v];
      d.first_slot = static_cast<int>(g_.slots.size());
      for (int p = 0; p < (d.per_player ? n : 1); ++p) {
        for (int i = 0; i < (d.array == 0 ? 1 : d.array); ++i) {
          for (const auto& f : d.fields) {
            model::Slot s;
            s.name = d.name + (d.per_player ? "[" + pname(p) + "]" : "") +
                     (d.array ? "[" + std::to_string(i) + "]" : "") +
                     (f.name.empty() ? "" : "." + f.name);
            s.lo = f.lo;
            s.hi = f.hi;
            s.init = f.init;
            s.var = static_cast<int>(v);
            s.owner = d.per_player ? p : -1;
            s.type = f.type;
            g_.slots.push_back(s);
          }
        }
      }
    }
    for (std::size_t z = 0; z < g_.zones.size(); ++z) {
      auto& d = g_.zones[z];
      d.first_slot = static_cast<int>(g_.slots.size());
      for (int p = 0; p < (d.per_player ? n : 1); ++p) {
        for (std::size_t k = 0; k < g_.kinds.size(); ++k) {
          const int copies = g_.kinds[k].copies;
          model::Slot s;
          s.name = d.name + (d.per_player ? "[" + pname(p) + "]" : "") + "." + g_.kinds[k].name;
          s.lo = 0;
          s.hi = d.per_player ? copies : copies * n;
          if (d.init_all) {
            int elsewhere = 0;
            for (const auto& other : g_.zones) {
              auto it = other.init_counts.find(static_cast<int>(k));
              if (it != other.init_counts.end()) elsewhere += it->second;
            }
            s.init = (copies - elsewhere) * (d.per_player ? 1 : n);
          } else {
            auto it = d.init_counts.find(static_cast<int>(k));
            s.init = it == d.init_counts.end() ? 0 : it->second;
          }
          s.zone = static_cast<int>(z);
          s.owner = d.per_player ? p : -1;
          s.kind = static_cast<int>(k);
          s.type = Type::int_();
          g_.slots.push_back(s);
        }
      }
    }
    g_.binder_slots = 4;
    return std::move(g_);
  }

 private:
  model::Game g_;
};

inline model::RoleSpeeds role(model::Role r, std::vector<int> lead, std::vector<int> answer,
                              bool lead_if_active_idle = false) {
  model::RoleSpeeds s;
  s.role = r;
  s.lead = std::move(lead);
  s.answer = std::move(answer);
  s.lead_if_active_idle = lead_if_active_idle;
  return s;
}

}  // namespace loophole::checker::testing
