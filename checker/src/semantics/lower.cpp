// The lowering (loophole/checker/lowered.hpp): the rules' expressions and
// statements, their names resolved against the tables of Prepared, into the
// flat node arrays every backend translates. The one place besides the
// oracle (eval.cpp, effects.cpp) that reads the model's rule bodies.
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "loophole/checker/lowered.hpp"

#include "prepared.hpp"

namespace loophole::checker::lowered {
namespace {

using model::ExprKind;
using model::Op;
using model::StmtKind;

class Lowering {
 public:
  Lowering(const semantics::Prepared& p, Lowered& out) : p_(p), out_(out) {}

  int expr(const model::Expr* e) { return e == nullptr ? -1 : expr(*e); }
  int stmt(const model::Stmt* s) { return s == nullptr ? -1 : stmt(*s); }

  // An action with targets (model::ActionTarget), in existing nodes. Its
  // guard: `when and exists t0: (t0 < stack_size and where0 and exists
  // t1: ...)` (the entry test only for an entry target).
  int cast_guard(const model::Action& a, int guard) {
    const int any = targets_exist(a, 0);
    return guard < 0 ? any : bool_op(X::and_, guard, any, origin_of(a));
  }
  // Its cost: `pick t0 where ... do pick t1 ... do stack[stack_size].target[i]
  // := ti ... end end; cost`, the stores failing at the push site on a full
  // stack (the cast's entry is stack[stack_size]).
  int cast_cost(const model::Action& a, int action, int cost) {
    Stmt store;
    store.op = S::seq;
    store.origin = a.targets.back().as_pick.get();
    for (std::size_t i = 0; i < a.targets.size(); ++i) {
      Stmt put;
      put.op = S::assign;
      put.a = entry_target(i, action);
      put.x = local(static_cast<int>(i), *a.targets[i].as_exists);
      put.site = out_.push_site[static_cast<std::size_t>(action)];
      put.origin = a.targets[i].as_pick.get();
      store.body.push_back(add_stmt(std::move(put)));
    }
    int body = add_stmt(std::move(store));
    for (std::size_t j = a.targets.size(); j-- > 0;) {
      const auto& t = a.targets[j];
      Stmt pick;
      pick.op = S::pick;
      pick.a = domain(t.as_pick->domain);
      pick.b = static_cast<int>(j);
      pick.x = legal(t, static_cast<int>(j));
      pick.body.push_back(body);
      pick.origin = t.as_pick.get();
      body = add_stmt(std::move(pick));
    }
    if (cost < 0) return body;
    Stmt both;
    both.op = S::seq;
    both.body = {body, cost};
    both.origin = a.targets.front().as_pick.get();
    return add_stmt(std::move(both));
  }
  // Its effect, run once the entry is popped (its targets still in
  // stack[stack_size]): for the values kept, `if targets == (v0, v1, ..)
  // then for t0 in v0..v0: for t1 in v1..v1: (clear the targets; if every
  // target is still legal then effect)`, one branch per combination.
  int resolve_effect(const model::Action& a, int action, int effect) {
    Stmt chain;
    chain.op = S::if_;
    chain.origin = a.targets.front().as_pick.get();
    std::vector<std::int64_t> v;
    for (const auto& t : a.targets) v.push_back(t.lo);
    const auto& front = *a.targets.front().as_exists;
    while (true) {
      int match = -1;
      for (std::size_t i = 0; i < a.targets.size(); ++i) {
        Expr read;
        read.op = X::read;
        read.a = entry_target(i, action);
        const int kept = add(read, *a.targets[i].as_exists);
        const int is = bool_op(X::eq, kept, konst(v[i], front), *a.targets[i].as_exists);
        match = match < 0 ? is : bool_op(X::and_, match, is, front);
      }
      Stmt clear;
      clear.op = S::seq;
      clear.origin = chain.origin;
      for (std::size_t i = 0; i < a.targets.size(); ++i) {
        Stmt put;
        put.op = S::assign;
        put.a = entry_target(i, action);
        put.x = konst(0, front);
        put.site = out_.push_site[static_cast<std::size_t>(action)];
        put.origin = a.targets[i].as_pick.get();
        clear.body.push_back(add_stmt(std::move(put)));
      }
      int still = -1;
      for (std::size_t i = 0; i < a.targets.size(); ++i) {
        const int ok = legal(a.targets[i], static_cast<int>(i));
        still = still < 0 ? ok : bool_op(X::and_, still, ok, front);
      }
      Stmt run;
      run.op = S::if_;
      run.origin = chain.origin;
      run.conds.push_back(still);
      run.body.push_back(effect);
      clear.body.push_back(add_stmt(std::move(run)));
      int body = add_stmt(std::move(clear));
      for (std::size_t j = a.targets.size(); j-- > 0;) {
        Stmt one;
        one.op = S::for_;
        Domain d;
        d.lo = v[j];
        d.size = 1;
        out_.domains.push_back(d);
        one.a = static_cast<int>(out_.domains.size()) - 1;
        one.b = static_cast<int>(j);
        one.body.push_back(body);
        one.origin = a.targets[j].as_pick.get();
        body = add_stmt(std::move(one));
      }
      chain.conds.push_back(match);
      chain.body.push_back(body);
      // The next combination, the last target varying fastest.
      std::size_t j = a.targets.size();
      while (j > 0 && v[j - 1] == a.targets[j - 1].hi) {
        v[j - 1] = a.targets[j - 1].lo;
        --j;
      }
      if (j == 0) break;
      ++v[j - 1];
    }
    return add_stmt(std::move(chain));
  }

