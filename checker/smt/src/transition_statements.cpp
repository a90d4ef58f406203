// The effects' statements, the lowered form's Stmt nodes, run symbolically
// (Exec of exec.hpp): sequences, conditionals, loops over domains,
// assignments, choices and card moves, in
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

void Exec::run_effect(int s, int self, Tail tail) {
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
      return exec((*k->list)[k->pos], &c);
    }
    case Cont::Kind::loop: {
      const Stmt& s = *k->loop;
      const std::size_t next = k->pos + 1;
      if (next >= static_cast<std::size_t>(en_.domain_size(s.a, self_))) {
        return cont(k->next);
      }
      b_[static_cast<std::size_t>(s.b)] = en_.domain_value(s.a, static_cast<int>(next), self_);
      Cont c = *k;
      c.pos = next;
      return exec(s.body[0], &c);
    }
    case Cont::Kind::tail:
      return finish(k->tail);
  }
}

void Exec::exec(int node, const Cont* k) {
  if (node < 0) return cont(k);
  const Stmt* s = &p_.stmts[static_cast<std::size_t>(node)];
  switch (s->op) {
    case S::seq: {
      if (s->body.empty()) return cont(k);
      Cont c;
      c.kind = Cont::Kind::seq;
      c.next = k;
      c.list = &s->body;
      c.pos = 1;
      return exec(s->body[0], &c);
    }
    case S::assign:
      return exec_assign(*s, k);
    case S::if_: {
      // Conditions in order, each evaluated only when the ones before fail.
      std::size_t i = 0;
      std::function<void()> step = [&] {
        if (i >= s->conds.size()) {
          if (s->body.size() > s->conds.size()) return exec(s->body.back(), k);
          return cont(k);
        }
        Ev ev = env(self_);
        const z3::expr h = en_.eval_bool(s->conds[i], ev);
        const z3::expr err = ev.err.simplify();
        const std::size_t mine = i;
        branch(
            err != -1, [&] { gap(err); },
            [&] {
              branch(
                  h, [&] { exec(s->body[mine], k); },
                  [&] {
                    i = mine + 1;
                    step();
                  });
            });
      };
      return step();
    }
    case S::for_: {
      if (en_.domain_size(s->a, self_) == 0) return cont(k);
      b_[static_cast<std::size_t>(s->b)] = en_.domain_value(s->a, 0, self_);
      Cont c;
      c.kind = Cont::Kind::loop;
      c.next = k;
      c.loop = s;
      c.pos = 0;
      return exec(s->body[0], &c);
    }
    case S::choose:
    case S::pick:
      return exec_choose(*s, k);
    case S::move:
      return exec_cards(*s, k);
    case S::fire:
      return fire_args(*s, 0, k);
    case S::end: {
      Ev ev = env(self_);
      (void)en_.eval_int(s->x, ev);
      const z3::expr err = ev.err.simplify();
      return branch(
          err != -1, [&] { gap(err); },
          [&] {
            at(p_.ctl.over) = num(1);
            output();
          });
    }
    case S::negate: {
      const auto& ctl = p_.ctl;
      if (s->x >= 0) {
        // negate(i): the entry at position i, those above it moving down.
        Ev ev = env(self_);
        const z3::expr pos = en_.eval_int(s->x, ev);
        const z3::expr err = ev.err.simplify();
        return branch(
            err != -1, [&] { gap(err); },
            [&] {
              with_field(ctl.stack_size, [&](int size) {
                if (size == 0) return cont(k);
                branch(
                    pos >= 0 && pos < size,
                    [&] {
                      with_value(pos, 0, size - 1, [&](int i) {
                        const int slot = ctl.stack_base + 2 * i;
                        with_field(slot, [&](int a) {
                          if (en_.game.actions[static_cast<std::size_t>(a)].negatable) {
                            const int top = ctl.stack_base + 2 * (size - 1);
                            for (int j = slot; j < top; ++j) put(j, at(j + 2));
                            put(top, num(0));
                            put(top + 1, num(0));
                            shift_targets(i, size);
                            put(ctl.stack_size, num(size - 1));
                          }
                          cont(k);
                        });
                      });
                    },
                    [&] { cont(k); });
              });
            });
      }
      return with_field(ctl.stack_size, [&](int size) {
        if (size == 0) return cont(k);
        const int slot = ctl.stack_base + 2 * (size - 1);
        with_field(slot, [&](int a) {
          if (en_.game.actions[static_cast<std::size_t>(a)].negatable) {
            put(slot, num(0));
            put(slot + 1, num(0));
            shift_targets(size - 1, size);
            put(ctl.stack_size, num(size - 1));
          }
          cont(k);
        });
      });
    }
    case S::draw_without_zones:
      break;
  }
  // (The statement's location, for the message: its origin in the model.)
  throw Unsupported("draw() without zones 'deck' and 'hand'",
                    static_cast<const model::Stmt*>(s->origin)->where);
}

// `fire(e(...))`: argument i evaluated (a failure or a value outside its
// declared range is a gap), then one case per value it can take, so the
// triggers' conditions and their kept arguments see constants.
void Exec::fire_args(const Stmt& s, std::size_t i, const Cont* k) {
  if (i == s.conds.size()) {
    z3::expr err = num(-1);
    fire(s.a, err);
    return branch(
        err != -1, [&] { gap(err); }, [&] { cont(k); });
  }
  Ev ev = env(self_);
  const z3::expr v = en_.eval_int(s.conds[i], ev);
  const z3::expr err = ev.err.simplify();
  const auto& arg = en_.game.events[static_cast<std::size_t>(s.a)].args[i];
  const auto bind = [&] {
    with_value(v, arg.lo, arg.hi, [&](int x) {
      event_args_.resize(s.conds.size());
      event_args_[i] = x;
      fire_args(s, i + 1, k);
    });
  };
  branch(
      err != -1, [&] { gap(err); },
      [&] {
        if (s.site < 0) return bind();
        branch(
            v < arg.lo || v > arg.hi, [&] { gap(num(s.site)); }, bind);
      });
}

