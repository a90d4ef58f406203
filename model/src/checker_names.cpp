// Resolving names in expressions: a bare name (binder, built-in, player,
// declaration, enum value), a place (a variable with its indices and fields,
// a zone reference), counts, function calls and the domains of `count x in D`
// and `sum x in D`. Part of ExprChecker (checker.hpp).
#include <algorithm>
#include <limits>

#include "checker.hpp"
#include "checker_support.hpp"
#include "yaml_reader.hpp"

namespace loophole::model {

using namespace detail;  // NOLINT(google-build-using-namespace): the checker's own helpers

Type ExprChecker::resolve_name(Expr& x, const CheckContext& ctx, std::optional<Type> hint) {
  const std::string& name = x.text;
  for (std::size_t i = binders_.size(); i-- > binder_floor();) {
    if (binders_[i].first != name) continue;
    if (ctx.constant) {
      not_constant(x.where, quote_name(name));
      return Type{};
    }
    x.kind = ExprKind::bound;
    x.ref = static_cast<int>(i);
    return binders_[i].second;
  }
  if (auto t = substitute_param(x, ctx)) return *t;
  if (is_builtin_value(name)) {
    if (ctx.constant) {
      not_constant(x.where, quote_name(name));
      return Type{};
    }
    if (name == "self" && !ctx.self) {
      sink_.error(x.where, "'self' is not defined here; use 'active'");
      return Type{};
    }
    if (name == "forward" || name == "reversed") {
      x.kind = ExprKind::enum_lit;
      x.value = name == "reversed" ? 1 : 0;
      x.text.clear();
      return x.type = Type::turn_order();
    }
    x.kind = name == "active"        ? ExprKind::active
             : name == "opponent"    ? ExprKind::opponent
             : name == "self"        ? ExprKind::self
             : name == "turn_number" ? ExprKind::turn_number
             : name == "stack_size"  ? ExprKind::stack_size
             : name == "top_action"  ? ExprKind::top_action
             : name == "turn_order"  ? ExprKind::turn_order
                                     : ExprKind::top_controller;
    x.text.clear();
    if (x.kind == ExprKind::turn_order) return Type::turn_order();
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
  if (listed(k_domains, name)) {
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
    if (const Callable* c = find_callable(name)) {
      sink_.error(x.where, quote_name(name) + " is a " + (c->macro ? "macro" : "function") +
                               "; use it as " + name + "(...)" + (c->macro ? ", a statement" : ""));
      return Type{};
    }
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
  if (Callable* c = find_callable(fn)) return expand_function(e, *c, ctx);
  const auto arity = [&](std::size_t n, std::string_view shape) {
    if (x.args.size() == n) return true;
    const std::string form = shape.empty() ? "" : " " + std::string(shape);
    sink_.error(x.where, fn + " takes " + plural(n, "argument") + form + ", found " +
                             std::to_string(x.args.size()));
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
  if (fn == "next" || fn == "prev") {
    if (!arity(1, "(player)")) return x.type = Type{};
    if (ctx.constant) {
      not_constant(x.where, fn + "(...)");
      return x.type = Type{};
    }
    const bool ok = expect(x.args[0], ctx, Type::player(), ordinal_argument(0, fn));
    x.kind = fn == "next" ? ExprKind::next_player : ExprKind::prev_player;
    x.text.clear();
    return x.type = ok ? Type::player() : Type{};
  }
  if (fn == "stack_action" || fn == "stack_controller") {
    if (!arity(1, "(position)")) return x.type = Type{};
    if (ctx.constant) {
      not_constant(x.where, fn + "(...)");
      return x.type = Type{};
    }
    const bool ok = expect(x.args[0], ctx, Type::int_(), ordinal_argument(0, fn));
    x.kind = ExprKind::stack_entry;
    x.value = fn == "stack_action" ? 0 : 1;
    x.text.clear();
    if (!ok) return x.type = Type{};
    return x.type = x.value == 0 ? Type::action() : Type::player();
  }
  if (fn == "speed") {
    if (!arity(1, "(action)")) return x.type = Type{};
    if (ctx.constant) {
      not_constant(x.where, "speed(...)");
      return x.type = Type{};
    }
    if (!expect(x.args[0], ctx, Type::action(), ordinal_argument(0, fn))) return x.type = Type{};
    if (game_.speeds.empty()) {
      sink_.error(x.where, "speed(...) needs the game to declare 'speeds'");
      return x.type = Type{};
    }
    x.kind = ExprKind::action_speed;
    x.text.clear();
    return x.type = Type::int_();
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
  std::vector<std::string> names(std::begin(k_functions), std::end(k_functions));
  for (const Callable& c : callables_) {
    if (!c.macro) names.push_back(c.name);
  }
  const std::string suggestion = suggest_name(fn, names);
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
      std::vector<std::string> candidates(std::begin(k_domains), std::end(k_domains));
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

}  // namespace loophole::model
