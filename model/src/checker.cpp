// Ruleset -> Game: resolves every declaration-level name and folds every
// number, then types every expression and statement. It runs in passes so
// that each pass only needs what the earlier ones settled: (0) the scope
// (player count, params with their overrides); (1) every declaration with
// its name and shape, so any name can be looked up; (2) constants (copies,
// array sizes, ranges, initial values), folded by an ExprChecker in constant
// mode; (3) references between declarations (windows, speeds, events,
// kinds played); (4) expressions and statements, each in its context; and
// finally the slot layout. Every pass reports all it finds and goes on.
#include "checker.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "checker_support.hpp"
#include "ruleset.hpp"

namespace loophole::model {

namespace {

constexpr int k_max_players = max_players;
constexpr int k_max_stack = 64;
constexpr int k_max_target_values = 1024;  // |bound| of an int target's range
constexpr std::int64_t k_max_target_tuples = 4096;
constexpr int k_max_turns = 1000;
constexpr int k_max_speed = 1000;
constexpr int k_max_copies = 1000;
constexpr int k_max_capacity = 1000000;
constexpr int k_max_array = 256;

std::string range_text(std::optional<std::int64_t> lo, std::optional<std::int64_t> hi) {
  if (lo && hi) return "out of range " + std::to_string(*lo) + ".." + std::to_string(*hi);
  if (lo) return "below the minimum " + std::to_string(*lo);
  return "above the maximum " + std::to_string(*hi);
}

bool outside(std::int64_t v, std::optional<std::int64_t> lo, std::optional<std::int64_t> hi) {
  return (lo && v < *lo) || (hi && v > *hi);
}

std::string speeds_text(const std::vector<int>& speeds) {
  std::string out;
  for (std::size_t i = 0; i < speeds.size(); ++i)
    out += (i == 0 ? "" : ", ") + std::to_string(speeds[i]);
  return out;
}

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

class DeclChecker {
 public:
  DeclChecker(Ruleset& rules, const LoadOptions& options, DiagnosticSink& sink)
      : rules_(rules), options_(options), sink_(sink) {}

  std::optional<Game> run() {
    game_.name = rules_.name;
    game_.file = rules_.file;
    game_.where = rules_.turn_where.value_or(rules_.start);
    check_players();
    check_params();
    declare_enums();
    declare_kinds();
    declare_zones();
    declare_vars();
    declare_turn();
    declare_events();
    declare_windows();
    declare_actions();
    declare_triggers();
    declare_end_and_properties();

    ExprChecker checker(game_, sink_, tag_where_);
    checker.declare_callables(rules_.callables);
    fold_scope(checker);
    fold_kinds(checker);
    fold_vars(checker);
    fold_zones(checker);
    fold_events(checker);
    fold_targets(checker);

    resolve_windows();
    resolve_steps();
    resolve_actions();
    resolve_triggers();
    resolve_properties();
    resolve_trace();

    checker.check_callables();
    check_bodies(checker);
    game_.binder_slots = checker.binder_slots();
    lay_out_slots(game_, sink_, owner_init_);
    return std::move(game_);
  }

 private:
  // ---- helpers ---------------------------------------------------------------

  void duplicate(std::string_view category, const std::string& name, const SourceSpan& where,
                 const SourceSpan& first) {
    Diagnostic& d =
        sink_.error(where, "duplicate " + std::string(category) + " " + quote_name(name));
    DiagnosticSink::note(d, first, quote_name(name) + " first defined here");
  }

  // Reports a second definition of a name within one category; true if new.
  bool first_of(std::map<std::string, SourceSpan>& seen, std::string_view category,
                const std::string& name, const SourceSpan& where) {
    auto [it, inserted] = seen.emplace(name, where);
    if (!inserted) duplicate(category, name, where, it->second);
    return inserted;
  }

  void not_reserved(std::string_view category, const std::string& name, const SourceSpan& where) {
    if (detail::is_reserved(name)) {
      sink_.error(
          where, quote_name(name) + " is a built-in name and cannot name " + std::string(category));
    }
  }

  // "unknown <what> 'x'" with a did-you-mean note naming where the suggestion is.
  void unknown(const SourceSpan& where, const std::string& what, const std::string& name,
               const std::vector<std::pair<std::string, SourceSpan>>& candidates) {
    Diagnostic& d = sink_.error(where, "unknown " + what + " " + quote_name(name));
    std::vector<std::string> names;
    for (const auto& c : candidates) names.push_back(c.first);
    const std::string suggestion = suggest_name(name, names);
    if (suggestion.empty()) return;
    for (const auto& c : candidates) {
      if (c.first != suggestion) continue;
      std::string message = "did you mean " + quote_name(suggestion) + "?";
      if (c.second.known()) message += " (declared at " + format_span(c.second) + ")";
      DiagnosticSink::note(d, SourceSpan{}, message);
      return;
    }
  }

  template <typename T, typename F>
  static std::vector<std::pair<std::string, SourceSpan>> names_of(const std::vector<T>& items,
                                                                  F get) {
    std::vector<std::pair<std::string, SourceSpan>> out;
    for (const T& item : items) out.emplace_back(get(item));
    return out;
  }

  [[nodiscard]] std::vector<std::pair<std::string, SourceSpan>> window_names() const {
    return names_of(game_.windows, [](const Window& w) { return std::pair{w.name, w.where}; });
  }
  [[nodiscard]] std::vector<std::pair<std::string, SourceSpan>> phase_names() const {
    return names_of(game_.phases, [](const Phase& p) { return std::pair{p.name, p.where}; });
  }

