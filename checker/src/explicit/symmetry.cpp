// Which arrays of records are interchangeable (a syntactic pass over every
// rule, end condition, property and the setup, in their lowered form:
// loophole/checker/lowered.hpp; the model's IR only names and locates what
// the summary reports), and the canonical form that sorts their records.
// symmetry.hpp says what breaks an array's symmetry; docs/symmetry.md says
// why the rest is sound.
#include "symmetry.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loophole::checker {

namespace {

using lowered::S;
using lowered::X;

std::string at(const model::SourceSpan& w) {
  return w.known() ? fmt::format("{}:{}:{}", w.file, w.line, w.col) : "<rules>";
}

// Where the rules wrote a node (its origin, kept for diagnostics).
const model::SourceSpan& where(const lowered::Expr& e) {
  return static_cast<const model::Expr*>(e.origin)->where;
}
const model::SourceSpan& where(const lowered::Stmt& s) {
  return static_cast<const model::Stmt*>(s.origin)->where;
}

bool is_quantifier(X op) {
  return op == X::exists || op == X::forall || op == X::count_of || op == X::sum;
}

// The lowered form with what the analysis asks of it: which variable or
// zone a place is in (from the layout of the declarations), and which read
// node reads a place.
class View {
 public:
  explicit View(const lowered::Lowered& low) : low(low) {
    const model::Game& g = *low.game;
    const std::size_t fields = low.layout.fields.size();
    var_.assign(fields, -1);
    zone_.assign(fields, -1);
    for (std::size_t v = 0; v < g.vars.size(); ++v) {
      const model::VarDecl& d = g.vars[v];
      const int n =
          (d.per_player ? g.players : 1) * std::max(d.array, 1) * static_cast<int>(d.fields.size());
      for (int f = d.first_slot; f < d.first_slot + n; ++f) mark(var_, f, static_cast<int>(v));
    }
    for (std::size_t z = 0; z < g.zones.size(); ++z) {
      const model::ZoneDecl& d = g.zones[z];
      const int n = (d.per_player ? g.players : 1) * low.kinds;
      for (int f = d.first_slot; f < d.first_slot + n; ++f) mark(zone_, f, static_cast<int>(z));
    }
    reader_.assign(low.places.size(), -1);
    for (std::size_t i = 0; i < low.exprs.size(); ++i) {
      const lowered::Expr& e = low.exprs[i];
      if (e.op == X::read && reader_[static_cast<std::size_t>(e.a)] < 0) {
        reader_[static_cast<std::size_t>(e.a)] = static_cast<int>(i);
      }
    }
  }

  // The variable (or zone) whose slot `slot` is; -1 for none.
  [[nodiscard]] int var(int slot) const { return at(var_, slot); }
  [[nodiscard]] int zone(int slot) const { return at(zone_, slot); }
  [[nodiscard]] const lowered::Expr& expr(int i) const {
    return low.exprs[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] const lowered::Place& place(int i) const {
    return low.places[static_cast<std::size_t>(i)];
  }
  // The node that reads place `i` (an assignment's target), or -1.
  [[nodiscard]] int reader(int i) const { return reader_[static_cast<std::size_t>(i)]; }

  // The operand a place's variable is selected by last: its index, else its
  // owner (-1: none).
  [[nodiscard]] static int last_operand(const lowered::Place& pl) {
    return pl.index >= 0 ? pl.index : pl.player;
  }

  // A key equal for equal expressions (an owner as the rules compute it).
  [[nodiscard]] std::string key(int i) const {
    if (i < 0) return "-";
    const lowered::Expr& e = expr(i);
    std::string k = fmt::format("({} {} {} {}", static_cast<int>(e.op), e.k, e.a, e.b);
    if (e.op == X::read || e.op == X::count) {
      const lowered::Place& pl = place(e.a);
      k += fmt::format(" [{} {} {} {} {}]", pl.base, key(pl.player), pl.player_stride,
                       key(pl.index), pl.index_stride);
    }
    for (const int x : e.x) k += " " + key(x);
    return k + ")";
  }

  const lowered::Lowered& low;

 private:
  static void mark(std::vector<int>& to, int slot, int id) {
    if (slot >= 0 && static_cast<std::size_t>(slot) < to.size()) {
      to[static_cast<std::size_t>(slot)] = id;
    }
  }
  static int at(const std::vector<int>& of, int slot) {
    return slot >= 0 && static_cast<std::size_t>(slot) < of.size()
               ? of[static_cast<std::size_t>(slot)]
               : -1;
  }

  std::vector<int> var_, zone_, reader_;
};

// Whether a `for` over slots gives the same result in any order of its
// iterations (it runs them in slot order, which sorting changes), decided
// conservatively: the body may read and write the record the loop is at,
// read anything it does not write, and change other variables and zone
// counts only by commutative steps (`+=`, `-=`, `move`) that it does not
// read; nothing else (no choice, draw, event, win or loss).
class LoopOrder {
 public:
  LoopOrder(const View& view, int slot) : view_(view), slot_(slot) {}

