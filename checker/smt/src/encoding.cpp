// Expressions of the rules as Z3 terms, evaluated exactly as the reference
// evaluator does (checker/src/semantics/eval.cpp): 64-bit integers become
// unbounded Int terms, and where gaps.cpp found that an operation may leave
// 64 bits its result outside [INT64_MIN, INT64_MAX] is the overflow gap;
// `/` and `%` truncate toward zero, `and`/`or`, quantifiers and `if`
// short-circuit, and the first failure (division by zero, index out of
// range, overflow) is kept as a gap site term guarded by the condition
// under which evaluation reaches it.
#include "encoding.hpp"

#include <algorithm>

namespace loophole::smt::detail {

using model::Expr;
using model::ExprKind;
using model::Op;

namespace {

constexpr int no_site = 1 << 30;

z3::expr tdiv(const z3::expr& a, const z3::expr& b) {
  const z3::expr na = -a, nb = -b;
  return z3::ite(a >= 0, z3::ite(b > 0, a / b, -(a / nb)), z3::ite(b > 0, -(na / b), na / nb));
}

}  // namespace

Encoding::Encoding(const checker::Semantics& s, z3::context& c, Control& k)
    : ctx(c),
      control(k),
      sem(s),
      game(s.game()),
      prep(s.game()),
      players(s.game().players),
      relation_(c.bool_val(false)) {
  x = frame("x!");
  y = frame("y!");
  build_transition(*this);
}

std::vector<z3::expr> Encoding::frame(const std::string& prefix) {
  std::vector<z3::expr> out;
  out.reserve(prep.layout.fields.size());
  for (const auto& f : prep.layout.fields) out.push_back(ctx.int_const((prefix + f.name).c_str()));
  return out;
}

z3::expr Encoding::in_range(const std::vector<z3::expr>& s) const {
  z3::expr_vector parts(ctx);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto& f = prep.layout.fields[i];
    parts.push_back(s[i] >= f.lo && s[i] <= f.hi);
  }
  return z3::mk_and(parts);
}

z3::expr Encoding::equal(const std::vector<z3::expr>& a, const std::vector<z3::expr>& b) const {
  z3::expr_vector parts(ctx);
  for (std::size_t i = 0; i < a.size(); ++i) parts.push_back(a[i] == b[i]);
  return z3::mk_and(parts);
}

z3::expr Encoding::transition() const {
  if (relation_built_) return relation_;
  z3::expr_vector ors(ctx);
  for (const Path& p : paths) {
    z3::expr_vector ands(ctx);
    ands.push_back(p.pc);
    for (std::size_t i = 0; i < y.size(); ++i) ands.push_back(y[i] == p.next[i]);
    ors.push_back(z3::mk_and(ands));
  }
  auto* self = const_cast<Encoding*>(this);
  self->relation_ = z3::mk_or(ors);
  self->relation_built_ = true;
  return relation_;
}

z3::expr Encoding::has_move() const {
  z3::expr_vector ors(ctx);
  for (const auto& c : move_conds) ors.push_back(c);
  return z3::mk_or(ors);
}

z3::expr Encoding::deadlock(const std::vector<z3::expr>& s) const {
  z3::expr_vector from(ctx), to(ctx);
  for (std::size_t i = 0; i < x.size(); ++i) {
    from.push_back(x[i]);
    to.push_back(s[i]);
  }
  z3::expr moves = has_move();
  return s[static_cast<std::size_t>(prep.ctl.over)] == 0 && !moves.substitute(from, to);
}

z3::expr Encoding::instantiate(const z3::expr& e, const std::vector<z3::expr>& s,
                               const std::vector<z3::expr>& t, const std::string& tag) {
  z3::expr_vector from(ctx), to(ctx);
  for (std::size_t i = 0; i < x.size(); ++i) {
    from.push_back(x[i]);
    to.push_back(s[i]);
    from.push_back(y[i]);
    to.push_back(t[i]);
  }
  for (const auto& c : choices) {
    from.push_back(c);
    to.push_back(ctx.int_const((c.decl().name().str() + "@" + tag).c_str()));
  }
  z3::expr copy = e;
  return copy.substitute(from, to);
}

