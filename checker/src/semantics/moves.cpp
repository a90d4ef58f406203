// Moves: which moves a state has (pending triggers first, then by stage) and
// the control part of each (docs/semantics.md, "Moves"): entering and
// leaving steps with their events, opening and closing windows, the three
// window protocols, and the end check after every move. Effects are run by
// effects.cpp and come back here through finish(), which continues the move
// after the effect according to its Tail.
#include <algorithm>
#include <stdexcept>

#include "run.hpp"

namespace loophole::checker::semantics {

using model::Protocol;
using model::Role;
using model::SequenceTurn;

Run::Run(const Prepared& p, const Evaluator& ev, Scratch& sc, bool record)
    : p_(p), ev_(ev), sc_(sc), record_(record) {
  const std::size_t binders = static_cast<std::size_t>(std::max(0, p.game.binder_slots));
  sc_.binders.assign(binders, 0);
  sc_.aux_binders.assign(binders, 0);
}

// ---------------------------------------------------------------------------
// Initial states and successors

void Run::initial_states(std::vector<StateVec>& out) {
  init_out_ = &out;
  StateVec& start = sc_.start;
  start.assign(p_.layout.fields.size(), 0);
  for (std::size_t i = 0; i < p_.game.slots.size(); ++i) start[i] = p_.game.slots[i].init;
  start[p_.ctl.turn] = 1;
  before_ = &start;
  sc_.work = start;
  move_ = Move{};
  mover_choice_ = false;
  picker_ = -1;
  nature_ = false;
  progress_ = false;
  depth_ = 0;
  sc_.choices.clear();
  sc_.notes.clear();
  run_effect(p_.game.setup.get(), 0, Tail::emit);
  init_out_ = nullptr;
}

void Run::effect_outcomes(const model::Stmt* s, const StateVec& state, int self,
                          std::vector<StateVec>& out) {
  init_out_ = &out;
  before_ = &state;
  sc_.work = state;
  move_ = Move{};
  mover_choice_ = false;
  picker_ = -1;
  nature_ = false;
  progress_ = false;
  depth_ = 0;
  sc_.choices.clear();
  sc_.notes.clear();
  raw_ = true;
  run_effect(s, self, Tail::emit);
  raw_ = false;
  init_out_ = nullptr;
}

void Run::successors(const StateVec& s, std::vector<Successor>& out) {
  out_ = &out;
  n_out_ = 0;
  before_ = &s;
  if (s[p_.ctl.over] == 0) {
    collect_moves(s);
    mover_choice_ = sc_.moves.size() > 1;
    for (const Move& m : sc_.moves) run_move(m);
  }
  out.resize(n_out_);
  out_ = nullptr;
}

void Run::collect_moves(const StateVec& s) {
  sc_.moves.clear();
  const auto& ctl = p_.ctl;
  const int active = s[ctl.active];
  for (int i = 0; i < p_.players; ++i) {
    const int c = (active + i) % p_.players;
    for (std::size_t t = 0; t < ctl.pending.size(); ++t) {
      if (ctl.pending[t] < 0 || s[ctl.pending[t] + c] == 0) continue;
      sc_.moves.push_back(Move{MoveKind::trigger, c, static_cast<int>(t), -1});
      if (p_.game.triggers[t].optional) {
        sc_.moves.push_back(Move{MoveKind::decline, c, static_cast<int>(t), -1});
      }
    }
    if (!sc_.moves.empty()) return;
  }
  switch (static_cast<Stage>(s[ctl.stage])) {
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

void Run::window_moves(const StateVec& s) {
  const auto& ctl = p_.ctl;
  const int w = p_.game.steps[s[ctl.step]].window;
  const auto& win = p_.game.windows[w];
  const int h = get(s.data(), ctl.holder);
  bool any_action = false;
  for (int a : p_.window_actions[w]) {
    Env e{s.data(), sc_.aux_binders.data(), h, -1};
    const int r = enabled(s.data(), a, h, w, e);
    if (r == 0) continue;
    sc_.moves.push_back(Move{MoveKind::action, h, a, r < 0 ? e.error : -1});
    any_action = any_action || r > 0;
  }
  switch (win.protocol) {
    case Protocol::priority: {
      if (!win.may_pass) break;
      const int size = get(s.data(), ctl.stack_size);
      if (get(s.data(), ctl.passes) + 1 == p_.players && size > 0) {
        const int top = s[ctl.stack_base + 2 * (size - 1)];
        sc_.moves.push_back(Move{MoveKind::resolve, h, top, -1});
      } else {
        sc_.moves.push_back(Move{MoveKind::pass, h, -1, -1});
      }
      break;
    }
    case Protocol::alternate:
      // A holder left without an enabled action (a trigger resolved since it
      // got the turn) hands the turn on as if passing.
      // One who must act never passes: without an action it is a deadlock.
      if (!win.must_act && (win.may_pass || !any_action)) {
        sc_.moves.push_back(Move{MoveKind::pass, h, -1, -1});
      }
      break;
    case Protocol::sequence:
      if (!win.must_act || get(s.data(), ctl.acted) != 0) {
        sc_.moves.push_back(Move{MoveKind::pass, h, -1, -1});
      }
      break;
  }
}

int Run::enabled(const std::int32_t* s, int a, int p, int w, Env& env) {
  const auto& act = p_.game.actions[a];
  const auto& win = p_.game.windows[w];
  const auto& ctl = p_.ctl;
  const int active = s[ctl.active];
  if (!p_.covers(act.who, p, active, s)) return 0;
  if (win.protocol == Protocol::priority || !win.roles.empty()) {
    const bool answering = win.protocol == Protocol::priority && get(s, ctl.stack_size) > 0;
    const bool active_acted = get(s, ctl.acted) != 0;
    bool allowed = false;
    for (const auto& r : win.roles) {
      if (!p_.covers(r.role, p, active, s)) continue;
      if (!answering && r.lead_if_active_idle && active_acted) continue;
      const auto& speeds = answering ? r.answer : r.lead;
      if (p_.game.speeds.empty() ||
          std::find(speeds.begin(), speeds.end(), act.speed) != speeds.end()) {
        allowed = true;
        break;
      }
    }
    if (!allowed) return 0;
  }
  if (ctl.turn_uses[a] >= 0 && s[ctl.turn_uses[a] + p] >= act.limit.per_turn) return 0;
  if (ctl.window_uses[a] >= 0 && s[ctl.window_uses[a] + p] >= act.limit.per_window) return 0;
  if (act.play_kind >= 0 &&
      (p_.game.hand_zone < 0 || s[ev_.zone_slot(p_.game.hand_zone, p, act.play_kind)] < 1)) {
    return 0;
  }
  env.state = s;
  env.self = p;
  bool holds = ev_.test(act.guard.get(), env);
  if (env.error >= 0) return -1;
  // An action whose targets have no legal choice cannot be cast.
  if (holds && !act.targets.empty()) holds = some_targets(s, act, 0, env);
  if (env.error >= 0) return -1;
  return holds ? 1 : 0;
}

bool Run::some_targets(const std::int32_t* s, const model::Action& act, std::size_t j, Env& env) {
  if (j >= act.targets.size()) return true;
  const auto& t = act.targets[j];
  const int size = get(s, p_.ctl.stack_size);
  for (std::int64_t v = t.lo; v <= t.hi; ++v) {
    env.binders[j] = v;
    // An entry target names an entry below the one being cast.
    if (t.entry && v >= size) continue;
    const bool ok = ev_.test(t.where.get(), env);
    if (env.error >= 0) return false;
    if (ok && some_targets(s, act, j + 1, env)) return true;
    if (env.error >= 0) return false;
  }
  return false;
}

void Run::choose_target(std::size_t j) {
  std::int32_t* w = sc_.work.data();
  const int a = move_.ref, h = move_.player;
  const auto& act = p_.game.actions[a];
  const auto& ctl = p_.ctl;
  const int size = get(w, ctl.stack_size);
  if (j >= act.targets.size()) {
    // Every target chosen: they go into the entry being cast, then the cost.
    if (size >= ctl.stack_capacity) {
      note_gap("'" + act.name + "' pushed onto a full stack (" + std::to_string(size) +
               " entries)");
      return gap(p_.gaps.push_site[a]);
    }
    for (std::size_t i = 0; i < act.targets.size(); ++i) {
      w[ctl.stack_targets + size * ctl.stack_target_count + static_cast<int>(i)] =
          static_cast<std::int32_t>(sc_.binders[i]);
    }
    note(targets_text(act, w));
    return run_effect(act.cost.get(), h, Tail::priority_cost);
  }
  const auto& t = act.targets[j];
  self_ = h;
  const int d = push_choice();
  for (std::int64_t v = t.lo; v <= t.hi; ++v) {
    sc_.binders[j] = v;
    if (t.entry && v >= size) continue;
    Env e = env(h);
    const bool ok = ev_.test(t.where.get(), e);
    if (e.error >= 0) {
      depth_ = d;
      return gap(e.error);
    }
    if (ok) sc_.outcomes[d].push_back(static_cast<std::int32_t>(v - t.lo));
  }
  const std::size_t count = sc_.outcomes[d].size();
  if (count == 0) {
    // (Playing the card took away every legal choice: nothing is stored.)
    depth_ = d;
    return run_effect(act.cost.get(), h, Tail::priority_cost);
  }
  if (count > 1) save(d);
  for (std::size_t o = 0; o < count; ++o) {
    if (o > 0) restore(d);
    const std::int64_t v = t.lo + sc_.outcomes[d][o];
    sc_.binders[j] = v;
    if (count > 1 && picker_ < 0) picker_ = h;
    if (record_) {
      Choice c;
      c.by = Choice::By::player;
      c.player = h;
      c.text = "targeted " + t.name + " = " + std::to_string(v);
      sc_.choices.push_back(std::move(c));
    }
    choose_target(j + 1);
  }
  depth_ = d;
}

// "targeting entry 0 ('bolt'), choosing x = 2" from the targets kept in
// binders 0..k-1 and the stack of s.
std::string Run::targets_text(const model::Action& act, const std::int32_t* s) const {
  std::string aimed, chosen;
  for (std::size_t i = 0; i < act.targets.size(); ++i) {
    const auto& t = act.targets[i];
    const std::int64_t v = sc_.binders[i];
    std::string what;
    if (t.entry) {
      what = "entry " + std::to_string(v);
      if (v >= 0 && v < get(s, p_.ctl.stack_size)) {
        const int entry = s[p_.ctl.stack_base + 2 * static_cast<int>(v)];
        what += " ('" + p_.game.actions[entry].name + "')";
      }
    } else if (t.type.base == model::BaseType::player) {
      what = p_.player_name(static_cast<int>(v));
    } else if (t.type.base == model::BaseType::kind) {
      what = t.name + " = '" + p_.game.kinds[v].name + "'";
    } else if (t.type.base == model::BaseType::enum_) {
      what = t.name + " = " + p_.game.enums[t.type.enum_id].values[v];
    } else {
      what = t.name + " = " + std::to_string(v);
    }
    const bool aim = t.entry || t.type.base == model::BaseType::player;
    std::string& list = aim ? aimed : chosen;
    list += (list.empty() ? "" : ", ") + what;
  }
  std::string out;
  if (!aimed.empty()) out = "targeting " + aimed;
  if (!chosen.empty()) out += (out.empty() ? "" : ", ") + std::string("choosing ") + chosen;
  return out;
}

void Run::run_move(const Move& m) {
  sc_.work = *before_;
  sc_.choices.clear();
  sc_.notes.clear();
  move_ = m;
  picker_ = -1;
  nature_ = false;
  progress_ = false;
  depth_ = 0;
  if (m.gap >= 0) {
    if (record_) {
      note_gap("deciding whether '" + p_.game.actions[m.ref].name +
               "' is enabled: " + p_.gaps.sites[m.gap].message);
    }
    return gap(m.gap);
  }
  std::int32_t* w = sc_.work.data();
  const auto& ctl = p_.ctl;
  switch (m.kind) {
    case MoveKind::trigger:
    case MoveKind::decline: {
      w[ctl.pending[m.ref] + m.player] = 0;
      // The arguments its event fired with: the trigger's binders 0..k-1.
      const int args = ctl.pending_args[m.ref];
      if (args >= 0) {
        const int k = static_cast<int>(p_.game.triggers[m.ref].params.size());
        for (int i = 0; i < k; ++i) {
          sc_.binders[i] = w[args + m.player * k + i];
          w[args + m.player * k + i] = 0;
        }
      }
      if (m.kind == MoveKind::decline) return emit();
      return run_effect(p_.game.triggers[m.ref].effect.get(), m.player, Tail::emit);
    }
    case MoveKind::start:
      return enter(0, false, true);
    case MoveKind::effects:
      return run_step_do();
    case MoveKind::advance:
      return advance();
    case MoveKind::enter: {
      const int target = get(w, ctl.target);
      const bool new_turn = get(w, ctl.new_turn) != 0;
      put(w, ctl.target, 0);
      put(w, ctl.new_turn, 0);
      return enter(target, new_turn, false);
    }
    case MoveKind::action:
      return take_action();
    case MoveKind::pass:
    case MoveKind::resolve:
      return pass();
  }
}

// ---------------------------------------------------------------------------
// Events and steps

int Run::fire(int event, const model::Stmt* with) {
  if (event < 0) return -1;
  std::int32_t* w = sc_.work.data();
  // The arguments, in order; an int outside its declared range is a gap.
  const auto& decl = p_.game.events[event].args;
  sc_.event_args.assign(decl.size(), 0);
  if (with != nullptr) {
    for (std::size_t i = 0; i < decl.size() && i < with->args.size(); ++i) {
      Env e = env(self_);
      const std::int64_t v = ev_.eval(*with->args[i], e);
      if (e.error >= 0) return e.error;
      if (v < decl[i].lo || v > decl[i].hi) {
        const auto site = p_.gaps.at.find(with);
        if (site != p_.gaps.at.end()) return site->second;
      }
      sc_.event_args[i] = v;
    }
  }
  const int active = w[p_.ctl.active];
  for (int t : p_.triggers_by_event[event]) {
    const int base = p_.ctl.pending[t];
    if (base < 0) continue;
    const auto& trig = p_.game.triggers[t];
    const int k = static_cast<int>(trig.params.size());
    const int args = p_.ctl.pending_args[t];
    for (int i = 0; i < p_.players; ++i) {
      const int c = (active + i) % p_.players;
      if (!p_.covers(trig.controller, c, active, w) || w[base + c] != 0) continue;
      Env e = aux_env(c);
      for (int j = 0; j < k; ++j) sc_.aux_binders[j] = sc_.event_args[j];
      const bool holds = ev_.test(trig.condition.get(), e);
      if (e.error >= 0) return e.error;
      if (!holds) continue;
      w[base + c] = 1;
      for (int j = 0; j < k && args >= 0; ++j) {
        w[args + c * k + j] = static_cast<std::int32_t>(sc_.event_args[j]);
      }
    }
  }
  return -1;
}

void Run::enter(int target, bool new_turn, bool start) {
  std::int32_t* w = sc_.work.data();
  const auto& ctl = p_.ctl;
  const int from_phase = start ? -1 : p_.step_phase(w[ctl.step]);
  if (new_turn) {
    // The next player in the current order; skip_next() skips one more.
    w[ctl.active] = next_player(w[ctl.active]);
    if (get(w, ctl.skip) != 0) {
      w[ctl.active] = next_player(w[ctl.active]);
      w[ctl.skip] = 0;
    }
    w[ctl.turn] = std::min(std::max(1, p_.game.scope.turns), w[ctl.turn] + 1);
    for (int base : ctl.turn_uses) {
      if (base >= 0) std::fill(w + base, w + base + p_.players, 0);
    }
  }
  const int phase = p_.step_phase(target);
  int site = -1;
  if (new_turn || start) site = fire(p_.begin_turn_event);
  if (site < 0 && (new_turn || start || phase != from_phase)) {
    site = fire(p_.game.phases[phase].begin_event);
  }
  if (site < 0) site = fire(p_.game.steps[target].begin_event);
  if (site >= 0) return gap(site);
  w[ctl.step] = target;
  w[ctl.stage] = static_cast<std::int32_t>(Stage::pre);
  progress_ = true;
  for (int base : ctl.pending) {
    if (base < 0) continue;
    for (int p = 0; p < p_.players; ++p) {
      if (w[base + p] != 0) return emit();
    }
  }
  run_step_do();
}

void Run::run_step_do() {
  const std::int32_t* w = sc_.work.data();
  run_effect(p_.game.steps[w[p_.ctl.step]].effects.get(), w[p_.ctl.active], Tail::after_step_do);
}

void Run::advance() {
  std::int32_t* w = sc_.work.data();
  const auto& ctl = p_.ctl;
  const int step = w[ctl.step];
  const auto& st = p_.game.steps[step];
  const int active = w[ctl.active];
  Env e = aux_env(active);
  int target = step;
  bool new_turn = false;
  const bool repeat = st.repeat_while != nullptr && ev_.test(st.repeat_while.get(), e);
  if (!repeat) {
    const bool end_turn = st.end_turn_if != nullptr && ev_.test(st.end_turn_if.get(), e);
    new_turn = end_turn || step + 1 == static_cast<int>(p_.game.steps.size());
    target = new_turn ? 0 : step + 1;
  }
  if (e.error >= 0) return gap(e.error);
  const int phase = st.phase;
  int site = fire(st.end_event);
  if (site < 0 && (new_turn || p_.step_phase(target) != phase)) {
    site = fire(p_.game.phases[phase].end_event);
  }
  if (site < 0 && new_turn) site = fire(p_.end_turn_event);
  if (site >= 0) return gap(site);
  for (int base : ctl.pending) {
    if (base < 0) continue;
    for (int p = 0; p < p_.players; ++p) {
      if (w[base + p] == 0) continue;
      w[ctl.stage] = static_cast<std::int32_t>(Stage::leaving);
      put(w, ctl.target, target);
      put(w, ctl.new_turn, new_turn ? 1 : 0);
      return emit();
    }
  }
  enter(target, new_turn, false);
}

// ---------------------------------------------------------------------------
// Windows

bool Run::open_window(int window) {
  std::int32_t* w = sc_.work.data();
  const auto& ctl = p_.ctl;
  const auto& win = p_.game.windows[window];
  const int active = w[ctl.active];
  w[ctl.stage] = static_cast<std::int32_t>(Stage::window);
  put(w, ctl.holder, active);
  switch (win.protocol) {
    case Protocol::priority:
      return true;
    case Protocol::alternate: {
      // The active player first, then the others in turn order.
      const int site = handover(model::next_in_order(active, !p_.reversed(w), p_.players));
      if (site >= 0) {
        gap(site);
        return false;
      }
      return true;
    }
    case Protocol::sequence: {
      std::size_t seat = 0;
      while (seat < win.order.size() && win.order[seat] == SequenceTurn::active_if_answered) ++seat;
      if (seat >= win.order.size()) {
        close_window();
        return true;
      }
      put(w, ctl.seat, static_cast<std::int32_t>(seat));
      put(w, ctl.holder, win.order[seat] == SequenceTurn::opponent ? next_player(active) : active);
      return true;
    }
  }
  return true;
}

void Run::close_window() {
  std::int32_t* w = sc_.work.data();
  const auto& ctl = p_.ctl;
  w[ctl.stage] = static_cast<std::int32_t>(Stage::post);
  put(w, ctl.holder, 0);
  put(w, ctl.passes, 0);
  put(w, ctl.acted, 0);
  put(w, ctl.seat, 0);
  for (int base : ctl.window_uses) {
    if (base >= 0) std::fill(w + base, w + base + p_.players, 0);
  }
}

int Run::handover(int from) {
  const std::int32_t* w = sc_.work.data();
  const int window = p_.game.steps[w[p_.ctl.step]].window;
  int p = from;
  // Under must_act the next player moves, enabled or not, while anyone can.
  const bool must_act = p_.game.windows[window].must_act;
  for (int i = 1; i <= p_.players; ++i) {
    p = next_player(p);
    for (int a : p_.window_actions[window]) {
      Env e = aux_env(p);
      const int r = enabled(w, a, p, window, e);
      if (r < 0) return e.error;
      if (r > 0) {
        put(sc_.work.data(), p_.ctl.holder, must_act ? next_player(from) : p);
        return -1;
      }
    }
  }
  close_window();
  return -1;
}

void Run::count_use(int a, int p) {
  std::int32_t* w = sc_.work.data();
  if (p_.ctl.turn_uses[a] >= 0) w[p_.ctl.turn_uses[a] + p] += 1;
  if (p_.ctl.window_uses[a] >= 0) w[p_.ctl.window_uses[a] + p] += 1;
}

void Run::take_action() {
  std::int32_t* w = sc_.work.data();
  const int a = move_.ref, h = move_.player;
  const auto& act = p_.game.actions[a];
  if (act.play_kind >= 0) {
    w[ev_.zone_slot(p_.game.hand_zone, h, act.play_kind)] -= 1;
    const int to = act.to_zone < 0 ? -1 : ev_.zone_slot(act.to_zone, h, act.play_kind);
    if (to >= 0) w[to] += 1;
    if (to >= 0 && w[to] > p_.game.slots[to].hi) {
      note_gap("playing '" + act.name + "' overfills " + p_.game.slots[to].name);
      return gap(p_.gaps.play_site[a]);
    }
    if (to >= 0 && over_capacity(act.to_zone, h)) {
      const auto& z = p_.game.zones[act.to_zone];
      note_gap("playing '" + act.name + "' overfills " + z.name +
               (z.per_player ? "[" + p_.player_name(h) + "]" : "") + capacity_text(act.to_zone));
      return gap(p_.gaps.play_site[a]);
    }
  }
  const int window = p_.game.steps[w[p_.ctl.step]].window;
  switch (p_.game.windows[window].protocol) {
    case Protocol::priority:
      if (!act.targets.empty()) return choose_target(0);
      return run_effect(act.cost.get(), h, Tail::priority_cost);
    case Protocol::alternate:
      return run_effect(act.cost.get(), h, Tail::alternate_cost);
    case Protocol::sequence:
      return run_effect(act.cost.get(), h, Tail::sequence_cost);
  }
}

void Run::pass() {
  std::int32_t* w = sc_.work.data();
  const auto& ctl = p_.ctl;
  const int h = move_.player;
  const int window = p_.game.steps[w[ctl.step]].window;
  const auto& win = p_.game.windows[window];
  switch (win.protocol) {
    case Protocol::priority: {
      if (get(w, ctl.passes) + 1 < p_.players) {
        put(w, ctl.holder, next_player(h));
        put(w, ctl.passes, get(w, ctl.passes) + 1);
        return emit();
      }
      const int size = get(w, ctl.stack_size);
      if (size == 0) {
        close_window();
        return emit();
      }
      const int at = ctl.stack_base + 2 * (size - 1);
      const int a = w[at], c = w[at + 1];
      w[at] = 0;
      w[at + 1] = 0;
      w[ctl.stack_size] = size - 1;
      const auto& act = p_.game.actions[a];
      if (!act.targets.empty()) {
        // Its targets are loaded into binders 0..k-1 and checked again: when
        // one no longer holds (or playing the card left none chosen), the
        // entry does nothing.
        const int first = ctl.stack_targets + (size - 1) * ctl.stack_target_count;
        bool legal = true;
        for (std::size_t i = 0; i < act.targets.size(); ++i) {
          sc_.binders[i] = w[first + static_cast<int>(i)];
          legal =
              legal && sc_.binders[i] >= act.targets[i].lo && sc_.binders[i] <= act.targets[i].hi;
        }
        for (int i = 0; i < ctl.stack_target_count; ++i) w[first + i] = 0;
        note(targets_text(act, w));
        for (std::size_t i = 0; i < act.targets.size() && legal; ++i) {
          const auto& t = act.targets[i];
          if (t.entry && sc_.binders[i] >= size - 1) {
            legal = false;
            break;
          }
          Env e = env(c);
          legal = ev_.test(t.where.get(), e);
          if (e.error >= 0) return gap(e.error);
        }
        if (!legal) {
          note("'" + act.name + "' does nothing: its targets are no longer legal");
          self_ = c;
          return finish(Tail::resolve);
        }
      }
      return run_effect(act.effect.get(), c, Tail::resolve);
    }
    case Protocol::alternate: {
      const int site = handover(h);
      if (site >= 0) return gap(site);
      return emit();
    }
    case Protocol::sequence: {
      std::size_t seat = static_cast<std::size_t>(get(w, ctl.seat)) + 1;
      bool answered = get(w, ctl.acted) != 0;
      while (seat < win.order.size() && win.order[seat] == SequenceTurn::active_if_answered &&
             !answered) {
        ++seat;
        answered = false;
      }
      if (seat >= win.order.size()) {
        close_window();
        return emit();
      }
      const int active = w[ctl.active];
      put(w, ctl.seat, static_cast<std::int32_t>(seat));
      put(w, ctl.acted, 0);
      put(w, ctl.holder, win.order[seat] == SequenceTurn::opponent ? next_player(active) : active);
      return emit();
    }
  }
}

void Run::finish(Tail t) {
  std::int32_t* w = sc_.work.data();
  const auto& ctl = p_.ctl;
  const int a = move_.ref, h = move_.player;
  switch (t) {
    case Tail::emit:
      return emit();
    case Tail::after_step_do: {
      const int window = p_.game.steps[w[ctl.step]].window;
      if (window < 0) {
        w[ctl.stage] = static_cast<std::int32_t>(Stage::post);
        return emit();
      }
      if (open_window(window)) emit();
      return;
    }
    case Tail::priority_cost: {
      count_use(a, h);
      if (h == w[ctl.active]) put(w, ctl.acted, 1);
      const auto& act = p_.game.actions[a];
      if (!act.answerable) return run_effect(act.effect.get(), h, Tail::priority_effect);
      const int size = get(w, ctl.stack_size);
      if (size >= ctl.stack_capacity) {
        note_gap("'" + act.name + "' pushed onto a full stack (" + std::to_string(size) +
                 " entries)");
        return gap(p_.gaps.push_site[a]);
      }
      w[ctl.stack_base + 2 * size] = a;
      w[ctl.stack_base + 2 * size + 1] = h;
      w[ctl.stack_size] = size + 1;
      put(w, ctl.holder, next_player(h));
      put(w, ctl.passes, 0);
      return emit();
    }
    case Tail::priority_effect:
      put(w, ctl.passes, 0);
      return emit();
    case Tail::alternate_cost:
    case Tail::sequence_cost:
      count_use(a, h);
      return run_effect(p_.game.actions[a].effect.get(), h,
                        t == Tail::alternate_cost ? Tail::alternate_effect : Tail::sequence_effect);
    case Tail::alternate_effect: {
      const int site = handover(h);
      if (site >= 0) return gap(site);
      return emit();
    }
    case Tail::sequence_effect:
      put(w, ctl.acted, 1);
      return emit();
    case Tail::resolve:
      put(w, ctl.holder, w[ctl.active]);
      put(w, ctl.passes, 0);
      return emit();
  }
}

// ---------------------------------------------------------------------------
// End of a path

void Run::emit() {
  std::int32_t* w = sc_.work.data();
  if (raw_) return output(sc_.work);
  if (w[p_.ctl.over] == 0) {
    const int active = w[p_.ctl.active];
    for (std::size_t c = 0; c < p_.game.end_conditions.size(); ++c) {
      const auto& end = p_.game.end_conditions[c];
      for (int i = 0; i < p_.players; ++i) {
        const int p = (active + i) % p_.players;
        if (!p_.covers(end.who, p, active, w)) continue;
        Env e = aux_env(p);
        const bool holds = ev_.test(end.condition.get(), e);
        if (e.error >= 0) return gap(e.error);
        if (!holds) continue;
        w[p_.ctl.over] = 1;
        note("'" + end.name + "': " + p_.player_name(p) + (end.win ? " wins" : " loses"));
        end_player_ = p;
        end_win_ = end.win;
        end_condition_ = static_cast<int>(c);
        return output(sc_.work);
      }
    }
  }
  output(sc_.work);
}

void Run::gap(int site) {
  if (site < 0 || site >= static_cast<int>(p_.gaps.sites.size())) {
    throw std::logic_error("loophole: internal error: a rule failed outside every gap site");
  }
  sc_.gap_state = *before_;
  sc_.gap_state[p_.ctl.over] = 2;
  put(sc_.gap_state.data(), p_.ctl.gap, site + 1);
  output(sc_.gap_state);
}

void Run::output(const StateVec& state) {
  if (init_out_ != nullptr) {
    init_out_->push_back(state);
    end_player_ = -1;
    end_condition_ = -1;
    return;
  }
  if (n_out_ == out_->size()) out_->emplace_back();
  Successor& o = (*out_)[n_out_++];
  o.state = state;
  o.kind = move_.kind;
  o.player = move_.player;
  o.ref = move_.ref;
  o.progress = progress_ && state[p_.ctl.over] != 2;
  o.chooser = Chooser::none;
  o.chooser_player = -1;
  if (mover_choice_) {
    o.chooser = Chooser::player;
    o.chooser_player = move_.player;
  } else if (picker_ >= 0) {
    o.chooser = Chooser::player;
    o.chooser_player = picker_;
  } else if (nature_) {
    o.chooser = Chooser::nature;
  }
  o.end_player = -1;
  o.end_win = false;
  o.end_condition = -1;
  if (record_) {
    o.choices = sc_.choices;
    o.notes = sc_.notes;
    o.end_player = end_player_;
    o.end_win = end_win_;
    o.end_condition = end_condition_;
  } else {
    o.choices.clear();
    o.notes.clear();
  }
  end_player_ = -1;
  end_win_ = false;
  end_condition_ = -1;
}

}  // namespace loophole::checker::semantics