 private:
  int add(Expr node, const model::Expr& from) {
    node.origin = &from;
    out_.exprs.push_back(node);
    return static_cast<int>(out_.exprs.size()) - 1;
  }
  int konst(std::int64_t k, const model::Expr& from) {
    Expr n;
    n.k = k;
    return add(n, from);
  }
  // A control field, or 0 when the game has none.
  int field(int index, const model::Expr& from) {
    if (index < 0) return konst(0, from);
    Expr n;
    n.op = X::field;
    n.a = index;
    return add(n, from);
  }
  int op(X o, const model::Expr& from, int x0 = -1, int x1 = -1, int x2 = -1) {
    Expr n;
    n.op = o;
    n.x[0] = x0;
    n.x[1] = x1;
    n.x[2] = x2;
    n.overflow = overflow(from);
    return add(n, from);
  }
  // The player after x in the current turn order (`back`: before it). With
  // a fixed order it is next_player; else (x + 1 + order * (n - 2)) mod n, or
  // (x + n - 1 - order * (n - 2)) mod n, in the arithmetic every backend has
  // (no operation here can overflow, the divisor is the player count).
  int step_player(int x, bool back, const model::Expr& from) {
    const int n = p_.players;
    if (p_.ctl.order < 0 && !back) return op(X::next_player, from, x);
    int offset = konst(back ? n - 1 : 1, from);
    if (p_.ctl.order >= 0 && n > 2) {
      const int turn = op(X::mul, from, field(p_.ctl.order, from), konst(n - 2, from));
      offset = op(back ? X::sub : X::add, from, offset, turn);
    }
    const int sum = op(X::add, from, x, offset);
    return op(X::mod, from, sum, konst(n, from));
  }
  int site(const void* node) const {
    const auto it = p_.gaps.at.find(node);
    return it == p_.gaps.at.end() ? no_site : it->second;
  }
  // Only where the interval analysis put a site may a result leave 64 bits.
  int overflow(const model::Expr& e) const {
    const auto it = p_.gaps.overflow.find(&e);
    return it == p_.gaps.overflow.end() ? -1 : it->second;
  }
  int add_stmt(Stmt n) {
    out_.stmts.push_back(std::move(n));
    return static_cast<int>(out_.stmts.size()) - 1;
  }
  int bool_op(X o, int x0, int x1, const model::Expr& from) {
    Expr n;
    n.op = o;
    n.x[0] = x0;
    n.x[1] = x1;
    return add(n, from);
  }
  int local(int slot, const model::Expr& from) {
    Expr n;
    n.op = X::local;
    n.a = slot;
    return add(n, from);
  }
  const model::Expr& origin_of(const model::Action& a) {
    return a.guard ? *a.guard : *a.targets.front().as_exists;
  }
  // stack[stack_size].target[i]: where the entry being cast keeps target i,
  // and where the entry just popped still has it.
  int entry_target(std::size_t i, int action) {
    Place pl;
    pl.base = p_.ctl.stack_targets + static_cast<int>(i);
    pl.index = field(p_.ctl.stack_size, *p_.game.actions[action].targets[i].as_exists);
    pl.index_stride = p_.ctl.stack_target_count;
    pl.bound = p_.ctl.stack_capacity;
    pl.site = out_.push_site[static_cast<std::size_t>(action)];
    return place(pl);
  }
  // Whether target j's value (local j) is legal: an entry below the one
  // cast (or resolving), then its `where`.
  int legal(const model::ActionTarget& t, int j) {
    const auto& from = *t.as_exists;
    int ok = expr(t.where.get());
    if (t.entry) {
      const int below = bool_op(X::lt, local(j, from), field(p_.ctl.stack_size, from), from);
      ok = ok < 0 ? below : bool_op(X::and_, below, ok, from);
    }
    return ok < 0 ? konst(1, from) : ok;
  }
  int targets_exist(const model::Action& a, std::size_t j) {
    const auto& t = a.targets[j];
    int body = legal(t, static_cast<int>(j));
    if (j + 1 < a.targets.size()) {
      body = bool_op(X::and_, body, targets_exist(a, j + 1), *t.as_exists);
    }
    Expr q;
    q.op = X::exists;
    q.a = domain(t.as_exists->domain);
    q.b = static_cast<int>(j);
    q.x[0] = body;
    return add(q, *t.as_exists);
  }

