// Which arrays of records are interchangeable (a syntactic pass over every
// rule, end condition, property and the setup), and the canonical form that
// sorts their records. symmetry.hpp says what breaks an array's symmetry;
// docs/symmetry.md says why the rest is sound.
#include "symmetry.hpp"

#include <algorithm>
#include <map>

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
    std::vector<int> vars;  // the arrays it indexes
    std::string owner;      // their owner as written
    std::string misuse;     // why it breaks them ("" when it does not)
  };

  void brk(int var, const std::string& why) {
    if (broken_[static_cast<std::size_t>(var)].empty())
      broken_[static_cast<std::size_t>(var)] = why;
  }

  Binder* binder(int slot) {
    const auto it = binders_.find(slot);
    return it == binders_.end() || it->second.empty() ? nullptr : &it->second.back();
  }

  void open(int slot, const std::string& name, const model::Domain& domain) {
    binders_[slot].push_back(Binder{name, &domain, {}, {}, {}});
  }

  void close(int slot) {
    Binder b = std::move(binders_[slot].back());
    binders_[slot].pop_back();
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
    if (binds) open(s->ref, s->text, s->domain);
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
