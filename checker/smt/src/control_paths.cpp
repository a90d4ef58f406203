// The forward analysis of the control abstraction (control_paths.hpp).
#include "control_paths.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace loophole::smt::detail {

namespace {

// Beyond this many abstract states at one depth the analysis gives up (every
// path is kept from then on). The seeds stay far below it.
constexpr std::size_t max_controls = 20000;

}  // namespace

ControlPaths::ControlPaths(const Encoding& en) : en_(en) {
  all_.resize(en.paths.size());
  for (std::uint32_t i = 0; i < all_.size(); ++i) all_[i] = i;
  const auto& ctl = en_.low.ctl;
  for (int f : {ctl.over, ctl.active, ctl.step, ctl.stage, ctl.stack_size}) {
    if (f >= 0) fields_.push_back(f);
  }
  core_ = fields_.size();
  std::vector<int> loose;
  for (int f : {ctl.target, ctl.new_turn, ctl.holder, ctl.passes, ctl.acted, ctl.seat, ctl.order,
                ctl.skip}) {
    if (f >= 0) loose.push_back(f);
  }
  for (int i = 0; i < 2 * ctl.stack_capacity && ctl.stack_base >= 0; ++i) {
    loose.push_back(ctl.stack_base + i);
  }
  for (int base : ctl.pending) {
    if (base < 0) continue;
    for (int p = 0; p < en_.players; ++p) loose.push_back(base + p);
  }
  // A loose field's values are a 64-bit mask: a wider one is not tracked.
  for (int f : loose) {
    const auto& field = en_.low.layout.fields[static_cast<std::size_t>(f)];
    if (field.hi - field.lo < 64) fields_.push_back(f);
  }
  classify();
}

void ControlPaths::classify() {
  std::unordered_map<unsigned, int> position;  // Z3 id of x[f] -> position in fields_ or -1
  for (std::size_t f = 0; f < en_.x.size(); ++f) position[en_.x[f].id()] = -1;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    position[en_.x[static_cast<std::size_t>(fields_[i])].id()] = static_cast<int>(i);
  }
  auto tracked = [&](const z3::expr& e) -> int {
    if (!e.is_const() || e.is_numeral()) return -1;
    const auto it = position.find(e.id());
    return it == position.end() ? -1 : it->second;
  };
  auto literal = [&](const z3::expr& e, bool equal, std::vector<Guard>& out) {
    if (!e.is_app() || e.decl().decl_kind() != Z3_OP_EQ || e.num_args() != 2) return;
    for (int side = 0; side < 2; ++side) {
      const z3::expr v = e.arg(static_cast<unsigned>(side));
      const z3::expr n = e.arg(static_cast<unsigned>(1 - side));
      const int pos = tracked(v);
      if (pos >= 0 && n.is_numeral()) {
        out.push_back(Guard{pos, n.get_numeral_int64(), equal});
        return;
      }
    }
  };
  auto leaves = [&](const z3::expr& e, Next& out, const auto& self) -> void {
    if (out.any) return;
    if (e.is_numeral()) {
      out.values.push_back(e.get_numeral_int64());
    } else if (const int pos = tracked(e); pos >= 0) {
      out.copies.push_back(pos);
    } else if (e.is_app() && e.decl().decl_kind() == Z3_OP_ITE) {
      self(e.arg(1), out, self);
      self(e.arg(2), out, self);
    } else {
      out.any = true;
    }
  };
  std::map<std::pair<std::vector<std::tuple<int, std::int64_t, bool>>, std::vector<Next>>,
           std::size_t>
      index;
  classes_.clear();
  for (std::uint32_t i = 0; i < en_.paths.size(); ++i) {
    const Path& p = en_.paths[i];
    std::vector<Guard> guards;
    const z3::expr& pc = p.pc;
    auto conjunct = [&](const z3::expr& c) {
      if (c.is_app() && c.decl().decl_kind() == Z3_OP_NOT) {
        literal(c.arg(0), false, guards);
      } else {
        literal(c, true, guards);
      }
    };
    if (pc.is_app() && pc.decl().decl_kind() == Z3_OP_AND) {
      for (unsigned a = 0; a < pc.num_args(); ++a) conjunct(pc.arg(a));
    } else {
      conjunct(pc);
    }
    std::sort(guards.begin(), guards.end(), [](const Guard& a, const Guard& b) {
      return std::tie(a.field, a.value, a.equal) < std::tie(b.field, b.value, b.equal);
    });
    std::vector<Next> next(fields_.size());
    for (std::size_t f = 0; f < fields_.size(); ++f) {
      leaves(p.next[static_cast<std::size_t>(fields_[f])], next[f], leaves);
      auto& n = next[f];
      if (n.any) {
        n.values.clear();
        n.copies.clear();
      }
      std::sort(n.values.begin(), n.values.end());
      n.values.erase(std::unique(n.values.begin(), n.values.end()), n.values.end());
      std::sort(n.copies.begin(), n.copies.end());
      n.copies.erase(std::unique(n.copies.begin(), n.copies.end()), n.copies.end());
    }
    std::vector<std::tuple<int, std::int64_t, bool>> key;
    key.reserve(guards.size());
    for (const auto& g : guards) key.emplace_back(g.field, g.value, g.equal);
    const auto [it, fresh] = index.try_emplace({std::move(key), next}, classes_.size());
    if (fresh) classes_.push_back(Class{std::move(guards), std::move(next), {}});
    classes_[it->second].paths.push_back(i);
  }
  Level initial;
  for (const auto& s : en_.sem.initial_states()) {
    Core c;
    Loose l;
    for (std::size_t f = 0; f < fields_.size(); ++f) {
      const auto index = static_cast<std::size_t>(fields_[f]);
      const std::int64_t v = s[index];
      if (f < core_) {
        c.push_back(v);
      } else {
        l.push_back(std::uint64_t{1} << (v - en_.low.layout.fields[index].lo));
      }
    }
    auto [it, fresh] = initial.try_emplace(std::move(c), l);
    if (!fresh) {
      for (std::size_t i = 0; i < l.size(); ++i) it->second[i] |= l[i];
    }
  }
  levels_.push_back(std::move(initial));
}

