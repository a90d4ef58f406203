// Resolving and typing expressions and statements in place. A bare name is
// looked up innermost binder first, then among built-ins, then among the
// declarations; when several declarations share a name (a kind and an
// action both called `spark`) the type the context expects picks one, and an
// enum value that several enums declare must be written qualified. Chains of
// `[...]` and `.field` become one `var` node with its indices as arguments;
// zone references only appear inside count/move/shuffle. Statement calls
// are classified into their StmtKinds with arity and type checks.
#include <algorithm>
#include <limits>

#include "checker.hpp"
#include "yaml_reader.hpp"

namespace loophole::model {

namespace {

using Category = NameDecl::Category;

constexpr std::string_view k_builtin_values[] = {
    "active", "opponent", "self", "turn_number", "stack_size", "top_action", "top_controller"};
constexpr std::string_view k_functions[] = {"count", "min", "max", "abs", "clamp", "next"};
constexpr std::string_view k_statements[] = {"draw", "move",   "fire",   "win",
                                             "lose", "negate", "shuffle"};

bool is_builtin_value(std::string_view name) {
  return std::find(std::begin(k_builtin_values), std::end(k_builtin_values), name) !=
         std::end(k_builtin_values);
}

// P1, P2, ... -> 1, 2, ...; 0 when `name` is not of that form.
int player_number(std::string_view name) {
  if (name.size() < 2 || name.size() > 4 || name[0] != 'P' || name[1] == '0') return 0;
  int n = 0;
  for (std::size_t i = 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return 0;
    n = n * 10 + (name[i] - '0');
  }
  return n;
}

std::string_view category_name(Category c) {
  switch (c) {
    case Category::param:
      return "param";
    case Category::enum_value:
      return "enum value";
    case Category::variable:
      return "variable";
    case Category::kind:
      return "kind";
    case Category::action:
      return "action";
    case Category::zone:
      return "zone";
    case Category::enum_type:
      return "enum";
    case Category::event:
      return "event";
    case Category::tag:
      return "tag";
  }
  return "name";
}

std::string ordinal_argument(std::size_t i, std::string_view fn) {
  return "argument " + std::to_string(i + 1) + " of " + quote_name(fn);
}

std::string plural(std::size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

ExprPtr make_node(ExprKind kind, const SourceSpan& where, Type type) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->where = where;
  e->type = type;
  return e;
}

}  // namespace

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
    for (const auto& b : binders_) candidates.push_back(b.first);
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
  if (is_builtin_value(name) || player_number(name) != 0 || name == "players" || name == "others" ||
      name == "kinds") {
    sink_.error(where, quote_name(name) + " is a built-in name and cannot be bound");
  }
  binders_.emplace_back(name, type);
  max_binders_ = std::max(max_binders_, static_cast<int>(binders_.size()));
}

void ExprChecker::pop_binder() { binders_.pop_back(); }

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
      return x.type = Type::player();
    case ExprKind::turn_number:
    case ExprKind::stack_size:
      return x.type = Type::int_();
    case ExprKind::top_action:
      return x.type = Type::action();
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