  // "" when the order does not matter, else why it may.
  std::string why(const lowered::Stmt& loop) {
    for (const int b : loop.body) stmt(b);
    if (!why_.empty()) return why_;
    for (const Read& r : reads_) {
      if (r.zone >= 0) {
        if (zones_.count(r.zone) != 0) return fail("reads a zone it moves cards of", *r.node);
        continue;
      }
      if (counters_.count(r.var) != 0) return fail("reads a variable it adds to", *r.node);
      if (records_.count(r.var) != 0 && !r.own) {
        return fail("reads another slot it writes", *r.node);
      }
    }
    return "";
  }

 private:
  // A variable or a zone count read (one of them >= 0), and whether it is
  // the record the loop is at.
  struct Read {
    int var = -1, zone = -1;
    bool own = false;
    const lowered::Expr* node = nullptr;
  };

  std::string fail(const char* what, const lowered::Expr& e) {
    return fmt::format("the 'for' over slots {} at {}", what, at(where(e)));
  }
  std::string fail(const char* what, const lowered::Stmt& s) {
    if (why_.empty()) why_ = fmt::format("the 'for' over slots {} at {}", what, at(where(s)));
    return why_;
  }

  // A variable's place selected by the loop's binder.
  [[nodiscard]] bool own_record(const lowered::Place& pl) const {
    const int last = View::last_operand(pl);
    return last >= 0 && view_.expr(last).op == X::local && view_.expr(last).a == slot_;
  }

  void read(int i) {
    if (i < 0) return;
    const lowered::Expr& e = view_.expr(i);
    if (e.op == X::field) {
      if (const int v = view_.var(e.a); v >= 0) reads_.push_back(Read{v, -1, false, &e});
      if (const int z = view_.zone(e.a); z >= 0) reads_.push_back(Read{-1, z, false, &e});
    } else if (e.op == X::read || e.op == X::count) {
      const lowered::Place& pl = view_.place(e.a);
      if (const int v = view_.var(pl.base); v >= 0) {
        reads_.push_back(Read{v, -1, own_record(pl), &e});
      } else {
        reads_.push_back(Read{-1, view_.zone(pl.base), false, &e});
      }
      read(pl.player);
      read(pl.index);
    }
    for (const int x : e.x) read(x);
  }

  void stmt(int i) {
    if (i < 0) return;
    const lowered::Stmt& s = view_.low.stmts[static_cast<std::size_t>(i)];
    switch (s.op) {
      case S::seq:
      case S::for_:
        break;
      case S::if_:
        for (const int c : s.conds) read(c);
        break;
      case S::assign: {
        const lowered::Place& pl = view_.place(s.a);
        const int var = view_.var(pl.base);
        // (A control field, the turn order or a pending skip: no record's.)
        if (pl.base >= static_cast<int>(view_.low.layout.data_fields)) {
          read(s.x);
          return;
        }
        read(pl.player);
        read(pl.index);
        if (own_record(pl)) {
          records_.insert(var);
          if (s.assign_op != model::Op::none) {
            reads_.push_back(Read{var, -1, true, &view_.expr(view_.reader(s.a))});
          }
        } else if (s.assign_op == model::Op::add || s.assign_op == model::Op::sub) {
          counters_.insert(var);
        } else {
          fail("assigns what is not its slot", s);
        }
        read(s.x);
        return;
      }
      case S::move:
        if (s.move.chooser == Chooser::nature) {
          fail("makes a choice, draws, fires an event or ends the game", s);
          return;
        }
        zones_.insert(s.move.from_zone);
        read(view_.place(s.move.from).player);
        zones_.insert(s.move.to_zone);
        read(view_.place(s.move.to).player);
        read(s.move.kind);
        read(s.move.count);
        if (s.move.chooser == Chooser::player) fail("lets a player choose cards", s);
        return;
      default:
        fail("makes a choice, draws, fires an event or ends the game", s);
        return;
    }
    for (const int b : s.body) stmt(b);
  }