  int place(Place pl) {
    out_.places.push_back(pl);
    return static_cast<int>(out_.places.size()) - 1;
  }
  int domain(const model::Domain& d) {
    using K = model::Domain::Kind;
    Domain out;
    switch (d.kind) {
      case K::players:
        out.kind = Domain::Kind::players;
        break;
      case K::others:
        out.kind = Domain::Kind::others;
        break;
      case K::range:
        out.lo = d.lo;
        out.size = d.hi < d.lo ? 0 : static_cast<int>(d.hi - d.lo + 1);
        break;
      case K::enum_values:
        out.size = static_cast<int>(p_.game.enums[d.ref].values.size());
        break;
      case K::kinds:
        out.size = p_.kinds;
        break;
      case K::kinds_tagged:
        out.kind = Domain::Kind::list;
        out.list = 1 + d.ref;
        break;
    }
    out_.domains.push_back(out);
    return static_cast<int>(out_.domains.size()) - 1;
  }
  // A zone reference's place (kind 0 of its owner's cells).
  Place zone_place(const model::Expr& zone) {
    const auto& z = p_.game.zones[zone.ref];
    Place pl;
    pl.base = z.first_slot;
    if (z.per_player && !zone.args.empty()) {
      pl.player = expr(*zone.args[0]);
      pl.player_stride = p_.kinds;
    }
    return pl;
  }