Type ExprChecker::resolve_name(Expr& x, const CheckContext& ctx, std::optional<Type> hint) {
  const std::string& name = x.text;
  for (std::size_t i = binders_.size(); i-- > 0;) {
    if (binders_[i].first != name) continue;
    if (ctx.constant) {
      not_constant(x.where, quote_name(name));
      return Type{};
    }
    x.kind = ExprKind::bound;
    x.ref = static_cast<int>(i);
    return binders_[i].second;
  }
  if (is_builtin_value(name)) {
    if (ctx.constant) {
      not_constant(x.where, quote_name(name));
      return Type{};
    }
    if (name == "self" && !ctx.self) {
      sink_.error(x.where, "'self' is not defined here; use 'active'");
      return Type{};
    }
    x.kind = name == "active"        ? ExprKind::active
             : name == "opponent"    ? ExprKind::opponent
             : name == "self"        ? ExprKind::self
             : name == "turn_number" ? ExprKind::turn_number
             : name == "stack_size"  ? ExprKind::stack_size
             : name == "top_action"  ? ExprKind::top_action
                                     : ExprKind::top_controller;
    x.text.clear();
    return x.kind == ExprKind::turn_number || x.kind == ExprKind::stack_size ? Type::int_()
           : x.kind == ExprKind::top_action                                  ? Type::action()
                                                                             : Type::player();
  }
  if (const int n = player_number(name); n != 0) {
    if (n > game_.players) {
      sink_.error(x.where, quote_name(name) + " does not exist in a " +
                               std::to_string(game_.players) + "-player game");
      return Type{};
    }
    x.kind = ExprKind::player_lit;
    x.value = n - 1;
    x.text.clear();
    return Type::player();
  }
  if (name == "players" || name == "others" || name == "kinds") {
    sink_.error(x.where, quote_name(name) + " is a domain, not a value; use it after 'in'");
    return Type{};
  }

  // One candidate per category: a duplicate declaration is reported once,
  // where it is declared, and its uses see the first definition.
  std::vector<const NameDecl*> found;
  for (const NameDecl* d : lookup(name)) {
    if (d->category == Category::event || d->category == Category::tag) continue;
    const bool seen = std::any_of(found.begin(), found.end(), [&](const NameDecl* f) {
      return f->category == d->category && (d->category != Category::enum_value || f->id == d->id);
    });
    if (!seen) found.push_back(d);
  }
  if (found.empty()) {
    unknown(x.where, "name", name,
            {Category::param, Category::enum_value, Category::variable, Category::kind,
             Category::action, Category::zone},
            true);
    return Type{};
  }
  const auto enum_values = std::count_if(found.begin(), found.end(), [](const NameDecl* d) {
    return d->category == Category::enum_value;
  });
  if (enum_values > 1) {
    std::string enums;
    std::string example;
    for (const NameDecl* d : found) {
      if (d->category != Category::enum_value) continue;
      const std::string& en = game_.enums[static_cast<std::size_t>(d->id)].name;
      if (example.empty()) example = en + "." + name;
      enums += enums.empty() ? quote_name(en) : " and " + quote_name(en);
    }
    Diagnostic& diag =
        sink_.error(x.where, "enum value " + quote_name(name) + " is ambiguous: it belongs to " +
                                 enums + "; write " + quote_name(example));
    for (const NameDecl* d : found) {
      if (d->category != Category::enum_value) continue;
      DiagnosticSink::note(diag, d->where,
                           quote_name(name) + " declared in enum " +
                               quote_name(game_.enums[static_cast<std::size_t>(d->id)].name));
    }
    return Type{};
  }
  if (found.size() > 1 && hint) {
    std::vector<const NameDecl*> fitting;
    for (const NameDecl* d : found) {
      if (decl_type(*d) == *hint) fitting.push_back(d);
    }
    if (fitting.size() == 1) found = fitting;
  }
  if (found.size() > 1) {
    std::string what;
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (i != 0) what += i + 1 == found.size() ? " and " : ", ";
      what += "a " + std::string(category_name(found[i]->category));
    }
    Diagnostic& d =
        sink_.error(x.where, "name " + quote_name(name) + " is ambiguous here: it is " + what);
    for (const NameDecl* f : found) {
      DiagnosticSink::note(
          d, f->where,
          std::string(category_name(f->category)) + " " + quote_name(name) + " declared here");
    }
    return Type{};
  }
  const NameDecl& d = *found.front();
  switch (d.category) {
    case Category::param:
      x.kind = ExprKind::int_lit;
      x.value = game_.params[static_cast<std::size_t>(d.id)].value;
      return Type::int_();
    case Category::enum_value:
      x.kind = ExprKind::enum_lit;
      x.value = d.value;
      return Type::enum_of(d.id);
    case Category::kind:
      x.kind = ExprKind::kind_lit;
      x.value = d.id;
      return Type::kind();
    case Category::action:
      x.kind = ExprKind::action_lit;
      x.value = d.id;
      return Type::action();
    case Category::variable: {
      if (ctx.constant) {
        not_constant(x.where, "variable " + quote_name(name));
        return Type{};
      }
      const VarDecl& v = game_.vars[static_cast<std::size_t>(d.id)];
      if (v.per_player || v.array != 0) {
        sink_.error(x.where, "variable " + quote_name(name) + " needs " + index_shape(v) +
                                 ": write " + quote_name(name + index_example(v)));
        return Type{};
      }
      if (v.is_record) {
        sink_.error(x.where,
                    "variable " + quote_name(name) + " is a record: write " +
                        quote_name(name + "." + (v.fields.empty() ? "field" : v.fields[0].name)));
        return Type{};
      }
      x.kind = ExprKind::var;
      x.ref = d.id;
      x.field = 0;
      return v.fields.empty() ? Type{} : v.fields[0].type;
    }
    case Category::zone:
      sink_.error(x.where, "zone " + quote_name(name) +
                               " can only be used in count(...), move(...) and shuffle(...)");
      return Type{};
    case Category::enum_type:
      sink_.error(
          x.where,
          quote_name(name) + " is an enum, not a value; write " +
              quote_name(name + "." + game_.enums[static_cast<std::size_t>(d.id)].values.front()));
      return Type{};
    default:
      break;
  }
  return Type{};
}

