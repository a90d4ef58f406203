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

#include "loophole/checker/lowered.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/roles.hpp"

#include "promela_text.hpp"

namespace loophole::promela::detail {

namespace lowered = checker::lowered;
using lowered::S;
using lowered::X;
using model::Op;
using model::Protocol;
using model::Role;
using model::SequenceTurn;

// The failure code of an expression node that is no gap site (a property's).
constexpr int no_site_code = 30000;

// Expressions and statements are the lowered form's (lowered.hpp), read by
// node index; a move is specialised on `self` and on the values of the
// locals bound by the quantifiers, `for`, `choose` and `pick` around it.
struct Ctx {
  int self = 0;                         // always a constant: moves are specialised on it
  std::map<int, std::int64_t> binders;  // local -> constant value
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
      : g_(game),
        p_(lowered::lower(game)),
        source_(std::move(source)),
        n_(game.players),
        kinds_(p_.kinds) {
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
  static bool covers_static(Role r, int p, int active, int n, bool reversed);
  // The player after x (a Promela expression) in the turn order at run time.
  std::string next_of(const std::string& x) const;

  // ---- expressions (lowered nodes; -1: absent, holds as a condition)
  std::vector<std::int64_t> domain(int d, int self) const;
  std::string val(int e, const Ctx& c) const;
  std::string gap(int e, const Ctx& c) const;
  std::string test_val(int e, const Ctx& c) const { return e < 0 ? "1" : val(e, c); }
  std::string test_gap(int e, const Ctx& c) const { return e < 0 ? "0" : gap(e, c); }
  static std::string site_code(int site) {
    return site == lowered::no_site ? std::to_string(no_site_code) : std::to_string(site + 1);
  }
  // Alternatives (condition, slot) for a place with a checked index; index
  // failures give none.
  std::vector<std::pair<std::string, int>> place_slots(const lowered::Place& pl,
                                                       const Ctx& c) const;
  std::string place_gap(const lowered::Place& pl, const Ctx& c) const;
  std::vector<std::pair<std::string, int>> owners(int owner, const Ctx& c) const;
  std::string zone_value(const lowered::Place& pl, int list, const Ctx& c) const;
  std::string from_alternatives(const std::vector<std::pair<std::string, int>>& alts) const;
  std::optional<std::int64_t> constant(int e, const Ctx& c) const;

  // ---- statements and control (code appended to `out`)
  void gap_check(std::string& out, const std::string& code) const;
  void stmt(std::string& out, int s, const Ctx& c) const;  // -1: nothing
  void stmt_assign(std::string& out, const lowered::Stmt& s, const Ctx& c) const;
  void stmt_negate_at(std::string& out, const lowered::Stmt& s, const Ctx& c) const;
  void stmt_choose(std::string& out, const lowered::Stmt& s, const Ctx& c) const;
  void stmt_draw(std::string& out, const lowered::Stmt& s, const Ctx& c) const;
  void stmt_move(std::string& out, const lowered::Stmt& s, const Ctx& c) const;
  [[nodiscard]] std::string over_capacity(int zone, int base) const;
  void move_cards(std::string& out, int from_base, int to_base, int to_zone, int kind, bool chosen,
                  const std::string& n, int site) const;
  // `args`: a custom event's argument values (constants: each case of a
  // `fire` with arguments is generated on its own).
  void fire(std::string& out, int event, const std::vector<std::int64_t>& args = {}) const;
  void fire_args(std::string& out, const lowered::Stmt& s, const Ctx& c) const;
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
  // negate of entry i of k: the targets (Controls::stack_targets) of the
  // entries above it move down one place, the top's are cleared ("" when no
  // action has targets).
  std::string shift_targets(int i, int k) const {
    const int kt = p_.ctl.stack_target_count;
    std::string out;
    for (int j = i; j + 1 < k; ++j) {
      for (int t = 0; t < kt; ++t) {
        out += f(p_.ctl.stack_targets + kt * j + t) + " = " +
               f(p_.ctl.stack_targets + kt * (j + 1) + t) + "; ";
      }
    }
    for (int t = 0; t < kt; ++t) out += f(p_.ctl.stack_targets + kt * (k - 1) + t) + " = 0; ";
    return out;
  }
  std::string top(int part) const;
  std::string steps_with_window(int window) const;
  std::string per_active(const std::function<void(std::string&, int)>& body) const;
  // body(out) once per turn order (rev_ set), as `if :: order == o -> ... fi`.
  std::string per_order(const std::function<void(std::string&)>& body) const;

  // ---- the model
  void move(const std::string& guard, const std::string& body);
  std::pair<std::string, std::string> save_restore(const std::string& body) const;
  std::string properties() const;
  std::string declarations() const;

  const model::Game& g_;
  lowered::Lowered p_;
  std::string source_;
  int n_, kinds_;
  std::vector<std::string> names_;
  mutable int label_ = 0;     // the move being generated (its gap/done labels)
  mutable bool rev_ = false;  // the turn order the code being generated runs in
  std::string moves_;
  int move_count_ = 0;
};

}  // namespace loophole::promela::detail