 public:
  int expr(const model::Expr& e) {
    switch (e.kind) {
      case ExprKind::int_lit:
      case ExprKind::bool_lit:
      case ExprKind::enum_lit:
      case ExprKind::player_lit:
      case ExprKind::kind_lit:
      case ExprKind::action_lit:
        return konst(e.value, e);
      case ExprKind::active:
        return field(p_.ctl.active, e);
      case ExprKind::opponent:
        return step_player(field(p_.ctl.active, e), false, e);
      case ExprKind::self: {
        Expr n;
        n.op = X::self;
        return add(n, e);
      }
      case ExprKind::turn_number:
        return field(p_.ctl.turn, e);
      case ExprKind::stack_size:
        return field(p_.ctl.stack_size, e);
      case ExprKind::top_action:
      case ExprKind::top_controller: {
        if (p_.ctl.stack_size < 0) return konst(0, e);
        Expr n;
        n.op = X::stack_top;
        n.a = e.kind == ExprKind::top_action ? 0 : 1;
        return add(n, e);
      }
      case ExprKind::next_player:
      case ExprKind::prev_player:
        return step_player(expr(*e.args[0]), e.kind == ExprKind::prev_player, e);
      case ExprKind::turn_order:
        return field(p_.ctl.order, e);
      case ExprKind::stack_entry: {
        // if 0 <= i and i < stack_size then stack[i].action (or .controller) else 0:
        // the entry read where the guard keeps it in range.
        if (p_.ctl.stack_size < 0) return konst(0, e);
        const int inside = op(X::and_, e, op(X::ge, e, expr(*e.args[0]), konst(0, e)),
                              op(X::lt, e, expr(*e.args[0]), field(p_.ctl.stack_size, e)));
        Place pl;
        pl.base = p_.ctl.stack_base + static_cast<int>(e.value);
        pl.index = expr(*e.args[0]);
        pl.index_stride = 2;
        pl.bound = p_.ctl.stack_capacity;
        Expr n;
        n.op = X::read;
        n.a = place(pl);
        return op(X::cond, e, inside, add(n, e), konst(0, e));
      }
      case ExprKind::action_speed: {
        // A table lookup: if a == x or a == y then speed(x) elif ... else the
        // last speed, grouped by speed in the order of first use.
        std::vector<int> speeds;
        for (const auto& a : p_.game.actions) {
          if (std::find(speeds.begin(), speeds.end(), a.speed) == speeds.end())
            speeds.push_back(a.speed);
        }
        if (speeds.empty()) return konst(0, e);
        int out = konst(speeds.back(), e);
        for (std::size_t i = speeds.size() - 1; i-- > 0;) {
          int test = -1;
          for (std::size_t a = 0; a < p_.game.actions.size(); ++a) {
            if (p_.game.actions[a].speed != speeds[i]) continue;
            const int eq = op(X::eq, e, expr(*e.args[0]), konst(static_cast<std::int64_t>(a), e));
            test = test < 0 ? eq : op(X::or_, e, test, eq);
          }
          out = op(X::cond, e, test, konst(speeds[i], e), out);
        }
        return out;
      }
      case ExprKind::var: {
        const auto& v = p_.game.vars[e.ref];
        const int nf = static_cast<int>(v.fields.size());
        Place pl;
        pl.base = v.slot(0, 0, e.field);
        std::size_t arg = 0;
        if (v.per_player) {
          pl.player = expr(*e.args[arg++]);
          pl.player_stride = (v.array == 0 ? 1 : v.array) * nf;
        }
        if (v.array > 0) {
          pl.index = expr(*e.args[arg]);
          pl.index_stride = nf;
          pl.bound = v.array;
          pl.site = site(&e);
        }
        if (pl.player < 0 && pl.index < 0) return field(pl.base, e);
        Expr n;
        n.op = X::read;
        n.a = place(pl);
        return add(n, e);
      }
      case ExprKind::zone_count: {
        Place pl = zone_place(e);
        Expr n;
        if (e.value >= 0 || e.value == -3) {
          if (e.value >= 0) {
            pl.base += static_cast<int>(e.value);
          } else {
            pl.index = expr(*e.args.back());
            pl.index_stride = 1;
          }
          if (pl.player < 0 && pl.index < 0) return field(pl.base, e);
          n.op = X::read;
        } else {
          n.op = X::count;
          n.b = e.value == -1 ? 0 : 1 + e.tag;
        }
        n.a = place(pl);
        return add(n, e);
      }
      case ExprKind::bound: {
        Expr n;
        n.op = X::local;
        n.a = e.ref;
        return add(n, e);
      }
      case ExprKind::unary:
        return op(e.op == Op::not_ ? X::not_ : X::neg, e, expr(*e.args[0]));
      case ExprKind::binary: {
        X o = X::add;
        switch (e.op) {
          case Op::and_:
            o = X::and_;
            break;
          case Op::or_:
            o = X::or_;
            break;
          case Op::add:
            o = X::add;
            break;
          case Op::sub:
            o = X::sub;
            break;
          case Op::mul:
            o = X::mul;
            break;
          case Op::div:
            o = X::div;
            break;
          case Op::mod:
            o = X::mod;
            break;
          case Op::eq:
            o = X::eq;
            break;
          case Op::ne:
            o = X::ne;
            break;
          case Op::lt:
            o = X::lt;
            break;
          case Op::le:
            o = X::le;
            break;
          case Op::gt:
            o = X::gt;
            break;
          case Op::ge:
            o = X::ge;
            break;
          default:
            throw std::logic_error("loophole: internal error: binary operator '" +
                                   std::string(model::to_string(e.op)) + "' not lowered");
        }
        const int a = expr(*e.args[0]);
        const int b = expr(*e.args[1]);
        const int n = op(o, e, a, b);
        if (o == X::div || o == X::mod) out_.exprs[n].site = site(&e);
        return n;
      }
      case ExprKind::cond: {
        const int c = expr(*e.args[0]);
        const int a = expr(*e.args[1]);
        const int b = expr(*e.args[2]);
        return op(X::cond, e, c, a, b);
      }
      case ExprKind::quant: {
        X o = X::sum;
        switch (e.op) {
          case Op::exists:
            o = X::exists;
            break;
          case Op::forall:
            o = X::forall;
            break;
          case Op::count:
            o = X::count_of;
            break;
          default:
            o = X::sum;
            break;
        }
        const int d = domain(e.domain);
        const int body = expr(*e.args[0]);
        const int n = op(o, e, body);
        out_.exprs[n].a = d;
        out_.exprs[n].b = e.ref;
        return n;
      }
      case ExprKind::builtin: {
        X o = X::abs;
        switch (e.op) {
          case Op::min:
            o = X::min;
            break;
          case Op::max:
            o = X::max;
            break;
          case Op::clamp:
            o = X::clamp;
            break;
          default:
            o = X::abs;
            break;
        }
        int xs[3] = {-1, -1, -1};
        for (std::size_t i = 0; i < e.args.size() && i < 3; ++i) xs[i] = expr(*e.args[i]);
        return op(o, e, xs[0], xs[1], xs[2]);
      }
      case ExprKind::name:
      case ExprKind::index:
      case ExprKind::field:
      case ExprKind::call:
        break;
    }
    throw std::logic_error("loophole: internal error: unchecked expression '" + e.text +
                           "' reached the lowering");
  }

