// The compiled successor generator of compiled.hpp. Compilation (Compiler)
// turns every expression of the rules into a stack-machine program and every
// effect into a flat statement program, both with their slots, gap sites and
// domains resolved; Runner executes them. Runner mirrors the reference Run
// (checker/src/semantics/moves.cpp, effects.cpp) function by function, so
// the two are read side by side; what differs is only how expressions are
// evaluated and how choice points come back: a frame stack with a saved
// state per frame instead of continuations on the C++ stack.
//
// The expression machine spends its time dispatching, so the compiler fuses
// what rules write most: a player's slot (`life[self]`, `hand[next(p)]`) is
// one `rel` instruction; a comparison with a constant rides on the leaf
// before it; a one-leaf right operand of +, - or a comparison folds into the
// stack top, and a one-leaf left operand of `and` / `or` tests and jumps by
// itself; a program of one leaf runs without the loop. Measured on operators
// (guards and picks over `f_x[next(self)]`): 1.95 -> 2.26 M states/s.
#include "compiled.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "semantics/prepared.hpp"

namespace loophole::checker {

using model::Expr;
using model::ExprKind;
using model::Protocol;
using model::SequenceTurn;
using model::Stmt;
using model::StmtKind;
using semantics::get;
using semantics::put;

namespace {

constexpr int no_site = 1 << 30;  // a failure outside every gap site (reference: Env::no_site)
constexpr int max_stack = 64;     // expression stack depth

// ---------------------------------------------------------------------------
// Expression programs

enum class X : std::uint8_t {
  konst,        // push k
  load,         // push s[a]
  self,         // push self
  top,          // a = stack_size index, b = stack_base + 0/1: the stack top's field, 0 when empty
  next_player,  // top = (top + 1) % players
  var_dyn,      // pops [player] [index]; a first slot, b player stride, c array, d nf*2^16+field,
                // k site; push s[slot]
  var_slot,     // the same, pushes the slot
  zone_kind,    // pops owner; push s[a + owner * b]
  zone_dyn,     // pops owner, kind; push s[a + owner * b + kind]
  zone_sum,     // pops owner; sum of s[a + owner * b + kinds[d][i]], c = list length
  zone_range,   // pops owner; sum of s[a + owner * b + 0..c-1]
  bound,        // push binders[a]
  not_,
  neg,
  add,
  sub,
  mul,
  div,  // a site
  mod,  // a site
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  to_bool,
  and_jump,  // top == 0: jump to a (keeping 0), else pop
  or_jump,   // top != 0: top = 1 and jump to a, else pop
  jump_if0,  // pop; == 0: jump to a
  jump,
  quant_begin,  // a binder, b domain, c op, d end: push acc, i, n
  quant_step,   // a binder, b domain, c op, d body start
  abs,
  min,
  max,
  clamp,
  rel,       // push s[a + ((P + c) % players) * b], a player's slot; P = s[d] (d >= 0), self
             // (d == -1) or binders[-2 - d]
  rel_slot,  // the same, pushes the slot
  cmp_k,     // top = top <cmp> k
  ret,
};

// A comparison with a constant, fused into the instruction before it (see
// XIns::cmp): a mask over {value < k, value == k, value > k} (bits 0, 1, 2);
// none (0) keeps the value.
enum class Cmp : std::uint8_t { none = 0, lt = 1, eq = 2, le = 3, gt = 4, ne = 5, ge = 6 };

// What a leaf instruction (Compiler::leaf) does with its value v: push it
// (compared with k first when cmp is set), fold it into the stack top as the
// right operand of +, - or the comparison cmp, or test it as the left
// operand of `and` / `or` (the fused and_jump / or_jump, target j).
enum class Then : std::uint8_t { push, add, sub, cmp, and_, or_ };

struct XIns {
  X op = X::ret;
  Cmp cmp = Cmp::none;  // konst excepted: compare the pushed value with k
  Then then = Then::push;
  bool single = false;  // this instruction and ret are the whole program
  std::int32_t a = 0, b = 0, c = 0, d = 0;
  std::int32_t j = 0;
  std::int64_t k = 0;
};

inline std::int64_t compare(std::int64_t v, Cmp cmp, std::int64_t k) {
  if (cmp == Cmp::none) return v;
  const int order = (v > k ? 1 : 0) - (v < k ? 1 : 0) + 1;  // 0 (<), 1 (==), 2 (>)
  return (static_cast<unsigned>(cmp) >> order) & 1U;
}

// A domain with its values resolved (see Evaluator::domain_size/value).
struct CDomain {
  model::Domain::Kind kind = model::Domain::Kind::range;
  std::int64_t lo = 0;
  int size = 0;   // for players, range, enum_values, kinds, kinds_tagged
  int list = -1;  // kinds_tagged: index into Program::lists
};

// ---------------------------------------------------------------------------
// Statement programs

enum class S : std::uint8_t {
  assign,       // a const slot or -1, b slot expr, c value expr, d op, e site
  jump_if_not,  // a expr, b target
  jump,         // b target
  for_begin,    // a domain, b end, c binder, d register
  for_next,     // a domain, b body, c binder, d register
  choose,       // a domain, b skip target, c binder, d where expr or -1, e by player
  draw,         // a player expr, b count expr, e site
  move,         // a from zone, b from owner expr or -1, c to zone, d to owner expr or -1,
                // f kind expr or -1 (chosen), g count expr, e site
  fire,         // a event
  end,          // a player expr, b win
  negate,
  no_zones,  // draw without deck and hand: the reference's internal error
  done,      // the effect is over: continue the move after it
};

struct SIns {
  S op = S::done;
  std::int32_t a = -1, b = -1, c = -1, d = -1, e = -1, f = -1, g = -1;
};

// What runs after an effect (the reference's Tail).
enum class Tail : std::uint8_t {
  emit,
  after_step_do,
  priority_cost,
  priority_effect,
  alternate_cost,
  alternate_effect,
  sequence_cost,
  sequence_effect,
  resolve,
};

struct Move {
  MoveKind kind = MoveKind::advance;
  int player = -1;
  int ref = -1;
  int gap = -1;
};

}  // namespace

struct CompiledSystem::Program {
  explicit Program(const model::Game& g) : prep(g) {}
  semantics::Prepared prep;
  std::vector<XIns> xcode;  // every expression program, each ended by ret
  std::vector<SIns> scode;  // every statement program, each ended by done
  std::vector<CDomain> domains;
  std::vector<std::vector<int>> lists;
  int registers = 0;  // `for` counters
  int binders = 0;
  std::vector<std::int32_t> slot_lo, slot_hi;  // data slots
  // Per rule: program start (-1: none / always true).
  std::vector<int> setup_effect;
  std::vector<int> step_effect, step_repeat, step_end_turn;
  std::vector<int> action_guard, action_cost, action_effect;
  std::vector<int> trigger_condition, trigger_effect;
  std::vector<int> end_condition;
  // allowed[(w * actions + a) * 4 * players + (answering * 2 + acted) * players + rel]:
  // the action's `who` and the window's roles and speeds let player active+rel act.
  std::vector<std::uint8_t> allowed;
  int actions = 0;
  // The same as lists: the window's actions in order that player active+rel
  // may take, at candidates[((w * 4 + answering * 2 + acted) * players + rel)].
  std::vector<std::vector<int>> candidates;
  // Every live trigger's pending flags, one contiguous run of fields (the
  // layout allocates them together): most states have none set.
  int pending_first = 0, pending_fields = 0;
  // The fields the end conditions read (with the active player, who decides
  // whose conditions are checked), one bit per field; all set when a
  // condition reads fields it names only at run time.
  std::vector<std::uint64_t> end_reads;
};

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
      case ExprKind::bound:
        src = -2 - e.ref;
        add = 0;
        return true;
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
    if (v.per_player) fixed = constant(*e.args[arg++], player) && fixed;
    if (v.array > 0) {
      fixed = constant(*e.args[arg], index) && fixed && index >= 0 && index < v.array;
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
    if (v.array > 0 && (!constant(*e.args[1], index) || index < 0 || index >= v.array)) {
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
    if (constant(e, v)) {
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
        emit(e.op == model::Op::not_ ? X::not_ : X::neg);
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
        const int dom = domain(e.domain);
        const int begin = here();
        emit(X::quant_begin, e.ref, dom, static_cast<int>(e.op));
        push(3);
        const int body = here();
        emit_expr(*e.args[0]);
        emit(X::quant_step, e.ref, dom, static_cast<int>(e.op), body);
        pop(3);
        p_.xcode[begin].d = here();
        return;
      }
      case ExprKind::builtin: {
        for (const auto& a : e.args) emit_expr(*a);
        switch (e.op) {
          case model::Op::abs:
            emit(X::abs);
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
    const bool fixed = !owned || constant(*e.args[0], owner);
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
      const int start = here();
      emit_expr(*e.args[0]);
      const int j = here() - 1;
      if (here() - start == 1 && fusable(p_.xcode[j])) {
        // A one-leaf left operand tests itself (no and_jump / or_jump).
        p_.xcode[j].then = e.op == Op::and_ ? Then::and_ : Then::or_;
        pop();
        emit_expr(*e.args[1]);
        if (!boolean(*e.args[1])) emit(X::to_bool);
        p_.xcode[j].j = here();
        return;
      }
      emit(e.op == Op::and_ ? X::and_jump : X::or_jump);
      pop();
      emit_expr(*e.args[1]);
      if (!boolean(*e.args[1])) emit(X::to_bool);
      p_.xcode[j + 1].a = here();
      return;
    }
    // A comparison with a constant: fused into a leaf before it, else cmp_k.
    if (const Cmp cmp = comparison(e.op); cmp != Cmp::none) {
      std::int64_t k = 0;
      const Expr* lhs = e.args[0].get();
      Cmp c = cmp;
      if (!constant(*e.args[1], k) && constant(*e.args[0], k)) {
        lhs = e.args[1].get();
        c = mirror(cmp);
      } else if (!constant(*e.args[1], k)) {
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
        return emit(X::div, site(&e));
      case Op::mod:
        return emit(X::mod, site(&e));
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
        std::vector<int> to_end;
        for (std::size_t c = 0; c < s.conds.size(); ++c) {
          SIns j;
          j.op = S::jump_if_not;
          j.a = expr(s.conds[c].get());
          const int at = sadd(j);
          if (s.bodies[c]) stmt(*s.bodies[c]);
          SIns out;
          out.op = S::jump;
          to_end.push_back(sadd(out));
          p_.scode[at].b = shere();
        }
        if (s.bodies.size() > s.conds.size() && s.bodies.back()) stmt(*s.bodies.back());
        for (int at : to_end) p_.scode[at].b = shere();
        return;
      }
      case StmtKind::for_: {
        const int dom = domain(s.domain);
        const int reg = p_.registers++;
        i.op = S::for_begin;
        i.a = dom;
        i.c = s.ref;
        i.d = reg;
        const int begin = sadd(i);
        const int body = shere();
        if (!s.bodies.empty() && s.bodies[0]) stmt(*s.bodies[0]);
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
        i.d = s.conds.empty() ? -1 : expr(s.conds[0].get());
        i.e = s.kind == StmtKind::pick ? 1 : 0;
        const int at = sadd(i);
        if (!s.bodies.empty() && s.bodies[0]) stmt(*s.bodies[0]);
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
};

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

  // The role and speed part of Run::enabled, for every relative seat.
  const int n = p.prep.players;
  p.actions = static_cast<int>(g.actions.size());
  p.allowed.assign(g.windows.size() * g.actions.size() * 4 * static_cast<std::size_t>(n), 0);
  for (std::size_t w = 0; w < g.windows.size(); ++w) {
    const auto& win = g.windows[w];
    for (std::size_t a = 0; a < g.actions.size(); ++a) {
      const auto& act = g.actions[a];
      for (int answering = 0; answering < 2; ++answering) {
        for (int acted = 0; acted < 2; ++acted) {
          for (int rel = 0; rel < n; ++rel) {
            bool ok = p.prep.covers(act.who, rel, 0);
            if (ok && (win.protocol == Protocol::priority || !win.roles.empty())) {
              const bool ans = win.protocol == Protocol::priority && answering != 0;
              bool allowed = false;
              for (const auto& r : win.roles) {
                if (!p.prep.covers(r.role, rel, 0)) continue;
                if (!ans && r.lead_if_active_idle && acted != 0) continue;
                const auto& speeds = ans ? r.answer : r.lead;
                if (g.speeds.empty() ||
                    std::find(speeds.begin(), speeds.end(), act.speed) != speeds.end()) {
                  allowed = true;
                  break;
                }
              }
              ok = allowed;
            }
            p.allowed[((w * g.actions.size() + a) * 4 + answering * 2 + acted) * n + rel] =
                ok ? 1 : 0;
          }
        }
      }
    }
  }
  p.candidates.assign(g.windows.size() * 4 * static_cast<std::size_t>(n), {});
  for (std::size_t w = 0; w < g.windows.size(); ++w) {
    for (std::size_t mode = 0; mode < 4; ++mode) {
      for (int rel = 0; rel < n; ++rel) {
        auto& list = p.candidates[(w * 4 + mode) * n + rel];
        for (const int a : p.prep.window_actions[w]) {
          if (p.allowed[((w * g.actions.size() + a) * 4 + mode) * n + rel] != 0) list.push_back(a);
        }
      }
    }
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

// ---------------------------------------------------------------------------
// Execution

// A choice point: the outcomes still to run and what they start from.
struct Frame {
  int ins = 0;                     // the choice statement
  int resume = 0;                  // where each outcome continues
  int next = 0;                    // next outcome to run
  int count = 0;                   // outcomes
  int width = 1;                   // entries per outcome (kinds for multisets)
  std::int64_t aux = 0, aux2 = 0;  // draw/move: player or zone bases
};

struct FrameSave {
  std::vector<std::int32_t> state;
  std::vector<std::uint64_t> dirty;
  std::vector<std::int64_t> binders;
  std::vector<std::int32_t> regs;
  std::vector<std::int32_t> outcomes;
  int self = -1, picker = -1;
  bool nature = false, progress = false;
};

// owner: the Program these buffers are sized for.
struct Scratch final : FlatSuccessors::Scratch {
  std::vector<std::int32_t> work, gap_state;
  std::vector<std::uint64_t> dirty, gap_dirty;  // fields written since the source state
  std::vector<std::int64_t> binders, aux_binders;
  std::vector<std::int32_t> regs;
  std::vector<Frame> frames;
  std::vector<FrameSave> saves;
  std::vector<std::int32_t> outcomes;  // of a choice with a single outcome run at once
  std::vector<std::int32_t> counts;
  std::vector<std::int64_t> suffix;
  std::vector<Move> moves;
  FlatSuccessors flat;  // for successors()
  StateVec unpacked;
};

class Runner {
 public:
  Runner(const CompiledSystem::Program& p, Scratch& sc, FlatSuccessors& out)
      : p_(p), g_(p.prep.game), ctl_(p.prep.ctl), sc_(sc), out_(out) {
    const std::size_t fields = p.prep.layout.fields.size();
    if (sc_.owner != &p) {
      sc_.owner = &p;
      sc_.work.assign(fields, 0);
      sc_.gap_state.assign(fields, 0);
      sc_.binders.assign(static_cast<std::size_t>(p.binders), 0);
      sc_.aux_binders.assign(static_cast<std::size_t>(p.binders), 0);
      sc_.regs.assign(static_cast<std::size_t>(p.registers), 0);
      sc_.dirty.assign(FlatSuccessors::dirty_words(fields), 0);
      sc_.gap_dirty.assign(FlatSuccessors::dirty_words(fields), 0);
    }
    fields_ = fields;
    dirty_words_ = FlatSuccessors::dirty_words(fields);
    w_ = sc_.work.data();
    dirty_ = sc_.dirty.data();
  }

  void successors(const std::int32_t* s) {
    out_.count = 0;
    out_.fields = fields_;
    out_.has_dirty = true;
    out_.wrote_packed = out_.pack_with != nullptr;
    sc_.frames.clear();
    before_ = s;
    if (s[ctl_.over] != 0) return;
    collect_moves(s);
    mover_choice_ = sc_.moves.size() > 1;
    for (std::size_t i = 0; i < sc_.moves.size(); ++i) run_move(sc_.moves[i]);
  }

 private:
  // --- expressions ---------------------------------------------------------

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

  // The slot of a rel / rel_slot instruction.
  [[nodiscard]] static std::int64_t rel_player(const XIns& x, const std::int32_t* s,
                                               const std::int64_t* binders, int self) {
    return x.d >= 0 ? s[x.d] : x.d == -1 ? self : binders[-2 - x.d];
  }
  [[nodiscard]] int rel_slot(const XIns& x, const std::int32_t* s, const std::int64_t* binders,
                             int self) const {
    int p = static_cast<int>(rel_player(x, s, binders, self)) + x.c;
    if (x.c != 0) {
      while (p >= p_.prep.players) p -= p_.prep.players;
    }
    return x.a + p * x.b;
  }
  // What a leaf instruction (Compiler::leaf) pushes, before its comparison
  // (most frequent first: no jump table for the one-instruction programs).
  [[nodiscard]] std::int64_t leaf_value(const XIns& x, const std::int32_t* s,
                                        const std::int64_t* binders, int self) const {
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
    const XIns& x = p_.xcode[pc];
    if (x.single) return compare(leaf_value(x, s, binders, self), x.cmp, x.k);
    return run_program(pc, s, binders, self, error);
  }

#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
  std::int64_t run_program(int pc, const std::int32_t* s, std::int64_t* binders, int self,
                           int& error) const {
    std::int64_t st[max_stack];
    int sp = 0;
    const XIns* code = p_.xcode.data();
    const int players = p_.prep.players;
    for (;;) {
      const XIns& x = code[pc++];
      switch (x.op) {
        case X::konst:
          st[sp++] = x.k;
          break;
// A leaf's value, then what XIns::then says (an if chain: a jump table here
// costs more in mispredictions than it saves).
#define LOOPHOLE_LEAF(value)                      \
  {                                               \
    const std::int64_t v = (value);               \
    if (x.then == Then::push) {                   \
      st[sp++] = compare(v, x.cmp, x.k);          \
    } else if (x.then == Then::and_) {            \
      if (compare(v, x.cmp, x.k) == 0) {          \
        st[sp++] = 0;                             \
        pc = x.j;                                 \
      }                                           \
    } else if (x.then == Then::or_) {             \
      if (compare(v, x.cmp, x.k) != 0) {          \
        st[sp++] = 1;                             \
        pc = x.j;                                 \
      }                                           \
    } else if (x.then == Then::add) {             \
      st[sp - 1] += v;                            \
    } else if (x.then == Then::sub) {             \
      st[sp - 1] -= v;                            \
    } else {                                      \
      st[sp - 1] = compare(st[sp - 1], x.cmp, v); \
    }                                             \
    break;                                        \
  }
        case X::load:
          LOOPHOLE_LEAF(s[x.a])
        case X::bound:
          LOOPHOLE_LEAF(binders[x.a])
        case X::rel:
          LOOPHOLE_LEAF(s[rel_slot(x, s, binders, self)])
        case X::rel_slot:
          LOOPHOLE_LEAF(rel_slot(x, s, binders, self))
        case X::self:
          LOOPHOLE_LEAF(self)
        case X::top: {
          const int size = s[x.a];
          LOOPHOLE_LEAF(size == 0 ? 0 : s[x.b + 2 * size])
        }
#undef LOOPHOLE_LEAF
        case X::cmp_k:
          st[sp - 1] = compare(st[sp - 1], x.cmp, x.k);
          break;
        case X::next_player:
          st[sp - 1] = (st[sp - 1] + 1) % players;
          break;
        case X::var_dyn:
        case X::var_slot: {
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
        case X::zone_kind:
          st[sp - 1] = s[x.a + st[sp - 1] * x.b];
          break;
        case X::zone_dyn: {
          const std::int64_t kind = st[--sp];
          st[sp - 1] = s[x.a + st[sp - 1] * x.b + kind];
          break;
        }
        case X::zone_range: {
          const std::int32_t* z = s + x.a + st[sp - 1] * x.b;
          std::int64_t t = 0;
          for (int k = 0; k < x.c; ++k) t += z[k];
          st[sp - 1] = t;
          break;
        }
        case X::zone_sum: {
          const std::int32_t* z = s + x.a + st[sp - 1] * x.b;
          const int* list = p_.lists[x.d].data();
          std::int64_t t = 0;
          for (int k = 0; k < x.c; ++k) t += z[list[k]];
          st[sp - 1] = t;
          break;
        }
        case X::not_:
          st[sp - 1] = st[sp - 1] == 0 ? 1 : 0;
          break;
        case X::neg:
          st[sp - 1] = -st[sp - 1];
          break;
#define LOOPHOLE_BIN(name, expr)       \
  case X::name: {                      \
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
        case X::div:
        case X::mod: {
          const std::int64_t b = st[--sp];
          if (b == 0) {
            if (error < 0) error = x.a;
            return 0;
          }
          st[sp - 1] = x.op == X::div ? st[sp - 1] / b : st[sp - 1] % b;
          break;
        }
        case X::to_bool:
          st[sp - 1] = st[sp - 1] != 0 ? 1 : 0;
          break;
        case X::and_jump:
          if (st[sp - 1] == 0) {
            pc = x.a;
          } else {
            --sp;
          }
          break;
        case X::or_jump:
          if (st[sp - 1] != 0) {
            st[sp - 1] = 1;
            pc = x.a;
          } else {
            --sp;
          }
          break;
        case X::jump_if0:
          if (st[--sp] == 0) pc = x.a;
          break;
        case X::jump:
          pc = x.a;
          break;
        case X::quant_begin: {
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
        case X::quant_step: {
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
          } else {
            acc += v;
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
        case X::abs:
          st[sp - 1] = st[sp - 1] < 0 ? -st[sp - 1] : st[sp - 1];
          break;
        case X::clamp: {
          const std::int64_t hi = st[--sp], lo = st[--sp];
          st[sp - 1] = std::max(lo, std::min(st[sp - 1], hi));
          break;
        }
        case X::ret:
          return st[sp - 1];
        default:  // no range check before the jump table (every op has its
                  // case: -Wswitch-enum below)
          __builtin_unreachable();
      }
    }
  }
#pragma GCC diagnostic pop

  // A missing condition holds.
  bool test(int pc, const std::int32_t* s, std::int64_t* binders, int self, int& error) const {
    return pc < 0 || eval(pc, s, binders, self, error) != 0;
  }
  std::int64_t value(int pc, int& error) { return eval(pc, w_, sc_.binders.data(), self_, error); }
  [[nodiscard]] int next_player(int p) const { return (p + 1) % p_.prep.players; }

  // Every write to the work state goes through set(), which records the
  // field as written when its value changes, so that the engine packs a successor by patching only
  // those fields of its source (a dropped write to an absent control field,
  // index < 0, as semantics::put).
  static void mark(std::uint64_t* d, int i) { d[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void set(int i, std::int32_t v) {
    if (i < 0 || w_[i] == v) return;
    w_[i] = v;
    mark(dirty_, i);
  }
  void clear_players(int base) {
    for (int p = 0; p < p_.prep.players; ++p) set(base + p, 0);
  }
  [[nodiscard]] int zone_slot(int zone, int owner, int kind) const {
    return g_.zones[zone].slot(owner < 0 ? 0 : owner, kind, p_.prep.kinds);
  }

  // --- moves (moves.cpp) ---------------------------------------------------

  void collect_moves(const std::int32_t* s) {
    sc_.moves.clear();
    const int active = s[ctl_.active];
    const int players = p_.prep.players;
    std::int32_t any = 0;
    for (int f = 0; f < p_.pending_fields; ++f) any |= s[p_.pending_first + f];
    for (int i = 0; i < players && any != 0; ++i) {
      const int c = (active + i) % players;
      for (std::size_t t = 0; t < ctl_.pending.size(); ++t) {
        if (ctl_.pending[t] < 0 || s[ctl_.pending[t] + c] == 0) continue;
        sc_.moves.push_back(Move{MoveKind::trigger, c, static_cast<int>(t), -1});
        if (g_.triggers[t].optional) {
          sc_.moves.push_back(Move{MoveKind::decline, c, static_cast<int>(t), -1});
        }
      }
      if (!sc_.moves.empty()) return;
    }
    switch (static_cast<Stage>(s[ctl_.stage])) {
      case Stage::start:
        sc_.moves.push_back(Move{MoveKind::start});
        break;
      case Stage::pre:
        sc_.moves.push_back(Move{MoveKind::effects});
        break;
      case Stage::post:
        sc_.moves.push_back(Move{MoveKind::advance});
        break;
      case Stage::leaving:
        sc_.moves.push_back(Move{MoveKind::enter});
        break;
      case Stage::window:
        window_moves(s);
        break;
    }
  }

  void window_moves(const std::int32_t* s) {
    const int w = g_.steps[s[ctl_.step]].window;
    const auto& win = g_.windows[w];
    const int h = get(s, ctl_.holder);
    bool any_action = false;
    for (int a : candidates(s, h, w)) {
      int error = -1;
      const int r = enabled(s, a, h, error);
      if (r == 0) continue;
      sc_.moves.push_back(Move{MoveKind::action, h, a, r < 0 ? error : -1});
      any_action = any_action || r > 0;
    }
    switch (win.protocol) {
      case Protocol::priority: {
        if (!win.may_pass) break;
        const int size = get(s, ctl_.stack_size);
        if (get(s, ctl_.passes) + 1 == p_.prep.players && size > 0) {
          const int top = s[ctl_.stack_base + 2 * (size - 1)];
          sc_.moves.push_back(Move{MoveKind::resolve, h, top, -1});
        } else {
          sc_.moves.push_back(Move{MoveKind::pass, h, -1, -1});
        }
        break;
      }
      case Protocol::alternate:
        if (win.may_pass || !any_action) sc_.moves.push_back(Move{MoveKind::pass, h, -1, -1});
        break;
      case Protocol::sequence:
        sc_.moves.push_back(Move{MoveKind::pass, h, -1, -1});
        break;
    }
  }

  // The actions of window w that p's role and speed let p take now, in order
  // (the role and speed part of Run::enabled).
  const std::vector<int>& candidates(const std::int32_t* s, int p, int w) const {
    const int players = p_.prep.players;
    const int answering = get(s, ctl_.stack_size) > 0 ? 1 : 0;
    const int acted = get(s, ctl_.acted) != 0 ? 1 : 0;
    const int rel = (p - s[ctl_.active] + players) % players;
    return p_.candidates[(static_cast<std::size_t>(w) * 4 + answering * 2 + acted) * players + rel];
  }

  // The rest of Run::enabled for a candidate a: 1 enabled, 0 not, -1 a gap
  // (error set).
  int enabled(const std::int32_t* s, int a, int p, int& error) {
    const auto& act = g_.actions[a];
    if (ctl_.turn_uses[a] >= 0 && s[ctl_.turn_uses[a] + p] >= act.limit.per_turn) return 0;
    if (ctl_.window_uses[a] >= 0 && s[ctl_.window_uses[a] + p] >= act.limit.per_window) return 0;
    if (act.play_kind >= 0 &&
        (g_.hand_zone < 0 || s[zone_slot(g_.hand_zone, p, act.play_kind)] < 1)) {
      return 0;
    }
    const bool holds = test(p_.action_guard[a], s, sc_.aux_binders.data(), p, error);
    if (error >= 0) return -1;
    return holds ? 1 : 0;
  }

  void run_move(const Move& m) {
    std::memcpy(w_, before_, fields_ * sizeof(std::int32_t));
    std::fill(dirty_, dirty_ + dirty_words_, 0);
    move_ = m;
    picker_ = -1;
    nature_ = false;
    progress_ = false;
    if (m.gap >= 0) return gap(m.gap);
    switch (m.kind) {
      case MoveKind::trigger:
      case MoveKind::decline:
        set(ctl_.pending[m.ref] + m.player, 0);
        if (m.kind == MoveKind::decline) return emit();
        return run_effect(p_.trigger_effect[m.ref], m.player, Tail::emit);
      case MoveKind::start:
        return enter(0, false, true);
      case MoveKind::effects:
        return run_step_do();
      case MoveKind::advance:
        return advance();
      case MoveKind::enter: {
        const int target = get(w_, ctl_.target);
        const bool new_turn = get(w_, ctl_.new_turn) != 0;
        set(ctl_.target, 0);
        set(ctl_.new_turn, 0);
        return enter(target, new_turn, false);
      }
      case MoveKind::action:
        return take_action();
      case MoveKind::pass:
      case MoveKind::resolve:
        return pass();
    }
  }

  int fire(int event) {
    if (event < 0) return -1;
    const int active = w_[ctl_.active];
    const int players = p_.prep.players;
    for (int t : p_.prep.triggers_by_event[event]) {
      const int base = ctl_.pending[t];
      if (base < 0) continue;
      const auto& trig = g_.triggers[t];
      for (int i = 0; i < players; ++i) {
        const int c = (active + i) % players;
        if (!p_.prep.covers(trig.controller, c, active) || w_[base + c] != 0) continue;
        int error = -1;
        const bool holds = test(p_.trigger_condition[t], w_, sc_.aux_binders.data(), c, error);
        if (error >= 0) return error;
        if (holds) set(base + c, 1);
      }
    }
    return -1;
  }

  void enter(int target, bool new_turn, bool start) {
    const int from_phase = start ? -1 : p_.prep.step_phase(w_[ctl_.step]);
    if (new_turn) {
      set(ctl_.active, next_player(w_[ctl_.active]));
      set(ctl_.turn, std::min(std::max(1, g_.scope.turns), w_[ctl_.turn] + 1));
      for (int base : ctl_.turn_uses) {
        if (base >= 0) clear_players(base);
      }
    }
    const int phase = p_.prep.step_phase(target);
    int site = -1;
    if (new_turn || start) site = fire(p_.prep.begin_turn_event);
    if (site < 0 && (new_turn || start || phase != from_phase)) {
      site = fire(g_.phases[phase].begin_event);
    }
    if (site < 0) site = fire(g_.steps[target].begin_event);
    if (site >= 0) return gap(site);
    set(ctl_.step, target);
    set(ctl_.stage, static_cast<std::int32_t>(Stage::pre));
    progress_ = true;
    if (any_pending()) return emit();
    run_step_do();
  }

  [[nodiscard]] bool any_pending() const {
    std::int32_t any = 0;  // the flags are one run of fields (Program::pending_first)
    for (int f = 0; f < p_.pending_fields; ++f) any |= w_[p_.pending_first + f];
    return any != 0;
  }

  void run_step_do() {
    run_effect(p_.step_effect[w_[ctl_.step]], w_[ctl_.active], Tail::after_step_do);
  }

  void advance() {
    const int step = w_[ctl_.step];
    const auto& st = g_.steps[step];
    const int active = w_[ctl_.active];
    int error = -1;
    int target = step;
    bool new_turn = false;
    const bool repeat = p_.step_repeat[step] >= 0 &&
                        test(p_.step_repeat[step], w_, sc_.aux_binders.data(), active, error);
    if (!repeat && error < 0) {
      const bool end_turn = p_.step_end_turn[step] >= 0 &&
                            test(p_.step_end_turn[step], w_, sc_.aux_binders.data(), active, error);
      new_turn = end_turn || step + 1 == static_cast<int>(g_.steps.size());
      target = new_turn ? 0 : step + 1;
    }
    if (error >= 0) return gap(error);
    const int phase = st.phase;
    int site = fire(st.end_event);
    if (site < 0 && (new_turn || p_.prep.step_phase(target) != phase)) {
      site = fire(g_.phases[phase].end_event);
    }
    if (site < 0 && new_turn) site = fire(p_.prep.end_turn_event);
    if (site >= 0) return gap(site);
    if (any_pending()) {
      set(ctl_.stage, static_cast<std::int32_t>(Stage::leaving));
      set(ctl_.target, target);
      set(ctl_.new_turn, new_turn ? 1 : 0);
      return emit();
    }
    enter(target, new_turn, false);
  }

  bool open_window(int window) {
    const auto& win = g_.windows[window];
    const int active = w_[ctl_.active];
    set(ctl_.stage, static_cast<std::int32_t>(Stage::window));
    set(ctl_.holder, active);
    switch (win.protocol) {
      case Protocol::priority:
        return true;
      case Protocol::alternate: {
        const int site = handover(active == 0 ? p_.prep.players - 1 : active - 1);
        if (site >= 0) {
          gap(site);
          return false;
        }
        return true;
      }
      case Protocol::sequence: {
        std::size_t seat = 0;
        while (seat < win.order.size() && win.order[seat] == SequenceTurn::active_if_answered) {
          ++seat;
        }
        if (seat >= win.order.size()) {
          close_window();
          return true;
        }
        set(ctl_.seat, static_cast<std::int32_t>(seat));
        set(ctl_.holder, win.order[seat] == SequenceTurn::opponent ? next_player(active) : active);
        return true;
      }
    }
    return true;
  }

  void close_window() {
    set(ctl_.stage, static_cast<std::int32_t>(Stage::post));
    set(ctl_.holder, 0);
    set(ctl_.passes, 0);
    set(ctl_.acted, 0);
    set(ctl_.seat, 0);
    for (int base : ctl_.window_uses) {
      if (base >= 0) clear_players(base);
    }
  }

  int handover(int from) {
    const int window = g_.steps[w_[ctl_.step]].window;
    const int players = p_.prep.players;
    for (int i = 1; i <= players; ++i) {
      const int p = (from + i) % players;
      for (int a : candidates(w_, p, window)) {
        int error = -1;
        const int r = enabled(w_, a, p, error);
        if (r < 0) return error;
        if (r > 0) {
          set(ctl_.holder, p);
          return -1;
        }
      }
    }
    close_window();
    return -1;
  }

  void count_use(int a, int p) {
    if (ctl_.turn_uses[a] >= 0) set(ctl_.turn_uses[a] + p, w_[ctl_.turn_uses[a] + p] + 1);
    if (ctl_.window_uses[a] >= 0) set(ctl_.window_uses[a] + p, w_[ctl_.window_uses[a] + p] + 1);
  }

  void take_action() {
    const int a = move_.ref, h = move_.player;
    const auto& act = g_.actions[a];
    if (act.play_kind >= 0) {
      set(zone_slot(g_.hand_zone, h, act.play_kind),
          w_[zone_slot(g_.hand_zone, h, act.play_kind)] - 1);
      const int to = act.to_zone < 0 ? -1 : zone_slot(act.to_zone, h, act.play_kind);
      if (to >= 0) set(to, w_[to] + 1);
      if (to >= 0 && w_[to] > p_.slot_hi[to]) return gap(p_.prep.gaps.play_site[a]);
    }
    const int window = g_.steps[w_[ctl_.step]].window;
    switch (g_.windows[window].protocol) {
      case Protocol::priority:
        return run_effect(p_.action_cost[a], h, Tail::priority_cost);
      case Protocol::alternate:
        return run_effect(p_.action_cost[a], h, Tail::alternate_cost);
      case Protocol::sequence:
        return run_effect(p_.action_cost[a], h, Tail::sequence_cost);
    }
  }

  void pass() {
    const int h = move_.player;
    const int window = g_.steps[w_[ctl_.step]].window;
    const auto& win = g_.windows[window];
    switch (win.protocol) {
      case Protocol::priority: {
        if (get(w_, ctl_.passes) + 1 < p_.prep.players) {
          set(ctl_.holder, next_player(h));
          set(ctl_.passes, get(w_, ctl_.passes) + 1);
          return emit();
        }
        const int size = get(w_, ctl_.stack_size);
        if (size == 0) {
          close_window();
          return emit();
        }
        const int at = ctl_.stack_base + 2 * (size - 1);
        const int a = w_[at], c = w_[at + 1];
        set(at, 0);
        set(at + 1, 0);
        set(ctl_.stack_size, size - 1);
        return run_effect(p_.action_effect[a], c, Tail::resolve);
      }
      case Protocol::alternate: {
        const int site = handover(h);
        if (site >= 0) return gap(site);
        return emit();
      }
      case Protocol::sequence: {
        std::size_t seat = static_cast<std::size_t>(get(w_, ctl_.seat)) + 1;
        bool answered = get(w_, ctl_.acted) != 0;
        while (seat < win.order.size() && win.order[seat] == SequenceTurn::active_if_answered &&
               !answered) {
          ++seat;
          answered = false;
        }
        if (seat >= win.order.size()) {
          close_window();
          return emit();
        }
        const int active = w_[ctl_.active];
        set(ctl_.seat, static_cast<std::int32_t>(seat));
        set(ctl_.acted, 0);
        set(ctl_.holder, win.order[seat] == SequenceTurn::opponent ? next_player(active) : active);
        return emit();
      }
    }
  }

  void finish(Tail t) {
    const int a = move_.ref, h = move_.player;
    switch (t) {
      case Tail::emit:
        return emit();
      case Tail::after_step_do: {
        const int window = g_.steps[w_[ctl_.step]].window;
        if (window < 0) {
          set(ctl_.stage, static_cast<std::int32_t>(Stage::post));
          return emit();
        }
        if (open_window(window)) emit();
        return;
      }
      case Tail::priority_cost: {
        count_use(a, h);
        if (h == w_[ctl_.active]) set(ctl_.acted, 1);
        const auto& act = g_.actions[a];
        if (!act.answerable) return run_effect(p_.action_effect[a], h, Tail::priority_effect);
        const int size = get(w_, ctl_.stack_size);
        if (size >= ctl_.stack_capacity) return gap(p_.prep.gaps.push_site[a]);
        set(ctl_.stack_base + 2 * size, a);
        set(ctl_.stack_base + 2 * size + 1, h);
        set(ctl_.stack_size, size + 1);
        set(ctl_.holder, next_player(h));
        set(ctl_.passes, 0);
        return emit();
      }
      case Tail::priority_effect:
        set(ctl_.passes, 0);
        return emit();
      case Tail::alternate_cost:
      case Tail::sequence_cost:
        count_use(a, h);
        return run_effect(
            p_.action_effect[a], h,
            t == Tail::alternate_cost ? Tail::alternate_effect : Tail::sequence_effect);
      case Tail::alternate_effect: {
        const int site = handover(h);
        if (site >= 0) return gap(site);
        return emit();
      }
      case Tail::sequence_effect:
        set(ctl_.acted, 1);
        return emit();
      case Tail::resolve:
        set(ctl_.holder, w_[ctl_.active]);
        set(ctl_.passes, 0);
        return emit();
    }
  }

  // Whether this path wrote a field some end condition reads. When it did
  // not, the conditions come out as on the source, where none holds (every
  // state not over has passed the end checks: initial states after setup,
  // the others in emit()). The first move from an initial state checks all
  // the same, so that nothing hangs on how the initial states were made.
  [[nodiscard]] bool end_inputs_written() const {
    if (before_[ctl_.stage] == static_cast<std::int32_t>(Stage::start)) return true;
    std::uint64_t hit = 0;
    for (std::size_t i = 0; i < dirty_words_; ++i) hit |= dirty_[i] & p_.end_reads[i];
    return hit != 0;
  }

  void emit() {
    if (w_[ctl_.over] == 0 && !g_.end_conditions.empty() && end_inputs_written()) {
      const int active = w_[ctl_.active];
      const int players = p_.prep.players;
      for (std::size_t c = 0; c < g_.end_conditions.size(); ++c) {
        const auto& end = g_.end_conditions[c];
        for (int i = 0; i < players; ++i) {
          const int p = (active + i) % players;
          if (!p_.prep.covers(end.who, p, active)) continue;
          int error = -1;
          const bool holds = test(p_.end_condition[c], w_, sc_.aux_binders.data(), p, error);
          if (error >= 0) return gap(error);
          if (!holds) continue;
          set(ctl_.over, 1);
          return output(w_);
        }
      }
    }
    output(w_);
  }

  void gap(int site) {
    if (site < 0 || site >= static_cast<int>(p_.prep.gaps.sites.size())) {
      throw std::logic_error("loophole: internal error: a rule failed outside every gap site");
    }
    std::int32_t* g = sc_.gap_state.data();
    std::memcpy(g, before_, fields_ * sizeof(std::int32_t));
    g[ctl_.over] = 2;
    put(g, ctl_.gap, site + 1);
    std::uint64_t* d = sc_.gap_dirty.data();
    std::fill(d, d + dirty_words_, 0);
    mark(d, ctl_.over);
    if (ctl_.gap >= 0) mark(d, ctl_.gap);
    output(g, d);
  }

  void output(const std::int32_t* state) { output(state, dirty_); }
  void output(const std::int32_t* state, const std::uint64_t* dirty) {
    MoveInfo m;
    m.kind = move_.kind;
    m.player = static_cast<std::int8_t>(move_.player);
    m.ref = move_.ref;
    m.progress = progress_ && state[ctl_.over] != 2;
    if (mover_choice_) {
      m.chooser = Chooser::player;
      m.chooser_player = static_cast<std::int8_t>(move_.player);
    } else if (picker_ >= 0) {
      m.chooser = Chooser::player;
      m.chooser_player = static_cast<std::int8_t>(picker_);
    } else if (nature_) {
      m.chooser = Chooser::nature;
    }
    if (out_.wrote_packed) {
      out_.pack_with->pack_fields(out_.pack_base, state, dirty, out_.add_packed(m));
      return;
    }
    std::memcpy(out_.add(m), state, fields_ * sizeof(std::int32_t));
    std::memcpy(out_.dirty_of(out_.count - 1), dirty, dirty_words_ * sizeof(std::uint64_t));
  }

  // --- effects (effects.cpp) -----------------------------------------------

  void run_effect(int program, int self, Tail tail) {
    self_ = self;
    if (program < 0) return finish(tail);
    const std::size_t base = sc_.frames.size();
    int pc = program;
    const SIns* code = p_.scode.data();
    for (;;) {
      const SIns& i = code[pc];
      bool alive = true;  // false: this path emitted its successor
      switch (i.op) {
        case S::assign: {
          int error = -1;
          int slot = i.a;
          if (slot < 0) {
            // A player's slot (`life[self]`, `f_hit[next(self)]`) without a call.
            const XIns& t = p_.xcode[static_cast<std::size_t>(i.b)];
            slot = t.single && t.op == X::rel_slot ? rel_slot(t, w_, sc_.binders.data(), self_)
                                                   : static_cast<int>(value(i.b, error));
          }
          const XIns& c = p_.xcode[static_cast<std::size_t>(i.c)];
          const std::int64_t v = error >= 0                     ? 0
                                 : c.single && c.op == X::konst ? c.k
                                                                : value(i.c, error);
          if (error >= 0) {
            gap(error);
            alive = false;
            break;
          }
          const std::int64_t cur = w_[slot];
          const auto op = static_cast<model::Op>(i.d);
          const std::int64_t nv = op == model::Op::add   ? cur + v
                                  : op == model::Op::sub ? cur - v
                                                         : v;
          if (nv < p_.slot_lo[slot] || nv > p_.slot_hi[slot]) {
            gap(i.e);
            alive = false;
            break;
          }
          set(slot, static_cast<std::int32_t>(nv));
          ++pc;
          break;
        }
        case S::jump_if_not: {
          int error = -1;
          const bool holds = test(i.a, w_, sc_.binders.data(), self_, error);
          if (error >= 0) {
            gap(error);
            alive = false;
            break;
          }
          pc = holds ? pc + 1 : i.b;
          break;
        }
        case S::jump:
          pc = i.b;
          break;
        case S::for_begin: {
          if (domain_size(i.a, self_) == 0) {
            pc = i.b;
            break;
          }
          sc_.regs[i.d] = 0;
          sc_.binders[i.c] = domain_value(i.a, 0, self_);
          ++pc;
          break;
        }
        case S::for_next: {
          const int next = sc_.regs[i.d] + 1;
          if (next >= domain_size(i.a, self_)) {
            ++pc;
            break;
          }
          sc_.regs[i.d] = next;
          sc_.binders[i.c] = domain_value(i.a, next, self_);
          pc = i.b;
          break;
        }
        case S::choose:
          alive = choose(i, pc);
          break;
        case S::draw:
          alive = draw(i, pc);
          break;
        case S::move:
          alive = move(i, pc);
          break;
        case S::fire: {
          const int site = fire(i.a);
          if (site >= 0) {
            gap(site);
            alive = false;
            break;
          }
          ++pc;
          break;
        }
        case S::end: {
          int error = -1;
          value(i.a, error);
          if (error >= 0) {
            gap(error);
          } else {
            set(ctl_.over, 1);
            output(w_);
          }
          alive = false;
          break;
        }
        case S::negate: {
          const int size = get(w_, ctl_.stack_size);
          if (size > 0) {
            const int at = ctl_.stack_base + 2 * (size - 1);
            if (g_.actions[w_[at]].negatable) {
              set(at, 0);
              set(at + 1, 0);
              set(ctl_.stack_size, size - 1);
            }
          }
          ++pc;
          break;
        }
        case S::no_zones: {
          int error = -1;
          value(i.a, error);
          if (error < 0) value(i.b, error);
          if (error >= 0) {
            gap(error);
            alive = false;
            break;
          }
          throw std::logic_error(
              "loophole: internal error: draw() without zones 'deck' and 'hand'");
        }
        case S::done:
          finish(tail);
          alive = false;
          break;
      }
      if (alive) continue;
      // Backtrack to the latest choice point of this effect with an outcome left.
      for (;;) {
        if (sc_.frames.size() == base) return;
        Frame& f = sc_.frames.back();
        if (f.next >= f.count) {
          sc_.frames.pop_back();
          continue;
        }
        const std::size_t depth = sc_.frames.size() - 1;
        restore(depth);
        const int o = f.next++;
        if (apply(f, sc_.saves[depth].outcomes.data() + static_cast<std::size_t>(o) * f.width)) {
          pc = f.resume;
          break;
        }
      }
    }
  }

  // Saves everything an outcome may change as the newest frame's start.
  void push_frame(const Frame& f, const std::vector<std::int32_t>& outcomes) {
    const std::size_t depth = sc_.frames.size();
    sc_.frames.push_back(f);
    if (sc_.saves.size() <= depth) sc_.saves.resize(depth + 1);
    FrameSave& s = sc_.saves[depth];
    s.state.assign(w_, w_ + fields_);
    s.dirty.assign(dirty_, dirty_ + dirty_words_);
    s.binders = sc_.binders;
    s.regs = sc_.regs;
    s.outcomes = outcomes;
    s.self = self_;
    s.picker = picker_;
    s.nature = nature_;
    s.progress = progress_;
  }

  void restore(std::size_t depth) {
    const FrameSave& s = sc_.saves[depth];
    std::memcpy(w_, s.state.data(), fields_ * sizeof(std::int32_t));
    std::copy(s.dirty.begin(), s.dirty.end(), dirty_);
    std::copy(s.binders.begin(), s.binders.end(), sc_.binders.begin());
    std::copy(s.regs.begin(), s.regs.end(), sc_.regs.begin());
    self_ = s.self;
    picker_ = s.picker;
    nature_ = s.nature;
    progress_ = s.progress;
  }

  // Starts outcome `o` of a choice point; false when it ended the path (a gap).
  bool apply(const Frame& f, const std::int32_t* o) {
    const SIns& i = p_.scode[f.ins];
    const bool many = f.count > 1;
    switch (i.op) {
      case S::choose: {
        sc_.binders[i.c] = domain_value(i.a, o[0], self_);
        if (many) {
          if (i.e == 0) nature_ = true;
          if (i.e != 0 && picker_ < 0) picker_ = self_;
        }
        return true;
      }
      case S::draw: {
        const int deck_base = static_cast<int>(f.aux), hand_base = static_cast<int>(f.aux2);
        bool overfull = false;
        for (int k = 0; k < p_.prep.kinds; ++k) {
          set(deck_base + k, w_[deck_base + k] - o[k]);
          set(hand_base + k, w_[hand_base + k] + o[k]);
          overfull = overfull || w_[hand_base + k] > p_.slot_hi[hand_base + k];
        }
        if (many) nature_ = true;
        if (overfull) {
          gap(i.e + 1);
          return false;
        }
        return true;
      }
      case S::move: {
        const int from_base = static_cast<int>(f.aux), to_base = static_cast<int>(f.aux2);
        bool overfull = false;
        for (int k = 0; k < p_.prep.kinds; ++k) {
          set(from_base + k, w_[from_base + k] - o[k]);
          set(to_base + k, w_[to_base + k] + o[k]);
        }
        for (int k = 0; k < p_.prep.kinds; ++k) {
          overfull = overfull || w_[to_base + k] > p_.slot_hi[to_base + k];
        }
        if (many && picker_ < 0) picker_ = self_;
        if (overfull) {
          gap(i.e + 1);
          return false;
        }
        return true;
      }
      default:
        return true;
    }
  }

  // Runs the first outcome of a choice point (keeping a frame for the others);
  // false when the path ended.
  bool start_choice(Frame f, int pc) {
    f.resume = pc;
    f.next = 1;
    if (f.count > 1) {
      push_frame(f, sc_.outcomes);
      return apply(f, sc_.saves[sc_.frames.size() - 1].outcomes.data());
    }
    return apply(f, sc_.outcomes.data());
  }

  bool choose(const SIns& i, int& pc) {
    const int n = domain_size(i.a, self_);
    sc_.outcomes.clear();
    for (int k = 0; k < n; ++k) {
      sc_.binders[i.c] = domain_value(i.a, k, self_);
      int error = -1;
      const bool ok = test(i.d, w_, sc_.binders.data(), self_, error);
      if (error >= 0) {
        gap(error);
        return false;
      }
      if (ok) sc_.outcomes.push_back(k);
    }
    if (sc_.outcomes.empty()) {
      pc = i.b;
      return true;
    }
    Frame f;
    f.ins = pc;
    f.count = static_cast<int>(sc_.outcomes.size());
    f.width = 1;
    ++pc;
    return start_choice(f, pc);
  }

  // Every count vector c with 0 <= c[k] <= avail[k] and sum c == n, in
  // lexicographic order (the last kind varying fastest), into sc_.outcomes.
  void multisets(const std::int32_t* avail, std::int64_t n) {
    const int kinds = p_.prep.kinds;
    sc_.outcomes.clear();
    sc_.suffix.assign(static_cast<std::size_t>(kinds) + 1, 0);
    for (int k = kinds - 1; k >= 0; --k) sc_.suffix[k] = sc_.suffix[k + 1] + avail[k];
    sc_.counts.assign(static_cast<std::size_t>(kinds), 0);
    multisets_from(0, n, avail);
  }
  void multisets_from(int k, std::int64_t rem, const std::int32_t* avail) {
    const int kinds = p_.prep.kinds;
    std::int32_t* cur = sc_.counts.data();
    if (k == kinds) {
      if (rem == 0) sc_.outcomes.insert(sc_.outcomes.end(), cur, cur + kinds);
      return;
    }
    const std::int64_t lo = std::max<std::int64_t>(0, rem - sc_.suffix[k + 1]);
    const std::int64_t hi = std::min<std::int64_t>(avail[k], rem);
    for (std::int64_t c = lo; c <= hi; ++c) {
      cur[k] = static_cast<std::int32_t>(c);
      multisets_from(k + 1, rem - c, avail);
    }
    cur[k] = 0;
  }

  bool draw(const SIns& i, int& pc) {
    int error = -1;
    const int player = static_cast<int>(value(i.a, error));
    const std::int64_t n = error >= 0 ? 0 : value(i.b, error);
    if (error >= 0) {
      gap(error);
      return false;
    }
    if (n < 0) {
      gap(i.e + 1);
      return false;
    }
    const int deck_base = zone_slot(g_.deck_zone, player, 0);
    const int hand_base = zone_slot(g_.hand_zone, player, 0);
    std::int64_t held = 0;
    for (int k = 0; k < p_.prep.kinds; ++k) held += w_[deck_base + k];
    if (held < n) {
      gap(i.e);
      return false;
    }
    if (n == 0) {
      ++pc;
      return true;
    }
    multisets(w_ + deck_base, n);
    Frame f;
    f.ins = pc;
    f.width = p_.prep.kinds;
    f.count = static_cast<int>(sc_.outcomes.size() / static_cast<std::size_t>(f.width));
    f.aux = deck_base;
    f.aux2 = hand_base;
    ++pc;
    return start_choice(f, pc);
  }

  bool move(const SIns& i, int& pc) {
    const bool chosen = i.f < 0;
    int error = -1;
    const int from_owner = i.b < 0 ? -1 : static_cast<int>(value(i.b, error));
    const int to_owner = i.d < 0 || error >= 0 ? -1 : static_cast<int>(value(i.d, error));
    const std::int64_t kind = chosen || error >= 0 ? -1 : value(i.f, error);
    const std::int64_t n = error >= 0 ? 0 : value(i.g, error);
    if (error >= 0) {
      gap(error);
      return false;
    }
    if (n < 0) {
      gap(i.e + 1);
      return false;
    }
    const int kinds = p_.prep.kinds;
    const int from_base = zone_slot(i.a, from_owner, 0);
    const int to_base = zone_slot(i.c, to_owner, 0);
    std::int64_t held = 0;
    if (chosen) {
      for (int k = 0; k < kinds; ++k) held += w_[from_base + k];
    } else {
      held = w_[from_base + kind];
    }
    if (held < n) {
      gap(i.e);
      return false;
    }
    if (n == 0) {
      ++pc;
      return true;
    }
    if (chosen) {
      multisets(w_ + from_base, n);
    } else {
      sc_.outcomes.assign(static_cast<std::size_t>(kinds), 0);
      sc_.outcomes[kind] = static_cast<std::int32_t>(n);
    }
    Frame f;
    f.ins = pc;
    f.width = kinds;
    f.count = static_cast<int>(sc_.outcomes.size() / static_cast<std::size_t>(kinds));
    f.aux = from_base;
    f.aux2 = to_base;
    ++pc;
    return start_choice(f, pc);
  }

  const CompiledSystem::Program& p_;
  const model::Game& g_;
  const semantics::Controls& ctl_;
  Scratch& sc_;
  FlatSuccessors& out_;
  std::size_t fields_ = 0;
  std::size_t dirty_words_ = 0;
  std::int32_t* w_ = nullptr;
  std::uint64_t* dirty_ = nullptr;  // bit i: field i was written on this path
  const std::int32_t* before_ = nullptr;
  Move move_;
  bool mover_choice_ = false;
  int self_ = -1;
  int picker_ = -1;
  bool nature_ = false;
  bool progress_ = false;
};

}  // namespace

CompiledSystem::CompiledSystem(const Semantics& sem)
    : sem_(sem), prog_(std::make_unique<Program>(sem.game())) {
  compile(*prog_);
}

CompiledSystem::~CompiledSystem() = default;

namespace {

constexpr const char* op_names[] = {
    "konst",     "load",     "self",        "top",        "next_player", "var_dyn",  "var_slot",
    "zone_kind", "zone_dyn", "zone_sum",    "zone_range", "bound",       "not",      "neg",
    "add",       "sub",      "mul",         "div",        "mod",         "eq",       "ne",
    "lt",        "le",       "gt",          "ge",         "to_bool",     "and_jump", "or_jump",
    "jump_if0",  "jump",     "quant_begin", "quant_step", "abs",         "min",      "max",
    "clamp",     "rel",      "rel_slot",    "cmp_k",      "ret"};
static_assert(std::size(op_names) == static_cast<std::size_t>(X::ret) + 1);

const char* cmp_name(Cmp c) {
  switch (c) {
    case Cmp::none:
      return "";
    case Cmp::lt:
      return "lt";
    case Cmp::eq:
      return "eq";
    case Cmp::le:
      return "le";
    case Cmp::gt:
      return "gt";
    case Cmp::ne:
      return "ne";
    case Cmp::ge:
      return "ge";
  }
  return "?";
}

const char* then_name(Then t) {
  switch (t) {
    case Then::push:
      return "push";
    case Then::add:
      return "add";
    case Then::sub:
      return "sub";
    case Then::cmp:
      return "cmp";
    case Then::and_:
      return "and";
    case Then::or_:
      return "or";
  }
  return "?";
}

// What an instruction exercises: its op; for rel and rel_slot where the
// player comes from and whether it is a next one; a leaf's fusion with a
// constant comparison or with what follows; the one-leaf path; cmp_k's
// comparison.
void features(const XIns& x, std::vector<std::string>& out) {
  const std::string op = op_names[static_cast<std::size_t>(x.op)];
  out.push_back(op);
  if (x.op == X::rel || x.op == X::rel_slot) {
    out.push_back(op + (x.d >= 0 ? " slot" : x.d == -1 ? " self" : " binder"));
    if (x.c > 0) out.push_back(op + " next");
  }
  if (x.op == X::cmp_k) out.push_back(op + " " + cmp_name(x.cmp));
  if (x.single) out.push_back("single " + op);
  if (x.then == Then::push && x.cmp != Cmp::none && x.op != X::cmp_k) out.push_back(op + " cmp");
  if (x.then != Then::push) out.push_back(op + " then " + then_name(x.then));
}

}  // namespace

std::vector<std::string> CompiledSystem::instruction_forms() const {
  std::vector<std::string> out;
  for (const XIns& x : prog_->xcode) features(x, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> CompiledSystem::all_instruction_forms() {
  std::vector<std::string> out(std::begin(op_names), std::end(op_names));
  for (const char* op : {"rel", "rel_slot"}) {
    for (const char* f : {" slot", " self", " binder", " next"}) out.push_back(std::string(op) + f);
  }
  for (const char* c : {"lt", "eq", "le", "gt", "ne", "ge"})
    out.push_back(std::string("cmp_k ") + c);
  for (const char* op : {"konst", "load", "bound", "rel", "rel_slot", "self", "top"}) {
    out.push_back(std::string("single ") + op);
  }
  for (const char* op : {"load", "bound", "rel", "self", "top"})
    out.push_back(std::string(op) + " cmp");
  out.emplace_back("self then cmp");  // p == self
  for (const char* op : {"load", "bound", "rel"}) {
    for (const char* t : {"add", "sub", "cmp", "and", "or"}) {
      out.push_back(std::string(op) + " then " + t);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void CompiledSystem::successors_flat(const std::int32_t* state, FlatSuccessors& out) const {
  // No dynamic_cast per state: only a Program marks a scratch as its own.
  auto* sc = out.scratch != nullptr && out.scratch->owner == prog_.get()
                 ? static_cast<Scratch*>(out.scratch.get())
                 : nullptr;
  if (sc == nullptr) {
    out.scratch = std::make_unique<Scratch>();
    sc = static_cast<Scratch*>(out.scratch.get());
  }
  Runner run(*prog_, *sc, out);
  run.successors(state);
}

void CompiledSystem::successors(const StateVec& state, std::vector<Successor>& out) const {
  thread_local FlatSuccessors flat;
  flat.fields = state.size();
  successors_flat(state.data(), flat);
  out.resize(flat.count);
  for (std::size_t i = 0; i < flat.count; ++i) {
    Successor& o = out[i];
    const MoveInfo& m = flat.moves[i];
    o.state.assign(flat.state(i), flat.state(i) + flat.fields);
    o.kind = m.kind;
    o.player = m.player;
    o.ref = m.ref;
    o.chooser = m.chooser;
    o.chooser_player = m.chooser_player;
    o.progress = m.progress;
    o.choices.clear();
    o.notes.clear();
  }
}

}  // namespace loophole::checker