  const View& view_;
  int slot_;
  std::string why_;
  std::vector<Read> reads_;
  std::set<int> records_, counters_, zones_;
};

// One pass over the rules: for each binder, which array (and owner) it
// indexes and whether it is used otherwise.
class Analysis {
 public:
  explicit Analysis(const View& view) : view_(view), broken_(view.low.game->vars.size()) {}

  void run() {
    const lowered::Rules& r = view_.low.rules;
    stmt(r.setup);
    for (std::size_t i = 0; i < r.step_effect.size(); ++i) {
      stmt(r.step_effect[i]);
      expr(r.step_repeat[i]);
      expr(r.step_end_turn[i]);
    }
    for (std::size_t i = 0; i < r.action_guard.size(); ++i) {
      expr(r.action_guard[i]);
      stmt(r.action_cost[i]);
      stmt(r.action_effect[i]);
    }
    for (std::size_t i = 0; i < r.trigger_condition.size(); ++i) {
      expr(r.trigger_condition[i]);
      stmt(r.trigger_effect[i]);
    }
    for (const int c : r.end_condition) expr(c);
    for (std::size_t i = 0; i < r.property_expr.size(); ++i) {
      expr(r.property_expr[i]);
      expr(r.property_to[i]);
    }
  }

  // Why array `var` may not be sorted ("" when it may).
  [[nodiscard]] const std::string& broken(std::size_t var) const { return broken_[var]; }

 private:
  struct Binder {
    std::string name;     // as written
    std::string written;  // its domain as written (diagnostics only)
    const lowered::Domain* domain;
    std::vector<int> vars;                // the arrays it indexes
    std::string owner;                    // their owner (View::key)
    std::string misuse;                   // why it breaks them ("" when it does not)
    const lowered::Stmt* loop = nullptr;  // the `for` that binds it, if one does
  };

  void brk(int var, const std::string& why) {
    if (broken_[static_cast<std::size_t>(var)].empty())
      broken_[static_cast<std::size_t>(var)] = why;
  }

  Binder* binder(int slot) {
    const auto it = binders_.find(slot);
    return it == binders_.end() || it->second.empty() ? nullptr : &it->second.back();
  }

  void open(int slot, const std::string& name, const model::Domain& written, int domain,
            const lowered::Stmt* loop = nullptr) {
    binders_[slot].push_back(Binder{name,
                                    written.text,
                                    &view_.low.domains[static_cast<std::size_t>(domain)],
                                    {},
                                    {},
                                    {},
                                    loop});
  }

  void close(int slot) {
    Binder b = std::move(binders_[slot].back());
    binders_[slot].pop_back();
    if (b.misuse.empty() && b.loop != nullptr && !b.vars.empty()) {
      b.misuse = LoopOrder(view_, slot).why(*b.loop);
    }
    if (b.misuse.empty()) return;
    for (const int v : b.vars) brk(v, b.misuse);
  }

  void misuse(Binder& b, std::string why) {
    if (b.misuse.empty()) b.misuse = std::move(why);
    // (Arrays indexed later by the same binder are broken at close().)
  }

  void index_use(int var, const lowered::Place& pl) {
    const model::VarDecl& v = view_.low.game->vars[static_cast<std::size_t>(var)];
    const std::string owner = v.per_player ? view_.key(pl.player) : std::string();
    const lowered::Expr& index = view_.expr(pl.index);
    if (index.op != X::local) {
      brk(var, fmt::format("'{}' indexed by an expression, not a binder, at {}", v.name,
                           at(where(index))));
      expr(pl.index);
      return;
    }
    Binder* b = binder(index.a);
    if (b == nullptr) {
      brk(var, fmt::format("'{}' indexed at {}", v.name, at(where(index))));
      return;
    }
    // (An enum's values and the kinds lower to a range too, but the checker
    // lets only an int index an array.)
    const lowered::Domain& d = *b->domain;
    if (d.kind != lowered::Domain::Kind::range || d.lo != 0 || d.size != v.array) {
      brk(var, fmt::format("'{}' indexed by '{}' over {} at {}", v.name, b->name, b->written,
                           at(where(index))));
    }
    if (std::find(b->vars.begin(), b->vars.end(), var) == b->vars.end()) b->vars.push_back(var);
    if (b->vars.size() > 1) {
      misuse(*b, fmt::format("'{}' indexes two arrays at {}", b->name, at(where(index))));
    } else if (b->vars.size() == 1 && b->owner.empty()) {
      b->owner = owner;
    } else if (b->owner != owner) {
      misuse(*b,
             fmt::format("'{}' indexes two owners' '{}' at {}", b->name, v.name, at(where(index))));
    }
  }