checker::StateVec decode_state(const z3::model& m, const std::vector<z3::expr>& s) {
  checker::StateVec out;
  out.reserve(s.size());
  for (const auto& v : s) out.push_back(m.eval(v, true).get_numeral_int());
  return out;
}

Ev Encoding::env(const std::vector<z3::expr>& s, std::vector<std::int64_t>& binders, int active,
                 int self) {
  return Ev{&s, &binders, active, self, ctx.bool_val(true), ctx.int_val(-1)};
}

namespace {

void fail_at(z3::context& ctx, Ev& ev, int site, const z3::expr& cond) {
  const z3::expr c = (cond && ev.reach).simplify();
  if (c.is_false()) return;
  ev.err = z3::ite(ev.err == -1 && c, ctx.int_val(site), ev.err);
}

}  // namespace

void Encoding::fail_if(Ev& ev, const void* node, const z3::expr& cond) {
  const auto it = prep.gaps.at.find(node);
  fail_at(ctx, ev, it == prep.gaps.at.end() ? no_site : it->second, cond);
}

z3::expr Encoding::checked(Ev& ev, const Expr& e, const z3::expr& r) {
  const auto it = prep.gaps.overflow.find(&e);
  if (it != prep.gaps.overflow.end()) {
    fail_at(
        ctx, ev, it->second,
        r < ctx.int_val(checker::semantics::min64) || r > ctx.int_val(checker::semantics::max64));
  }
  return r;
}

z3::expr Encoding::holds(const model::Expr& e, const std::vector<z3::expr>& s, int self) {
  std::vector<std::int64_t> binders(static_cast<std::size_t>(std::max(0, game.binder_slots)), 0);
  const z3::expr& active = s[static_cast<std::size_t>(prep.ctl.active)];
  z3::expr out = ctx.bool_val(false);
  for (int a = players - 1; a >= 0; --a) {
    Ev ev = env(s, binders, a, self);
    const z3::expr b = eval_bool(e, ev);
    const z3::expr h = b && ev.err == -1;
    out = a == players - 1 ? h : z3::ite(active == a, h, out);
  }
  return out.simplify();
}

z3::expr Encoding::end_holds(int condition, int player, const std::vector<z3::expr>& s) {
  const auto& end = game.end_conditions[static_cast<std::size_t>(condition)];
  std::vector<std::int64_t> binders(static_cast<std::size_t>(std::max(0, game.binder_slots)), 0);
  const z3::expr& active = s[static_cast<std::size_t>(prep.ctl.active)];
  z3::expr_vector ors(ctx);
  for (int a = 0; a < players; ++a) {
    if (!prep.covers(end.who, player, a)) continue;
    Ev ev = env(s, binders, a, player);
    const z3::expr b = guard(end.condition.get(), ev);
    ors.push_back(active == a && b && ev.err == -1);
  }
  return z3::mk_or(ors).simplify();
}

z3::expr Encoding::restricted(const model::Property& p, const std::vector<z3::expr>& s) const {
  if (p.at_phases.empty() && p.at_steps.empty()) return ctx.bool_val(true);
  const z3::expr& step = s[static_cast<std::size_t>(prep.ctl.step)];
  z3::expr_vector ors(ctx);
  for (std::size_t st = 0; st < game.steps.size(); ++st) {
    const bool listed =
        std::find(p.at_steps.begin(), p.at_steps.end(), static_cast<int>(st)) != p.at_steps.end() ||
        std::find(p.at_phases.begin(), p.at_phases.end(), game.steps[st].phase) !=
            p.at_phases.end();
    if (listed) ors.push_back(step == static_cast<int>(st));
  }
  return z3::mk_or(ors);
}