  int stmt(const model::Stmt& s) {
    Stmt n;
    n.origin = &s;
    switch (s.kind) {
      case StmtKind::block:
        n.op = S::seq;
        for (const auto& b : s.bodies) n.body.push_back(stmt(*b));
        break;
      case StmtKind::shuffle:
      case StmtKind::skip:
        n.op = S::seq;
        break;
      case StmtKind::assign: {
        n.op = S::assign;
        n.assign_op = s.op;
        const int target = expr(*s.target);
        // The target's place: a variable at a constant place is a field node.
        const Expr& t = out_.exprs[target];
        if (t.op == X::read) {
          n.a = t.a;
        } else {
          Place pl;
          pl.base = t.a;
          n.a = place(pl);
        }
        n.x = expr(*s.value);
        n.site = p_.gaps.at.at(&s);
        break;
      }
      case StmtKind::if_:
        n.op = S::if_;
        for (const auto& c : s.conds) n.conds.push_back(expr(*c));
        for (const auto& b : s.bodies) n.body.push_back(stmt(b.get()));
        break;
      case StmtKind::for_:
        n.op = S::for_;
        n.a = domain(s.domain);
        n.b = s.ref;
        n.body.push_back(stmt(s.bodies[0].get()));
        break;
      case StmtKind::choose:
      case StmtKind::pick:
        n.op = s.kind == StmtKind::pick ? S::pick : S::choose;
        n.a = domain(s.domain);
        n.b = s.ref;
        n.x = s.conds.empty() ? -1 : expr(s.conds[0].get());
        if (s.kind == StmtKind::pick && !s.args.empty()) n.by = expr(*s.args[0]);
        n.body.push_back(s.bodies.empty() ? -1 : stmt(s.bodies[0].get()));
        break;
      case StmtKind::draw: {
        // draw(p, n, z) names its source (a zone reference, as a move's);
        // draw(p, n) draws from `deck`, p's part when it is per player.
        const bool named = s.args.size() == 3;
        const int deck = named ? s.args[2]->ref : p_.game.deck_zone, hand = p_.game.hand_zone;
        if (deck < 0 || hand < 0) {
          // (The compiled generator evaluates the operands before it fails,
          // as the oracle does.)
          n.op = S::draw_without_zones;
          n.x = expr(*s.args[0]);
          n.move.count = expr(*s.args[1]);
          break;
        }
        n.op = S::move;
        n.site = p_.gaps.at.at(&s);
        // (The named source's owner is evaluated first, as a move's.)
        Place from = named ? zone_place(*s.args[2]) : Place{};
        const int player = expr(*s.args[0]);
        Place to;
        if (!named) from.base = p_.game.zones[deck].first_slot;
        to.base = p_.game.zones[hand].first_slot;
        if (!named && p_.game.zones[deck].per_player) {
          from.player = player, from.player_stride = p_.kinds;
        }
        if (p_.game.zones[hand].per_player) to.player = player, to.player_stride = p_.kinds;
        n.move.from = place(from);
        n.move.to = place(to);
        n.move.from_zone = deck;
        n.move.to_zone = hand;
        n.move.count = expr(*s.args[1]);
        n.move.chooser = Chooser::nature;
        n.x = player;
        break;
      }
      case StmtKind::move_kind:
      case StmtKind::move_any: {
        const bool chosen = s.kind == StmtKind::move_any;
        n.op = S::move;
        n.site = p_.gaps.at.at(&s);
        n.move.from_zone = s.args[0]->ref;
        n.move.to_zone = s.args[1]->ref;
        n.move.from = place(zone_place(*s.args[0]));
        n.move.to = place(zone_place(*s.args[1]));
        n.move.kind = chosen ? -1 : expr(*s.args[2]);
        n.move.count = expr(*s.args[chosen ? 2 : 3]);
        n.move.chooser = chosen ? Chooser::player : Chooser::none;
        break;
      }
      case StmtKind::fire: {
        n.op = S::fire;
        n.a = s.ref;
        for (const auto& arg : s.args) n.conds.push_back(expr(*arg));
        const auto site = p_.gaps.at.find(&s);
        if (site != p_.gaps.at.end()) n.site = site->second;
        break;
      }
      case StmtKind::win:
      case StmtKind::lose:
        n.op = S::end;
        n.a = s.kind == StmtKind::win ? 1 : 0;
        n.x = expr(*s.args[0]);
        break;
      case StmtKind::negate:
        n.op = S::negate;
        if (!s.args.empty()) n.x = expr(*s.args[0]);
        break;
      case StmtKind::reverse_order:
      case StmtKind::skip_next: {
        // An assignment to the control field (order := 1 - order, skip := 1),
        // which always stays in 0..1; the value's nodes have no origin in
        // the rules.
        const bool rev = s.kind == StmtKind::reverse_order;
        const int index = rev ? p_.ctl.order : p_.ctl.skip;
        n.op = S::assign;
        Place pl;
        pl.base = index;
        n.a = place(pl);
        Expr one;
        one.k = 1;
        out_.exprs.push_back(one);
        n.x = static_cast<int>(out_.exprs.size()) - 1;
        if (rev) {
          Expr cur;
          cur.op = X::field;
          cur.a = index;
          out_.exprs.push_back(cur);
          Expr diff;
          diff.op = X::sub;
          diff.x[0] = n.x;
          diff.x[1] = static_cast<int>(out_.exprs.size()) - 1;
          out_.exprs.push_back(diff);
          n.x = static_cast<int>(out_.exprs.size()) - 1;
        }
        n.site = no_site;
        break;
      }
      case StmtKind::call:
        throw std::logic_error("loophole: internal error: unchecked statement '" + s.text +
                               "' reached the lowering");
    }
    out_.stmts.push_back(std::move(n));
    return static_cast<int>(out_.stmts.size()) - 1;
  }

