// YAML -> Ruleset: reads the main file and its includes into one set of
// declarations. Every key of every map is checked (unknown keys get a
// did-you-mean), every value's YAML type is checked, and reading goes on
// after an error so one run reports as much as possible. Includes are read
// depth-first after the including file's own keys, so an included file's
// declarations follow the includer's (lists appended, maps merged); a file
// reached twice is read once, and a file that includes itself, directly or
// not, is an include cycle. An include is read only from inside the
// ruleset's directory tree (or an --include-root), and a file's lines are
// quoted in diagnostics only once it has parsed as a ruleset: an include can
// name any file, and CI logs are public. load_game() is here too: read,
// then check.
#include "loader.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "loophole/model/yaml_document.hpp"

namespace loophole::model {
namespace detail {
namespace {

std::string canonical_key(const std::string& path) {
  std::error_code ec;
  auto canon = std::filesystem::weakly_canonical(path, ec);
  if (ec) return std::filesystem::path(path).lexically_normal().string();
  return canon.string();
}

}  // namespace

// `from` is the include entry naming this file (nullptr for the main file).
bool Loader::load_file(const std::string& path, const Text* from) {
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
    // Checked before the file is opened, so that whether a file outside
    // exists is not told either.
    if (!roots_.contains(path)) {
      sink_.error(from->where, "include " + quote_name(from->value) +
                                   " is outside the ruleset's directory " + quote_name(main_dir_) +
                                   " (use --include-root to allow it)");
      return false;
    }
  }
  const std::string* text = sources_.load(path);
  if (text == nullptr) {
    report_read_failure(path, from);
    return false;
  }
  // Its lines are quoted once it has shown itself a ruleset (read_root).
  sources_.set_quotable(path, false);
  auto root = parse_yaml_document(path, *text,
                                  from == nullptr ? "a ruleset file" : "an included file", sink_);
  if (!root) return false;
  done_.insert(key);
  chain_.push_back(key);
  chain_display_.push_back(path);
  YamlReader reader(path, *text, sink_);
  const bool ok = read_root(reader, *root, from == nullptr);
  chain_.pop_back();
  chain_display_.pop_back();
  return ok;
}

void Loader::report_read_failure(const std::string& path, const Text* from) {
  const ReadFailure& failure = sources_.failure();
  if (from == nullptr) {
    sink_.error(failure.where(path, SourceSpan{path, 0, 0, 0}), failure.message("file", path));
    return;
  }
  Diagnostic& d = sink_.error(failure.where(path, from->where),
                              failure.message("file " + quote_name(from->value), from->value));
  if (failure.kind == ReadFailure::Kind::invalid_utf8) {
    DiagnosticSink::note(d, from->where, "included from here");
  }
}

bool Loader::read_root(const YamlReader& r, const YAML::Node& root, bool main) {
  if (!main && (!root.IsDefined() || root.IsNull())) return true;  // an empty include
  // A file that is not a map with at least one ruleset key is not a ruleset:
  // one message that quotes nothing of it (it may be any file an include or
  // a project entry names), rather than an error per key it happens to have.
  static const std::initializer_list<std::string_view> k_keys = {
      "loophole", "game",  "players",    "include", "params",    "scope", "speeds",  "enums",
      "kinds",    "zones", "state",      "events",  "setup",     "turn",  "windows", "actions",
      "triggers", "end",   "properties", "trace",   "functions", "macros"};
  const bool ruleset = root.IsMap() && std::any_of(root.begin(), root.end(), [](const auto& kv) {
                         return kv.first.IsScalar() && std::find(k_keys.begin(), k_keys.end(),
                                                                 kv.first.Scalar()) != k_keys.end();
                       });
  if (!ruleset) {
    sink_.error(r.start(), quote_name(r.file()) + " is not a ruleset: " +
                               (root.IsMap() ? "none of its keys is a ruleset key"
                                             : "it is not a map of ruleset keys"));
    return false;
  }
  sources_.set_quotable(r.file(), true);
  const auto top =
      r.map(root, r.start(), main ? "a ruleset" : "an included file", k_keys, "ruleset");
  if (!top) return !main;
  std::vector<Include> includes;
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
        for (const auto& item : *items) read_include(r, item, includes);
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
      read_events(r, e);
    } else if (e.key == "functions" || e.key == "macros") {
      read_callables(r, e, e.key == "macros");
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
      read_list(r, e, [this](const YamlReader& rr, const YAML::Node& n) { read_property(rr, n); });
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
  for (const Include& inc : includes) {
    std::filesystem::path p(inc.path.value);
    if (p.is_relative()) p = dir / p;
    // What the included file (and what it includes) declares is invented
    // when this entry says so, or when this file was itself included so.
    const std::string outer = invented_;
    if (!inc.invented.empty()) invented_ = inc.invented;
    load_file(p.lexically_normal().string(), &inc.path);
    invented_ = outer;
  }
  return true;
}

// An include entry: a path, or `{file: PATH, invented: "why"}`.
void Loader::read_include(const YamlReader& r, const YAML::Node& item, std::vector<Include>& out) {
  if (!item.IsMap()) {
    if (auto path = r.string(item, r.span(item), "an include entry")) out.push_back({*path, ""});
    return;
  }
  auto m = r.map(item, r.span(item), "an include entry", {"file", "invented"}, "include entry");
  if (!m) return;
  const Entry* file = m->get("file");
  if (file == nullptr) {
    sink_.error(m->where, "an include entry needs a 'file'");
    return;
  }
  auto path = r.string(*file);
  if (!path) return;
  Include inc{*path, ""};
  if (const Entry* why = m->get("invented")) inc.invented = read_invented(r, *why);
  out.push_back(std::move(inc));
}

// `invented: "why"`: the reason must say something.
std::string Loader::read_invented(const YamlReader& r, const Entry& e) {
  auto why = r.string(e);
  if (!why) return "";
  if (trimmed(why->value).empty()) {
    sink_.error(r.span(e), "'invented' needs a reason: what the ruleset made up, and why");
    return "";
  }
  return trimmed(why->value);
}

void Loader::read_version(const YamlReader& r, const Entry& e) {
  auto v = r.integer(e);
  if (v && *v != 1) {
    sink_.error(r.span(e), "unsupported language version " + std::to_string(*v) +
                               "; this loophole reads version 1");
  }
}

void Loader::read_players(const YamlReader& r, const Entry& e) {
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

void Loader::read_params(const YamlReader& r, const Entry& e) {
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

void Loader::read_scope(const YamlReader& r, const Entry& e) {
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

void Loader::read_speeds(const YamlReader& r, const Entry& e) {
  out_.speeds_declared = true;
  auto items = r.list(e);
  if (!items) return;
  for (const auto& item : *items) {
    if (auto v = r.integer(item, r.span(item), "a speed"))
      out_.speeds.push_back(RawNumber{*v, r.span(item)});
  }
}

}  // namespace detail

bool read_ruleset(const std::string& path, const std::vector<std::string>& include_roots,
                  SourceManager& sources, DiagnosticSink& sink, Ruleset& out) {
  detail::Loader loader(sources, sink, out);
  return loader.load_main(path, include_roots);
}

std::optional<Game> load_game(const std::string& path, const LoadOptions& options,
                              SourceManager& sources, DiagnosticSink& sink) {
  const std::size_t errors_before = sink.error_count();
  try {
    Ruleset rules;
    if (!read_ruleset(path, options.include_roots, sources, sink, rules)) return std::nullopt;
    std::optional<Game> game = check_ruleset(rules, options, sink);
    if (sink.error_count() != errors_before) return std::nullopt;
    return game;
  } catch (const std::exception& e) {
    sink.error(SourceSpan{path, 0, 0, 0}, std::string("loophole: internal error: ") + e.what());
  }
  return std::nullopt;
}

}  // namespace loophole::model
