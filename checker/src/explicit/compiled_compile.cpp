// The compiler of the compiled successor generator (see compiled.hpp):
// every expression of the rules becomes a program of the stack machine of
// compiled_program.hpp (with the fused instructions described in
// compiled.cpp), every effect a flat statement program, with slots, gap
// sites and domains resolved. (What the tests ask of the compiled programs
// is in compiled_census.cpp.)
#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiled_program.hpp"

namespace loophole::checker {

using model::Expr;
using model::ExprKind;
using model::Protocol;
using model::Stmt;
using model::StmtKind;

namespace {

// ---------------------------------------------------------------------------
// Compilation

class Compiler {
 public:
  explicit Compiler(CompiledSystem::Program& p) : p_(p), game_(p.prep.game) {}

  // Compiles e into a program; -1 for a missing expression.
  int expr(const Expr* e) {
    if (e == nullptr) return -1;
    const int start = static_cast<int>(p_.xcode.size());
    depth_ = 0;
    emit_expr(*e);
    emit(X::ret);
    mark_single(start);
    return start;
  }

  int stmt_program(const Stmt* s) {
    if (s == nullptr) return -1;
    const int start = static_cast<int>(p_.scode.size());
    stmt(*s);
    SIns done;
    done.op = S::done;
    p_.scode.push_back(done);
    return start;
  }

 private:
  void emit(X op, std::int32_t a = 0, std::int32_t b = 0, std::int32_t c = 0, std::int32_t d = 0,
            std::int64_t k = 0) {
    XIns x;
    x.op = op;
    x.a = a;
    x.b = b;
    x.c = c;
    x.d = d;
    x.k = k;
    p_.xcode.push_back(x);
  }
  // A program of one leaf instruction (and ret) runs without the loop.
  void mark_single(int start) {
    const XIns& x = p_.xcode[start];
    if (here() - start == 2 && leaf(x.op) && x.then == Then::push) p_.xcode[start].single = true;
  }
  // A leaf not yet fused with what follows it (konst is folded elsewhere).
  static bool fusable(const XIns& x) {
    return leaf(x.op) && x.op != X::konst && x.then == Then::push;
  }
  // Instructions that push one value, pop nothing and cannot fail.
  static bool leaf(X op) {
    return op == X::konst || op == X::load || op == X::self || op == X::top || op == X::bound ||
           op == X::rel || op == X::rel_slot;
  }
  // The player `e` names, relative to self, a control slot or a binder:
  // P + add, P = s[src] (src >= 0), self (src -1) or binders[-2 - src].
  bool relative_player(const Expr& e, int& src, int& add) const {
    const auto& ctl = p_.prep.ctl;
    switch (e.kind) {
      case ExprKind::self:
        src = -1;
        add = 0;
        return true;
      case ExprKind::active:
      case ExprKind::opponent:
        if (ctl.active < 0) return false;
        src = ctl.active;
        add = e.kind == ExprKind::opponent ? 1 : 0;
        return true;
      case ExprKind::next_player:
        if (!relative_player(*e.args[0], src, add)) return false;
        ++add;
        return true;
      case ExprKind::bound: {
        std::int64_t v = 0;
        if (bound_value(e.ref, v)) return false;  // a fixed player: a fixed slot
        src = -2 - e.ref;
        add = 0;
        return true;
      }
      default:
        return false;
    }
  }
  void push(int n = 1) {
    depth_ += n;
    if (depth_ > max_stack - 4) {
      throw CompiledSystem::Unsupported("an expression nests deeper than " +
                                        std::to_string(max_stack - 4) + " operands");
    }
  }
  void pop(int n = 1) { depth_ -= n; }
  [[nodiscard]] int here() const { return static_cast<int>(p_.xcode.size()); }

  int site(const void* node) const {
    const auto it = p_.prep.gaps.at.find(node);
    return it == p_.prep.gaps.at.end() ? no_site : it->second;
  }
  // The node's overflow site (gaps.cpp), or -1 where its result fits 64 bits.
  int overflow_site(const void* node) const {
    const auto it = p_.prep.gaps.overflow.find(node);
    return it == p_.prep.gaps.overflow.end() ? -1 : it->second;
  }
  // An operation checked for overflow: true when emitted.
  bool checked(const Expr& e, model::Op op) {
    const int at = overflow_site(&e);
    if (at < 0) return false;
    emit(X::checked, at, 0, static_cast<int>(op));
    return true;
  }

  static bool constant(const Expr& e, std::int64_t& v) {
    switch (e.kind) {
      case ExprKind::int_lit:
      case ExprKind::bool_lit:
      case ExprKind::enum_lit:
      case ExprKind::player_lit:
      case ExprKind::kind_lit:
      case ExprKind::action_lit:
        v = e.value;
        return true;
      default:
        return false;
    }
  }

