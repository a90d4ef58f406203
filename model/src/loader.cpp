// YAML -> Ruleset: reads the main file and its includes into one set of
// declarations. Every key of every map is checked (unknown keys get a
// did-you-mean), every value's YAML type is checked, and reading goes on
// after an error so one run reports as much as possible. Includes are read
// depth-first after the including file's own keys, so an included file's
// declarations follow the includer's (lists appended, maps merged); a file
// reached twice is read once, and a file that includes itself, directly or
// not, is an include cycle. load_game() is here too: read, then check.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>

#include "ruleset.hpp"

namespace loophole::model {

namespace {

std::string peek_name(const YAML::Node& node) {
  if (!node.IsMap()) return {};
  for (const auto& kv : node) {
    if (kv.first.IsScalar() && kv.first.Scalar() == "name" && kv.second.IsScalar())
      return kv.second.Scalar();
  }
  return {};
}

std::string named(std::string_view category, const std::string& name) {
  return name.empty() ? std::string(category) : std::string(category) + " " + quote_name(name);
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

std::string read_error(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return std::strerror(EISDIR);
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return std::strerror(errno != 0 ? errno : ENOENT);
  std::fclose(f);
  return std::strerror(EIO);
}

std::string canonical_key(const std::string& path) {
  std::error_code ec;
  auto canon = std::filesystem::weakly_canonical(path, ec);
  if (ec) return std::filesystem::path(path).lexically_normal().string();
  return canon.string();
}

struct RoleWord {
  std::string_view word;
  Role role;
};
constexpr RoleWord k_roles[] = {{"active", Role::active},
                                {"opponent", Role::opponent},
                                {"each", Role::each},
                                {"any", Role::any},
                                {"others", Role::others}};

std::string list_words(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i != 0) out += i + 1 == words.size() ? " or " : ", ";
    out += quote_name(words[i]);
  }
  return out;
}

// "unknown X 'y'; did you mean 'z'?" or "...; expected 'a', 'b' or 'c'".
std::string unknown_word(std::string_view what, const std::string& word,
                         const std::vector<std::string>& choices) {
  std::string message = "unknown " + std::string(what) + " " + quote_name(word);
  const std::string suggestion = suggest_name(word, choices);
  if (!suggestion.empty()) return message + "; did you mean " + quote_name(suggestion) + "?";
  return message + "; expected " + list_words(choices);
}

class Loader {
 public:
  Loader(SourceManager& sources, DiagnosticSink& sink, Ruleset& out)
      : sources_(sources), sink_(sink), out_(out) {}

  bool load_main(const std::string& path) {
    out_.file = path;
    out_.start = SourceSpan{path, 1, 1, 0};
    return load_file(path, nullptr);
  }

 private:
  // `from` is the include entry naming this file (nullptr for the main file).
  bool load_file(const std::string& path, const Text* from) {
    const std::string key = canonical_key(path);
    if (from != nullptr) {
      const auto in_chain = std::find(chain_.begin(), chain_.end(), key);
      if (in_chain != chain_.end()) {
        std::string cycle;
        for (auto it = in_chain; it != chain_.end(); ++it) {
          cycle += chain_display_[static_cast<std::size_t>(it - chain_.begin())] + " -> ";
        }
        sink_.error(from->where, "include cycle: " + cycle + path);
        return false;
      }
      if (done_.count(key) != 0) return true;
    }
    const std::string* text = sources_.load(path);
    if (text == nullptr) {
      if (from == nullptr) {
        sink_.error(SourceSpan{path, 0, 0, 0}, "cannot read file: " + read_error(path));
      } else {
        sink_.error(from->where,
                    "cannot read file " + quote_name(from->value) + ": " + read_error(path));
      }
      return false;
    }
    YAML::Node root;
    try {
      root = YAML::Load(*text);
    } catch (const YAML::Exception& e) {
      SourceSpan where{path, 0, 0, 0};
      if (!e.mark.is_null() && e.mark.line >= 0) {
        where.line = static_cast<std::uint32_t>(e.mark.line) + 1;
        where.col = static_cast<std::uint32_t>(e.mark.column) + 1;
      }
      sink_.error(where, "malformed YAML: " + e.msg);
      return false;
    }
    done_.insert(key);
    chain_.push_back(key);
    chain_display_.push_back(path);
    YamlReader reader(path, *text, sink_);
    const bool ok = read_root(reader, root, from == nullptr);
    chain_.pop_back();
    chain_display_.pop_back();
    return ok;
  }