  [[nodiscard]] int find_phase(const std::string& name) const {
    for (std::size_t i = 0; i < game_.phases.size(); ++i) {
      if (game_.phases[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }

  // "phase" or "phase.step" written at `where`: sets phase (and step) or
  // reports. `at` is the whole text; positions inside it are shifted.
  bool resolve_phase_step(const std::string& at, const SourceSpan& where, int& phase, int& step) {
    step = -1;
    const auto dot = at.find('.');
    const std::string phase_name = at.substr(0, dot);
    phase = find_phase(phase_name);
    if (phase < 0) {
      unknown(where.shifted(0, static_cast<std::uint32_t>(phase_name.size())), "phase", phase_name,
              phase_names());
      return false;
    }
    if (dot == std::string::npos) return true;
    const std::string step_name = at.substr(dot + 1);
    const Phase& p = game_.phases[static_cast<std::size_t>(phase)];
    std::vector<std::pair<std::string, SourceSpan>> steps;
    for (int s : p.steps) {
      const Step& st = game_.steps[static_cast<std::size_t>(s)];
      steps.emplace_back(st.name, st.where);
      if (st.name == step_name) step = s;
    }
    if (step < 0) {
      unknown(where.shifted(static_cast<std::uint32_t>(dot + 1),
                            static_cast<std::uint32_t>(step_name.size())),
              "step", step_name, steps);
      return false;
    }
    return true;
  }

  // ---- pass 0: the scope -------------------------------------------------------

  void check_players() {
    RawPlayers p;
    p.where = rules_.start;
    p.def_where = rules_.start;
    if (rules_.players) p = *rules_.players;
    bool ok = true;
    for (std::int64_t n : {p.def, p.min, p.max}) {
      if (n < 1 || n > k_max_players) {
        sink_.error(p.def_where, "player count " + std::to_string(n) + " is out of range 1.." +
                                     std::to_string(k_max_players));
        ok = false;
        break;
      }
    }
    if (ok && p.min > p.max) {
      sink_.error(p.where, "'players' min " + std::to_string(p.min) + " is greater than max " +
                               std::to_string(p.max));
      ok = false;
    } else if (ok && (p.def < p.min || p.def > p.max)) {
      sink_.error(p.def_where, "default player count " + std::to_string(p.def) +
                                   " is out of range " + std::to_string(p.min) + ".." +
                                   std::to_string(p.max));
      ok = false;
    }
    if (!ok) p.def = p.min = p.max = 2;
    game_.players = static_cast<int>(p.def);
    game_.min_players = static_cast<int>(p.min);
    game_.max_players = static_cast<int>(p.max);
    if (options_.players) {
      const int n = *options_.players;
      if (n < p.min || n > p.max) {
        sink_.error(p.where,
                    "player count " + std::to_string(n) +
                        " (from --players) is not supported: the game is for " +
                        (p.min == p.max ? std::to_string(p.min)
                                        : std::to_string(p.min) + ".." + std::to_string(p.max)) +
                        " players");
      } else {
        game_.players = n;
      }
    }
  }

  void check_params() {
    std::map<std::string, SourceSpan> seen;
    for (Param& p : rules_.params) {
      first_of(seen, "param", p.name, p.where);
      not_reserved("a param", p.name, p.where);
      if (p.min && p.max && *p.min > *p.max) {
        sink_.error(p.where, "param " + quote_name(p.name) + " has min " + std::to_string(*p.min) +
                                 " greater than max " + std::to_string(*p.max));
      } else if (outside(p.def, p.min, p.max)) {
        sink_.error(p.where, "default " + std::to_string(p.def) + " of param " +
                                 quote_name(p.name) + " is " + range_text(p.min, p.max));
      }
      p.value = p.def;
      game_.params.push_back(p);
    }
    for (const auto& override_entry : options_.param_overrides) {
      const std::string& name = override_entry.first;
      const std::int64_t value = override_entry.second;
      const auto it = std::find_if(game_.params.begin(), game_.params.end(),
                                   [&](const Param& p) { return p.name == name; });
      // An override from a project file is reported where it is written.
      const auto origin = options_.param_origins.find(name);
      const bool from_file = origin != options_.param_origins.end();
      const std::string from = from_file ? "" : " (from --param)";
      if (it == game_.params.end()) {
        std::vector<std::string> names;
        for (const Param& p : game_.params) names.push_back(p.name);
        std::string message = "unknown param " + quote_name(name) +
                              (from_file ? " in " + quote_name(rules_.file) : from);
        const std::string suggestion = suggest_name(name, names);
        if (!suggestion.empty()) {
          message += "; did you mean " + quote_name(suggestion) + "?";
        } else if (names.empty()) {
          message += "; the ruleset declares no params";
        } else {
          message += "; valid params are ";
          for (std::size_t i = 0; i < names.size(); ++i) {
            message += (i == 0 ? "" : ", ") + quote_name(names[i]);
          }
        }
        sink_.error(from_file ? origin->second : rules_.params_where.value_or(rules_.start),
                    message);
        continue;
      }
      if (outside(value, it->min, it->max)) {
        Diagnostic& d =
            sink_.error(from_file ? origin->second : it->where,
                        "value " + std::to_string(value) + " for param " + quote_name(name) + from +
                            " is " + range_text(it->min, it->max));
        if (from_file) DiagnosticSink::note(d, it->where, "declared here");
        continue;
      }
      it->value = value;
    }
  }

  // ---- pass 1: declarations ----------------------------------------------------

  void declare_enums() {
    std::map<std::string, SourceSpan> seen;
    for (EnumDecl& e : rules_.enums) {
      first_of(seen, "enum", e.name, e.where);
      not_reserved("an enum", e.name, e.where);
      std::map<std::string, SourceSpan> values;
      for (std::size_t i = 0; i < e.values.size(); ++i) {
        const SourceSpan& w = i < e.value_where.size() ? e.value_where[i] : e.where;
        auto [it, inserted] = values.emplace(e.values[i], w);
        if (!inserted) {
          Diagnostic& d = sink_.error(
              w, "duplicate value " + quote_name(e.values[i]) + " in enum " + quote_name(e.name));
          DiagnosticSink::note(d, it->second, quote_name(e.values[i]) + " first defined here");
          continue;
        }
        not_reserved("an enum value", e.values[i], w);
      }
      game_.enums.push_back(e);
    }
  }

  void declare_kinds() {
    std::map<std::string, SourceSpan> seen;
    for (RawKind& k : rules_.kinds) {
      first_of(seen, "kind", k.decl.name, k.decl.where);
      not_reserved("a kind", k.decl.name, k.decl.where);
      for (const Text& tag : k.tags) {
        auto it = std::find(game_.tags.begin(), game_.tags.end(), tag.value);
        int id = static_cast<int>(it - game_.tags.begin());
        if (it == game_.tags.end()) {
          game_.tags.push_back(tag.value);
          tag_where_.push_back(tag.where);
        }
        if (std::find(k.decl.tags.begin(), k.decl.tags.end(), id) == k.decl.tags.end())
          k.decl.tags.push_back(id);
      }
      game_.kinds.push_back(k.decl);
    }
  }

  void declare_zones() {
    std::map<std::string, SourceSpan> seen;
    const SourceSpan* all_where = nullptr;
    for (RawZone& z : rules_.zones) {
      first_of(seen, "zone", z.decl.name, z.decl.where);
      not_reserved("a zone", z.decl.name, z.decl.where);
      if (z.decl.init_all) {
        if (all_where != nullptr) {
          Diagnostic& d = sink_.error(z.init_where, "only one zone may have 'init: all'");
          DiagnosticSink::note(d, *all_where, "'init: all' first given here");
        } else {
          all_where = &z.init_where;
        }
      }
      const int id = static_cast<int>(game_.zones.size());
      if (z.decl.name == "deck" && game_.deck_zone < 0) game_.deck_zone = id;
      if (z.decl.name == "hand" && game_.hand_zone < 0) game_.hand_zone = id;
      if (z.decl.name == "discard" && game_.discard_zone < 0) game_.discard_zone = id;
      game_.zones.push_back(z.decl);
    }
  }

  std::optional<Type> field_type(const RawField& f, const std::string& owner) {
    if (!f.type) {
      sink_.error(f.where, owner + " needs a 'type'");
      return std::nullopt;
    }
    if (f.type->value == "int") return Type::int_();
    if (f.type->value == "bool") return Type::bool_();
    if (f.type->value == "player") return Type::player();
    if (f.type->value == "kind") return Type::kind();
    std::vector<std::pair<std::string, SourceSpan>> candidates = {
        {"int", {}}, {"bool", {}}, {"player", {}}, {"kind", {}}};
    for (std::size_t i = 0; i < game_.enums.size(); ++i) {
      if (game_.enums[i].name == f.type->value) return Type::enum_of(static_cast<int>(i));
      candidates.emplace_back(game_.enums[i].name, game_.enums[i].where);
    }
    unknown(f.type->where, "type", f.type->value, candidates);
    return std::nullopt;
  }

  void declare_vars() {
    std::map<std::string, SourceSpan> seen;
    for (RawVar& v : rules_.vars) {
      first_of(seen, "variable", v.decl.name, v.decl.where);
      not_reserved("a variable", v.decl.name, v.decl.where);
      v.decl.fields.clear();
      std::map<std::string, SourceSpan> field_names;
      for (const RawField& f : v.fields) {
        Field field;
        field.name = f.name.value;
        field.where = f.where;
        if (v.decl.is_record) first_of(field_names, "field", field.name, f.where);
        const std::string owner = v.decl.is_record ? "field " + quote_name(field.name) +
                                                         " of variable " + quote_name(v.decl.name)
                                                   : "variable " + quote_name(v.decl.name);
        if (auto t = field_type(f, owner)) field.type = *t;
        v.decl.fields.push_back(field);
      }
      game_.vars.push_back(v.decl);
    }
  }

  void declare_turn() {
    std::map<std::string, SourceSpan> seen;
    for (RawPhase& rp : rules_.phases) {
      first_of(seen, "phase", rp.decl.name, rp.decl.where);
      const int phase = static_cast<int>(game_.phases.size());
      Phase p;
      p.name = rp.decl.name;
      p.where = rp.decl.where;
      std::map<std::string, SourceSpan> steps;
      for (RawStep& rs : rp.steps) {
        first_of(steps, "step", rs.decl.name, rs.decl.where);
        rs.decl.phase = phase;
        rs.decl.index = static_cast<int>(p.steps.size());
        if (game_.steps.size() == static_cast<std::size_t>(max_steps)) {
          sink_.error(rs.decl.where, "a game has at most " + std::to_string(max_steps) +
                                         " steps; this is one more");
        }
        p.steps.push_back(static_cast<int>(game_.steps.size()));
        game_.steps.push_back(std::move(rs.decl));
        step_windows_.push_back(rs.window);
      }
      game_.phases.push_back(std::move(p));
    }
  }

  void declare_events() {
    const auto add = [this](EventDecl::Kind kind, std::string name, int phase, int step,
                            SourceSpan where) {
      game_.events.push_back(EventDecl{kind, std::move(name), phase, step, std::move(where), {}});
      return static_cast<int>(game_.events.size()) - 1;
    };
    add(EventDecl::Kind::begin_turn, "begin_turn", -1, -1, game_.where);
    add(EventDecl::Kind::end_turn, "end_turn", -1, -1, game_.where);
    for (std::size_t p = 0; p < game_.phases.size(); ++p) {
      Phase& phase = game_.phases[p];
      const int pi = static_cast<int>(p);
      phase.begin_event =
          add(EventDecl::Kind::begin_phase, "begin_phase(" + phase.name + ")", pi, -1, phase.where);
      phase.end_event =
          add(EventDecl::Kind::end_phase, "end_phase(" + phase.name + ")", pi, -1, phase.where);
      for (int s : phase.steps) {
        Step& step = game_.steps[static_cast<std::size_t>(s)];
        const std::string name = phase.name + "." + step.name;
        step.begin_event =
            add(EventDecl::Kind::begin_step, "begin_step(" + name + ")", pi, s, step.where);
        step.end_event =
            add(EventDecl::Kind::end_step, "end_step(" + name + ")", pi, s, step.where);
      }
    }
    std::map<std::string, SourceSpan> seen;
    for (RawEvent& re : rules_.events) {
      const Text& e = re.name;
      if (e.value == "begin_turn" || e.value == "end_turn") {
        sink_.error(e.where, quote_name(e.value) + " is a built-in event");
        continue;
      }
      if (!first_of(seen, "event", e.value, e.where)) continue;
      not_reserved("an event", e.value, e.where);
      const int id = add(EventDecl::Kind::custom, e.value, -1, -1, e.where);
      if (!re.args.empty()) event_args_.emplace_back(id, &re);
    }
  }

  // The typed arguments of custom events: a type word (player, kind, bool,
  // an enum's name) or an int with a constant range.
  void fold_events(ExprChecker& checker) {
    for (auto& [id, re] : event_args_) {
      EventDecl& ev = game_.events[static_cast<std::size_t>(id)];
      std::map<std::string, SourceSpan> seen;
      for (RawField& ra : re->args) {
        const std::string what =
            "argument " + quote_name(ra.name.value) + " of event " + quote_name(ev.name);
        first_of(seen, "argument of event " + quote_name(ev.name), ra.name.value, ra.where);
        EventArg a{ra.name.value, {}, 0, 0, ra.where};
        if (!ra.type) {
          sink_.error(ra.where, what + " needs a type");
          continue;
        }
        const std::string& type = ra.type->value;
        if (type != "int" && ra.range_where.known()) {
          sink_.error(ra.range_where, "'range' only applies to int arguments");
          continue;
        }
        if (type == "int") {
          if (!ra.lo || !ra.hi) {
            if (!ra.range_where.known()) sink_.error(ra.where, "int " + what + " needs a 'range'");
            continue;
          }
          auto lo = bounded(checker, ra.lo, "range bound", " of " + what, INT32_MIN, INT32_MAX);
          auto hi = bounded(checker, ra.hi, "range bound", " of " + what, INT32_MIN, INT32_MAX);
          if (!lo || !hi) continue;
          if (*lo > *hi) {
            sink_.error(ra.range_where, "range [" + std::to_string(*lo) + ", " +
                                            std::to_string(*hi) + "] of " + what + " is empty");
            continue;
          }
          if (*hi - *lo >= (std::int64_t{1} << 31)) {
            sink_.error(ra.range_where,
                        "range of " + what + " is too wide (more than 2^31 values)");
            continue;
          }
          a.type = Type::int_();
          a.lo = static_cast<std::int32_t>(*lo);
          a.hi = static_cast<std::int32_t>(*hi);
        } else if (type == "bool") {
          a.type = Type::bool_();
          a.hi = 1;
        } else if (type == "player") {
          a.type = Type::player();
          a.hi = game_.players - 1;
        } else if (type == "kind" && !game_.kinds.empty()) {
          a.type = Type::kind();
          a.hi = static_cast<std::int32_t>(game_.kinds.size()) - 1;
        } else {
          std::vector<std::pair<std::string, SourceSpan>> candidates = {
              {"int", {}}, {"bool", {}}, {"player", {}}};
          if (!game_.kinds.empty()) candidates.emplace_back("kind", SourceSpan{});
          for (std::size_t i = 0; i < game_.enums.size(); ++i) {
            if (game_.enums[i].name == type) {
              a.type = Type::enum_of(static_cast<int>(i));
              a.hi = static_cast<std::int32_t>(game_.enums[i].values.size()) - 1;
            }
            candidates.emplace_back(game_.enums[i].name, game_.enums[i].where);
          }
          if (a.type.base == BaseType::error) {
            unknown(ra.type->where, "type", type, candidates);
            continue;
          }
        }
        ev.args.push_back(std::move(a));
      }
      if (ev.args.size() != re->args.size()) ev.args.clear();
    }
  }

  // `targets:` of each action: their types and values (an `entry` is a
  // stack position 0..scope.stack-1, an int).
  void fold_targets(ExprChecker& checker) {
    for (std::size_t i = 0; i < rules_.actions.size(); ++i) {
      Action& act = game_.actions[i];
      std::map<std::string, SourceSpan> seen;
      for (RawTarget& rt : rules_.actions[i].targets) {
        RawField& ra = rt.field;
        const std::string what =
            "target " + quote_name(ra.name.value) + " of action " + quote_name(act.name);
        if (!first_of(seen, "target of action " + quote_name(act.name), ra.name.value, ra.where))
          continue;
        not_reserved("a target", ra.name.value, ra.where);
        ActionTarget t;
        t.name = ra.name.value;
        t.at = ra.where;
        t.where = std::move(rt.where);
        if (!ra.type) {
          sink_.error(ra.where, what + " needs a type");
          continue;
        }
        const std::string& type = ra.type->value;
        if (type != "int" && ra.range_where.known()) {
          sink_.error(ra.range_where, "'range' only applies to int targets");
          continue;
        }
        if (type == "int") {
          if (!ra.lo || !ra.hi) {
            if (!ra.range_where.known()) sink_.error(ra.where, "int " + what + " needs a 'range'");
            continue;
          }
          auto lo = bounded(checker, ra.lo, "range bound", " of " + what, -k_max_target_values,
                            k_max_target_values);
          auto hi = bounded(checker, ra.hi, "range bound", " of " + what, -k_max_target_values,
                            k_max_target_values);
          if (!lo || !hi) continue;
          if (*lo > *hi) {
            sink_.error(ra.range_where, "range [" + std::to_string(*lo) + ", " +
                                            std::to_string(*hi) + "] of " + what + " is empty");
            continue;
          }
          t.type = Type::int_();
          t.lo = static_cast<std::int32_t>(*lo);
          t.hi = static_cast<std::int32_t>(*hi);
        } else if (type == "entry") {
          t.type = Type::int_();
          t.entry = true;
          t.hi = std::max(0, game_.scope.stack - 1);
        } else if (type == "player") {
          t.type = Type::player();
          t.hi = game_.players - 1;
        } else if (type == "kind" && !game_.kinds.empty()) {
          t.type = Type::kind();
          t.hi = static_cast<std::int32_t>(game_.kinds.size()) - 1;
        } else {
          std::vector<std::pair<std::string, SourceSpan>> candidates = {
              {"entry", {}}, {"player", {}}, {"int", {}}};
          if (!game_.kinds.empty()) candidates.emplace_back("kind", SourceSpan{});
          for (std::size_t e = 0; e < game_.enums.size(); ++e) {
            if (game_.enums[e].name == type) {
              t.type = Type::enum_of(static_cast<int>(e));
              t.hi = static_cast<std::int32_t>(game_.enums[e].values.size()) - 1;
            }
            candidates.emplace_back(game_.enums[e].name, game_.enums[e].where);
          }
          if (t.type.base == BaseType::error) {
            unknown(ra.type->where, "target type", type, candidates);
            continue;
          }
        }
        act.targets.push_back(std::move(t));
      }
    }
  }

  void declare_windows() {
    std::map<std::string, SourceSpan> seen;
    for (RawWindow& w : rules_.windows) {
      first_of(seen, "window", w.decl.name, w.decl.where);
      game_.windows.push_back(w.decl);
    }
  }

  void declare_actions() {
    std::map<std::string, SourceSpan> seen;
    for (RawAction& a : rules_.actions) {
      first_of(seen, "action", a.decl.name, a.decl.where);
      not_reserved("an action", a.decl.name, a.decl.where);
      game_.actions.push_back(std::move(a.decl));
    }
  }

  void declare_triggers() {
    std::map<std::string, SourceSpan> seen;
    for (RawTrigger& t : rules_.triggers) {
      first_of(seen, "trigger", t.decl.name, t.decl.where);
      game_.triggers.push_back(std::move(t.decl));
    }
  }

  void declare_end_and_properties() {
    std::map<std::string, SourceSpan> seen;
    for (EndCondition& c : rules_.end_conditions) {
      first_of(seen, "end condition", c.name, c.where);
      game_.end_conditions.push_back(std::move(c));
    }
    seen.clear();
    for (RawProperty& p : rules_.properties) {
      first_of(seen, "property", p.decl.name, p.decl.where);
      game_.properties.push_back(std::move(p.decl));
    }
  }

  // ---- pass 2: constants ---------------------------------------------------------

  // A constant within lo..hi; `noun` and `owner` make the message:
  // "array size 100000 of 'field' is out of range 1..256".
  std::optional<std::int64_t> bounded(ExprChecker& checker, ExprPtr& e, const std::string& noun,
                                      const std::string& owner, std::int64_t lo, std::int64_t hi) {
    auto v = checker.constant(e, Type::int_(), noun + owner);
    if (!v) return std::nullopt;
    if (*v < lo || *v > hi) {
      sink_.error(e->where, noun + " " + std::to_string(*v) + owner + " is out of range " +
                                std::to_string(lo) + ".." + std::to_string(hi));
      return std::nullopt;
    }
    return v;
  }

  void fold_scope(ExprChecker& checker) {
    if (rules_.scope_stack) {
      if (auto v = bounded(checker, rules_.scope_stack, "'scope.stack'", "", 1, k_max_stack)) {
        game_.scope.stack = static_cast<int>(*v);
      }
    }
    if (rules_.scope_turns) {
      if (auto v = bounded(checker, rules_.scope_turns, "'scope.turns'", "", 1, k_max_turns)) {
        game_.scope.turns = static_cast<int>(*v);
      }
    }
    std::set<int> speeds;
    for (const RawNumber& s : rules_.speeds) {
      if (s.value < 1 || s.value > k_max_speed) {
        sink_.error(s.where, "speed " + std::to_string(s.value) + " is out of range 1.." +
                                 std::to_string(k_max_speed));
        continue;
      }
      speeds.insert(static_cast<int>(s.value));
    }
    game_.speeds.assign(speeds.begin(), speeds.end());
  }

  void fold_kinds(ExprChecker& checker) {
    for (std::size_t i = 0; i < rules_.kinds.size(); ++i) {
      RawKind& k = rules_.kinds[i];
      if (!k.copies) continue;
      if (auto v = bounded(checker, k.copies, "copies", " of kind " + quote_name(k.decl.name), 0,
                           k_max_copies)) {
        game_.kinds[i].copies = static_cast<std::int32_t>(*v);
      }
    }
  }

  void fold_vars(ExprChecker& checker) {
    for (std::size_t i = 0; i < rules_.vars.size(); ++i) {
      RawVar& rv = rules_.vars[i];
      VarDecl& v = game_.vars[i];
      if (rv.array) {
        if (auto n = bounded(checker, rv.array, "array size", " of " + quote_name(v.name), 1,
                             k_max_array)) {
          v.array = static_cast<int>(*n);
        } else {
          v.array = 1;
        }
      }
      for (std::size_t f = 0; f < rv.fields.size() && f < v.fields.size(); ++f) {
        fold_field(checker, rv.fields[f], v.fields[f], v);
      }
    }
  }

  void fold_field(ExprChecker& checker, RawField& rf, Field& f, const VarDecl& v) {
    const std::string name = v.is_record ? v.name + "." + f.name : v.name;
    const BaseType base = f.type.base;
    if (base == BaseType::int_) {
      if (!rf.lo || !rf.hi) {
        if (!rf.range_where.known())
          sink_.error(rf.where, "int variable " + quote_name(name) + " needs a 'range'");
        f.type = Type{};
        return;
      }
      auto lo = checker.constant(rf.lo, Type::int_(), "a range bound");
      auto hi = checker.constant(rf.hi, Type::int_(), "a range bound");
      if (!lo || !hi) {
        f.type = Type{};
        return;
      }
      for (auto [value, e] : {std::pair{*lo, rf.lo.get()}, std::pair{*hi, rf.hi.get()}}) {
        if (value < INT32_MIN || value > INT32_MAX) {
          sink_.error(e->where,
                      "range bound " + std::to_string(value) + " does not fit in 32 bits");
          f.type = Type{};
          return;
        }
      }
      if (*lo > *hi) {
        sink_.error(rf.range_where, "range [" + std::to_string(*lo) + ", " + std::to_string(*hi) +
                                        "] of " + quote_name(name) + " is empty");
        f.type = Type{};
        return;
      }
      if (*hi - *lo >= (std::int64_t{1} << 31)) {
        sink_.error(rf.range_where, "range [" + std::to_string(*lo) + ", " + std::to_string(*hi) +
                                        "] of " + quote_name(name) +
                                        " is too wide (more than 2^31 values)");
        f.type = Type{};
        return;
      }
      f.lo = static_cast<std::int32_t>(*lo);
      f.hi = static_cast<std::int32_t>(*hi);
    } else if (base == BaseType::bool_ || base == BaseType::enum_) {
      if (rf.range_where.known()) {
        sink_.error(rf.range_where, "'range' only applies to int variables");
      }
      f.lo = 0;
      f.hi = base == BaseType::bool_
                 ? 1
                 : static_cast<std::int32_t>(
                       game_.enums[static_cast<std::size_t>(f.type.enum_id)].values.size()) -
                       1;
    } else if (base == BaseType::player || base == BaseType::kind) {
      // A player is its index (P1 = 0), a kind its id: the slot holds one
      // of them, so an assignment can never leave its range.
      if (rf.range_where.known()) {
        sink_.error(rf.range_where, "'range' only applies to int variables");
      }
      if (base == BaseType::kind && game_.kinds.empty()) {
        sink_.error(rf.type->where, "kind variable " + quote_name(name) +
                                        " needs at least one card kind in 'kinds'");
        f.type = Type{};
        return;
      }
      f.lo = 0;
      f.hi =
          static_cast<std::int32_t>(base == BaseType::player ? game_.players : game_.kinds.size()) -
          1;
    } else {
      return;  // type already reported
    }
    f.init = f.lo <= 0 && 0 <= f.hi ? 0 : f.lo;
    if (rf.init) {
      auto v0 = checker.constant(rf.init, f.type, "the initial value of " + quote_name(name));
      if (!v0) return;
      if (*v0 < f.lo || *v0 > f.hi) {
        sink_.error(rf.init->where, "initial value " + std::to_string(*v0) + " of " +
                                        quote_name(name) + " is out of range " +
                                        std::to_string(f.lo) + ".." + std::to_string(f.hi));
        return;
      }
      f.init = static_cast<std::int32_t>(*v0);
    }
  }

  void fold_zones(ExprChecker& checker) {
    owner_init_.assign(rules_.zones.size(), {});
    for (std::size_t i = 0; i < rules_.zones.size(); ++i) {
      RawZone& rz = rules_.zones[i];
      ZoneDecl& z = game_.zones[i];
      if (rz.capacity) {
        z.capacity_where = rz.capacity->where;
        if (auto v = bounded(checker, rz.capacity, "capacity", " of zone " + quote_name(z.name), 0,
                             k_max_capacity)) {
          z.capacity = static_cast<std::int32_t>(*v);
        }
      }
      fold_init_counts(checker, z, rz.init, z.init_counts, "");
      if (rz.owner_init.empty()) continue;
      if (!z.per_player) {
        sink_.error(rz.owner_init.front().first.where,
                    "zone " + quote_name(z.name) +
                        " is shared: its 'init' gives counts for the zone, not per player");
        continue;
      }
      // Owners not listed start with none of the zone's cards.
      auto& per_owner = owner_init_[i];
      per_owner.assign(static_cast<std::size_t>(game_.players), {});
      std::vector<bool> listed(per_owner.size(), false);
      for (auto& [owner, counts] : rz.owner_init) {
        const int n = detail::player_number(owner.value);
        if (n == 0 || n > game_.players) {
          sink_.error(owner.where, quote_name(owner.value) + " does not exist in a " +
                                       std::to_string(game_.players) + "-player game");
          continue;
        }
        const auto p = static_cast<std::size_t>(n - 1);
        if (listed[p]) {
          sink_.error(owner.where, quote_name(owner.value) + " is listed twice in 'init'");
          continue;
        }
        listed[p] = true;
        fold_init_counts(checker, z, counts, per_owner[p], " for " + owner.value);
      }
    }
  }

  // Folds `kind: count` entries of a zone's `init` into `out` (kind id -> count).
  void fold_init_counts(ExprChecker& checker, const ZoneDecl& z,
                        std::vector<std::pair<Text, ExprPtr>>& entries,
                        std::map<int, std::int32_t>& out, const std::string& owner) {
    const auto kinds = names_of(game_.kinds, [](const KindDecl& k) {
      return std::pair{k.name, k.where};
    });
    for (auto& init_entry : entries) {
      const Text& kind = init_entry.first;
      ExprPtr& count = init_entry.second;
      const auto it = std::find_if(game_.kinds.begin(), game_.kinds.end(),
                                   [&](const KindDecl& k) { return k.name == kind.value; });
      if (it == game_.kinds.end()) {
        unknown(kind.where, "kind", kind.value, kinds);
        continue;
      }
      const int id = static_cast<int>(it - game_.kinds.begin());
      if (out.count(id) != 0) {
        sink_.error(kind.where, "kind " + quote_name(kind.value) + " is listed twice in 'init'");
        continue;
      }
      if (!count) continue;
      const std::int64_t max = z.per_player ? it->copies : std::int64_t{it->copies} * game_.players;
      if (auto v = bounded(
              checker, count, "initial count",
              " of " + quote_name(kind.value) + " in zone " + quote_name(z.name) + owner, 0, max)) {
        out[id] = static_cast<std::int32_t>(*v);
      }
    }
  }

  // ---- pass 3: references ----------------------------------------------------------

  void resolve_windows() {
    for (std::size_t i = 0; i < rules_.windows.size(); ++i) {
      Window& w = game_.windows[i];
      w.roles.clear();
      for (RawRole& r : rules_.windows[i].roles) {
        RoleSpeeds rs = r.decl;
        for (auto [list, out] : {std::pair{&r.lead, &rs.lead}, std::pair{&r.answer, &rs.answer}}) {
          for (const RawNumber& n : *list) {
            if (rules_.speeds.empty() && !rules_.speeds_declared) {
              sink_.error(n.where, "window " + quote_name(w.name) +
                                       " lists speeds but the game declares no 'speeds'");
              break;
            }
            if (std::find(game_.speeds.begin(), game_.speeds.end(), n.value) ==
                game_.speeds.end()) {
              sink_.error(n.where, "speed " + std::to_string(n.value) +
                                       " is not one of the declared speeds " +
                                       speeds_text(game_.speeds));
              continue;
            }
            if (std::find(out->begin(), out->end(), n.value) == out->end())
              out->push_back(static_cast<int>(n.value));
          }
        }
        if (!rules_.speeds_declared) rs.lead = rs.answer = {0};
        w.roles.push_back(std::move(rs));
      }
    }
  }

  int find_window(const Text& name) {
    for (std::size_t i = 0; i < game_.windows.size(); ++i) {
      if (game_.windows[i].name == name.value) return static_cast<int>(i);
    }
    unknown(name.where, "window", name.value, window_names());
    return -1;
  }

  void resolve_steps() {
    for (std::size_t s = 0; s < game_.steps.size(); ++s) {
      if (step_windows_[s]) game_.steps[s].window = find_window(*step_windows_[s]);
    }
  }

  void resolve_actions() {
    const auto kinds = names_of(game_.kinds, [](const KindDecl& k) {
      return std::pair{k.name, k.where};
    });
    const auto zones = names_of(game_.zones, [](const ZoneDecl& z) {
      return std::pair{z.name, z.where};
    });
    for (std::size_t i = 0; i < rules_.actions.size(); ++i) {
      RawAction& ra = rules_.actions[i];
      Action& a = game_.actions[i];
      if (ra.speed) {
        if (!rules_.speeds_declared) {
          sink_.error(ra.speed->where, "action " + quote_name(a.name) +
                                           " has a speed but the game declares no 'speeds'");
        } else if (std::find(game_.speeds.begin(), game_.speeds.end(), ra.speed->value) ==
                   game_.speeds.end()) {
          sink_.error(ra.speed->where, "speed " + std::to_string(ra.speed->value) + " of action " +
                                           quote_name(a.name) +
                                           " is not one of the declared speeds " +
                                           speeds_text(game_.speeds));
        } else {
          a.speed = static_cast<int>(ra.speed->value);
        }
      } else if (rules_.speeds_declared) {
        sink_.error(a.where, "action " + quote_name(a.name) +
                                 " needs a 'speed' (the game declares speeds " +
                                 speeds_text(game_.speeds) + ")");
      }
      for (const Text& w : ra.in) {
        const int id = find_window(w);
        if (id >= 0 && std::find(a.windows.begin(), a.windows.end(), id) == a.windows.end())
          a.windows.push_back(id);
      }
      if (ra.play) {
        const auto it = std::find_if(game_.kinds.begin(), game_.kinds.end(),
                                     [&](const KindDecl& k) { return k.name == ra.play->value; });
        if (it == game_.kinds.end()) {
          unknown(ra.play->where, "kind", ra.play->value, kinds);
        } else {
          a.play_kind = static_cast<int>(it - game_.kinds.begin());
        }
        if (game_.hand_zone < 0) {
          sink_.error(ra.play->where,
                      "action " + quote_name(a.name) + " plays a card but there is no zone 'hand'");
        } else if (!game_.zones[static_cast<std::size_t>(game_.hand_zone)].per_player) {
          sink_.error(ra.play->where, "action " + quote_name(a.name) +
                                          " plays a card but zone 'hand' is not per player");
        }
        if (!ra.to) {
          if (game_.discard_zone < 0) {
            sink_.error(
                ra.play->where,
                "action " + quote_name(a.name) +
                    " plays a card but there is no zone 'discard'; declare one or set 'to'");
          } else {
            a.to_zone = game_.discard_zone;
          }
        }
      }
      if (ra.to) {
        const auto it = std::find_if(game_.zones.begin(), game_.zones.end(),
                                     [&](const ZoneDecl& z) { return z.name == ra.to->value; });
        if (it == game_.zones.end()) {
          unknown(ra.to->where, "zone", ra.to->value, zones);
        } else if (!ra.play) {
          sink_.error(ra.to->where, "'to' of action " + quote_name(a.name) +
                                        " needs 'play' (the card that moves)");
        } else {
          a.to_zone = static_cast<int>(it - game_.zones.begin());
        }
      }
      if (!a.targets.empty()) targets_on_stack(a);
    }
  }

  // Targets are chosen when the action goes on the stack and read when it
  // resolves: an action with targets must be answerable and usable only in
  // priority windows.
  void targets_on_stack(const Action& a) {
    const SourceSpan& at = a.targets.front().at;
    std::int64_t tuples = 1;
    for (const ActionTarget& t : a.targets) tuples *= std::int64_t{t.hi} - t.lo + 1;
    if (tuples > k_max_target_tuples) {
      sink_.error(at, "action " + quote_name(a.name) + " has " + std::to_string(tuples) +
                          " combinations of targets, more than " +
                          std::to_string(k_max_target_tuples));
      return;
    }
    if (!a.answerable) {
      sink_.error(at, "action " + quote_name(a.name) +
                          " has targets but is not answerable: targets are chosen when an "
                          "action goes on the stack");
      return;
    }
    for (std::size_t w = 0; w < game_.windows.size(); ++w) {
      const bool usable = a.windows.empty() || std::find(a.windows.begin(), a.windows.end(),
                                                         static_cast<int>(w)) != a.windows.end();
      if (usable && game_.windows[w].protocol != Protocol::priority) {
        sink_.error(at, "action " + quote_name(a.name) +
                            " has targets but can be taken in window " +
                            quote_name(game_.windows[w].name) +
                            ", which has no stack (targets need a priority window)");
        return;
      }
    }
  }

  void resolve_triggers() {
    std::vector<std::pair<std::string, SourceSpan>> events;
    for (const EventDecl& e : game_.events) {
      if (e.kind == EventDecl::Kind::custom || e.kind == EventDecl::Kind::begin_turn ||
          e.kind == EventDecl::Kind::end_turn) {
        events.emplace_back(e.name, e.kind == EventDecl::Kind::custom ? e.where : SourceSpan{});
      }
    }
    trigger_on_where_.assign(rules_.triggers.size(), SourceSpan{});
    for (std::size_t i = 0; i < rules_.triggers.size(); ++i) {
      const Text& on = rules_.triggers[i].on;
      if (on.value.empty() && !on.where.known()) continue;  // missing, reported by the loader
      trigger_on_where_[i] = on.where;
      game_.triggers[i].event = resolve_event(on, events, game_.triggers[i].params);
    }
  }

  // `on: damaged(p, n)`: a custom event binding its arguments, one name each.
  int bind_event_args(const Text& on, const EventDecl& ev, int id, std::size_t open,
                      std::vector<std::string>& params) {
    const std::string& text = on.value;
    const auto close = text.rfind(')');
    if (close == std::string::npos || close < open || !trim(text.substr(close + 1)).empty()) {
      sink_.error(on.where, "malformed event " + quote_name(text) + "; expected e.g. " +
                                quote_name(ev.name + "(p)"));
      return -1;
    }
    std::vector<std::string> names;
    std::size_t from = open + 1;
    const std::string inner = trim(text.substr(from, close - from));
    while (!inner.empty()) {
      const auto comma = std::min(text.find(',', from), close);
      std::string name = text.substr(from, comma - from);
      const auto lead = name.find_first_not_of(" \t");
      const auto at = static_cast<std::uint32_t>(from + (lead == std::string::npos ? 0 : lead));
      name = trim(name);
      const SourceSpan where = on.where.shifted(at, static_cast<std::uint32_t>(name.size()));
      if (!is_identifier(name)) {
        sink_.error(where, "expected a name to bind an argument of " + quote_name(ev.name) +
                               ", found " + quote_name(name));
        return -1;
      }
      if (std::find(names.begin(), names.end(), name) != names.end()) {
        sink_.error(where, quote_name(name) + " is bound twice");
        return -1;
      }
      names.push_back(name);
      if (comma >= close) break;
      from = comma + 1;
    }
    if (names.size() != ev.args.size()) {
      std::string list;
      for (const EventArg& a : ev.args) list += (list.empty() ? "" : ", ") + a.name;
      sink_.error(on.where, "event " + quote_name(ev.name) + " has " +
                                std::to_string(ev.args.size()) + " argument" +
                                (ev.args.size() == 1 ? "" : "s") +
                                (list.empty() ? "" : " (" + list + ")") + ", but " +
                                quote_name(trim(text)) + " binds " + std::to_string(names.size()));
      return -1;
    }
    params = std::move(names);
    return id;
  }

  int resolve_event(const Text& on, const std::vector<std::pair<std::string, SourceSpan>>& events,
                    std::vector<std::string>& params) {
    const std::string text = on.value;
    const auto open = text.find('(');
    if (open != std::string::npos) {
      const std::string head = trim(text.substr(0, open));
      for (std::size_t e = 0; e < game_.events.size(); ++e) {
        const EventDecl& ev = game_.events[e];
        if (ev.kind == EventDecl::Kind::custom && ev.name == head) {
          return bind_event_args(on, ev, static_cast<int>(e), open, params);
        }
      }
    }
    if (open == std::string::npos) {
      for (std::size_t e = 0; e < game_.events.size(); ++e) {
        const EventDecl& ev = game_.events[e];
        if (ev.name == trim(text) &&
            (ev.kind == EventDecl::Kind::custom || ev.kind == EventDecl::Kind::begin_turn ||
             ev.kind == EventDecl::Kind::end_turn)) {
          return static_cast<int>(e);
        }
      }
      const std::string t = trim(text);
      if (t == "begin_phase" || t == "end_phase" || t == "begin_step" || t == "end_step") {
        sink_.error(on.where, quote_name(t) + " needs " +
                                  (t.ends_with("phase") ? "a phase: " : "a step: ") + t +
                                  (t.ends_with("phase") ? "(phase)" : "(phase.step)"));
        return -1;
      }
      unknown(on.where, "event", t, events);
      return -1;
    }
    const std::string head = trim(text.substr(0, open));
    const auto close = text.rfind(')');
    if (close == std::string::npos || close < open || !trim(text.substr(close + 1)).empty()) {
      sink_.error(on.where,
                  "malformed event " + quote_name(text) + "; expected e.g. 'begin_phase(main)'");
      return -1;
    }
    std::string arg = text.substr(open + 1, close - open - 1);
    const auto lead = arg.find_first_not_of(" \t");
    const auto arg_offset =
        static_cast<std::uint32_t>(open + 1 + (lead == std::string::npos ? 0 : lead));
    arg = trim(arg);
    const SourceSpan arg_where =
        on.where.shifted(arg_offset, static_cast<std::uint32_t>(arg.size()));
    const bool phase_event = head == "begin_phase" || head == "end_phase";
    const bool step_event = head == "begin_step" || head == "end_step";
    if (!phase_event && !step_event) {
      std::string message = "unknown event " + quote_name(head + "(...)");
      const std::string suggestion =
          suggest_name(head, {"begin_phase", "end_phase", "begin_step", "end_step"});
      if (!suggestion.empty()) message += "; did you mean " + quote_name(suggestion) + "?";
      sink_.error(on.where.shifted(0, static_cast<std::uint32_t>(open)), message);
      return -1;
    }
    int phase = -1;
    int step = -1;
    if (phase_event && arg.find('.') != std::string::npos) {
      sink_.error(arg_where,
                  quote_name(head) + " takes a phase, not a step; use " +
                      quote_name(std::string(head == "begin_phase" ? "begin_step" : "end_step") +
                                 "(" + arg + ")"));
      return -1;
    }
    if (step_event && arg.find('.') == std::string::npos) {
      sink_.error(arg_where, quote_name(head) + " takes a step written 'phase.step', found " +
                                 quote_name(arg));
      return -1;
    }
    if (!resolve_phase_step(arg, arg_where, phase, step)) return -1;
    if (phase_event) {
      const Phase& p = game_.phases[static_cast<std::size_t>(phase)];
      return head == "begin_phase" ? p.begin_event : p.end_event;
    }
    const Step& s = game_.steps[static_cast<std::size_t>(step)];
    return head == "begin_step" ? s.begin_event : s.end_event;
  }

  void resolve_properties() {
    for (std::size_t i = 0; i < rules_.properties.size(); ++i) {
      Property& p = game_.properties[i];
      for (const Text& at : rules_.properties[i].at) {
        int phase = -1;
        int step = -1;
        if (!resolve_phase_step(trim(at.value), at.where, phase, step)) continue;
        if (step >= 0) {
          p.at_steps.push_back(step);
        } else {
          p.at_phases.push_back(phase);
        }
      }
    }
  }

  void resolve_trace() {
    std::vector<std::pair<std::string, SourceSpan>> names;
    const auto add = [&names](const std::string& n, const SourceSpan& w) {
      names.emplace_back(n, w);
    };
    for (const Phase& p : game_.phases) add(p.name, p.where);
    for (const Step& s : game_.steps)
      add(game_.step_name(static_cast<int>(&s - game_.steps.data())), s.where);
    for (const Window& w : game_.windows) add(w.name, w.where);
    for (const Action& a : game_.actions) add(a.name, a.where);
    for (const Trigger& t : game_.triggers) add(t.name, t.where);
    for (const EndCondition& c : game_.end_conditions) add(c.name, c.where);
    for (const KindDecl& k : game_.kinds) add(k.name, k.where);
    for (const ZoneDecl& z : game_.zones) add(z.name, z.where);
    for (const VarDecl& v : game_.vars) add(v.name, v.where);
    for (const Property& p : game_.properties) add(p.name, p.where);
    for (const EventDecl& e : game_.events)
      add(e.name, e.kind == EventDecl::Kind::custom ? e.where : SourceSpan{});
    for (const Param& p : game_.params) add(p.name, p.where);
    for (const EnumDecl& e : game_.enums) add(e.name, e.where);
    for (RawTrace& t : rules_.trace) {
      if (!t.decl.at.empty()) {
        const std::string at = trim(t.decl.at);
        const bool found =
            std::any_of(names.begin(), names.end(), [&](const auto& n) { return n.first == at; });
        if (!found) unknown(t.at_where, "name", at, names);
      }
      game_.trace.push_back(std::move(t.decl));
    }
  }

  // ---- pass 4: expressions and statements --------------------------------------------

  // `win: EXPR` / `lose: EXPR`: the condition, checked with `self`, holds
  // for a player only when EXPR (checked without `self`: it names a player,
  // not a role) names that player; a constant EXPR is the only player the
  // analyses ask about.
  void expand_end_player(ExprChecker& checker, EndCondition& c, const CheckContext& plain) {
    const Type t = checker.check(c.player_expr, plain, Type::player());
    if (t.base == BaseType::error) return;
    if (t != Type::player()) {
      sink_.error(c.player_expr->where,
                  "end condition " + quote_name(c.name) + ": '" + (c.win ? "win" : "lose") +
                      "' needs a role or a player, found " + type_name(game_, t));
      return;
    }
    if (auto v = ExprChecker::fold(*c.player_expr)) c.player = static_cast<int>(*v);
    if (!c.condition) return;
    const SourceSpan at = c.player_expr->where;
    auto node = [&](ExprKind kind, Op op, Type type) {
      auto e = std::make_unique<Expr>();
      e->kind = kind;
      e->op = op;
      e->type = type;
      e->where = at;
      return e;
    };
    auto is = node(ExprKind::binary, Op::eq, Type::bool_());
    is->args.push_back(node(ExprKind::self, Op::none, Type::player()));
    is->args.push_back(std::move(c.player_expr));
    auto both = node(ExprKind::binary, Op::and_, Type::bool_());
    both->where = c.condition->where;
    both->args.push_back(std::move(is));
    both->args.push_back(std::move(c.condition));
    c.condition = std::move(both);
  }

  void check_bodies(ExprChecker& checker) {
    const CheckContext plain;
    CheckContext with_self;
    with_self.self = true;
    CheckContext effect = with_self;
    effect.negate = true;

    if (rules_.setup.size() == 1) {
      game_.setup = std::move(rules_.setup.front());
    } else if (!rules_.setup.empty()) {
      auto block = std::make_unique<Stmt>();
      block->kind = StmtKind::block;
      block->where = rules_.setup.front()->where;
      for (StmtPtr& s : rules_.setup) block->bodies.push_back(std::move(s));
      game_.setup = std::move(block);
    }
    checker.check_stmt(game_.setup, plain);
    for (Step& s : game_.steps) {
      checker.check_stmt(s.effects, plain);
      if (s.repeat_while) checker.check_condition(s.repeat_while, plain);
      if (s.end_turn_if) checker.check_condition(s.end_turn_if, plain);
    }
    for (Action& a : game_.actions) {
      if (a.guard) checker.check_condition(a.guard, with_self);
      // Targets: binders 0..k-1 of the cost and effect; target j's `where`
      // sees targets 0..j.
      for (std::size_t j = 0; j < a.targets.size(); ++j) {
        ActionTarget& t = a.targets[j];
        checker.bind(t.name, t.type, t.at);
        if (t.where) checker.check_condition(t.where, with_self);
        target_origins(t, static_cast<int>(j));
      }
      checker.unbind(a.targets.size());
      // (The cost is paid when the action is cast, before its targets are
      // stored: it does not see them.)
      checker.check_stmt(a.cost, with_self);
      for (const ActionTarget& t : a.targets) checker.bind(t.name, t.type, t.at);
      checker.check_stmt(a.effect, effect);
      checker.unbind(a.targets.size());
    }
    for (std::size_t i = 0; i < game_.triggers.size(); ++i) {
      Trigger& t = game_.triggers[i];
      // `on: damaged(p, n)`: p and n are binders 0..k-1 of `when` and `do`.
      for (std::size_t k = 0; k < t.params.size(); ++k) {
        const EventArg& a = game_.events[static_cast<std::size_t>(t.event)].args[k];
        checker.bind(t.params[k], a.type, trigger_on_where_[i]);
      }
      if (t.condition) checker.check_condition(t.condition, with_self);
      checker.check_stmt(t.effect, with_self);
      checker.unbind(t.params.size());
    }
    for (EndCondition& c : game_.end_conditions) {
      if (c.condition) checker.check_condition(c.condition, with_self);
      if (c.player_expr) expand_end_player(checker, c, plain);
    }
    for (Property& p : game_.properties) {
      if (p.expr) checker.check_condition(p.expr, plain);
      if (p.to) checker.check_condition(p.to, plain);
    }
  }

  // The target as a `pick` and an `exists` over its values, binder j: what
  // the lowering's nodes for its choice name as their origin.
  static void target_origins(ActionTarget& t, int j) {
    Domain d;
    if (t.type.base == BaseType::player) {
      d.kind = Domain::Kind::players;
    } else if (t.type.base == BaseType::enum_) {
      d.kind = Domain::Kind::enum_values;
      d.ref = t.type.enum_id;
    } else if (t.type.base == BaseType::kind) {
      d.kind = Domain::Kind::kinds;
    }
    d.lo = t.lo;
    d.hi = t.hi;
    d.text = t.entry                         ? "entry"
             : t.type.base == BaseType::int_ ? std::to_string(t.lo) + ".." + std::to_string(t.hi)
                                             : "";
    d.where = t.at;
    t.as_pick = std::make_unique<Stmt>();
    t.as_pick->kind = StmtKind::pick;
    t.as_pick->where = t.at;
    t.as_pick->text = t.name;
    t.as_pick->ref = j;
    t.as_pick->domain = d;
    t.as_exists = std::make_unique<Expr>();
    t.as_exists->kind = ExprKind::quant;
    t.as_exists->op = Op::exists;
    t.as_exists->type = Type::bool_();
    t.as_exists->where = t.at;
    t.as_exists->text = t.name;
    t.as_exists->ref = j;
    t.as_exists->domain = d;
  }

  Ruleset& rules_;
  const LoadOptions& options_;
  DiagnosticSink& sink_;
  Game game_;
  std::vector<SourceSpan> tag_where_;
  std::vector<std::optional<Text>> step_windows_;      // per global step id
  std::vector<std::pair<int, RawEvent*>> event_args_;  // custom events with `args`, by event id
  std::vector<SourceSpan> trigger_on_where_;           // per trigger: its `on`
  OwnerInit owner_init_;                               // per zone: `init` per player, if given
};

}  // namespace

std::optional<Game> check_ruleset(Ruleset& rules, const LoadOptions& options,
                                  DiagnosticSink& sink) {
  DeclChecker checker(rules, options, sink);
  return checker.run();
}

}  // namespace loophole::model
