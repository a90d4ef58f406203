// The rule-gap sites: every place where running the rules can leave their
// own bounds, listed once up front so that a gap state carries only a small
// number (ctl.gap = 1 + site). Sites are found syntactically (assignments,
// card movements, divisions, array indices, played cards, pushes; see
// docs/semantics.md, "Details the definition settles"); a constant divisor
// or in-range constant index cannot fail and gets none.
//
// Integer overflow (+ - * / % abs, unary minus, a `sum`'s running total
// leaving 64 bits) is found by one interval analysis here, which every
// backend reads through GapTable::overflow: each expression's values are
// bounded from the declared ranges of variables and zone slots, binder
// domains, control fields (32 bits) and constants, and only an operation
// whose result interval may leave [INT64_MIN, INT64_MAX] gets a site. So a
// division can own two sites: a zero divisor (`at`) and INT64_MIN / -1
// (`overflow`). A property's expressions get the no-site mark instead.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "prepared.hpp"

namespace loophole::checker::semantics {
namespace {

using model::Expr;
using model::ExprKind;
using model::Op;
using model::Stmt;
using model::StmtKind;
using Kind = GapSite::Kind;

// The values an expression can take (lo <= hi).
struct Interval {
  std::int64_t lo = min64, hi = max64;
  [[nodiscard]] bool holds(std::int64_t v) const { return lo <= v && v <= hi; }
};
constexpr Interval int32_values{std::numeric_limits<std::int32_t>::min(),
                                std::numeric_limits<std::int32_t>::max()};
constexpr Interval truth_values{0, 1};

Interval hull(Interval a, Interval b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

// a op b over the corners of both intervals; nullopt when a corner leaves
// 64 bits (+, - and * are monotone in each operand, so the corners bound it).
std::optional<Interval> corners(Op op, Interval a, Interval b) {
  const std::int64_t xs[] = {a.lo, a.hi}, ys[] = {b.lo, b.hi};
  Interval out{max64, min64};
  for (const std::int64_t x : xs) {
    for (const std::int64_t y : ys) {
      std::int64_t r = 0;
      const bool over = op == Op::add   ? __builtin_add_overflow(x, y, &r)
                        : op == Op::sub ? __builtin_sub_overflow(x, y, &r)
                                        : __builtin_mul_overflow(x, y, &r);
      if (over) return std::nullopt;
      out = {std::min(out.lo, r), std::max(out.hi, r)};
    }
  }
  return out;
}

// How tightly a binary operator binds (the parser's levels).
int precedence(Op op) {
  switch (op) {
    case Op::or_:
      return 1;
    case Op::and_:
      return 2;
    case Op::add:
    case Op::sub:
      return 4;
    case Op::mul:
    case Op::div:
    case Op::mod:
      return 5;
    default:
      return 3;  // comparisons
  }
}

// The expression as the rules write it, for a site's message: "big * 4".
std::string text_of(const model::Game& game, const Expr& e) {
  // An operand in parentheses where the rules need them (left-associative).
  const auto operand = [&](const Expr& a, bool right) {
    const bool parens = a.kind == ExprKind::cond || a.kind == ExprKind::quant ||
                        (a.kind == ExprKind::binary && e.kind == ExprKind::binary &&
                         (precedence(a.op) < precedence(e.op) ||
                          (right && precedence(a.op) == precedence(e.op)))) ||
                        (a.kind == ExprKind::binary && e.kind == ExprKind::unary);
    return parens ? "(" + text_of(game, a) + ")" : text_of(game, a);
  };
  switch (e.kind) {
    case ExprKind::int_lit:
      return e.text.empty() ? std::to_string(e.value) : e.text;
    case ExprKind::var: {
      const auto& v = game.vars[e.ref];
      std::string out = v.name;
      for (const auto& a : e.args) out += "[" + text_of(game, *a) + "]";
      if (v.is_record) out += "." + v.fields[e.field].name;
      return out;
    }
    case ExprKind::unary:
      return std::string(e.op == Op::not_ ? "not " : "-") + operand(*e.args[0], false);
    case ExprKind::binary:
      return operand(*e.args[0], false) + " " + std::string(model::to_string(e.op)) + " " +
             operand(*e.args[1], true);
    case ExprKind::builtin: {
      std::string out = std::string(model::to_string(e.op)) + "(";
      for (std::size_t i = 0; i < e.args.size(); ++i) {
        out += (i > 0 ? ", " : "") + text_of(game, *e.args[i]);
      }
      return out + ")";
    }
    case ExprKind::quant:
      return std::string(model::to_string(e.op)) + " " + e.text + " in " + e.domain.text + ": " +
             text_of(game, *e.args[0]);
    default:
      return e.text.empty() ? model::to_string(e) : e.text;
  }
}

class Collector {
 public:
  Collector(const model::Game& game, GapTable& gaps)
      : game_(game), gaps_(gaps), binders_(static_cast<std::size_t>(game.binder_slots)) {}

  int add(const std::string& rule, const model::SourceSpan& where, std::string message, Kind kind) {
    gaps_.sites.push_back(GapSite{rule, where, std::move(message), kind});
    return static_cast<int>(gaps_.sites.size()) - 1;
  }

  // A property's expressions: overflow marked with no site (it makes the
  // property false, as a division by zero does).
  void outside_rules(const Expr* e) {
    in_rules_ = false;
    expr("", e);
    in_rules_ = true;
  }

  // Collects e's sites and returns the interval of its values.
  Interval expr(const std::string& rule, const Expr* e) {
    if (e == nullptr) return {};
    if (e->kind == ExprKind::quant) bind(e->ref, e->domain);
    std::vector<Interval> args;
    args.reserve(e->args.size());
    for (const auto& a : e->args) args.push_back(expr(rule, a.get()));
    if (in_rules_ && e->kind == ExprKind::binary && (e->op == Op::div || e->op == Op::mod)) {
      const Expr* d = e->args.size() > 1 ? e->args[1].get() : nullptr;
      if (d == nullptr || d->kind != ExprKind::int_lit || d->value == 0) {
        gaps_.at[e] = add(rule, e->where, e->op == Op::div ? "division by zero" : "modulo by zero",
                          Kind::div_zero);
      }
    }
    if (in_rules_ && e->kind == ExprKind::var && e->ref >= 0) {
      const auto& v = game_.vars[e->ref];
      if (v.array > 0) {
        const std::size_t at = v.per_player ? 1 : 0;
        const Expr* i = at < e->args.size() ? e->args[at].get() : nullptr;
        if (i == nullptr || i->kind != ExprKind::int_lit || i->value < 0 || i->value >= v.array) {
          gaps_.at[e] = add(rule, e->where, "index out of range of '" + v.name + "'", Kind::index);
        }
      }
    }
    bool over = false;
    const Interval out = values(*e, args, over);
    if (gaps_.beyond_int32.empty() &&
        (over || out.lo < int32_values.lo || out.hi > int32_values.hi)) {
      gaps_.beyond_int32 = text_of(game_, *e);
      gaps_.beyond_int32_at = e->where;
    }
    if (over) {
      gaps_.overflow[e] =
          in_rules_ ? add(rule, e->where, "integer overflow in '" + text_of(game_, *e) + "'",
                          Kind::overflow)
                    : GapTable::no_site;
    }
    return out;
  }

  // `fire(e(...))`: one site for the int arguments whose values may leave
  // their declared ranges (the other types cannot), none when none may.
  void fire_site(const std::string& rule, const Stmt& s) {
    if (s.ref < 0) return;
    const auto& ev = game_.events[static_cast<std::size_t>(s.ref)];
    std::string outside;
    for (std::size_t i = 0; i < s.args.size(); ++i) {
      const Interval v = expr(rule, s.args[i].get());
      if (i >= ev.args.size()) continue;
      const auto& a = ev.args[i];
      if (a.type != model::Type::int_() || (a.lo <= v.lo && v.hi <= a.hi)) continue;
      outside += (outside.empty() ? "'" : ", '") + a.name + "' (" + std::to_string(a.lo) + ".." +
                 std::to_string(a.hi) + ")";
    }
    if (outside.empty()) return;
    gaps_.at[&s] =
        add(rule, s.where, "'" + ev.name + "' fired with an argument outside its range: " + outside,
            Kind::range);
  }

  // A trigger's event arguments (binders 0..k-1): their declared ranges.
  void bind_event_args(const model::Trigger& t) {
    if (t.event < 0) return;
    const auto& ev = game_.events[static_cast<std::size_t>(t.event)];
    for (std::size_t i = 0; i < t.params.size() && i < ev.args.size() && i < binders_.size(); ++i) {
      binders_[i] = Interval{ev.args[i].lo, ev.args[i].hi};
    }
  }

  // An action's targets (binders 0..k-1): their values.
  void bind_targets(const model::Action& a) {
    for (std::size_t i = 0; i < a.targets.size() && i < binders_.size(); ++i) {
      binders_[i] = Interval{a.targets[i].lo, a.targets[i].hi};
    }
  }

  void stmt(const std::string& rule, const Stmt* s) {
    if (s == nullptr) return;
    if (s->kind == StmtKind::for_ || s->kind == StmtKind::choose || s->kind == StmtKind::pick) {
      bind(s->ref, s->domain);
    }
    expr(rule, s->target.get());
    expr(rule, s->value.get());
    if (s->kind != StmtKind::fire) {  // fire_site reads its arguments' values
      for (const auto& a : s->args) expr(rule, a.get());
    }
    for (const auto& c : s->conds) expr(rule, c.get());
    switch (s->kind) {
      case StmtKind::assign: {
        std::string name = "a variable";
        if (s->target && s->target->ref >= 0) {
          const auto& v = game_.vars[s->target->ref];
          name = "'" + v.name;
          if (v.is_record && s->target->field < static_cast<int>(v.fields.size())) {
            name += "." + v.fields[s->target->field].name;
          }
          name += "'";
        }
        gaps_.at[s] = add(rule, s->where, "assignment leaves the range of " + name, Kind::range);
        break;
      }
      case StmtKind::draw:
        // draw(p, n, z) names its source zone; draw(p, n) takes from `deck`.
        gaps_.at[s] = add(rule, s->where,
                          "draw from an empty " + (s->args.size() == 3 && s->args[2]->ref >= 0
                                                       ? game_.zones[s->args[2]->ref].name
                                                       : std::string("deck")),
                          Kind::empty_zone);
        add(rule, s->where, "draw overfills the hand or draws a negative count", Kind::range);
        break;
      case StmtKind::move_kind:
      case StmtKind::move_any:
        gaps_.at[s] =
            add(rule, s->where, "move of more cards than the source zone holds", Kind::empty_zone);
        add(rule, s->where, "move overfills the destination zone or moves a negative count",
            Kind::range);
        break;
      case StmtKind::fire:
        fire_site(rule, *s);
        break;
      default:
        break;
    }
    for (const auto& b : s->bodies) stmt(rule, b.get());
  }

 private:
  // The values a binder takes over its domain, and how many there are.
  [[nodiscard]] Interval domain_values(const model::Domain& d) const {
    using K = model::Domain::Kind;
    switch (d.kind) {
      case K::players:
      case K::others:
        return {0, game_.players - 1};
      case K::range:
        return d.hi < d.lo ? Interval{0, 0} : Interval{d.lo, d.hi};
      case K::enum_values:
        return {0, static_cast<std::int64_t>(game_.enums[d.ref].values.size()) - 1};
      case K::kinds:
      case K::kinds_tagged:
        return {0, static_cast<std::int64_t>(game_.kinds.size()) - 1};
    }
    return {};
  }
  [[nodiscard]] std::int64_t domain_size(const model::Domain& d) const {
    using K = model::Domain::Kind;
    if (d.kind == K::range) {
      std::int64_t n = 0;
      if (d.hi < d.lo) return 0;
      if (__builtin_sub_overflow(d.hi, d.lo, &n) || n == max64) return max64;
      return n + 1;
    }
    const Interval v = domain_values(d);
    return v.hi - v.lo + 1;
  }
  void bind(int slot, const model::Domain& d) {
    if (slot >= 0 && static_cast<std::size_t>(slot) < binders_.size()) {
      binders_[static_cast<std::size_t>(slot)] = domain_values(d);
    }
  }

  // A zone count's values: the kinds it counts summed, per owner.
  [[nodiscard]] Interval zone_values(const Expr& e) const {
    const auto& z = game_.zones[e.ref];
    const int kinds = static_cast<int>(game_.kinds.size());
    Interval out{max64, min64};
    for (int owner = 0; owner < (z.per_player ? game_.players : 1); ++owner) {
      Interval sum{0, 0};
      for (int k = 0; k < kinds; ++k) {
        const auto& sl = game_.slots[static_cast<std::size_t>(z.slot(owner, k, kinds))];
        const Interval one{sl.lo, sl.hi};
        if (e.value == -3) {
          sum = k == 0 ? one : hull(sum, one);
        } else if (e.value == k || e.value == -1 ||
                   (e.value == -2 && std::count(game_.kinds[k].tags.begin(),
                                                game_.kinds[k].tags.end(), e.tag) > 0)) {
          sum = {sum.lo + one.lo, sum.hi + one.hi};  // (kinds × 32 bits: no overflow)
        }
      }
      out = hull(out, sum);
    }
    return out;
  }

  // e's interval from its operands'; `over` when the operation can leave
  // 64 bits (the interval is then every value that does not).
  [[nodiscard]] Interval values(const Expr& e, const std::vector<Interval>& a, bool& over) const {
    const Interval players{0, game_.players - 1};
    switch (e.kind) {
      case ExprKind::int_lit:
      case ExprKind::bool_lit:
      case ExprKind::enum_lit:
      case ExprKind::player_lit:
      case ExprKind::kind_lit:
      case ExprKind::action_lit:
        return {e.value, e.value};
      case ExprKind::active:
      case ExprKind::opponent:
      case ExprKind::self:
      case ExprKind::next_player:
      case ExprKind::prev_player:
        return players;
      case ExprKind::stack_size:
        return {0, game_.scope.stack};
      case ExprKind::stack_entry:
        return e.value == 0
                   ? Interval{0, std::max<std::int64_t>(
                                     0, static_cast<std::int64_t>(game_.actions.size()) - 1)}
                   : players;
      case ExprKind::action_speed: {
        Interval out{0, 0};
        for (const auto& a : game_.actions) out = hull(out, Interval{a.speed, a.speed});
        return out;
      }
      case ExprKind::var: {
        const auto& f = game_.vars[e.ref].fields[static_cast<std::size_t>(e.field)];
        return {f.lo, f.hi};
      }
      case ExprKind::zone_count:
        return zone_values(e);
      case ExprKind::bound:
        return e.ref >= 0 && static_cast<std::size_t>(e.ref) < binders_.size()
                   ? binders_[static_cast<std::size_t>(e.ref)]
                   : Interval{};
      case ExprKind::unary:
        if (e.op == Op::not_) return truth_values;
        over = a[0].lo == min64;
        return over ? Interval{} : Interval{-a[0].hi, -a[0].lo};
      case ExprKind::binary:
        switch (e.op) {
          case Op::add:
          case Op::sub:
          case Op::mul: {
            const auto r = corners(e.op, a[0], a[1]);
            over = !r;
            return r.value_or(Interval{});
          }
          case Op::div:
          case Op::mod: {
            over = a[0].lo == min64 && a[1].holds(-1);
            if (a[0].lo == min64) return {};
            // |a / b| <= |a| and a % b has a's sign and at most its size.
            const std::int64_t m = std::max(-a[0].lo, a[0].hi);
            return e.op == Op::div ? Interval{-m, m}
                                   : Interval{std::min<std::int64_t>(a[0].lo, 0),
                                              std::max<std::int64_t>(a[0].hi, 0)};
          }
          default:
            return truth_values;  // comparisons, and, or
        }
      case ExprKind::cond:
        return hull(a[1], a[2]);
      case ExprKind::quant: {
        const std::int64_t n = domain_size(e.domain);
        if (e.op == Op::exists || e.op == Op::forall) return truth_values;
        if (e.op == Op::count) return {0, n};
        // A running total of k <= n values lies between n * lo and n * hi (or 0).
        const auto r = corners(Op::mul, {0, n}, a[0]);
        over = !r;
        return r.value_or(Interval{});
      }
      case ExprKind::builtin:
        switch (e.op) {
          case Op::abs:
            over = a[0].lo == min64;
            if (over) return {0, max64};
            if (a[0].lo >= 0) return a[0];
            if (a[0].hi <= 0) return {-a[0].hi, -a[0].lo};
            return {0, std::max(-a[0].lo, a[0].hi)};
          case Op::min:
            return {std::min(a[0].lo, a[1].lo), std::min(a[0].hi, a[1].hi)};
          case Op::max:
            return {std::max(a[0].lo, a[1].lo), std::max(a[0].hi, a[1].hi)};
          default:  // clamp: the value or a bound
            return hull(a[0], hull(a[1], a[2]));
        }
      default:  // turn number, stack size and top: 32-bit fields
        return int32_values;
    }
  }

  const model::Game& game_;
  GapTable& gaps_;
  std::vector<Interval> binders_;  // per binder slot, its domain's values
  bool in_rules_ = true;
};

}  // namespace

void collect_gaps(const model::Game& game, const std::vector<bool>& window_used, GapTable& gaps) {
  Collector c(game, gaps);
  c.stmt("setup", game.setup.get());
  for (const auto& st : game.steps) {
    const std::string rule = "step:" + game.phases[st.phase].name + "." + st.name;
    c.stmt(rule, st.effects.get());
    c.expr(rule, st.repeat_while.get());
    c.expr(rule, st.end_turn_if.get());
  }
  gaps.play_site.assign(game.actions.size(), -1);
  gaps.push_site.assign(game.actions.size(), -1);
  for (std::size_t i = 0; i < game.actions.size(); ++i) {
    const auto& a = game.actions[i];
    const std::string rule = "action:" + a.name;
    c.expr(rule, a.guard.get());
    if (a.play_kind >= 0 && a.to_zone >= 0) {
      gaps.play_site[i] = c.add(
          rule, a.where, "playing '" + a.name + "' overfills '" + game.zones[a.to_zone].name + "'",
          Kind::range);
    }
    if (!a.targets.empty()) {
      c.bind_targets(a);
      for (const auto& t : a.targets) c.expr(rule, t.where.get());
    }
    c.stmt(rule, a.cost.get());
    c.bind_targets(a);
    c.stmt(rule, a.effect.get());
    bool in_priority = false;
    for (std::size_t w = 0; w < game.windows.size(); ++w) {
      if (!window_used[w] || game.windows[w].protocol != model::Protocol::priority) continue;
      bool listed = a.windows.empty();
      for (int x : a.windows) listed = listed || x == static_cast<int>(w);
      in_priority = in_priority || listed;
    }
    if (a.answerable && in_priority) {
      gaps.push_site[i] = c.add(rule, a.where,
                                "'" + a.name + "' pushed onto a full stack (scope stack = " +
                                    std::to_string(game.scope.stack) + ")",
                                Kind::stack_overflow);
    }
  }
  for (const auto& t : game.triggers) {
    const std::string rule = "trigger:" + t.name;
    c.bind_event_args(t);
    c.expr(rule, t.condition.get());
    c.stmt(rule, t.effect.get());
  }
  for (const auto& e : game.end_conditions) c.expr("end:" + e.name, e.condition.get());
  for (const auto& p : game.properties) {
    c.outside_rules(p.expr.get());
    c.outside_rules(p.to.get());
  }
}

}  // namespace loophole::checker::semantics
