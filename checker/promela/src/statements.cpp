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

void Generator::stmt(std::string& out, int i, const Ctx& c) const {
  if (i < 0) return;
  const lowered::Stmt& s = p_.stmts[i];
  switch (s.op) {
    case S::seq:
      for (const int b : s.body) stmt(out, b, c);
      return;
    case S::assign:
      return stmt_assign(out, s, c);
    case S::if_: {
      std::string tail;  // built from the last branch backwards
      const bool has_else = s.body.size() > s.conds.size();
      if (has_else) stmt(tail, s.body.back(), c);
      for (std::size_t k = s.conds.size(); k-- > 0;) {
        std::string branch;
        stmt(branch, s.body[k], c);
        std::string here;
        gap_check(here, gap(s.conds[k], c));
        here += "if\n:: " + val(s.conds[k], c) + " ->\n" + (branch.empty() ? "skip;\n" : branch) +
                ":: else ->\n" + (tail.empty() ? "skip;\n" : tail) + "fi;\n";
        tail = here;
      }
      out += tail;
      return;
    }
    case S::for_:
      for (const std::int64_t v : domain(s.a, c.self)) {
        Ctx inner = c;
        inner.binders[s.b] = v;
        stmt(out, s.body[0], inner);
      }
      return;
    case S::choose:
    case S::pick:
      return stmt_choose(out, s, c);
    case S::move:
      // (A draw whose source has an owner of its own, draw(p, n, z[q]), is
      // a move whose kinds nobody in particular chooses: the same here.)
      if (s.move.chooser == checker::Chooser::nature &&
          (p_.places[s.move.from].player < 0 || p_.places[s.move.from].player == s.x)) {
        return stmt_draw(out, s, c);
      }
      return stmt_move(out, s, c);
    case S::fire:
      if (!s.conds.empty()) return fire_args(out, s, c);
      return fire(out, s.a);
    case S::end:
      gap_check(out, gap(s.x, c));
      set(out, p_.ctl.over, "1");
      out += "goto lh_done_" + std::to_string(label_) + ";\n";
      return;
    case S::negate: {
      if (p_.ctl.stack_size < 0) return;
      if (s.x >= 0) return stmt_negate_at(out, s, c);
      std::string alts;
      for (int k = 1; k <= p_.ctl.stack_capacity; ++k) {
        std::string negatable;
        for (std::size_t a = 0; a < g_.actions.size(); ++a) {
          if (!g_.actions[a].negatable) continue;
          negatable += (negatable.empty() ? "" : " || ") + stack_entry(k - 1, 0) +
                       " == " + std::to_string(a);
        }
        if (negatable.empty()) continue;
        alts += ":: " + f(p_.ctl.stack_size) + " == " + std::to_string(k) + " && (" + negatable +
                ") ->\n" + stack_entry(k - 1, 0) + " = 0; " + stack_entry(k - 1, 1) + " = 0; " +
                shift_targets(k - 1, k) + f(p_.ctl.stack_size) + " = " + std::to_string(k - 1) +
                ";\n";
      }
      if (!alts.empty()) out += "if\n" + alts + ":: else -> skip\nfi;\n";
      return;
    }
    case S::draw_without_zones:
      throw std::logic_error("promela: draw() without deck and hand");
  }
  throw std::logic_error("promela: statement cannot be exported");
}

// negate(i): the entry at position i (lh_v), when there and negatable, is
// removed and the entries above it move down one place.
void Generator::stmt_negate_at(std::string& out, const lowered::Stmt& s, const Ctx& c) const {
  gap_check(out, gap(s.x, c));
  out += "lh_v = " + val(s.x, c) + ";\n";
  std::string alts;
  for (int k = 1; k <= p_.ctl.stack_capacity; ++k) {
    for (int i = 0; i < k; ++i) {
      std::string negatable;
      for (std::size_t a = 0; a < g_.actions.size(); ++a) {
        if (!g_.actions[a].negatable) continue;
        negatable +=
            (negatable.empty() ? "" : " || ") + stack_entry(i, 0) + " == " + std::to_string(a);
      }
      if (negatable.empty()) continue;
      std::string shift;
      for (int j = i; j + 1 < k; ++j) {
        shift += stack_entry(j, 0) + " = " + stack_entry(j + 1, 0) + "; " + stack_entry(j, 1) +
                 " = " + stack_entry(j + 1, 1) + "; ";
      }
      alts += ":: " + f(p_.ctl.stack_size) + " == " + std::to_string(k) +
              " && lh_v == " + std::to_string(i) + " && (" + negatable + ") ->\n" + shift +
              stack_entry(k - 1, 0) + " = 0; " + stack_entry(k - 1, 1) + " = 0; " +
              shift_targets(i, k) + f(p_.ctl.stack_size) + " = " + std::to_string(k - 1) + ";\n";
    }
  }
  if (!alts.empty()) out += "if\n" + alts + ":: else -> skip\nfi;\n";
}

