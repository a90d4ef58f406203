// Which arrays of records are interchangeable (a syntactic pass over every
// rule, end condition, property and the setup), and the canonical form that
// sorts their records. symmetry.hpp says what breaks an array's symmetry;
// docs/symmetry.md says why the rest is sound.
#include "symmetry.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loophole::checker {

namespace {

std::string at(const model::SourceSpan& w) {
  return w.known() ? fmt::format("{}:{}:{}", w.file, w.line, w.col) : "<rules>";
}

bool is_order(model::Op op) {
  using model::Op;
  return op == Op::lt || op == Op::le || op == Op::gt || op == Op::ge || op == Op::eq ||
         op == Op::ne;
}

// Whether a `for` over slots gives the same result in any order of its
// iterations (it runs them in slot order, which sorting changes), decided
// conservatively: the body may read and write the record the loop is at,
// read anything it does not write, and change other variables and zone
// counts only by commutative steps (`+=`, `-=`, `move`) that it does not
// read; nothing else (no choice, draw, event, win or loss).
class LoopOrder {
 public:
  explicit LoopOrder(int slot) : slot_(slot) {}

  // "" when the order does not matter, else why it may.
  std::string why(const model::Stmt& loop) {
    for (const auto& b : loop.bodies) stmt(b.get());
    if (!why_.empty()) return why_;
    for (const model::Expr* e : reads_) {
      if (e->kind == model::ExprKind::zone_count) {
        if (zones_.count(e->ref) != 0) return fail("reads a zone it moves cards of", *e);
        continue;
      }
      const bool own = own_record(*e);
      if (counters_.count(e->ref) != 0) return fail("reads a variable it adds to", *e);
      if (records_.count(e->ref) != 0 && !own) return fail("reads another slot it writes", *e);
    }
    return "";
  }

 private:
  std::string fail(const char* what, const model::Expr& e) {
    return fmt::format("the 'for' over slots {} at {}", what, at(e.where));
  }
  std::string fail(const char* what, const model::Stmt& s) {
    if (why_.empty()) why_ = fmt::format("the 'for' over slots {} at {}", what, at(s.where));
    return why_;
  }

  // A variable reference indexed by the loop's binder.
  [[nodiscard]] bool own_record(const model::Expr& var) const {
    if (var.kind != model::ExprKind::var || var.args.empty()) return false;
    const model::Expr& index = *var.args.back();
    return index.kind == model::ExprKind::bound && index.ref == slot_;
  }

  void read(const model::Expr* e) {
    if (e == nullptr) return;
    if (e->kind == model::ExprKind::var || e->kind == model::ExprKind::zone_count) {
      reads_.push_back(e);
    }
    for (const auto& a : e->args) read(a.get());
  }

  void stmt(const model::Stmt* s) {
    if (s == nullptr) return;
    using model::StmtKind;
    switch (s->kind) {
      case StmtKind::block:
      case StmtKind::if_:
      case StmtKind::for_:
      case StmtKind::skip:
      case StmtKind::shuffle:
        break;
      case StmtKind::assign: {
        const model::Expr& target = *s->target;
        for (const auto& a : target.args) read(a.get());
        if (own_record(target)) {
          records_.insert(target.ref);
          if (s->op != model::Op::none) reads_.push_back(&target);
        } else if (s->op == model::Op::add || s->op == model::Op::sub) {
          counters_.insert(target.ref);
        } else {
          fail("assigns what is not its slot", *s);
        }
        read(s->value.get());
        return;
      }
      case StmtKind::move_kind:
      case StmtKind::move_any:
        for (std::size_t i = 0; i < s->args.size(); ++i) {
          const model::Expr& a = *s->args[i];
          if (i < 2 && a.kind == model::ExprKind::zone_count) {
            zones_.insert(a.ref);
            for (const auto& o : a.args) read(o.get());
          } else {
            read(&a);
          }
        }
        if (s->kind == StmtKind::move_any) fail("lets a player choose cards", *s);
        return;
      default:
        fail("makes a choice, draws, fires an event or ends the game", *s);
        return;
    }
    read(s->target.get());
    read(s->value.get());
    for (const auto& a : s->args) read(a.get());
    for (const auto& c : s->conds) read(c.get());
    for (const auto& b : s->bodies) stmt(b.get());
  }