  // The value of binder `ref` where the code being compiled runs for one
  // value of it (the innermost binding of the slot).
  bool bound_value(int ref, std::int64_t& v) const {
    for (auto it = subst_.rbegin(); it != subst_.rend(); ++it) {
      if (it->binder != ref) continue;
      v = it->value;
      return it->known;
    }
    return false;
  }

  // A constant, or (while code is compiled for one value of a binder: a
  // where-clause or pick body per value, an unrolled `for` or quantifier)
  // an expression that the known values make constant (model::fold_constant:
  // nothing that could fail at run time folds).
  bool known(const Expr& e, std::int64_t& v) const {
    if (constant(e, v)) return true;
    if (subst_.empty()) return false;
    const auto folded = model::fold_constant(e, [this](int slot) -> std::optional<std::int64_t> {
      std::int64_t x = 0;
      if (bound_value(slot, x)) return x;
      return std::nullopt;
    });
    if (!folded) return false;
    v = *folded;
    return true;
  }

 public:
  // A where-clause compiled once per value of its binder (constants folded):
  // the programs in domain order (-1 where the value makes it true), or
  // nothing when the domain's values are not known before run time.
  std::vector<int> per_value(const Expr& e, const model::Domain& d, int binder) {
    const std::vector<std::int64_t> values = values_of(d, max_specialized);
    std::vector<int> out;
    for (const std::int64_t x : values) {
      subst_.push_back({binder, true, x});
      std::int64_t v = 0;
      out.push_back(known(e, v) && v != 0 ? -1 : expr(&e));
      subst_.pop_back();
    }
    return out;
  }

 private:
  // The values of a domain in order, when they are known before run time
  // and there are at most `most` of them (else none: `others` depends on
  // self), each within 32 bits (a statement holds it as one).
  std::vector<std::int64_t> values_of(const model::Domain& d, std::size_t most) const {
    using K = model::Domain::Kind;
    std::vector<std::int64_t> values;
    switch (d.kind) {
      case K::others:
        return {};
      case K::players:
        for (int i = 0; i < p_.prep.players; ++i) values.push_back(i);
        break;
      case K::range:
        for (std::int64_t x = d.lo; x <= d.hi && values.size() <= most; ++x) values.push_back(x);
        break;
      case K::enum_values:
        for (std::size_t i = 0; i < game_.enums[d.ref].values.size(); ++i) {
          values.push_back(static_cast<std::int64_t>(i));
        }
        break;
      case K::kinds:
        for (int i = 0; i < p_.prep.kinds; ++i) values.push_back(i);
        break;
      case K::kinds_tagged:
        for (const int k : p_.prep.kinds_by_tag[d.ref]) values.push_back(k);
        break;
    }
    if (values.size() > most) return {};
    for (const std::int64_t x : values) {
      if (x < std::numeric_limits<std::int32_t>::min() ||
          x > std::numeric_limits<std::int32_t>::max()) {
        return {};
      }
    }
    return values;
  }

  static constexpr std::size_t max_specialized = 16;  // values of one binder
  static constexpr std::size_t max_unrolled = 4;      // turns of an unrolled `for`
  static constexpr std::size_t max_unrolled_quantifier = 8;

  // A quantifier over values known before run time, as the chain its loop
  // would run: exists as `or`, forall as `and` (left to right, stopping
  // where the loop stops), count and sum as additions; each body with its
  // value folded in.
  void unrolled_quantifier(const Expr& e, const std::vector<std::int64_t>& values) {
    using model::Op;
    const Expr& body = *e.args[0];
    const bool chain = e.op == Op::exists || e.op == Op::forall;
    std::vector<int> exits;  // jumps (and fused leaves) to the end
    for (std::size_t k = 0; k < values.size(); ++k) {
      const int start = here();
      subst_.push_back({e.ref, true, values[k]});
      emit_expr(body);
      subst_.pop_back();
      const bool last = k + 1 == values.size();
      if (chain) {
        if (last) {
          if (!boolean(body)) emit(X::to_bool);
          break;
        }
        // Decided: jump out with 1 (exists) or 0 (forall); else pop.
        if (here() - start == 1 && fusable(p_.xcode[start])) {
          p_.xcode[start].then = e.op == Op::exists ? Then::or_ : Then::and_;
        } else {
          emit(e.op == Op::exists ? X::or_jump : X::and_jump);
        }
        exits.push_back(here() - 1);
        pop();
        continue;
      }
      if (e.op == Op::count && !boolean(body)) emit(X::to_bool);
      if (k > 0) {
        if (!checked(e, Op::add)) emit(X::add);
        pop();
      }
    }
    for (const int at : exits) {
      XIns& x = p_.xcode[at];
      if (x.op == X::or_jump || x.op == X::and_jump) {
        x.a = here();
      } else {
        x.j = here();
      }
    }
  }

