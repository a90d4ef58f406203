// The compiler of the compiled successor generator (see compiled.hpp): it
// translates the lowered form (loophole/checker/lowered.hpp, built once per
// Game) and reads no rule body of the model's IR. Every lowered expression
// becomes a program of the stack machine of compiled_program.hpp (with the
// fused instructions described in compiled.cpp), every lowered effect a flat
// statement program; the places, gap sites, domains and kind lists come from
// the lowered tables. (What the tests ask of the compiled programs is in
// compiled_census.cpp.)
#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiled_program.hpp"

namespace loophole::checker {

using model::Protocol;

namespace {

// ---------------------------------------------------------------------------
// Compilation

class Compiler {
 public:
  explicit Compiler(CompiledSystem::Program& p) : p_(p), low_(p.low) {}

  // Compiles the lowered expression `node` into a program; -1 for none.
  int expr(int node) {
    if (node < 0) return -1;
    const int start = static_cast<int>(p_.xcode.size());
    depth_ = 0;
    emit_expr(node);
    emit(X::ret);
    mark_single(start);
    return start;
  }

  int stmt_program(int node) {
    if (node < 0) return -1;
    const int start = static_cast<int>(p_.scode.size());
    stmt(node);
    SIns done;
    done.op = S::done;
    p_.scode.push_back(done);
    return start;
  }

 private:
  using LX = lowered::X;
  using LS = lowered::S;

