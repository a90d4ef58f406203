// Statements: the effect executor. exec() runs one statement and then its
// continuation; a choice point (choose, pick, draw, move of chosen kinds)
// saves the state once and runs the continuation for each outcome in
// canonical order (domain order; multisets of kinds in lexicographic order of
// their counts, the last kind varying fastest), so nested choices are
// enumerated depth first in statement order. A path that leaves the rules'
// bounds emits a gap successor and stops; win/lose emits a game-over state
// and stops.
#include <algorithm>
#include <stdexcept>

#include "run.hpp"

namespace loophole::checker::semantics {

using model::Stmt;
using model::StmtKind;

namespace {

// Every count vector c with 0 <= c[k] <= avail[k] and sum c == rem, in
// lexicographic order (the last kind varying fastest), appended to out
// (`kinds` entries each). suffix[k] is how many cards kinds k.. hold together.
void multisets(int k, std::int64_t rem, int kinds, const std::int32_t* avail,
               const std::int64_t* suffix, std::int32_t* cur, std::vector<std::int32_t>& out) {
  if (k == kinds) {
    if (rem == 0) out.insert(out.end(), cur, cur + kinds);
    return;
  }
  const std::int64_t lo = std::max<std::int64_t>(0, rem - suffix[k + 1]);
  const std::int64_t hi = std::min<std::int64_t>(avail[k], rem);
  for (std::int64_t c = lo; c <= hi; ++c) {
    cur[k] = static_cast<std::int32_t>(c);
    multisets(k + 1, rem - c, kinds, avail, suffix, cur, out);
  }
  cur[k] = 0;
}

}  // namespace

void Run::enumerate_multisets(const std::int32_t* avail, std::int64_t n,
                              std::vector<std::int32_t>& out) {
  const int kinds = p_.kinds;
  sc_.suffix.assign(kinds + 1, 0);
  for (int k = kinds - 1; k >= 0; --k) sc_.suffix[k] = sc_.suffix[k + 1] + avail[k];
  sc_.counts.assign(kinds, 0);
  multisets(0, n, kinds, avail, sc_.suffix.data(), sc_.counts.data(), out);
}

int Run::push_choice() {
  const int d = depth_++;
  if (static_cast<int>(sc_.snaps.size()) <= d) sc_.snaps.resize(d + 1);
  if (static_cast<int>(sc_.outcomes.size()) <= d) sc_.outcomes.resize(d + 1);
  sc_.outcomes[d].clear();
  return d;
}

void Run::save(int d) {
  Snapshot& snap = sc_.snaps[d];
  snap.state = sc_.work;
  snap.binders = sc_.binders;
  snap.self = self_;
  snap.voice = voice_;
  snap.choices = sc_.choices.size();
  snap.notes = sc_.notes.size();
  snap.picker = picker_;
  snap.nature = nature_;
  snap.progress = progress_;
}

void Run::restore(int d) {
  const Snapshot& snap = sc_.snaps[d];
  sc_.work = snap.state;
  sc_.binders = snap.binders;
  self_ = snap.self;
  voice_ = snap.voice;
  sc_.choices.resize(snap.choices);
  sc_.notes.resize(snap.notes);
  picker_ = snap.picker;
  nature_ = snap.nature;
  progress_ = snap.progress;
}

void Run::note(std::string text) {
  if (record_) sc_.notes.push_back(std::move(text));
}

void Run::note_gap(std::string detail) {
  if (record_) sc_.notes.push_back("rule gap: " + std::move(detail));
}

std::string Run::format(const model::Domain& d, std::int64_t v) const {
  using K = model::Domain::Kind;
  switch (d.kind) {
    case K::players:
    case K::others:
      return p_.player_name(static_cast<int>(v));
    case K::enum_values:
      return p_.game.enums[d.ref].values[v];
    case K::kinds:
    case K::kinds_tagged:
      return "'" + p_.game.kinds[v].name + "'";
    case K::range:
      break;
  }
  return std::to_string(v);
}

std::string Run::kinds_text(const std::int32_t* counts) const {
  std::string text;
  for (int k = 0; k < p_.kinds; ++k) {
    if (counts[k] == 0) continue;
    if (!text.empty()) text += ", ";
    text += "'" + p_.game.kinds[k].name + "'";
    if (counts[k] > 1) text += " ×" + std::to_string(counts[k]);
  }
  return text.empty() ? "nothing" : text;
}

void Run::run_effect(const Stmt* s, int self, Tail tail) {
  self_ = self;
  voice_ = -1;
  Cont done;
  done.kind = Cont::Kind::tail;
  done.tail = tail;
  exec(s, &done);
}

void Run::cont(const Cont* k) {
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
      if (next >= static_cast<std::size_t>(ev_.domain_size(s.domain, self_))) return cont(k->next);
      sc_.binders[s.ref] = ev_.domain_value(s.domain, static_cast<int>(next), self_);
      Cont c = *k;
      c.pos = next;
      return exec(s.bodies[0].get(), &c);
    }
    case Cont::Kind::tail:
      return finish(k->tail);
    case Cont::Kind::voice:
      voice_ = k->voice;
      return cont(k->next);
  }
}