  void value_use(const lowered::Expr& e) {
    Binder* b = binder(e.a);
    if (b != nullptr) misuse(*b, fmt::format("'{}' used as a value at {}", b->name, at(where(e))));
  }

  void expr(int i) {
    if (i < 0) return;
    const lowered::Expr& e = view_.expr(i);
    switch (e.op) {
      case X::read:
      case X::count: {
        const lowered::Place& pl = view_.place(e.a);
        expr(pl.player);
        const int var = view_.var(pl.base);
        if (var >= 0 && view_.low.game->vars[static_cast<std::size_t>(var)].array > 0) {
          index_use(var, pl);
        } else {
          expr(pl.index);
        }
        return;
      }
      case X::local:
        value_use(e);
        return;
      case X::eq:
      case X::ne:
      case X::lt:
      case X::le:
      case X::gt:
      case X::ge:
        // Two binders compared inside a pick's or choice's `where`: the
        // "lowest free slot" idiom (`forall j in 0..n - 1: j >= i or
        // slots[j].used`), accepted (docs/symmetry.md says when it is sound).
        if (where_ > 0 && view_.expr(e.x[0]).op == X::local && view_.expr(e.x[1]).op == X::local) {
          return;
        }
        break;
      default:
        if (is_quantifier(e.op)) {
          const auto& origin = *static_cast<const model::Expr*>(e.origin);
          open(e.b, origin.text, origin.domain, e.a);
          expr(e.x[0]);
          close(e.b);
          return;
        }
        break;
    }
    for (const int x : e.x) expr(x);
  }

  void stmt(int i) {
    if (i < 0) return;
    const lowered::Stmt& s = view_.low.stmts[static_cast<std::size_t>(i)];
    const bool binds = s.op == S::for_ || s.op == S::choose || s.op == S::pick;
    if (binds) {
      const auto& origin = *static_cast<const model::Stmt*>(s.origin);
      open(s.b, origin.text, origin.domain, s.a, s.op == S::for_ ? &s : nullptr);
    }
    switch (s.op) {
      case S::assign: {
        // The target as a read of its place (a constant place reads nothing).
        const lowered::Place& pl = view_.place(s.a);
        if (pl.player >= 0 || pl.index >= 0) expr(view_.reader(s.a));
        expr(s.x);
        break;
      }
      case S::if_:
        for (const int c : s.conds) expr(c);
        break;
      case S::choose:
      case S::pick:
        expr(s.by);  // the chooser (`by P`; -1 reads nothing)
        ++where_;
        expr(s.x);
        --where_;
        break;
      case S::move:
        if (s.move.chooser == Chooser::nature) {  // draw(player, count[, zone])
          const int source = view_.place(s.move.from).player;
          if (source != s.x) expr(source);  // draw(p, n, z[q]): q
          expr(s.x);
        } else {
          expr(view_.place(s.move.from).player);
          expr(view_.place(s.move.to).player);
          expr(s.move.kind);
        }
        expr(s.move.count);
        break;
      case S::end:
      case S::negate:
        expr(s.x);
        break;
      case S::fire:  // its arguments (a binder passed is a value use)
        for (const int c : s.conds) expr(c);
        break;
      case S::draw_without_zones:
        expr(s.x);
        expr(s.move.count);
        break;
      default:
        break;
    }
    for (const int b : s.body) stmt(b);
    if (binds) close(s.b);
  }

