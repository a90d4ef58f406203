// The Promela generator. It compiles the Game the way the reference semantics
// runs it (checker/src/semantics): every move becomes one `atomic` alternative
// of a single `do` loop, specialised on everything the semantics decides from
// the state (step, holder, acting player, pending trigger, stack top), so that
// `self`, bound variables and quantifier domains are constants in the text.
// Choices inside effects (choose, pick, draw, move) are nondeterministic
// `if`/`do` inside the atomic step; rule gaps restore the state saved at the
// start of the move (hidden copies) and set ctl.over = 2 and ctl.gap, exactly
// as Run::gap does. Expressions are emitted twice: their value (failures give
// 0, as Evaluator does) and their first failure's gap code, in evaluation
// order with the same short-circuits.
#include "loophole/promela/promela.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "semantics/prepared.hpp"

namespace loophole::promela {
namespace {

using checker::semantics::Prepared;
using model::Expr;
using model::ExprKind;
using model::Op;
using model::Protocol;
using model::Role;
using model::SequenceTurn;
using model::Stmt;
using model::StmtKind;

// The failure code of an expression node that is no gap site (a property's).
constexpr int no_site_code = 30000;

struct Ctx {
  int self = 0;                         // always a constant: moves are specialised on it
  std::map<int, std::int64_t> binders;  // binder slot -> constant value
};

std::string num(std::int64_t v) {
  return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
}

// (a != 0 -> a : b): the first failure of a then b.
std::string combine(const std::string& a, const std::string& b) {
  if (a == "0") return b;
  if (b == "0") return a;
  return "((" + a + ") != 0 -> (" + a + ") : (" + b + "))";
}

std::string cond(const std::string& c, const std::string& a, const std::string& b) {
  if (a == b) return a;
  return "((" + c + ") -> (" + a + ") : (" + b + "))";
}

std::string sanitize(const std::string& s) {
  std::string out;
  for (char ch : s) {
    const bool ok =
        (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    if (ok) {
      out += ch;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.size() > 40) out.resize(40);
  return out;
}

class Generator {
 public:
  Generator(const model::Game& game, std::string source)
      : g_(game), p_(game), source_(std::move(source)), n_(game.players), kinds_(p_.kinds) {
    const auto& fields = p_.layout.fields;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      names_.push_back("s" + std::to_string(i) + "_" + sanitize(fields[i].name));
    }
  }

  std::string run();

 private:
  // ---- fields
  std::string f(int idx) const { return idx < 0 ? "0" : names_[idx]; }
  void set(std::string& out, int idx, const std::string& v) const {
    if (idx >= 0) out += names_[idx] + " = " + v + ";\n";
  }
  std::string active() const { return f(p_.ctl.active); }
  std::string any_pending() const;
  std::string no_pending_for(int player) const;
  std::string covers(Role r, int p) const;  // runtime, for a constant player
  static bool covers_static(Role r, int p, int active, int n);

  // ---- expressions
  std::vector<std::int64_t> domain(const model::Domain& d, int self) const;
  std::string val(const Expr& e, const Ctx& c) const;
  std::string gap(const Expr& e, const Ctx& c) const;
  std::string test_val(const Expr* e, const Ctx& c) const {
    return e == nullptr ? "1" : val(*e, c);
  }
  std::string test_gap(const Expr* e, const Ctx& c) const {
    return e == nullptr ? "0" : gap(*e, c);
  }
  std::string site_code(const void* node) const {
    const auto it = p_.gaps.at.find(node);
    return it == p_.gaps.at.end() ? std::to_string(no_site_code) : std::to_string(it->second + 1);
  }
  // Alternatives (condition, slot) for a var expression; index failures give none.
  std::vector<std::pair<std::string, int>> var_slots(const Expr& e, const Ctx& c) const;
  std::vector<std::pair<std::string, int>> owners(const Expr* owner, const Ctx& c) const;
  std::string zone_value(const Expr& e, const Ctx& c) const;
  std::string from_alternatives(const std::vector<std::pair<std::string, int>>& alts) const;
  std::optional<std::int64_t> constant(const Expr& e, const Ctx& c) const;

  // ---- statements and control (code appended to `out`)
  void gap_check(std::string& out, const std::string& code) const;
  void stmt(std::string& out, const Stmt* s, const Ctx& c) const;
  void stmt_assign(std::string& out, const Stmt& s, const Ctx& c) const;
  void stmt_choose(std::string& out, const Stmt& s, const Ctx& c) const;
  void stmt_draw(std::string& out, const Stmt& s, const Ctx& c) const;
  void stmt_move(std::string& out, const Stmt& s, const Ctx& c) const;
  void move_cards(std::string& out, int from_base, int to_base, int kind, bool chosen,
                  const std::string& n, int site) const;
  void fire(std::string& out, int event) const;
  void emit(std::string& out) const;
  void enter(std::string& out, int target, bool new_turn, bool start, int from_step) const;
  void step_do(std::string& out, int step) const;
  void after_step_do(std::string& out, int step) const;
  void open_window(std::string& out, int step) const;
  void close_window(std::string& out) const;
  void handover(std::string& out, int window, int from) const;
  void advance(std::string& out, int step) const;
  void advance_to(std::string& out, int step, int target, bool new_turn) const;
  void take_action(std::string& out, int window, int action, int holder) const;
  void push(std::string& out, int action, int holder) const;
  std::string enabled_pre(int action, int player, int window) const;
  std::string enabled(int action, int player, int window) const;
  std::string stack_entry(int i, int part) const { return f(p_.ctl.stack_base + 2 * i + part); }
  std::string top(int part) const;
  std::string steps_with_window(int window) const;
  std::string per_active(const std::function<void(std::string&, int)>& body) const;

  // ---- the model
  void move(const std::string& guard, const std::string& body);
  std::pair<std::string, std::string> save_restore(const std::string& body) const;
  std::string properties() const;
  std::string declarations() const;

  const model::Game& g_;
  Prepared p_;
  std::string source_;
  int n_, kinds_;
  std::vector<std::string> names_;
  mutable int label_ = 0;  // the move being generated (its gap/done labels)
  std::string moves_;
  int move_count_ = 0;
};

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

// ---------------------------------------------------------------------------
// Control: events, steps, windows (mirrors moves.cpp)

void Generator::fire(std::string& out, int event) const {
  if (event < 0) return;
  bool any = false;
  for (int t : p_.triggers_by_event[event]) any = any || p_.ctl.pending[t] >= 0;
  if (!any) return;
  out += "lh_g = 0;\n";
  out += per_active([&](std::string& o, int a) {
    for (int t : p_.triggers_by_event[event]) {
      const int base = p_.ctl.pending[t];
      if (base < 0) continue;
      const auto& trig = g_.triggers[t];
      for (int i = 0; i < n_; ++i) {
        const int q = (a + i) % n_;
        if (!covers_static(trig.controller, q, a, n_)) continue;
        Ctx c;
        c.self = q;
        const std::string gq = test_gap(trig.condition.get(), c);
        o += "if\n:: lh_g == 0 && " + f(base + q) + " == 0 ->\n";
        if (gq != "0") o += "lh_g = " + gq + ";\n";
        o += "if :: lh_g == 0 && (" + test_val(trig.condition.get(), c) + ") -> " + f(base + q) +
             " = 1 :: else -> skip fi\n:: else -> skip\nfi;\n";
      }
    }
  });
  out += "if :: lh_g != 0 -> goto lh_gap_" + std::to_string(label_) + " :: else -> skip fi;\n";
}

void Generator::emit(std::string& out) const {
  if (g_.end_conditions.empty()) return;
  out += "lh_g = 0;\n";
  out += per_active([&](std::string& o, int a) {
    for (const auto& end : g_.end_conditions) {
      for (int i = 0; i < n_; ++i) {
        const int q = (a + i) % n_;
        if (!covers_static(end.who, q, a, n_)) continue;
        Ctx c;
        c.self = q;
        const std::string gq = test_gap(end.condition.get(), c);
        o += "if\n:: lh_g == 0 && " + f(p_.ctl.over) + " == 0 ->\n";
        if (gq != "0") o += "lh_g = " + gq + ";\n";
        o += "if :: lh_g == 0 && (" + test_val(end.condition.get(), c) + ") -> " + f(p_.ctl.over) +
             " = 1 :: else -> skip fi\n:: else -> skip\nfi;\n";
      }
    }
  });
  out += "if :: lh_g != 0 -> goto lh_gap_" + std::to_string(label_) + " :: else -> skip fi;\n";
}

void Generator::close_window(std::string& out) const {
  const auto& ctl = p_.ctl;
  set(out, ctl.stage, "3");
  set(out, ctl.holder, "0");
  set(out, ctl.passes, "0");
  set(out, ctl.acted, "0");
  set(out, ctl.seat, "0");
  for (int base : ctl.window_uses) {
    if (base < 0) continue;
    for (int q = 0; q < n_; ++q) set(out, base + q, "0");
  }
}

std::string Generator::enabled_pre(int a, int q, int w) const {
  const auto& act = g_.actions[a];
  const auto& win = g_.windows[w];
  const auto& ctl = p_.ctl;
  std::vector<std::string> parts;
  const std::string who = covers(act.who, q);
  if (who == "0") return "0";
  parts.push_back(who);
  if (win.protocol == Protocol::priority || !win.roles.empty()) {
    const bool prio = win.protocol == Protocol::priority;
    const std::string answering = prio ? "(" + f(ctl.stack_size) + " > 0)" : "0";
    std::string roles;
    for (const auto& r : win.roles) {
      const std::string cov = covers(r.role, q);
      if (cov == "0") continue;
      auto has = [&](const std::vector<int>& speeds) {
        return g_.speeds.empty() ||
               std::find(speeds.begin(), speeds.end(), act.speed) != speeds.end();
      };
      const bool answer_ok = has(r.answer), lead_ok = has(r.lead);
      std::string lead = lead_ok ? "1" : "0";
      if (lead_ok && r.lead_if_active_idle) lead = "(" + f(ctl.acted) + " == 0)";
      std::string allowed;
      if (answering == "0") {
        allowed = lead;
      } else {
        allowed = cond(answering, answer_ok ? "1" : "0", lead);
      }
      if (allowed == "0") continue;
      roles += (roles.empty() ? "" : " || ") + std::string("(") + cov + " && " + allowed + ")";
    }
    if (roles.empty()) return "0";
    parts.push_back("(" + roles + ")");
  }
  if (ctl.turn_uses[a] >= 0) {
    parts.push_back(f(ctl.turn_uses[a] + q) + " < " + std::to_string(act.limit.per_turn));
  }
  if (ctl.window_uses[a] >= 0) {
    parts.push_back(f(ctl.window_uses[a] + q) + " < " + std::to_string(act.limit.per_window));
  }
  if (act.play_kind >= 0) {
    if (g_.hand_zone < 0) return "0";
    parts.push_back(f(g_.zones[g_.hand_zone].slot(q, act.play_kind, kinds_)) + " >= 1");
  }
  std::string out;
  for (const auto& s : parts) out += (out.empty() ? "" : " && ") + s;
  return "(" + out + ")";
}

// Enabled without a failing guard (Run::enabled() > 0).
std::string Generator::enabled(int a, int q, int w) const {
  const std::string pre = enabled_pre(a, q, w);
  if (pre == "0") return "0";
  Ctx c;
  c.self = q;
  const Expr* guard = g_.actions[a].guard.get();
  const std::string gg = test_gap(guard, c);
  std::string out = pre + " && (" + test_val(guard, c) + ")";
  if (gg != "0") out += " && (" + gg + ") == 0";
  return "(" + out + ")";
}

// Run::handover: the first player after `from` (cyclically, `from` last)
// with an enabled action holds the window; a failing guard is the gap.
void Generator::handover(std::string& out, int w, int from) const {
  out += "lh_g = 0; lh_x = 0;\n";
  for (int i = 1; i <= n_; ++i) {
    const int q = (from + i) % n_;
    for (int a : p_.window_actions[w]) {
      const std::string pre = enabled_pre(a, q, w);
      if (pre == "0") continue;
      Ctx c;
      c.self = q;
      const Expr* guard = g_.actions[a].guard.get();
      const std::string gg = test_gap(guard, c);
      out += "if\n:: lh_x == 0 && lh_g == 0 && " + pre + " ->\n";
      if (gg != "0") out += "lh_g = " + gg + ";\n";
      out += "if :: lh_g == 0 && (" + test_val(guard, c) + ") -> lh_x = 1; " + f(p_.ctl.holder) +
             " = " + std::to_string(q) + " :: else -> skip fi\n:: else -> skip\nfi;\n";
    }
  }
  std::string close;
  close_window(close);
  out += "if :: lh_x == 0 && lh_g == 0 ->\n" + close + ":: else -> skip\nfi;\n";
  out += "if :: lh_g != 0 -> goto lh_gap_" + std::to_string(label_) + " :: else -> skip fi;\n";
}

void Generator::open_window(std::string& out, int step) const {
  const int w = g_.steps[step].window;
  const auto& win = g_.windows[w];
  const auto& ctl = p_.ctl;
  set(out, ctl.stage, "2");
  set(out, ctl.holder, active());
  switch (win.protocol) {
    case Protocol::priority:
      break;
    case Protocol::alternate:
      out += per_active([&](std::string& o, int a) { handover(o, w, (a + n_ - 1) % n_); });
      break;
    case Protocol::sequence: {
      std::size_t seat = 0;
      while (seat < win.order.size() && win.order[seat] == SequenceTurn::active_if_answered) ++seat;
      if (seat >= win.order.size()) {
        close_window(out);
        break;
      }
      set(out, ctl.seat, std::to_string(seat));
      set(out, ctl.holder,
          win.order[seat] == SequenceTurn::opponent
              ? "((" + active() + " + 1) % " + std::to_string(n_) + ")"
              : active());
      break;
    }
  }
}

void Generator::after_step_do(std::string& out, int step) const {
  if (g_.steps[step].window < 0) {
    set(out, p_.ctl.stage, "3");
  } else {
    open_window(out, step);
  }
  emit(out);
}

void Generator::step_do(std::string& out, int step) const {
  const Stmt* effects = g_.steps[step].effects.get();
  if (effects != nullptr) {
    out += per_active([&](std::string& o, int a) {
      Ctx c;
      c.self = a;
      stmt(o, effects, c);
    });
  }
  after_step_do(out, step);
}

void Generator::enter(std::string& out, int target, bool new_turn, bool start,
                      int from_step) const {
  const auto& ctl = p_.ctl;
  if (new_turn) {
    set(out, ctl.active, "(" + active() + " + 1) % " + std::to_string(n_));
    const int turns = std::max(1, g_.scope.turns);
    out += "if :: " + f(ctl.turn) + " < " + std::to_string(turns) + " -> " + f(ctl.turn) + " = " +
           f(ctl.turn) + " + 1 :: else -> skip fi;\n";
    for (int base : ctl.turn_uses) {
      if (base < 0) continue;
      for (int q = 0; q < n_; ++q) set(out, base + q, "0");
    }
  }
  const int phase = p_.step_phase(target);
  if (new_turn || start) fire(out, p_.begin_turn_event);
  if (new_turn || start || p_.step_phase(from_step) != phase) {
    fire(out, g_.phases[phase].begin_event);
  }
  fire(out, g_.steps[target].begin_event);
  set(out, ctl.step, std::to_string(target));
  set(out, ctl.stage, "1");
  out += "lh_prog = 1;\n";
  std::string effects;
  step_do(effects, target);
  const std::string pending = any_pending();
  if (pending == "0") {
    out += effects;
  } else {
    std::string stop;
    emit(stop);
    out += "if\n:: " + pending + " ->\n" + (stop.empty() ? "skip;\n" : stop) + ":: else ->\n" +
           effects + "fi;\n";
  }
}

void Generator::advance_to(std::string& out, int step, int target, bool new_turn) const {
  const auto& ctl = p_.ctl;
  const int phase = g_.steps[step].phase;
  fire(out, g_.steps[step].end_event);
  if (new_turn || p_.step_phase(target) != phase) fire(out, g_.phases[phase].end_event);
  if (new_turn) fire(out, p_.end_turn_event);
  std::string entering;
  enter(entering, target, new_turn, false, step);
  const std::string pending = any_pending();
  if (pending == "0") {
    out += entering;
    return;
  }
  std::string leave;
  set(leave, ctl.stage, "4");
  set(leave, ctl.target, std::to_string(target));
  set(leave, ctl.new_turn, new_turn ? "1" : "0");
  emit(leave);
  out += "if\n:: " + pending + " ->\n" + leave + ":: else ->\n" + entering + "fi;\n";
}

void Generator::advance(std::string& out, int step) const {
  const auto& st = g_.steps[step];
  const int last = static_cast<int>(g_.steps.size()) - 1;
  Ctx c;
  // repeat_while / end_turn_if see `self` = the active player.
  out += per_active([&](std::string& o, int a) {
    c.self = a;
    const std::string rw = st.repeat_while ? val(*st.repeat_while, c) : "0";
    const std::string et = st.end_turn_if ? val(*st.end_turn_if, c) : "0";
    const std::string grw = test_gap(st.repeat_while.get(), c);
    const std::string get = st.end_turn_if ? gap(*st.end_turn_if, c) : "0";
    gap_check(o, combine(grw, cond(rw, "0", get)));
    std::string next, ending, repeating;
    advance_to(repeating, step, step, false);
    advance_to(ending, step, 0, true);
    if (step == last) {
      next = ending;
    } else {
      advance_to(next, step, step + 1, false);
    }
    std::string rest = next;
    if (st.end_turn_if) rest = "if\n:: " + et + " ->\n" + ending + ":: else ->\n" + next + "fi;\n";
    if (st.repeat_while)
      rest = "if\n:: " + rw + " ->\n" + repeating + ":: else ->\n" + rest + "fi;\n";
    o += rest;
  });
}

void Generator::push(std::string& out, int a, int h) const {
  const auto& ctl = p_.ctl;
  const int b = ctl.stack_capacity;
  out += "if\n:: " + f(ctl.stack_size) + " >= " + std::to_string(b) +
         " -> lh_g = " + std::to_string(p_.gaps.push_site[a] + 1) + "; goto lh_gap_" +
         std::to_string(label_) + "\n";
  for (int i = 0; i < b; ++i) {
    out += ":: " + f(ctl.stack_size) + " == " + std::to_string(i) + " -> " + stack_entry(i, 0) +
           " = " + std::to_string(a) + "; " + stack_entry(i, 1) + " = " + std::to_string(h) + "\n";
  }
  out += "fi;\n";
  set(out, ctl.stack_size, f(ctl.stack_size) + " + 1");
  set(out, ctl.holder, std::to_string((h + 1) % n_));
  set(out, ctl.passes, "0");
}

void Generator::take_action(std::string& out, int w, int a, int h) const {
  const auto& act = g_.actions[a];
  const auto& ctl = p_.ctl;
  Ctx c;
  c.self = h;
  if (act.play_kind >= 0) {
    const int from = g_.zones[g_.hand_zone].slot(h, act.play_kind, kinds_);
    out += f(from) + " = " + f(from) + " - 1;\n";
    if (act.to_zone >= 0) {
      const int to = g_.zones[act.to_zone].slot(h, act.play_kind, kinds_);
      out += f(to) + " = " + f(to) + " + 1;\n";
      out += "if :: " + f(to) + " > " + num(g_.slots[to].hi) +
             " -> lh_g = " + std::to_string(p_.gaps.play_site[a] + 1) + "; goto lh_gap_" +
             std::to_string(label_) + " :: else -> skip fi;\n";
    }
  }
  stmt(out, act.cost.get(), c);
  auto count_use = [&] {
    if (ctl.turn_uses[a] >= 0) {
      const std::string u = f(ctl.turn_uses[a] + h);
      out += u + " = " + u + " + 1;\n";
    }
    if (ctl.window_uses[a] >= 0) {
      const std::string u = f(ctl.window_uses[a] + h);
      out += u + " = " + u + " + 1;\n";
    }
  };
  switch (g_.windows[w].protocol) {
    case Protocol::priority:
      count_use();
      if (ctl.acted >= 0) {
        out += "if :: " + active() + " == " + std::to_string(h) + " -> " + f(ctl.acted) +
               " = 1 :: else -> skip fi;\n";
      }
      if (!act.answerable) {
        stmt(out, act.effect.get(), c);
        set(out, ctl.passes, "0");
      } else {
        push(out, a, h);
      }
      break;
    case Protocol::alternate:
      count_use();
      stmt(out, act.effect.get(), c);
      handover(out, w, h);
      break;
    case Protocol::sequence:
      count_use();
      stmt(out, act.effect.get(), c);
      set(out, ctl.acted, "1");
      break;
  }
  emit(out);
}

std::string Generator::steps_with_window(int w) const {
  std::string out;
  for (std::size_t k = 0; k < g_.steps.size(); ++k) {
    if (g_.steps[k].window != w) continue;
    out += (out.empty() ? "" : " || ") + f(p_.ctl.step) + " == " + std::to_string(k);
  }
  return out.empty() ? "0" : "(" + out + ")";
}

// ---------------------------------------------------------------------------
// The model

// What a move may write, saved at its start with plain assignments (pan
// undoes those when it backtracks into the move, unlike d_step copies) and
// restored when the move ends in a rule gap. Only moves that can reach their
// gap label save anything.
std::pair<std::string, std::string> Generator::save_restore(const std::string& body) const {
  const std::string l = "goto lh_gap_" + std::to_string(label_);
  if (body.find(l) == std::string::npos) return {"", ""};
  static const std::regex assignment(R"(\b(s[0-9]+_[A-Za-z0-9_]*) = )");
  std::set<int> written;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), assignment);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1].str();
    written.insert(std::stoi(name.substr(1, name.find('_') - 1)));
  }
  std::string save, restore;
  for (int i : written) {
    save += "lh_" + names_[i] + " = " + names_[i] + "; ";
    restore += (restore.empty() ? "" : "; ") + names_[i] + " = lh_" + names_[i];
  }
  if (!save.empty()) save += "\n";
  if (!restore.empty()) restore = "d_step { " + restore + " };\n";
  return {save, restore};
}