std::string ExprChecker::index_shape(const VarDecl& v) const {
  const int n = (v.per_player ? 1 : 0) + (v.array != 0 ? 1 : 0);
  std::string shape = v.per_player ? "[player]" : "";
  if (v.array != 0) shape += "[index]";
  return n == 0 ? "no index" : plural(static_cast<std::size_t>(n), "index") + " " + shape;
}

std::string ExprChecker::index_example(const VarDecl& v) const {
  std::string out = v.per_player ? "[p]" : "";
  if (v.array != 0) out += "[i]";
  if (v.is_record && !v.fields.empty()) out += "." + v.fields[0].name;
  return out;
}

Type ExprChecker::resolve_place(ExprPtr& e, const CheckContext& ctx) {
  // `status.ready`: a qualified enum value.
  if (e->kind == ExprKind::field && e->args[0]->kind == ExprKind::name) {
    const std::string& base = e->args[0]->text;
    const bool bound = std::any_of(binders_.begin(), binders_.end(),
                                   [&](const auto& b) { return b.first == base; });
    const NameDecl* enum_decl = nullptr;
    bool variable = false;
    for (const NameDecl* d : lookup(base)) {
      if (d->category == Category::enum_type) enum_decl = d;
      if (d->category == Category::variable) variable = true;
    }
    if (!bound && enum_decl != nullptr && !variable) {
      const EnumDecl& en = game_.enums[static_cast<std::size_t>(enum_decl->id)];
      const auto it = std::find(en.values.begin(), en.values.end(), e->text);
      if (it == en.values.end()) {
        Diagnostic& d = sink_.error(
            e->where, "enum " + quote_name(en.name) + " has no value " + quote_name(e->text));
        const std::string suggestion = suggest_name(e->text, en.values);
        if (!suggestion.empty())
          DiagnosticSink::note(d, SourceSpan{}, "did you mean " + quote_name(suggestion) + "?");
        return e->type = Type{};
      }
      const auto index = static_cast<int>(it - en.values.begin());
      ExprPtr lit = make_node(ExprKind::enum_lit, e->where, Type::enum_of(enum_decl->id));
      lit->value = index;
      lit->text = e->text;
      e = std::move(lit);
      return e->type;
    }
  }

  // Peel `.field` and `[index]`s off down to the base name.
  std::string field_name;
  SourceSpan field_where;
  Expr* node = e.get();
  if (node->kind == ExprKind::field) {
    field_name = node->text;
    field_where = node->where;
    node = node->args[0].get();
  }
  std::vector<ExprPtr> indices;
  while (node->kind == ExprKind::index) {
    indices.insert(indices.begin(), std::move(node->args[1]));
    node = node->args[0].get();
  }
  if (node->kind != ExprKind::name) {
    sink_.error(node->where, field_name.empty() ? "only variables and zones can be indexed"
                                                : "only record variables have fields");
    return e->type = Type{};
  }
  const std::string base = node->text;
  const SourceSpan base_where = node->where;
  const bool bound =
      std::any_of(binders_.begin(), binders_.end(), [&](const auto& b) { return b.first == base; });
  const NameDecl* var_decl = nullptr;
  const NameDecl* zone_decl = nullptr;
  if (!bound) {
    for (const NameDecl* d : lookup(base)) {
      if (d->category == Category::variable && var_decl == nullptr) var_decl = d;
      if (d->category == Category::zone && zone_decl == nullptr) zone_decl = d;
    }
  }
  if (var_decl == nullptr) {
    if (zone_decl != nullptr) {
      sink_.error(e->where, "zone " + quote_name(base) +
                                " can only be used in count(...), move(...) and shuffle(...)");
    } else if (bound || is_builtin_value(base) || !lookup(base).empty() ||
               player_number(base) != 0) {
      sink_.error(base_where, quote_name(base) +
                                  (field_name.empty() ? " cannot be indexed" : " has no fields"));
    } else {
      unknown(base_where, "variable", base, {Category::variable, Category::zone}, false);
    }
    return e->type = Type{};
  }
  if (ctx.constant) {
    not_constant(e->where, "variable " + quote_name(base));
    return e->type = Type{};
  }
  const VarDecl& v = game_.vars[static_cast<std::size_t>(var_decl->id)];
  const std::size_t needed = (v.per_player ? 1U : 0U) + (v.array != 0 ? 1U : 0U);
  if (indices.size() != needed) {
    sink_.error(e->where, "variable " + quote_name(base) + " takes " + index_shape(v) + ", found " +
                              std::to_string(indices.size()) + "; write " +
                              quote_name(base + index_example(v)));
    return e->type = Type{};
  }
  int field = 0;
  if (v.is_record) {
    if (field_name.empty()) {
      sink_.error(e->where, "variable " + quote_name(base) + " is a record: write " +
                                quote_name(base + index_example(v)));
      return e->type = Type{};
    }
    const auto it = std::find_if(v.fields.begin(), v.fields.end(),
                                 [&](const Field& f) { return f.name == field_name; });
    if (it == v.fields.end()) {
      Diagnostic& d = sink_.error(
          field_where, "variable " + quote_name(base) + " has no field " + quote_name(field_name));
      std::vector<std::string> names;
      for (const Field& f : v.fields) names.push_back(f.name);
      const std::string suggestion = suggest_name(field_name, names);
      if (!suggestion.empty())
        DiagnosticSink::note(d, SourceSpan{}, "did you mean " + quote_name(suggestion) + "?");
      return e->type = Type{};
    }
    field = static_cast<int>(it - v.fields.begin());
  } else if (!field_name.empty()) {
    sink_.error(field_where, "variable " + quote_name(base) + " is not a record and has no field " +
                                 quote_name(field_name));
    return e->type = Type{};
  }
  bool ok = true;
  std::size_t k = 0;
  if (v.per_player) {
    ok = expect(indices[k], ctx, Type::player(), "the player index of " + quote_name(base)) && ok;
    ++k;
  }
  if (v.array != 0) {
    if (expect(indices[k], ctx, Type::int_(), "the array index of " + quote_name(base))) {
      if (auto c = fold(*indices[k]); c && (*c < 0 || *c >= v.array)) {
        sink_.error(indices[k]->where, "index " + std::to_string(*c) + " is out of range 0.." +
                                           std::to_string(v.array - 1) + " for " +
                                           quote_name(base));
        ok = false;
      }
    } else {
      ok = false;
    }
  }
  ExprPtr var = make_node(ExprKind::var, e->where, v.fields[static_cast<std::size_t>(field)].type);
  var->ref = var_decl->id;
  var->field = field;
  var->text = base;
  var->args = std::move(indices);
  e = std::move(var);
  if (!ok) e->type = Type{};
  return e->type;
}