  const View& view_;
  std::vector<std::string> broken_;
  std::map<int, std::vector<Binder>> binders_;
  int where_ = 0;  // inside a pick's or choice's `where`
};

}  // namespace

Symmetry::Symmetry(const model::Game& game, std::size_t fields, bool enabled)
    : Symmetry(lowered::lower(game), fields, enabled) {}

Symmetry::Symmetry(const lowered::Lowered& low, std::size_t fields, bool enabled)
    : dirty_((fields + 63) / 64, 0) {
  const model::Game& game = *low.game;
  bool any = false;
  for (const auto& v : game.vars) any = any || v.array > 1;
  if (!enabled) {
    if (any || game.players > 1) summary_ = "off (--no-symmetry)";
    return;
  }
  std::vector<std::string> notes;
  if (game.players > 1) {
    decide_players(low, fields);
    notes.push_back(rotations_ > 0 ? fmt::format("players (rotations of {})", rotations_)
                                   : "players off: " + player_note_);
  }
  if (!any) {
    if (rotations_ > 0) arrays_.emplace_back("players");
    summary_ = fmt::format("{}", fmt::join(notes, "; "));
    return;
  }
  const View view(low);
  Analysis analysis(view);
  analysis.run();
  std::vector<std::string> off;
  for (std::size_t i = 0; i < game.vars.size(); ++i) {
    const model::VarDecl& v = game.vars[i];
    if (v.array < 2) continue;
    if (!analysis.broken(i).empty()) {
      off.push_back(analysis.broken(i));
      continue;
    }
    arrays_.push_back(v.name);
    const int width = static_cast<int>(v.fields.size());
    for (int p = 0; p < (v.per_player ? game.players : 1); ++p) {
      const Group g{v.slot(p, 0, 0), v.array, width};
      groups_.push_back(g);
      for (int f = g.first; f < g.first + g.count * g.width; ++f) {
        dirty_[static_cast<std::size_t>(f) / 64] |= std::uint64_t{1} << (f % 64);
      }
    }
  }
  if (!arrays_.empty()) notes.push_back(fmt::format("slots of {}", fmt::join(arrays_, ", ")));
  if (rotations_ > 0) arrays_.insert(arrays_.begin(), "players");
  if (!off.empty()) notes.push_back(fmt::format("off: {}", fmt::join(off, "; ")));
  summary_ = fmt::format("{}", fmt::join(notes, "; "));
}

namespace {

bool record_less(const std::int32_t* a, const std::int32_t* b, int width) {
  return std::lexicographical_compare(a, a + width, b, b + width);
}

}  // namespace

bool Symmetry::canonicalise(std::int32_t* state) const {
  bool changed = false;
  if (rotations_ > 0 && state[active_field_] != 0) {
    thread_local std::vector<std::int32_t> rotated;
    rotated.resize(owner_.size());
    rotate(state, inverse(state[active_field_]), rotated.data());
    std::copy(rotated.begin(), rotated.end(), state);
    changed = true;
  }
  return sort_slots(state) || changed;
}

bool Symmetry::sort_slots(std::int32_t* state) const {
  bool changed = false;
  for (const Group& g : groups_) {
    std::int32_t* base = state + g.first;
    for (int i = 1; i < g.count; ++i) {
      for (int j = i; j > 0 && record_less(base + j * g.width, base + (j - 1) * g.width, g.width);
           --j) {
        std::swap_ranges(base + j * g.width, base + (j + 1) * g.width, base + (j - 1) * g.width);
        changed = true;
      }
    }
  }
  return changed;
}

bool Symmetry::sorted_packed(const Packer& packer, const Word* words) const {
  for (const Group& g : groups_) {
    for (int r = 1; r < g.count; ++r) {
      const int a = g.first + (r - 1) * g.width, b = a + g.width;
      for (int k = 0; k < g.width; ++k) {
        const std::int32_t x = packer.field(words, static_cast<std::size_t>(a + k));
        const std::int32_t y = packer.field(words, static_cast<std::size_t>(b + k));
        if (x < y) break;
        if (x > y) return false;
      }
    }
  }
  return true;
}

void Symmetry::canonicalise_packed(const Packer& packer, Word* words, std::int32_t* scratch) const {
  const bool rotate =
      rotations_ > 0 && packer.field(words, static_cast<std::size_t>(active_field_)) != 0;
  if (!rotate && sorted_packed(packer, words)) return;
  packer.unpack(words, scratch);
  canonicalise(scratch);
  packer.pack_fields(words, scratch, rotate ? all_.data() : dirty_.data(), words);
}

int Symmetry::turn_packed(const Packer& packer, const Word* words) const {
  return rotations_ > 0
             ? static_cast<int>(packer.field(words, static_cast<std::size_t>(active_field_)))
             : 0;
}

std::uint64_t Symmetry::orbit_size(const std::int32_t* state) const {
  std::uint64_t n = 1;
  for (const Group& g : groups_) {
    // count! / (run lengths of equal records)!, as a product of binomials.
    std::uint64_t placed = 0;
    const std::int32_t* base = state + g.first;
    for (int r = 0; r < g.count;) {
      int e = r + 1;
      while (e < g.count &&
             std::equal(base + r * g.width, base + (r + 1) * g.width, base + e * g.width)) {
        ++e;
      }
      // choose(placed + run, run)
      for (int k = 1; k <= e - r; ++k) n = n * (placed + static_cast<std::uint64_t>(k)) / k;
      placed += static_cast<std::uint64_t>(e - r);
      r = e;
    }
  }
  return n;
}

std::uint64_t Symmetry::orbit_size_packed(const Packer& packer, const Word* words) const {
  std::vector<std::int32_t> s(packer.unpacked_size());
  packer.unpack(words, s.data());
  return orbit_size(s.data());
}

}  // namespace loophole::checker
