// The compiled successor generator of compiled.hpp. Compilation (Compiler,
// compiled_compile.cpp) turns every expression of the rules into a
// stack-machine program and every effect into a flat statement program
// (compiled_program.hpp), both with their slots, gap sites and domains
// resolved; Runner, here, executes them. Runner mirrors the reference Run
// (checker/src/semantics/moves.cpp, effects.cpp) function by function, so
// the two are read side by side; what differs is only how expressions are
// evaluated and how choice points come back: a frame stack with a saved
// state per frame instead of continuations on the C++ stack.
// (The expression machine itself is ExprMachine, compiled_expr.hpp.)
#include "compiled.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "compiled_expr.hpp"
#include "compiled_program.hpp"

namespace loophole::checker {

using model::Protocol;
using model::SequenceTurn;

namespace {

// ---------------------------------------------------------------------------
// Execution

// A choice point: the outcomes still to run and what they start from.
struct Frame {
  int ins = 0;                     // the choice statement
  int resume = 0;                  // where each outcome continues
  int next = 0;                    // next outcome to run
  int count = 0;                   // outcomes
  int width = 1;                   // entries per outcome (kinds for multisets)
  std::int64_t aux = 0, aux2 = 0;  // draw/move: player or zone bases
  int bodies = -1;                 // choose: Program::lists index of the body per value, or -1
};

struct FrameSave {
  LineVector<std::int32_t> state;
  LineVector<std::int64_t> locals;  // Scratch::locals
  LineVector<std::int32_t> outcomes;
  int self = -1, picker = -1;
  bool nature = false, progress = false;
};

// owner: the id of the Program these buffers are sized for.
struct alignas(64) Scratch final : FlatSuccessors::Scratch {
  LineVector<std::int32_t> work, gap_state;
  // What a choice point saves besides the work state, in one piece: the
  // bits of the fields written since the source state (dirty_words), the
  // binders, the `for` counters (registers).
  LineVector<std::int64_t> locals;
  LineVector<std::uint64_t> gap_dirty;
  LineVector<std::int64_t> aux_binders;
  LineVector<Frame> frames;
  LineVector<FrameSave> saves;
  LineVector<std::int32_t> outcomes;  // of a choice with a single outcome run at once
  LineVector<std::int32_t> counts;
  LineVector<std::int64_t> suffix;
  LineVector<Move> moves;
  FlatSuccessors flat;  // for successors()
  StateVec unpacked;
};

class Runner : ExprMachine {
 public:
  Runner(const CompiledSystem::Program& p, Scratch& sc, FlatSuccessors& out)
      : ExprMachine(p), g_(p.game), ctl_(p.low.ctl), sc_(sc), out_(out) {
    const std::size_t fields = p.low.layout.fields.size();
    if (sc_.owner != p.id) {
      sc_.owner = p.id;
      sc_.work.assign(fields, 0);
      sc_.gap_state.assign(fields, 0);
      sc_.locals.assign(FlatSuccessors::dirty_words(fields) + static_cast<std::size_t>(p.binders) +
                            static_cast<std::size_t>(p.registers),
                        0);
      sc_.aux_binders.assign(static_cast<std::size_t>(p.binders), 0);
      sc_.gap_dirty.assign(FlatSuccessors::dirty_words(fields), 0);
    }
    fields_ = fields;
    dirty_words_ = FlatSuccessors::dirty_words(fields);
    w_ = sc_.work.data();
    // (uint64_t may alias int64_t: its unsigned counterpart.)
    dirty_ = reinterpret_cast<std::uint64_t*>(sc_.locals.data());
    binders_ = sc_.locals.data() + dirty_words_;
    regs_ = binders_ + p.binders;
  }

  void successors(const std::int32_t* s) {
    out_.count = 0;
    out_.fields = fields_;
    out_.has_dirty = true;
    out_.wrote_packed = out_.pack_with != nullptr;
    sc_.frames.clear();
    before_ = s;
    if (s[ctl_.over] != 0) return;
    collect_moves(s);
    mover_choice_ = sc_.moves.size() > 1;
    for (const auto& move : sc_.moves) run_move(move);
  }

  // Semantics::enabled_actions: the actions of the moves of s (in a window)
  // whose conditions held (a guard that failed is a gap move, not enabled).
  void enabled_actions(const std::int32_t* s, std::vector<int>& out) {
    out.clear();
    if (s[ctl_.over] != 0 || s[ctl_.stage] != static_cast<std::int32_t>(Stage::window)) return;
    collect_moves(s);
    for (const Move& m : sc_.moves) {
      if (m.kind == MoveKind::action && m.gap < 0) out.push_back(m.ref);
    }
  }

 private:
  // A missing condition holds.
  bool test(int pc, const std::int32_t* s, std::int64_t* binders, int self, int& error) const {
    return pc < 0 || eval(pc, s, binders, self, error) != 0;
  }
  std::int64_t value(int pc, int& error) { return eval(pc, w_, binders_, self_, error); }
  // The player after p in the work state's turn order.
  [[nodiscard]] bool reversed(const std::int32_t* s) const {
    return ctl_.order >= 0 && s[ctl_.order] != 0;
  }
  [[nodiscard]] int next_player(int p) const {
    return model::next_in_order(p, reversed(w_), p_.low.players);
  }