  bool read_root(const YamlReader& r, const YAML::Node& root, bool main) {
    if (!main && (!root.IsDefined() || root.IsNull())) return true;  // an empty include
    const auto top =
        r.map(root, r.start(), main ? "a ruleset" : "an included file",
              {"loophole", "game",    "players",  "include", "params",     "scope", "speeds",
               "enums",    "kinds",   "zones",    "state",   "events",     "setup", "turn",
               "windows",  "actions", "triggers", "end",     "properties", "trace"},
              "ruleset");
    if (!top) return !main;
    std::vector<Text> includes;
    for (const Entry& e : top->entries()) {
      if (!main && (e.key == "loophole" || e.key == "game" || e.key == "turn")) {
        sink_.error(e.key_where, quote_name(e.key) + " is not allowed in an included file");
        continue;
      }
      if (e.key == "loophole") {
        read_version(r, e);
      } else if (e.key == "game") {
        if (auto name = r.string(e)) out_.name = name->value;
      } else if (e.key == "players") {
        read_players(r, e);
      } else if (e.key == "include") {
        if (auto items = r.list(e, true)) {
          for (const auto& item : *items) {
            if (auto path = r.string(item, r.span(item), "an include entry"))
              includes.push_back(*path);
          }
        }
      } else if (e.key == "params") {
        if (main && !out_.params_where) out_.params_where = e.key_where;
        read_params(r, e);
      } else if (e.key == "scope") {
        read_scope(r, e);
      } else if (e.key == "speeds") {
        read_speeds(r, e);
      } else if (e.key == "enums") {
        read_enums(r, e);
      } else if (e.key == "kinds") {
        read_kinds(r, e);
      } else if (e.key == "zones") {
        read_zones(r, e);
      } else if (e.key == "state") {
        read_state(r, e);
      } else if (e.key == "events") {
        if (auto items = r.list(e)) {
          for (const auto& item : *items) {
            if (auto name = r.identifier(item, r.span(item), "an event name"))
              out_.events.push_back(*name);
          }
        }
      } else if (e.key == "setup") {
        if (auto s = r.stmts(e)) out_.setup.push_back(std::move(s));
      } else if (e.key == "turn") {
        read_turn(r, e);
      } else if (e.key == "windows") {
        read_windows(r, e);
      } else if (e.key == "actions") {
        read_list(r, e, [this](const YamlReader& rr, const YAML::Node& n) { read_action(rr, n); });
      } else if (e.key == "triggers") {
        read_list(r, e, [this](const YamlReader& rr, const YAML::Node& n) { read_trigger(rr, n); });
      } else if (e.key == "end") {
        read_list(r, e, [this](const YamlReader& rr, const YAML::Node& n) { read_end(rr, n); });
      } else if (e.key == "properties") {
        read_list(r, e,
                  [this](const YamlReader& rr, const YAML::Node& n) { read_property(rr, n); });
      } else if (e.key == "trace") {
        read_list(r, e, [this](const YamlReader& rr, const YAML::Node& n) { read_trace(rr, n); });
      }
    }
    if (main) {
      for (const char* required : {"loophole", "game", "turn"}) {
        if (top->get(required) == nullptr)
          sink_.error(r.start(), "missing required key " + quote_name(required));
      }
    }
    const std::filesystem::path dir = std::filesystem::path(r.file()).parent_path();
    for (const Text& inc : includes) {
      std::filesystem::path p(inc.value);
      if (p.is_relative()) p = dir / p;
      load_file(p.lexically_normal().string(), &inc);
    }
    return true;
  }

  template <typename F>
  void read_list(const YamlReader& r, const Entry& e, F each) {
    if (auto items = r.list(e)) {
      for (const auto& item : *items) each(r, item);
    }
  }

  void read_version(const YamlReader& r, const Entry& e) {
    auto v = r.integer(e);
    if (v && *v != 1) {
      sink_.error(r.span(e), "unsupported language version " + std::to_string(*v) +
                                 "; this loophole reads version 1");
    }
  }

