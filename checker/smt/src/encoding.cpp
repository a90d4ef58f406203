// The lowered form's expressions (loophole/checker/lowered.hpp) as Z3 terms,
// evaluated exactly as the lowering defines them (and the reference
// evaluator, checker/src/semantics/eval.cpp, does): 64-bit integers become
// unbounded Int terms, and where gaps.cpp found that an operation may leave
// 64 bits its result outside [INT64_MIN, INT64_MAX] is the overflow gap;
// `/` and `%` truncate toward zero, `and`/`or`, quantifiers and `if`
// short-circuit, and the first failure (division by zero, index out of
// range, overflow) is kept as a gap site term guarded by the condition
// under which evaluation reaches it.
#include "encoding.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace loophole::smt::detail {

using checker::lowered::X;

namespace {

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
      low(checker::lowered::lower(s.game())),
      players(s.game().players),
      relation_(c.bool_val(false)) {
  x = frame("x!");
  y = frame("y!");
  build_transition(*this);
}

std::vector<z3::expr> Encoding::frame(const std::string& prefix) {
  std::vector<z3::expr> out;
  out.reserve(low.layout.fields.size());
  for (const auto& f : low.layout.fields) out.push_back(ctx.int_const((prefix + f.name).c_str()));
  return out;
}

z3::expr Encoding::in_range(const std::vector<z3::expr>& s) const {
  z3::expr_vector parts(ctx);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto& f = low.layout.fields[i];
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
  return s[static_cast<std::size_t>(low.ctl.over)] == 0 && !moves.substitute(from, to);
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

Ev Encoding::env(const std::vector<z3::expr>& s, std::vector<std::int64_t>& locals, int active,
                 int self) {
  return Ev{&s, &locals, active, self, ctx.bool_val(true), ctx.int_val(-1)};
}

void Encoding::fail_at(Ev& ev, int site, const z3::expr& cond) {
  const z3::expr c = (cond && ev.reach).simplify();
  if (c.is_false()) return;
  ev.err = z3::ite(ev.err == -1 && c, ctx.int_val(site), ev.err);
}

z3::expr Encoding::checked(Ev& ev, int overflow, const z3::expr& r) {
  if (overflow >= 0) {
    fail_at(ev, overflow,
            r < ctx.int_val(std::numeric_limits<std::int64_t>::min()) ||
                r > ctx.int_val(std::numeric_limits<std::int64_t>::max()));
  }
  return r;
}

z3::expr Encoding::holds(int node, const std::vector<z3::expr>& s, int self) {
  std::vector<std::int64_t> locals(static_cast<std::size_t>(std::max(0, low.locals)), 0);
  const z3::expr& active = s[static_cast<std::size_t>(low.ctl.active)];
  z3::expr out = ctx.bool_val(false);
  for (int a = players - 1; a >= 0; --a) {
    Ev ev = env(s, locals, a, self);
    const z3::expr b = eval_bool(node, ev);
    const z3::expr h = b && ev.err == -1;
    out = a == players - 1 ? h : z3::ite(active == a, h, out);
  }
  return out.simplify();
}

z3::expr Encoding::end_holds(int condition, int player, const std::vector<z3::expr>& s) {
  const auto& end = game.end_conditions[static_cast<std::size_t>(condition)];
  const int node = low.rules.end_condition[static_cast<std::size_t>(condition)];
  std::vector<std::int64_t> locals(static_cast<std::size_t>(std::max(0, low.locals)), 0);
  const z3::expr& active = s[static_cast<std::size_t>(low.ctl.active)];
  z3::expr_vector ors(ctx);
  for (int a = 0; a < players; ++a) {
    for (int o = 0; o < orders(); ++o) {
      if (!covers(end.who, player, a, o != 0)) continue;
      Ev ev = env(s, locals, a, player);
      const z3::expr b = guard(node, ev);
      const z3::expr in_order = orders() == 1 ? ctx.bool_val(true) : field(s, low.ctl.order) == o;
      ors.push_back(active == a && in_order && b && ev.err == -1);
    }
  }
  return z3::mk_or(ors).simplify();
}

z3::expr Encoding::restricted(const model::Property& p, const std::vector<z3::expr>& s) const {
  if (p.at_phases.empty() && p.at_steps.empty()) return ctx.bool_val(true);
  const z3::expr& step = s[static_cast<std::size_t>(low.ctl.step)];
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

z3::expr Encoding::zone_slot_value(const std::vector<z3::expr>& s, int zone, const z3::expr& owner,
                                   int kind) {
  const auto& z = game.zones[static_cast<std::size_t>(zone)];
  if (!z.per_player) return s[static_cast<std::size_t>(z.slot(0, kind, low.kinds))];
  return select(owner, players,
                [&](int o) { return s[static_cast<std::size_t>(z.slot(o, kind, low.kinds))]; });
}

std::pair<z3::expr, z3::expr> Encoding::place_terms(const checker::lowered::Place& pl, Ev& ev) {
  z3::expr player = ctx.int_val(0), index = ctx.int_val(0);
  if (pl.player >= 0) player = eval_int(pl.player, ev);
  if (pl.index >= 0) {
    index = eval_int(pl.index, ev);
    if (pl.bound > 0) fail_at(ev, pl.site, index < 0 || index >= pl.bound);
  }
  return {player, index};
}

z3::expr Encoding::eval_quant(const checker::lowered::Expr& e, Ev& ev) {
  const int self = ev.self >= 0 ? ev.self : ev.active;
  const int n = domain_size(e.a, self);
  const z3::expr reach = ev.reach;
  z3::expr acc = e.op == X::forall ? ctx.bool_val(true) : ctx.bool_val(false);
  z3::expr sum = ctx.int_val(0);
  z3::expr going = ctx.bool_val(true);
  for (int i = 0; i < n; ++i) {
    (*ev.locals)[static_cast<std::size_t>(e.b)] = domain_value(e.a, i, self);
    ev.reach = reach && going;
    switch (e.op) {
      case X::exists: {
        const z3::expr v = eval_bool(e.x[0], ev);
        acc = acc || v;
        going = going && !v;
        break;
      }
      case X::forall: {
        const z3::expr v = eval_bool(e.x[0], ev);
        acc = acc && v;
        going = going && v;
        break;
      }
      case X::count_of:
        sum = sum + z3::ite(eval_bool(e.x[0], ev), ctx.int_val(1), ctx.int_val(0));
        break;
      default:  // the running total, checked as the reference adds it
        sum = checked(ev, e.overflow, sum + eval_int(e.x[0], ev));
        break;
    }
  }
  ev.reach = reach;
  if (e.op == X::exists || e.op == X::forall) return z3::ite(acc, ctx.int_val(1), ctx.int_val(0));
  return sum;
}

z3::expr Encoding::eval_bool(int node, Ev& ev) {
  const auto& e = low.exprs[static_cast<std::size_t>(node)];
  if (checker::lowered::is_comparison(e.op)) {
    const z3::expr a = eval_int(e.x[0], ev);
    const z3::expr b = eval_int(e.x[1], ev);
    if (e.op == X::eq) return a == b;
    if (e.op == X::ne) return a != b;
    if (e.op == X::lt) return a < b;
    if (e.op == X::le) return a <= b;
    return e.op == X::gt ? a > b : a >= b;
  }
  switch (e.op) {
    case X::konst:
      return ctx.bool_val(e.k != 0);
    case X::not_:
      return !eval_bool(e.x[0], ev);
    case X::and_:
    case X::or_: {
      const z3::expr a = eval_bool(e.x[0], ev);
      const z3::expr reach = ev.reach;
      ev.reach = e.op == X::and_ ? reach && a : reach && !a;
      const z3::expr b = eval_bool(e.x[1], ev);
      ev.reach = reach;
      return e.op == X::and_ ? a && b : a || b;
    }
    case X::cond: {
      const z3::expr c = eval_bool(e.x[0], ev);
      const z3::expr reach = ev.reach;
      ev.reach = reach && c;
      const z3::expr a = eval_bool(e.x[1], ev);
      ev.reach = reach && !c;
      const z3::expr b = eval_bool(e.x[2], ev);
      ev.reach = reach;
      return z3::ite(c, a, b);
    }
    case X::exists:
    case X::forall:
      return eval_quant(e, ev) != 0;
    default:
      break;
  }
  return eval_int(node, ev) != 0;
}

z3::expr Encoding::eval_int(int node, Ev& ev) {
  const auto& e = low.exprs[static_cast<std::size_t>(node)];
  const auto& s = *ev.s;
  const auto& ctl = low.ctl;
  if (e.op == X::exists || e.op == X::forall) return eval_quant(e, ev);
  // A boolean operation's value: its Bool term as 0/1.
  if (checker::lowered::is_boolean(e.op)) {
    return z3::ite(eval_bool(node, ev), ctx.int_val(1), ctx.int_val(0));
  }
  switch (e.op) {
    case X::konst:
      return ctx.int_val(static_cast<std::int64_t>(e.k));
    case X::field:
      // The encoding splits on the active player: its field is that case's.
      if (e.a == ctl.active) return ctx.int_val(ev.active);
      return s[static_cast<std::size_t>(e.a)];
    case X::self:
      return ctx.int_val(ev.self >= 0 ? ev.self : ev.active);
    case X::local:
      return ctx.int_val(static_cast<std::int64_t>((*ev.locals)[static_cast<std::size_t>(e.a)]));
    case X::next_player: {
      // `opponent`, next_player(active): the active player is this case's.
      const auto& arg = low.exprs[static_cast<std::size_t>(e.x[0])];
      if (arg.op == X::field && arg.a == ctl.active) return ctx.int_val((ev.active + 1) % players);
      const z3::expr p = eval_int(e.x[0], ev) + 1;
      return z3::ite(p >= players, p - players, p);
    }
    case X::read: {
      const auto& pl = low.places[static_cast<std::size_t>(e.a)];
      // (Not a structured binding: clang 14 cannot capture one in a lambda.)
      const auto terms = place_terms(pl, ev);
      const z3::expr& player = terms.first;
      const z3::expr& index = terms.second;
      return select(player, place_players(pl), [&](int p) {
        return select(index, place_indices(pl),
                      [&](int i) { return s[static_cast<std::size_t>(slot(pl, p, i))]; });
      });
    }
    case X::count: {
      const auto& pl = low.places[static_cast<std::size_t>(e.a)];
      // (Not a structured binding: clang 14 cannot capture one in a lambda.
      // The index term is built for its failure sites; a count reads a row.)
      const auto terms = place_terms(pl, ev);
      const z3::expr& player = terms.first;
      z3::expr total = ctx.int_val(0);
      for (int k : low.lists[static_cast<std::size_t>(e.b)]) {
        total = total + select(player, place_players(pl), [&](int p) {
                  return s[static_cast<std::size_t>(slot(pl, p, 0) + k)];
                });
      }
      return total;
    }
    case X::stack_top: {
      if (ctl.stack_size < 0 || ctl.stack_capacity == 0) return ctx.int_val(0);
      const z3::expr size = s[static_cast<std::size_t>(ctl.stack_size)];
      const z3::expr top = select(size - 1, ctl.stack_capacity, [&](int i) {
        const int at = ctl.stack_base + 2 * i + e.a;
        return s[static_cast<std::size_t>(at)];
      });
      return z3::ite(size == 0, ctx.int_val(0), top);
    }
    case X::neg:
      return checked(ev, e.overflow, -eval_int(e.x[0], ev));
    case X::add:
    case X::sub:
    case X::mul: {
      // (Operands in order: their failures come first, the left one's first.)
      const z3::expr a = eval_int(e.x[0], ev);
      const z3::expr b = eval_int(e.x[1], ev);
      return checked(ev, e.overflow, e.op == X::add ? a + b : e.op == X::sub ? a - b : a * b);
    }
    case X::div:
    case X::mod: {
      const z3::expr a = eval_int(e.x[0], ev);
      const z3::expr b = eval_int(e.x[1], ev);
      fail_at(ev, e.site, b == 0);
      // INT64_MIN / -1: the quotient 2^63 leaves 64 bits (and so does
      // the division behind INT64_MIN % -1).
      checked(ev, e.overflow, z3::ite(b == -1, -a, ctx.int_val(0)));
      const z3::expr q = tdiv(a, b);
      const z3::expr r = e.op == X::div ? q : a - b * q;
      return z3::ite(b == 0, ctx.int_val(0), r);
    }
    case X::cond: {
      const z3::expr c = eval_bool(e.x[0], ev);
      const z3::expr reach = ev.reach;
      ev.reach = reach && c;
      const z3::expr a = eval_int(e.x[1], ev);
      ev.reach = reach && !c;
      const z3::expr b = eval_int(e.x[2], ev);
      ev.reach = reach;
      return z3::ite(c, a, b);
    }
    case X::count_of:
    case X::sum:
      return eval_quant(e, ev);
    case X::abs: {
      const z3::expr a = eval_int(e.x[0], ev);
      return checked(ev, e.overflow, z3::ite(a < 0, -a, a));
    }
    case X::min: {
      const z3::expr a = eval_int(e.x[0], ev);
      const z3::expr b = eval_int(e.x[1], ev);
      return z3::ite(b < a, b, a);
    }
    case X::max: {
      const z3::expr a = eval_int(e.x[0], ev);
      const z3::expr b = eval_int(e.x[1], ev);
      return z3::ite(a < b, b, a);
    }
    case X::clamp: {
      const z3::expr a = eval_int(e.x[0], ev);
      const z3::expr lo = eval_int(e.x[1], ev);
      const z3::expr hi = eval_int(e.x[2], ev);
      const z3::expr m = z3::ite(hi < a, hi, a);
      return z3::ite(m < lo, lo, m);
    }
    default:  // the boolean operations, above
      break;
  }
  throw std::logic_error("loophole: internal error: lowered expression node not encoded");
}

}  // namespace loophole::smt::detail