void Generator::move(const std::string& guard, const std::string& body) {
  const std::string l = std::to_string(label_);
  const auto [save, restore] = save_restore(body);
  moves_ += ":: atomic { " + guard + " ->\nlh_prog = 0;\n" + save + body + "goto lh_done_" + l +
            ";\nlh_gap_" + l + ": lh_g = lh_g;\n" + restore;
  if (p_.ctl.over >= 0) moves_ += f(p_.ctl.over) + " = 2;\n";
  if (p_.ctl.gap >= 0) moves_ += f(p_.ctl.gap) + " = lh_g;\n";
  moves_ += "lh_prog = 0;\nlh_done_" + l + ": LH_CHECK; LH_DISPATCH }\n";
  ++move_count_;
  ++label_;
}

std::string Generator::properties() const {
  std::vector<std::string> checks;
  if (p_.ctl.gap >= 0 || !p_.gaps.sites.empty()) checks.push_back(f(p_.ctl.over) + " != 2");
  for (const auto& prop : g_.properties) {
    if (prop.kind != model::Property::Kind::always && prop.kind != model::Property::Kind::never) {
      continue;
    }
    std::string where;
    for (std::size_t k = 0; k < g_.steps.size(); ++k) {
      const bool in = std::find(prop.at_steps.begin(), prop.at_steps.end(), static_cast<int>(k)) !=
                          prop.at_steps.end() ||
                      std::find(prop.at_phases.begin(), prop.at_phases.end(), g_.steps[k].phase) !=
                          prop.at_phases.end();
      if (in) where += (where.empty() ? "" : " || ") + f(p_.ctl.step) + " == " + std::to_string(k);
    }
    const bool restricted = !prop.at_steps.empty() || !prop.at_phases.empty();
    // `self` in a property is the active player.
    std::string holds = "0";
    for (int a = n_ - 1; a >= 0; --a) {
      Ctx c;
      c.self = a;
      const std::string h = "((" + gap(*prop.expr, c) + ") == 0 && (" + val(*prop.expr, c) + "))";
      holds = a == n_ - 1 ? h : cond(active() + " == " + std::to_string(a), h, holds);
    }
    std::string ok = prop.kind == model::Property::Kind::always ? holds : "!(" + holds + ")";
    if (restricted) ok = "!(" + (where.empty() ? "0" : where) + ") || " + ok;
    checks.push_back(ok);
  }
  std::string out;
  for (const auto& c : checks) out += (out.empty() ? "" : "; ") + std::string("assert(") + c + ")";
  return out.empty() ? "skip" : out;
}

