// Reading the turn structure and the rules of a ruleset: phases and steps,
// windows with their protocols and speeds, actions, triggers, end
// conditions, properties, the trace to the seed document, and functions
// and macros. Part of
// detail::Loader (loader.hpp).
#include "loader.hpp"

namespace loophole::model::detail {

void Loader::read_turn(const YamlReader& r, const Entry& e) {
  out_.turn_where = e.key_where;
  auto m = r.map(e, {"phases"}, "'turn'");
  if (!m) return;
  const Entry* phases = m->get("phases");
  if (phases == nullptr || !phases->value.IsDefined() || phases->value.IsNull() ||
      (phases->value.IsSequence() && phases->value.size() == 0)) {
    sink_.error(e.key_where, "the turn has no phases");
    return;
  }
  auto items = r.list(*phases);
  if (!items) return;
  for (const auto& item : *items) {
    const std::string context = named("phase", peek_name(item));
    auto pm = r.map(item, r.span(item), "each entry of 'phases'", {"name", "steps"}, context);
    if (!pm) continue;
    const Entry* name_entry = pm->get("name");
    if (name_entry == nullptr) {
      sink_.error(pm->where, "a phase needs a 'name'");
      continue;
    }
    auto name = r.identifier(*name_entry);
    if (!name) continue;
    RawPhase phase;
    phase.decl.name = name->value;
    phase.decl.where = name->where;
    const Entry* steps = pm->get("steps");
    if (steps == nullptr || !steps->value.IsDefined() || steps->value.IsNull() ||
        (steps->value.IsSequence() && steps->value.size() == 0)) {
      sink_.error(name->where, "phase " + quote_name(name->value) + " has no steps");
    } else if (auto step_items = r.list(*steps)) {
      for (const auto& step_item : *step_items) read_step(r, step_item, phase);
    }
    out_.phases.push_back(std::move(phase));
  }
}

void Loader::read_step(const YamlReader& r, const YAML::Node& item, RawPhase& phase) {
  const std::string context = named("step", peek_name(item));
  auto sm = r.map(item, r.span(item), "each entry of 'steps'",
                  {"name", "do", "window", "repeat_while", "end_turn_if"}, context);
  if (!sm) return;
  const Entry* name_entry = sm->get("name");
  if (name_entry == nullptr) {
    sink_.error(sm->where, "a step needs a 'name'");
    return;
  }
  auto name = r.identifier(*name_entry);
  if (!name) return;
  RawStep step;
  step.decl.name = name->value;
  step.decl.where = name->where;
  if (const Entry* d = sm->get("do")) step.decl.effects = r.stmts(*d);
  if (const Entry* w = sm->get("window")) {
    step.window = r.identifier(*w);
    if (step.window) step.decl.window_where = step.window->where;
  }
  if (const Entry* c = sm->get("repeat_while")) {
    step.decl.repeat_while = r.expr(*c);
    if (c->value.IsScalar()) step.decl.repeat_text = trimmed(c->value.Scalar());
  }
  if (const Entry* c = sm->get("end_turn_if")) {
    step.decl.end_turn_if = r.expr(*c);
    if (c->value.IsScalar()) step.decl.end_turn_text = trimmed(c->value.Scalar());
  }
  phase.steps.push_back(std::move(step));
}

std::vector<RawNumber> Loader::read_speed_list(const YamlReader& r, const Entry& e) {
  std::vector<RawNumber> out;
  if (auto items = r.list(e, true)) {
    for (const auto& item : *items) {
      if (auto v = r.integer(item, r.span(item), "a speed"))
        out.push_back(RawNumber{*v, r.span(item)});
    }
  }
  return out;
}

void Loader::read_windows(const YamlReader& r, const Entry& e) {
  auto m = r.map(e, {}, "'windows'");
  if (!m) return;
  for (const Entry& we : m->entries()) {
    auto name = r.key_identifier(we, "window");
    if (!name) continue;
    const std::string context = "window " + quote_name(name->value);
    RawWindow window;
    window.decl.name = name->value;
    window.decl.where = name->where;
    if (!we.value.IsDefined() || we.value.IsNull()) {  // `name:` alone: a priority window
      out_.windows.push_back(std::move(window));
      continue;
    }
    auto wm = r.map(
        we, {"protocol", "active", "opponent", "others", "each", "may_pass", "must_act", "order"},
        context);
    if (!wm) continue;
    if (const Entry* p = wm->get("protocol")) {
      if (auto word = r.string(*p)) {
        if (word->value == "priority") {
          window.decl.protocol = Protocol::priority;
        } else if (word->value == "alternate") {
          window.decl.protocol = Protocol::alternate;
        } else if (word->value == "sequence") {
          window.decl.protocol = Protocol::sequence;
        } else {
          sink_.error(word->where,
                      unknown_word("protocol", word->value, {"priority", "alternate", "sequence"}));
        }
      }
    }
    window.decl.may_pass = window.decl.protocol != Protocol::alternate;
    for (const Entry& re : wm->entries()) {
      Role role{};
      if (re.key == "active") {
        role = Role::active;
      } else if (re.key == "opponent") {
        role = Role::opponent;
      } else if (re.key == "others") {
        role = Role::others;
      } else if (re.key == "each") {
        role = Role::each;
      } else {
        continue;
      }
      RawRole raw;
      raw.decl.role = role;
      raw.decl.where = re.key_where;
      if (re.value.IsDefined() && !re.value.IsNull()) {
        auto rm = r.map(re, {"lead", "answer", "lead_if"},
                        "role " + quote_name(re.key) + " of " + context);
        if (!rm) continue;
        if (const Entry* lead = rm->get("lead")) raw.lead = read_speed_list(r, *lead);
        if (const Entry* answer = rm->get("answer")) raw.answer = read_speed_list(r, *answer);
        if (const Entry* cond = rm->get("lead_if")) {
          if (auto word = r.string(*cond)) {
            if (word->value == "active_idle") {
              raw.decl.lead_if_active_idle = true;
            } else {
              sink_.error(word->where,
                          unknown_word("'lead_if' condition", word->value, {"active_idle"}));
            }
          }
        }
      }
      window.roles.push_back(std::move(raw));
    }
    if (const Entry* mp = wm->get("may_pass")) {
      if (window.decl.protocol == Protocol::sequence) {
        sink_.error(mp->key_where,
                    "'may_pass' does not apply to 'sequence' windows: a seat always ends with a "
                    "pass");
      } else if (auto b = r.boolean(*mp)) {
        window.decl.may_pass = *b;
      }
    }
    if (const Entry* ma = wm->get("must_act")) {
      if (window.decl.protocol == Protocol::priority) {
        sink_.error(ma->key_where,
                    "'must_act' applies to 'alternate' and 'sequence' windows; in a priority "
                    "window 'may_pass: false' makes the holder act");
      } else if (auto b = r.boolean(*ma)) {
        window.decl.must_act = *b;
        const Entry* mp = wm->get("may_pass");
        if (*b && mp != nullptr && window.decl.may_pass) {
          sink_.error(mp->key_where,
                      "a player who must act cannot pass: 'may_pass: true' contradicts "
                      "'must_act: true'");
        }
        // The player to move has no pass: they act or the game is stuck.
        if (*b) window.decl.may_pass = false;
      }
    }
    const Entry* order = wm->get("order");
    if (order != nullptr && window.decl.protocol != Protocol::sequence) {
      sink_.error(order->key_where, "'order' only applies to 'sequence' windows");
    } else if (order != nullptr) {
      if (auto items = r.list(*order)) {
        for (const auto& item : *items) {
          auto word = r.string(item, r.span(item), "a sequence turn");
          if (!word) continue;
          if (word->value == "active") {
            window.decl.order.push_back(SequenceTurn::active);
          } else if (word->value == "opponent") {
            window.decl.order.push_back(SequenceTurn::opponent);
          } else if (word->value == "active_if_answered") {
            window.decl.order.push_back(SequenceTurn::active_if_answered);
          } else {
            sink_.error(word->where, unknown_word("sequence turn", word->value,
                                                  {"active", "opponent", "active_if_answered"}));
          }
        }
        if (items->empty()) sink_.error(order->key_where, "'order' of " + context + " is empty");
      }
    } else if (window.decl.protocol == Protocol::sequence) {
      sink_.error(name->where, "sequence " + context + " needs an 'order'");
    }
    out_.windows.push_back(std::move(window));
  }
}

std::optional<Role> Loader::read_role(const YamlReader& r, const Entry& e,
                                      std::initializer_list<Role> allowed) {
  auto word = r.string(e);
  if (!word) return std::nullopt;
  std::vector<std::string> choices;
  for (const RoleWord& rw : k_roles) {
    if (std::find(allowed.begin(), allowed.end(), rw.role) == allowed.end()) continue;
    if (rw.word == word->value) return rw.role;
    choices.emplace_back(rw.word);
  }
  sink_.error(word->where, unknown_word("role", word->value, choices));
  return std::nullopt;
}

// `win:`/`lose:` of an end condition: a role, or else a player expression
// (`P1`, `next(P2)`) the checker types and expands. A bare word one typo
// from a role is still reported as a role.
void Loader::read_end_who(const YamlReader& r, const Entry& e, EndCondition& c) {
  const std::initializer_list<Role> roles = {Role::active, Role::opponent, Role::each,
                                             Role::others};
  auto word = r.string(e);
  if (!word) return;
  std::vector<std::string> choices;
  for (const RoleWord& rw : k_roles) {
    if (std::find(roles.begin(), roles.end(), rw.role) == roles.end()) continue;
    if (rw.word == word->value) {
      c.who = rw.role;
      return;
    }
    choices.emplace_back(rw.word);
  }
  if (word->value == "any" ||
      (is_identifier(word->value) && !suggest_name(word->value, choices).empty())) {
    sink_.error(word->where, unknown_word("role", word->value, choices));
    return;
  }
  c.who = Role::each;
  c.player_text = word->value;
  c.player_expr = r.expr(e);
}

// The `name` of a list entry; reports a missing one at the entry.
std::optional<Text> Loader::entry_name(const YamlReader& r, const MapView& m,
                                       std::string_view category) {
  const Entry* name_entry = m.get("name");
  if (name_entry == nullptr) {
    sink_.error(m.where, "each " + std::string(category) + " needs a 'name'");
    return std::nullopt;
  }
  return r.identifier(*name_entry);
}

void Loader::read_action(const YamlReader& r, const YAML::Node& item) {
  const std::string context = named("action", peek_name(item));
  auto m = r.map(item, r.span(item), "each entry of 'actions'",
                 {"name", "who", "speed", "in", "play", "to", "when", "cost", "effect", "limit",
                  "answerable", "negatable", "targets", "invented"},
                 context);
  if (!m) return;
  auto name = entry_name(r, *m, "action");
  if (!name) return;
  RawAction a;
  a.decl.name = name->value;
  a.decl.where = name->where;
  if (const Entry* who = m->get("who")) {
    if (auto role = read_role(
            r, *who, {Role::active, Role::opponent, Role::any, Role::each, Role::others})) {
      a.decl.who = *role;
    }
  }
  if (const Entry* speed = m->get("speed")) {
    if (auto v = r.integer(*speed)) a.speed = RawNumber{*v, r.span(*speed)};
  }
  if (const Entry* in = m->get("in")) {
    if (auto items = r.list(*in, true)) {
      for (const auto& w : *items) {
        if (auto wn = r.identifier(w, r.span(w), "a window name")) a.in.push_back(*wn);
      }
    }
  }
  if (const Entry* play = m->get("play")) a.play = r.identifier(*play);
  if (const Entry* to = m->get("to")) a.to = r.identifier(*to);
  if (const Entry* when = m->get("when")) a.decl.guard = r.expr(*when);
  if (const Entry* cost = m->get("cost")) a.decl.cost = r.stmts(*cost);
  if (const Entry* effect = m->get("effect")) a.decl.effect = r.stmts(*effect);
  if (const Entry* limit = m->get("limit")) {
    if (auto lm = r.map(*limit, {"per_turn", "per_window"}, "'limit' of " + context)) {
      for (const Entry& le : lm->entries()) {
        auto v = r.integer(le);
        if (!v) continue;
        if (*v < 1 || *v > 64) {
          sink_.error(r.span(le), quote_name(le.key) + " must be between 1 and 64, found " +
                                      std::to_string(*v));
          continue;
        }
        (le.key == "per_turn" ? a.decl.limit.per_turn : a.decl.limit.per_window) =
            static_cast<int>(*v);
      }
    }
  }
  if (const Entry* b = m->get("answerable")) a.decl.answerable = r.boolean(*b).value_or(true);
  if (const Entry* b = m->get("negatable")) a.decl.negatable = r.boolean(*b).value_or(true);
  // `targets: {victim: {type: entry, where: "..."}, who: player}`: each a
  // type word or a map like an event argument's with a `where`.
  if (const Entry* targets = m->get("targets")) {
    if (auto tm = r.map(*targets, {}, "'targets' of " + context)) {
      for (const Entry& te : tm->entries()) {
        auto tname = r.key_identifier(te, "target");
        if (!tname) continue;
        RawTarget t;
        t.field.name = *tname;
        t.field.where = tname->where;
        if (te.value.IsMap()) {
          auto fm = r.map(te, {"type", "range", "where"}, "target " + quote_name(tname->value));
          if (!fm) continue;
          read_field(r, *fm, t.field);
          if (const Entry* w = fm->get("where")) t.where = r.expr(*w);
        } else if (auto type = r.identifier(te)) {
          t.field.type = *type;
        }
        a.targets.push_back(std::move(t));
      }
    }
  }
  a.decl.invented = invented_;
  if (const Entry* why = m->get("invented")) a.decl.invented = read_invented(r, *why);
  out_.actions.push_back(std::move(a));
}

void Loader::read_trigger(const YamlReader& r, const YAML::Node& item) {
  const std::string context = named("trigger", peek_name(item));
  auto m = r.map(item, r.span(item), "each entry of 'triggers'",
                 {"name", "on", "controller", "when", "optional", "do", "invented"}, context);
  if (!m) return;
  auto name = entry_name(r, *m, "trigger");
  if (!name) return;
  RawTrigger t;
  t.decl.name = name->value;
  t.decl.where = name->where;
  if (const Entry* on = m->get("on")) {
    if (auto text = r.string(*on)) t.on = *text;
  } else {
    sink_.error(name->where,
                "trigger " + quote_name(name->value) + " needs 'on' (the event it listens to)");
  }
  if (const Entry* c = m->get("controller")) {
    if (auto role = read_role(r, *c, {Role::active, Role::opponent, Role::each, Role::others})) {
      t.decl.controller = *role;
    }
  }
  if (const Entry* when = m->get("when")) t.decl.condition = r.expr(*when);
  if (const Entry* opt = m->get("optional")) t.decl.optional = r.boolean(*opt).value_or(false);
  if (const Entry* d = m->get("do")) t.decl.effect = r.stmts(*d);
  t.decl.invented = invented_;
  if (const Entry* why = m->get("invented")) t.decl.invented = read_invented(r, *why);
  out_.triggers.push_back(std::move(t));
}

void Loader::read_end(const YamlReader& r, const YAML::Node& item) {
  const std::string context = named("end condition", peek_name(item));
  auto m =
      r.map(item, r.span(item), "each entry of 'end'", {"name", "win", "lose", "when"}, context);
  if (!m) return;
  auto name = entry_name(r, *m, "end condition");
  if (!name) return;
  EndCondition c;
  c.name = name->value;
  c.where = name->where;
  const Entry* win = m->get("win");
  const Entry* lose = m->get("lose");
  if ((win == nullptr) == (lose == nullptr)) {
    sink_.error(name->where,
                "end condition " + quote_name(c.name) + " needs exactly one of 'win' and 'lose'");
  } else {
    c.win = win != nullptr;
    read_end_who(r, win != nullptr ? *win : *lose, c);
  }
  if (const Entry* when = m->get("when")) {
    c.condition = r.expr(*when);
  } else {
    sink_.error(name->where, "end condition " + quote_name(c.name) + " needs 'when'");
  }
  out_.end_conditions.push_back(std::move(c));
}

void Loader::read_property(const YamlReader& r, const YAML::Node& item) {
  const std::string context = named("property", peek_name(item));
  auto m = r.map(item, r.span(item), "each entry of 'properties'",
                 {"name", "always", "never", "reachable", "leads_to", "at"}, context);
  if (!m) return;
  auto name = entry_name(r, *m, "property");
  if (!name) return;
  RawProperty p;
  p.decl.name = name->value;
  p.decl.where = name->where;
  int kinds = 0;
  for (const Entry& e : m->entries()) {
    if (e.key == "always" || e.key == "never" || e.key == "reachable") {
      ++kinds;
      p.decl.kind = e.key == "always"  ? Property::Kind::always
                    : e.key == "never" ? Property::Kind::never
                                       : Property::Kind::reachable;
      p.decl.expr = r.expr(e);
    } else if (e.key == "leads_to") {
      ++kinds;
      p.decl.kind = Property::Kind::leads_to;
      auto lm = r.map(e, {"from", "to"}, "'leads_to'");
      if (!lm) continue;
      const Entry* from = lm->get("from");
      const Entry* to = lm->get("to");
      if (from == nullptr || to == nullptr) {
        sink_.error(e.key_where, "'leads_to' needs 'from' and 'to'");
        continue;
      }
      p.decl.expr = r.expr(*from);
      p.decl.to = r.expr(*to);
    } else if (e.key == "at") {
      if (auto items = r.list(e, true)) {
        for (const auto& at : *items) {
          if (auto text = r.string(at, r.span(at), "an 'at' entry")) p.at.push_back(*text);
        }
      }
    }
  }
  if (kinds != 1) {
    sink_.error(name->where,
                "property " + quote_name(p.decl.name) +
                    " needs exactly one of 'always', 'never', 'reachable' and 'leads_to'");
  }
  out_.properties.push_back(std::move(p));
}

void Loader::read_trace(const YamlReader& r, const YAML::Node& item) {
  auto m = r.map(item, r.span(item), "each entry of 'trace'", {"seed", "at", "abstracted"},
                 "trace entry");
  if (!m) return;
  RawTrace t;
  t.decl.where = m->where;
  if (const Entry* seed = m->get("seed")) {
    if (auto text = r.string(*seed)) t.decl.seed = text->value;
  } else {
    sink_.error(m->where, "a trace entry needs a 'seed'");
  }
  const Entry* at = m->get("at");
  const Entry* abstracted = m->get("abstracted");
  if ((at == nullptr) == (abstracted == nullptr)) {
    sink_.error(m->where, "a trace entry needs exactly one of 'at' and 'abstracted'");
  } else if (at != nullptr) {
    if (auto text = r.string(*at)) {
      t.decl.at = text->value;
      t.at_where = text->where;
    }
  } else if (auto text = r.string(*abstracted)) {
    t.decl.abstracted = text->value;
  }
  out_.trace.push_back(std::move(t));
}

// `functions: {NAME: {params: {p: player}, returns: int, expr: "..."}}` and
// `macros: {NAME: {params: {...}, do: "..."}}`, or `NAME: "..."` for a macro
// without parameters. Types stay names here: an enum may be declared in an
// include read later, so the checker resolves them.
void Loader::read_callables(const YamlReader& r, const Entry& e, bool macro) {
  const std::string what = macro ? "macro" : "function";
  auto m = r.map(e, {}, macro ? "'macros'" : "'functions'");
  if (!m) return;
  for (const Entry& fe : m->entries()) {
    auto name = r.key_identifier(fe, what);
    if (!name) continue;
    RawCallable c;
    c.name = *name;
    c.macro = macro;
    if (macro && fe.value.IsScalar()) {
      c.body = r.stmts(fe);
      if (c.body) out_.callables.push_back(std::move(c));
      continue;
    }
    auto fm = macro
                  ? r.map(fe, {"params", "do"}, what + " " + quote_name(name->value))
                  : r.map(fe, {"params", "returns", "expr"}, what + " " + quote_name(name->value));
    if (!fm) continue;
    if (const Entry* pe = fm->get("params")) {
      if (auto pm = r.map(*pe, {}, "'params' of " + what + " " + quote_name(name->value))) {
        for (const Entry& p : pm->entries()) {
          auto pname = r.key_identifier(p, "parameter");
          auto ptype = r.identifier(p.value, r.span(p), "a parameter type");
          if (pname && ptype) c.params.emplace_back(*pname, *ptype);
        }
      }
    }
    if (macro) {
      const Entry* body = fm->get("do");
      if (body == nullptr) {
        sink_.error(name->where, "macro " + quote_name(name->value) + " needs 'do'");
        continue;
      }
      c.body = r.stmts(*body);
      if (!c.body) continue;
    } else {
      const Entry* returns = fm->get("returns");
      const Entry* expr = fm->get("expr");
      if (returns == nullptr || expr == nullptr) {
        sink_.error(name->where, "function " + quote_name(name->value) + " needs " +
                                     (returns == nullptr ? "'returns'" : "'expr'"));
        continue;
      }
      c.returns = r.identifier(*returns);
      c.expr = r.expr(*expr);
      if (!c.returns || !c.expr) continue;
    }
    out_.callables.push_back(std::move(c));
  }
}

}  // namespace loophole::model::detail