  void load_ctl(int index) {
    if (index < 0) {
      emit(X::konst, 0, 0, 0, 0, 0);
    } else {
      emit(X::load, index);
    }
    push();
  }

  int domain(const model::Domain& d) {
    using K = model::Domain::Kind;
    CDomain c;
    c.kind = d.kind;
    switch (d.kind) {
      case K::players:
      case K::others:
        c.size = p_.prep.players;
        break;
      case K::range:
        c.lo = d.lo;
        c.size = d.hi < d.lo ? 0 : static_cast<int>(d.hi - d.lo + 1);
        break;
      case K::enum_values:
        c.size = static_cast<int>(game_.enums[d.ref].values.size());
        break;
      case K::kinds:
        c.size = p_.prep.kinds;
        break;
      case K::kinds_tagged:
        c.list = static_cast<int>(p_.lists.size());
        p_.lists.push_back(p_.prep.kinds_by_tag[d.ref]);
        c.size = static_cast<int>(p_.lists.back().size());
        break;
    }
    p_.domains.push_back(c);
    return static_cast<int>(p_.domains.size()) - 1;
  }

  // A `var` expression: its slot when every index is constant and in range,
  // else -1 after emitting the operands of var_dyn / var_slot.
  int var_operands(const Expr& e) {
    const auto& v = game_.vars[e.ref];
    std::size_t arg = 0;
    std::int64_t player = 0, index = 0;
    bool fixed = true;
    if (v.per_player) {
      fixed = known(*e.args[arg++], player) && player >= 0 && player < p_.prep.players && fixed;
    }
    if (v.array > 0) {
      fixed = known(*e.args[arg], index) && fixed && index >= 0 && index < v.array;
    }
    if (fixed) return v.slot(static_cast<int>(player), static_cast<int>(index), e.field);
    arg = 0;
    if (v.per_player) emit_expr(*e.args[arg++]);
    if (v.array > 0) emit_expr(*e.args[arg]);
    return -1;
  }

  // var[P] or var[P][i] with a relative player P and a constant index in
  // range: one rel (or rel_slot) instruction.
  bool relative_var(const Expr& e, X op) {
    const auto& v = game_.vars[e.ref];
    if (!v.per_player) return false;
    int src = 0, add = 0;
    if (!relative_player(*e.args[0], src, add)) return false;
    std::int64_t index = 0;
    if (v.array > 0 && (!known(*e.args[1], index) || index < 0 || index >= v.array)) {
      return false;
    }
    const int nf = static_cast<int>(v.fields.size());
    const int stride = (v.array == 0 ? 1 : v.array) * nf;
    emit(op, v.first_slot + static_cast<int>(index) * nf + e.field, stride, add, src);
    push();
    return true;
  }

  void var_op(X op, const Expr& e) {
    const auto& v = game_.vars[e.ref];
    const int nf = static_cast<int>(v.fields.size());
    const int stride = (v.array == 0 ? 1 : v.array) * nf;
    emit(op, v.first_slot, v.per_player ? stride : -1, v.array, nf * 65536 + e.field, site(&e));
    pop((v.per_player ? 1 : 0) + (v.array > 0 ? 1 : 0));
    push();
  }

 public:
  // Pushes the slot of an assignment target; returns the slot when constant.
  int target_slot(const Expr& e, int& program) {
    program = -1;
    const int start = here();
    depth_ = 0;
    if (relative_var(e, X::rel_slot)) {
      emit(X::ret);
      mark_single(start);
      program = start;
      return -1;
    }
    const int slot = var_operands(e);
    if (slot >= 0) return slot;
    var_op(X::var_slot, e);
    emit(X::ret);
    program = start;
    return -1;
  }