void Run::exec(const Stmt* s, const Cont* k) {
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
    case StmtKind::assign: {
      Env e = env(self_);
      const int slot = ev_.var_slot(*s->target, e);
      const std::int64_t v = ev_.eval(*s->value, e);
      if (e.error >= 0) return gap(e.error);
      const std::int64_t cur = sc_.work[slot];
      std::int64_t nv = v;
      // (A result beyond 64 bits leaves every slot's range too.)
      const bool beyond = s->op == model::Op::add   ? __builtin_add_overflow(cur, v, &nv)
                          : s->op == model::Op::sub ? __builtin_sub_overflow(cur, v, &nv)
                                                    : false;
      const auto& sl = p_.game.slots[slot];
      if (beyond || nv < sl.lo || nv > sl.hi) {
        note_gap(sl.name + " " + std::to_string(cur) + "→" +
                 (beyond ? std::string("beyond 64 bits") : std::to_string(nv)) + " leaves " +
                 std::to_string(sl.lo) + ".." + std::to_string(sl.hi));
        return gap(p_.gaps.at.at(s));
      }
      sc_.work[slot] = static_cast<std::int32_t>(nv);
      return cont(k);
    }
    case StmtKind::if_: {
      for (std::size_t i = 0; i < s->conds.size(); ++i) {
        Env e = env(self_);
        const bool holds = ev_.test(s->conds[i].get(), e);
        if (e.error >= 0) return gap(e.error);
        if (holds) return exec(s->bodies[i].get(), k);
      }
      if (s->bodies.size() > s->conds.size()) return exec(s->bodies.back().get(), k);
      return cont(k);
    }
    case StmtKind::for_: {
      if (ev_.domain_size(s->domain, self_) == 0) return cont(k);
      sc_.binders[s->ref] = ev_.domain_value(s->domain, 0, self_);
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
      return exec_draw(*s, k);
    case StmtKind::move_kind:
    case StmtKind::move_any:
      return exec_move(*s, k);
    case StmtKind::fire: {
      const int site = fire(s->ref, s);
      if (site >= 0) return gap(site);
      return cont(k);
    }
    case StmtKind::win:
    case StmtKind::lose:
      return exec_end(*s);
    case StmtKind::negate:
      return exec_negate(*s, k);
    case StmtKind::reverse_order: {
      std::int32_t* w = sc_.work.data();
      w[p_.ctl.order] = 1 - w[p_.ctl.order];
      note(std::string("the turn order is now ") + (w[p_.ctl.order] != 0 ? "reversed" : "forward"));
      return cont(k);
    }
    case StmtKind::skip_next:
      sc_.work[p_.ctl.skip] = 1;
      note("the next player in turn order will be skipped");
      return cont(k);
    case StmtKind::shuffle:
    case StmtKind::skip:
      return cont(k);
    case StmtKind::call:
      break;
  }
  throw std::logic_error("loophole: internal error: unchecked statement '" + s->text +
                         "' reached the semantics");
}

