// Player symmetry: whether the rules treat every player alike up to who is
// active, and the rotation of a state. The decision walks the rules in the
// model's typed IR (the lowering erases which values are players: `opponent`
// becomes arithmetic on the active player), conservatively: a player literal,
// a player used as a number (compared by order, an index, an argument kept
// in the state), or an order over the players (a `for`, `pick` or `choose`
// over them, whose iterations or moves come in player order) breaks it.
// The setup and the properties are exempt: the setup runs once, from the
// one concrete initial state, and properties are evaluated on the concrete
// states PlayerView presents, so neither has to be symmetric.
#include <fmt/format.h>

#include "symmetry.hpp"

namespace loophole::checker {

namespace {
namespace rotations {  // (named apart from symmetry.cpp's helpers in unity builds)

using model::BaseType;
using model::Expr;
using model::ExprKind;
using model::Stmt;
using model::StmtKind;

std::string at(const model::SourceSpan& w) {
  return w.known() ? fmt::format("{}:{}:{}", w.file, w.line, w.col) : "<rules>";
}

bool is_player(const Expr& e) { return e.type.base == BaseType::player; }

bool over_players(const model::Domain& d) {
  return d.kind == model::Domain::Kind::players || d.kind == model::Domain::Kind::others;
}

// Whether evaluating `e` may fail (a division, an array index out of range,
// a product or sum beyond 64 bits): under a quantifier over the players the
// first failure, in player order, decides the rule gap reported.
bool may_fail(const model::Game& game, const Expr& e) {
  if (e.kind == ExprKind::binary &&
      (e.op == model::Op::div || e.op == model::Op::mod || e.op == model::Op::mul)) {
    return true;
  }
  if (e.kind == ExprKind::quant && e.op == model::Op::sum) return true;
  if (e.kind == ExprKind::var && game.vars[static_cast<std::size_t>(e.ref)].array > 0) return true;
  for (const auto& a : e.args) {
    if (a != nullptr && may_fail(game, *a)) return true;
  }
  return false;
}

// The first reason the rules break player symmetry ("" when none).
class PlayerCheck {
 public:
  explicit PlayerCheck(const model::Game& game) : game_(game) {}

  std::string run() {
    for (const model::VarDecl& v : game_.vars) {
      for (const model::Field& f : v.fields) {
        if (f.type.base == BaseType::player)
          return fail("a player stored in '" + v.name + "'", v.where);
      }
    }
    for (const model::Step& s : game_.steps) {
      stmt(s.effects.get());
      expr(s.repeat_while.get());
      expr(s.end_turn_if.get());
    }
    for (const model::Action& a : game_.actions) {
      for (const model::ActionTarget& t : a.targets) {
        if (t.type.base == BaseType::player) {
          fail("the player target '" + t.name + "' stored on the stack", t.at);
        }
        expr(t.where.get());
      }
      expr(a.guard.get());
      stmt(a.cost.get());
      stmt(a.effect.get());
    }
    for (const model::Trigger& t : game_.triggers) {
      if (!t.params.empty() && t.event >= 0) {
        for (const model::EventArg& arg : game_.events[static_cast<std::size_t>(t.event)].args) {
          if (arg.type.base == BaseType::player) {
            fail("the player argument '" + arg.name + "' kept by '" + t.name + "'", t.where);
          }
        }
      }
      expr(t.condition.get());
      stmt(t.effect.get());
    }
    for (const model::EndCondition& c : game_.end_conditions) {
      if (c.player >= 0) fail(fmt::format("'P{}' named", c.player + 1), c.where);
      expr(c.condition.get());
    }
    return why_;
  }

 private:
  std::string fail(const std::string& what, const model::SourceSpan& where) {
    if (why_.empty()) why_ = what + " at " + at(where);
    return why_;
  }

  // `e` as operand `i` of `parent` (null: a root): a player operand is
  // allowed as an owner, in ==/!=, next/prev and a conditional's branches.
  void expr(const Expr* e, const Expr* parent = nullptr, std::size_t i = 0) {
    if (e == nullptr || !why_.empty()) return;
    if (e->kind == ExprKind::player_lit) {
      fail(fmt::format("'P{}' named", e->value + 1), e->where);
      return;
    }
    if (is_player(*e) && parent != nullptr && !owner_use(*parent, i)) {
      fail("a player used as a number", e->where);
      return;
    }
    if (e->kind == ExprKind::quant && over_players(e->domain) && !e->args.empty() &&
        e->args[0] != nullptr && may_fail(game_, *e->args[0])) {
      fail("a quantifier over the players that may fail", e->where);
      return;
    }
    for (std::size_t k = 0; k < e->args.size(); ++k) expr(e->args[k].get(), e, k);
  }