 private:
  void emit_expr(const Expr& e) {
    const auto& ctl = p_.prep.ctl;
    std::int64_t v = 0;
    if (known(e, v)) {
      emit(X::konst, 0, 0, 0, 0, v);
      push();
      return;
    }
    switch (e.kind) {
      case ExprKind::active:
        return load_ctl(ctl.active);
      case ExprKind::opponent:
        load_ctl(ctl.active);
        emit(X::next_player);
        return;
      case ExprKind::self:
        emit(X::self);
        return push();
      case ExprKind::turn_number:
        return load_ctl(ctl.turn);
      case ExprKind::stack_size:
        return load_ctl(ctl.stack_size);
      case ExprKind::top_action:
      case ExprKind::top_controller:
        if (ctl.stack_size < 0) {
          emit(X::konst, 0, 0, 0, 0, 0);
        } else {
          emit(X::top, ctl.stack_size,
               ctl.stack_base + (e.kind == ExprKind::top_action ? 0 : 1) - 2);
        }
        return push();
      case ExprKind::next_player:
        emit_expr(*e.args[0]);
        emit(X::next_player);
        return;
      case ExprKind::var: {
        if (relative_var(e, X::rel)) return;
        const int slot = var_operands(e);
        if (slot >= 0) {
          emit(X::load, slot);
          return push();
        }
        return var_op(X::var_dyn, e);
      }
      case ExprKind::zone_count:
        return zone(e);
      case ExprKind::bound:
        emit(X::bound, e.ref);
        return push();
      case ExprKind::unary:
        emit_expr(*e.args[0]);
        if (e.op == model::Op::not_) return emit(X::not_);
        if (!checked(e, model::Op::neg)) emit(X::neg);
        return;
      case ExprKind::binary:
        return binary(e);
      case ExprKind::cond: {
        emit_expr(*e.args[0]);
        const int j0 = here();
        emit(X::jump_if0);
        pop();
        emit_expr(*e.args[1]);
        pop();
        const int j1 = here();
        emit(X::jump);
        p_.xcode[j0].a = here();
        emit_expr(*e.args[2]);
        p_.xcode[j1].a = here();
        return;
      }
      case ExprKind::quant: {
        if (const auto values = values_of(e.domain, max_unrolled_quantifier); !values.empty()) {
          return unrolled_quantifier(e, values);
        }
        const int dom = domain(e.domain);
        const int begin = here();
        emit(X::quant_begin, e.ref, dom, static_cast<int>(e.op));
        push(3);
        const int body = here();
        // The quantifier binds its slot anew: no known value inside.
        subst_.push_back({e.ref, false, 0});
        emit_expr(*e.args[0]);
        subst_.pop_back();
        emit(X::quant_step, e.ref, dom, static_cast<int>(e.op), body);
        p_.xcode.back().j = overflow_site(&e);
        pop(3);
        p_.xcode[begin].d = here();
        return;
      }
      case ExprKind::builtin: {
        for (const auto& a : e.args) emit_expr(*a);
        switch (e.op) {
          case model::Op::abs:
            if (!checked(e, model::Op::abs)) emit(X::abs);
            return;
          case model::Op::min:
            emit(X::min);
            return pop();
          case model::Op::max:
            emit(X::max);
            return pop();
          case model::Op::clamp:
            emit(X::clamp);
            return pop(2);
          default:
            break;
        }
        break;
      }
      default:
        break;
    }
    throw CompiledSystem::Unsupported("expression '" + e.text + "' (kind " +
                                      std::to_string(static_cast<int>(e.kind)) + ")");
  }

  static Cmp comparison(model::Op op) {
    using model::Op;
    switch (op) {
      case Op::eq:
        return Cmp::eq;
      case Op::ne:
        return Cmp::ne;
      case Op::lt:
        return Cmp::lt;
      case Op::le:
        return Cmp::le;
      case Op::gt:
        return Cmp::gt;
      case Op::ge:
        return Cmp::ge;
      default:
        return Cmp::none;
    }
  }
  // k <cmp> x as x <mirror(cmp)> k.
  static Cmp mirror(Cmp c) {
    switch (c) {
      case Cmp::lt:
        return Cmp::gt;
      case Cmp::le:
        return Cmp::ge;
      case Cmp::gt:
        return Cmp::lt;
      case Cmp::ge:
        return Cmp::le;
      default:
        return c;
    }
  }
  // Whether e's value is always 0 or 1 (to_bool is then a no-op).
  static bool boolean(const Expr& e) {
    switch (e.kind) {
      case ExprKind::bool_lit:
        return true;
      case ExprKind::unary:
        return e.op == model::Op::not_;
      case ExprKind::binary:
        return comparison(e.op) != Cmp::none || e.op == model::Op::and_ || e.op == model::Op::or_;
      case ExprKind::quant:
        return e.op == model::Op::exists || e.op == model::Op::forall;
      default:
        return false;
    }
  }

  void zone(const Expr& e) {
    const auto& z = game_.zones[e.ref];
    const int kinds = p_.prep.kinds;
    const bool owned = z.per_player && !e.args.empty();
    std::int64_t owner = 0;
    const bool fixed =
        !owned || (known(*e.args[0], owner) && owner >= 0 && owner < p_.prep.players);
    if (!owned) owner = 0;
    const int stride = z.per_player ? kinds : 0;
    if (e.value >= 0 && fixed) {
      emit(X::load, z.slot(static_cast<int>(owner), static_cast<int>(e.value), kinds));
      return push();
    }
    int src = 0, add = 0;
    if (e.value >= 0 && owned && relative_player(*e.args[0], src, add)) {
      emit(X::rel, z.first_slot + static_cast<int>(e.value), stride, add, src);
      return push();
    }
    if (owned) {
      emit_expr(*e.args[0]);
    } else {
      emit(X::konst, 0, 0, 0, 0, 0);
      push();
    }
    if (e.value >= 0) {
      emit(X::zone_kind, z.first_slot + static_cast<int>(e.value), stride);
    } else if (e.value == -1) {
      emit(X::zone_range, z.first_slot, stride, kinds);
    } else if (e.value == -3) {
      emit_expr(*e.args.back());
      emit(X::zone_dyn, z.first_slot, stride);
      pop();
    } else {
      p_.lists.push_back(p_.prep.kinds_by_tag[e.tag]);
      emit(X::zone_sum, z.first_slot, stride, static_cast<int>(p_.lists.back().size()),
           static_cast<int>(p_.lists.size()) - 1);
    }
  }