void Run::exec_choose(const Stmt& s, const Cont* k) {
  // Who picks: the player `by P` names (evaluated first, once), else self.
  int chooser = self_;
  if (s.kind == StmtKind::pick && !s.args.empty()) {
    Env e = env(self_);
    chooser = static_cast<int>(ev_.eval(*s.args[0], e));
    if (e.error >= 0) return gap(e.error);
  }
  const int d = push_choice();
  const int n = ev_.domain_size(s.domain, self_);
  const model::Expr* where = s.conds.empty() ? nullptr : s.conds[0].get();
  for (int i = 0; i < n; ++i) {
    const std::int64_t v = ev_.domain_value(s.domain, i, self_);
    sc_.binders[s.ref] = v;
    Env e = env(self_);
    const bool ok = ev_.test(where, e);
    if (e.error >= 0) {
      depth_ = d;
      return gap(e.error);
    }
    if (ok) sc_.outcomes[d].push_back(static_cast<std::int32_t>(i));
  }
  const std::size_t count = sc_.outcomes[d].size();
  if (count == 0) {
    depth_ = d;
    return cont(k);
  }
  const bool by_player = s.kind == StmtKind::pick;
  if (count > 1) save(d);
  for (std::size_t o = 0; o < count; ++o) {
    if (o > 0) restore(d);
    const std::int64_t v = ev_.domain_value(s.domain, sc_.outcomes[d][o], self_);
    sc_.binders[s.ref] = v;
    if (count > 1) {
      if (!by_player) nature_ = true;
      if (by_player && picker_ < 0) picker_ = chooser;
    }
    if (record_) {
      Choice c;
      c.by = by_player ? Choice::By::player : Choice::By::nature;
      c.player = by_player ? chooser : -1;
      c.text = (by_player ? "picked " : "chose ") + format(s.domain, v);
      sc_.choices.push_back(std::move(c));
      // A real choice is part of the transcript: who made it and what it was.
      if (count > 1) {
        note((by_player ? p_.player_name(chooser) + " picks " : std::string("nature chooses ")) +
             format(s.domain, v));
      }
    }
    if (s.kind == StmtKind::pick && !s.args.empty() && !s.bodies.empty()) {
      // The body speaks with the chooser's voice, then the old one is back.
      Cont back;
      back.kind = Cont::Kind::voice;
      back.next = k;
      back.voice = voice_;
      voice_ = chooser;
      exec(s.bodies[0].get(), &back);
    } else {
      exec(s.bodies.empty() ? nullptr : s.bodies[0].get(), k);
    }
  }
  depth_ = d;
}

// Whether owner's part of zone z holds more cards than the zone's
// `capacity`, and the words for it in a gap's note.
bool Run::over_capacity(int z, int owner) const {
  const int capacity = p_.game.zones[z].capacity;
  return capacity >= 0 && ev_.zone_total(z, owner, sc_.work.data()) > capacity;
}
std::string Run::capacity_text(int z) const {
  const int capacity = p_.game.zones[z].capacity;
  return capacity < 0 ? "" : " (capacity " + std::to_string(capacity) + ")";
}