  // Every write to the work state goes through set(), which records the
  // field as written when its value changes, so that the engine packs a successor by patching only
  // those fields of its source (a dropped write to an absent control field,
  // index < 0, as semantics::put).
  static void mark(std::uint64_t* d, int i) { d[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void set(int i, std::int32_t v) {
    if (i < 0 || w_[i] == v) return;
    w_[i] = v;
    mark(dirty_, i);
  }
  // (Every state has ctl.over, so there is a word; most have at most 128
  // fields, and two words need no library call.)
  void clear_dirty(std::uint64_t* d) const {
    d[0] = 0;
    if (dirty_words_ > 1) d[1] = 0;
    if (dirty_words_ > 2) std::fill(d + 2, d + dirty_words_, 0);
  }
  void clear_players(int base) {
    for (int p = 0; p < p_.low.players; ++p) set(base + p, 0);
  }
  [[nodiscard]] int zone_slot(int zone, int owner, int kind) const {
    return g_.zones[zone].slot(owner < 0 ? 0 : owner, kind, p_.low.kinds);
  }
  // Whether the zone cell at base holds more cards than its zone's capacity.
  [[nodiscard]] bool over_capacity(int zone, int base) const {
    const int capacity = g_.zones[zone].capacity;
    if (capacity < 0) return false;
    std::int64_t held = 0;
    for (int k = 0; k < p_.low.kinds; ++k) held += w_[base + k];
    return held > capacity;
  }

  // --- moves (moves.cpp) ---------------------------------------------------

  void collect_moves(const std::int32_t* s) {
    sc_.moves.clear();
    const int active = s[ctl_.active];
    const int players = p_.low.players;
    const bool any = any_pending(s);
    for (int i = 0; i < players && any; ++i) {
      const int c = (active + i) % players;
      for (std::size_t t = 0; t < ctl_.pending.size(); ++t) {
        if (ctl_.pending[t] < 0 || s[ctl_.pending[t] + c] == 0) continue;
        sc_.moves.push_back(Move{MoveKind::trigger, c, static_cast<int>(t), -1});
        if (g_.triggers[t].optional) {
          sc_.moves.push_back(Move{MoveKind::decline, c, static_cast<int>(t), -1});
        }
      }
      if (!sc_.moves.empty()) return;
    }
    switch (static_cast<Stage>(s[ctl_.stage])) {
      case Stage::start:
        sc_.moves.push_back(Move{MoveKind::start});
        break;
      case Stage::pre:
        sc_.moves.push_back(Move{MoveKind::effects});
        break;
      case Stage::post:
        sc_.moves.push_back(Move{MoveKind::advance});
        break;
      case Stage::leaving:
        sc_.moves.push_back(Move{MoveKind::enter});
        break;
      case Stage::window:
        window_moves(s);
        break;
    }
  }

  void window_moves(const std::int32_t* s) {
    const int w = g_.steps[s[ctl_.step]].window;
    const auto& win = g_.windows[w];
    const int h = get(s, ctl_.holder);
    bool any_action = false;
    for (int a : candidates(s, h, w)) {
      int error = -1;
      const int r = enabled(s, a, h, error);
      if (r == 0) continue;
      sc_.moves.push_back(Move{MoveKind::action, h, a, r < 0 ? error : -1});
      any_action = any_action || r > 0;
    }
    switch (win.protocol) {
      case Protocol::priority: {
        if (!win.may_pass) break;
        const int size = get(s, ctl_.stack_size);
        if (get(s, ctl_.passes) + 1 == p_.low.players && size > 0) {
          const int top = s[ctl_.stack_base + 2 * (size - 1)];
          sc_.moves.push_back(Move{MoveKind::resolve, h, top, -1});
        } else {
          sc_.moves.push_back(Move{MoveKind::pass, h, -1, -1});
        }
        break;
      }
      case Protocol::alternate:
        if (!win.must_act && (win.may_pass || !any_action)) {
          sc_.moves.push_back(Move{MoveKind::pass, h, -1, -1});
        }
        break;
      case Protocol::sequence:
        if (!win.must_act || get(s, ctl_.acted) != 0) {
          sc_.moves.push_back(Move{MoveKind::pass, h, -1, -1});
        }
        break;
    }
  }

  // The actions of window w that p's role and speed let p take now, in order
  // (the role and speed part of Run::enabled).
  const std::vector<int>& candidates(const std::int32_t* s, int p, int w) const {
    const int players = p_.low.players;
    const int answering = get(s, ctl_.stack_size) > 0 ? 1 : 0;
    const int acted = get(s, ctl_.acted) != 0 ? 1 : 0;
    // (Reversed, the seats count the other way round: `opponent` is rel 1.)
    const int rel = reversed(s) ? (s[ctl_.active] - p + players) % players
                                : (p - s[ctl_.active] + players) % players;
    return p_.candidates[(static_cast<std::size_t>(w) * 4 +
                          static_cast<std::size_t>(answering * 2 + acted)) *
                             players +
                         rel];
  }

  // The rest of Run::enabled for a candidate a: 1 enabled, 0 not, -1 a gap
  // (error set).
  int enabled(const std::int32_t* s, int a, int p, int& error) {
    if (p_.native_enabled != nullptr) {
      return p_.native_enabled(s, a, p, sc_.aux_binders.data(), &error);
    }
    const auto& act = g_.actions[a];
    if (ctl_.turn_uses[a] >= 0 && s[ctl_.turn_uses[a] + p] >= act.limit.per_turn) return 0;
    if (ctl_.window_uses[a] >= 0 && s[ctl_.window_uses[a] + p] >= act.limit.per_window) return 0;
    if (act.play_kind >= 0 &&
        (g_.hand_zone < 0 || s[zone_slot(g_.hand_zone, p, act.play_kind)] < 1)) {
      return 0;
    }
    const bool holds = test(p_.action_guard[a], s, sc_.aux_binders.data(), p, error);
    if (error >= 0) return -1;
    return holds ? 1 : 0;
  }

  void run_move(const Move& m) {
    std::memcpy(w_, before_, fields_ * sizeof(std::int32_t));
    clear_dirty(dirty_);
    move_ = m;
    picker_ = -1;
    nature_ = false;
    progress_ = false;
    if (m.gap >= 0) return gap(m.gap);
    switch (m.kind) {
      case MoveKind::trigger:
      case MoveKind::decline: {
        set(ctl_.pending[m.ref] + m.player, 0);
        // The arguments its event fired with: the trigger's binders 0..k-1.
        const int kept = ctl_.pending_args[m.ref];
        if (kept >= 0) {
          const int k = static_cast<int>(g_.triggers[m.ref].params.size());
          for (int j = 0; j < k; ++j) {
            binders_[j] = w_[kept + m.player * k + j];
            set(kept + m.player * k + j, 0);
          }
        }
        if (m.kind == MoveKind::decline) return emit();
        return run_effect(p_.trigger_effect[m.ref], m.player, Tail::emit);
      }
      case MoveKind::start:
        return enter(0, false, true);
      case MoveKind::effects:
        return run_step_do();
      case MoveKind::advance:
        return advance();
      case MoveKind::enter: {
        const int target = get(w_, ctl_.target);
        const bool new_turn = get(w_, ctl_.new_turn) != 0;
        set(ctl_.target, 0);
        set(ctl_.new_turn, 0);
        return enter(target, new_turn, false);
      }
      case MoveKind::action:
        return take_action();
      case MoveKind::pass:
      case MoveKind::resolve:
        return pass();
    }
  }

  // `with`: the fire instruction passing the event's arguments (null for a
  // built-in event); they are evaluated (and range-checked) even when no
  // trigger listens.
  int fire(int event, const SIns* with = nullptr) {
    if (event < 0) return -1;
    event_args_.clear();
    if (with != nullptr && with->b >= 0) {
      const auto& decl = g_.events[event].args;
      const auto& args = p_.lists[with->b];
      for (std::size_t i = 0; i < args.size(); ++i) {
        int error = -1;
        const std::int64_t v = value(args[i], error);
        if (error >= 0) return error;
        if (with->e >= 0 && (v < decl[i].lo || v > decl[i].hi)) return with->e;
        event_args_.push_back(v);
      }
    }
    if (p_.event_fires[event] == 0) return -1;
    return fire_triggers(event);
  }
  int fire_triggers(int event) {
    const int active = w_[ctl_.active];
    const int players = p_.low.players;
    for (int t : p_.low.triggers_by_event[event]) {
      const int base = ctl_.pending[t];
      if (base < 0) continue;
      const auto& trig = g_.triggers[t];
      const int k = static_cast<int>(trig.params.size());
      const int kept = ctl_.pending_args[t];
      for (int i = 0; i < players; ++i) {
        const int c = (active + i) % players;
        if (!p_.covers(trig.controller, c, active, reversed(w_)) || w_[base + c] != 0) continue;
        for (int j = 0; j < k; ++j) sc_.aux_binders[j] = event_args_[j];
        int error = -1;
        const bool holds = test(p_.trigger_condition[t], w_, sc_.aux_binders.data(), c, error);
        if (error >= 0) return error;
        if (!holds) continue;
        set(base + c, 1);
        for (int j = 0; j < k && kept >= 0; ++j) {
          set(kept + c * k + j, static_cast<std::int32_t>(event_args_[j]));
        }
      }
    }
    return -1;
  }

  void enter(int target, bool new_turn, bool start) {
    const int from_phase = start ? -1 : p_.step_phase(w_[ctl_.step]);
    if (new_turn) {
      // The next player in the current order; skip_next() skips one more.
      set(ctl_.active, next_player(w_[ctl_.active]));
      if (get(w_, ctl_.skip) != 0) {
        set(ctl_.active, next_player(w_[ctl_.active]));
        set(ctl_.skip, 0);
      }
      set(ctl_.turn, std::min(std::max(1, g_.scope.turns), w_[ctl_.turn] + 1));
      for (const int base : p_.turn_use_bases) clear_players(base);
    }
    const int phase = p_.step_phase(target);
    int site = -1;
    if (new_turn || start) site = fire(p_.low.begin_turn_event);
    if (site < 0 && (new_turn || start || phase != from_phase)) {
      site = fire(g_.phases[phase].begin_event);
    }
    if (site < 0) site = fire(g_.steps[target].begin_event);
    if (site >= 0) return gap(site);
    set(ctl_.step, target);
    set(ctl_.stage, static_cast<std::int32_t>(Stage::pre));
    progress_ = true;
    if (any_pending()) return emit();
    run_step_do();
  }

  // Whether a trigger is pending in state s. The flags are one run of fields
  // (Program::pending_first), most states have none set, and a game with
  // many triggers asks this of every state: two fields per load.
  [[nodiscard]] bool any_pending(const std::int32_t* s) const {
    const std::int32_t* f = s + p_.pending_first;
    const int n = p_.pending_fields;
    std::uint64_t any = 0;
    int k = 0;
    for (; k + 2 <= n; k += 2) {
      std::uint64_t x = 0;
      std::memcpy(&x, f + k, sizeof x);
      any |= x;
    }
    if (k < n) any |= static_cast<std::uint32_t>(f[k]);
    return any != 0;
  }
  [[nodiscard]] bool any_pending() const { return any_pending(w_); }

  void run_step_do() {
    run_effect(p_.step_effect[w_[ctl_.step]], w_[ctl_.active], Tail::after_step_do);
  }

  void advance() {
    const int step = w_[ctl_.step];
    const auto& st = g_.steps[step];
    const int active = w_[ctl_.active];
    int error = -1;
    int target = step;
    bool new_turn = false;
    const bool repeat = p_.step_repeat[step] >= 0 &&
                        test(p_.step_repeat[step], w_, sc_.aux_binders.data(), active, error);
    if (!repeat && error < 0) {
      const bool end_turn = p_.step_end_turn[step] >= 0 &&
                            test(p_.step_end_turn[step], w_, sc_.aux_binders.data(), active, error);
      new_turn = end_turn || step + 1 == static_cast<int>(g_.steps.size());
      target = new_turn ? 0 : step + 1;
    }
    if (error >= 0) return gap(error);
    const int phase = st.phase;
    int site = fire(st.end_event);
    if (site < 0 && (new_turn || p_.step_phase(target) != phase)) {
      site = fire(g_.phases[phase].end_event);
    }
    if (site < 0 && new_turn) site = fire(p_.low.end_turn_event);
    if (site >= 0) return gap(site);
    if (any_pending()) {
      set(ctl_.stage, static_cast<std::int32_t>(Stage::leaving));
      set(ctl_.target, target);
      set(ctl_.new_turn, new_turn ? 1 : 0);
      return emit();
    }
    enter(target, new_turn, false);
  }

  bool open_window(int window) {
    const auto& win = g_.windows[window];
    const int active = w_[ctl_.active];
    set(ctl_.stage, static_cast<std::int32_t>(Stage::window));
    set(ctl_.holder, active);
    switch (win.protocol) {
      case Protocol::priority:
        return true;
      case Protocol::alternate: {
        const int site = handover(model::next_in_order(active, !reversed(w_), p_.low.players));
        if (site >= 0) {
          gap(site);
          return false;
        }
        return true;
      }
      case Protocol::sequence: {
        std::size_t seat = 0;
        while (seat < win.order.size() && win.order[seat] == SequenceTurn::active_if_answered) {
          ++seat;
        }
        if (seat >= win.order.size()) {
          close_window();
          return true;
        }
        set(ctl_.seat, static_cast<std::int32_t>(seat));
        set(ctl_.holder, win.order[seat] == SequenceTurn::opponent ? next_player(active) : active);
        return true;
      }
    }
    return true;
  }

  void close_window() {
    set(ctl_.stage, static_cast<std::int32_t>(Stage::post));
    set(ctl_.holder, 0);
    set(ctl_.passes, 0);
    set(ctl_.acted, 0);
    set(ctl_.seat, 0);
    for (const int base : p_.window_use_bases) clear_players(base);
  }

  int handover(int from) {
    const int window = g_.steps[w_[ctl_.step]].window;
    const int players = p_.low.players;
    int p = from;
    const bool must_act = g_.windows[window].must_act;
    for (int i = 1; i <= players; ++i) {
      p = next_player(p);
      for (int a : candidates(w_, p, window)) {
        int error = -1;
        const int r = enabled(w_, a, p, error);
        if (r < 0) return error;
        if (r > 0) {
          set(ctl_.holder, must_act ? next_player(from) : p);
          return -1;
        }
      }
    }
    close_window();
    return -1;
  }

  void count_use(int a, int p) {
    if (ctl_.turn_uses[a] >= 0) set(ctl_.turn_uses[a] + p, w_[ctl_.turn_uses[a] + p] + 1);
    if (ctl_.window_uses[a] >= 0) set(ctl_.window_uses[a] + p, w_[ctl_.window_uses[a] + p] + 1);
  }

  void take_action() {
    const int a = move_.ref, h = move_.player;
    const auto& act = g_.actions[a];
    if (act.play_kind >= 0) {
      set(zone_slot(g_.hand_zone, h, act.play_kind),
          w_[zone_slot(g_.hand_zone, h, act.play_kind)] - 1);
      const int to = act.to_zone < 0 ? -1 : zone_slot(act.to_zone, h, act.play_kind);
      if (to >= 0) set(to, w_[to] + 1);
      if (to >= 0 && w_[to] > p_.slot_hi[to]) return gap(p_.low.play_site[a]);
      if (to >= 0 && over_capacity(act.to_zone, zone_slot(act.to_zone, h, 0))) {
        return gap(p_.low.play_site[a]);
      }
    }
    const int window = g_.steps[w_[ctl_.step]].window;
    switch (g_.windows[window].protocol) {
      case Protocol::priority:
        return run_effect(p_.action_cost[a], h, Tail::priority_cost);
      case Protocol::alternate:
        return run_effect(p_.action_cost[a], h, Tail::alternate_cost);
      case Protocol::sequence:
        return run_effect(p_.action_cost[a], h, Tail::sequence_cost);
    }
  }

  void pass() {
    const int h = move_.player;
    const int window = g_.steps[w_[ctl_.step]].window;
    const auto& win = g_.windows[window];
    switch (win.protocol) {
      case Protocol::priority: {
        if (get(w_, ctl_.passes) + 1 < p_.low.players) {
          set(ctl_.holder, next_player(h));
          set(ctl_.passes, get(w_, ctl_.passes) + 1);
          return emit();
        }
        const int size = get(w_, ctl_.stack_size);
        if (size == 0) {
          close_window();
          return emit();
        }
        const int at = ctl_.stack_base + 2 * (size - 1);
        const int a = w_[at], c = w_[at + 1];
        set(at, 0);
        set(at + 1, 0);
        set(ctl_.stack_size, size - 1);
        return run_effect(p_.action_effect[a], c, Tail::resolve);
      }
      case Protocol::alternate: {
        const int site = handover(h);
        if (site >= 0) return gap(site);
        return emit();
      }
      case Protocol::sequence: {
        std::size_t seat = static_cast<std::size_t>(get(w_, ctl_.seat)) + 1;
        bool answered = get(w_, ctl_.acted) != 0;
        while (seat < win.order.size() && win.order[seat] == SequenceTurn::active_if_answered &&
               !answered) {
          ++seat;
          answered = false;
        }
        if (seat >= win.order.size()) {
          close_window();
          return emit();
        }
        const int active = w_[ctl_.active];
        set(ctl_.seat, static_cast<std::int32_t>(seat));
        set(ctl_.acted, 0);
        set(ctl_.holder, win.order[seat] == SequenceTurn::opponent ? next_player(active) : active);
        return emit();
      }
    }
  }

  void finish(Tail t) {
    const int a = move_.ref, h = move_.player;
    switch (t) {
      case Tail::emit:
        return emit();
      case Tail::after_step_do: {
        const int window = g_.steps[w_[ctl_.step]].window;
        if (window < 0) {
          set(ctl_.stage, static_cast<std::int32_t>(Stage::post));
          return emit();
        }
        if (open_window(window)) emit();
        return;
      }
      case Tail::priority_cost: {
        count_use(a, h);
        if (h == w_[ctl_.active]) set(ctl_.acted, 1);
        const auto& act = g_.actions[a];
        if (!act.answerable) return run_effect(p_.action_effect[a], h, Tail::priority_effect);
        const int size = get(w_, ctl_.stack_size);
        if (size >= ctl_.stack_capacity) return gap(p_.low.push_site[a]);
        set(ctl_.stack_base + 2 * size, a);
        set(ctl_.stack_base + 2 * size + 1, h);
        set(ctl_.stack_size, size + 1);
        set(ctl_.holder, next_player(h));
        set(ctl_.passes, 0);
        return emit();
      }
      case Tail::priority_effect:
        set(ctl_.passes, 0);
        return emit();
      case Tail::alternate_cost:
      case Tail::sequence_cost:
        count_use(a, h);
        return run_effect(
            p_.action_effect[a], h,
            t == Tail::alternate_cost ? Tail::alternate_effect : Tail::sequence_effect);
      case Tail::alternate_effect: {
        const int site = handover(h);
        if (site >= 0) return gap(site);
        return emit();
      }
      case Tail::sequence_effect:
        set(ctl_.acted, 1);
        return emit();
      case Tail::resolve:
        set(ctl_.holder, w_[ctl_.active]);
        set(ctl_.passes, 0);
        return emit();
    }
  }

  // Whether this path wrote a field some end condition reads. When it did
  // not, the conditions come out as on the source, where none holds (every
  // state not over has passed the end checks: initial states after setup,
  // the others in emit()). The first move from an initial state checks all
  // the same, so that nothing hangs on how the initial states were made.
  [[nodiscard]] bool end_inputs_written() const {
    if (before_[ctl_.stage] == static_cast<std::int32_t>(Stage::start)) return true;
    std::uint64_t hit = 0;
    for (std::size_t i = 0; i < dirty_words_; ++i) hit |= dirty_[i] & p_.end_reads[i];
    return hit != 0;
  }

  void emit() {
    if (w_[ctl_.over] == 0 && !g_.end_conditions.empty() && end_inputs_written()) {
      const int active = w_[ctl_.active];
      const int players = p_.low.players;
      for (std::size_t c = 0; c < g_.end_conditions.size(); ++c) {
        const auto& end = g_.end_conditions[c];
        for (int i = 0; i < players; ++i) {
          const int p = (active + i) % players;
          if (!p_.covers(end.who, p, active, reversed(w_))) continue;
          int error = -1;
          const bool holds = test(p_.end_condition[c], w_, sc_.aux_binders.data(), p, error);
          if (error >= 0) return gap(error);
          if (!holds) continue;
          set(ctl_.over, 1);
          return output(w_);
        }
      }
    }
    output(w_);
  }

  void gap(int site) {
    if (site < 0 || site >= static_cast<int>(p_.low.gap_sites.size())) {
      throw std::logic_error("loophole: internal error: a rule failed outside every gap site");
    }
    std::int32_t* g = sc_.gap_state.data();
    std::memcpy(g, before_, fields_ * sizeof(std::int32_t));
    g[ctl_.over] = 2;
    put(g, ctl_.gap, site + 1);
    std::uint64_t* d = sc_.gap_dirty.data();
    clear_dirty(d);
    mark(d, ctl_.over);
    if (ctl_.gap >= 0) mark(d, ctl_.gap);
    output(g, d);
  }

  void output(const std::int32_t* state) { output(state, dirty_); }
  void output(const std::int32_t* state, const std::uint64_t* dirty) {
    MoveInfo m;
    m.kind = move_.kind;
    m.player = static_cast<std::int8_t>(move_.player);
    m.ref = move_.ref;
    m.progress = progress_ && state[ctl_.over] != 2;
    if (mover_choice_) {
      m.chooser = Chooser::player;
      m.chooser_player = static_cast<std::int8_t>(move_.player);
    } else if (picker_ >= 0) {
      m.chooser = Chooser::player;
      m.chooser_player = static_cast<std::int8_t>(picker_);
    } else if (nature_) {
      m.chooser = Chooser::nature;
    }
    if (out_.wrote_packed) {
      out_.pack_with->pack_fields(out_.pack_base, state, dirty, out_.add_packed(m));
      return;
    }
    std::memcpy(out_.add(m), state, fields_ * sizeof(std::int32_t));
    std::memcpy(out_.dirty_of(out_.count - 1), dirty, dirty_words_ * sizeof(std::uint64_t));
  }

  // --- effects (effects.cpp) -----------------------------------------------

  void run_effect(int program, int self, Tail tail) {
    self_ = self;
    if (program < 0) return finish(tail);
    const std::size_t base = sc_.frames.size();
    int pc = program;
    const SIns* code = p_.scode.data();
    for (;;) {
      const SIns& i = code[pc];
      if (p_.native_run != nullptr && i.op <= S::bind) {
        // The native code runs the straight statements up to the next one
        // of those below, or to a gap.
        NativeFrame frame{w_, dirty_, binders_, regs_, self_};
        const int r = p_.native_run(&frame, pc);
        if (r >= 0) {
          pc = r;
          continue;
        }
        gap(-2 - r);
        if (!backtrack(base, pc)) return;
        continue;
      }
      bool alive = true;  // false: this path emitted its successor
      switch (i.op) {
        case S::assign: {
          int error = -1;
          int slot = i.a;
          if (slot < 0) {
            // A player's slot (`life[self]`, `f_hit[next(self)]`) without a call.
            const XIns& t = p_.xcode[static_cast<std::size_t>(i.b)];
            slot = t.single && t.op == X::rel_slot ? rel_slot(t, w_, binders_, self_)
                                                   : static_cast<int>(value(i.b, error));
          }
          const XIns& c = p_.xcode[static_cast<std::size_t>(i.c)];
          const std::int64_t v = error >= 0                     ? 0
                                 : c.single && c.op == X::konst ? c.k
                                                                : value(i.c, error);
          if (error >= 0) {
            gap(error);
            alive = false;
            break;
          }
          const std::int64_t cur = w_[slot];
          const auto op = static_cast<model::Op>(i.d);
          std::int64_t nv = v;
          const bool beyond = op == model::Op::add   ? __builtin_add_overflow(cur, v, &nv)
                              : op == model::Op::sub ? __builtin_sub_overflow(cur, v, &nv)
                                                     : false;
          if (beyond || nv < p_.slot_lo[slot] || nv > p_.slot_hi[slot]) {
            gap(i.e);
            alive = false;
            break;
          }
          set(slot, static_cast<std::int32_t>(nv));
          ++pc;
          break;
        }
        case S::jump_if_not: {
          int error = -1;
          const bool holds = test(i.a, w_, binders_, self_, error);
          if (error >= 0) {
            gap(error);
            alive = false;
            break;
          }
          pc = holds ? pc + 1 : i.b;
          break;
        }
        case S::jump:
          pc = i.b;
          break;
        case S::for_begin: {
          if (domain_size(i.a, self_) == 0) {
            pc = i.b;
            break;
          }
          regs_[i.d] = 0;
          binders_[i.c] = domain_value(i.a, 0, self_);
          ++pc;
          break;
        }
        case S::for_next: {
          const int next = static_cast<int>(regs_[i.d]) + 1;
          if (next >= domain_size(i.a, self_)) {
            ++pc;
            break;
          }
          regs_[i.d] = next;
          binders_[i.c] = domain_value(i.a, next, self_);
          pc = i.b;
          break;
        }
        case S::bind:
          binders_[i.c] = i.a;
          ++pc;
          break;
        case S::choose:
          alive = choose(i, pc);
          break;
        case S::draw:
          alive = draw(i, pc);
          break;
        case S::move:
          alive = move(i, pc);
          break;
        case S::fire: {
          const int site = fire(i.a, &i);
          if (site >= 0) {
            gap(site);
            alive = false;
            break;
          }
          ++pc;
          break;
        }
        case S::end: {
          int error = -1;
          value(i.a, error);
          if (error >= 0) {
            gap(error);
          } else {
            set(ctl_.over, 1);
            output(w_);
          }
          alive = false;
          break;
        }
        case S::negate: {
          const int size = get(w_, ctl_.stack_size);
          std::int64_t at_pos = size - 1;
          if (i.a >= 0) {
            int error = -1;
            at_pos = value(i.a, error);
            if (error >= 0) {
              gap(error);
              alive = false;
              break;
            }
          }
          if (at_pos >= 0 && at_pos < size) {
            const int at = ctl_.stack_base + 2 * static_cast<int>(at_pos);
            if (g_.actions[w_[at]].negatable) {
              const int top = ctl_.stack_base + 2 * (size - 1);
              for (int j = at; j < top; ++j) set(j, w_[j + 2]);
              set(top, 0);
              set(top + 1, 0);
              const int kt = ctl_.stack_target_count;  // the targets move down too
              if (kt > 0) {
                const int from = ctl_.stack_targets + kt * static_cast<int>(at_pos);
                const int last = ctl_.stack_targets + kt * (size - 1);
                for (int j = from; j < last; ++j) set(j, w_[j + kt]);
                for (int j = last; j < last + kt; ++j) set(j, 0);
              }
              set(ctl_.stack_size, size - 1);
            }
          }
          ++pc;
          break;
        }
        case S::no_zones: {
          int error = -1;
          value(i.a, error);
          if (error < 0) value(i.b, error);
          if (error >= 0) {
            gap(error);
            alive = false;
            break;
          }
          throw std::logic_error(
              "loophole: internal error: draw() without zones 'deck' and 'hand'");
        }
        case S::done:
          finish(tail);
          alive = false;
          break;
        default:  // (no range check before the jump table: every op has its case)
          __builtin_unreachable();
      }
      if (!alive && !backtrack(base, pc)) return;
    }
  }

  // After a path ended: goes back to the latest choice point of the effect
  // (frames above `base`) with an outcome left, starts that outcome and
  // sets pc to where it continues; false when there is none.
  bool backtrack(std::size_t base, int& pc) {
    for (;;) {
      if (sc_.frames.size() == base) return false;
      Frame& f = sc_.frames.back();
      if (f.next >= f.count) {
        sc_.frames.pop_back();
        continue;
      }
      const std::size_t depth = sc_.frames.size() - 1;
      restore(depth);
      const int o = f.next++;
      const std::int32_t* outcome =
          sc_.saves[depth].outcomes.data() + static_cast<std::size_t>(o) * f.width;
      if (apply(f, outcome)) {
        pc = f.bodies >= 0 ? p_.lists[f.bodies][outcome[0]] : f.resume;
        return true;
      }
    }
  }

  // Saves everything an outcome may change as the newest frame's start.
  void push_frame(const Frame& f, const LineVector<std::int32_t>& outcomes) {
    const std::size_t depth = sc_.frames.size();
    sc_.frames.push_back(f);
    if (sc_.saves.size() <= depth) sc_.saves.resize(depth + 1);
    FrameSave& s = sc_.saves[depth];
    if (s.state.size() != fields_) {
      s.state.resize(fields_);
      s.locals.resize(sc_.locals.size());
    }
    std::memcpy(s.state.data(), w_, fields_ * sizeof(std::int32_t));
    std::memcpy(s.locals.data(), sc_.locals.data(), sc_.locals.size() * sizeof(std::int64_t));
    s.outcomes = outcomes;
    s.self = self_;
    s.picker = picker_;
    s.nature = nature_;
    s.progress = progress_;
  }

  void restore(std::size_t depth) {
    const FrameSave& s = sc_.saves[depth];
    std::memcpy(w_, s.state.data(), fields_ * sizeof(std::int32_t));
    std::memcpy(sc_.locals.data(), s.locals.data(), s.locals.size() * sizeof(std::int64_t));
    self_ = s.self;
    picker_ = s.picker;
    nature_ = s.nature;
    progress_ = s.progress;
  }

  // Starts outcome `o` of a choice point; false when it ended the path (a gap).
  bool apply(const Frame& f, const std::int32_t* o) {
    const SIns& i = p_.scode[f.ins];
    const bool many = f.count > 1;
    switch (i.op) {
      case S::choose: {
        binders_[i.c] = domain_value(i.a, o[0], self_);
        if (many) {
          if (i.e == 0) nature_ = true;
          if (i.e != 0 && picker_ < 0) picker_ = static_cast<int>(f.aux);
        }
        return true;
      }
      case S::draw: {
        const int deck_base = static_cast<int>(f.aux), hand_base = static_cast<int>(f.aux2);
        bool overfull = false;
        for (int k = 0; k < p_.low.kinds; ++k) {
          set(deck_base + k, w_[deck_base + k] - o[k]);
          set(hand_base + k, w_[hand_base + k] + o[k]);
          overfull = overfull || w_[hand_base + k] > p_.slot_hi[hand_base + k];
        }
        overfull = overfull || over_capacity(i.f, hand_base);
        if (many) nature_ = true;
        if (overfull) {
          gap(i.e + 1);
          return false;
        }
        return true;
      }
      case S::move: {
        const int from_base = static_cast<int>(f.aux), to_base = static_cast<int>(f.aux2);
        bool overfull = false;
        for (int k = 0; k < p_.low.kinds; ++k) {
          set(from_base + k, w_[from_base + k] - o[k]);
          set(to_base + k, w_[to_base + k] + o[k]);
        }
        for (int k = 0; k < p_.low.kinds; ++k) {
          overfull = overfull || w_[to_base + k] > p_.slot_hi[to_base + k];
        }
        overfull = overfull || over_capacity(i.c, to_base);
        if (many && picker_ < 0) picker_ = self_;
        if (overfull) {
          gap(i.e + 1);
          return false;
        }
        return true;
      }
      default:
        return true;
    }
  }

  // Runs the first outcome of a choice point (keeping a frame for the others);
  // false when the path ended.
  bool start_choice(Frame f, int pc) {
    f.resume = pc;
    f.next = 1;
    if (f.count > 1) {
      push_frame(f, sc_.outcomes);
      return apply(f, sc_.saves[sc_.frames.size() - 1].outcomes.data());
    }
    return apply(f, sc_.outcomes.data());
  }

  bool choose(const SIns& i, int& pc) {
    // Who picks (a pick's `by`, evaluated first), kept in the frame.
    std::int64_t chooser = self_;
    if (i.e >= 2) {
      int error = -1;
      chooser = value(i.e - 2, error);
      if (error >= 0) {
        gap(error);
        return false;
      }
    }
    const int n = domain_size(i.a, self_);
    sc_.outcomes.clear();
    const int* each = i.f >= 0 ? p_.lists[i.f].data() : nullptr;
    for (int k = 0; k < n; ++k) {
      binders_[i.c] = domain_value(i.a, k, self_);
      int error = -1;
      const bool ok = test(each != nullptr ? each[k] : i.d, w_, binders_, self_, error);
      if (error >= 0) {
        gap(error);
        return false;
      }
      if (ok) sc_.outcomes.push_back(k);
    }
    if (sc_.outcomes.empty()) {
      pc = i.b;
      return true;
    }
    Frame f;
    f.ins = pc;
    f.count = static_cast<int>(sc_.outcomes.size());
    f.width = 1;
    f.aux = chooser;
    f.bodies = i.g;
    // The body compiled for the first outcome's value, or the one body.
    pc = i.g >= 0 ? p_.lists[i.g][sc_.outcomes[0]] : pc + 1;
    return start_choice(f, pc);
  }

  // Every count vector c with 0 <= c[k] <= avail[k] and sum c == n, in
  // lexicographic order (the last kind varying fastest), into sc_.outcomes.
  void multisets(const std::int32_t* avail, std::int64_t n) {
    const int kinds = p_.low.kinds;
    sc_.outcomes.clear();
    sc_.suffix.assign(static_cast<std::size_t>(kinds) + 1, 0);
    for (int k = kinds - 1; k >= 0; --k) sc_.suffix[k] = sc_.suffix[k + 1] + avail[k];
    sc_.counts.assign(static_cast<std::size_t>(kinds), 0);
    multisets_from(0, n, avail);
  }
  void multisets_from(int k, std::int64_t rem, const std::int32_t* avail) {
    const int kinds = p_.low.kinds;
    std::int32_t* cur = sc_.counts.data();
    if (k == kinds) {
      if (rem == 0) sc_.outcomes.insert(sc_.outcomes.end(), cur, cur + kinds);
      return;
    }
    const std::int64_t lo = std::max<std::int64_t>(0, rem - sc_.suffix[k + 1]);
    const std::int64_t hi = std::min<std::int64_t>(avail[k], rem);
    for (std::int64_t c = lo; c <= hi; ++c) {
      cur[k] = static_cast<std::int32_t>(c);
      multisets_from(k + 1, rem - c, avail);
    }
    cur[k] = 0;
  }

  bool draw(const SIns& i, int& pc) {
    int error = -1;
    const int owner = i.d >= 0 ? static_cast<int>(value(i.d, error)) : -1;
    const int player = error >= 0 ? 0 : static_cast<int>(value(i.a, error));
    const std::int64_t n = error >= 0 ? 0 : value(i.b, error);
    if (error >= 0) {
      gap(error);
      return false;
    }
    if (n < 0) {
      gap(i.e + 1);
      return false;
    }
    const int deck_base = zone_slot(i.c, i.d == -2 ? player : owner, 0);
    const int hand_base = zone_slot(i.f, player, 0);
    std::int64_t held = 0;
    for (int k = 0; k < p_.low.kinds; ++k) held += w_[deck_base + k];
    if (held < n) {
      gap(i.e);
      return false;
    }
    if (n == 0) {
      ++pc;
      return true;
    }
    multisets(w_ + deck_base, n);
    Frame f;
    f.ins = pc;
    f.width = p_.low.kinds;
    f.count = static_cast<int>(sc_.outcomes.size() / static_cast<std::size_t>(f.width));
    f.aux = deck_base;
    f.aux2 = hand_base;
    ++pc;
    return start_choice(f, pc);
  }

  bool move(const SIns& i, int& pc) {
    const bool chosen = i.f < 0;
    int error = -1;
    const int from_owner = i.b < 0 ? -1 : static_cast<int>(value(i.b, error));
    const int to_owner = i.d < 0 || error >= 0 ? -1 : static_cast<int>(value(i.d, error));
    const std::int64_t kind = chosen || error >= 0 ? -1 : value(i.f, error);
    const std::int64_t n = error >= 0 ? 0 : value(i.g, error);
    if (error >= 0) {
      gap(error);
      return false;
    }
    if (n < 0) {
      gap(i.e + 1);
      return false;
    }
    const int kinds = p_.low.kinds;
    const int from_base = zone_slot(i.a, from_owner, 0);
    const int to_base = zone_slot(i.c, to_owner, 0);
    std::int64_t held = 0;
    if (chosen) {
      for (int k = 0; k < kinds; ++k) held += w_[from_base + k];
    } else {
      held = w_[from_base + kind];
    }
    if (held < n) {
      gap(i.e);
      return false;
    }
    if (n == 0) {
      ++pc;
      return true;
    }
    if (chosen) {
      multisets(w_ + from_base, n);
    } else {
      sc_.outcomes.assign(static_cast<std::size_t>(kinds), 0);
      sc_.outcomes[kind] = static_cast<std::int32_t>(n);
    }
    Frame f;
    f.ins = pc;
    f.width = kinds;
    f.count = static_cast<int>(sc_.outcomes.size() / static_cast<std::size_t>(kinds));
    f.aux = from_base;
    f.aux2 = to_base;
    ++pc;
    return start_choice(f, pc);
  }

  const model::Game& g_;
  const lowered::Controls& ctl_;
  Scratch& sc_;
  FlatSuccessors& out_;
  std::size_t fields_ = 0;
  std::size_t dirty_words_ = 0;
  std::int32_t* w_ = nullptr;
  std::uint64_t* dirty_ = nullptr;  // bit i: field i was written on this path
  std::int64_t* binders_ = nullptr;
  std::vector<std::int64_t> event_args_;  // the arguments of the event firing
  std::int64_t* regs_ = nullptr;
  const std::int32_t* before_ = nullptr;
  Move move_;
  bool mover_choice_ = false;
  int self_ = -1;
  int picker_ = -1;
  bool nature_ = false;
  bool progress_ = false;
};

// out's scratch, sized for p (made anew when it was made for another).
Scratch& scratch_for(const CompiledSystem::Program& p, FlatSuccessors& out) {
  // No dynamic_cast per state: only a Program marks a scratch as its own.
  auto* sc = out.scratch != nullptr && out.scratch->owner == p.id
                 ? static_cast<Scratch*>(out.scratch.get())
                 : nullptr;
  if (sc == nullptr) {
    out.scratch = std::make_unique<Scratch>();
    sc = static_cast<Scratch*>(out.scratch.get());
  }
  return *sc;
}

}  // namespace

void CompiledSystem::successors_flat(const std::int32_t* state, FlatSuccessors& out) const {
  Runner run(*prog_, scratch_for(*prog_, out), out);
  run.successors(state);
}

void enabled_actions(const CompiledSystem::Program& p, const std::int32_t* state,
                     FlatSuccessors& scratch, std::vector<int>& out) {
  Runner run(p, scratch_for(p, scratch), scratch);
  run.enabled_actions(state, out);
}

void CompiledSystem::successors(const StateVec& state, std::vector<Successor>& out) const {
  thread_local FlatSuccessors flat;
  flat.fields = state.size();
  successors_flat(state.data(), flat);
  out.resize(flat.count);
  for (std::size_t i = 0; i < flat.count; ++i) {
    Successor& o = out[i];
    const MoveInfo& m = flat.moves[i];
    o.state.assign(flat.state(i), flat.state(i) + flat.fields);
    o.kind = m.kind;
    o.player = m.player;
    o.ref = m.ref;
    o.chooser = m.chooser;
    o.chooser_player = m.chooser_player;
    o.progress = m.progress;
    o.choices.clear();
    o.notes.clear();
  }
}

}  // namespace loophole::checker