int Encoding::domain_size(const model::Domain& d, int self) const {
  using K = model::Domain::Kind;
  switch (d.kind) {
    case K::players:
      return players;
    case K::others:
      return self >= 0 ? players - 1 : players;
    case K::range:
      return d.hi < d.lo ? 0 : static_cast<int>(d.hi - d.lo + 1);
    case K::enum_values:
      return static_cast<int>(game.enums[static_cast<std::size_t>(d.ref)].values.size());
    case K::kinds:
      return prep.kinds;
    case K::kinds_tagged:
      return static_cast<int>(prep.kinds_by_tag[static_cast<std::size_t>(d.ref)].size());
  }
  return 0;
}

std::int64_t Encoding::domain_value(const model::Domain& d, int i, int self) const {
  using K = model::Domain::Kind;
  switch (d.kind) {
    case K::others:
      return self >= 0 && i >= self ? i + 1 : i;
    case K::range:
      return d.lo + i;
    case K::kinds_tagged:
      return prep.kinds_by_tag[static_cast<std::size_t>(d.ref)][static_cast<std::size_t>(i)];
    case K::players:
    case K::enum_values:
    case K::kinds:
      return i;
  }
  return i;
}

z3::expr Encoding::zone_slot_value(const std::vector<z3::expr>& s, int zone, const z3::expr& owner,
                                   int kind) {
  const auto& z = game.zones[static_cast<std::size_t>(zone)];
  if (!z.per_player) return s[static_cast<std::size_t>(z.slot(0, kind, prep.kinds))];
  return select(owner, players,
                [&](int o) { return s[static_cast<std::size_t>(z.slot(o, kind, prep.kinds))]; });
}

z3::expr Encoding::eval_var(const Expr& e, Ev& ev) {
  const auto& v = game.vars[static_cast<std::size_t>(e.ref)];
  std::size_t arg = 0;
  z3::expr player = ctx.int_val(0), index = ctx.int_val(0);
  if (v.per_player) player = eval_int(*e.args[arg++], ev);
  if (v.array > 0) {
    index = eval_int(*e.args[arg], ev);
    fail_if(ev, &e, index < 0 || index >= v.array);
  }
  const auto& s = *ev.s;
  return select(player, v.per_player ? players : 1, [&](int p) {
    return select(index, v.array > 0 ? v.array : 1,
                  [&](int i) { return s[static_cast<std::size_t>(v.slot(p, i, e.field))]; });
  });
}

z3::expr Encoding::eval_zone(const Expr& e, Ev& ev) {
  const auto& z = game.zones[static_cast<std::size_t>(e.ref)];
  z3::expr owner = ctx.int_val(0);
  if (z.per_player && !e.args.empty()) owner = eval_int(*e.args[0], ev);
  const auto& s = *ev.s;
  if (e.value >= 0) return zone_slot_value(s, e.ref, owner, static_cast<int>(e.value));
  if (e.value == -3) {
    const z3::expr kind = eval_int(*e.args.back(), ev);
    return select(kind, prep.kinds, [&](int k) { return zone_slot_value(s, e.ref, owner, k); });
  }
  z3::expr total = ctx.int_val(0);
  if (e.value == -1) {
    for (int k = 0; k < prep.kinds; ++k) total = total + zone_slot_value(s, e.ref, owner, k);
  } else {
    for (int k : prep.kinds_by_tag[static_cast<std::size_t>(e.tag)]) {
      total = total + zone_slot_value(s, e.ref, owner, k);
    }
  }
  return total;
}