  void binary(const Expr& e) {
    using model::Op;
    if (e.op == Op::and_ || e.op == Op::or_) {
      // (emit_expr folded the whole when it is known.) A known left operand
      // that does not decide leaves the right one; a right operand that
      // does not decide leaves the left one, evaluated all the same.
      std::int64_t a = 0;
      const bool left = known(*e.args[0], a);
      if (left || (known(*e.args[1], a) && (e.op == Op::and_) == (a != 0))) {
        const Expr& rest = *e.args[left ? 1 : 0];
        emit_expr(rest);
        if (!boolean(rest)) emit(X::to_bool);
        return;
      }
      const int start = here();
      emit_expr(*e.args[0]);
      const int j = here() - 1;
      // A one-leaf left operand tests itself (no and_jump / or_jump).
      const bool fused = here() - start == 1 && fusable(p_.xcode[j]);
      if (fused) {
        p_.xcode[j].then = e.op == Op::and_ ? Then::and_ : Then::or_;
      } else {
        emit(e.op == Op::and_ ? X::and_jump : X::or_jump);
      }
      pop();
      emit_expr(*e.args[1]);
      if (!boolean(*e.args[1])) emit(X::to_bool);
      if (fused) {
        p_.xcode[j].j = here();
      } else {
        p_.xcode[j + 1].a = here();
      }
      return;
    }
    // A comparison with a constant: fused into a leaf before it, else cmp_k.
    if (const Cmp cmp = comparison(e.op); cmp != Cmp::none) {
      std::int64_t k = 0;
      const Expr* lhs = e.args[0].get();
      Cmp c = cmp;
      if (!known(*e.args[1], k) && known(*e.args[0], k)) {
        lhs = e.args[1].get();
        c = mirror(cmp);
      } else if (!known(*e.args[1], k)) {
        lhs = nullptr;
      }
      if (lhs != nullptr) {
        const int start = here();
        emit_expr(*lhs);
        XIns& last = p_.xcode.back();
        if (here() - start == 1 && fusable(last)) {
          last.cmp = c;
          last.k = k;
        } else {
          emit(X::cmp_k, 0, 0, 0, 0, k);
          p_.xcode.back().cmp = c;
        }
        return;
      }
    }
    emit_expr(*e.args[0]);
    const int right = here();
    emit_expr(*e.args[1]);
    pop();
    if ((e.op == Op::add || e.op == Op::sub || e.op == Op::mul) && checked(e, e.op)) return;
    if (here() - right == 1 && fusable(p_.xcode[right]) && p_.xcode[right].cmp == Cmp::none) {
      // A one-leaf right operand of +, - or a comparison folds into the top.
      XIns& x = p_.xcode[right];
      if (e.op == Op::add) {
        x.then = Then::add;
        return;
      }
      if (e.op == Op::sub) {
        x.then = Then::sub;
        return;
      }
      if (const Cmp c = comparison(e.op); c != Cmp::none) {
        x.then = Then::cmp;
        x.cmp = c;
        return;
      }
    }
    switch (e.op) {
      case Op::add:
        return emit(X::add);
      case Op::sub:
        return emit(X::sub);
      case Op::mul:
        return emit(X::mul);
      case Op::div:
      case Op::mod: {
        const int over = overflow_site(&e);
        return emit(e.op == Op::div ? X::div : X::mod, site(&e), over < 0 ? no_site : over);
      }
      case Op::eq:
        return emit(X::eq);
      case Op::ne:
        return emit(X::ne);
      case Op::lt:
        return emit(X::lt);
      case Op::le:
        return emit(X::le);
      case Op::gt:
        return emit(X::gt);
      case Op::ge:
        return emit(X::ge);
      default:
        break;
    }
    throw CompiledSystem::Unsupported("binary operator in '" + e.text + "'");
  }

  // Statements, laid out in execution order (the reference's continuations
  // become fall-through and jumps).
  [[nodiscard]] int shere() const { return static_cast<int>(p_.scode.size()); }
  int sadd(const SIns& i) {
    p_.scode.push_back(i);
    return shere() - 1;
  }