  bool owner_use(const Expr& parent, std::size_t i) const {
    switch (parent.kind) {
      case ExprKind::binary:
        return parent.op == model::Op::eq || parent.op == model::Op::ne;
      case ExprKind::next_player:
      case ExprKind::prev_player:
        return true;
      case ExprKind::cond:
        return i > 0 && is_player(parent);
      case ExprKind::var:
        return i == 0 && game_.vars[static_cast<std::size_t>(parent.ref)].per_player;
      case ExprKind::zone_count:
        return i == 0 && game_.zones[static_cast<std::size_t>(parent.ref)].per_player;
      default:
        return false;
    }
  }

  void stmt(const Stmt* s) {
    if (s == nullptr || !why_.empty()) return;
    if ((s->kind == StmtKind::for_ || s->kind == StmtKind::choose || s->kind == StmtKind::pick) &&
        over_players(s->domain)) {
      fail(fmt::format("'{}' over the players, in player order", s->kind == StmtKind::for_ ? "for"
                                                                 : s->kind == StmtKind::pick
                                                                     ? "pick"
                                                                     : "choose"),
           s->where);
      return;
    }
    expr(s->target.get());
    if (s->value != nullptr && is_player(*s->value)) fail("a player stored", s->value->where);
    expr(s->value.get());
    // The players a statement names (a pick's chooser, a draw's player, a
    // win or loss) are owners; an event's arguments are kept in the state.
    const bool owners = s->kind == StmtKind::pick || s->kind == StmtKind::draw ||
                        s->kind == StmtKind::win || s->kind == StmtKind::lose;
    for (const auto& a : s->args) {
      if (a == nullptr) continue;
      if (is_player(*a) && !owners) fail("a player passed as a value", a->where);
      expr(a.get());
    }
    for (const auto& c : s->conds) expr(c.get());
    for (const auto& b : s->bodies) stmt(b.get());
  }

  const model::Game& game_;
  std::string why_;
};

}  // namespace rotations
}  // namespace

void Symmetry::decide_players(const lowered::Lowered& low, std::size_t fields) {
  const model::Game& game = *low.game;
  player_note_ = rotations::PlayerCheck(game).run();
  if (!player_note_.empty()) return;
  const int n = game.players;
  owner_stride_.assign(fields, 0);
  owner_.assign(fields, -1);
  const auto block = [&](int first, int stride, int width) {
    for (int p = 0; p < n; ++p) {
      for (int k = 0; k < width; ++k) {
        const auto f = static_cast<std::size_t>(first + p * stride + k);
        owner_stride_[f] = stride;
        owner_[f] = p;
      }
    }
  };
  for (const model::VarDecl& v : game.vars) {
    if (!v.per_player) continue;
    const int width = std::max(v.array, 1) * static_cast<int>(v.fields.size());
    block(v.first_slot, width, width);
  }
  for (const model::ZoneDecl& z : game.zones) {
    if (z.per_player) block(z.first_slot, low.kinds, low.kinds);
  }
  const lowered::Controls& ctl = low.ctl;
  for (const int f : ctl.pending) {
    if (f >= 0) block(f, 1, 1);
  }
  for (const int f : ctl.turn_uses) {
    if (f >= 0) block(f, 1, 1);
  }
  for (const int f : ctl.window_uses) {
    if (f >= 0) block(f, 1, 1);
  }
  for (std::size_t t = 0; t < ctl.pending_args.size(); ++t) {
    if (ctl.pending_args[t] < 0) continue;
    const int k = static_cast<int>(game.triggers[t].params.size());
    block(ctl.pending_args[t], k, k);
  }
  active_field_ = ctl.active;
  stage_field_ = ctl.stage;
  holder_field_ = ctl.holder;
  stack_size_field_ = ctl.stack_size;
  stack_base_ = ctl.stack_base;
  all_.assign((fields + 63) / 64, 0);
  for (std::size_t f = 0; f < fields; ++f) all_[f / 64] |= std::uint64_t{1} << (f % 64);
  rotations_ = n;
}

void Symmetry::rotate(const std::int32_t* in, int r, std::int32_t* out) const {
  const int n = rotations_;
  const std::size_t fields = owner_.size();
  for (std::size_t f = 0; f < fields; ++f) {
    if (owner_stride_[f] == 0) {
      out[f] = in[f];
    } else {
      const int o = owner_[f];
      out[static_cast<std::ptrdiff_t>(f) +
          static_cast<std::ptrdiff_t>(((o + r) % n) - o) * owner_stride_[f]] = in[f];
    }
  }
  // The player values: the active player, the window's holder while a
  // window is open (0 otherwise), the controllers of the stack's entries.
  const auto turn = [&](int f) { out[f] = (in[f] + r) % n; };
  turn(active_field_);
  if (holder_field_ >= 0 && in[stage_field_] == static_cast<std::int32_t>(Stage::window)) {
    turn(holder_field_);
  }
  if (stack_size_field_ >= 0) {
    for (int i = 0; i < in[stack_size_field_]; ++i) turn(stack_base_ + 2 * i + 1);
  }
}

}  // namespace loophole::checker