z3::expr Encoding::eval_quant(const Expr& e, Ev& ev) {
  const int self = ev.self >= 0 ? ev.self : ev.active;
  const int n = domain_size(e.domain, self);
  const z3::expr reach = ev.reach;
  z3::expr acc = e.op == Op::forall ? ctx.bool_val(true) : ctx.bool_val(false);
  z3::expr sum = ctx.int_val(0);
  z3::expr going = ctx.bool_val(true);
  for (int i = 0; i < n; ++i) {
    (*ev.binders)[static_cast<std::size_t>(e.ref)] = domain_value(e.domain, i, self);
    ev.reach = reach && going;
    switch (e.op) {
      case Op::exists: {
        const z3::expr v = eval_bool(*e.args[0], ev);
        acc = acc || v;
        going = going && !v;
        break;
      }
      case Op::forall: {
        const z3::expr v = eval_bool(*e.args[0], ev);
        acc = acc && v;
        going = going && v;
        break;
      }
      case Op::count:
        sum = sum + z3::ite(eval_bool(*e.args[0], ev), ctx.int_val(1), ctx.int_val(0));
        break;
      default:  // the running total, checked as the reference adds it
        sum = checked(ev, e, sum + eval_int(*e.args[0], ev));
        break;
    }
  }
  ev.reach = reach;
  if (e.op == Op::exists || e.op == Op::forall) return z3::ite(acc, ctx.int_val(1), ctx.int_val(0));
  return sum;
}

z3::expr Encoding::eval_bool(const Expr& e, Ev& ev) {
  switch (e.kind) {
    case ExprKind::bool_lit:
      return ctx.bool_val(e.value != 0);
    case ExprKind::unary:
      if (e.op == Op::not_) return !eval_bool(*e.args[0], ev);
      break;
    case ExprKind::binary: {
      if (e.op == Op::and_ || e.op == Op::or_) {
        const z3::expr a = eval_bool(*e.args[0], ev);
        const z3::expr reach = ev.reach;
        ev.reach = e.op == Op::and_ ? reach && a : reach && !a;
        const z3::expr b = eval_bool(*e.args[1], ev);
        ev.reach = reach;
        return e.op == Op::and_ ? a && b : a || b;
      }
      const bool cmp = e.op == Op::eq || e.op == Op::ne || e.op == Op::lt || e.op == Op::le ||
                       e.op == Op::gt || e.op == Op::ge;
      if (!cmp) break;
      const z3::expr a = eval_int(*e.args[0], ev);
      const z3::expr b = eval_int(*e.args[1], ev);
      switch (e.op) {
        case Op::eq:
          return a == b;
        case Op::ne:
          return a != b;
        case Op::lt:
          return a < b;
        case Op::le:
          return a <= b;
        case Op::gt:
          return a > b;
        default:
          return a >= b;
      }
    }
    case ExprKind::cond: {
      const z3::expr c = eval_bool(*e.args[0], ev);
      const z3::expr reach = ev.reach;
      ev.reach = reach && c;
      const z3::expr a = eval_bool(*e.args[1], ev);
      ev.reach = reach && !c;
      const z3::expr b = eval_bool(*e.args[2], ev);
      ev.reach = reach;
      return z3::ite(c, a, b);
    }
    case ExprKind::quant:
      if (e.op == Op::exists || e.op == Op::forall) return eval_quant(e, ev) != 0;
      break;
    default:
      break;
  }
  return eval_int(e, ev) != 0;
}

