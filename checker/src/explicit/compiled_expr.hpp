// The compiled generator's expression machine (compiled_program.hpp's X
// programs): what Runner (compiled.cpp) evaluates guards, conditions and
// effect operands with, and what Conditions (conditions.cpp) evaluates the
// analyses' conditions with. Internal to the checker.
//
// The machine spends its time dispatching, so the compiler fuses what rules
// write most: a player's slot (`life[self]`, `hand[next(p)]`) is one `rel`
// instruction; a comparison with a constant rides on the leaf before it; a
// one-leaf right operand of +, - or a comparison folds into the stack top,
// and a one-leaf left operand of `and` / `or` tests and jumps by itself; a
// program of one leaf runs without the loop. Measured on operators (guards
// and picks over `f_x[next(self)]`): 1.95 -> 2.26 M states/s.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "compiled_program.hpp"

namespace loophole::checker {

class ExprMachine {
 public:
  explicit ExprMachine(const CompiledSystem::Program& p) : p_(p) {}

  [[nodiscard]] int domain_size(int d, int self) const {
    const CDomain& c = p_.domains[d];
    if (c.kind == model::Domain::Kind::others && self >= 0) return c.size - 1;
    return c.size;
  }
  [[nodiscard]] std::int64_t domain_value(int d, int i, int self) const {
    const CDomain& c = p_.domains[d];
    using K = model::Domain::Kind;
    switch (c.kind) {
      case K::others:
        return self >= 0 && i >= self ? i + 1 : i;
      case K::range:
        return c.lo + i;
      case K::kinds_tagged:
        return p_.lists[c.list][i];
      default:
        return i;
    }
  }

  // The player a rel / rel_slot instruction names, and its slot.
  [[nodiscard]] static std::int64_t rel_player(const XIns& x, const std::int32_t* s,
                                               const std::int64_t* binders, int self) {
    return x.d >= 0 ? s[x.d] : x.d == -1 ? self : binders[-2 - x.d];
  }
  [[nodiscard]] int rel_slot(const XIns& x, const std::int32_t* s, const std::int64_t* binders,
                             int self) const {
    return x.a + wrap(static_cast<int>(rel_player(x, s, binders, self)) + x.c) * x.b;
  }
  // A player number p + c back into 0..players-1 (p < players, c >= 0).
  [[nodiscard]] int wrap(int p) const {
    while (p >= p_.low.players) p -= p_.low.players;
    return p;
  }
  // What a leaf instruction (Compiler::leaf) pushes, before its comparison
  // (most frequent first: no jump table for the one-instruction programs).
  [[nodiscard]] std::int64_t leaf_value(const XIns& x, const std::int32_t* s,
                                        const std::int64_t* binders, int self) const {
    if (x.dispatch == fused_code(leaf_rel_self, Then::push)) return s[x.a + wrap(self + x.c) * x.b];
    if (x.op == X::rel) return s[rel_slot(x, s, binders, self)];
    if (x.op == X::load) return s[x.a];
    if (x.op == X::bound) return binders[x.a];
    if (x.op == X::konst) return x.k;
    if (x.op == X::rel_slot) return rel_slot(x, s, binders, self);
    if (x.op == X::self) return self;
    const int size = s[x.a];  // X::top
    return size == 0 ? 0 : s[x.b + 2 * size];
  }

  // Runs the expression program at pc over state s; on a failure sets error
  // (when not yet set) and returns 0. A single leaf needs no loop.
  std::int64_t eval(int pc, const std::int32_t* s, std::int64_t* binders, int self,
                    int& error) const {
    if (pc < p_.native_expr_count) return p_.native_exprs[pc](s, binders, self, &error);
    const XIns& x = p_.xcode[pc];
    if (x.single) return compare(leaf_value(x, s, binders, self), x.cmp, x.k);
    return run_program(pc, s, binders, self, error);
  }

