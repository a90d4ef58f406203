// The tree-walking evaluator. Integers are computed in 64 bits, and a
// result that leaves them (+ - * / % abs, unary minus, a sum's running
// total) fails at the node's overflow site, checked on every operation here
// (the oracle; the other backends check only where gaps.cpp put a site).
// `/` and `%` truncate toward zero (C++), `and`/`or`, `exists`/`forall` short-circuit
// left to right and `if` evaluates only the taken branch, so a guarded
// division (`b != 0 and a / b > 1`) is not a rule gap. Reading the stack
// top of an empty stack gives 0.
#include "eval.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

namespace loophole::checker::semantics {

using model::Expr;
using model::ExprKind;
using model::Op;

std::int64_t Evaluator::fail(const std::unordered_map<const void*, int>& sites, const void* node,
                             Env& env) const {
  if (env.error < 0) {
    const auto it = sites.find(node);
    env.error = it == sites.end() ? Env::no_site : it->second;
  }
  return 0;
}

int Evaluator::var_slot(const Expr& e, Env& env) const {
  const auto& v = p_.game.vars[e.ref];
  std::size_t arg = 0;
  int player = 0, index = 0;
  if (v.per_player) player = static_cast<int>(eval(*e.args[arg++], env));
  if (v.array > 0) {
    const std::int64_t i = eval(*e.args[arg], env);
    if (i < 0 || i >= v.array) {
      fail(&e, env);
      return -1;
    }
    index = static_cast<int>(i);
  }
  if (env.error >= 0) return -1;
  return v.slot(player, index, e.field);
}

int Evaluator::zone_owner(const Expr& zone, Env& env) const {
  if (!p_.game.zones[zone.ref].per_player || zone.args.empty()) return -1;
  return static_cast<int>(eval(*zone.args[0], env));
}

std::int64_t Evaluator::zone_total(int zone, int owner, const std::int32_t* s) const {
  const int base = zone_slot(zone, owner, 0);
  std::int64_t total = 0;
  for (int k = 0; k < p_.kinds; ++k) total += s[base + k];
  return total;
}

int Evaluator::domain_size(const model::Domain& d, int self) const {
  using K = model::Domain::Kind;
  switch (d.kind) {
    case K::players:
      return p_.players;
    case K::others:
      return self >= 0 ? p_.players - 1 : p_.players;
    case K::range:
      return d.hi < d.lo ? 0 : static_cast<int>(d.hi - d.lo + 1);
    case K::enum_values:
      return static_cast<int>(p_.game.enums[d.ref].values.size());
    case K::kinds:
      return p_.kinds;
    case K::kinds_tagged:
      return static_cast<int>(p_.kinds_by_tag[d.ref].size());
  }
  return 0;
}

std::int64_t Evaluator::domain_value(const model::Domain& d, int i, int self) const {
  using K = model::Domain::Kind;
  switch (d.kind) {
    case K::others:
      return self >= 0 && i >= self ? i + 1 : i;
    case K::range:
      return d.lo + i;
    case K::kinds_tagged:
      return p_.kinds_by_tag[d.ref][i];
    case K::players:
    case K::enum_values:
    case K::kinds:
      return i;
  }
  return i;
}

std::int64_t Evaluator::eval(const Expr& e, Env& env) const {
  const std::int32_t* s = env.state;
  const auto& ctl = p_.ctl;
  switch (e.kind) {
    case ExprKind::int_lit:
    case ExprKind::bool_lit:
    case ExprKind::enum_lit:
    case ExprKind::player_lit:
    case ExprKind::kind_lit:
    case ExprKind::action_lit:
      return e.value;
    case ExprKind::active:
      return get(s, ctl.active);
    case ExprKind::opponent:
      return model::next_in_order(get(s, ctl.active), p_.reversed(s), p_.players);
    case ExprKind::self:
      return self_player(env);
    case ExprKind::turn_number:
      return get(s, ctl.turn);
    case ExprKind::stack_size:
      return get(s, ctl.stack_size);
    case ExprKind::top_action:
    case ExprKind::top_controller: {
      const int size = get(s, ctl.stack_size);
      if (size == 0) return 0;
      const int at = ctl.stack_base + 2 * (size - 1) + (e.kind == ExprKind::top_action ? 0 : 1);
      return s[at];
    }
    case ExprKind::next_player:
      return model::next_in_order(static_cast<int>(eval(*e.args[0], env)), p_.reversed(s),
                                  p_.players);
    case ExprKind::prev_player:
      return model::next_in_order(static_cast<int>(eval(*e.args[0], env)), !p_.reversed(s),
                                  p_.players);
    case ExprKind::turn_order:
      return get(s, ctl.order);
    case ExprKind::stack_entry: {
      const std::int64_t i = eval(*e.args[0], env);
      if (i < 0 || i >= get(s, ctl.stack_size)) return 0;
      return s[ctl.stack_base + 2 * static_cast<int>(i) + static_cast<int>(e.value)];
    }
    case ExprKind::action_speed: {
      const std::int64_t a = eval(*e.args[0], env);
      const auto n = static_cast<std::int64_t>(p_.game.actions.size());
      return a < 0 || a >= n ? 0 : p_.game.actions[static_cast<std::size_t>(a)].speed;
    }
    case ExprKind::var: {
      const int slot = var_slot(e, env);
      return slot < 0 ? 0 : s[slot];
    }
    case ExprKind::zone_count: {
      const int owner = zone_owner(e, env);
      if (e.value >= 0) return s[zone_slot(e.ref, owner, static_cast<int>(e.value))];
      if (e.value == -1) return zone_total(e.ref, owner, s);
      if (e.value == -3) {
        const std::int64_t kind = eval(*e.args.back(), env);
        return s[zone_slot(e.ref, owner, static_cast<int>(kind))];
      }
      std::int64_t total = 0;
      for (int k : p_.kinds_by_tag[e.tag]) total += s[zone_slot(e.ref, owner, k)];
      return total;
    }
    case ExprKind::bound:
      return env.binders[e.ref];
    case ExprKind::unary: {
      const std::int64_t v = eval(*e.args[0], env);
      if (e.op == Op::not_) return v == 0 ? 1 : 0;
      return v == min64 ? overflow(&e, env) : -v;
    }
    case ExprKind::binary: {
      if (e.op == Op::and_) return eval(*e.args[0], env) != 0 && eval(*e.args[1], env) != 0;
      if (e.op == Op::or_) return eval(*e.args[0], env) != 0 || eval(*e.args[1], env) != 0;
      const std::int64_t a = eval(*e.args[0], env);
      const std::int64_t b = eval(*e.args[1], env);
      std::int64_t r = 0;
      switch (e.op) {
        case Op::add:
          return __builtin_add_overflow(a, b, &r) ? overflow(&e, env) : r;
        case Op::sub:
          return __builtin_sub_overflow(a, b, &r) ? overflow(&e, env) : r;
        case Op::mul:
          return __builtin_mul_overflow(a, b, &r) ? overflow(&e, env) : r;
        case Op::div:
          return b == 0 ? fail(&e, env) : a == min64 && b == -1 ? overflow(&e, env) : a / b;
        case Op::mod:
          return b == 0 ? fail(&e, env) : a == min64 && b == -1 ? overflow(&e, env) : a % b;
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
        case Op::ge:
          return a >= b;
        default:
          break;
      }
      break;
    }
    case ExprKind::cond:
      return eval(*e.args[0], env) != 0 ? eval(*e.args[1], env) : eval(*e.args[2], env);
    case ExprKind::quant: {
      const int self = self_player(env);
      const int n = domain_size(e.domain, self);
      std::int64_t acc = e.op == Op::forall ? 1 : 0;
      for (int i = 0; i < n; ++i) {
        env.binders[e.ref] = domain_value(e.domain, i, self);
        const std::int64_t v = eval(*e.args[0], env);
        if (env.error >= 0) return 0;
        switch (e.op) {
          case Op::exists:
            if (v != 0) return 1;
            break;
          case Op::forall:
            if (v == 0) return 0;
            break;
          case Op::count:
            acc += v != 0 ? 1 : 0;
            break;
          default:  // sum
            if (__builtin_add_overflow(acc, v, &acc)) return overflow(&e, env);
            break;
        }
      }
      return acc;
    }
    case ExprKind::builtin: {
      const std::int64_t a = eval(*e.args[0], env);
      switch (e.op) {
        case Op::abs:
          return a == min64 ? overflow(&e, env) : a < 0 ? -a : a;
        case Op::min:
          return std::min(a, eval(*e.args[1], env));
        case Op::max:
          return std::max(a, eval(*e.args[1], env));
        case Op::clamp: {
          const std::int64_t lo = eval(*e.args[1], env), hi = eval(*e.args[2], env);
          return std::max(lo, std::min(a, hi));
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
  throw std::logic_error("loophole: internal error: unchecked expression '" + e.text +
                         "' reached the semantics");
}

}  // namespace loophole::checker::semantics