void Generator::stmt_assign(std::string& out, const lowered::Stmt& s, const Ctx& c) const {
  const lowered::Place& target = p_.places[s.a];
  gap_check(out, combine(place_gap(target, c), gap(s.x, c)));
  const int site = s.site + 1;
  out += "lh_v = " + val(s.x, c) + ";\n";
  const auto slots = place_slots(target, c);
  std::string alts;
  for (const auto& [cnd, slot] : slots) {
    const auto& sl = p_.layout.fields[slot];
    const std::string nv = s.assign_op == Op::add   ? f(slot) + " + lh_v"
                           : s.assign_op == Op::sub ? f(slot) + " - lh_v"
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

void Generator::stmt_choose(std::string& out, const lowered::Stmt& s, const Ctx& c) const {
  // A pick's chooser (`by P`) fails first; who picks changes no state.
  std::string gaps = s.by >= 0 ? gap(s.by, c) : "0";
  std::string alts;
  for (const std::int64_t v : domain(s.a, c.self)) {
    Ctx inner = c;
    inner.binders[s.b] = v;
    gaps = combine(gaps, test_gap(s.x, inner));
    std::string body;
    stmt(body, s.body[0], inner);
    alts += ":: " + test_val(s.x, inner) + " ->\n" + (body.empty() ? "skip;\n" : body);
  }
  // Gap codes are combined in domain order: the first failing `where` wins.
  gap_check(out, gaps);
  if (alts.empty()) return;
  out += "if\n" + alts + ":: else -> skip\nfi;\n";
}

// "(sum of the cell at base) > capacity" for a zone with a capacity, else "".
std::string Generator::over_capacity(int zone, int base) const {
  const int capacity = g_.zones[zone].capacity;
  if (capacity < 0) return "";
  std::string held;
  for (int k = 0; k < kinds_; ++k) held += (held.empty() ? "" : " + ") + f(base + k);
  return "(" + (held.empty() ? "0" : held) + ") > " + num(capacity);
}

// Moves n cards (n already in lh_n, checked >= 0) from the zone at from_base
// to the one at to_base: of one kind, or a multiset chosen kind by kind (each
// count nondeterministic between what the later kinds can still supply and
// what this kind holds), then checks the destination bounds.
void Generator::move_cards(std::string& out, int from_base, int to_base, int to_zone, int kind,
                           bool chosen, const std::string& held, int site) const {
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
    over += (over.empty() ? "" : " || ") + f(to_base + k) + " > " +
            num(p_.layout.fields[to_base + k].hi);
  }
  const std::string full = over_capacity(to_zone, to_base);
  if (!full.empty()) over += " || " + full;
  if (!over.empty()) {
    out += "if :: " + over + " -> lh_g = " + std::to_string(site + 2) + "; goto lh_gap_" + l +
           " :: else -> skip fi;\n";
  }
}

void Generator::stmt_draw(std::string& out, const lowered::Stmt& s, const Ctx& c) const {
  const lowered::Move& m = s.move;
  const int site = s.site;
  const lowered::Place& deck = p_.places[m.from];
  const lowered::Place& hand = p_.places[m.to];
  gap_check(out, combine(gap(s.x, c), gap(m.count, c)));
  out += "lh_n = " + val(m.count, c) + ";\nif :: lh_n < 0 -> lh_g = " + std::to_string(site + 2) +
         "; goto lh_gap_" + std::to_string(label_) + " :: else -> skip fi;\n";
  std::string alts;
  const auto players = owners(s.x, c);
  for (const auto& [pc, pv] : players) {
    const int deck_base = deck.base + (deck.player < 0 ? 0 : pv) * deck.player_stride;
    const int hand_base = hand.base + (hand.player < 0 ? 0 : pv) * hand.player_stride;
    std::string held;
    for (int k = 0; k < kinds_; ++k) held += (held.empty() ? "" : " + ") + f(deck_base + k);
    std::string body;
    move_cards(body, deck_base, hand_base, m.to_zone, -1, true,
               "(" + (held.empty() ? "0" : held) + ")", site);
    if (players.size() == 1) {
      out += body;
      return;
    }
    alts += ":: " + pc + " ->\n" + body;
  }
  out += "if\n" + alts + "fi;\n";
}

void Generator::stmt_move(std::string& out, const lowered::Stmt& s, const Ctx& c) const {
  const lowered::Move& m = s.move;
  const bool chosen = m.kind < 0;
  const int site = s.site;
  const lowered::Place& from = p_.places[m.from];
  const lowered::Place& to = p_.places[m.to];
  std::string g = "0";
  if (from.player >= 0) g = combine(g, gap(from.player, c));
  if (to.player >= 0) g = combine(g, gap(to.player, c));
  if (!chosen) g = combine(g, gap(m.kind, c));
  g = combine(g, gap(m.count, c));
  gap_check(out, g);
  out += "lh_n = " + val(m.count, c) + ";\nif :: lh_n < 0 -> lh_g = " + std::to_string(site + 2) +
         "; goto lh_gap_" + std::to_string(label_) + " :: else -> skip fi;\n";
  std::vector<std::pair<std::string, int>> ks = {{"1", -1}};
  if (!chosen) {
    ks.clear();
    if (const auto k = constant(m.kind, c)) {
      ks.emplace_back("1", static_cast<int>(*k));
    } else {
      const std::string kv = val(m.kind, c);
      for (int k = 0; k < kinds_; ++k) ks.emplace_back("(" + kv + ") == " + std::to_string(k), k);
    }
  }
  std::string alts;
  for (const auto& [fc, fo] : owners(from.player, c)) {
    for (const auto& [tc, to_o] : owners(to.player, c)) {
      for (const auto& [kc, kv] : ks) {
        const int from_base = from.base + (fo < 0 ? 0 : fo) * from.player_stride;
        const int to_base = to.base + (to_o < 0 ? 0 : to_o) * to.player_stride;
        std::string held;
        if (chosen) {
          for (int k = 0; k < kinds_; ++k) held += (held.empty() ? "" : " + ") + f(from_base + k);
          held = "(" + (held.empty() ? "0" : held) + ")";
        } else {
          held = f(from_base + kv);
        }
        std::string body;
        move_cards(body, from_base, to_base, m.to_zone, kv, chosen, held, site);
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