  void stmt(const Stmt& s) {
    SIns i;
    switch (s.kind) {
      case StmtKind::block:
        for (const auto& b : s.bodies) stmt(*b);
        return;
      case StmtKind::assign: {
        i.op = S::assign;
        int program = -1;
        i.a = target_slot(*s.target, program);
        i.b = program;
        i.c = expr(s.value.get());
        i.d = static_cast<int>(s.op);
        i.e = p_.prep.gaps.at.at(&s);
        sadd(i);
        return;
      }
      case StmtKind::if_: {
        // A condition known at compile time (in unrolled or specialized
        // code) leaves its branch, or nothing, without a test.
        std::vector<int> to_end;
        bool decided = false;
        for (std::size_t c = 0; c < s.conds.size() && !decided; ++c) {
          if (std::int64_t v = 0; known(*s.conds[c], v)) {
            if (v == 0) continue;
            if (s.bodies[c]) stmt(*s.bodies[c]);
            decided = true;
            break;
          }
          SIns j;
          j.op = S::jump_if_not;
          j.a = expr(s.conds[c].get());
          const int at = sadd(j);
          if (s.bodies[c]) stmt(*s.bodies[c]);
          // (The last branch without an else falls through to the end.)
          if (c + 1 < s.conds.size() || (s.bodies.size() > s.conds.size() && s.bodies.back())) {
            SIns out;
            out.op = S::jump;
            to_end.push_back(sadd(out));
          }
          p_.scode[at].b = shere();
        }
        if (!decided && s.bodies.size() > s.conds.size() && s.bodies.back()) {
          stmt(*s.bodies.back());
        }
        for (int at : to_end) p_.scode[at].b = shere();
        return;
      }
      case StmtKind::for_: {
        // A loop over a few values known before run time is unrolled: the
        // body once per value, with the value folded in (the binder is set
        // all the same, for what reads it at run time).
        if (const auto values = values_of(s.domain, max_unrolled); !values.empty()) {
          for (const std::int64_t x : values) {
            SIns b;
            b.op = S::bind;
            b.c = s.ref;
            b.a = static_cast<std::int32_t>(x);
            sadd(b);
            subst_.push_back({s.ref, true, x});
            if (!s.bodies.empty() && s.bodies[0]) stmt(*s.bodies[0]);
            subst_.pop_back();
          }
          return;
        }
        const int dom = domain(s.domain);
        const int reg = p_.registers++;
        i.op = S::for_begin;
        i.a = dom;
        i.c = s.ref;
        i.d = reg;
        const int begin = sadd(i);
        const int body = shere();
        subst_.push_back({s.ref, false, 0});  // set at run time
        if (!s.bodies.empty() && s.bodies[0]) stmt(*s.bodies[0]);
        subst_.pop_back();
        SIns n;
        n.op = S::for_next;
        n.a = dom;
        n.b = body;
        n.c = s.ref;
        n.d = reg;
        sadd(n);
        p_.scode[begin].b = shere();
        return;
      }
      case StmtKind::choose:
      case StmtKind::pick: {
        i.op = S::choose;
        i.a = domain(s.domain);
        i.c = s.ref;
        i.e = s.kind == StmtKind::pick ? 1 : 0;
        // The binder's value is chosen at run time: it shadows any known one
        // (per_value() binds each value innermost).
        subst_.push_back({s.ref, false, 0});
        if (!s.conds.empty()) {
          if (auto each = per_value(*s.conds[0], s.domain, s.ref); !each.empty()) {
            i.f = static_cast<int>(p_.lists.size());
            p_.lists.push_back(std::move(each));
          } else {
            i.d = expr(s.conds[0].get());
          }
        }
        const int at = sadd(i);
        const Stmt* body = s.bodies.empty() ? nullptr : s.bodies[0].get();
        const auto values = values_of(s.domain, max_unrolled);
        if (body != nullptr && !values.empty()) {
          // The body once per value, with the value folded in; each copy
          // ends at the statement after the choice (the last falls through).
          std::vector<int> starts, ends;
          for (const std::int64_t x : values) {
            starts.push_back(shere());
            subst_.push_back({s.ref, true, x});
            stmt(*body);
            subst_.pop_back();
            if (x == values.back()) break;
            SIns out;
            out.op = S::jump;
            ends.push_back(sadd(out));
          }
          for (const int e : ends) p_.scode[e].b = shere();
          p_.scode[at].g = static_cast<int>(p_.lists.size());
          p_.lists.push_back(std::move(starts));
        } else if (body != nullptr) {
          stmt(*body);
        }
        subst_.pop_back();
        p_.scode[at].b = shere();
        return;
      }
      case StmtKind::draw:
        if (game_.deck_zone < 0 || game_.hand_zone < 0) {
          // The reference throws only after evaluating the operands, and
          // only when the draw runs.
          i.op = S::no_zones;
        } else {
          i.op = S::draw;
        }
        i.a = expr(s.args[0].get());
        i.b = expr(s.args[1].get());
        i.e = p_.prep.gaps.at.at(&s);
        sadd(i);
        return;
      case StmtKind::move_kind:
      case StmtKind::move_any: {
        const bool chosen = s.kind == StmtKind::move_any;
        i.op = S::move;
        auto owner = [&](const Expr& zone) {
          if (!game_.zones[zone.ref].per_player || zone.args.empty()) return -1;
          return expr(zone.args[0].get());
        };
        i.a = s.args[0]->ref;
        i.b = owner(*s.args[0]);
        i.c = s.args[1]->ref;
        i.d = owner(*s.args[1]);
        i.f = chosen ? -1 : expr(s.args[2].get());
        i.g = expr(s.args[chosen ? 2 : 3].get());
        i.e = p_.prep.gaps.at.at(&s);
        sadd(i);
        return;
      }
      case StmtKind::fire:
        i.op = S::fire;
        i.a = s.ref;
        sadd(i);
        return;
      case StmtKind::win:
      case StmtKind::lose:
        i.op = S::end;
        i.a = expr(s.args[0].get());
        i.b = s.kind == StmtKind::win ? 1 : 0;
        sadd(i);
        return;
      case StmtKind::negate:
        i.op = S::negate;
        sadd(i);
        return;
      case StmtKind::shuffle:
      case StmtKind::skip:
        return;
      case StmtKind::call:
        break;
    }
    throw CompiledSystem::Unsupported("statement '" + s.text + "'");
  }