  int slot_;
  std::string why_;
  std::vector<const model::Expr*> reads_;
  std::set<int> records_, counters_, zones_;
};

// One pass over the rules: for each binder, which array (and owner, as
// written) it indexes and whether it is used otherwise.
class Analysis {
 public:
  explicit Analysis(const model::Game& game) : game_(game), broken_(game.vars.size()) {}

  void run() {
    stmt(game_.setup.get());
    for (const auto& s : game_.steps) {
      stmt(s.effects.get());
      expr(s.repeat_while.get());
      expr(s.end_turn_if.get());
    }
    for (const auto& a : game_.actions) {
      expr(a.guard.get());
      stmt(a.cost.get());
      stmt(a.effect.get());
    }
    for (const auto& t : game_.triggers) {
      expr(t.condition.get());
      stmt(t.effect.get());
    }
    for (const auto& c : game_.end_conditions) expr(c.condition.get());
    for (const auto& p : game_.properties) {
      expr(p.expr.get());
      expr(p.to.get());
    }
  }

  // Why array `var` may not be sorted ("" when it may).
  [[nodiscard]] const std::string& broken(std::size_t var) const { return broken_[var]; }

 private:
  struct Binder {
    std::string name;
    const model::Domain* domain = nullptr;
    std::vector<int> vars;              // the arrays it indexes
    std::string owner;                  // their owner as written
    std::string misuse;                 // why it breaks them ("" when it does not)
    const model::Stmt* loop = nullptr;  // the `for` that binds it, if one does
  };

  void brk(int var, const std::string& why) {
    if (broken_[static_cast<std::size_t>(var)].empty())
      broken_[static_cast<std::size_t>(var)] = why;
  }

  Binder* binder(int slot) {
    const auto it = binders_.find(slot);
    return it == binders_.end() || it->second.empty() ? nullptr : &it->second.back();
  }

  void open(int slot, const std::string& name, const model::Domain& domain,
            const model::Stmt* loop = nullptr) {
    binders_[slot].push_back(Binder{name, &domain, {}, {}, {}, loop});
  }

  void close(int slot) {
    Binder b = std::move(binders_[slot].back());
    binders_[slot].pop_back();
    if (b.misuse.empty() && b.loop != nullptr && !b.vars.empty()) {
      b.misuse = LoopOrder(slot).why(*b.loop);
    }
    if (b.misuse.empty()) return;
    for (const int v : b.vars) brk(v, b.misuse);
  }

  void misuse(Binder& b, std::string why) {
    if (b.misuse.empty()) b.misuse = std::move(why);
    // (Arrays indexed later by the same binder are broken at close().)
  }

  void index_use(const model::Expr& var, const model::Expr& index) {
    const model::VarDecl& v = game_.vars[static_cast<std::size_t>(var.ref)];
    std::string owner = v.per_player ? model::to_string(*var.args[0]) : std::string();
    if (index.kind != model::ExprKind::bound) {
      brk(var.ref, fmt::format("'{}' indexed by an expression, not a binder, at {}", v.name,
                               at(index.where)));
      expr(&index);
      return;
    }
    Binder* b = binder(index.ref);
    if (b == nullptr) {
      brk(var.ref, fmt::format("'{}' indexed at {}", v.name, at(index.where)));
      return;
    }
    const model::Domain& d = *b->domain;
    if (d.kind != model::Domain::Kind::range || d.lo != 0 || d.hi != v.array - 1) {
      brk(var.ref, fmt::format("'{}' indexed by '{}' over {} at {}", v.name, b->name, d.text,
                               at(index.where)));
    }
    if (std::find(b->vars.begin(), b->vars.end(), var.ref) == b->vars.end()) {
      b->vars.push_back(var.ref);
    }
    if (b->vars.size() > 1) {
      misuse(*b, fmt::format("'{}' indexes two arrays at {}", b->name, at(index.where)));
    } else if (b->vars.size() == 1 && b->owner.empty()) {
      b->owner = owner;
    } else if (b->owner != owner) {
      misuse(*b,
             fmt::format("'{}' indexes two owners' '{}' at {}", b->name, v.name, at(index.where)));
    }
  }

