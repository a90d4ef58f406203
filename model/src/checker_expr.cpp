// Resolving and typing expressions and statements in place. A bare name is
// looked up innermost binder first, then among built-ins, then among the
// declarations; when several declarations share a name (a kind and an
// action both called `spark`) the type the context expects picks one, and an
// enum value that several enums declare must be written qualified. Chains of
// `[...]` and `.field` become one `var` node with its indices as arguments;
// zone references only appear inside count/move/shuffle. Statement calls
// are classified into their StmtKinds with arity and type checks.
// This file: the checker's state (binders, lookups, diagnostics), expressions
// and constant folding; checker_names.cpp resolves names, places, zones and
// calls; checker_stmt.cpp checks statements.
#include <algorithm>
#include <limits>

#include "checker.hpp"
#include "checker_support.hpp"
#include "yaml_reader.hpp"

namespace loophole::model {

using namespace detail;  // NOLINT(google-build-using-namespace): the checker's own helpers

std::string type_name(const Game& game, const Type& t) {
  switch (t.base) {
    case BaseType::error:
      return "error";
    case BaseType::int_:
      return "int";
    case BaseType::bool_:
      return "bool";
    case BaseType::player:
      return "player";
    case BaseType::kind:
      return "kind";
    case BaseType::action:
      return "action";
    case BaseType::enum_:
      if (t.enum_id >= 0 && static_cast<std::size_t>(t.enum_id) < game.enums.size()) {
        return game.enums[static_cast<std::size_t>(t.enum_id)].name;
      }
      if (t.enum_id == Type::turn_order_enum) return "turn_order";
      return "enum";
  }
  return "error";
}

std::string format_span(const SourceSpan& where) {
  std::string out = where.file;
  if (where.known()) out += ":" + std::to_string(where.line) + ":" + std::to_string(where.col);
  return out;
}

ExprChecker::ExprChecker(Game& game, DiagnosticSink& sink, std::vector<SourceSpan> tag_where)
    : game_(game), sink_(sink) {
  const auto add = [this](const std::string& name, Category c, int id, int value,
                          const SourceSpan& where) {
    decls_.emplace(name, NameDecl{c, id, value, where});
  };
  for (std::size_t i = 0; i < game.params.size(); ++i) {
    add(game.params[i].name, Category::param, static_cast<int>(i), -1, game.params[i].where);
  }
  for (std::size_t i = 0; i < game.enums.size(); ++i) {
    const EnumDecl& en = game.enums[i];
    add(en.name, Category::enum_type, static_cast<int>(i), -1, en.where);
    for (std::size_t v = 0; v < en.values.size(); ++v) {
      add(en.values[v], Category::enum_value, static_cast<int>(i), static_cast<int>(v),
          v < en.value_where.size() ? en.value_where[v] : en.where);
    }
  }
  for (std::size_t i = 0; i < game.vars.size(); ++i) {
    add(game.vars[i].name, Category::variable, static_cast<int>(i), -1, game.vars[i].where);
  }
  for (std::size_t i = 0; i < game.kinds.size(); ++i) {
    add(game.kinds[i].name, Category::kind, static_cast<int>(i), -1, game.kinds[i].where);
  }
  for (std::size_t i = 0; i < game.actions.size(); ++i) {
    add(game.actions[i].name, Category::action, static_cast<int>(i), -1, game.actions[i].where);
  }
  for (std::size_t i = 0; i < game.zones.size(); ++i) {
    add(game.zones[i].name, Category::zone, static_cast<int>(i), -1, game.zones[i].where);
  }
  for (std::size_t i = 0; i < game.events.size(); ++i) {
    if (game.events[i].kind == EventDecl::Kind::custom) {
      add(game.events[i].name, Category::event, static_cast<int>(i), -1, game.events[i].where);
    }
  }
  for (std::size_t i = 0; i < game.tags.size(); ++i) {
    add(game.tags[i], Category::tag, static_cast<int>(i), -1,
        i < tag_where.size() ? tag_where[i] : SourceSpan{});
  }
}

std::vector<const NameDecl*> ExprChecker::lookup(const std::string& name) const {
  std::vector<const NameDecl*> out;
  auto [first, last] = decls_.equal_range(name);
  for (auto it = first; it != last; ++it) out.push_back(&it->second);
  return out;
}

void ExprChecker::unknown(const SourceSpan& where, const std::string& what, const std::string& name,
                          const std::vector<Category>& categories, bool with_values) {
  Diagnostic& d = sink_.error(where, "unknown " + what + " " + quote_name(name));
  std::vector<std::string> candidates;
  for (const auto& [n, decl] : decls_) {
    if (std::find(categories.begin(), categories.end(), decl.category) != categories.end())
      candidates.push_back(n);
  }
  if (with_values) {
    for (std::size_t i = binder_floor(); i < binders_.size(); ++i)
      candidates.push_back(binders_[i].first);
    if (!frames_.empty()) {
      for (const auto& p : frames_.back().callee->params) candidates.push_back(p.first);
    }
    for (std::string_view b : k_builtin_values) candidates.emplace_back(b);
  }
  const std::string suggestion = suggest_name(name, candidates);
  if (suggestion.empty()) return;
  for (const NameDecl* decl : lookup(suggestion)) {
    if (std::find(categories.begin(), categories.end(), decl->category) == categories.end())
      continue;
    if (decl->where.known()) {
      DiagnosticSink::note(d, SourceSpan{},
                           "did you mean " + quote_name(suggestion) + "? (declared at " +
                               format_span(decl->where) + ")");
      return;
    }
  }
  DiagnosticSink::note(d, SourceSpan{}, "did you mean " + quote_name(suggestion) + "?");
}

void ExprChecker::not_constant(const SourceSpan& where, const std::string& what) {
  sink_.error(where, what + " is not a constant; only literals and params may be used here");
}

void ExprChecker::push_binder(const std::string& name, Type type, const SourceSpan& where) {
  if (is_builtin_value(name) || player_number(name) != 0 || listed(k_domains, name)) {
    sink_.error(where, quote_name(name) + " is a built-in name and cannot be bound");
  }
  binders_.emplace_back(name, type);
  max_binders_ = std::max(max_binders_, static_cast<int>(binders_.size()));
}

void ExprChecker::pop_binder() { binders_.pop_back(); }

void ExprChecker::bind(const std::string& name, Type type, const SourceSpan& where) {
  push_binder(name, type, where);
}

void ExprChecker::unbind(std::size_t n) {
  for (std::size_t i = 0; i < n && !binders_.empty(); ++i) pop_binder();
}

Type ExprChecker::decl_type(const NameDecl& d) const {
  switch (d.category) {
    case Category::param:
      return Type::int_();
    case Category::enum_value:
      return Type::enum_of(d.id);
    case Category::variable: {
      const VarDecl& v = game_.vars[static_cast<std::size_t>(d.id)];
      return v.fields.empty() ? Type{} : v.fields[0].type;
    }
    case Category::kind:
      return Type::kind();
    case Category::action:
      return Type::action();
    default:
      return Type{};
  }
}

// ---- expressions -----------------------------------------------------------

Type ExprChecker::check(ExprPtr& e, const CheckContext& ctx, std::optional<Type> hint) {
  if (!e) return Type{};
  Expr& x = *e;
  switch (x.kind) {
    case ExprKind::name:
      return x.type = resolve_name(x, ctx, hint);
    case ExprKind::index:
    case ExprKind::field:
      return resolve_place(e, ctx);
    case ExprKind::call:
      return check_call(e, ctx);
    case ExprKind::int_lit:
      return x.type = Type::int_();
    case ExprKind::bool_lit:
      return x.type = Type::bool_();
    case ExprKind::enum_lit:
    case ExprKind::player_lit:
    case ExprKind::kind_lit:
    case ExprKind::action_lit:
    case ExprKind::var:
    case ExprKind::zone_count:
    case ExprKind::bound:
    case ExprKind::builtin:
      return x.type;
    case ExprKind::active:
    case ExprKind::opponent:
    case ExprKind::self:
    case ExprKind::top_controller:
    case ExprKind::next_player:
    case ExprKind::prev_player:
      return x.type = Type::player();
    case ExprKind::turn_order:
      return x.type = Type::turn_order();
    case ExprKind::turn_number:
    case ExprKind::stack_size:
      return x.type = Type::int_();
    case ExprKind::top_action:
      return x.type = Type::action();
    case ExprKind::stack_entry:
      return x.type = x.value == 0 ? Type::action() : Type::player();
    case ExprKind::action_speed:
      return x.type = Type::int_();
    case ExprKind::unary: {
      const bool is_not = x.op == Op::not_;
      const Type want = is_not ? Type::bool_() : Type::int_();
      const Type t = check(x.args[0], ctx, want);
      if (is_error(t)) return x.type = Type{};
      if (t != want) {
        sink_.error(x.args[0]->where, "operator " + quote_name(to_string(x.op)) + " needs " +
                                          (is_not ? "a bool" : "an int") + " operand, found " +
                                          type_name(game_, t));
        return x.type = Type{};
      }
      return x.type = want;
    }
    case ExprKind::binary:
      return x.type = check_binary(x, ctx);
    case ExprKind::cond: {
      check_condition(x.args[0], ctx);
      // A bare name takes its type from the other branch.
      const bool swap = x.args[1]->kind == ExprKind::name && x.args[2]->kind != ExprKind::name;
      ExprPtr& first = swap ? x.args[2] : x.args[1];
      ExprPtr& second = swap ? x.args[1] : x.args[2];
      const Type a = check(first, ctx, hint);
      const Type b = check(second, ctx, is_error(a) ? hint : std::optional<Type>(a));
      if (is_error(a) || is_error(b) || is_error(x.args[0]->type)) return x.type = Type{};
      if (a != b) {
        sink_.error(x.where,
                    "branches of 'if' have different types: " + type_name(game_, x.args[1]->type) +
                        " and " + type_name(game_, x.args[2]->type));
        return x.type = Type{};
      }
      return x.type = a;
    }
    case ExprKind::quant: {
      if (ctx.constant) {
        not_constant(x.where, "a quantifier");
        return x.type = Type{};
      }
      const bool domain_ok = check_domain(x.domain, x.domain_bounds, ctx);
      x.ref = static_cast<int>(binders_.size());
      push_binder(x.text, x.domain.element_type(), x.where);
      const Type want = x.op == Op::sum ? Type::int_() : Type::bool_();
      const Type body = check(x.args[0], ctx, want);
      pop_binder();
      if (!domain_ok || is_error(body)) return x.type = Type{};
      if (body != want) {
        sink_.error(x.args[0]->where, "body of " + quote_name(to_string(x.op)) + " must be " +
                                          type_name(game_, want) + ", found " +
                                          type_name(game_, body));
        return x.type = Type{};
      }
      return x.type = (x.op == Op::exists || x.op == Op::forall) ? Type::bool_() : Type::int_();
    }
  }
  return Type{};
}

Type ExprChecker::check_binary(Expr& x, const CheckContext& ctx) {
  switch (x.op) {
    case Op::eq:
    case Op::ne: {
      const bool swap = x.args[0]->kind == ExprKind::name && x.args[1]->kind != ExprKind::name;
      ExprPtr& first = swap ? x.args[1] : x.args[0];
      ExprPtr& second = swap ? x.args[0] : x.args[1];
      const Type a = check(first, ctx);
      const Type b = check(second, ctx, is_error(a) ? std::nullopt : std::optional<Type>(a));
      if (is_error(a) || is_error(b)) return Type{};
      if (a != b) {
        sink_.error(x.where, "cannot compare " + type_name(game_, x.args[0]->type) + " with " +
                                 type_name(game_, x.args[1]->type));
        return Type{};
      }
      return Type::bool_();
    }
    case Op::and_:
    case Op::or_:
    case Op::add:
    case Op::sub:
    case Op::mul:
    case Op::div:
    case Op::mod:
    case Op::lt:
    case Op::le:
    case Op::gt:
    case Op::ge: {
      const bool logic = x.op == Op::and_ || x.op == Op::or_;
      const Type want = logic ? Type::bool_() : Type::int_();
      const Type a = check(x.args[0], ctx, want);
      const Type b = check(x.args[1], ctx, want);
      if (is_error(a) || is_error(b)) return Type{};
      for (const ExprPtr& arg : x.args) {
        if (arg->type != want) {
          sink_.error(arg->where, "operator " + quote_name(to_string(x.op)) + " needs " +
                                      type_name(game_, want) + " operands, found " +
                                      type_name(game_, arg->type));
          return Type{};
        }
      }
      const bool compare = x.op == Op::lt || x.op == Op::le || x.op == Op::gt || x.op == Op::ge;
      return (logic || compare) ? Type::bool_() : Type::int_();
    }
    default:
      break;
  }
  return Type{};
}

void ExprChecker::check_condition(ExprPtr& e, const CheckContext& ctx) {
  const Type t = check(e, ctx, Type::bool_());
  if (!e || is_error(t) || t == Type::bool_()) return;
  sink_.error(e->where, "condition must be bool, found " + type_name(game_, t));
}

bool ExprChecker::expect(ExprPtr& e, const CheckContext& ctx, Type want, const std::string& what) {
  const Type t = check(e, ctx, want);
  if (!e || is_error(t)) return false;
  if (t != want) {
    sink_.error(e->where,
                what + " must be " + type_name(game_, want) + ", found " + type_name(game_, t));
    return false;
  }
  return true;
}

std::optional<std::int64_t> ExprChecker::constant(ExprPtr& e, Type expected,
                                                  const std::string& what) {
  if (!e) return std::nullopt;
  CheckContext ctx;
  ctx.constant = true;
  const Type t = check(e, ctx, expected);
  if (is_error(t)) return std::nullopt;
  if (t != expected) {
    sink_.error(e->where,
                what + " must be " + type_name(game_, expected) + ", found " + type_name(game_, t));
    return std::nullopt;
  }
  std::string why;
  auto value = fold(*e, &why);
  if (!value) sink_.error(e->where, what + ": " + why);
  return value;
}

std::optional<std::int64_t> ExprChecker::fold(const Expr& e, std::string* why) {
  return fold_constant(e, {}, why);
}

std::optional<std::int64_t> fold_operation(Op op, const std::vector<std::int64_t>& v,
                                           std::string* why) {
  const auto fail = [why](const char* reason) -> std::optional<std::int64_t> {
    if (why != nullptr) *why = reason;
    return std::nullopt;
  };
  constexpr std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
  std::int64_t r = 0;
  switch (op) {
    case Op::neg:
    case Op::abs:
      if (v[0] == min64) return fail("integer overflow");
      return op == Op::neg || v[0] < 0 ? -v[0] : v[0];
    case Op::not_:
      return v[0] == 0 ? 1 : 0;
    case Op::add:
      if (__builtin_add_overflow(v[0], v[1], &r)) return fail("integer overflow");
      return r;
    case Op::sub:
      if (__builtin_sub_overflow(v[0], v[1], &r)) return fail("integer overflow");
      return r;
    case Op::mul:
      if (__builtin_mul_overflow(v[0], v[1], &r)) return fail("integer overflow");
      return r;
    case Op::div:
    case Op::mod:
      if (v[1] == 0) return fail("division by zero");
      if (v[0] == min64 && v[1] == -1) return fail("integer overflow");
      return op == Op::div ? v[0] / v[1] : v[0] % v[1];
    case Op::eq:
      return v[0] == v[1] ? 1 : 0;
    case Op::ne:
      return v[0] != v[1] ? 1 : 0;
    case Op::lt:
      return v[0] < v[1] ? 1 : 0;
    case Op::le:
      return v[0] <= v[1] ? 1 : 0;
    case Op::gt:
      return v[0] > v[1] ? 1 : 0;
    case Op::ge:
      return v[0] >= v[1] ? 1 : 0;
    case Op::and_:
      return v[0] != 0 && v[1] != 0 ? 1 : 0;
    case Op::or_:
      return v[0] != 0 || v[1] != 0 ? 1 : 0;
    case Op::min:
      return std::min(v[0], v[1]);
    case Op::max:
      return std::max(v[0], v[1]);
    case Op::clamp:
      return std::max(v[1], std::min(v[0], v[2]));
    default:
      return fail("not a constant");
  }
}

std::optional<std::int64_t> fold_constant(
    const Expr& e, const std::function<std::optional<std::int64_t>(int slot)>& bound,
    std::string* why) {
  switch (e.kind) {
    case ExprKind::int_lit:
    case ExprKind::bool_lit:
    case ExprKind::enum_lit:
    case ExprKind::player_lit:
    case ExprKind::kind_lit:
    case ExprKind::action_lit:
      return e.value;
    case ExprKind::bound:
      if (bound) {
        if (auto v = bound(e.ref)) return v;
      }
      break;
    case ExprKind::binary: {
      auto a = fold_constant(*e.args[0], bound, why);
      if (!a) return std::nullopt;
      if (e.op == Op::and_ && *a == 0) return 0;
      if (e.op == Op::or_ && *a != 0) return 1;
      auto b = fold_constant(*e.args[1], bound, why);
      if (!b) return std::nullopt;
      return fold_operation(e.op, {*a, *b}, why);
    }
    case ExprKind::cond: {
      auto c = fold_constant(*e.args[0], bound, why);
      if (!c) return std::nullopt;
      return fold_constant(*e.args[*c != 0 ? 1 : 2], bound, why);
    }
    case ExprKind::unary:
    case ExprKind::builtin: {
      std::vector<std::int64_t> v;
      for (const ExprPtr& a : e.args) {
        auto x = fold_constant(*a, bound, why);
        if (!x) return std::nullopt;
        v.push_back(*x);
      }
      return fold_operation(e.op, v, why);
    }
    default:
      break;
  }
  if (why != nullptr) *why = "not a constant";
  return std::nullopt;
}

}  // namespace loophole::model
