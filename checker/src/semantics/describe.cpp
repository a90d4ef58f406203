// Transcripts: the state a trace starts from, then one line of text per move
// and the list of what it changed. The text names the move the way a player
// would ("P2 answers with 'mirror_ward' (speed 3)", "P1 draws 'shock'"), then
// what the effects did, naming every card kind drawn, moved or chosen and who
// did it, then the changed zone totals and variables in parentheses. When the successor
// was computed without choices, the move is recomputed with them (moves are
// pure functions of the state), so engines need to keep only indices.
#include <algorithm>

#include "impl.hpp"

namespace loophole::checker {

namespace {

using semantics::Prepared;

// The event a pending trigger of c keeps, with its arguments as the rules
// write them: " on damaged(P1, 2)"; "" when the trigger binds none.
std::string pending_event(const Prepared& p, const StateVec& s, int t, int c) {
  const int base = p.ctl.pending_args[t];
  if (base < 0) return "";
  const auto& trig = p.game.triggers[t];
  const auto& ev = p.game.events[trig.event];
  const int k = static_cast<int>(trig.params.size());
  std::string out = " on " + ev.name + "(";
  for (int i = 0; i < k; ++i) {
    const std::int32_t v = s[base + c * k + i];
    const model::Type& type = ev.args[i].type;
    if (i > 0) out += ", ";
    if (type == model::Type::player()) {
      out += p.player_name(v);
    } else if (type == model::Type::kind()) {
      out += "'" + p.game.kinds[v].name + "'";
    } else if (type == model::Type::bool_()) {
      out += v != 0 ? "true" : "false";
    } else if (type.base == model::BaseType::enum_) {
      out += p.game.enums[type.enum_id].values[v];
    } else {
      out += std::to_string(v);
    }
  }
  return out + ")";
}

// "deck[P1] 5→3, hand[P1] 1→3, coins 0→1": zone totals per owner, variables
// one by one, in slot order.
std::string data_summary(const Prepared& p, const StateVec& before, const StateVec& after) {
  const auto& game = p.game;
  std::string out;
  auto add = [&](const std::string& name, const std::string& b, const std::string& a) {
    if (!out.empty()) out += ", ";
    out += name + " " + b + "→" + a;
  };
  for (std::size_t i = 0; i < game.slots.size(); ++i) {
    const auto& slot = game.slots[i];
    if (slot.zone >= 0) {
      if (slot.kind != 0) continue;  // one entry per zone and owner, at its first kind
      std::int64_t b = 0, a = 0;
      for (int k = 0; k < p.kinds; ++k) {
        b += before[i + k];
        a += after[i + k];
      }
      if (a == b) {
        bool moved = false;
        for (int k = 0; k < p.kinds; ++k) moved = moved || before[i + k] != after[i + k];
        if (!moved) continue;
      }
      const auto& zone = game.zones[slot.zone];
      add(zone.name + (zone.per_player ? "[" + p.player_name(slot.owner) + "]" : ""),
          std::to_string(b), std::to_string(a));
    } else if (before[i] != after[i]) {
      add(slot.name, game.slot_value(static_cast<int>(i), before[i]),
          game.slot_value(static_cast<int>(i), after[i]));
    }
  }
  return out;
}

std::string action_text(const Prepared& p, const StateVec& before, int player, int a) {
  const auto& act = p.game.actions[a];
  const bool answering =
      semantics::get(before.data(), p.ctl.stack_size) > 0 &&
      semantics::get(before.data(), p.ctl.stage) == static_cast<std::int32_t>(Stage::window);
  std::string text =
      p.player_name(player) + (answering ? " answers with '" : " plays '") + act.name + "'";
  if (!p.game.speeds.empty()) text += " (speed " + std::to_string(act.speed) + ")";
  // The card it plays, when the action is not named after it.
  if (act.play_kind >= 0 && p.game.kinds[act.play_kind].name != act.name) {
    text += ", playing '" + p.game.kinds[act.play_kind].name + "'";
  }
  return text;
}

bool is_draw_note(const std::string& note) {
  return note.size() > 9 && note[0] == 'P' && note.find(" draws ") != std::string::npos;
}

// A zone's cards by kind: "'shock' ×2, 'land'", or "empty".
std::string zone_cards(const Prepared& p, const StateVec& s, std::size_t first) {
  std::string out;
  for (int k = 0; k < p.kinds; ++k) {
    const std::int32_t n = s[first + k];
    if (n == 0) continue;
    if (!out.empty()) out += ", ";
    out += "'" + p.game.kinds[k].name + "'" + (n > 1 ? " ×" + std::to_string(n) : "");
  }
  return out.empty() ? "empty" : out;
}

}  // namespace

std::string Semantics::describe_state(const StateVec& s) const {
  const Prepared& p = impl_->prep;
  std::string out;
  for (std::size_t i = 0; i < game_.slots.size(); ++i) {
    const auto& slot = game_.slots[i];
    if (slot.zone >= 0 && slot.kind != 0) continue;  // a zone is listed at its first kind
    if (!out.empty()) out += "; ";
    if (slot.zone >= 0) {
      const auto& zone = game_.zones[slot.zone];
      out += zone.name + (zone.per_player ? "[" + p.player_name(slot.owner) + "]" : "") + ": " +
             zone_cards(p, s, i);
    } else {
      out += slot.name + " " + game_.slot_value(static_cast<int>(i), s[i]);
    }
  }
  // (A game of turn structure alone still says what its start holds.)
  return out.empty() ? "no cards or variables" : out;
}

std::optional<Trace> Semantics::begin_trace(const StateVec& root) const {
  const std::vector<StateVec> initial = initial_states();
  const auto it = std::find(initial.begin(), initial.end(), root);
  if (it == initial.end()) return std::nullopt;
  Trace t;
  t.initial = static_cast<std::uint32_t>(it - initial.begin());
  t.start = describe_state(root);
  return t;
}

TraceStep Semantics::describe(const StateVec& before, const Successor& succ,
                              std::uint32_t index) const {
  const Prepared& p = impl_->prep;
  const auto& ctl = p.ctl;
  const StateVec& after = succ.state;
  TraceStep t;
  t.kind = succ.kind;
  t.player = succ.player;
  t.ref = succ.ref;
  t.turn = before[ctl.turn];
  t.active = before[ctl.active];
  t.step = before[ctl.step];
  t.progress = succ.progress;
  t.successor = index;

  // Choices and notes: recompute the move with them when the engine did not keep them.
  const Successor* full = &succ;
  std::vector<Successor> again;
  if (succ.choices.empty() && succ.notes.empty()) {
    successors(before, again, true);
    if (index < again.size() && again[index].state == after && again[index].kind == succ.kind) {
      full = &again[index];
    }
  }
  t.choices = full->choices;

  for (std::size_t i = 0; i < layout().data_fields; ++i) {
    if (before[i] != after[i]) {
      t.changes.push_back(Change{static_cast<int>(i), game_.slots[i].name, before[i], after[i]});
    }
  }
  const std::pair<const char*, int> control[] = {
      {"over", ctl.over},   {"active", ctl.active}, {"turn", ctl.turn},       {"step", ctl.step},
      {"stage", ctl.stage}, {"holder", ctl.holder}, {"stack", ctl.stack_size}};
  for (const auto& [name, index_of] : control) {
    if (index_of >= 0 && before[index_of] != after[index_of]) {
      t.changes.push_back(Change{-1, name, before[index_of], after[index_of]});
    }
  }

  const bool gap = after[ctl.over] == 2;
  std::vector<std::string> notes = full->notes;
  std::string text;
  auto entered = [&]() {
    std::string s = "advance to ";
    if (after[ctl.active] != before[ctl.active]) {
      s += p.player_name(after[ctl.active]) + "'s turn, ";
    }
    return s + p.game.step_label(after[ctl.step]);
  };
  switch (succ.kind) {
    case MoveKind::start:
      text = "start at " + p.game.step_label(gap ? 0 : after[ctl.step]);
      break;
    case MoveKind::advance:
      if (gap) {
        text = "leave " + p.game.step_label(before[ctl.step]);
      } else if (after[ctl.stage] == static_cast<std::int32_t>(Stage::leaving)) {
        text = "leave " + p.game.step_label(before[ctl.step]) + " (end triggers pending)";
      } else {
        text = entered();
      }
      break;
    case MoveKind::enter:
      text = gap ? "enter from " + p.game.step_label(before[ctl.step]) : entered();
      break;
    case MoveKind::effects: {
      std::vector<std::string> rest;
      for (auto& n : notes) {
        if (is_draw_note(n)) {
          text += (text.empty() ? "" : "; ") + n;
        } else {
          rest.push_back(std::move(n));
        }
      }
      notes = std::move(rest);
      if (text.empty()) text = p.game.step_label(before[ctl.step]) + " effects";
      break;
    }
    case MoveKind::action:
      text = action_text(p, before, succ.player, succ.ref);
      break;
    case MoveKind::pass:
      text = p.player_name(succ.player) + " passes";
      break;
    case MoveKind::resolve:
      text = "'" + game_.actions[succ.ref].name + "' resolves";
      break;
    case MoveKind::trigger:
      text = "trigger '" + game_.triggers[succ.ref].name + "' (" + p.player_name(succ.player) +
             ")" + pending_event(p, before, succ.ref, succ.player);
      break;
    case MoveKind::decline:
      text = p.player_name(succ.player) + " declines '" + game_.triggers[succ.ref].name + "'" +
             pending_event(p, before, succ.ref, succ.player);
      break;
  }
  // An action's targets follow its name: "P2 answers with 'counter'
  // targeting entry 0 ('bolt')", "'counter' resolves targeting ...".
  if (succ.kind == MoveKind::action || succ.kind == MoveKind::resolve) {
    const auto aimed = std::find_if(notes.begin(), notes.end(), [](const std::string& n) {
      return n.rfind("targeting ", 0) == 0 || n.rfind("choosing ", 0) == 0;
    });
    if (aimed != notes.end()) {
      text += " " + *aimed;
      notes.erase(aimed);
    }
  }
  bool gap_noted = false;
  for (const auto& n : notes) {
    text += "; " + n;
    gap_noted = gap_noted || n.rfind("rule gap: ", 0) == 0;
  }
  if (gap && !gap_noted && ctl.gap >= 0 && after[ctl.gap] > 0) {
    text += "; rule gap: " + gaps()[after[ctl.gap] - 1].message;
  }
  const std::string summary = data_summary(p, before, after);
  if (!summary.empty()) text += " (" + summary + ")";
  t.text = std::move(text);
  return t;
}

std::string Semantics::where(const StateVec& s) const {
  const Prepared& p = impl_->prep;
  return "T" + std::to_string(s[p.ctl.turn]) + " " + p.player_name(s[p.ctl.active]) + " " +
         p.game.step_label(s[p.ctl.step]);
}

}  // namespace loophole::checker
