// Potential (potential.hpp): the end conditions turned once into linear
// forms per (condition, player checked, active player, turn order), so that
// scoring a state is a few multiply-adds per comparison.
#include "potential.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "loophole/model/roles.hpp"

namespace loophole::simulate::detail {
namespace {

using model::Expr;
using model::ExprKind;
using model::Op;

struct Linear {
  std::vector<std::pair<int, std::int64_t>> terms;
  std::int64_t constant = 0;
};

class Lower {
 public:
  Lower(const model::Game& g, int self, int active, bool reversed)
      : g_(g), self_(self), active_(active), reversed_(reversed) {}

  std::optional<int> player(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::player_lit:
        return static_cast<int>(e.value);
      case ExprKind::self:
        return self_;
      case ExprKind::active:
        return active_;
      case ExprKind::opponent:  // the next player after the active one, in turn order
        return model::next_in_order(active_, reversed_, g_.players);
      case ExprKind::next_player:
      case ExprKind::prev_player: {
        if (e.args.empty()) return std::nullopt;
        const auto p = player(*e.args[0]);
        if (!p) return std::nullopt;
        const bool forward = e.kind == ExprKind::next_player;
        return model::next_in_order(*p, forward == reversed_, g_.players);
      }
      default:
        return std::nullopt;
    }
  }

  bool linear(const Expr& e, std::int64_t coef, Linear& out) const {
    switch (e.kind) {
      case ExprKind::int_lit:
      case ExprKind::bool_lit:
        out.constant += coef * e.value;
        return true;
      case ExprKind::var: {
        if (e.ref < 0 || static_cast<std::size_t>(e.ref) >= g_.vars.size()) return false;
        const model::VarDecl& v = g_.vars[e.ref];
        std::size_t a = 0;
        int owner = 0, index = 0;
        if (v.per_player) {
          if (e.args.size() <= a) return false;
          const auto p = player(*e.args[a++]);
          if (!p) return false;
          owner = *p;
        }
        if (v.array > 0) {
          if (e.args.size() <= a || e.args[a]->kind != ExprKind::int_lit) return false;
          index = static_cast<int>(e.args[a]->value);
          if (index < 0 || index >= v.array) return false;
        }
        out.terms.emplace_back(v.slot(owner, index, e.field), coef);
        return true;
      }
      case ExprKind::zone_count: {
        if (e.ref < 0 || static_cast<std::size_t>(e.ref) >= g_.zones.size()) return false;
        const model::ZoneDecl& z = g_.zones[e.ref];
        int owner = 0;
        if (z.per_player) {
          if (e.args.empty()) return false;
          const auto p = player(*e.args[0]);
          if (!p) return false;
          owner = *p;
        }
        const int kinds = static_cast<int>(g_.kinds.size());
        for (int k = 0; k < kinds; ++k) {
          bool counted = e.value == -1 || e.value == k;
          if (e.value == -2) {
            const auto& tags = g_.kinds[k].tags;
            counted = std::find(tags.begin(), tags.end(), e.tag) != tags.end();
          }
          if (counted) out.terms.emplace_back(z.slot(owner, k, kinds), coef);
        }
        return e.value >= -2;
      }
      case ExprKind::unary:
        return e.op == Op::neg && linear(*e.args[0], -coef, out);
      case ExprKind::binary:
        if (e.op == Op::add || e.op == Op::sub) {
          return linear(*e.args[0], coef, out) &&
                 linear(*e.args[1], e.op == Op::add ? coef : -coef, out);
        }
        if (e.op == Op::mul) {
          if (e.args[0]->kind == ExprKind::int_lit) {
            return linear(*e.args[1], coef * e.args[0]->value, out);
          }
          if (e.args[1]->kind == ExprKind::int_lit) {
            return linear(*e.args[0], coef * e.args[1]->value, out);
          }
        }
        return false;
      default:
        return false;
    }
  }

 private:
  const model::Game& g_;
  int self_, active_;
  bool reversed_;
};

}  // namespace

Potential::Potential(const model::Game& game, const checker::Layout& layout)
    : game_(game), active_field_(layout.active), order_field_(-1) {
  const auto order = std::find_if(layout.fields.begin(), layout.fields.end(),
                                  [](const checker::Field& f) { return f.name == "ctl.order"; });
  if (order != layout.fields.end()) order_field_ = static_cast<int>(order - layout.fields.begin());
  for (const auto& end : game.end_conditions) {
    if (!end.condition) continue;
    for (int reversed = 0; reversed < (order_field_ >= 0 ? 2 : 1); ++reversed) {
      for (int active = 0; active < game.players; ++active) {
        for (int self = 0; self < game.players; ++self) {
          if (!model::covers(end.who, self, active, game.players, reversed != 0)) continue;
          atoms_of(*end.condition, self, active, reversed != 0, end.win, 1);
        }
      }
    }
  }
}

void Potential::atoms_of(const model::Expr& e, int self, int active, bool reversed, bool win,
                         std::int64_t sign) {
  if (e.kind == ExprKind::unary && e.op == Op::not_) {
    atoms_of(*e.args[0], self, active, reversed, win, -sign);
    return;
  }
  if (e.kind != ExprKind::binary) return;
  if (e.op == Op::and_ || e.op == Op::or_) {
    atoms_of(*e.args[0], self, active, reversed, win, sign);
    atoms_of(*e.args[1], self, active, reversed, win, sign);
    return;
  }
  if (e.op != Op::lt && e.op != Op::le && e.op != Op::gt && e.op != Op::ge && e.op != Op::eq) {
    return;
  }
  const Lower lower(game_, self, active, reversed);
  Linear l;
  if (!lower.linear(*e.args[0], 1, l) || !lower.linear(*e.args[1], -1, l)) return;
  if (l.terms.empty()) return;
  Atom a;
  a.op = e.op;
  for (const auto& [slot, coef] : l.terms) a.terms.push_back(Term{slot, coef});
  a.constant = l.constant;
  a.sign = sign;
  a.self = self;
  a.active = active;
  a.reversed = reversed;
  a.win = win;
  atoms_.push_back(std::move(a));
}

std::int64_t Potential::of(const std::int32_t* state, int p) const {
  const int active = state[active_field_];
  const bool reversed = order_field_ >= 0 && state[order_field_] != 0;
  std::int64_t total = 0;
  for (const Atom& a : atoms_) {
    if (a.active != active || a.reversed != reversed) continue;
    std::int64_t d = a.constant;  // L - R
    for (const Term& t : a.terms) d += t.coef * state[t.slot];
    std::int64_t score = 0;
    switch (a.op) {
      case Op::lt:
      case Op::le:
        score = -d;
        break;
      case Op::gt:
      case Op::ge:
        score = d;
        break;
      default:
        score = -std::llabs(d);
        break;
    }
    const bool favours = (a.self == p) == a.win;
    total += (favours ? 1 : -1) * a.sign * score;
  }
  return total;
}

}  // namespace loophole::simulate::detail