void Exec::exec_assign(const Stmt& s, const Cont* k) {
  const auto& pl = p_.places[static_cast<std::size_t>(s.a)];
  Ev ev = env(self_);
  // (Not a structured binding: clang 14 cannot capture one in a lambda.)
  const auto terms = en_.place_terms(pl, ev);
  const z3::expr& player = terms.first;
  const z3::expr& index = terms.second;
  const z3::expr value = en_.eval_int(s.x, ev);
  const z3::expr err = ev.err.simplify();
  branch(
      err != -1, [&] { gap(err); },
      [&] {
        with_value(player, 0, en_.place_players(pl) - 1, [&](int p) {
          with_value(index, 0, en_.place_indices(pl) - 1, [&](int i) {
            const int slot = Encoding::slot(pl, p, i);
            const z3::expr cur = at(slot);
            const z3::expr nv = s.assign_op == model::Op::add   ? cur + value
                                : s.assign_op == model::Op::sub ? cur - value
                                                                : value;
            const auto& f = p_.layout.fields[static_cast<std::size_t>(slot)];
            branch(
                nv < f.lo || nv > f.hi, [&] { gap(num(s.site)); },
                [&] {
                  put(slot, nv);
                  cont(k);
                });
          });
        });
      });
}

void Exec::exec_choose(const Stmt& s, const Cont* k) {
  const int n = en_.domain_size(s.a, self_);
  Ev ev = env(self_);
  // A pick's chooser (`by P`) is evaluated first: only its failure matters
  // here, since who picks does not change the successors.
  if (s.by >= 0) (void)en_.eval_int(s.by, ev);
  std::vector<z3::expr> ok;
  for (int i = 0; i < n; ++i) {
    b_[static_cast<std::size_t>(s.b)] = en_.domain_value(s.a, i, self_);
    ok.push_back(en_.guard(s.x, ev).simplify());
  }
  const z3::expr err = ev.err.simplify();
  const int body = s.body.empty() ? -1 : s.body[0];
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
          b_[static_cast<std::size_t>(s.b)] = en_.domain_value(s.a, i, self_);
          exec(body, k);
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

// A card movement (draw(p, n), move(z1, z2, k, n), move(z1, z2, n)): the
// outcome is a vector of choice constants, one per kind, constrained to what
// the source holds and summing to n (for a fixed kind, n of that kind).
void Exec::exec_cards(const Stmt& s, const Cont* k) {
  const int kinds = p_.kinds;
  const int site = s.site;
  const auto& mv = s.move;
  const auto& from = p_.places[static_cast<std::size_t>(mv.from)];
  const auto& to = p_.places[static_cast<std::size_t>(mv.to)];
  Ev ev = env(self_);
  z3::expr from_owner = num(0), to_owner = num(0), kind = num(-1);
  if (from.player >= 0) from_owner = en_.eval_int(from.player, ev);
  if (to.player >= 0) {
    to_owner = to.player == from.player ? from_owner : en_.eval_int(to.player, ev);
  }
  const bool chosen = mv.kind < 0;
  if (!chosen) kind = en_.eval_int(mv.kind, ev);
  const z3::expr n = en_.eval_int(mv.count, ev);
  const z3::expr err = ev.err.simplify();
  branch(
      err != -1, [&] { gap(err); },
      [&] {
        with_value(from_owner, 0, en_.place_players(from) - 1, [&](int fo) {
          with_value(to_owner, 0, en_.place_players(to) - 1, [&](int tow) {
            const int fbase = Encoding::slot(from, fo, 0);
            const int tbase = Encoding::slot(to, tow, 0);
            branch(
                n < 0, [&] { gap(num(site + 1)); },
                [&] {
                  z3::expr held = num(0);
                  if (chosen) {
                    for (int kd = 0; kd < kinds; ++kd) held = held + at(fbase + kd);
                  } else {
                    held = en_.select(kind, kinds, [&](int kd) { return at(fbase + kd); });
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
                            constraint = constraint && c >= 0 && c <= at(fbase + kd);
                            sum = sum + c;
                            take.push_back(c);
                          } else {
                            take.push_back(z3::ite(kind == kd, n, num(0)));
                          }
                        }
                        if (chosen) pc_ = pc_ && constraint && sum == n;
                        for (int kd = 0; kd < kinds; ++kd) {
                          put(fbase + kd, at(fbase + kd) - take[static_cast<std::size_t>(kd)]);
                        }
                        z3::expr overfull = c_.bool_val(false);
                        for (int kd = 0; kd < kinds; ++kd) {
                          const int t = tbase + kd;
                          put(t, at(t) + take[static_cast<std::size_t>(kd)]);
                          overfull =
                              overfull || at(t) > p_.layout.fields[static_cast<std::size_t>(t)].hi;
                        }
                        overfull = overfull || over_capacity(mv.to_zone, tbase);
                        branch(
                            overfull, [&] { gap(num(site + 1)); }, [&] { cont(k); });
                      });
                });
          });
        });
      });
}

}  // namespace loophole::smt::detail::symbolic
