// The effects' statements, run symbolically (Exec of exec.hpp): blocks,
// conditionals, loops over domains, assignments, choices and card moves, in
// continuation-passing style as in semantics::Run; a data value stays a
// term, a choice among outcomes becomes choice constants constrained to the
// legal ones.
#include <algorithm>
#include <functional>
#include <tuple>
#include <utility>

#include "encoding.hpp"
#include "exec.hpp"

namespace loophole::smt::detail::symbolic {

void Exec::run_effect(const Stmt* s, int self, Tail tail) {
  self_ = self;
  Cont done;
  done.kind = Cont::Kind::tail;
  done.tail = tail;
  exec(s, &done);
}

void Exec::cont(const Cont* k) {
  switch (k->kind) {
    case Cont::Kind::seq: {
      if (k->pos >= k->list->size()) return cont(k->next);
      Cont c = *k;
      c.pos = k->pos + 1;
      return exec((*k->list)[k->pos].get(), &c);
    }
    case Cont::Kind::loop: {
      const Stmt& s = *k->loop;
      const std::size_t next = k->pos + 1;
      if (next >= static_cast<std::size_t>(en_.domain_size(s.domain, self_))) {
        return cont(k->next);
      }
      b_[static_cast<std::size_t>(s.ref)] =
          en_.domain_value(s.domain, static_cast<int>(next), self_);
      Cont c = *k;
      c.pos = next;
      return exec(s.bodies[0].get(), &c);
    }
    case Cont::Kind::tail:
      return finish(k->tail);
  }
}

void Exec::exec(const Stmt* s, const Cont* k) {
  if (s == nullptr) return cont(k);
  switch (s->kind) {
    case StmtKind::block: {
      if (s->bodies.empty()) return cont(k);
      Cont c;
      c.kind = Cont::Kind::seq;
      c.next = k;
      c.list = &s->bodies;
      c.pos = 1;
      return exec(s->bodies[0].get(), &c);
    }
    case StmtKind::assign:
      return exec_assign(*s, k);
    case StmtKind::if_: {
      // Conditions in order, each evaluated only when the ones before fail.
      std::size_t i = 0;
      std::function<void()> step = [&] {
        if (i >= s->conds.size()) {
          if (s->bodies.size() > s->conds.size()) return exec(s->bodies.back().get(), k);
          return cont(k);
        }
        Ev ev = env(self_);
        const z3::expr h = en_.eval_bool(*s->conds[i], ev);
        const z3::expr err = ev.err.simplify();
        const std::size_t mine = i;
        branch(
            err != -1, [&] { gap(err); },
            [&] {
              branch(
                  h, [&] { exec(s->bodies[mine].get(), k); },
                  [&] {
                    i = mine + 1;
                    step();
                  });
            });
      };
      return step();
    }
    case StmtKind::for_: {
      if (en_.domain_size(s->domain, self_) == 0) return cont(k);
      b_[static_cast<std::size_t>(s->ref)] = en_.domain_value(s->domain, 0, self_);
      Cont c;
      c.kind = Cont::Kind::loop;
      c.next = k;
      c.loop = s;
      c.pos = 0;
      return exec(s->bodies[0].get(), &c);
    }
    case StmtKind::choose:
    case StmtKind::pick:
      return exec_choose(*s, k);
    case StmtKind::draw:
    case StmtKind::move_kind:
    case StmtKind::move_any:
      return exec_cards(*s, k);
    case StmtKind::fire: {
      z3::expr err = num(-1);
      fire(s->ref, err);
      return branch(
          err != -1, [&] { gap(err); }, [&] { cont(k); });
    }
    case StmtKind::win:
    case StmtKind::lose: {
      Ev ev = env(self_);
      (void)en_.eval_int(*s->args[0], ev);
      const z3::expr err = ev.err.simplify();
      return branch(
          err != -1, [&] { gap(err); },
          [&] {
            at(p_.ctl.over) = num(1);
            output();
          });
    }
    case StmtKind::negate: {
      const auto& ctl = p_.ctl;
      return with_field(ctl.stack_size, [&](int size) {
        if (size == 0) return cont(k);
        const int slot = ctl.stack_base + 2 * (size - 1);
        with_field(slot, [&](int a) {
          if (en_.game.actions[static_cast<std::size_t>(a)].negatable) {
            put(slot, num(0));
            put(slot + 1, num(0));
            put(ctl.stack_size, num(size - 1));
          }
          cont(k);
        });
      });
    }
    case StmtKind::shuffle:
    case StmtKind::skip:
      return cont(k);
    case StmtKind::call:
      break;
  }
  throw Unsupported("statement '" + s->text + "'", s->where);
}

void Exec::exec_assign(const Stmt& s, const Cont* k) {
  const model::Expr& target = *s.target;
  const auto& v = en_.game.vars[static_cast<std::size_t>(target.ref)];
  Ev ev = env(self_);
  std::size_t arg = 0;
  z3::expr player = num(0), index = num(0);
  if (v.per_player) player = en_.eval_int(*target.args[arg++], ev);
  if (v.array > 0) {
    index = en_.eval_int(*target.args[arg], ev);
    en_.fail_if(ev, &target, index < 0 || index >= v.array);
  }
  const z3::expr value = en_.eval_int(*s.value, ev);
  const z3::expr err = ev.err.simplify();
  branch(
      err != -1, [&] { gap(err); },
      [&] {
        with_value(player, 0, v.per_player ? en_.players - 1 : 0, [&](int p) {
          with_value(index, 0, v.array > 0 ? v.array - 1 : 0, [&](int i) {
            const int slot = v.slot(p, i, target.field);
            const z3::expr cur = at(slot);
            const z3::expr nv = s.op == model::Op::add   ? cur + value
                                : s.op == model::Op::sub ? cur - value
                                                         : value;
            const auto& sl = en_.game.slots[static_cast<std::size_t>(slot)];
            branch(
                nv < sl.lo || nv > sl.hi, [&] { gap(num(p_.gaps.at.at(&s))); },
                [&] {
                  put(slot, nv);
                  cont(k);
                });
          });
        });
      });
}

void Exec::exec_choose(const Stmt& s, const Cont* k) {
  const int n = en_.domain_size(s.domain, self_);
  const model::Expr* where = s.conds.empty() ? nullptr : s.conds[0].get();
  Ev ev = env(self_);
  std::vector<z3::expr> ok;
  for (int i = 0; i < n; ++i) {
    b_[static_cast<std::size_t>(s.ref)] = en_.domain_value(s.domain, i, self_);
    ok.push_back(en_.guard(where, ev).simplify());
  }
  const z3::expr err = ev.err.simplify();
  branch(
      err != -1, [&] { gap(err); },
      [&] {
        const Saved sv = save();
        z3::expr none = c_.bool_val(true);
        for (int i = 0; i < n; ++i) {
          none = none && !ok[static_cast<std::size_t>(i)];
          if (ok[static_cast<std::size_t>(i)].is_false()) continue;
          restore(sv);
          pc_ = sv.pc && ok[static_cast<std::size_t>(i)];
          b_[static_cast<std::size_t>(s.ref)] = en_.domain_value(s.domain, i, self_);
          exec(s.bodies.empty() ? nullptr : s.bodies[0].get(), k);
        }
        restore(sv);
        const z3::expr skip = none.simplify();
        if (skip.is_false()) return;
        pc_ = sv.pc && skip;
        cont(k);
      });
}

z3::expr Exec::fresh_choice() {
  z3::expr c = c_.int_const(("c!" + std::to_string(en_.choices.size())).c_str());
  en_.choices.push_back(c);
  return c;
}

// draw(p, n), move(z1, z2, k, n), move(z1, z2, n): the outcome is a vector of
// choice constants, one per kind, constrained to what the source holds and
// summing to n (for a fixed kind, n of that kind).
void Exec::exec_cards(const Stmt& s, const Cont* k) {
  const int kinds = p_.kinds;
  const int site = p_.gaps.at.at(&s);
  Ev ev = env(self_);
  int from_zone = -1, to_zone = -1;
  z3::expr from_owner = num(0), to_owner = num(0), kind = num(-1), n = num(0);
  const bool chosen = s.kind != StmtKind::move_kind;
  if (s.kind == StmtKind::draw) {
    from_zone = en_.game.deck_zone;
    to_zone = en_.game.hand_zone;
    if (from_zone < 0 || to_zone < 0)
      throw Unsupported("draw() without zones 'deck' and 'hand'", s.where);
    from_owner = en_.eval_int(*s.args[0], ev);
    to_owner = from_owner;
    n = en_.eval_int(*s.args[1], ev);
  } else {
    from_zone = s.args[0]->ref;
    to_zone = s.args[1]->ref;
    const auto& fz = en_.game.zones[static_cast<std::size_t>(from_zone)];
    const auto& tz = en_.game.zones[static_cast<std::size_t>(to_zone)];
    if (fz.per_player && !s.args[0]->args.empty())
      from_owner = en_.eval_int(*s.args[0]->args[0], ev);
    if (tz.per_player && !s.args[1]->args.empty()) to_owner = en_.eval_int(*s.args[1]->args[0], ev);
    if (!chosen) kind = en_.eval_int(*s.args[2], ev);
    n = en_.eval_int(*s.args[chosen ? 2 : 3], ev);
  }
  const z3::expr err = ev.err.simplify();
  const bool from_pp = en_.game.zones[static_cast<std::size_t>(from_zone)].per_player;
  const bool to_pp = en_.game.zones[static_cast<std::size_t>(to_zone)].per_player;
  branch(
      err != -1, [&] { gap(err); },
      [&] {
        with_value(from_owner, 0, from_pp ? en_.players - 1 : 0, [&](int fo) {
          with_value(to_owner, 0, to_pp ? en_.players - 1 : 0, [&](int to) {
            const auto& fz = en_.game.zones[static_cast<std::size_t>(from_zone)];
            const auto& tz = en_.game.zones[static_cast<std::size_t>(to_zone)];
            branch(
                n < 0, [&] { gap(num(site + 1)); },
                [&] {
                  z3::expr held = num(0);
                  if (chosen) {
                    for (int kd = 0; kd < kinds; ++kd) held = held + at(fz.slot(fo, kd, kinds));
                  } else {
                    held =
                        en_.select(kind, kinds, [&](int kd) { return at(fz.slot(fo, kd, kinds)); });
                  }
                  branch(
                      held < n, [&] { gap(num(site)); },
                      [&] {
                        std::vector<z3::expr> take;
                        z3::expr constraint = c_.bool_val(true);
                        z3::expr sum = num(0);
                        for (int kd = 0; kd < kinds; ++kd) {
                          if (chosen) {
                            const z3::expr c = fresh_choice();
                            constraint = constraint && c >= 0 && c <= at(fz.slot(fo, kd, kinds));
                            sum = sum + c;
                            take.push_back(c);
                          } else {
                            take.push_back(z3::ite(kind == kd, n, num(0)));
                          }
                        }
                        if (chosen) pc_ = pc_ && constraint && sum == n;
                        for (int kd = 0; kd < kinds; ++kd) {
                          const int f = fz.slot(fo, kd, kinds);
                          put(f, at(f) - take[static_cast<std::size_t>(kd)]);
                        }
                        z3::expr overfull = c_.bool_val(false);
                        for (int kd = 0; kd < kinds; ++kd) {
                          const int t = tz.slot(to, kd, kinds);
                          put(t, at(t) + take[static_cast<std::size_t>(kd)]);
                          overfull =
                              overfull || at(t) > en_.game.slots[static_cast<std::size_t>(t)].hi;
                        }
                        branch(
                            overfull, [&] { gap(num(site + 1)); }, [&] { cont(k); });
                      });
                });
          });
        });
      });
}

}  // namespace loophole::smt::detail::symbolic
