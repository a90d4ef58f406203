// The Promela generator (generator.hpp): who a role covers, pending
// triggers, and expressions, each emitted as its value and as its first
// failure's gap code.
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "generator.hpp"

namespace loophole::promela::detail {

// ---------------------------------------------------------------------------
// Roles and pending triggers

bool Generator::covers_static(Role r, int p, int active, int n, bool reversed) {
  switch (r) {
    case Role::active:
      return p == active;
    case Role::opponent:
      return p == model::next_in_order(active, reversed, n) && p != active;
    case Role::others:
      return p != active;
    case Role::each:
    case Role::any:
      return true;
  }
  return false;
}

std::string Generator::covers(Role r, int p) const {
  std::string out;
  const int orders = p_.ctl.order >= 0 ? 2 : 1;
  for (int a = 0; a < n_; ++a) {
    for (int o = 0; o < orders; ++o) {
      if (!covers_static(r, p, a, n_, o != 0)) continue;
      if (!out.empty()) out += " || ";
      out += active() + " == " + std::to_string(a);
      if (orders > 1) out += " && " + f(p_.ctl.order) + " == " + std::to_string(o);
    }
  }
  if (out.empty()) return "0";
  return "(" + out + ")";
}

std::string Generator::no_pending_for(int player) const {
  std::string out;
  for (int base : p_.ctl.pending) {
    if (base < 0) continue;
    if (!out.empty()) out += " && ";
    out += f(base + player) + " == 0";
  }
  return out.empty() ? "1" : "(" + out + ")";
}

std::string Generator::any_pending() const {
  std::string out;
  for (int base : p_.ctl.pending) {
    if (base < 0) continue;
    for (int q = 0; q < n_; ++q) {
      if (!out.empty()) out += " || ";
      out += f(base + q) + " != 0";
    }
  }
  return out.empty() ? "0" : "(" + out + ")";
}

// body(out, a) for the active player a, as `if :: active == a -> ... fi`
// (and per turn order, rev_ set, when the game has one that changes).
std::string Generator::per_active(const std::function<void(std::string&, int)>& body) const {
  const int orders = p_.ctl.order >= 0 ? 2 : 1;
  const int cases = n_ * orders;
  std::vector<std::string> parts(static_cast<std::size_t>(cases));
  const bool outer = rev_;
  for (int i = 0; i < cases; ++i) {
    rev_ = orders > 1 ? i % 2 != 0 : outer;
    body(parts[i], i / orders);
  }
  rev_ = outer;
  bool same = true;
  for (int i = 1; i < cases; ++i) same = same && parts[i] == parts[0];
  if (same) return parts[0];
  std::string out = "if\n";
  for (int i = 0; i < cases; ++i) {
    out += ":: " + active() + " == " + std::to_string(i / orders);
    if (orders > 1) out += " && " + f(p_.ctl.order) + " == " + std::to_string(i % 2);
    out += " ->\n" + (parts[i].empty() ? "skip;\n" : parts[i]);
  }
  out += "fi;\n";
  return out;
}

std::string Generator::per_order(const std::function<void(std::string&)>& body) const {
  const bool outer = rev_;
  if (p_.ctl.order < 0) {
    std::string out;
    body(out);
    return out;
  }
  std::string parts[2];
  for (int o = 0; o < 2; ++o) {
    rev_ = o != 0;
    body(parts[o]);
  }
  rev_ = outer;
  if (parts[0] == parts[1]) return parts[0];
  return "if\n:: " + f(p_.ctl.order) + " == 0 ->\n" + (parts[0].empty() ? "skip;\n" : parts[0]) +
         ":: else ->\n" + (parts[1].empty() ? "skip;\n" : parts[1]) + "fi;\n";
}

std::string Generator::next_of(const std::string& x) const {
  const std::string n = std::to_string(n_);
  if (p_.ctl.order < 0 || n_ <= 2) {
    // (A constant player's next one is a constant.)
    if (!x.empty() && x.find_first_not_of("0123456789") == std::string::npos) {
      return std::to_string((std::stoi(x) + 1) % n_);
    }
    return "((" + x + " + 1) % " + n + ")";
  }
  return "((" + x + " + 1 + " + f(p_.ctl.order) + " * " + std::to_string(n_ - 2) + ") % " + n + ")";
}

// ---------------------------------------------------------------------------
// Expressions

std::vector<std::int64_t> Generator::domain(int d, int self) const {
  const lowered::Domain& dom = p_.domains[d];
  std::vector<std::int64_t> out;
  if (dom.kind == lowered::Domain::Kind::others) {
    for (int q = 0; q < n_; ++q) {
      if (q != self) out.push_back(q);
    }
    return out;
  }
  const int size = p_.domain_size(dom, self);
  for (int i = 0; i < size; ++i) out.push_back(p_.domain_value(dom, i, self));
  return out;
}

std::optional<std::int64_t> Generator::constant(int i, const Ctx& c) const {
  const lowered::Expr& e = p_.exprs[i];
  switch (e.op) {
    case X::konst:
      return e.k;
    case X::self:
      return c.self;
    case X::local:
      return c.binders.at(e.a);
    default:
      return std::nullopt;
  }
}

std::string Generator::from_alternatives(
    const std::vector<std::pair<std::string, int>>& alts) const {
  std::string out = "0";
  for (auto it = alts.rbegin(); it != alts.rend(); ++it) {
    out = it->first == "1" ? f(it->second) : cond(it->first, f(it->second), out);
  }
  return out;
}

std::vector<std::pair<std::string, int>> Generator::owners(int owner, const Ctx& c) const {
  if (owner < 0) return {{"1", -1}};
  if (const auto v = constant(owner, c)) return {{"1", static_cast<int>(*v)}};
  const std::string o = val(owner, c);
  std::vector<std::pair<std::string, int>> out;
  for (int q = 0; q < n_; ++q) out.emplace_back("(" + o + ") == " + std::to_string(q), q);
  return out;
}

// The slot of a place with a checked index (a variable's): one alternative
// per player and in-range index, the conditions joined.
std::vector<std::pair<std::string, int>> Generator::place_slots(const lowered::Place& pl,
                                                                const Ctx& c) const {
  std::vector<std::pair<std::string, int>> players = {{"1", 0}};
  if (pl.player >= 0) players = owners(pl.player, c);
  std::vector<std::pair<std::string, int>> indices = {{"1", 0}};
  if (pl.index >= 0) {
    indices.clear();
    if (const auto k = constant(pl.index, c)) {
      if (*k >= 0 && *k < pl.bound) indices.emplace_back("1", static_cast<int>(*k));
    } else {
      const std::string i = val(pl.index, c);
      for (int k = 0; k < pl.bound; ++k)
        indices.emplace_back("(" + i + ") == " + std::to_string(k), k);
    }
  }
  std::vector<std::pair<std::string, int>> out;
  for (const auto& [pc, pv] : players) {
    for (const auto& [ic, iv] : indices) {
      std::string cnd = pc == "1" ? ic : (ic == "1" ? pc : "(" + pc + " && " + ic + ")");
      out.emplace_back(cnd, pl.base + std::max(pv, 0) * pl.player_stride + iv * pl.index_stride);
    }
  }
  return out;
}

// A zone's cells (a place whose index, when any, is a card kind): per owner,
// the one cell or the sum over lists[list] (list >= 0).
std::string Generator::zone_value(const lowered::Place& pl, int list, const Ctx& c) const {
  std::vector<std::pair<std::string, std::string>> alts;  // owner condition, value
  for (const auto& [oc, ov] : owners(pl.player, c)) {
    const int base = pl.base + (ov < 0 ? 0 : ov) * pl.player_stride;
    std::string value;
    if (list >= 0) {
      for (int k : p_.lists[list]) value += (value.empty() ? "" : " + ") + f(base + k);
      value = value.empty() ? "0" : "(" + value + ")";
    } else if (pl.index < 0) {
      value = f(base);
    } else if (const auto k = constant(pl.index, c)) {
      value = f(base + static_cast<int>(*k));
    } else {
      const std::string kv = val(pl.index, c);
      value = "0";
      for (int k = kinds_ - 1; k >= 0; --k) {
        value = cond("(" + kv + ") == " + std::to_string(k), f(base + k), value);
      }
    }
    alts.emplace_back(oc, value);
  }
  std::string out = "0";
  for (auto it = alts.rbegin(); it != alts.rend(); ++it) {
    out = it->first == "1" ? it->second : cond(it->first, it->second, out);
  }
  return out;
}

std::string Generator::top(int part) const {
  if (p_.ctl.stack_size < 0) return "0";
  std::string out = "0";
  for (int i = p_.ctl.stack_capacity; i >= 1; --i) {
    out = cond(f(p_.ctl.stack_size) + " == " + std::to_string(i), stack_entry(i - 1, part), out);
  }
  return out;
}

std::string Generator::val(int i, const Ctx& c) const {
  if (const auto v = constant(i, c)) return num(*v);
  const lowered::Expr& e = p_.exprs[i];
  const std::string n = std::to_string(n_);
  auto x = [&](int k) { return val(e.x[k], c); };
  switch (e.op) {
    case X::field:
      return f(e.a);
    case X::next_player:
      return "((" + x(0) + " + 1) % " + n + ")";
    case X::stack_top:
      return top(e.a);
    case X::read: {
      const lowered::Place& pl = p_.places[e.a];
      if (pl.bound > 0) return from_alternatives(place_slots(pl, c));
      return zone_value(pl, -1, c);
    }
    case X::count:
      return zone_value(p_.places[e.a], e.b, c);
    case X::not_:
      return "(!(" + x(0) + "))";
    case X::neg:
      return "(-(" + x(0) + "))";
    case X::and_:
      return "((" + x(0) + ") && (" + x(1) + "))";
    case X::or_:
      return "((" + x(0) + ") || (" + x(1) + "))";
    case X::add:
      return "(" + x(0) + " + " + x(1) + ")";
    case X::sub:
      return "(" + x(0) + " - " + x(1) + ")";
    case X::mul:
      return "(" + x(0) + " * " + x(1) + ")";
    case X::div:
    case X::mod: {
      const std::string a = x(0), b = x(1);
      const std::string op = e.op == X::div ? " / " : " % ";
      const lowered::Expr& d = p_.exprs[e.x[1]];
      if (d.op == X::konst && d.k != 0) return "(" + a + op + b + ")";
      return cond(b + " != 0", "(" + a + op + b + ")", "0");
    }
    case X::eq:
      return "(" + x(0) + " == " + x(1) + ")";
    case X::ne:
      return "(" + x(0) + " != " + x(1) + ")";
    case X::lt:
      return "(" + x(0) + " < " + x(1) + ")";
    case X::le:
      return "(" + x(0) + " <= " + x(1) + ")";
    case X::gt:
      return "(" + x(0) + " > " + x(1) + ")";
    case X::ge:
      return "(" + x(0) + " >= " + x(1) + ")";
    case X::cond:
      return cond(x(0), x(1), x(2));
    case X::exists:
    case X::forall:
    case X::count_of:
    case X::sum: {
      std::vector<std::string> items;
      for (const std::int64_t v : domain(e.a, c.self)) {
        Ctx inner = c;
        inner.binders[e.b] = v;
        items.push_back(val(e.x[0], inner));
      }
      std::string sep, empty;
      switch (e.op) {
        case X::exists:
          sep = " || ", empty = "0";
          break;
        case X::forall:
          sep = " && ", empty = "1";
          break;
        case X::count_of:
          for (auto& it : items) it = cond(it, "1", "0");
          sep = " + ", empty = "0";
          break;
        default:
          sep = " + ", empty = "0";
          break;
      }
      if (items.empty()) return empty;
      std::string out;
      for (const auto& it : items) out += (out.empty() ? "" : sep) + "(" + it + ")";
      return "(" + out + ")";
    }
    case X::abs: {
      const std::string a = x(0);
      return cond(a + " < 0", "-(" + a + ")", a);
    }
    case X::min: {
      const std::string a = x(0), b = x(1);
      return cond(a + " < " + b, a, b);
    }
    case X::max: {
      const std::string a = x(0), b = x(1);
      return cond(a + " > " + b, a, b);
    }
    case X::clamp: {
      const std::string a = x(0), lo = x(1), hi = x(2);
      const std::string m = cond(a + " < " + hi, a, hi);
      return cond(lo + " > " + m, lo, m);
    }
    case X::konst:
    case X::self:
    case X::local:
      break;
  }
  throw std::logic_error("promela: expression cannot be exported");
}

// The failures of a place: its player's, its index's, then an index out of
// range.
std::string Generator::place_gap(const lowered::Place& pl, const Ctx& c) const {
  std::string out = "0";
  if (pl.player >= 0) out = combine(out, gap(pl.player, c));
  if (pl.index >= 0) {
    out = combine(out, gap(pl.index, c));
    if (pl.bound > 0) {
      const auto k = constant(pl.index, c);
      if (!k) {
        const std::string i = val(pl.index, c);
        out = combine(out, cond("(" + i + ") < 0 || (" + i + ") >= " + std::to_string(pl.bound),
                                site_code(pl.site), "0"));
      } else if (*k < 0 || *k >= pl.bound) {
        out = combine(out, site_code(pl.site));
      }
    }
  }
  return out;
}

std::string Generator::gap(int i, const Ctx& c) const {
  const lowered::Expr& e = p_.exprs[i];
  switch (e.op) {
    case X::next_player:
    case X::not_:
    case X::neg:
      return gap(e.x[0], c);
    case X::read:
    case X::count:
      return place_gap(p_.places[e.a], c);
    case X::and_:
    case X::or_:
    case X::add:
    case X::sub:
    case X::mul:
    case X::div:
    case X::mod:
    case X::eq:
    case X::ne:
    case X::lt:
    case X::le:
    case X::gt:
    case X::ge: {
      const std::string ga = gap(e.x[0], c), gb = gap(e.x[1], c);
      if (e.op == X::and_) return combine(ga, cond(val(e.x[0], c), gb, "0"));
      if (e.op == X::or_) return combine(ga, cond(val(e.x[0], c), "0", gb));
      std::string out = combine(ga, gb);
      if (e.op == X::div || e.op == X::mod) {
        const lowered::Expr& d = p_.exprs[e.x[1]];
        if (!(d.op == X::konst && d.k != 0)) {
          out = combine(out, cond(val(e.x[1], c) + " == 0", site_code(e.site), "0"));
        }
      }
      return out;
    }
    case X::cond:
      return combine(gap(e.x[0], c), cond(val(e.x[0], c), gap(e.x[1], c), gap(e.x[2], c)));
    case X::exists:
    case X::forall:
    case X::count_of:
    case X::sum: {
      const auto values = domain(e.a, c.self);
      std::string out = "0";
      for (auto it = values.rbegin(); it != values.rend(); ++it) {
        Ctx inner = c;
        inner.binders[e.b] = *it;
        const std::string gi = gap(e.x[0], inner);
        const std::string vi = val(e.x[0], inner);
        std::string rest = out;
        if (e.op == X::exists) rest = cond(vi, "0", out);
        if (e.op == X::forall) rest = cond(vi, out, "0");
        out = combine(gi, rest);
      }
      return out;
    }
    case X::min:
    case X::max:
    case X::abs:
    case X::clamp: {
      std::string out = "0";
      for (const int a : e.x) {
        if (a >= 0) out = combine(out, gap(a, c));
      }
      return out;
    }
    default:
      return "0";
  }
}

}  // namespace loophole::promela::detail