bool ExprChecker::check_zone_ref(ExprPtr& e, const CheckContext& ctx) {
  if (!e) return false;
  Expr* base = e.get();
  ExprPtr owner;
  if (base->kind == ExprKind::index && base->args[0]->kind == ExprKind::name) {
    owner = std::move(base->args[1]);
    base = base->args[0].get();
  }
  if (base->kind != ExprKind::name) {
    sink_.error(e->where, "expected a zone such as 'hand[p]'");
    return false;
  }
  const std::string name = base->text;
  const NameDecl* zone = nullptr;
  for (const NameDecl* d : lookup(name)) {
    if (d->category == Category::zone && zone == nullptr) zone = d;
  }
  if (zone == nullptr) {
    const bool bound = std::any_of(binders_.begin(), binders_.end(),
                                   [&](const auto& b) { return b.first == name; });
    if (bound || !lookup(name).empty() || is_builtin_value(name)) {
      sink_.error(base->where, quote_name(name) + " is not a zone");
    } else {
      unknown(base->where, "zone", name, {Category::zone}, false);
    }
    return false;
  }
  if (ctx.constant) {
    not_constant(e->where, "zone " + quote_name(name));
    return false;
  }
  const ZoneDecl& z = game_.zones[static_cast<std::size_t>(zone->id)];
  if (z.per_player && !owner) {
    sink_.error(e->where,
                "zone " + quote_name(name) + " is per player: write " + quote_name(name + "[p]"));
    return false;
  }
  if (!z.per_player && owner) {
    sink_.error(e->where, "zone " + quote_name(name) + " is shared: write " + quote_name(name) +
                              " without a player");
    return false;
  }
  ExprPtr count = make_node(ExprKind::zone_count, e->where, Type::int_());
  count->ref = zone->id;
  count->value = -1;
  count->text = name;
  bool ok = true;
  if (owner) {
    ok = expect(owner, ctx, Type::player(), "the owner of zone " + quote_name(name));
    count->args.push_back(std::move(owner));
  }
  e = std::move(count);
  return ok;
}