  CompiledSystem::Program& p_;
  const model::Game& game_;
  int depth_ = 0;
  // The binders with a value known while the current code is compiled, the
  // innermost last (a quantifier's entry has none: it shadows).
  struct Known {
    int binder;
    bool known;
    std::int64_t value;
  };
  std::vector<Known> subst_;
};

// The dispatch codes of the expression loop for xcode[from..] (which has a
// case for every code: the tests run every instruction form, and on the dev
// build its unreachable default traps).
void set_dispatch(CompiledSystem::Program& p, std::size_t from) {
  for (std::size_t i = from; i < p.xcode.size(); ++i) {
    XIns& x = p.xcode[i];
    int leaf = -1;
    switch (x.op) {
      case X::load:
        leaf = leaf_load;
        break;
      case X::bound:
        leaf = leaf_bound;
        break;
      case X::rel:
        leaf = x.d == -1 ? leaf_rel_self : leaf_rel;
        break;
      case X::rel_slot:
        leaf = leaf_rel_slot;
        break;
      case X::self:
        leaf = leaf_self;
        break;
      case X::top:
        leaf = leaf_top;
        break;
      default:  // not a leaf: dispatched on its op
        if (x.then != Then::push) {
          throw std::logic_error("loophole: internal error: a fused instruction that is no leaf");
        }
        break;
    }
    x.dispatch =
        static_cast<std::uint8_t>(leaf < 0 ? static_cast<int>(x.op) : fused_code(leaf, x.then));
  }
}

}  // namespace

void compile(CompiledSystem::Program& p) {
  const auto& g = p.prep.game;
  Compiler c(p);
  p.binders = std::max(0, g.binder_slots);
  for (const auto& sl : g.slots) {
    p.slot_lo.push_back(sl.lo);
    p.slot_hi.push_back(sl.hi);
  }
  p.setup_effect.push_back(c.stmt_program(g.setup.get()));
  for (const auto& st : g.steps) {
    p.step_effect.push_back(c.stmt_program(st.effects.get()));
    p.step_repeat.push_back(c.expr(st.repeat_while.get()));
    p.step_end_turn.push_back(c.expr(st.end_turn_if.get()));
  }
  for (const auto& a : g.actions) {
    p.action_guard.push_back(c.expr(a.guard.get()));
    p.action_cost.push_back(c.stmt_program(a.cost.get()));
    p.action_effect.push_back(c.stmt_program(a.effect.get()));
  }
  for (const auto& t : g.triggers) {
    p.trigger_condition.push_back(c.expr(t.condition.get()));
    p.trigger_effect.push_back(c.stmt_program(t.effect.get()));
  }
  for (const auto& e : g.end_conditions) p.end_condition.push_back(c.expr(e.condition.get()));

  // The role and speed part of Run::enabled, for every relative seat: per
  // window, answering or not, acted or not and seat, the window's actions in
  // order that the seat may take.
  const int n = p.prep.players;
  const auto allowed = [&](const model::Window& win, const model::Action& act, bool answering,
                           bool acted, int rel) {
    if (!p.prep.covers(act.who, rel, 0)) return false;
    if (win.protocol != Protocol::priority && win.roles.empty()) return true;
    const bool ans = win.protocol == Protocol::priority && answering;
    for (const auto& r : win.roles) {
      if (!p.prep.covers(r.role, rel, 0)) continue;
      if (!ans && r.lead_if_active_idle && acted) continue;
      const auto& speeds = ans ? r.answer : r.lead;
      if (g.speeds.empty() || std::find(speeds.begin(), speeds.end(), act.speed) != speeds.end()) {
        return true;
      }
    }
    return false;
  };
  p.candidates.assign(g.windows.size() * 4 * static_cast<std::size_t>(n), {});
  for (std::size_t w = 0; w < g.windows.size(); ++w) {
    for (int mode = 0; mode < 4; ++mode) {
      for (int rel = 0; rel < n; ++rel) {
        auto& list = p.candidates[(w * 4 + static_cast<std::size_t>(mode)) * n + rel];
        for (const int a : p.prep.window_actions[w]) {
          if (allowed(g.windows[w], g.actions[a], mode / 2 != 0, mode % 2 != 0, rel)) {
            list.push_back(a);
          }
        }
      }
    }
  }
  set_dispatch(p, 0);
  for (const auto& listeners : p.prep.triggers_by_event) {
    bool live = false;
    for (const int t : listeners) live = live || p.prep.ctl.pending[t] >= 0;
    p.event_fires.push_back(live ? 1 : 0);
  }
  for (const int base : p.prep.ctl.turn_uses) {
    if (base >= 0) p.turn_use_bases.push_back(base);
  }
  for (const int base : p.prep.ctl.window_uses) {
    if (base >= 0) p.window_use_bases.push_back(base);
  }
  // What the end conditions read: every instruction's fields, where the
  // instruction names them; anything else reads "all".
  const std::size_t fields = p.prep.layout.fields.size();
  p.end_reads.assign(FlatSuccessors::dirty_words(fields), 0);
  const auto reads = [&](int f) {
    if (f >= 0) p.end_reads[static_cast<std::size_t>(f) >> 6] |= std::uint64_t{1} << (f & 63);
  };
  bool all = false;
  reads(p.prep.ctl.active);  // whose conditions are checked
  for (const int start : p.end_condition) {
    for (int pc = start; start >= 0; ++pc) {
      const XIns& x = p.xcode[static_cast<std::size_t>(pc)];
      if (x.op == X::ret) break;
      switch (x.op) {
        case X::load:
          reads(x.a);
          break;
        case X::rel:
          reads(x.d);
          for (int q = 0; q < n; ++q) reads(x.a + q * x.b);
          break;
        case X::konst:
        case X::self:
        case X::bound:
        case X::next_player:
        case X::cmp_k:
        case X::not_:
        case X::neg:
        case X::checked:
        case X::add:
        case X::sub:
        case X::mul:
        case X::div:
        case X::mod:
        case X::eq:
        case X::ne:
        case X::lt:
        case X::le:
        case X::gt:
        case X::ge:
        case X::to_bool:
        case X::and_jump:
        case X::or_jump:
        case X::jump_if0:
        case X::jump:
        case X::quant_begin:
        case X::quant_step:
        case X::abs:
        case X::min:
        case X::max:
        case X::clamp:
          break;
        default:  // top, var_dyn, zone_*: fields chosen at run time
          all = true;
          break;
      }
    }
  }
  if (all) std::fill(p.end_reads.begin(), p.end_reads.end(), ~std::uint64_t{0});

  const auto& pending = p.prep.ctl.pending;
  int first = -1, last = -1;
  for (const int f : pending) {
    if (f < 0) continue;
    if (first < 0 || f < first) first = f;
    last = std::max(last, f + n);
  }
  int live = 0;
  for (const int f : pending) live += f >= 0 ? 1 : 0;
  if (first >= 0 && last - first != live * n) {
    throw std::logic_error("loophole: internal error: pending trigger flags are not contiguous");
  }
  p.pending_first = std::max(first, 0);
  p.pending_fields = first < 0 ? 0 : last - first;
}

std::vector<int> compile_conditions(CompiledSystem::Program& p,
                                    const std::vector<const model::Expr*>& exprs) {
  std::vector<int> starts;
  const std::size_t from = p.xcode.size();
  Compiler c(p);
  for (const model::Expr* e : exprs) {
    const std::size_t start = p.xcode.size();
    try {
      starts.push_back(c.expr(e));
    } catch (const CompiledSystem::Unsupported&) {
      p.xcode.resize(start);  // (what was emitted of it)
      starts.push_back(no_program);
    }
  }
  set_dispatch(p, from);
  return starts;
}

}  // namespace loophole::checker
