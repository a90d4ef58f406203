// One computation of successors (or of the initial states). Effects run in
// a recursive executor with an explicit continuation (immutable frames on
// the C++ stack: the rest of a block, the next `for` iteration, the tail of
// the move), so a choice point restores the state it saved and runs the
// continuation once per outcome, and every complete path emits exactly one
// successor. The tail of a move (pushing the action, handing priority on,
// opening the window) is an enum dispatched in finish(): no closures are
// built in the inner loop.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loophole/checker/moves.hpp"

#include "eval.hpp"

namespace loophole::checker::semantics {

struct Cont {
  // voice: the body of a `pick ... by P` is over; the transcript's voice
  // goes back to `voice` (below).
  enum class Kind : std::uint8_t { seq, loop, tail, voice };
  Kind kind = Kind::tail;
  const Cont* next = nullptr;
  const std::vector<model::StmtPtr>* list = nullptr;  // seq: statements list[pos..]
  const model::Stmt* loop = nullptr;                  // loop: the `for`, at value index pos
  std::size_t pos = 0;
  Tail tail = Tail::emit;
  int voice = -1;  // voice: the voice to restore
};

// What a choice point saves so each outcome starts from the same place.
struct Snapshot {
  StateVec state;
  std::vector<std::int64_t> binders;
  int self = -1;
  int voice = -1;
  std::size_t choices = 0, notes = 0;
  int picker = -1;
  bool nature = false;
  bool progress = false;
};

// Buffers reused across calls (one set per thread, see semantics.cpp).
struct Scratch {
  StateVec work, start, gap_state;
  std::vector<std::int64_t> binders, aux_binders;
  std::vector<std::int64_t> event_args;             // the arguments of the event firing
  std::vector<Snapshot> snaps;                      // by choice depth
  std::vector<std::vector<std::int32_t>> outcomes;  // by choice depth
  std::vector<std::int32_t> counts;
  std::vector<std::int64_t> suffix;
  std::vector<Choice> choices;
  std::vector<std::string> notes;
  std::vector<Move> moves;
};

class Run {
 public:
  Run(const Prepared& p, const Evaluator& ev, Scratch& sc, bool record);

  void initial_states(std::vector<StateVec>& out);
  // Every outcome of running the effect s in `state` for `self`, in
  // canonical order, without the move around it or the end check: a gap
  // outcome is `state` marked with the gap, a win/lose marks the game over.
  void effect_outcomes(const model::Stmt* s, const StateVec& state, int self,
                       std::vector<StateVec>& out);
  void successors(const StateVec& s, std::vector<Successor>& out);
  // The window moves of s (or its trigger moves) without executing them.
  void collect_moves(const StateVec& s);
  // 1 enabled, 0 not, -1 evaluating the guard hit a gap (site in env.error).
  int enabled(const std::int32_t* s, int action, int player, int window, Env& env);

 private:
  // moves.cpp: control
  void run_move(const Move& m);
  void window_moves(const StateVec& s);
  void enter(int target, bool new_turn, bool start);
  void advance();
  void run_step_do();
  bool open_window(int window);
  void close_window();
  int handover(int from);  // alternate: next holder; returns a gap site or -1
  void take_action();
  // Targets (Action::targets): whether some choice of targets j.. is legal
  // (binders 0..j-1 set; env.error on a failure), the choice of target j on
  // cast, each outcome storing them in the entry being cast and paying the
  // cost, and, on resolution, whether they are still legal.
  bool some_targets(const std::int32_t* s, const model::Action& act, std::size_t j, Env& env);
  void choose_target(std::size_t j);
  std::string targets_text(const model::Action& act, const std::int32_t* s) const;
  void pass();
  void count_use(int action, int player);
  void finish(Tail t);
  // Makes triggers pending; `with` is the `fire` statement passing the
  // event's arguments (null for a built-in event). Returns a gap site or -1.
  int fire(int event, const model::Stmt* with = nullptr);
  void emit();  // end check, then output
  void gap(int site);
  void output(const StateVec& state);

  // effects.cpp: statements
  void run_effect(const model::Stmt* s, int self, Tail tail);
  void exec(const model::Stmt* s, const Cont* k);
  void cont(const Cont* k);
  void exec_choose(const model::Stmt& s, const Cont* k);
  void exec_draw(const model::Stmt& s, const Cont* k);
  [[nodiscard]] bool over_capacity(int zone, int owner) const;
  [[nodiscard]] std::string capacity_text(int zone) const;
  void exec_move(const model::Stmt& s, const Cont* k);
  void exec_end(const model::Stmt& s);
  void exec_negate(const model::Stmt& s, const Cont* k);
  // Choice points: depth-indexed snapshot of everything an outcome may change.
  int push_choice();
  void enumerate_multisets(const std::int32_t* avail, std::int64_t n,
                           std::vector<std::int32_t>& out);
  void save(int depth);
  void restore(int depth);
  void note(std::string text);
  void note_gap(std::string detail);
  [[nodiscard]] std::string format(const model::Domain& d, std::int64_t v) const;
  [[nodiscard]] std::string kinds_text(const std::int32_t* counts) const;

  Env env(int self) { return Env{sc_.work.data(), sc_.binders.data(), self, -1}; }
  Env aux_env(int self) { return Env{sc_.work.data(), sc_.aux_binders.data(), self, -1}; }
  // The player after p in the work state's turn order.
  [[nodiscard]] int next_player(int p) const {
    return model::next_in_order(p, p_.reversed(sc_.work.data()), p_.players);
  }

  const Prepared& p_;
  const Evaluator& ev_;
  Scratch& sc_;
  const bool record_;

  const StateVec* before_ = nullptr;
  std::vector<Successor>* out_ = nullptr;
  std::size_t n_out_ = 0;
  std::vector<StateVec>* init_out_ = nullptr;

  Move move_;
  bool mover_choice_ = false;
  int self_ = -1;
  // Whom the transcript names as moving a card of a fixed kind: the chooser
  // of the `pick ... by P` whose body runs (P plays the card P picked), or
  // -1: self. Only notes read it; no state or chooser depends on it.
  int voice_ = -1;
  int picker_ = -1;
  bool nature_ = false;
  bool progress_ = false;
  int depth_ = 0;
  // How the move being output ended the game (Successor::end_*), when it did.
  int end_player_ = -1;
  bool end_win_ = false;
  int end_condition_ = -1;
  // effect_outcomes: emit() outputs the state as it is, without the end check.
  bool raw_ = false;
};

}  // namespace loophole::checker::semantics
