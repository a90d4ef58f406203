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

bool Generator::covers_static(Role r, int p, int active, int n) {
  switch (r) {
    case Role::active:
      return p == active;
    case Role::opponent:
      return p == (active + 1) % n && p != active;
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
  for (int a = 0; a < n_; ++a) {
    if (!covers_static(r, p, a, n_)) continue;
    if (!out.empty()) out += " || ";
    out += active() + " == " + std::to_string(a);
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

// body(out, a) for the active player a, as `if :: active == a -> ... fi`.
std::string Generator::per_active(const std::function<void(std::string&, int)>& body) const {
  std::vector<std::string> parts(n_);
  for (int a = 0; a < n_; ++a) body(parts[a], a);
  bool same = true;
  for (int a = 1; a < n_; ++a) same = same && parts[a] == parts[0];
  if (same) return parts[0];
  std::string out = "if\n";
  for (int a = 0; a < n_; ++a) {
    out += ":: " + active() + " == " + std::to_string(a) + " ->\n" +
           (parts[a].empty() ? "skip;\n" : parts[a]);
  }
  out += "fi;\n";
  return out;
}

// ---------------------------------------------------------------------------
// Expressions

std::vector<std::int64_t> Generator::domain(const model::Domain& d, int self) const {
  using K = model::Domain::Kind;
  std::vector<std::int64_t> out;
  switch (d.kind) {
    case K::players:
      for (int q = 0; q < n_; ++q) out.push_back(q);
      break;
    case K::others:
      for (int q = 0; q < n_; ++q) {
        if (q != self) out.push_back(q);
      }
      break;
    case K::range:
      for (std::int64_t v = d.lo; v <= d.hi; ++v) out.push_back(v);
      break;
    case K::enum_values:
      for (std::size_t v = 0; v < g_.enums[d.ref].values.size(); ++v) {
        out.push_back(static_cast<std::int64_t>(v));
      }
      break;
    case K::kinds:
      for (int k = 0; k < kinds_; ++k) out.push_back(k);
      break;
    case K::kinds_tagged:
      for (int k : p_.kinds_by_tag[d.ref]) out.push_back(k);
      break;
  }
  return out;
}

std::optional<std::int64_t> Generator::constant(const Expr& e, const Ctx& c) const {
  switch (e.kind) {
    case ExprKind::int_lit:
    case ExprKind::bool_lit:
    case ExprKind::enum_lit:
    case ExprKind::player_lit:
    case ExprKind::kind_lit:
    case ExprKind::action_lit:
      return e.value;
    case ExprKind::self:
      return c.self;
    case ExprKind::bound:
      return c.binders.at(e.ref);
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

std::vector<std::pair<std::string, int>> Generator::owners(const Expr* owner, const Ctx& c) const {
  if (owner == nullptr) return {{"1", -1}};
  if (const auto v = constant(*owner, c)) return {{"1", static_cast<int>(*v)}};
  const std::string o = val(*owner, c);
  std::vector<std::pair<std::string, int>> out;
  for (int q = 0; q < n_; ++q) out.emplace_back("(" + o + ") == " + std::to_string(q), q);
  return out;
}

std::vector<std::pair<std::string, int>> Generator::var_slots(const Expr& e, const Ctx& c) const {
  const auto& v = g_.vars[e.ref];
  std::size_t arg = 0;
  std::vector<std::pair<std::string, int>> players = {{"1", 0}};
  if (v.per_player) players = owners(e.args[arg++].get(), c);
  std::vector<std::pair<std::string, int>> indices = {{"1", 0}};
  if (v.array > 0) {
    const Expr& ix = *e.args[arg];
    indices.clear();
    if (const auto k = constant(ix, c)) {
      if (*k >= 0 && *k < v.array) indices.emplace_back("1", static_cast<int>(*k));
    } else {
      const std::string i = val(ix, c);
      for (int k = 0; k < v.array; ++k)
        indices.emplace_back("(" + i + ") == " + std::to_string(k), k);
    }
  }
  std::vector<std::pair<std::string, int>> out;
  for (const auto& [pc, pv] : players) {
    for (const auto& [ic, iv] : indices) {
      std::string cnd = pc == "1" ? ic : (ic == "1" ? pc : "(" + pc + " && " + ic + ")");
      out.emplace_back(cnd, v.slot(pv, iv, e.field));
    }
  }
  return out;
}

std::string Generator::zone_value(const Expr& e, const Ctx& c) const {
  const auto& zone = g_.zones[e.ref];
  const Expr* owner = zone.per_player && !e.args.empty() ? e.args[0].get() : nullptr;
  std::vector<std::pair<std::string, std::string>> alts;  // owner condition, value
  for (const auto& [oc, ov] : owners(owner, c)) {
    const int base = zone.slot(ov < 0 ? 0 : ov, 0, kinds_);
    std::string value;
    if (e.value >= 0) {
      value = f(base + static_cast<int>(e.value));
    } else if (e.value == -1 || e.value == -2) {
      std::vector<int> ks;
      if (e.value == -1) {
        for (int k = 0; k < kinds_; ++k) ks.push_back(k);
      } else {
        ks = p_.kinds_by_tag[e.tag];
      }
      for (int k : ks) value += (value.empty() ? "" : " + ") + f(base + k);
      value = value.empty() ? "0" : "(" + value + ")";
    } else {
      const Expr& kind = *e.args.back();
      if (const auto k = constant(kind, c)) {
        value = f(base + static_cast<int>(*k));
      } else {
        const std::string kv = val(kind, c);
        value = "0";
        for (int k = kinds_ - 1; k >= 0; --k) {
          value = cond("(" + kv + ") == " + std::to_string(k), f(base + k), value);
        }
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

std::string Generator::val(const Expr& e, const Ctx& c) const {
  if (const auto v = constant(e, c)) return num(*v);
  const std::string n = std::to_string(n_);
  switch (e.kind) {
    case ExprKind::active:
      return active();
    case ExprKind::opponent:
      return "((" + active() + " + 1) % " + n + ")";
    case ExprKind::turn_number:
      return f(p_.ctl.turn);
    case ExprKind::stack_size:
      return f(p_.ctl.stack_size);
    case ExprKind::top_action:
      return top(0);
    case ExprKind::top_controller:
      return top(1);
    case ExprKind::next_player:
      return "((" + val(*e.args[0], c) + " + 1) % " + n + ")";
    case ExprKind::var:
      return from_alternatives(var_slots(e, c));
    case ExprKind::zone_count:
      return zone_value(e, c);
    case ExprKind::unary:
      return e.op == Op::not_ ? "(!(" + val(*e.args[0], c) + "))"
                              : "(-(" + val(*e.args[0], c) + "))";
    case ExprKind::binary: {
      const std::string a = val(*e.args[0], c), b = val(*e.args[1], c);
      switch (e.op) {
        case Op::and_:
          return "((" + a + ") && (" + b + "))";
        case Op::or_:
          return "((" + a + ") || (" + b + "))";
        case Op::add:
          return "(" + a + " + " + b + ")";
        case Op::sub:
          return "(" + a + " - " + b + ")";
        case Op::mul:
          return "(" + a + " * " + b + ")";
        case Op::div:
        case Op::mod: {
          const std::string op = e.op == Op::div ? " / " : " % ";
          const Expr& d = *e.args[1];
          if (d.kind == ExprKind::int_lit && d.value != 0) return "(" + a + op + b + ")";
          return cond(b + " != 0", "(" + a + op + b + ")", "0");
        }
        case Op::eq:
          return "(" + a + " == " + b + ")";
        case Op::ne:
          return "(" + a + " != " + b + ")";
        case Op::lt:
          return "(" + a + " < " + b + ")";
        case Op::le:
          return "(" + a + " <= " + b + ")";
        case Op::gt:
          return "(" + a + " > " + b + ")";
        case Op::ge:
          return "(" + a + " >= " + b + ")";
        default:
          break;
      }
      break;
    }
    case ExprKind::cond:
      return cond(val(*e.args[0], c), val(*e.args[1], c), val(*e.args[2], c));
    case ExprKind::quant: {
      std::vector<std::string> items;
      for (const std::int64_t v : domain(e.domain, c.self)) {
        Ctx inner = c;
        inner.binders[e.ref] = v;
        items.push_back(val(*e.args[0], inner));
      }
      std::string sep, empty;
      switch (e.op) {
        case Op::exists:
          sep = " || ", empty = "0";
          break;
        case Op::forall:
          sep = " && ", empty = "1";
          break;
        case Op::count:
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
    case ExprKind::builtin: {
      const std::string a = val(*e.args[0], c);
      switch (e.op) {
        case Op::abs:
          return cond(a + " < 0", "-(" + a + ")", a);
        case Op::min: {
          const std::string b = val(*e.args[1], c);
          return cond(a + " < " + b, a, b);
        }
        case Op::max: {
          const std::string b = val(*e.args[1], c);
          return cond(a + " > " + b, a, b);
        }
        case Op::clamp: {
          const std::string lo = val(*e.args[1], c), hi = val(*e.args[2], c);
          const std::string m = cond(a + " < " + hi, a, hi);
          return cond(lo + " > " + m, lo, m);
        }
        default:
          break;
      }
      break;
    }
    default:
      break;
  }
  throw std::logic_error("promela: expression '" + e.text + "' cannot be exported");
}

std::string Generator::gap(const Expr& e, const Ctx& c) const {
  switch (e.kind) {
    case ExprKind::next_player:
    case ExprKind::unary:
      return gap(*e.args[0], c);
    case ExprKind::var: {
      const auto& v = g_.vars[e.ref];
      std::string out = "0";
      std::size_t arg = 0;
      if (v.per_player) out = combine(out, gap(*e.args[arg++], c));
      if (v.array > 0) {
        const Expr& ix = *e.args[arg];
        out = combine(out, gap(ix, c));
        const auto k = constant(ix, c);
        if (!k) {
          const std::string i = val(ix, c);
          out = combine(out, cond("(" + i + ") < 0 || (" + i + ") >= " + std::to_string(v.array),
                                  site_code(&e), "0"));
        } else if (*k < 0 || *k >= v.array) {
          out = combine(out, site_code(&e));
        }
      }
      return out;
    }
    case ExprKind::zone_count: {
      std::string out = "0";
      for (const auto& a : e.args) out = combine(out, gap(*a, c));
      return out;
    }
    case ExprKind::binary: {
      const std::string ga = gap(*e.args[0], c), gb = gap(*e.args[1], c);
      if (e.op == Op::and_) return combine(ga, cond(val(*e.args[0], c), gb, "0"));
      if (e.op == Op::or_) return combine(ga, cond(val(*e.args[0], c), "0", gb));
      std::string out = combine(ga, gb);
      if (e.op == Op::div || e.op == Op::mod) {
        const Expr& d = *e.args[1];
        if (!(d.kind == ExprKind::int_lit && d.value != 0)) {
          out = combine(out, cond(val(d, c) + " == 0", site_code(&e), "0"));
        }
      }
      return out;
    }
    case ExprKind::cond:
      return combine(gap(*e.args[0], c),
                     cond(val(*e.args[0], c), gap(*e.args[1], c), gap(*e.args[2], c)));
    case ExprKind::quant: {
      const auto values = domain(e.domain, c.self);
      std::string out = "0";
      for (auto it = values.rbegin(); it != values.rend(); ++it) {
        Ctx inner = c;
        inner.binders[e.ref] = *it;
        const std::string gi = gap(*e.args[0], inner);
        const std::string vi = val(*e.args[0], inner);
        std::string rest = out;
        if (e.op == Op::exists) rest = cond(vi, "0", out);
        if (e.op == Op::forall) rest = cond(vi, out, "0");
        out = combine(gi, rest);
      }
      return out;
    }
    case ExprKind::builtin: {
      std::string out = "0";
      for (const auto& a : e.args) out = combine(out, gap(*a, c));
      return out;
    }
    default:
      return "0";
  }
}

}  // namespace loophole::promela::detail
