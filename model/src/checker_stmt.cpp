// Checking statements: assignments with their range and type checks, and the
// statement calls (draw, move, fire, win, lose, negate, shuffle) classified
// into StmtKinds with arity and argument types. Part of ExprChecker
// (checker.hpp).
#include <algorithm>
#include <limits>

#include "checker.hpp"
#include "checker_support.hpp"
#include "yaml_reader.hpp"

namespace loophole::model {

using namespace detail;  // NOLINT(google-build-using-namespace): the checker's own helpers

// ---- statements ------------------------------------------------------------

void ExprChecker::check_stmt(StmtPtr& s, const CheckContext& ctx) {
  if (!s) return;
  Stmt& x = *s;
  switch (x.kind) {
    case StmtKind::block: {
      // A macro used among other statements is spliced into them, so the
      // block reads as if its statements had been written there.
      std::vector<StmtPtr> out;
      for (StmtPtr& b : x.bodies) {
        const bool call = b && b->kind == StmtKind::call;
        check_stmt(b, ctx);
        if (call && b->kind == StmtKind::block) {
          for (StmtPtr& inner : b->bodies) out.push_back(std::move(inner));
        } else {
          out.push_back(std::move(b));
        }
      }
      x.bodies = std::move(out);
      return;
    }
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
      // `by P` is evaluated before the choice: the binder is not in scope.
      if (!x.args.empty()) expect(x.args[0], ctx, Type::player(), "the chooser after 'by'");
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
    const bool bound = std::any_of(binders_.begin() + static_cast<std::ptrdiff_t>(binder_floor()),
                                   binders_.end(), [&](const auto& b) { return b.first == name; });
    const bool param =
        !frames_.empty() &&
        std::any_of(frames_.back().callee->params.begin(), frames_.back().callee->params.end(),
                    [&](const auto& p) { return p.first == name; });
    std::string refused;
    if (param) {
      refused = "cannot assign to " + quote_name(name) + ": it is a parameter of macro " +
                quote_name(frames_.back().callee->name);
    } else if (bound) {
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

// `fire(damaged(self, 2))`: one argument per declared one, of its type; a
// constant int outside the declared range is refused here, any other int is
// checked when it fires (a rule gap).
void ExprChecker::check_event_args(Stmt& s, const CheckContext& ctx) {
  const EventDecl& ev = game_.events[static_cast<std::size_t>(s.ref)];
  ExprPtr call = std::move(s.args[0]);
  s.args.clear();
  std::string list;
  for (const EventArg& a : ev.args) list += (list.empty() ? "" : ", ") + a.name;
  if (call->args.size() != ev.args.size()) {
    const std::size_t n = ev.args.size();
    sink_.error(call->where, "event " + quote_name(ev.name) + " takes " + std::to_string(n) +
                                 " argument" + (n == 1 ? "" : "s") +
                                 (n == 0 ? "" : " (" + list + ")") + ", found " +
                                 std::to_string(call->args.size()));
    return;
  }
  for (std::size_t i = 0; i < ev.args.size(); ++i) {
    const EventArg& a = ev.args[i];
    ExprPtr& x = call->args[i];
    const Type t = check(x, ctx, a.type);
    if (is_error(t)) return;
    if (t != a.type) {
      sink_.error(x->where, "argument " + quote_name(a.name) + " of event " + quote_name(ev.name) +
                                " is " + type_name(game_, a.type) + ", found " +
                                type_name(game_, t));
      return;
    }
    if (a.type == Type::int_()) {
      if (auto v = fold(*x); v && (*v < a.lo || *v > a.hi)) {
        sink_.error(x->where, "argument " + quote_name(a.name) + " of event " +
                                  quote_name(ev.name) + " is " + std::to_string(*v) +
                                  ", outside its range " + std::to_string(a.lo) + ".." +
                                  std::to_string(a.hi));
        return;
      }
    }
  }
  s.args = std::move(call->args);
}

void ExprChecker::check_call_stmt(Stmt& s, const CheckContext& ctx) {
  const std::string fn = s.text;
  if (Callable* c = find_callable(fn)) {
    expand_macro(s, *c, ctx);
    return;
  }
  const auto arity = [&](std::size_t n, std::string_view shape) {
    if (s.args.size() == n) return true;
    const std::string form = shape.empty() ? "" : " " + std::string(shape);
    sink_.error(s.where, fn + " takes " + plural(n, "argument") + form + ", found " +
                             std::to_string(s.args.size()));
    return false;
  };
  if (fn == "draw") {
    s.kind = StmtKind::draw;
    if (s.args.size() != 2 && s.args.size() != 3) {
      sink_.error(s.where,
                  "draw takes 2 or 3 arguments (player, count) or (player, count, zone), found " +
                      std::to_string(s.args.size()));
      return;
    }
    expect(s.args[0], ctx, Type::player(), ordinal_argument(0, fn));
    expect(s.args[1], ctx, Type::int_(), ordinal_argument(1, fn));
    // draw(p, n, z): the source named, shared (`stock`) or a player's
    // (`reserve[q]`); draw(p, n) draws from `deck` (p's when per player).
    const bool named = s.args.size() == 3;
    if (named && check_zone_ref(s.args[2], ctx) && s.args[2]->ref == game_.hand_zone) {
      sink_.error(s.args[2]->where, "draw moves cards into 'hand', so it cannot draw from it");
    }
    const bool have = (named || game_.deck_zone >= 0) && game_.hand_zone >= 0;
    if (!have) {
      sink_.error(s.where, named ? "draw needs a zone named 'hand'"
                                 : "draw needs zones named 'deck' and 'hand'");
    } else if (!game_.zones[static_cast<std::size_t>(game_.hand_zone)].per_player) {
      // (The deck may be shared: a draw pile every player draws from.)
      sink_.error(s.where, "draw needs 'hand' to be a per-player zone");
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
    if (s.args.size() > 1) {
      sink_.error(s.where, "negate takes 0 or 1 arguments () or (position), found " +
                               std::to_string(s.args.size()));
      return;
    }
    if (!ctx.negate) {
      sink_.error(s.where, "negate() is only allowed in an action's effect");
      return;
    }
    if (s.args.size() == 1) expect(s.args[0], ctx, Type::int_(), ordinal_argument(0, fn));
    return;
  }
  if (fn == "reverse_turn_order" || fn == "skip_next") {
    s.kind = fn == "skip_next" ? StmtKind::skip_next : StmtKind::reverse_order;
    arity(0, "");
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
    if (arg.kind != ExprKind::name && arg.kind != ExprKind::call) {
      sink_.error(arg.where, "fire needs the name of a custom event");
      return;
    }
    for (const NameDecl* d : lookup(arg.text)) {
      if (d->category == Category::event) {
        s.ref = d->id;
        check_event_args(s, ctx);
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
  std::vector<std::string> names(std::begin(k_statements), std::end(k_statements));
  for (const Callable& c : callables_) {
    if (c.macro) names.push_back(c.name);
  }
  const std::string suggestion = suggest_name(fn, names);
  if (!suggestion.empty()) message += "; did you mean " + quote_name(suggestion) + "?";
  sink_.error(s.where, message);
}

}  // namespace loophole::model