  void value_use(const model::Expr& e) {
    Binder* b = binder(e.ref);
    if (b != nullptr) misuse(*b, fmt::format("'{}' used as a value at {}", b->name, at(e.where)));
  }

  void expr(const model::Expr* e) {
    if (e == nullptr) return;
    using model::ExprKind;
    switch (e->kind) {
      case ExprKind::var: {
        const model::VarDecl& v = game_.vars[static_cast<std::size_t>(e->ref)];
        const std::size_t index = v.per_player ? 1 : 0;
        if (v.per_player && !e->args.empty()) expr(e->args[0].get());
        if (v.array > 0 && e->args.size() > index) {
          index_use(*e, *e->args[index]);
        } else {
          for (std::size_t i = index; i < e->args.size(); ++i) expr(e->args[i].get());
        }
        return;
      }
      case ExprKind::bound:
        value_use(*e);
        return;
      case ExprKind::binary:
        // Two binders compared inside a pick's or choice's `where`: the
        // "lowest free slot" idiom (`forall j in 0..n - 1: j >= i or
        // slots[j].used`), accepted (docs/symmetry.md says when it is sound).
        if (is_order(e->op) && where_ > 0 && e->args.size() == 2 &&
            e->args[0]->kind == ExprKind::bound && e->args[1]->kind == ExprKind::bound) {
          return;
        }
        break;
      case ExprKind::quant:
        open(e->ref, e->text, e->domain);
        for (const auto& a : e->args) expr(a.get());
        close(e->ref);
        return;
      default:
        break;
    }
    for (const auto& a : e->args) expr(a.get());
  }

  void stmt(const model::Stmt* s) {
    if (s == nullptr) return;
    using model::StmtKind;
    const bool binds =
        s->kind == StmtKind::for_ || s->kind == StmtKind::choose || s->kind == StmtKind::pick;
    if (binds) open(s->ref, s->text, s->domain, s->kind == StmtKind::for_ ? s : nullptr);
    expr(s->target.get());
    expr(s->value.get());
    for (const auto& a : s->args) expr(a.get());
    if (binds && s->kind != StmtKind::for_) ++where_;
    for (const auto& c : s->conds) expr(c.get());
    if (binds && s->kind != StmtKind::for_) --where_;
    for (const auto& b : s->bodies) stmt(b.get());
    if (binds) close(s->ref);
  }

  const model::Game& game_;
  std::vector<std::string> broken_;
  std::map<int, std::vector<Binder>> binders_;
  int where_ = 0;  // inside a pick's or choice's `where`
};

}  // namespace

Symmetry::Symmetry(const model::Game& game, std::size_t fields, bool enabled)
    : dirty_((fields + 63) / 64, 0) {
  bool any = false;
  for (const auto& v : game.vars) any = any || v.array > 1;
  if (!any) return;
  if (!enabled) {
    summary_ = "off (--no-symmetry)";
    return;
  }
  Analysis analysis(game);
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
  if (!arrays_.empty()) summary_ = fmt::format("slots of {}", fmt::join(arrays_, ", "));
  if (!off.empty()) {
    summary_ += fmt::format("{}off: {}", summary_.empty() ? "" : "; ", fmt::join(off, "; "));
  }
}

namespace {

bool record_less(const std::int32_t* a, const std::int32_t* b, int width) {
  return std::lexicographical_compare(a, a + width, b, b + width);
}

}  // namespace

bool Symmetry::canonicalise(std::int32_t* state) const {
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
  if (sorted_packed(packer, words)) return;
  packer.unpack(words, scratch);
  canonicalise(scratch);
  packer.pack_fields(words, scratch, dirty_.data(), words);
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