Type ExprChecker::check_count(ExprPtr& e, const CheckContext& ctx) {
  Expr& x = *e;
  if (x.args.empty() || x.args.size() > 2) {
    sink_.error(x.where, "count takes 1 or 2 arguments (zone[, kind or tag t]), found " +
                             std::to_string(x.args.size()));
    return Type{};
  }
  if (ctx.constant) {
    not_constant(x.where, "count(...)");
    return Type{};
  }
  if (!check_zone_ref(x.args[0], ctx)) return Type{};
  ExprPtr z = std::move(x.args[0]);
  if (x.args.size() == 2) {
    ExprPtr& arg = x.args[1];
    if (arg->kind == ExprKind::call && arg->text == "tag" && arg->args.size() == 1 &&
        arg->args[0]->kind == ExprKind::name) {
      const std::string& tag = arg->args[0]->text;
      const NameDecl* found = nullptr;
      for (const NameDecl* d : lookup(tag)) {
        if (d->category == Category::tag) found = d;
      }
      if (found == nullptr) {
        unknown(arg->args[0]->where, "tag", tag, {Category::tag}, false);
        return Type{};
      }
      z->value = -2;
      z->tag = found->id;
    } else {
      if (!expect(arg, ctx, Type::kind(), ordinal_argument(1, "count"))) return Type{};
      if (arg->kind == ExprKind::kind_lit) {
        z->value = arg->value;
      } else {
        z->value = -3;
        z->args.push_back(std::move(arg));
      }
    }
  }
  z->where = x.where;
  e = std::move(z);
  return e->type;
}

Type ExprChecker::check_call(ExprPtr& e, const CheckContext& ctx) {
  Expr& x = *e;
  const std::string fn = x.text;
  if (fn == "count") return check_count(e, ctx);
  const auto arity = [&](std::size_t n, std::string_view shape) {
    if (x.args.size() == n) return true;
    sink_.error(x.where, fn + " takes " + plural(n, "argument") + " " + std::string(shape) +
                             ", found " + std::to_string(x.args.size()));
    return false;
  };
  if (fn == "min" || fn == "max" || fn == "abs" || fn == "clamp") {
    const std::size_t n = fn == "abs" ? 1 : fn == "clamp" ? 3 : 2;
    if (!arity(n, fn == "abs" ? "(x)" : fn == "clamp" ? "(x, lo, hi)" : "(a, b)"))
      return x.type = Type{};
    bool ok = true;
    for (std::size_t i = 0; i < x.args.size(); ++i) {
      ok = expect(x.args[i], ctx, Type::int_(), ordinal_argument(i, fn)) && ok;
    }
    x.kind = ExprKind::builtin;
    x.op = fn == "min" ? Op::min : fn == "max" ? Op::max : fn == "abs" ? Op::abs : Op::clamp;
    x.text.clear();
    return x.type = ok ? Type::int_() : Type{};
  }
  if (fn == "next") {
    if (!arity(1, "(player)")) return x.type = Type{};
    if (ctx.constant) {
      not_constant(x.where, "next(...)");
      return x.type = Type{};
    }
    const bool ok = expect(x.args[0], ctx, Type::player(), ordinal_argument(0, fn));
    x.kind = ExprKind::next_player;
    x.text.clear();
    return x.type = ok ? Type::player() : Type{};
  }
  if (fn == "tag") {
    sink_.error(x.where, "'tag t' is only allowed as the second argument of count(...)");
    return x.type = Type{};
  }
  if (std::find(std::begin(k_statements), std::end(k_statements), fn) != std::end(k_statements)) {
    sink_.error(x.where, quote_name(fn) + " is a statement, not a function");
    return x.type = Type{};
  }
  std::string message = "unknown function " + quote_name(fn);
  const std::string suggestion = suggest_name(fn, {std::begin(k_functions), std::end(k_functions)});
  if (!suggestion.empty()) message += "; did you mean " + quote_name(suggestion) + "?";
  sink_.error(x.where, message);
  return x.type = Type{};
}