  void read_players(const YamlReader& r, const Entry& e) {
    if (out_.players) {
      Diagnostic& d = sink_.error(e.key_where, "'players' is set twice");
      DiagnosticSink::note(d, out_.players->where, "first set here");
      return;
    }
    RawPlayers p;
    p.where = e.key_where;
    if (e.value.IsMap()) {
      auto m = r.map(e, {"default", "min", "max"}, "'players'");
      if (!m) return;
      const Entry* def = m->get("default");
      const Entry* min = m->get("min");
      const Entry* max = m->get("max");
      if (def == nullptr) {
        sink_.error(e.key_where, "'players' needs a 'default'");
        return;
      }
      auto dv = r.integer(*def);
      if (!dv) return;
      p.def = *dv;
      p.def_where = r.span(*def);
      p.min = p.max = p.def;
      if (min != nullptr) {
        if (auto v = r.integer(*min)) p.min = *v;
      }
      if (max != nullptr) {
        if (auto v = r.integer(*max)) p.max = *v;
      }
    } else {
      auto v = r.integer(e.value, r.span(e), "'players'");
      if (!v) return;
      p.def = p.min = p.max = *v;
      p.def_where = r.span(e);
    }
    out_.players = p;
  }

  void read_params(const YamlReader& r, const Entry& e) {
    auto m = r.map(e, {}, "'params'");
    if (!m) return;
    for (const Entry& pe : m->entries()) {
      auto name = r.key_identifier(pe, "param");
      if (!name) continue;
      Param p;
      p.name = name->value;
      p.where = name->where;
      if (pe.value.IsMap()) {
        auto pm = r.map(pe, {"default", "min", "max"}, "param " + quote_name(p.name));
        if (!pm) continue;
        const Entry* def = pm->get("default");
        if (def == nullptr) {
          sink_.error(pe.key_where, "param " + quote_name(p.name) + " needs a 'default'");
          continue;
        }
        auto dv = r.integer(*def);
        if (!dv) continue;
        p.def = *dv;
        if (const Entry* min = pm->get("min")) p.min = r.integer(*min);
        if (const Entry* max = pm->get("max")) p.max = r.integer(*max);
      } else if (pe.value.IsScalar()) {
        auto dv = r.integer(pe);
        if (!dv) continue;
        p.def = *dv;
      } else {
        sink_.error(r.span(pe), "param " + quote_name(p.name) +
                                    " must be an integer or a map {default, min, max}, found " +
                                    YamlReader::describe(pe.value));
        continue;
      }
      p.value = p.def;
      out_.params.push_back(std::move(p));
    }
  }

  void read_scope(const YamlReader& r, const Entry& e) {
    auto m = r.map(e, {"stack", "turns"}, "'scope'");
    if (!m) return;
    for (const Entry& se : m->entries()) {
      ExprPtr& slot = se.key == "stack" ? out_.scope_stack : out_.scope_turns;
      if (slot) {
        Diagnostic& d = sink_.error(se.key_where, "'scope." + se.key + "' is set twice");
        DiagnosticSink::note(d, slot->where, "first set here");
        continue;
      }
      slot = r.expr(se);
    }
  }

  void read_speeds(const YamlReader& r, const Entry& e) {
    out_.speeds_declared = true;
    auto items = r.list(e);
    if (!items) return;
    for (const auto& item : *items) {
      if (auto v = r.integer(item, r.span(item), "a speed"))
        out_.speeds.push_back(RawNumber{*v, r.span(item)});
    }
  }

  void read_enums(const YamlReader& r, const Entry& e) {
    auto m = r.map(e, {}, "'enums'");
    if (!m) return;
    for (const Entry& ee : m->entries()) {
      auto name = r.key_identifier(ee, "enum");
      if (!name) continue;
      auto items = r.list(ee);
      if (!items) continue;
      EnumDecl decl;
      decl.name = name->value;
      decl.where = name->where;
      for (const auto& item : *items) {
        auto value = r.identifier(item, r.span(item), "an enum value");
        if (!value) continue;
        decl.values.push_back(value->value);
        decl.value_where.push_back(value->where);
      }
      if (items->empty())
        sink_.error(name->where, "enum " + quote_name(decl.name) + " has no values");
      out_.enums.push_back(std::move(decl));
    }
  }

  void read_kinds(const YamlReader& r, const Entry& e) {
    auto m = r.map(e, {}, "'kinds'");
    if (!m) return;
    for (const Entry& ke : m->entries()) {
      auto name = r.key_identifier(ke, "kind");
      if (!name) continue;
      auto km = r.map(ke, {"copies", "tags"}, "kind " + quote_name(name->value));
      if (!km) continue;
      RawKind kind;
      kind.decl.name = name->value;
      kind.decl.where = name->where;
      if (const Entry* copies = km->get("copies")) {
        kind.copies = r.expr(*copies);
      } else {
        sink_.error(name->where, "kind " + quote_name(name->value) + " needs 'copies'");
      }
      if (const Entry* tags = km->get("tags")) {
        if (auto items = r.list(*tags)) {
          for (const auto& item : *items) {
            if (auto tag = r.identifier(item, r.span(item), "a tag")) kind.tags.push_back(*tag);
          }
        }
      }
      out_.kinds.push_back(std::move(kind));
    }
  }