// draw(p, n) draws from `deck` (p's part when per player); draw(p, n, z)
// from the zone z names, whose owner is evaluated first (as a move's source).
void Run::exec_draw(const Stmt& s, const Cont* k) {
  Env e = env(self_);
  const bool named = s.args.size() == 3;
  const int source_owner = named ? ev_.zone_owner(*s.args[2], e) : -1;
  const int player = static_cast<int>(ev_.eval(*s.args[0], e));
  const std::int64_t n = ev_.eval(*s.args[1], e);
  if (e.error >= 0) return gap(e.error);
  auto site = [&] { return p_.gaps.at.at(&s); };
  const int deck = named ? s.args[2]->ref : p_.game.deck_zone, hand = p_.game.hand_zone;
  if (deck < 0 || hand < 0) {
    throw std::logic_error("loophole: internal error: draw() without zones 'deck' and 'hand'");
  }
  if (n < 0) {
    note_gap("draw of " + std::to_string(n) + " cards");
    return gap(site() + 1);
  }
  const int owner = named ? source_owner : player;
  const int deck_base = ev_.zone_slot(deck, owner, 0);
  const int hand_base = ev_.zone_slot(hand, player, 0);
  const std::int64_t held = ev_.zone_total(deck, owner, sc_.work.data());
  if (held < n) {
    const auto& z = p_.game.zones[deck];
    note_gap("draw from an empty " + (named ? z.name : std::string("deck")) + ": " + z.name +
             (z.per_player ? "[" + p_.player_name(owner) + "]" : "") + " holds " +
             std::to_string(held) + ", " + std::to_string(n) + " needed");
    return gap(site());
  }
  if (n == 0) return cont(k);
  const int d = push_choice();
  enumerate_multisets(&sc_.work[deck_base], n, sc_.outcomes[d]);
  const std::size_t outcomes = sc_.outcomes[d].size() / p_.kinds;
  if (outcomes > 1) save(d);
  for (std::size_t o = 0; o < outcomes; ++o) {
    if (o > 0) restore(d);
    bool overfull = false;
    for (int kd = 0; kd < p_.kinds; ++kd) {
      const std::int32_t c = sc_.outcomes[d][o * p_.kinds + kd];
      sc_.work[deck_base + kd] -= c;
      sc_.work[hand_base + kd] += c;
      overfull = overfull || sc_.work[hand_base + kd] > p_.game.slots[hand_base + kd].hi;
    }
    overfull = overfull || over_capacity(hand, player);
    if (outcomes > 1) nature_ = true;
    if (record_) {
      Choice c;
      c.text = "drew " + kinds_text(&sc_.outcomes[d][o * p_.kinds]);
      sc_.choices.push_back(std::move(c));
      note(p_.player_name(player) + " draws " + kinds_text(&sc_.outcomes[d][o * p_.kinds]));
    }
    if (overfull) {
      note_gap("draw overfills " + p_.game.zones[hand].name + "[" + p_.player_name(player) + "]" +
               capacity_text(hand));
      gap(site() + 1);
    } else {
      cont(k);
    }
  }
  depth_ = d;
}

