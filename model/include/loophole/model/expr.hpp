// Expressions and statements of the rules language. The parser builds these
// trees with names unresolved (ExprKind::name, Stmt callee names); the checker
// resolves every name in place, sets every node's type and folds params to
// constants. After a successful check no `name` node remains, so engines see
// a closed, typed IR and never look up strings.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loophole/model/source.hpp"

namespace loophole::model {

enum class BaseType : std::uint8_t { error, int_, bool_, enum_, player, kind, action };

struct Type {
  BaseType base = BaseType::error;
  int enum_id = -1;  // for BaseType::enum_
  friend bool operator==(const Type&, const Type&) = default;
  static Type int_() { return {BaseType::int_, -1}; }
  static Type bool_() { return {BaseType::bool_, -1}; }
  static Type player() { return {BaseType::player, -1}; }
  static Type kind() { return {BaseType::kind, -1}; }
  static Type action() { return {BaseType::action, -1}; }
  static Type enum_of(int id) { return {BaseType::enum_, id}; }
  // `turn_order`, whose values are the built-in `forward` (0) and `reversed` (1).
  static constexpr int turn_order_enum = -2;
  static Type turn_order() { return {BaseType::enum_, turn_order_enum}; }
};

enum class ExprKind : std::uint8_t {
  // produced by the parser, gone after checking
  name,   // identifier `text`; args empty
  index,  // args[0][args[1]]            (resolved into var/zone)
  field,  // args[0].text                (resolved into var, or enum `status.ready`)
  call,   // text(args...)               (resolved into the kinds below)
  // literals and constants (after checking)
  int_lit,     // value
  bool_lit,    // value 0/1
  enum_lit,    // type.enum_id, value = index of the enum value
  player_lit,  // value = player index (P1 = 0)
  kind_lit,    // value = kind id
  action_lit,  // value = action id
  // built-in state
  active,
  opponent,
  self,
  turn_number,
  stack_size,
  top_action,
  top_controller,
  next_player,  // args[0] player
  // the stack entry at position args[0] (0 = bottom): its action (value 0) or
  // controller (value 1); 0 when no entry is there
  stack_entry,
  action_speed,  // the declared speed of the action args[0]
  prev_player,   // args[0] player: the player before it in the current turn order
  turn_order,    // the current turn order: enum_lit of Type::turn_order(), forward 0, reversed 1
  // variables: ref = VarDecl id; args = [player index expr if per player]
  // [array index expr if array]; field = record field index (0 if not a record)
  var,
  // zone counts: ref = zone id; args[0] = owner (player) if the zone is per player;
  // value = kind id, or -1 for all kinds; tag = tag id (when value == -2);
  // value == -3: the kind is computed, args.back() is a kind-typed expression
  // (e.g. `count(hand[p], k)` with `k` bound over `kinds`)
  zone_count,
  bound,    // a quantifier/for/choose/pick variable: ref = binder slot number
  unary,    // op, args[0]
  binary,   // op, args[0], args[1]
  cond,     // args[0] ? args[1] : args[2]
  quant,    // op (exists/forall/count/sum), ref = binder slot, domain, args[0] = body
  builtin,  // op (min/max/abs/clamp), args
};

enum class Op : std::uint8_t {
  none,
  neg,
  not_,
  add,
  sub,
  mul,
  div,
  mod,
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  and_,
  or_,
  exists,
  forall,
  count,
  sum,
  min,
  max,
  abs,
  clamp,
};

// A domain to range over: players, others (all but self), a constant int
// range, the values of an enum, all card kinds, or the kinds with a tag.
struct Domain {
  enum class Kind : std::uint8_t { players, others, range, enum_values, kinds, kinds_tagged };
  Kind kind = Kind::range;
  std::int64_t lo = 0, hi = -1;    // range (after folding); for enum_values: 0..n-1
  int ref = -1;                    // enum id or tag id
  struct Expr* lo_expr = nullptr;  // unfolded bounds as parsed (owned by the binder node)
  struct Expr* hi_expr = nullptr;
  std::string text;  // as written, for diagnostics
  SourceSpan where;  // the domain as written (the parser sets it)
  [[nodiscard]] Type element_type() const;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  ExprKind kind = ExprKind::int_lit;
  Op op = Op::none;
  Type type;
  SourceSpan where;
  std::int64_t value = 0;
  int ref = -1;
  int field = 0;
  int tag = -1;
  std::string text;  // identifier / field / callee name as written
  std::vector<ExprPtr> args;
  Domain domain;                       // for quant
  std::vector<ExprPtr> domain_bounds;  // owns lo/hi exprs of a range domain before folding
};

enum class StmtKind : std::uint8_t {
  block,      // body
  assign,     // target (a var expr), op (none = :=, add = +=, sub = -=), value
  if_,        // conds[i] -> bodies[i]; bodies.size() == conds.size() + 1 when there is an else
  for_,       // binder over domain, body[0]
  choose,     // nature's choice: binder over domain where cond, bodies[0]
  pick,       // a player's choice: same shape as choose; args[0], when present, is the
              // chooser (`by P`, a player expression), else the acting player
  draw,       // args[0] player, args[1] count
  move_kind,  // args: from zone_count expr, to zone_count expr, kind expr, count
  move_any,   // args: from, to, count (kinds chosen by the acting player)
  fire,       // ref = event id; args = the event's arguments, in order
  win,
  lose,  // args[0] player
  negate,
  reverse_order,  // reverse_turn_order(): the turn order flips
  skip_next,      // skip_next(): the next passing of the turn skips a player
  shuffle,        // args[0] zone (no effect)
  skip,
  call,  // parser only: text(args) before the checker classifies it
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
  StmtKind kind = StmtKind::skip;
  Op op = Op::none;
  SourceSpan where;
  std::string text;             // callee / binder name as written
  int ref = -1;                 // event id (fire), binder slot (for/choose/pick)
  ExprPtr target;               // assign
  ExprPtr value;                // assign
  std::vector<ExprPtr> args;    // calls; pick: the chooser of `by P`
  std::vector<ExprPtr> conds;   // if; choose/pick `where` (conds[0], may be absent)
  std::vector<StmtPtr> bodies;  // if branches, loop body, block statements
  Domain domain;                // for/choose/pick
  std::vector<ExprPtr> domain_bounds;
};

// Parses one expression / statement list written inside a YAML scalar.
// Positions inside the string are mapped to the file through `origin`.
// On a syntax error the sink gets a diagnostic and the result is nullptr.
class DiagnosticSink;
ExprPtr parse_expr(std::string_view text, const TextOrigin& origin, DiagnosticSink& sink);
StmtPtr parse_stmts(std::string_view text, const TextOrigin& origin, DiagnosticSink& sink);

// The value of a checked expression made only of constants: literals,
// arithmetic, comparisons, `and`/`or` (decided by the left operand, or
// both known), conditionals and min/max/abs/clamp; and binders, where
// `bound` knows their value (by slot; absent: a binder is no constant).
// nullopt for anything else and for what would fail at run time (division
// by zero, overflow), with the reason in `why` when given.
std::optional<std::int64_t> fold_constant(
    const Expr& e, const std::function<std::optional<std::int64_t>(int slot)>& bound = {},
    std::string* why = nullptr);
// One operator of a unary, binary or builtin node applied to constant
// operands, as fold_constant applies it (`and`/`or` on both operands):
// nullopt for a zero divisor or a result beyond 64 bits, the reason in `why`.
std::optional<std::int64_t> fold_operation(Op op, const std::vector<std::int64_t>& operands,
                                           std::string* why = nullptr);

// The operator as written in the language ("+", "and", "exists", "clamp");
// "none" for Op::none.
std::string_view to_string(Op op);

// Debug/golden printer: a canonical S-expression of the tree.
std::string to_string(const Expr& e);
std::string to_string(const Stmt& s);

}  // namespace loophole::model