  void read_zones(const YamlReader& r, const Entry& e) {
    auto m = r.map(e, {}, "'zones'");
    if (!m) return;
    for (const Entry& ze : m->entries()) {
      auto name = r.key_identifier(ze, "zone");
      if (!name) continue;
      RawZone zone;
      zone.decl.name = name->value;
      zone.decl.where = name->where;
      if (ze.value.IsDefined() && !ze.value.IsNull()) {
        auto zm = r.map(ze, {"per", "shared", "init"}, "zone " + quote_name(name->value));
        if (!zm) continue;
        const Entry* per = zm->get("per");
        const Entry* shared = zm->get("shared");
        if (per != nullptr) {
          if (auto word = r.string(*per); word && word->value != "player") {
            sink_.error(word->where, "'per' must be 'player', found " + quote_name(word->value));
          }
        }
        if (shared != nullptr) {
          if (auto b = r.boolean(*shared)) zone.decl.per_player = !*b;
          if (per != nullptr && !zone.decl.per_player) {
            sink_.error(shared->key_where, "zone " + quote_name(name->value) +
                                               " cannot be both 'per: player' and shared");
          }
        }
        if (const Entry* init = zm->get("init")) {
          zone.init_where = init->key_where;
          if (init->value.IsScalar()) {
            if (init->value.Scalar() == "all") {
              zone.decl.init_all = true;
            } else {
              sink_.error(r.span(*init),
                          "'init' of a zone must be 'all' or a map of kind counts, found " +
                              YamlReader::describe(init->value));
            }
          } else if (auto im =
                         r.map(init->value, r.span(*init), "'init' of a zone", {}, "'init'")) {
            for (const Entry& ie : im->entries()) {
              zone.init.emplace_back(Text{ie.key, ie.key_where}, r.expr(ie));
            }
          }
        }
      }
      out_.zones.push_back(std::move(zone));
    }
  }

  void read_field(const YamlReader& r, const MapView& m, RawField& f) {
    if (const Entry* type = m.get("type")) {
      if (auto t = r.identifier(*type)) f.type = *t;
    }
    if (const Entry* range = m.get("range")) {
      f.range_where = r.span(*range);
      if (auto items = r.list(*range)) {
        if (items->size() != 2) {
          sink_.error(f.range_where, "'range' must be a list [lo, hi], found a list of " +
                                         std::to_string(items->size()) + " element" +
                                         (items->size() == 1 ? "" : "s"));
        } else {
          f.lo = r.expr((*items)[0], r.span((*items)[0]), "a range bound");
          f.hi = r.expr((*items)[1], r.span((*items)[1]), "a range bound");
        }
      }
    }
    if (const Entry* init = m.get("init")) f.init = r.expr(*init);
  }

  void read_state(const YamlReader& r, const Entry& e) {
    auto m = r.map(e, {}, "'state'");
    if (!m) return;
    for (const Entry& ve : m->entries()) {
      auto name = r.key_identifier(ve, "variable");
      if (!name) continue;
      const std::string context = "variable " + quote_name(name->value);
      auto vm = r.map(ve, {"type", "range", "init", "per", "array", "record"}, context);
      if (!vm) continue;
      RawVar var;
      var.decl.name = name->value;
      var.decl.where = name->where;
      if (const Entry* per = vm->get("per")) {
        if (auto word = r.string(*per)) {
          if (word->value == "player") {
            var.decl.per_player = true;
          } else {
            sink_.error(word->where, "'per' must be 'player', found " + quote_name(word->value));
          }
        }
      }
      if (const Entry* array = vm->get("array")) var.array = r.expr(*array);
      if (const Entry* record = vm->get("record")) {
        var.decl.is_record = true;
        for (const char* key : {"type", "range", "init"}) {
          if (const Entry* bad = vm->get(key)) {
            sink_.error(bad->key_where,
                        quote_name(key) + " of a record variable belongs to its fields");
          }
        }
        if (auto rm = r.map(*record, {}, "'record'")) {
          for (const Entry& fe : rm->entries()) {
            auto fname = r.key_identifier(fe, "field");
            if (!fname) continue;
            auto fm = r.map(fe, {"type", "range", "init"}, "field " + quote_name(fname->value));
            if (!fm) continue;
            RawField field;
            field.name = *fname;
            field.where = fname->where;
            read_field(r, *fm, field);
            var.fields.push_back(std::move(field));
          }
          if (rm->entries().empty())
            sink_.error(record->key_where, "record of " + context + " has no fields");
        }
      } else {
        RawField field;
        field.where = name->where;
        read_field(r, *vm, field);
        var.fields.push_back(std::move(field));
      }
      out_.vars.push_back(std::move(var));
    }
  }

