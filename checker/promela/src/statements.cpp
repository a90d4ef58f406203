// The Promela generator (generator.hpp): the statements of effects (assign,
// choose, draw, move, ...), appended to a move's body.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "generator.hpp"

namespace loophole::promela::detail {

// ---------------------------------------------------------------------------
// Statements

// A failure code computed at run time: 0 goes on, anything else is the gap.
void Generator::gap_check(std::string& out, const std::string& code) const {
  if (code == "0") return;
  out += "lh_g = " + code + ";\nif :: lh_g != 0 -> goto lh_gap_" + std::to_string(label_) +
         " :: else -> skip fi;\n";
}

void Generator::stmt(std::string& out, const Stmt* s, const Ctx& c) const {
  if (s == nullptr) return;
  switch (s->kind) {
    case StmtKind::block:
      for (const auto& b : s->bodies) stmt(out, b.get(), c);
      return;
    case StmtKind::assign:
      return stmt_assign(out, *s, c);
    case StmtKind::if_: {
      std::string tail;  // built from the last branch backwards
      const bool has_else = s->bodies.size() > s->conds.size();
      if (has_else) stmt(tail, s->bodies.back().get(), c);
      for (std::size_t i = s->conds.size(); i-- > 0;) {
        std::string branch;
        stmt(branch, s->bodies[i].get(), c);
        std::string here;
        gap_check(here, gap(*s->conds[i], c));
        here += "if\n:: " + val(*s->conds[i], c) + " ->\n" + (branch.empty() ? "skip;\n" : branch) +
                ":: else ->\n" + (tail.empty() ? "skip;\n" : tail) + "fi;\n";
        tail = here;
      }
      out += tail;
      return;
    }
    case StmtKind::for_:
      for (const std::int64_t v : domain(s->domain, c.self)) {
        Ctx inner = c;
        inner.binders[s->ref] = v;
        stmt(out, s->bodies[0].get(), inner);
      }
      return;
    case StmtKind::choose:
    case StmtKind::pick:
      return stmt_choose(out, *s, c);
    case StmtKind::draw:
      return stmt_draw(out, *s, c);
    case StmtKind::move_kind:
    case StmtKind::move_any:
      return stmt_move(out, *s, c);
    case StmtKind::fire:
      return fire(out, s->ref);
    case StmtKind::win:
    case StmtKind::lose:
      gap_check(out, gap(*s->args[0], c));
      set(out, p_.ctl.over, "1");
      out += "goto lh_done_" + std::to_string(label_) + ";\n";
      return;
    case StmtKind::negate: {
      if (p_.ctl.stack_size < 0) return;
      std::string alts;
      for (int i = 1; i <= p_.ctl.stack_capacity; ++i) {
        std::string negatable;
        for (std::size_t a = 0; a < g_.actions.size(); ++a) {
          if (!g_.actions[a].negatable) continue;
          negatable += (negatable.empty() ? "" : " || ") + stack_entry(i - 1, 0) +
                       " == " + std::to_string(a);
        }
        if (negatable.empty()) continue;
        alts += ":: " + f(p_.ctl.stack_size) + " == " + std::to_string(i) + " && (" + negatable +
                ") ->\n" + stack_entry(i - 1, 0) + " = 0; " + stack_entry(i - 1, 1) + " = 0; " +
                f(p_.ctl.stack_size) + " = " + std::to_string(i - 1) + ";\n";
      }
      if (!alts.empty()) out += "if\n" + alts + ":: else -> skip\nfi;\n";
      return;
    }
    case StmtKind::shuffle:
    case StmtKind::skip:
      return;
    case StmtKind::call:
      break;
  }
  throw std::logic_error("promela: statement '" + s->text + "' cannot be exported");
}

void Generator::stmt_assign(std::string& out, const Stmt& s, const Ctx& c) const {
  gap_check(out, combine(gap(*s.target, c), gap(*s.value, c)));
  const int site = p_.gaps.at.at(&s) + 1;
  out += "lh_v = " + val(*s.value, c) + ";\n";
  const auto slots = var_slots(*s.target, c);
  std::string alts;
  for (const auto& [cnd, slot] : slots) {
    const auto& sl = g_.slots[slot];
    const std::string nv = s.op == Op::add   ? f(slot) + " + lh_v"
                           : s.op == Op::sub ? f(slot) + " - lh_v"
                                             : "lh_v";
    std::string body = "lh_v = " + nv + ";\nif\n:: lh_v < " + num(sl.lo) + " || lh_v > " +
                       num(sl.hi) + " -> lh_g = " + std::to_string(site) + "; goto lh_gap_" +
                       std::to_string(label_) + "\n:: else -> " + f(slot) + " = lh_v\nfi;\n";
    if (slots.size() == 1 && cnd == "1") {
      out += body;
      return;
    }
    alts += ":: " + cnd + " ->\n" + body;
  }
  out += "if\n" + alts + ":: else -> skip\nfi;\n";
}

void Generator::stmt_choose(std::string& out, const Stmt& s, const Ctx& c) const {
  const Expr* where = s.conds.empty() ? nullptr : s.conds[0].get();
  std::string gaps = "0";
  std::string alts;
  for (const std::int64_t v : domain(s.domain, c.self)) {
    Ctx inner = c;
    inner.binders[s.ref] = v;
    gaps = combine(gaps, test_gap(where, inner));
    std::string body;
    stmt(body, s.bodies.empty() ? nullptr : s.bodies[0].get(), inner);
    alts += ":: " + test_val(where, inner) + " ->\n" + (body.empty() ? "skip;\n" : body);
  }
  // Gap codes are combined in domain order: the first failing `where` wins.
  gap_check(out, gaps);
  if (alts.empty()) return;
  out += "if\n" + alts + ":: else -> skip\nfi;\n";
}

// Moves n cards (n already in lh_n, checked >= 0) from the zone at from_base
// to the one at to_base: of one kind, or a multiset chosen kind by kind (each
// count nondeterministic between what the later kinds can still supply and
// what this kind holds), then checks the destination bounds.
void Generator::move_cards(std::string& out, int from_base, int to_base, int kind, bool chosen,
                           const std::string& held, int site) const {
  const std::string l = std::to_string(label_);
  out += "if :: " + held + " < lh_n -> lh_g = " + std::to_string(site + 1) + "; goto lh_gap_" + l +
         " :: else -> skip fi;\n";
  if (!chosen) {
    out += f(from_base + kind) + " = " + f(from_base + kind) + " - lh_n;\n" + f(to_base + kind) +
           " = " + f(to_base + kind) + " + lh_n;\n";
  } else {
    out += "lh_r = lh_n;\n";
    for (int k = 0; k < kinds_; ++k) {
      if (k + 1 == kinds_) {
        out += "lh_c = lh_r;\n";
      } else {
        std::string later;
        for (int j = k + 1; j < kinds_; ++j) later += " - " + f(from_base + j);
        out += "lh_c = lh_r" + later + ";\nif :: lh_c < 0 -> lh_c = 0 :: else -> skip fi;\n" +
               "lh_h = " + f(from_base + k) +
               ";\nif :: lh_h > lh_r -> lh_h = lh_r :: else -> skip fi;\n" +
               "do :: lh_c < lh_h -> lh_c = lh_c + 1 :: break od;\n";
      }
      out += f(from_base + k) + " = " + f(from_base + k) + " - lh_c;\n" + f(to_base + k) + " = " +
             f(to_base + k) + " + lh_c;\nlh_r = lh_r - lh_c;\n";
    }
  }
  std::string over;
  for (int k = 0; k < kinds_; ++k) {
    if (!chosen && k != kind) continue;
    over += (over.empty() ? "" : " || ") + f(to_base + k) + " > " + num(g_.slots[to_base + k].hi);
  }
  if (!over.empty()) {
    out += "if :: " + over + " -> lh_g = " + std::to_string(site + 2) + "; goto lh_gap_" + l +
           " :: else -> skip fi;\n";
  }
}

void Generator::stmt_draw(std::string& out, const Stmt& s, const Ctx& c) const {
  const int site = p_.gaps.at.at(&s);
  const int deck = g_.deck_zone, hand = g_.hand_zone;
  if (deck < 0 || hand < 0) throw std::logic_error("promela: draw() without deck and hand");
  gap_check(out, combine(gap(*s.args[0], c), gap(*s.args[1], c)));
  out += "lh_n = " + val(*s.args[1], c) +
         ";\nif :: lh_n < 0 -> lh_g = " + std::to_string(site + 2) + "; goto lh_gap_" +
         std::to_string(label_) + " :: else -> skip fi;\n";
  std::string alts;
  const auto players = owners(s.args[0].get(), c);
  for (const auto& [pc, pv] : players) {
    const int deck_base = g_.zones[deck].slot(pv, 0, kinds_);
    const int hand_base = g_.zones[hand].slot(pv, 0, kinds_);
    std::string held;
    for (int k = 0; k < kinds_; ++k) held += (held.empty() ? "" : " + ") + f(deck_base + k);
    std::string body;
    move_cards(body, deck_base, hand_base, -1, true, "(" + (held.empty() ? "0" : held) + ")", site);
    if (players.size() == 1) {
      out += body;
      return;
    }
    alts += ":: " + pc + " ->\n" + body;
  }
  out += "if\n" + alts + "fi;\n";
}

void Generator::stmt_move(std::string& out, const Stmt& s, const Ctx& c) const {
  const bool chosen = s.kind == StmtKind::move_any;
  const int site = p_.gaps.at.at(&s);
  const Expr& from = *s.args[0];
  const Expr& to = *s.args[1];
  const Expr* kind = chosen ? nullptr : s.args[2].get();
  const Expr& count = *s.args[chosen ? 2 : 3];
  auto owner_of = [&](const Expr& z) -> const Expr* {
    return g_.zones[z.ref].per_player && !z.args.empty() ? z.args[0].get() : nullptr;
  };
  std::string g = "0";
  if (owner_of(from) != nullptr) g = combine(g, gap(*owner_of(from), c));
  if (owner_of(to) != nullptr) g = combine(g, gap(*owner_of(to), c));
  if (kind != nullptr) g = combine(g, gap(*kind, c));
  g = combine(g, gap(count, c));
  gap_check(out, g);
  out += "lh_n = " + val(count, c) + ";\nif :: lh_n < 0 -> lh_g = " + std::to_string(site + 2) +
         "; goto lh_gap_" + std::to_string(label_) + " :: else -> skip fi;\n";
  std::vector<std::pair<std::string, int>> ks = {{"1", -1}};
  if (kind != nullptr) {
    ks.clear();
    if (const auto k = constant(*kind, c)) {
      ks.emplace_back("1", static_cast<int>(*k));
    } else {
      const std::string kv = val(*kind, c);
      for (int k = 0; k < kinds_; ++k) ks.emplace_back("(" + kv + ") == " + std::to_string(k), k);
    }
  }
  std::string alts;
  for (const auto& [fc, fo] : owners(owner_of(from), c)) {
    for (const auto& [tc, to_o] : owners(owner_of(to), c)) {
      for (const auto& [kc, kv] : ks) {
        const int from_base = g_.zones[from.ref].slot(fo < 0 ? 0 : fo, 0, kinds_);
        const int to_base = g_.zones[to.ref].slot(to_o < 0 ? 0 : to_o, 0, kinds_);
        std::string held;
        if (chosen) {
          for (int k = 0; k < kinds_; ++k) held += (held.empty() ? "" : " + ") + f(from_base + k);
          held = "(" + (held.empty() ? "0" : held) + ")";
        } else {
          held = f(from_base + kv);
        }
        std::string body;
        move_cards(body, from_base, to_base, kv, chosen, held, site);
        std::string cnd;
        for (const std::string& part : {fc, tc, kc}) {
          if (part != "1") cnd += (cnd.empty() ? "" : " && ") + part;
        }
        alts += ":: " + (cnd.empty() ? "1" : cnd) + " ->\n" + body;
        if (cnd.empty()) {
          out += body;
          return;
        }
      }
    }
  }
  out += "if\n" + alts + "fi;\n";
}

}  // namespace loophole::promela::detail