  std::int64_t run_program(int pc, const std::int32_t* s, std::int64_t* binders, int self,
                           int& error) const {
    std::int64_t st[max_stack];
    int sp = 0;
    const XIns* code = p_.xcode.data();
    const int players = p_.low.players;
    for (;;) {
      const XIns& x = code[pc++];
      switch (x.dispatch) {
#define LOOPHOLE_OP(op) case static_cast<int>(X::op)
        LOOPHOLE_OP(konst) : st[sp++] = x.k;
        break;
// A leaf pushes its value (compared with k when cmp is set), or does what
// XIns::then says with it: one case per kind of leaf and Then.
#define LOOPHOLE_LEAF(n, value)                       \
  case fused_code(n, Then::push):                     \
    st[sp++] = compare((value), x.cmp, x.k);          \
    break;                                            \
  case fused_code(n, Then::add):                      \
    st[sp - 1] += (value);                            \
    break;                                            \
  case fused_code(n, Then::sub):                      \
    st[sp - 1] -= (value);                            \
    break;                                            \
  case fused_code(n, Then::cmp):                      \
    st[sp - 1] = compare(st[sp - 1], x.cmp, (value)); \
    break;                                            \
  case fused_code(n, Then::and_):                     \
    if (compare((value), x.cmp, x.k) == 0) {          \
      st[sp++] = 0;                                   \
      pc = x.j;                                       \
    }                                                 \
    break;                                            \
  case fused_code(n, Then::or_):                      \
    if (compare((value), x.cmp, x.k) != 0) {          \
      st[sp++] = 1;                                   \
      pc = x.j;                                       \
    }                                                 \
    break;
        LOOPHOLE_LEAF(leaf_load, s[x.a])
        LOOPHOLE_LEAF(leaf_bound, binders[x.a])
        LOOPHOLE_LEAF(leaf_rel, s[rel_slot(x, s, binders, self)])
        LOOPHOLE_LEAF(leaf_rel_self, s[x.a + wrap(self + x.c) * x.b])
        LOOPHOLE_LEAF(leaf_rel_slot, rel_slot(x, s, binders, self))
        LOOPHOLE_LEAF(leaf_self, self)
        LOOPHOLE_LEAF(leaf_top, s[x.a] == 0 ? 0 : s[x.b + 2 * s[x.a]])
#undef LOOPHOLE_LEAF
        LOOPHOLE_OP(cmp_k) : st[sp - 1] = compare(st[sp - 1], x.cmp, x.k);
        break;
        LOOPHOLE_OP(next_player) : st[sp - 1] = (st[sp - 1] + 1) % players;
        break;
        LOOPHOLE_OP(var_dyn) : LOOPHOLE_OP(var_slot) : {
          std::int64_t index = 0, player = 0;
          if (x.c > 0) index = st[--sp];
          if (x.b >= 0) player = st[--sp];
          if (index < 0 || index >= std::max(1, x.c)) {
            if (error < 0) error = static_cast<int>(x.k);
            return 0;
          }
          const int nf = x.d >> 16, field = x.d & 0xffff;
          const int slot = x.a + static_cast<int>(player) * std::max(0, x.b) +
                           static_cast<int>(index) * nf + field;
          st[sp++] = x.op == X::var_slot ? slot : s[slot];
          break;
        }
        LOOPHOLE_OP(zone_dyn) : {
          const std::int64_t kind = st[--sp];
          st[sp - 1] = s[x.a + st[sp - 1] * x.b + kind];
          break;
        }
        LOOPHOLE_OP(zone_range) : {
          const std::int32_t* z = s + x.a + st[sp - 1] * x.b;
          std::int64_t t = 0;
          for (int k = 0; k < x.c; ++k) t += z[k];
          st[sp - 1] = t;
          break;
        }
        LOOPHOLE_OP(zone_sum) : {
          const std::int32_t* z = s + x.a + st[sp - 1] * x.b;
          const int* list = p_.lists[x.d].data();
          std::int64_t t = 0;
          for (int k = 0; k < x.c; ++k) t += z[list[k]];
          st[sp - 1] = t;
          break;
        }
        LOOPHOLE_OP(not_) : st[sp - 1] = st[sp - 1] == 0 ? 1 : 0;
        break;
        LOOPHOLE_OP(neg) : st[sp - 1] = -st[sp - 1];
        break;
#define LOOPHOLE_BIN(name, expr)       \
  LOOPHOLE_OP(name) : {                \
    const std::int64_t b = st[--sp];   \
    const std::int64_t a = st[sp - 1]; \
    st[sp - 1] = (expr);               \
    break;                             \
  }
        LOOPHOLE_BIN(add, a + b)
        LOOPHOLE_BIN(sub, a - b)
        LOOPHOLE_BIN(mul, a * b)
        LOOPHOLE_BIN(eq, a == b)
        LOOPHOLE_BIN(ne, a != b)
        LOOPHOLE_BIN(lt, a < b)
        LOOPHOLE_BIN(le, a <= b)
        LOOPHOLE_BIN(gt, a > b)
        LOOPHOLE_BIN(ge, a >= b)
        LOOPHOLE_BIN(min, std::min(a, b))
        LOOPHOLE_BIN(max, std::max(a, b))
#undef LOOPHOLE_BIN
        LOOPHOLE_OP(div) : LOOPHOLE_OP(mod) : {
          const std::int64_t b = st[--sp];
          if (b == 0 || (b == -1 && st[sp - 1] == std::numeric_limits<std::int64_t>::min())) {
            if (error < 0) error = b == 0 ? x.a : x.b;
            return 0;
          }
          st[sp - 1] = x.op == X::div ? st[sp - 1] / b : st[sp - 1] % b;
          break;
        }
        LOOPHOLE_OP(to_bool) : st[sp - 1] = st[sp - 1] != 0 ? 1 : 0;
        break;
        LOOPHOLE_OP(and_jump) : if (st[sp - 1] == 0) { pc = x.a; }
        else {
          --sp;
        }
        break;
        LOOPHOLE_OP(or_jump) : if (st[sp - 1] != 0) {
          st[sp - 1] = 1;
          pc = x.a;
        }
        else {
          --sp;
        }
        break;
        LOOPHOLE_OP(jump_if0) : if (st[--sp] == 0) pc = x.a;
        break;
        LOOPHOLE_OP(jump) : pc = x.a;
        break;
        LOOPHOLE_OP(quant_begin) : {
          const int n = domain_size(x.b, self);
          st[sp++] = x.c == static_cast<int>(model::Op::forall) ? 1 : 0;
          if (n == 0) {
            pc = x.d;
            break;
          }
          st[sp++] = 0;
          st[sp++] = n;
          binders[x.a] = domain_value(x.b, 0, self);
          break;
        }
        LOOPHOLE_OP(quant_step) : {
          const std::int64_t v = st[--sp];
          const auto op = static_cast<model::Op>(x.c);
          std::int64_t& acc = st[sp - 3];
          if (op == model::Op::exists) {
            if (v != 0) {
              acc = 1;
              sp -= 2;
              break;
            }
          } else if (op == model::Op::forall) {
            if (v == 0) {
              acc = 0;
              sp -= 2;
              break;
            }
          } else if (op == model::Op::count) {
            acc += v != 0 ? 1 : 0;
          } else if (x.j < 0) {
            acc += v;
          } else if (__builtin_add_overflow(acc, v, &acc)) {
            if (error < 0) error = x.j;
            return 0;
          }
          const std::int64_t i = st[sp - 2] + 1;
          if (i < st[sp - 1]) {
            st[sp - 2] = i;
            binders[x.a] = domain_value(x.b, static_cast<int>(i), self);
            pc = x.d;
          } else {
            sp -= 2;
          }
          break;
        }
        LOOPHOLE_OP(abs) : st[sp - 1] = st[sp - 1] < 0 ? -st[sp - 1] : st[sp - 1];
        break;
        LOOPHOLE_OP(clamp) : {
          const std::int64_t hi = st[--sp], lo = st[--sp];
          st[sp - 1] = std::max(lo, std::min(st[sp - 1], hi));
          break;
        }
        LOOPHOLE_OP(checked) : {
          if (!checked_op(static_cast<model::Op>(x.c), st, sp)) {
            if (error < 0) error = x.a;
            return 0;
          }
          break;
        }
        LOOPHOLE_OP(ret) : return st[sp - 1];
        default:  // No range check before the jump table. Every code has its
                  // case: the tests run every instruction form (on the dev
                  // build, where reaching this traps).
          __builtin_unreachable();
      }
    }
  }
#undef LOOPHOLE_OP

  // X::checked: the operation on the stack top (one operand for neg and
  // abs, two for the others); false when its result leaves 64 bits.
  static bool checked_op(model::Op op, std::int64_t* st, int& sp) {
    constexpr std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
    std::int64_t& a = op == model::Op::neg || op == model::Op::abs ? st[sp - 1] : st[sp - 2];
    switch (op) {
      case model::Op::neg:
        if (a == min64) return false;
        a = -a;
        return true;
      case model::Op::abs:
        if (a == min64) return false;
        a = a < 0 ? -a : a;
        return true;
      case model::Op::add:
        --sp;
        return !__builtin_add_overflow(a, st[sp], &a);
      case model::Op::sub:
        --sp;
        return !__builtin_sub_overflow(a, st[sp], &a);
      default:  // mul
        --sp;
        return !__builtin_mul_overflow(a, st[sp], &a);
    }
  }

 protected:
  const CompiledSystem::Program& p_;
};

}  // namespace loophole::checker