bool ExprChecker::check_domain(Domain& d, std::vector<ExprPtr>& bounds, const CheckContext& ctx) {
  switch (d.kind) {
    case Domain::Kind::players:
      d.lo = 0;
      d.hi = game_.players - 1;
      return true;
    case Domain::Kind::others:
      d.lo = 0;
      d.hi = game_.players - 1;
      if (!ctx.self) {
        sink_.error(d.where, "'others' means every player but 'self', which is not defined here");
        return false;
      }
      return true;
    case Domain::Kind::kinds:
      d.lo = 0;
      d.hi = static_cast<std::int64_t>(game_.kinds.size()) - 1;
      return true;
    case Domain::Kind::kinds_tagged:
      for (const NameDecl* decl : lookup(d.text)) {
        if (decl->category == Category::tag) {
          d.ref = decl->id;
          d.lo = 0;
          d.hi = static_cast<std::int64_t>(game_.kinds.size()) - 1;
          return true;
        }
      }
      unknown(d.where, "tag", d.text, {Category::tag}, false);
      return false;
    case Domain::Kind::enum_values: {
      for (const NameDecl* decl : lookup(d.text)) {
        if (decl->category == Category::enum_type) {
          d.ref = decl->id;
          d.lo = 0;
          d.hi = static_cast<std::int64_t>(
                     game_.enums[static_cast<std::size_t>(decl->id)].values.size()) -
                 1;
          return true;
        }
      }
      Diagnostic& diag =
          sink_.error(d.where, "unknown domain " + quote_name(d.text) +
                                   "; expected 'players', 'others', 'kinds', 'kinds tag t', an "
                                   "enum name or 'lo..hi'");
      std::vector<std::string> candidates = {"players", "others", "kinds"};
      for (const EnumDecl& en : game_.enums) candidates.push_back(en.name);
      const std::string suggestion = suggest_name(d.text, candidates);
      if (!suggestion.empty())
        DiagnosticSink::note(diag, SourceSpan{}, "did you mean " + quote_name(suggestion) + "?");
      return false;
    }
    case Domain::Kind::range: {
      if (bounds.size() != 2) return false;
      std::optional<std::int64_t> lo =
          constant(bounds[0], Type::int_(), "the lower bound of a range");
      std::optional<std::int64_t> hi =
          constant(bounds[1], Type::int_(), "the upper bound of a range");
      if (!lo || !hi) return false;
      if (*hi >= *lo && static_cast<double>(*hi) - static_cast<double>(*lo) >= 2147483647.0) {
        sink_.error(d.where,
                    "range " + std::to_string(*lo) + ".." + std::to_string(*hi) + " is too wide");
        return false;
      }
      d.lo = *lo;
      d.hi = *hi;
      d.lo_expr = nullptr;
      d.hi_expr = nullptr;
      bounds.clear();
      return true;
    }
  }
  return false;
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
  const auto fail = [why](const char* reason) -> std::optional<std::int64_t> {
    if (why != nullptr) *why = reason;
    return std::nullopt;
  };
  switch (e.kind) {
    case ExprKind::int_lit:
    case ExprKind::bool_lit:
    case ExprKind::enum_lit:
    case ExprKind::player_lit:
    case ExprKind::kind_lit:
    case ExprKind::action_lit:
      return e.value;
    case ExprKind::unary: {
      auto a = fold(*e.args[0], why);
      if (!a) return std::nullopt;
      if (e.op == Op::not_) return *a == 0 ? 1 : 0;
      if (*a == std::numeric_limits<std::int64_t>::min()) return fail("integer overflow");
      return -*a;
    }
    case ExprKind::binary: {
      auto a = fold(*e.args[0], why);
      if (!a) return std::nullopt;
      if (e.op == Op::and_ && *a == 0) return 0;
      if (e.op == Op::or_ && *a != 0) return 1;
      auto b = fold(*e.args[1], why);
      if (!b) return std::nullopt;
      std::int64_t r = 0;
      switch (e.op) {
        case Op::add:
          if (__builtin_add_overflow(*a, *b, &r)) return fail("integer overflow");
          return r;
        case Op::sub:
          if (__builtin_sub_overflow(*a, *b, &r)) return fail("integer overflow");
          return r;
        case Op::mul:
          if (__builtin_mul_overflow(*a, *b, &r)) return fail("integer overflow");
          return r;
        case Op::div:
        case Op::mod:
          if (*b == 0) return fail("division by zero");
          if (*a == std::numeric_limits<std::int64_t>::min() && *b == -1)
            return fail("integer overflow");
          return e.op == Op::div ? *a / *b : *a % *b;
        case Op::eq:
          return *a == *b ? 1 : 0;
        case Op::ne:
          return *a != *b ? 1 : 0;
        case Op::lt:
          return *a < *b ? 1 : 0;
        case Op::le:
          return *a <= *b ? 1 : 0;
        case Op::gt:
          return *a > *b ? 1 : 0;
        case Op::ge:
          return *a >= *b ? 1 : 0;
        case Op::and_:
        case Op::or_:
          return *b != 0 ? 1 : 0;
        default:
          return fail("not a constant");
      }
    }
    case ExprKind::cond: {
      auto c = fold(*e.args[0], why);
      if (!c) return std::nullopt;
      return fold(*e.args[*c != 0 ? 1 : 2], why);
    }
    case ExprKind::builtin: {
      std::vector<std::int64_t> v;
      for (const ExprPtr& a : e.args) {
        auto x = fold(*a, why);
        if (!x) return std::nullopt;
        v.push_back(*x);
      }
      switch (e.op) {
        case Op::min:
          return std::min(v[0], v[1]);
        case Op::max:
          return std::max(v[0], v[1]);
        case Op::abs:
          if (v[0] == std::numeric_limits<std::int64_t>::min()) return fail("integer overflow");
          return v[0] < 0 ? -v[0] : v[0];
        case Op::clamp:
          return std::max(v[1], std::min(v[0], v[2]));
        default:
          return fail("not a constant");
      }
    }
    default:
      return fail("not a constant");
  }
}