 private:
  const semantics::Prepared& p_;
  Lowered& out_;
};

}  // namespace

Lowered lower(const model::Game& game) {
  const semantics::Prepared p(game);
  Lowered out;
  out.game = &game;
  out.players = p.players;
  out.kinds = p.kinds;
  out.locals = game.binder_slots;
  out.layout = p.layout;
  out.ctl = p.ctl;
  out.gap_sites = p.gaps.sites;
  out.play_site = p.gaps.play_site;
  out.push_site = p.gaps.push_site;
  out.beyond_int32 = p.gaps.beyond_int32;
  out.beyond_int32_at = p.gaps.beyond_int32_at;
  out.triggers_by_event = p.triggers_by_event;
  out.window_actions = p.window_actions;
  out.window_used = p.window_used;
  out.begin_turn_event = p.begin_turn_event;
  out.end_turn_event = p.end_turn_event;
  out.lists.emplace_back();
  for (int k = 0; k < p.kinds; ++k) out.lists[0].push_back(k);
  for (const auto& tagged : p.kinds_by_tag) out.lists.push_back(tagged);

  Lowering l(p, out);
  Rules& r = out.rules;
  r.setup = l.stmt(game.setup.get());
  for (const auto& st : game.steps) {
    r.step_effect.push_back(l.stmt(st.effects.get()));
    r.step_repeat.push_back(l.expr(st.repeat_while.get()));
    r.step_end_turn.push_back(l.expr(st.end_turn_if.get()));
  }
  for (std::size_t i = 0; i < game.actions.size(); ++i) {
    const auto& a = game.actions[i];
    r.action_guard.push_back(l.expr(a.guard.get()));
    r.action_cost.push_back(l.stmt(a.cost.get()));
    r.action_effect.push_back(l.stmt(a.effect.get()));
    r.action_rule_guard.push_back(r.action_guard.back());
    r.action_rule_cost.push_back(r.action_cost.back());
    r.action_rule_effect.push_back(r.action_effect.back());
    if (a.targets.empty() || out.ctl.stack_targets < 0) continue;
    const int act = static_cast<int>(i);
    r.action_guard.back() = l.cast_guard(a, r.action_guard.back());
    r.action_cost.back() = l.cast_cost(a, act, r.action_cost.back());
    r.action_effect.back() = l.resolve_effect(a, act, r.action_effect.back());
  }
  for (const auto& t : game.triggers) {
    r.trigger_condition.push_back(l.expr(t.condition.get()));
    r.trigger_effect.push_back(l.stmt(t.effect.get()));
  }
  for (const auto& e : game.end_conditions) r.end_condition.push_back(l.expr(e.condition.get()));
  for (const auto& prop : game.properties) {
    r.property_expr.push_back(l.expr(prop.expr.get()));
    r.property_to.push_back(l.expr(prop.to.get()));
  }
  return out;
}

}  // namespace loophole::checker::lowered
