// Functions and macros: named, typed, expanded in place. A function is a pure
// expression with typed parameters and a result type; a macro a block of
// statements with typed parameters, used as a statement. Each body is checked
// once where it is declared (parameters as typed names) and then, at every
// use, a copy of it is checked in the use's context with each parameter
// replaced by its checked argument. So the IR the engines get has no call in
// it: a ruleset that uses them is the same game as one written out by hand.
// The body sees only its parameters and the declarations (not the binders
// around its use), and recursion is refused: expansion must end.
// Part of ExprChecker (checker.hpp).
#include <algorithm>

#include "checker.hpp"
#include "checker_support.hpp"
#include "ruleset.hpp"

namespace loophole::model {

using namespace detail;  // NOLINT(google-build-using-namespace): the checker's own helpers

namespace {

// Enough for any ruleset written by hand; a chain of functions that each use
// the next several times grows exponentially and stops here with an error.
constexpr std::size_t k_max_expansions = 100000;

ExprPtr clone(const Expr& e);

std::vector<ExprPtr> clone_all(const std::vector<ExprPtr>& v) {
  std::vector<ExprPtr> out;
  out.reserve(v.size());
  for (const ExprPtr& x : v) out.push_back(x ? clone(*x) : nullptr);
  return out;
}

// A copy of a domain whose unfolded bounds point into `bounds` (the copy's own).
Domain clone_domain(const Domain& d, const std::vector<ExprPtr>& bounds) {
  Domain out = d;
  if (d.lo_expr != nullptr && bounds.size() == 2) {
    out.lo_expr = bounds[0].get();
    out.hi_expr = bounds[1].get();
  }
  return out;
}

ExprPtr clone(const Expr& e) {
  auto out = std::make_unique<Expr>();
  out->kind = e.kind;
  out->op = e.op;
  out->type = e.type;
  out->where = e.where;
  out->value = e.value;
  out->ref = e.ref;
  out->field = e.field;
  out->tag = e.tag;
  out->text = e.text;
  out->args = clone_all(e.args);
  out->domain_bounds = clone_all(e.domain_bounds);
  out->domain = clone_domain(e.domain, out->domain_bounds);
  return out;
}

StmtPtr clone(const Stmt& s) {
  auto out = std::make_unique<Stmt>();
  out->kind = s.kind;
  out->op = s.op;
  out->where = s.where;
  out->text = s.text;
  out->ref = s.ref;
  out->target = s.target ? clone(*s.target) : nullptr;
  out->value = s.value ? clone(*s.value) : nullptr;
  out->args = clone_all(s.args);
  out->conds = clone_all(s.conds);
  for (const StmtPtr& b : s.bodies) out->bodies.push_back(b ? clone(*b) : nullptr);
  out->domain_bounds = clone_all(s.domain_bounds);
  out->domain = clone_domain(s.domain, out->domain_bounds);
  return out;
}

std::string what(const Callable& c) {
  return std::string(c.macro ? "macro " : "function ") + quote_name(c.name);
}

// "(p: player, n: int)"
std::string signature(const Game& game, const Callable& c) {
  std::string out = "(";
  for (std::size_t i = 0; i < c.params.size(); ++i) {
    if (i != 0) out += ", ";
    out += c.params[i].first + ": " + type_name(game, c.params[i].second);
  }
  return out + ")";
}

}  // namespace

void ExprChecker::declare_callables(const std::vector<RawCallable>& raw) {
  const auto type_of = [this](const Text& t) -> std::optional<Type> {
    if (t.value == "int") return Type::int_();
    if (t.value == "bool") return Type::bool_();
    if (t.value == "player") return Type::player();
    if (t.value == "kind") return Type::kind();
    if (t.value == "action") return Type::action();
    for (const NameDecl* d : lookup(t.value)) {
      if (d->category == Category::enum_type) return Type::enum_of(d->id);
    }
    std::vector<std::string> names = {"int", "bool", "player", "kind", "action"};
    for (const EnumDecl& en : game_.enums) names.push_back(en.name);
    Diagnostic& d = sink_.error(t.where, "unknown type " + quote_name(t.value));
    const std::string suggestion = suggest_name(t.value, names);
    DiagnosticSink::note(d, SourceSpan{},
                         suggestion.empty()
                             ? "a type is int, bool, player, kind, action or an enum's name"
                             : "did you mean " + quote_name(suggestion) + "?");
    return std::nullopt;
  };
  for (const RawCallable& r : raw) {
    Callable c;
    c.name = r.name.value;
    c.macro = r.macro;
    c.where = r.name.where;
    c.expr = r.expr.get();
    c.body = r.body.get();
    const std::string category = r.macro ? "a macro" : "a function";
    if (is_reserved(c.name) || player_number(c.name) != 0) {
      sink_.error(c.where, quote_name(c.name) + " is a built-in name and cannot name " + category);
      continue;
    }
    if (const Callable* first = find_callable(c.name)) {
      Diagnostic& d =
          sink_.error(c.where, "duplicate " + std::string(r.macro ? "macro" : "function") + " " +
                                   quote_name(c.name));
      DiagnosticSink::note(d, first->where, quote_name(c.name) + " first defined here");
      continue;
    }
    for (const auto& [pname, ptype] : r.params) {
      // (a name, not the binding: clang 14 cannot capture structured bindings)
      const std::string& param_name = pname.value;
      const auto same = [&](const auto& p) { return p.first == param_name; };
      if (std::any_of(c.params.begin(), c.params.end(), same)) {
        sink_.error(pname.where,
                    "duplicate parameter " + quote_name(pname.value) + " of " + what(c));
        c.ok = false;
      } else if (is_builtin_value(pname.value) || player_number(pname.value) != 0 ||
                 listed(k_domains, pname.value)) {
        sink_.error(pname.where,
                    quote_name(pname.value) + " is a built-in name and cannot name a parameter");
        c.ok = false;
      }
      const std::optional<Type> t = type_of(ptype);
      if (!t) c.ok = false;
      c.params.emplace_back(pname.value, t.value_or(Type{}));
      c.param_where.push_back(pname.where);
    }
    if (r.returns) {
      const std::optional<Type> t = type_of(*r.returns);
      if (!t) c.ok = false;
      c.result = t.value_or(Type{});
    }
    callables_.push_back(std::move(c));
  }
}

Callable* ExprChecker::find_callable(const std::string& name) {
  for (Callable& c : callables_) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

void ExprChecker::check_callables() {
  // Binder slots taken by parameters here are not the game's: they exist
  // only while the definition is checked.
  const int slots = max_binders_;
  for (Callable& c : callables_) {
    if (!c.ok) continue;
    const std::size_t errors = sink_.error_count();
    frames_.push_back(Frame{&c, binders_.size(), {}});
    for (std::size_t i = 0; i < c.params.size(); ++i) {
      push_binder(c.params[i].first, c.params[i].second, c.param_where[i]);
    }
    CheckContext ctx;
    ctx.self = true;
    ctx.negate = c.macro;
    if (c.macro) {
      StmtPtr body = clone(*c.body);
      check_stmt(body, ctx);
    } else {
      ExprPtr body = clone(*c.expr);
      const Type t = check(body, ctx, c.result);
      if (!is_error(t) && t != c.result) {
        sink_.error(body->where, "function " + quote_name(c.name) + " returns " +
                                     type_name(game_, c.result) + ", but its expression is " +
                                     type_name(game_, t));
      }
    }
    for (std::size_t i = 0; i < c.params.size(); ++i) pop_binder();
    frames_.pop_back();
    if (sink_.error_count() != errors) c.ok = false;
  }
  max_binders_ = slots;
}

std::optional<Type> ExprChecker::substitute_param(Expr& x, const CheckContext& ctx) {
  if (frames_.empty() || frames_.back().args.empty()) return std::nullopt;
  const Frame& f = frames_.back();
  for (std::size_t i = 0; i < f.callee->params.size(); ++i) {
    if (f.callee->params[i].first != x.text) continue;
    const Expr& arg = *f.args[i];
    if (ctx.constant && !fold(arg)) {
      not_constant(x.where,
                   "parameter " + quote_name(x.text) + " (here " + format_span(arg.where) + ")");
      return Type{};
    }
    ExprPtr copy = clone(arg);
    x = std::move(*copy);
    return x.type;
  }
  return std::nullopt;
}

bool ExprChecker::check_arguments(const Callable& c, std::vector<ExprPtr>& args,
                                  const SourceSpan& where, const CheckContext& ctx) {
  bool ok = true;
  if (args.size() != c.params.size()) {
    sink_.error(where, what(c) + " takes " + plural(c.params.size(), "argument") + " " +
                           signature(game_, c) + ", found " + std::to_string(args.size()));
    ok = false;
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i >= c.params.size()) {
      check(args[i], ctx);
      continue;
    }
    const Type want = c.params[i].second;
    const Type t = check(args[i], ctx, want);
    if (is_error(t) || is_error(want)) {
      ok = false;
    } else if (t != want) {
      sink_.error(args[i]->where, "argument " + std::to_string(i + 1) + " of " + what(c) + " (" +
                                      c.params[i].first + ") must be " + type_name(game_, want) +
                                      ", found " + type_name(game_, t));
      ok = false;
    }
  }
  return ok;
}

bool ExprChecker::recursive_use(Callable& c, const SourceSpan& where) {
  const auto on_stack = [&](const Frame& f) { return f.callee == &c; };
  const auto first = std::find_if(frames_.begin(), frames_.end(), on_stack);
  if (first == frames_.end()) return false;
  std::string chain;
  for (auto it = first; it != frames_.end(); ++it) chain += it->callee->name + " -> ";
  sink_.error(where, what(c) + " uses itself (" + chain + c.name +
                         "); functions and macros cannot be recursive");
  c.ok = false;  // reported once: its other uses add nothing
  return true;
}

Type ExprChecker::expand_function(ExprPtr& e, Callable& c, const CheckContext& ctx) {
  if (c.macro) {
    sink_.error(e->where, quote_name(c.name) + " is a macro (statements), not a function");
    return e->type = Type{};
  }
  const bool args_ok = check_arguments(c, e->args, e->where, ctx);
  if (!args_ok || !c.ok || recursive_use(c, e->where)) return e->type = Type{};
  if (++expansions_ > k_max_expansions) {
    if (expansions_ == k_max_expansions + 1) {
      sink_.error(e->where, "more than " + std::to_string(k_max_expansions) +
                                " uses of functions and macros to expand; the rules grow too "
                                "large (a function that uses another several times, nested)");
    }
    return e->type = Type{};
  }
  const std::size_t first = sink_.all().size();
  ExprPtr body = clone(*c.expr);
  Frame frame{&c, binders_.size(), {}};
  for (const ExprPtr& a : e->args) frame.args.push_back(a.get());
  frames_.push_back(std::move(frame));
  const Type t = check(body, ctx, c.result);
  frames_.pop_back();
  sink_.note_since(first, SourceSpan{}, "in " + what(c) + " used at " + format_span(e->where));
  if (is_error(t)) return e->type = Type{};
  e = std::move(body);
  return t;
}

void ExprChecker::expand_macro(Stmt& s, Callable& c, const CheckContext& ctx) {
  if (!c.macro) {
    sink_.error(s.where, quote_name(c.name) + " is a function (an expression), not a statement");
    return;
  }
  const bool args_ok = check_arguments(c, s.args, s.where, ctx);
  if (!args_ok || !c.ok || recursive_use(c, s.where)) return;
  if (++expansions_ > k_max_expansions) {
    if (expansions_ == k_max_expansions + 1) {
      sink_.error(s.where, "more than " + std::to_string(k_max_expansions) +
                               " uses of functions and macros to expand; the rules grow too "
                               "large (a macro that uses another several times, nested)");
    }
    return;
  }
  const std::size_t first = sink_.all().size();
  StmtPtr body = clone(*c.body);
  Frame frame{&c, binders_.size(), {}};
  for (const ExprPtr& a : s.args) frame.args.push_back(a.get());
  frames_.push_back(std::move(frame));
  check_stmt(body, ctx);
  frames_.pop_back();
  sink_.note_since(first, SourceSpan{}, "in " + what(c) + " used at " + format_span(s.where));
  // The use becomes the body: its statements as a block (which a block
  // around the use splices in), or the one statement itself.
  const SourceSpan where = s.where;
  if (body->kind == StmtKind::block) {
    s.kind = StmtKind::block;
    s.args.clear();
    s.text.clear();
    s.bodies = std::move(body->bodies);
  } else {
    Stmt one = std::move(*body);
    s = std::move(one);
  }
  if (s.kind == StmtKind::block) s.where = where;
}

}  // namespace loophole::model