bool ControlPaths::step() {
  const Level& from = levels_.back();
  const auto& layout = en_.low.layout.fields;
  auto lo = [&](std::size_t f) { return layout[static_cast<std::size_t>(fields_[f])].lo; };
  auto hi = [&](std::size_t f) { return layout[static_cast<std::size_t>(fields_[f])].hi; };
  auto full = [&](std::size_t f) {
    const auto width = static_cast<unsigned>(hi(f) - lo(f) + 1);
    return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  };
  auto admits = [&](const Class& c, const Core& t, const Loose& l) {
    return std::all_of(c.guards.begin(), c.guards.end(), [&](const Guard& g) {
      const auto f = static_cast<std::size_t>(g.field);
      if (f < core_) return (t[f] == g.value) == g.equal;
      if (g.value < lo(f) || g.value > hi(f)) return !g.equal;
      const std::uint64_t bit = std::uint64_t{1} << (g.value - lo(f));
      return g.equal ? (l[f - core_] & bit) != 0 : (l[f - core_] & ~bit) != 0;
    });
  };
  // The values a next field may take from (t, l): a mask over lo..hi of f.
  auto values = [&](const Next& n, std::size_t f, const Core& t, const Loose& l) {
    if (n.any) return full(f);
    std::uint64_t m = 0;
    auto add = [&](std::int64_t v) {
      if (v >= lo(f) && v <= hi(f) && v - lo(f) < 64) m |= std::uint64_t{1} << (v - lo(f));
    };
    for (std::int64_t v : n.values) add(v);
    for (int src : n.copies) {
      const auto s = static_cast<std::size_t>(src);
      if (s < core_) {
        add(t[s]);
      } else {
        for (std::int64_t v = lo(s); v <= hi(s); ++v) {
          if ((l[s - core_] >> (v - lo(s)) & 1U) != 0) add(v);
        }
      }
    }
    return m;
  };
  std::vector<std::uint32_t> paths;
  Level to;
  std::vector<std::vector<std::int64_t>> choice(core_);
  Loose loose(fields_.size() - core_);
  for (const Class& c : classes_) {
    bool used = false;
    for (const auto& [t, l] : from) {
      if (!admits(c, t, l)) continue;
      used = true;
      bool empty = false;
      for (std::size_t f = 0; f < core_ && !empty; ++f) {
        // (A core field wider than 64 values is taken as any of its range.)
        auto& vs = choice[f];
        vs.clear();
        const Next& n = c.next[f];
        if (n.any || hi(f) - lo(f) >= 64) {
          for (std::int64_t v = lo(f); v <= hi(f); ++v) vs.push_back(v);
        } else {
          const std::uint64_t m = values(n, f, t, l);
          for (std::int64_t v = lo(f); v <= hi(f); ++v) {
            if ((m >> (v - lo(f)) & 1U) != 0) vs.push_back(v);
          }
        }
        empty = vs.empty();
      }
      for (std::size_t f = core_; f < fields_.size() && !empty; ++f) {
        loose[f - core_] = values(c.next[f], f, t, l);
        empty = loose[f - core_] == 0;
      }
      if (empty) continue;
      std::vector<std::size_t> at(core_, 0);
      Core next(core_);
      for (;;) {
        for (std::size_t f = 0; f < core_; ++f) next[f] = choice[f][at[f]];
        auto [it, fresh] = to.try_emplace(next, loose);
        if (!fresh) {
          for (std::size_t i = 0; i < loose.size(); ++i) it->second[i] |= loose[i];
        }
        if (to.size() > max_controls) return false;
        std::size_t f = 0;
        while (f < core_ && ++at[f] == choice[f].size()) at[f++] = 0;
        if (f == core_) break;
      }
    }
    if (used) paths.insert(paths.end(), c.paths.begin(), c.paths.end());
  }
  std::sort(paths.begin(), paths.end());
  selected_.push_back(std::move(paths));
  levels_.push_back(std::move(to));
  return true;
}