void Run::exec_move(const Stmt& s, const Cont* k) {
  const bool chosen = s.kind == StmtKind::move_any;
  Env e = env(self_);
  const int from = s.args[0]->ref, to = s.args[1]->ref;
  const int from_owner = ev_.zone_owner(*s.args[0], e);
  const int to_owner = ev_.zone_owner(*s.args[1], e);
  const std::int64_t kind = chosen ? -1 : ev_.eval(*s.args[2], e);
  const std::int64_t n = ev_.eval(*s.args[chosen ? 2 : 3], e);
  if (e.error >= 0) return gap(e.error);
  auto site = [&] { return p_.gaps.at.at(&s); };
  auto zone_name = [&](int z, int owner) {
    return p_.game.zones[z].name + (owner < 0 ? "" : "[" + p_.player_name(owner) + "]");
  };
  if (n < 0) {
    note_gap("move of " + std::to_string(n) + " cards");
    return gap(site() + 1);
  }
  const int from_base = ev_.zone_slot(from, from_owner, 0);
  const int to_base = ev_.zone_slot(to, to_owner, 0);
  const std::int64_t held =
      chosen ? ev_.zone_total(from, from_owner, sc_.work.data()) : sc_.work[from_base + kind];
  if (held < n) {
    note_gap("move from " + zone_name(from, from_owner) + ": it holds " + std::to_string(held) +
             (chosen ? "" : " " + p_.game.kinds[kind].name) + ", " + std::to_string(n) + " needed");
    return gap(site());
  }
  if (n == 0) return cont(k);
  const int d = push_choice();
  auto& outs = sc_.outcomes[d];
  if (chosen) {
    enumerate_multisets(&sc_.work[from_base], n, outs);
  } else {
    outs.assign(p_.kinds, 0);
    outs[kind] = static_cast<std::int32_t>(n);
  }
  const std::size_t outcomes = outs.size() / p_.kinds;
  if (outcomes > 1) save(d);
  for (std::size_t o = 0; o < outcomes; ++o) {
    if (o > 0) restore(d);
    bool overfull = false;
    for (int kd = 0; kd < p_.kinds; ++kd) {
      const std::int32_t c = sc_.outcomes[d][o * p_.kinds + kd];
      sc_.work[from_base + kd] -= c;
      sc_.work[to_base + kd] += c;
    }
    for (int kd = 0; kd < p_.kinds; ++kd) {
      overfull = overfull || sc_.work[to_base + kd] > p_.game.slots[to_base + kd].hi;
    }
    overfull = overfull || over_capacity(to, to_owner);
    if (outcomes > 1 && picker_ < 0) picker_ = self_;
    if (record_) {
      const std::string kinds = kinds_text(&sc_.outcomes[d][o * p_.kinds]);
      if (chosen) {
        Choice c;
        c.by = Choice::By::player;
        c.player = self_;
        c.text = "moved " + kinds;
        sc_.choices.push_back(std::move(c));
      }
      const int mover = !chosen && voice_ >= 0 ? voice_ : self_;
      note(p_.player_name(mover) + " moves " + kinds + " from " + zone_name(from, from_owner) +
           " to " + zone_name(to, to_owner));
    }
    if (overfull) {
      note_gap("move overfills " + zone_name(to, to_owner) + capacity_text(to));
      gap(site() + 1);
    } else {
      cont(k);
    }
  }
  depth_ = d;
}

void Run::exec_end(const Stmt& s) {
  Env e = env(self_);
  const int player = static_cast<int>(ev_.eval(*s.args[0], e));
  if (e.error >= 0) return gap(e.error);
  sc_.work[p_.ctl.over] = 1;
  note(p_.player_name(player) + (s.kind == StmtKind::win ? " wins" : " loses"));
  end_player_ = player;
  end_win_ = s.kind == StmtKind::win;
  output(sc_.work);
}

void Run::exec_negate(const Stmt& s, const Cont* k) {
  std::int32_t* w = sc_.work.data();
  const int size = get(w, p_.ctl.stack_size);
  // negate() is the top entry; negate(i) the entry at position i from the
  // bottom, the entries above it moving down one place.
  std::int64_t i = size - 1;
  if (!s.args.empty()) {
    Env e = env(self_);
    i = ev_.eval(*s.args[0], e);
    if (e.error >= 0) return gap(e.error);
  }
  if (i >= 0 && i < size) {
    const int at = p_.ctl.stack_base + 2 * static_cast<int>(i);
    const int action = w[at];
    if (p_.game.actions[action].negatable) {
      const int top = p_.ctl.stack_base + 2 * (size - 1);
      for (int j = at; j < top; ++j) w[j] = w[j + 2];
      w[top] = 0;
      w[top + 1] = 0;
      // The entries' targets move down with them.
      const int k = p_.ctl.stack_target_count;
      if (k > 0) {
        const int from = p_.ctl.stack_targets + k * static_cast<int>(i);
        const int last = p_.ctl.stack_targets + k * (size - 1);
        for (int j = from; j < last; ++j) w[j] = w[j + k];
        for (int j = last; j < last + k; ++j) w[j] = 0;
      }
      w[p_.ctl.stack_size] = size - 1;
      note("'" + p_.game.actions[action].name + "' is negated");
    }
  }
  cont(k);
}

}  // namespace loophole::checker::semantics