std::string Generator::declarations() const {
  std::ostringstream o;
  const auto& fields = p_.layout.fields;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& fl = fields[i];
    const char* type =
        fl.lo >= 0 && fl.hi <= 200 ? "byte" : (fl.lo >= -30000 && fl.hi <= 30000 ? "short" : "int");
    std::int32_t init = 0;
    if (i < g_.slots.size()) init = g_.slots[i].init;
    if (static_cast<int>(i) == p_.ctl.turn) init = 1;
    o << type << " " << names_[i] << " = " << init << ";\t/* " << fl.name << " " << fl.lo << ".."
      << fl.hi << " */\n";
  }
  o << "\n/* Scratch values of one move: not part of the state vector. */\n";
  o << "hidden int lh_g, lh_v, lh_n, lh_r, lh_c, lh_h, lh_x;\nhidden byte lh_prog;\n";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& fl = fields[i];
    const char* type =
        fl.lo >= 0 && fl.hi <= 200 ? "byte" : (fl.lo >= -30000 && fl.hi <= 30000 ? "short" : "int");
    o << "hidden " << type << " lh_" << names_[i] << ";\n";
  }
  return o.str();
}

std::string Generator::run() {
  const auto& ctl = p_.ctl;
  const std::string n = std::to_string(n_);
  const std::string pending = any_pending();
  const std::string idle = pending == "0" ? "" : "!" + pending + " && ";

  // Setup (label 0): the initial states.
  std::string setup;
  {
    Ctx c;
    c.self = 0;
    stmt(setup, g_.setup.get(), c);
    emit(setup);
  }
  const std::string l0 = std::to_string(label_);
  const auto [save0, restore0] = save_restore(setup);
  std::string init = "atomic {\nlh_prog = 0;\n" + save0 + setup + "goto lh_done_" + l0 +
                     ";\nlh_gap_" + l0 + ": lh_g = lh_g;\n" + restore0;
  if (ctl.over >= 0) init += f(ctl.over) + " = 2;\n";
  if (ctl.gap >= 0) init += f(ctl.gap) + " = lh_g;\n";
  init += "lh_done_" + l0 + ": LH_CHECK;\nif :: " + f(ctl.over) +
          " != 0 -> goto end_over :: else -> skip fi }\n";
  ++label_;

  // Pending triggers: the first player from the active one who has one moves.
  for (std::size_t t = 0; t < g_.triggers.size(); ++t) {
    const int base = ctl.pending[t];
    if (base < 0) continue;
    for (int q = 0; q < n_; ++q) {
      std::string first;
      for (int a = 0; a < n_; ++a) {
        std::string before = active() + " == " + std::to_string(a);
        for (int j = a; j != q; j = (j + 1) % n_) before += " && " + no_pending_for(j);
        first += (first.empty() ? "" : " || ") + std::string("(") + before + ")";
      }
      const std::string guard =
          f(p_.ctl.over) + " == 0 && " + f(base + q) + " == 1 && (" + first + ")";
      for (int decline = 0; decline <= (g_.triggers[t].optional ? 1 : 0); ++decline) {
        std::string body;
        set(body, base + q, "0");
        if (decline == 0) {
          Ctx c;
          c.self = q;
          stmt(body, g_.triggers[t].effect.get(), c);
        }
        emit(body);
        move(guard, body);
      }
    }
  }
  const std::string running = f(ctl.over) + " == 0 && " + idle;
  // start
  {
    std::string body;
    enter(body, 0, false, true, 0);
    move(running + f(ctl.stage) + " == 0", body);
  }
  for (std::size_t k = 0; k < g_.steps.size(); ++k) {
    const int step = static_cast<int>(k);
    const std::string at =
        running + f(ctl.step) + " == " + std::to_string(k) + " && " + f(ctl.stage);
    {  // effects
      std::string body;
      step_do(body, step);
      move(at + " == 1", body);
    }
    {  // advance
      std::string body;
      advance(body, step);
      move(at + " == 3", body);
    }
    if (ctl.target >= 0) {  // enter, after end triggers resolved
      std::vector<std::pair<int, bool>> targets;
      if (g_.steps[k].repeat_while) targets.emplace_back(step, false);
      if (g_.steps[k].end_turn_if || step + 1 == static_cast<int>(g_.steps.size())) {
        targets.emplace_back(0, true);
      }
      if (step + 1 < static_cast<int>(g_.steps.size())) targets.emplace_back(step + 1, false);
      for (const auto& [target, nt] : targets) {
        std::string body;
        set(body, ctl.target, "0");
        set(body, ctl.new_turn, "0");
        enter(body, target, nt, false, step);
        move(at + " == 4 && " + f(ctl.target) + " == " + std::to_string(target) + " && " +
                 f(ctl.new_turn) + " == " + (nt ? "1" : "0"),
             body);
      }
    }
  }
  // Windows: per window opened by some step, per holder.
  for (std::size_t w = 0; w < g_.windows.size(); ++w) {
    if (!p_.window_used[w]) continue;
    const int win = static_cast<int>(w);
    const auto& wd = g_.windows[w];
    for (int h = 0; h < n_; ++h) {
      const std::string at = running + f(ctl.stage) + " == 2 && " + steps_with_window(win) +
                             " && " + f(ctl.holder) + " == " + std::to_string(h);
      std::string any_action;
      for (int a : p_.window_actions[w]) {
        const std::string pre = enabled_pre(a, h, win);
        if (pre == "0") continue;
        Ctx c;
        c.self = h;
        const Expr* guard = g_.actions[a].guard.get();
        const std::string gg = test_gap(guard, c);
        std::string body;
        gap_check(body, gg);
        take_action(body, win, a, h);
        std::string guard_text = pre;
        if (gg == "0") {
          guard_text += " && (" + test_val(guard, c) + ")";
        } else {
          guard_text += " && ((" + gg + ") != 0 || (" + test_val(guard, c) + "))";
        }
        move(at + " && " + guard_text, body);
        const std::string en = enabled(a, h, win);
        if (en != "0") any_action += (any_action.empty() ? "" : " || ") + en;
      }
      switch (wd.protocol) {
        case Protocol::priority: {
          if (!wd.may_pass) break;
          std::string body;
          std::string close;
          close_window(close);
          body += "if\n:: " + f(ctl.passes) + " + 1 < " + n + " -> " + f(ctl.holder) + " = " +
                  std::to_string((h + 1) % n_) + "; " + f(ctl.passes) + " = " + f(ctl.passes) +
                  " + 1\n:: else ->\n" + close + "fi;\n";
          emit(body);
          std::string not_resolve =
              "!(" + f(ctl.passes) + " + 1 == " + n + " && " + f(ctl.stack_size) + " > 0)";
          move(at + " && " + not_resolve, body);
          break;
        }
        case Protocol::alternate: {
          std::string body;
          handover(body, win, h);
          emit(body);
          std::string guard = at;
          if (!wd.may_pass) guard += " && !(" + (any_action.empty() ? "0" : any_action) + ")";
          move(guard, body);
          break;
        }
        case Protocol::sequence: {
          const int k = static_cast<int>(wd.order.size());
          for (int seat = 0; seat < std::max(1, k); ++seat) {
            for (int acted = 0; acted <= (ctl.acted >= 0 ? 1 : 0); ++acted) {
              std::size_t next = static_cast<std::size_t>(seat) + 1;
              bool answered = acted != 0;
              while (next < wd.order.size() && wd.order[next] == SequenceTurn::active_if_answered &&
                     !answered) {
                ++next;
                answered = false;
              }
              std::string body;
              if (next >= wd.order.size()) {
                close_window(body);
              } else {
                set(body, ctl.seat, std::to_string(next));
                set(body, ctl.acted, "0");
                set(body, ctl.holder,
                    wd.order[next] == SequenceTurn::opponent
                        ? "((" + active() + " + 1) % " + n + ")"
                        : active());
              }
              emit(body);
              std::string guard = at + " && " + f(ctl.seat) + " == " + std::to_string(seat);
              if (ctl.acted >= 0) guard += " && " + f(ctl.acted) + " == " + std::to_string(acted);
              move(guard, body);
            }
          }
          break;
        }
      }
    }
  }
  // Resolving the top of the stack: per action and controller.
  if (ctl.stack_size >= 0) {
    std::string prio_steps;
    for (std::size_t k = 0; k < g_.steps.size(); ++k) {
      const int w = g_.steps[k].window;
      if (w < 0 || g_.windows[w].protocol != Protocol::priority || !g_.windows[w].may_pass)
        continue;
      prio_steps += (prio_steps.empty() ? "" : " || ") + f(ctl.step) + " == " + std::to_string(k);
    }
    if (!prio_steps.empty()) {
      for (std::size_t a = 0; a < g_.actions.size(); ++a) {
        for (int q = 0; q < n_; ++q) {
          std::string body = "if\n";
          for (int i = 1; i <= ctl.stack_capacity; ++i) {
            body += ":: " + f(ctl.stack_size) + " == " + std::to_string(i) + " -> " +
                    stack_entry(i - 1, 0) + " = 0; " + stack_entry(i - 1, 1) + " = 0\n";
          }
          body += "fi;\n";
          set(body, ctl.stack_size, f(ctl.stack_size) + " - 1");
          Ctx c;
          c.self = q;
          stmt(body, g_.actions[a].effect.get(), c);
          set(body, ctl.holder, active());
          set(body, ctl.passes, "0");
          emit(body);
          move(running + f(ctl.stage) + " == 2 && (" + prio_steps + ") && " + f(ctl.passes) +
                   " + 1 == " + n + " && " + f(ctl.stack_size) + " > 0 && " + top(0) +
                   " == " + std::to_string(a) + " && " + top(1) + " == " + std::to_string(q),
               body);
        }
      }
    }
  }

  std::ostringstream o;
  o << "/* Promela export of '" << g_.name << "' (" << source_ << ") by loophole export.\n"
    << " * " << n_ << " players, scope turns = " << g_.scope.turns << ", stack = " << g_.scope.stack
    << ".\n"
    << " * The state vector is loophole's layout, one global per field in layout order\n"
    << " * (docs/semantics.md); each loophole move is one atomic step of process game.\n"
    << " * pan's \"states, stored\" = loophole's states + 1 (the state before setup).\n"
    << " * Compile with -DLH_PROGRESS (spin -DLH_PROGRESS -a) for pan -l: a move that\n"
    << " * enters a step then passes through the progress state progress_lh, so a\n"
    << " * non-progress cycle is a response loop. See docs/promela.md. */\n\n";
  o << declarations();
  o << "\n#define LH_CHECK " << properties() << "\n";
  o << "#ifdef LH_PROGRESS\n#define LH_DISPATCH if :: " << f(ctl.over)
    << " != 0 -> goto end_over :: lh_prog != 0 -> lh_prog = 0; goto progress_lh :: else -> skip "
       "fi\n"
    << "#else\n#define LH_DISPATCH if :: " << f(ctl.over)
    << " != 0 -> goto end_over :: else -> skip fi\n#endif\n\n";
  o << "active proctype game() {\n" << init << "lh_loop:\n  do\n" << moves_ << "  od;\n";
  o << "#ifdef LH_PROGRESS\nprogress_lh: goto lh_loop;\n#endif\n";
  o << "end_over: false\n}\n";
  return o.str();
}

}  // namespace

std::string to_promela(const model::Game& game, const std::string& source) {
  Generator gen(game, source);
  return gen.run();
}

}  // namespace loophole::promela