const std::vector<std::uint32_t>& ControlPaths::paths_at(int k) {
  while (!gave_up_ && static_cast<int>(selected_.size()) <= k) gave_up_ = !step();
  if (static_cast<int>(selected_.size()) <= k) return all_;
  return selected_[static_cast<std::size_t>(k)];
}

std::size_t ControlPaths::controls_at(int k) {
  paths_at(k);
  if (static_cast<int>(selected_.size()) <= k) return 0;
  return levels_[static_cast<std::size_t>(k)].size();
}

std::vector<std::uint32_t> ControlPaths::paths_for(const checker::StateVec& s) const {
  std::vector<std::uint32_t> out;
  for (const Class& c : classes_) {
    const bool admits = std::all_of(c.guards.begin(), c.guards.end(), [&](const Guard& g) {
      const auto f = static_cast<std::size_t>(fields_[static_cast<std::size_t>(g.field)]);
      return (s[f] == g.value) == g.equal;
    });
    if (admits) out.insert(out.end(), c.paths.begin(), c.paths.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

z3::expr ControlPaths::relation(int k) {
  const auto& paths = paths_at(k);
  if (paths.size() == en_.paths.size()) return en_.transition();
  if (disjuncts_.empty()) {
    for (const Path& p : en_.paths) {
      z3::expr_vector ands(en_.ctx);
      ands.push_back(p.pc);
      for (std::size_t i = 0; i < en_.y.size(); ++i) ands.push_back(en_.y[i] == p.next[i]);
      disjuncts_.push_back(z3::mk_and(ands));
    }
  }
  z3::expr_vector ors(en_.ctx);
  for (std::uint32_t i : paths) ors.push_back(disjuncts_[i]);
  return z3::mk_or(ors);
}

}  // namespace loophole::smt::detail
