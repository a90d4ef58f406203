// The Promela generator's class, shared by its four parts: the roles and
// expressions (expressions.cpp), the statements of effects (statements.cpp),
// the turn structure's control (control.cpp) and the model around them
// (promela.cpp, which also says how the whole is generated).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loophole/model/game.hpp"

#include "promela_text.hpp"
#include "semantics/prepared.hpp"

namespace loophole::promela::detail {

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

inline std::string num(std::int64_t v) {
  return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
}

// (a != 0 -> a : b): the first failure of a then b.
inline std::string combine(const std::string& a, const std::string& b) {
  if (a == "0") return b;
  if (b == "0") return a;
  return "((" + a + ") != 0 -> (" + a + ") : (" + b + "))";
}

inline std::string cond(const std::string& c, const std::string& a, const std::string& b) {
  if (a == b) return a;
  return "((" + c + ") -> (" + a + ") : (" + b + "))";
}

class Generator {
 public:
  Generator(const model::Game& game, std::string source)
      : g_(game), p_(game), source_(std::move(source)), n_(game.players), kinds_(p_.kinds) {
    const auto& fields = p_.layout.fields;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      names_.push_back("s" + std::to_string(i) + "_" + identifier_tail(fields[i].name));
    }
  }

  std::string run();
  // Throws Unsupported when a value of the game can leave 32 bits.
  void require_int32() const;

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

}  // namespace loophole::promela::detail