  void read_turn(const YamlReader& r, const Entry& e) {
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

  void read_step(const YamlReader& r, const YAML::Node& item, RawPhase& phase) {
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

  std::vector<RawNumber> read_speed_list(const YamlReader& r, const Entry& e) {
    std::vector<RawNumber> out;
    if (auto items = r.list(e, true)) {
      for (const auto& item : *items) {
        if (auto v = r.integer(item, r.span(item), "a speed"))
          out.push_back(RawNumber{*v, r.span(item)});
      }
    }
    return out;
  }

  void read_windows(const YamlReader& r, const Entry& e) {
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
      auto wm = r.map(we, {"protocol", "active", "opponent", "others", "each", "may_pass", "order"},
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
            sink_.error(word->where, unknown_word("protocol", word->value,
                                                  {"priority", "alternate", "sequence"}));
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

  std::optional<Role> read_role(const YamlReader& r, const Entry& e,
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

  // The `name` of a list entry; reports a missing one at the entry.
  std::optional<Text> entry_name(const YamlReader& r, const MapView& m, std::string_view category) {
    const Entry* name_entry = m.get("name");
    if (name_entry == nullptr) {
      sink_.error(m.where, "each " + std::string(category) + " needs a 'name'");
      return std::nullopt;
    }
    return r.identifier(*name_entry);
  }

  void read_action(const YamlReader& r, const YAML::Node& item) {
    const std::string context = named("action", peek_name(item));
    auto m = r.map(item, r.span(item), "each entry of 'actions'",
                   {"name", "who", "speed", "in", "play", "to", "when", "cost", "effect", "limit",
                    "answerable", "negatable"},
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
    out_.actions.push_back(std::move(a));
  }

  void read_trigger(const YamlReader& r, const YAML::Node& item) {
    const std::string context = named("trigger", peek_name(item));
    auto m = r.map(item, r.span(item), "each entry of 'triggers'",
                   {"name", "on", "controller", "when", "optional", "do"}, context);
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
    out_.triggers.push_back(std::move(t));
  }

  void read_end(const YamlReader& r, const YAML::Node& item) {
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
      if (auto role = read_role(r, win != nullptr ? *win : *lose,
                                {Role::active, Role::opponent, Role::each, Role::others})) {
        c.who = *role;
      }
    }
    if (const Entry* when = m->get("when")) {
      c.condition = r.expr(*when);
    } else {
      sink_.error(name->where, "end condition " + quote_name(c.name) + " needs 'when'");
    }
    out_.end_conditions.push_back(std::move(c));
  }

  void read_property(const YamlReader& r, const YAML::Node& item) {
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

  void read_trace(const YamlReader& r, const YAML::Node& item) {
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

  SourceManager& sources_;
  DiagnosticSink& sink_;
  Ruleset& out_;
  std::vector<std::string> chain_;          // canonical paths of the files being read
  std::vector<std::string> chain_display_;  // the same, as written
  std::set<std::string> done_;              // canonical paths already read
};

}  // namespace

bool read_ruleset(const std::string& path, SourceManager& sources, DiagnosticSink& sink,
                  Ruleset& out) {
  Loader loader(sources, sink, out);
  return loader.load_main(path);
}

std::optional<Game> load_game(const std::string& path, const LoadOptions& options,
                              SourceManager& sources, DiagnosticSink& sink) {
  const std::size_t errors_before = sink.error_count();
  try {
    Ruleset rules;
    if (!read_ruleset(path, sources, sink, rules)) return std::nullopt;
    std::optional<Game> game = check_ruleset(rules, options, sink);
    if (sink.error_count() != errors_before) return std::nullopt;
    return game;
  } catch (const std::exception& e) {
    sink.error(SourceSpan{path, 0, 0, 0}, std::string("loophole: internal error: ") + e.what());
  }
  return std::nullopt;
}

}  // namespace loophole::model