// ---- statements ------------------------------------------------------------

void ExprChecker::check_stmt(StmtPtr& s, const CheckContext& ctx) {
  if (!s) return;
  Stmt& x = *s;
  switch (x.kind) {
    case StmtKind::block:
      for (StmtPtr& b : x.bodies) check_stmt(b, ctx);
      return;
    case StmtKind::assign:
      check_assign(x, ctx);
      return;
    case StmtKind::if_:
      for (ExprPtr& c : x.conds) check_condition(c, ctx);
      for (StmtPtr& b : x.bodies) check_stmt(b, ctx);
      return;
    case StmtKind::for_:
    case StmtKind::choose:
    case StmtKind::pick: {
      check_domain(x.domain, x.domain_bounds, ctx);
      x.ref = static_cast<int>(binders_.size());
      push_binder(x.text, x.domain.element_type(),
                  x.domain.where.known() ? x.domain.where : x.where);
      for (ExprPtr& c : x.conds) check_condition(c, ctx);
      for (StmtPtr& b : x.bodies) check_stmt(b, ctx);
      pop_binder();
      return;
    }
    case StmtKind::call:
      check_call_stmt(x, ctx);
      return;
    default:
      return;
  }
}

void ExprChecker::check_assign(Stmt& s, const CheckContext& ctx) {
  ExprPtr& target = s.target;
  bool target_ok = target != nullptr;
  if (target_ok && target->kind == ExprKind::name) {
    const std::string& name = target->text;
    const bool bound = std::any_of(binders_.begin(), binders_.end(),
                                   [&](const auto& b) { return b.first == name; });
    std::string refused;
    if (bound) {
      refused = "cannot assign to " + quote_name(name) + ": it is bound by a loop or choice";
    } else if (is_builtin_value(name) || player_number(name) != 0) {
      refused = "cannot assign to " + quote_name(name) + ": it is built in";
    } else {
      for (const NameDecl* d : lookup(name)) {
        if (d->category == Category::variable) {
          refused.clear();
          break;
        }
        if (refused.empty() && d->category != Category::event && d->category != Category::tag) {
          refused = "cannot assign to " + std::string(category_name(d->category)) + " " +
                    quote_name(name) +
                    (d->category == Category::param ? ": params are constants" : "");
        }
      }
    }
    if (!refused.empty()) {
      sink_.error(target->where, refused);
      target_ok = false;
    } else if (!bound && lookup(name).empty()) {
      unknown(target->where, "variable", name, {Category::variable}, false);
      target_ok = false;
    }
  }
  Type t;
  if (target_ok) {
    t = check(target, ctx);
    if (!is_error(t) && target->kind != ExprKind::var) {
      sink_.error(target->where, "cannot assign to this expression: the target must be a variable");
      t = Type{};
    }
  }
  const std::optional<Type> hint = is_error(t) ? std::nullopt : std::optional<Type>(t);
  const Type v = check(s.value, ctx, s.op == Op::none ? hint : std::optional<Type>(Type::int_()));
  if (is_error(t) || is_error(v) || !s.value) return;
  const std::string var = quote_name(target->text);
  if (s.op != Op::none) {
    const std::string op = s.op == Op::add ? "'+='" : "'-='";
    if (t != Type::int_()) {
      sink_.error(target->where,
                  op + " needs an int variable, found " + var + " of type " + type_name(game_, t));
    } else if (v != Type::int_()) {
      sink_.error(s.value->where, op + " needs an int value, found " + type_name(game_, v));
    }
    return;
  }
  if (t != v) {
    sink_.error(s.value->where, "cannot assign " + type_name(game_, v) + " to variable " + var +
                                    " of type " + type_name(game_, t));
  }
}

