// The compiled successor generator's programs (see compiled.hpp): the
// instruction sets of its expression and statement machines, and what a
// Game compiles to. compiled_compile.cpp builds them (Compiler),
// compiled.cpp runs them (Runner). Internal to the explicit engine.
#pragma once

#include <cstdint>
#include <vector>

#include "loophole/checker/lowered.hpp"
#include "loophole/checker/moves.hpp"
#include "loophole/checker/trace.hpp"
#include "loophole/model/roles.hpp"

#include "compiled.hpp"
#include "native.hpp"

namespace loophole::checker {

namespace compiled_ir {

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
  var_dyn,      // a place (lowered::Place) known at run time: pops [player] [index]; a base
                // slot, b player stride (-1: no player), c index bound (0: no index), d index
                // stride*2^16 + field offset, k site of an index out of range; push s[slot]
  var_slot,     // the same, pushes the slot
  zone_dyn,     // pops owner, kind; push s[a + owner * b + kind]
  zone_sum,     // pops owner; sum of s[a + owner * b + kinds[d][i]], c = list length
  zone_range,   // pops owner; sum of s[a + owner * b + 0..c-1]
  bound,        // push binders[a]
  not_,
  neg,
  add,
  sub,
  mul,
  div,  // a site of a zero divisor, b of INT64_MIN / -1 (no_site: outside the rules)
  mod,  // the same
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
  quant_step,   // a binder, b domain, c op, d body start; j a sum's overflow site, or -1
  abs,
  min,
  max,
  clamp,
  rel,       // push s[a + ((P + c) % players) * b], a player's slot; P = s[d] (d >= 0), self
             // (d == -1) or binders[-2 - d]
  rel_slot,  // the same, pushes the slot
  cmp_k,     // top = top <cmp> k
  checked,   // c a model::Op (add, sub, mul; neg, abs on the top): failing at site a when
             // the result leaves 64 bits (only where gaps.cpp found that it can)
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

// What the expression loop dispatches on (XIns::dispatch): the op, or for
// a leaf other than konst one code per kind of leaf and Then, so that one
// jump reaches the code that pushes or fuses the value (a second branch on
// `then`, or on where a rel's player comes from, mispredicted as often as
// the jump). The leaves: load, bound, rel (player from a field or binder),
// rel from self, rel_slot, self, top.
enum Leaf : int {
  leaf_load,
  leaf_bound,
  leaf_rel,
  leaf_rel_self,
  leaf_rel_slot,
  leaf_self,
  leaf_top
};
constexpr int fused_leaves = leaf_top + 1;
constexpr int fused_base = static_cast<int>(X::ret) + 1;
constexpr int fused_code(int leaf, Then t) { return fused_base + leaf * 6 + static_cast<int>(t); }
constexpr int dispatch_codes = fused_base + fused_leaves * 6;
static_assert(dispatch_codes <= 256);

struct XIns {
  X op = X::ret;
  Cmp cmp = Cmp::none;  // konst excepted: compare the pushed value with k
  Then then = Then::push;
  bool single = false;        // this instruction and ret are the whole program
  std::uint8_t dispatch = 0;  // set by compile(), from op, then and d
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
  // (assign .. bind, the straight statements, first: native code runs them.)
  assign,       // a const slot or -1, b slot expr, c value expr, d op, e site
  jump_if_not,  // a expr, b target
  jump,         // b target
  for_begin,    // a domain, b end, c binder, d register
  for_next,     // a domain, b body, c binder, d register
  bind,         // binder c = a (a turn of an unrolled `for`)
  choose,       // a domain, b skip target, c binder, d where expr or -1, e chooser: 0
                // nature, 1 the acting player, 2 + x the player of expr x (`by`),
                // f -1 or lists[f]: the where expr per value of the domain (-1: true),
                // g -1 or lists[g]: where the body compiled for each value starts
  draw,         // a player expr, b count expr, c from zone, d from owner expr, -1 (shared)
                // or -2 (the player's), f to zone, e site
  move,         // a from zone, b from owner expr or -1, c to zone, d to owner expr or -1,
                // f kind expr or -1 (chosen), g count expr, e site
  fire,         // a event, b -1 or lists[b]: its argument expressions, e site (one outside
                // its declared range) or -1
  end,          // a player expr, b win
  negate,       // a position expr or -1 (the top)
  no_zones,     // draw without deck and hand: the reference's internal error
  done,         // the effect is over: continue the move after it
};

struct SIns {
  S op = S::done;
  std::int32_t a = -1, b = -1, c = -1, d = -1, e = -1, f = -1, g = -1;
};

// Reading and writing control fields that may be absent (index -1).
inline std::int32_t get(const std::int32_t* s, int index) { return index < 0 ? 0 : s[index]; }
inline void put(std::int32_t* s, int index, std::int32_t value) {
  if (index >= 0) s[index] = value;
}

}  // namespace compiled_ir

using namespace compiled_ir;  // the two files of the generator share these names

struct CompiledSystem::Program {
  explicit Program(const model::Game& g) : game(g), low(lowered::lower(g)) {}
  const std::uint64_t id = FlatSuccessors::Scratch::new_owner();  // owns the Scratch it sized
  const model::Game& game;  // the declarations: names, turn structure
  lowered::Lowered low;     // the rules, lowered: what compile() translates
  // Whether a role (relative to the active player, in turn order
  // `reversed` or not) covers player p.
  [[nodiscard]] bool covers(model::Role r, int p, int active, bool reversed = false) const {
    return model::covers(r, p, active, low.players, reversed);
  }
  [[nodiscard]] int step_phase(int step) const { return game.steps[step].phase; }
  std::vector<XIns> xcode;  // every expression program, each ended by ret
  std::vector<SIns> scode;  // every statement program, each ended by done
  std::vector<CDomain> domains;
  std::vector<std::vector<int>> lists;
  int registers = 0;  // `for` counters
  int binders = 0;
  std::vector<std::int32_t> slot_lo, slot_hi;  // every field (data slots first)
  // Per rule: program start (-1: none / always true).
  std::vector<int> setup_effect;
  std::vector<int> step_effect, step_repeat, step_end_turn;
  std::vector<int> action_guard, action_cost, action_effect;
  std::vector<int> trigger_condition, trigger_effect;
  std::vector<int> end_condition;
  // The window's actions in order that the action's `who` and the window's
  // roles and speeds let player active+rel take, at
  // candidates[(w * 4 + answering * 2 + acted) * players + rel].
  std::vector<std::vector<int>> candidates;
  // Every live trigger's pending flags, one contiguous run of fields (the
  // layout allocates them together): most states have none set.
  int pending_first = 0, pending_fields = 0;
  // The fields the end conditions read (with the active player, who decides
  // whose conditions are checked), one bit per field; all set when a
  // condition reads fields it names only at run time.
  std::vector<std::uint64_t> end_reads;
  // Per event: whether a live trigger listens (most events have none).
  std::vector<std::uint8_t> event_fires;
  // The per-turn and per-window use counters that exist (Controls keeps
  // one entry per action, -1 for none).
  std::vector<int> turn_use_bases, window_use_bases;
  // With --native (native.hpp): the programs as machine code. The
  // interpreter calls native_exprs[pc] for an expression program at
  // pc < native_expr_count, native_run for an effect's statements and
  // native_enabled for whether an action may be taken.
  std::shared_ptr<const NativeCode> native;
  NativeRun native_run = nullptr;
  NativeEnabled native_enabled = nullptr;
  const NativeExpr* native_exprs = nullptr;
  int native_expr_count = 0;
};

// Fills p from p.low, the lowered rules (compiled_compile.cpp).
void compile(CompiledSystem::Program& p);

// After compile(p): compiles more expressions (the analyses' conditions)
// into p.xcode, each from its lowered form (the root node of p.low.rules
// whose origin it is: a property's expression or `to`, a guard, a trigger
// or step condition, an end condition). The start of each one's program,
// -1 for a null expression (which holds), or no_program for one that is no
// lowered root or that the compiler does not handle.
constexpr int no_program = -2;
std::vector<int> compile_conditions(CompiledSystem::Program& p,
                                    const std::vector<const model::Expr*>& exprs);

// Semantics::enabled_actions on p's generator; `scratch` as in
// successors_flat (compiled.cpp).
void enabled_actions(const CompiledSystem::Program& p, const std::int32_t* state,
                     FlatSuccessors& scratch, std::vector<int>& out);

}  // namespace loophole::checker