  [[nodiscard]] const lowered::Expr& ex(int node) const {
    return low_.exprs[static_cast<std::size_t>(node)];
  }

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
  // The player `node` names, relative to self, the active player or a
  // binder: P + add, P = s[src] (src >= 0), self (src -1) or binders[-2 - src].
  bool relative_player(int node, int& src, int& add) const {
    const lowered::Expr& e = ex(node);
    switch (e.op) {
      case LX::self:
        src = -1;
        add = 0;
        return true;
      case LX::field:
        if (low_.ctl.active < 0 || e.a != low_.ctl.active) return false;
        src = e.a;
        add = 0;
        return true;
      case LX::next_player:
        if (!relative_player(e.x[0], src, add)) return false;
        ++add;
        return true;
      case LX::local: {
        std::int64_t v = 0;
        if (bound_value(e.a, v)) return false;  // a fixed player: a fixed slot
        src = -2 - e.a;
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

  // An operation checked for overflow (only where gaps.cpp found that its
  // result may leave 64 bits): true when emitted.
  bool checked(int node, model::Op op) {
    const int at = ex(node).overflow;
    if (at < 0) return false;
    emit(X::checked, at, 0, static_cast<int>(op));
    return true;
  }

  // The operations of two operands (evaluated by binary(), folded alike).
  static bool binary_op(LX op) {
    switch (op) {
      case LX::add:
      case LX::sub:
      case LX::mul:
      case LX::div:
      case LX::mod:
      case LX::eq:
      case LX::ne:
      case LX::lt:
      case LX::le:
      case LX::gt:
      case LX::ge:
      case LX::and_:
      case LX::or_:
        return true;
      default:
        return false;
    }
  }

  // The model operator a lowered operation computes (for model::fold_operation
  // and X::checked), none for the others.
  static model::Op operation(LX op) {
    using model::Op;
    switch (op) {
      case LX::not_:
        return Op::not_;
      case LX::neg:
        return Op::neg;
      case LX::add:
        return Op::add;
      case LX::sub:
        return Op::sub;
      case LX::mul:
        return Op::mul;
      case LX::div:
        return Op::div;
      case LX::mod:
        return Op::mod;
      case LX::eq:
        return Op::eq;
      case LX::ne:
        return Op::ne;
      case LX::lt:
        return Op::lt;
      case LX::le:
        return Op::le;
      case LX::gt:
        return Op::gt;
      case LX::ge:
        return Op::ge;
      case LX::and_:
        return Op::and_;
      case LX::or_:
        return Op::or_;
      case LX::exists:
        return Op::exists;
      case LX::forall:
        return Op::forall;
      case LX::count_of:
        return Op::count;
      case LX::sum:
        return Op::sum;
      case LX::min:
        return Op::min;
      case LX::max:
        return Op::max;
      case LX::abs:
        return Op::abs;
      case LX::clamp:
        return Op::clamp;
      default:
        return Op::none;
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

  // The value of an expression made of constants and the binders with a
  // known value: literals, arithmetic, comparisons, `and`/`or` (decided by
  // the left operand, or both known), conditionals, min/max/abs/clamp, as
  // model::fold_constant folds them; nothing that could fail at run time.
  std::optional<std::int64_t> fold(int node) const {
    const lowered::Expr& e = ex(node);
    if (binary_op(e.op)) {
      const auto a = fold(e.x[0]);
      if (!a) return std::nullopt;
      if (e.op == LX::and_ && *a == 0) return 0;
      if (e.op == LX::or_ && *a != 0) return 1;
      const auto b = fold(e.x[1]);
      if (!b) return std::nullopt;
      return model::fold_operation(operation(e.op), {*a, *b});
    }
    switch (e.op) {
      case LX::konst:
        return e.k;
      case LX::local: {
        std::int64_t v = 0;
        if (bound_value(e.a, v)) return v;
        return std::nullopt;
      }
      case LX::cond: {
        const auto c = fold(e.x[0]);
        if (!c) return std::nullopt;
        return fold(e.x[*c != 0 ? 1 : 2]);
      }
      case LX::not_:
      case LX::neg:
      case LX::abs:
      case LX::min:
      case LX::max:
      case LX::clamp: {
        std::vector<std::int64_t> v;
        for (const int x : e.x) {
          if (x < 0) break;
          const auto a = fold(x);
          if (!a) return std::nullopt;
          v.push_back(*a);
        }
        return model::fold_operation(operation(e.op), v);
      }
      default:
        return std::nullopt;
    }
  }

  // A constant, or (while code is compiled for one value of a binder: a
  // where-clause or pick body per value, an unrolled `for` or quantifier)
  // an expression that the known values make constant.
  bool known(int node, std::int64_t& v) const {
    const lowered::Expr& e = ex(node);
    if (e.op == LX::konst) {
      v = e.k;
      return true;
    }
    if (subst_.empty()) return false;
    const auto folded = fold(node);
    if (!folded) return false;
    v = *folded;
    return true;
  }

 public:
  // A where-clause compiled once per value of its binder (constants folded):
  // the programs in domain order (-1 where the value makes it true), or
  // nothing when the domain's values are not known before run time.
  std::vector<int> per_value(int node, const lowered::Domain& d, int binder) {
    const std::vector<std::int64_t> values = values_of(d, max_specialized);
    std::vector<int> out;
    for (const std::int64_t x : values) {
      subst_.push_back({binder, true, x});
      std::int64_t v = 0;
      out.push_back(known(node, v) && v != 0 ? -1 : expr(node));
      subst_.pop_back();
    }
    return out;
  }

 private:
  // The values of a domain in order, when they are known before run time
  // and there are at most `most` of them (else none: `others` depends on
  // self), each within 32 bits (a statement holds it as one).
  std::vector<std::int64_t> values_of(const lowered::Domain& d, std::size_t most) const {
    using K = lowered::Domain::Kind;
    std::vector<std::int64_t> values;
    switch (d.kind) {
      case K::others:
        return {};
      case K::players:
        for (int i = 0; i < low_.players; ++i) values.push_back(i);
        break;
      case K::range:
        for (int i = 0; i < d.size && values.size() <= most; ++i) values.push_back(d.lo + i);
        break;
      case K::list:
        for (const int k : low_.lists[static_cast<std::size_t>(d.list)]) values.push_back(k);
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
  void unrolled_quantifier(int node, const std::vector<std::int64_t>& values) {
    const lowered::Expr& e = ex(node);
    const int body = e.x[0];
    const bool chain = e.op == LX::exists || e.op == LX::forall;
    std::vector<int> exits;  // jumps (and fused leaves) to the end
    for (std::size_t k = 0; k < values.size(); ++k) {
      const int start = here();
      subst_.push_back({e.b, true, values[k]});
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
          p_.xcode[start].then = e.op == LX::exists ? Then::or_ : Then::and_;
        } else {
          emit(e.op == LX::exists ? X::or_jump : X::and_jump);
        }
        exits.push_back(here() - 1);
        pop();
        continue;
      }
      if (e.op == LX::count_of && !boolean(body)) emit(X::to_bool);
      if (k > 0) {
        if (!checked(node, model::Op::add)) emit(X::add);
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

  int domain(const lowered::Domain& d) {
    using K = model::Domain::Kind;
    CDomain c;
    switch (d.kind) {
      case lowered::Domain::Kind::players:
        c.kind = K::players;
        c.size = low_.players;
        break;
      case lowered::Domain::Kind::others:
        c.kind = K::others;
        c.size = low_.players;
        break;
      case lowered::Domain::Kind::range:
        c.kind = K::range;
        c.lo = d.lo;
        c.size = d.size;
        break;
      case lowered::Domain::Kind::list:
        c.kind = K::kinds_tagged;
        c.list = static_cast<int>(p_.lists.size());
        p_.lists.push_back(low_.lists[static_cast<std::size_t>(d.list)]);
        c.size = static_cast<int>(p_.lists.back().size());
        break;
    }
    p_.domains.push_back(c);
    return static_cast<int>(p_.domains.size()) - 1;
  }
  [[nodiscard]] const lowered::Domain& ldomain(int d) const {
    return low_.domains[static_cast<std::size_t>(d)];
  }
  [[nodiscard]] const lowered::Place& place(int pl) const {
    return low_.places[static_cast<std::size_t>(pl)];
  }

  // The slot of a place when its player and index are known and in range,
  // else -1.
  int fixed_slot(const lowered::Place& pl) const {
    std::int64_t player = 0, index = 0;
    if (pl.player >= 0 && (!known(pl.player, player) || player < 0 || player >= low_.players)) {
      return -1;
    }
    if (pl.index >= 0 && (!known(pl.index, index) || index < 0 || index >= pl.bound)) return -1;
    return pl.base + static_cast<int>(player) * pl.player_stride +
           static_cast<int>(index) * pl.index_stride;
  }

  // A place with a relative player P and a known index in range (or none):
  // one rel (or rel_slot) instruction.
  bool relative_place(const lowered::Place& pl, X op) {
    if (pl.player < 0) return false;
    int src = 0, add = 0;
    if (!relative_player(pl.player, src, add)) return false;
    std::int64_t index = 0;
    if (pl.index >= 0 && (!known(pl.index, index) || index < 0 || index >= pl.bound)) {
      return false;
    }
    emit(op, pl.base + static_cast<int>(index) * pl.index_stride, pl.player_stride, add, src);
    push();
    return true;
  }

  // A variable's place whose player or index is known only at run time:
  // var_dyn / var_slot over its operands.
  void var_op(X op, const lowered::Place& pl) {
    if (pl.player >= 0) emit_expr(pl.player);
    if (pl.index >= 0) emit_expr(pl.index);
    emit(op, pl.base, pl.player >= 0 ? pl.player_stride : -1, pl.index >= 0 ? pl.bound : 0,
         pl.index_stride * 65536, pl.site);
    pop((pl.player >= 0 ? 1 : 0) + (pl.index >= 0 ? 1 : 0));
    push();
  }

  // The value at a place (X::read).
  void read(int at) {
    const lowered::Place& pl = place(at);
    if (pl.index >= 0 && pl.bound == 0) {
      // A zone cell of a kind known at run time (always in range).
      if (pl.index_stride != 1) {
        throw std::logic_error("loophole: internal error: a kind-indexed place over records");
      }
      if (pl.player >= 0) {
        emit_expr(pl.player);
      } else {
        emit(X::konst, 0, 0, 0, 0, 0);
        push();
      }
      emit_expr(pl.index);
      emit(X::zone_dyn, pl.base, pl.player >= 0 ? pl.player_stride : 0);
      return pop();
    }
    if (const int slot = fixed_slot(pl); slot >= 0) {
      emit(X::load, slot);
      return push();
    }
    if (relative_place(pl, X::rel)) return;
    var_op(X::var_dyn, pl);
  }

  // The sum of a zone cell's counts over a kind list (X::count).
  void count(const lowered::Expr& e) {
    const lowered::Place& pl = place(e.a);
    if (pl.player >= 0) {
      emit_expr(pl.player);
    } else {
      emit(X::konst, 0, 0, 0, 0, 0);
      push();
    }
    const int stride = pl.player >= 0 ? pl.player_stride : 0;
    if (e.b == 0) {
      emit(X::zone_range, pl.base, stride, low_.kinds);
      return;
    }
    p_.lists.push_back(low_.lists[static_cast<std::size_t>(e.b)]);
    emit(X::zone_sum, pl.base, stride, static_cast<int>(p_.lists.back().size()),
         static_cast<int>(p_.lists.size()) - 1);
  }

 public:
  // Pushes the slot of an assignment target; returns the slot when constant.
  int target_slot(int at, int& program) {
    program = -1;
    const lowered::Place& pl = place(at);
    const int start = here();
    depth_ = 0;
    if (const int slot = fixed_slot(pl); slot >= 0) return slot;
    if (relative_place(pl, X::rel_slot)) {
      emit(X::ret);
      mark_single(start);
      program = start;
      return -1;
    }
    var_op(X::var_slot, pl);
    emit(X::ret);
    program = start;
    return -1;
  }

 private:
  void emit_expr(int node) {
    const lowered::Expr& e = ex(node);
    std::int64_t v = 0;
    if (known(node, v)) {
      emit(X::konst, 0, 0, 0, 0, v);
      push();
      return;
    }
    if (binary_op(e.op)) return binary(node);
    switch (e.op) {
      case LX::field:
        emit(X::load, e.a);
        return push();
      case LX::self:
        emit(X::self);
        return push();
      case LX::local:
        emit(X::bound, e.a);
        return push();
      case LX::stack_top:
        emit(X::top, low_.ctl.stack_size, low_.ctl.stack_base + e.a - 2);
        return push();
      case LX::next_player:
        emit_expr(e.x[0]);
        emit(X::next_player);
        return;
      case LX::read:
        return read(e.a);
      case LX::count:
        return count(e);
      case LX::not_:
        emit_expr(e.x[0]);
        return emit(X::not_);
      case LX::neg:
        emit_expr(e.x[0]);
        if (!checked(node, model::Op::neg)) emit(X::neg);
        return;
      case LX::cond: {
        emit_expr(e.x[0]);
        const int j0 = here();
        emit(X::jump_if0);
        pop();
        emit_expr(e.x[1]);
        pop();
        const int j1 = here();
        emit(X::jump);
        p_.xcode[j0].a = here();
        emit_expr(e.x[2]);
        p_.xcode[j1].a = here();
        return;
      }
      case LX::exists:
      case LX::forall:
      case LX::count_of:
      case LX::sum: {
        if (const auto values = values_of(ldomain(e.a), max_unrolled_quantifier); !values.empty()) {
          return unrolled_quantifier(node, values);
        }
        const int dom = domain(ldomain(e.a));
        const int op = static_cast<int>(operation(e.op));
        const int begin = here();
        emit(X::quant_begin, e.b, dom, op);
        push(3);
        const int body = here();
        // The quantifier binds its slot anew: no known value inside.
        subst_.push_back({e.b, false, 0});
        emit_expr(e.x[0]);
        subst_.pop_back();
        emit(X::quant_step, e.b, dom, op, body);
        p_.xcode.back().j = e.overflow;
        pop(3);
        p_.xcode[begin].d = here();
        return;
      }
      case LX::abs:
        emit_expr(e.x[0]);
        if (!checked(node, model::Op::abs)) emit(X::abs);
        return;
      case LX::min:
      case LX::max:
        emit_expr(e.x[0]);
        emit_expr(e.x[1]);
        emit(e.op == LX::min ? X::min : X::max);
        return pop();
      case LX::clamp:
        emit_expr(e.x[0]);
        emit_expr(e.x[1]);
        emit_expr(e.x[2]);
        emit(X::clamp);
        return pop(2);
      default:  // konst (folded above), the binary operations (binary())
        break;
    }
    throw CompiledSystem::Unsupported("lowered expression node " +
                                      std::to_string(static_cast<int>(e.op)));
  }

  static Cmp comparison(LX op) {
    switch (op) {
      case LX::eq:
        return Cmp::eq;
      case LX::ne:
        return Cmp::ne;
      case LX::lt:
        return Cmp::lt;
      case LX::le:
        return Cmp::le;
      case LX::gt:
        return Cmp::gt;
      case LX::ge:
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
  // Whether the node's value is always 0 or 1 (to_bool is then a no-op).
  [[nodiscard]] bool boolean(int node) const {
    const lowered::Expr& e = ex(node);
    switch (e.op) {
      case LX::konst:
        return e.k == 0 || e.k == 1;
      case LX::not_:
      case LX::and_:
      case LX::or_:
      case LX::exists:
      case LX::forall:
        return true;
      default:
        return comparison(e.op) != Cmp::none;
    }
  }

  void binary(int node) {
    const lowered::Expr& e = ex(node);
    if (e.op == LX::and_ || e.op == LX::or_) {
      // (emit_expr folded the whole when it is known.) A known left operand
      // that does not decide leaves the right one; a right operand that
      // does not decide leaves the left one, evaluated all the same.
      std::int64_t a = 0;
      const bool left = known(e.x[0], a);
      if (left || (known(e.x[1], a) && (e.op == LX::and_) == (a != 0))) {
        const int rest = e.x[left ? 1 : 0];
        emit_expr(rest);
        if (!boolean(rest)) emit(X::to_bool);
        return;
      }
      const int start = here();
      emit_expr(e.x[0]);
      const int j = here() - 1;
      // A one-leaf left operand tests itself (no and_jump / or_jump).
      const bool fused = here() - start == 1 && fusable(p_.xcode[j]);
      if (fused) {
        p_.xcode[j].then = e.op == LX::and_ ? Then::and_ : Then::or_;
      } else {
        emit(e.op == LX::and_ ? X::and_jump : X::or_jump);
      }
      pop();
      emit_expr(e.x[1]);
      if (!boolean(e.x[1])) emit(X::to_bool);
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
      int lhs = e.x[0];
      Cmp c = cmp;
      if (!known(e.x[1], k) && known(e.x[0], k)) {
        lhs = e.x[1];
        c = mirror(cmp);
      } else if (!known(e.x[1], k)) {
        lhs = -1;
      }
      if (lhs >= 0) {
        const int start = here();
        emit_expr(lhs);
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
    emit_expr(e.x[0]);
    const int right = here();
    emit_expr(e.x[1]);
    pop();
    if ((e.op == LX::add || e.op == LX::sub || e.op == LX::mul) && checked(node, operation(e.op))) {
      return;
    }
    if (here() - right == 1 && fusable(p_.xcode[right]) && p_.xcode[right].cmp == Cmp::none) {
      // A one-leaf right operand of +, - or a comparison folds into the top.
      XIns& x = p_.xcode[right];
      if (e.op == LX::add) {
        x.then = Then::add;
        return;
      }
      if (e.op == LX::sub) {
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
      case LX::add:
        return emit(X::add);
      case LX::sub:
        return emit(X::sub);
      case LX::mul:
        return emit(X::mul);
      case LX::div:
      case LX::mod:
        return emit(e.op == LX::div ? X::div : X::mod, e.site,
                    e.overflow < 0 ? no_site : e.overflow);
      case LX::eq:
        return emit(X::eq);
      case LX::ne:
        return emit(X::ne);
      case LX::lt:
        return emit(X::lt);
      case LX::le:
        return emit(X::le);
      case LX::gt:
        return emit(X::gt);
      case LX::ge:
        return emit(X::ge);
      default:
        break;
    }
    throw CompiledSystem::Unsupported("lowered binary node " +
                                      std::to_string(static_cast<int>(e.op)));
  }

  // Statements, laid out in execution order (the reference's continuations
  // become fall-through and jumps).
  [[nodiscard]] int shere() const { return static_cast<int>(p_.scode.size()); }
  int sadd(const SIns& i) {
    p_.scode.push_back(i);
    return shere() - 1;
  }

  void stmt(int node) {
    if (node < 0) return;  // an absent body: nothing
    const lowered::Stmt& s = low_.stmts[static_cast<std::size_t>(node)];
    SIns i;
    switch (s.op) {
      case LS::seq:
        for (const int b : s.body) stmt(b);
        return;
      case LS::assign: {
        i.op = S::assign;
        int program = -1;
        i.a = target_slot(s.a, program);
        i.b = program;
        i.c = expr(s.x);
        i.d = static_cast<int>(s.assign_op);
        i.e = s.site;
        sadd(i);
        return;
      }
      case LS::if_: {
        // A condition known at compile time (in unrolled or specialized
        // code) leaves its branch, or nothing, without a test.
        const std::size_t conds = s.conds.size();
        const bool has_else = s.body.size() > conds && s.body.back() >= 0;
        std::vector<int> to_end;
        bool decided = false;
        for (std::size_t c = 0; c < conds && !decided; ++c) {
          if (std::int64_t v = 0; known(s.conds[c], v)) {
            if (v == 0) continue;
            stmt(s.body[c]);
            decided = true;
            break;
          }
          SIns j;
          j.op = S::jump_if_not;
          j.a = expr(s.conds[c]);
          const int at = sadd(j);
          stmt(s.body[c]);
          // (The last branch without an else falls through to the end.)
          if (c + 1 < conds || has_else) {
            SIns out;
            out.op = S::jump;
            to_end.push_back(sadd(out));
          }
          p_.scode[at].b = shere();
        }
        if (!decided && has_else) stmt(s.body.back());
        for (int at : to_end) p_.scode[at].b = shere();
        return;
      }
      case LS::for_: {
        const int body = s.body.empty() ? -1 : s.body[0];
        // A loop over a few values known before run time is unrolled: the
        // body once per value, with the value folded in (the binder is set
        // all the same, for what reads it at run time).
        if (const auto values = values_of(ldomain(s.a), max_unrolled); !values.empty()) {
          for (const std::int64_t x : values) {
            SIns b;
            b.op = S::bind;
            b.c = s.b;
            b.a = static_cast<std::int32_t>(x);
            sadd(b);
            subst_.push_back({s.b, true, x});
            stmt(body);
            subst_.pop_back();
          }
          return;
        }
        const int dom = domain(ldomain(s.a));
        const int reg = p_.registers++;
        i.op = S::for_begin;
        i.a = dom;
        i.c = s.b;
        i.d = reg;
        const int begin = sadd(i);
        const int first = shere();
        subst_.push_back({s.b, false, 0});  // set at run time
        stmt(body);
        subst_.pop_back();
        SIns n;
        n.op = S::for_next;
        n.a = dom;
        n.b = first;
        n.c = s.b;
        n.d = reg;
        sadd(n);
        p_.scode[begin].b = shere();
        return;
      }
      case LS::choose:
      case LS::pick: {
        i.op = S::choose;
        i.a = domain(ldomain(s.a));
        i.c = s.b;
        i.e = s.op != LS::pick ? 0 : s.by < 0 ? 1 : 2 + expr(s.by);
        // The binder's value is chosen at run time: it shadows any known one
        // (per_value() binds each value innermost).
        subst_.push_back({s.b, false, 0});
        if (s.x >= 0) {
          if (auto each = per_value(s.x, ldomain(s.a), s.b); !each.empty()) {
            i.f = static_cast<int>(p_.lists.size());
            p_.lists.push_back(std::move(each));
          } else {
            i.d = expr(s.x);
          }
        }
        const int at = sadd(i);
        const int body = s.body.empty() ? -1 : s.body[0];
        const auto values = values_of(ldomain(s.a), max_unrolled);
        if (body >= 0 && !values.empty()) {
          // The body once per value, with the value folded in; each copy
          // ends at the statement after the choice (the last falls through).
          std::vector<int> starts, ends;
          for (const std::int64_t x : values) {
            starts.push_back(shere());
            subst_.push_back({s.b, true, x});
            stmt(body);
            subst_.pop_back();
            if (x == values.back()) break;
            SIns out;
            out.op = S::jump;
            ends.push_back(sadd(out));
          }
          for (const int e : ends) p_.scode[e].b = shere();
          p_.scode[at].g = static_cast<int>(p_.lists.size());
          p_.lists.push_back(std::move(starts));
        } else {
          stmt(body);
        }
        subst_.pop_back();
        p_.scode[at].b = shere();
        return;
      }
      case LS::draw_without_zones:
      case LS::move: {
        const lowered::Move& m = s.move;
        if (s.op == LS::draw_without_zones || m.chooser == Chooser::nature) {
          // A draw: its player, its count. (Without deck and hand the
          // reference throws only after evaluating the operands, and only
          // when the draw runs.)
          i.op = s.op == LS::move ? S::draw : S::no_zones;
          if (s.op == LS::move) {
            // The source's owner: the drawing player's part (draw(p, n)
            // from a per-player deck), none (shared), or the zone named
            // (draw(p, n, z[q])), evaluated before the player.
            const int from_owner = place(m.from).player;
            i.c = m.from_zone;
            i.d = from_owner < 0 ? -1 : from_owner == s.x ? -2 : expr(from_owner);
            i.f = m.to_zone;
          }
          i.a = expr(s.x);
          i.b = expr(m.count);
          i.e = s.site;
          sadd(i);
          return;
        }
        i.op = S::move;
        const auto owner = [&](int at) {
          const int player = place(at).player;
          return player < 0 ? -1 : expr(player);
        };
        i.a = m.from_zone;
        i.b = owner(m.from);
        i.c = m.to_zone;
        i.d = owner(m.to);
        i.f = m.kind < 0 ? -1 : expr(m.kind);
        i.g = expr(m.count);
        i.e = s.site;
        sadd(i);
        return;
      }
      case LS::fire:
        i.op = S::fire;
        i.a = s.a;
        if (!s.conds.empty()) {
          std::vector<int> args;
          for (const int c : s.conds) args.push_back(expr(c));
          i.b = static_cast<int>(p_.lists.size());
          p_.lists.push_back(std::move(args));
        }
        i.e = s.site;
        sadd(i);
        return;
      case LS::end:
        i.op = S::end;
        i.a = expr(s.x);
        i.b = s.a;
        sadd(i);
        return;
      case LS::negate:
        i.op = S::negate;
        i.a = expr(s.x);
        sadd(i);
        return;
    }
    throw CompiledSystem::Unsupported("lowered statement node " +
                                      std::to_string(static_cast<int>(s.op)));
  }

  CompiledSystem::Program& p_;
  const lowered::Lowered& low_;
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
  const model::Game& g = p.game;
  const lowered::Rules& r = p.low.rules;
  Compiler c(p);
  p.binders = std::max(0, p.low.locals);
  // (Every field's: an assignment may target a control field, the turn order.)
  for (const auto& f : p.low.layout.fields) {
    p.slot_lo.push_back(f.lo);
    p.slot_hi.push_back(f.hi);
  }
  p.setup_effect.push_back(c.stmt_program(r.setup));
  for (std::size_t s = 0; s < g.steps.size(); ++s) {
    p.step_effect.push_back(c.stmt_program(r.step_effect[s]));
    p.step_repeat.push_back(c.expr(r.step_repeat[s]));
    p.step_end_turn.push_back(c.expr(r.step_end_turn[s]));
  }
  for (std::size_t a = 0; a < g.actions.size(); ++a) {
    p.action_guard.push_back(c.expr(r.action_guard[a]));
    p.action_cost.push_back(c.stmt_program(r.action_cost[a]));
    p.action_effect.push_back(c.stmt_program(r.action_effect[a]));
  }
  for (std::size_t t = 0; t < g.triggers.size(); ++t) {
    p.trigger_condition.push_back(c.expr(r.trigger_condition[t]));
    p.trigger_effect.push_back(c.stmt_program(r.trigger_effect[t]));
  }
  for (const int e : r.end_condition) p.end_condition.push_back(c.expr(e));

  // The role and speed part of Run::enabled, for every relative seat: per
  // window, answering or not, acted or not and seat, the window's actions in
  // order that the seat may take.
  const int n = p.low.players;
  const auto allowed = [&](const model::Window& win, const model::Action& act, bool answering,
                           bool acted, int rel) {
    if (!p.covers(act.who, rel, 0)) return false;
    if (win.protocol != Protocol::priority && win.roles.empty()) return true;
    const bool ans = win.protocol == Protocol::priority && answering;
    for (const auto& r : win.roles) {
      if (!p.covers(r.role, rel, 0)) continue;
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
        for (const int a : p.low.window_actions[w]) {
          if (allowed(g.windows[w], g.actions[a], mode / 2 != 0, mode % 2 != 0, rel)) {
            list.push_back(a);
          }
        }
      }
    }
  }
  set_dispatch(p, 0);
  for (const auto& listeners : p.low.triggers_by_event) {
    bool live = false;
    for (const int t : listeners) live = live || p.low.ctl.pending[t] >= 0;
    p.event_fires.push_back(live ? 1 : 0);
  }
  for (const int base : p.low.ctl.turn_uses) {
    if (base >= 0) p.turn_use_bases.push_back(base);
  }
  for (const int base : p.low.ctl.window_uses) {
    if (base >= 0) p.window_use_bases.push_back(base);
  }
  // What the end conditions read: every instruction's fields, where the
  // instruction names them; anything else reads "all".
  const std::size_t fields = p.low.layout.fields.size();
  p.end_reads.assign(FlatSuccessors::dirty_words(fields), 0);
  const auto reads = [&](int f) {
    if (f >= 0) p.end_reads[static_cast<std::size_t>(f) >> 6] |= std::uint64_t{1} << (f & 63);
  };
  bool all = false;
  reads(p.low.ctl.active);  // whose conditions are checked
  reads(p.low.ctl.order);   // (`opponent`'s follow the turn order)
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

  const auto& pending = p.low.ctl.pending;
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
  // Each condition is compiled from its lowered form: the root node whose
  // origin it is, among the rules' and the properties' conditions. (The
  // pointer is only a key; one not lowered runs on the reference. An
  // action's guard is its `when` as written, without its targets' choice.)
  const lowered::Rules& r = p.low.rules;
  std::unordered_map<const void*, int> roots;
  for (const auto* list :
       {&r.property_expr, &r.property_to, &r.action_rule_guard, &r.trigger_condition,
        &r.step_repeat, &r.step_end_turn, &r.end_condition}) {
    for (const int node : *list) {
      if (node >= 0) roots.emplace(p.low.exprs[static_cast<std::size_t>(node)].origin, node);
    }
  }
  std::vector<int> starts;
  const std::size_t from = p.xcode.size();
  Compiler c(p);
  for (const model::Expr* e : exprs) {
    if (e == nullptr) {
      starts.push_back(-1);
      continue;
    }
    const auto root = roots.find(e);
    if (root == roots.end()) {
      starts.push_back(no_program);
      continue;
    }
    const std::size_t start = p.xcode.size();
    try {
      starts.push_back(c.expr(root->second));
    } catch (const CompiledSystem::Unsupported&) {
      p.xcode.resize(start);  // (what was emitted of it)
      starts.push_back(no_program);
    }
  }
  set_dispatch(p, from);
  return starts;
}

}  // namespace loophole::checker