z3::expr Encoding::eval_int(const Expr& e, Ev& ev) {
  const auto& s = *ev.s;
  const auto& ctl = prep.ctl;
  auto b2i = [&](const z3::expr& b) { return z3::ite(b, ctx.int_val(1), ctx.int_val(0)); };
  switch (e.kind) {
    case ExprKind::int_lit:
    case ExprKind::bool_lit:
    case ExprKind::enum_lit:
    case ExprKind::player_lit:
    case ExprKind::kind_lit:
    case ExprKind::action_lit:
      return ctx.int_val(static_cast<std::int64_t>(e.value));
    case ExprKind::active:
      return ctx.int_val(ev.active);
    case ExprKind::opponent:
      return ctx.int_val((ev.active + 1) % players);
    case ExprKind::self:
      return ctx.int_val(ev.self >= 0 ? ev.self : ev.active);
    case ExprKind::turn_number:
      return field(s, ctl.turn);
    case ExprKind::stack_size:
      return field(s, ctl.stack_size);
    case ExprKind::top_action:
    case ExprKind::top_controller: {
      if (ctl.stack_size < 0 || ctl.stack_capacity == 0) return ctx.int_val(0);
      const int off = e.kind == ExprKind::top_action ? 0 : 1;
      const z3::expr size = s[static_cast<std::size_t>(ctl.stack_size)];
      const z3::expr top = select(size - 1, ctl.stack_capacity, [&](int i) {
        const int slot = ctl.stack_base + 2 * i + off;
        return s[static_cast<std::size_t>(slot)];
      });
      return z3::ite(size == 0, ctx.int_val(0), top);
    }
    case ExprKind::next_player: {
      const z3::expr p = eval_int(*e.args[0], ev) + 1;
      return z3::ite(p >= players, p - players, p);
    }
    case ExprKind::var:
      return eval_var(e, ev);
    case ExprKind::zone_count:
      return eval_zone(e, ev);
    case ExprKind::bound:
      return ctx.int_val(static_cast<std::int64_t>((*ev.binders)[static_cast<std::size_t>(e.ref)]));
    case ExprKind::unary:
      if (e.op == Op::not_) return b2i(!eval_bool(*e.args[0], ev));
      return checked(ev, e, -eval_int(*e.args[0], ev));
    case ExprKind::binary: {
      switch (e.op) {
        case Op::add:
        case Op::sub:
        case Op::mul: {
          // (Operands in order: their failures come first, the left one's first.)
          const z3::expr a = eval_int(*e.args[0], ev);
          const z3::expr b = eval_int(*e.args[1], ev);
          return checked(ev, e, e.op == Op::add ? a + b : e.op == Op::sub ? a - b : a * b);
        }
        case Op::div:
        case Op::mod: {
          const z3::expr a = eval_int(*e.args[0], ev);
          const z3::expr b = eval_int(*e.args[1], ev);
          fail_if(ev, &e, b == 0);
          // INT64_MIN / -1: the quotient 2^63 leaves 64 bits (and so does
          // the division behind INT64_MIN % -1).
          checked(ev, e, z3::ite(b == -1, -a, ctx.int_val(0)));
          const z3::expr q = tdiv(a, b);
          const z3::expr r = e.op == Op::div ? q : a - b * q;
          return z3::ite(b == 0, ctx.int_val(0), r);
        }
        default:
          return b2i(eval_bool(e, ev));
      }
    }
    case ExprKind::cond: {
      const z3::expr c = eval_bool(*e.args[0], ev);
      const z3::expr reach = ev.reach;
      ev.reach = reach && c;
      const z3::expr a = eval_int(*e.args[1], ev);
      ev.reach = reach && !c;
      const z3::expr b = eval_int(*e.args[2], ev);
      ev.reach = reach;
      return z3::ite(c, a, b);
    }
    case ExprKind::quant:
      return eval_quant(e, ev);
    case ExprKind::builtin: {
      const z3::expr a = eval_int(*e.args[0], ev);
      switch (e.op) {
        case Op::abs:
          return checked(ev, e, z3::ite(a < 0, -a, a));
        case Op::min: {
          const z3::expr b = eval_int(*e.args[1], ev);
          return z3::ite(b < a, b, a);
        }
        case Op::max: {
          const z3::expr b = eval_int(*e.args[1], ev);
          return z3::ite(a < b, b, a);
        }
        case Op::clamp: {
          const z3::expr lo = eval_int(*e.args[1], ev);
          const z3::expr hi = eval_int(*e.args[2], ev);
          const z3::expr m = z3::ite(hi < a, hi, a);
          return z3::ite(m < lo, lo, m);
        }
        default:
          break;
      }
      break;
    }
    case ExprKind::name:
    case ExprKind::index:
    case ExprKind::field:
    case ExprKind::call:
      break;
  }
  throw Unsupported("expression '" + (e.text.empty() ? model::to_string(e) : e.text) + "'",
                    e.where);
}

}  // namespace loophole::smt::detail