void ExprChecker::check_call_stmt(Stmt& s, const CheckContext& ctx) {
  const std::string fn = s.text;
  const auto arity = [&](std::size_t n, std::string_view shape) {
    if (s.args.size() == n) return true;
    sink_.error(s.where, fn + " takes " + plural(n, "argument") + " " + std::string(shape) +
                             ", found " + std::to_string(s.args.size()));
    return false;
  };
  if (fn == "draw") {
    s.kind = StmtKind::draw;
    if (!arity(2, "(player, count)")) return;
    expect(s.args[0], ctx, Type::player(), ordinal_argument(0, fn));
    expect(s.args[1], ctx, Type::int_(), ordinal_argument(1, fn));
    const bool have = game_.deck_zone >= 0 && game_.hand_zone >= 0;
    if (!have) {
      sink_.error(s.where, "draw needs zones named 'deck' and 'hand'");
    } else if (!game_.zones[static_cast<std::size_t>(game_.deck_zone)].per_player ||
               !game_.zones[static_cast<std::size_t>(game_.hand_zone)].per_player) {
      sink_.error(s.where, "draw needs 'deck' and 'hand' to be per-player zones");
    }
    return;
  }
  if (fn == "move") {
    if (s.args.size() != 3 && s.args.size() != 4) {
      sink_.error(
          s.where,
          "move takes 3 or 4 arguments (from, to, count) or (from, to, kind, count), found " +
              std::to_string(s.args.size()));
      s.kind = StmtKind::move_any;
      return;
    }
    s.kind = s.args.size() == 3 ? StmtKind::move_any : StmtKind::move_kind;
    check_zone_ref(s.args[0], ctx);
    check_zone_ref(s.args[1], ctx);
    if (s.kind == StmtKind::move_kind)
      expect(s.args[2], ctx, Type::kind(), ordinal_argument(2, fn));
    expect(s.args.back(), ctx, Type::int_(), ordinal_argument(s.args.size() - 1, fn));
    return;
  }
  if (fn == "win" || fn == "lose") {
    s.kind = fn == "win" ? StmtKind::win : StmtKind::lose;
    if (!arity(1, "(player)")) return;
    expect(s.args[0], ctx, Type::player(), ordinal_argument(0, fn));
    return;
  }
  if (fn == "negate") {
    s.kind = StmtKind::negate;
    if (!arity(0, "")) return;
    if (!ctx.negate) sink_.error(s.where, "negate() is only allowed in an action's effect");
    return;
  }
  if (fn == "shuffle") {
    s.kind = StmtKind::shuffle;
    if (!arity(1, "(zone)")) return;
    check_zone_ref(s.args[0], ctx);
    return;
  }
  if (fn == "fire") {
    s.kind = StmtKind::fire;
    if (!arity(1, "(event)")) return;
    const Expr& arg = *s.args[0];
    if (arg.kind != ExprKind::name) {
      sink_.error(arg.where, "fire needs the name of a custom event");
      return;
    }
    for (const NameDecl* d : lookup(arg.text)) {
      if (d->category == Category::event) {
        s.ref = d->id;
        s.args.clear();
        return;
      }
    }
    if (arg.text == "begin_turn" || arg.text == "end_turn") {
      sink_.error(arg.where,
                  "only custom events can be fired; " + quote_name(arg.text) + " is built in");
      return;
    }
    unknown(arg.where, "event", arg.text, {Category::event}, false);
    return;
  }
  if (std::find(std::begin(k_functions), std::end(k_functions), fn) != std::end(k_functions)) {
    sink_.error(s.where, quote_name(fn) + " is a function, not a statement");
    return;
  }
  std::string message = "unknown statement " + quote_name(fn);
  const std::string suggestion =
      suggest_name(fn, {std::begin(k_statements), std::end(k_statements)});
  if (!suggestion.empty()) message += "; did you mean " + quote_name(suggestion) + "?";
  sink_.error(s.where, message);
}

}  // namespace loophole::model
