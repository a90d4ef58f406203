// Reading loophole.yaml. It is small and fixed, so it is validated by hand
// against its few keys, each problem reported at its file:line:col (yaml-cpp
// marks) like a ruleset error, and the whole file rejected if any is found:
// a CI run with a half-read baseline would pass or fail for the wrong reason.
#include "project.hpp"

#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "loophole/model/yaml_document.hpp"

namespace loophole::cli {
namespace {

struct Reader {
  std::string file;
  model::DiagnosticSink& sink;
  bool ok = true;

  [[nodiscard]] model::SourceSpan at(const YAML::Node& n) const {
    const auto m = n.Mark();
    if (m.line < 0) return model::SourceSpan{file, 0, 0, 0};
    return model::SourceSpan{file, static_cast<std::uint32_t>(m.line + 1),
                             static_cast<std::uint32_t>(m.column + 1), 0};
  }
  void error(const YAML::Node& n, std::string message) {
    sink.error(at(n), std::move(message));
    ok = false;
  }
  // Every key of `map` is one of `keys`; each missing key of `required` is an error.
  bool keys(const YAML::Node& map, std::string_view what, const std::vector<std::string>& allowed,
            const std::vector<std::string>& required) {
    if (!map.IsMap()) {
      error(map, fmt::format("{} must be a map", what));
      return false;
    }
    for (const auto& kv : map) {
      if (!kv.first.IsScalar()) {
        error(kv.first, fmt::format("a key of {} must be a name", what));
        continue;
      }
      const auto& key = kv.first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        error(kv.first, fmt::format("unknown key '{}' in {}; expected {}", key, what,
                                    fmt::join(allowed, ", ")));
      }
    }
    for (const auto& r : required) {
      if (!map[r]) error(map, fmt::format("{} needs '{}'", what, r));
    }
    return true;
  }
  std::optional<std::string> text(const YAML::Node& n, std::string_view what) {
    if (!n.IsScalar()) {
      error(n, fmt::format("{} must be a string", what));
      return std::nullopt;
    }
    return n.Scalar();
  }
  std::optional<std::int64_t> integer(const YAML::Node& n, std::string_view what) {
    std::int64_t v = 0;
    if (!n.IsScalar() || !YAML::convert<std::int64_t>::decode(n, v)) {
      error(n, fmt::format("{} must be an integer", what));
      return std::nullopt;
    }
    return v;
  }
};

std::string join_path(const std::string& project, const std::string& file) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(project).parent_path();
  if (dir.empty() || dir == "." || fs::path(file).is_absolute()) return file;
  return (dir / file).lexically_normal().string();
}

void read_ruleset(Reader& r, const YAML::Node& n, const std::string& project, Project& out) {
  if (!r.keys(n, "a ruleset entry", {"file", "players", "params", "accept"}, {"file"})) return;
  ProjectRuleset entry;
  if (n["file"]) {
    if (const auto f = r.text(n["file"], "'file'")) {
      entry.file = join_path(project, *f);
      entry.file_where = r.at(n["file"]);
      entry.file_where.length = static_cast<std::uint32_t>(f->size());
    }
  }
  if (n["players"]) {
    if (const auto p = r.integer(n["players"], "'players'")) {
      if (*p < 1 || *p > 16) {
        r.error(n["players"], fmt::format("'players' must be between 1 and 16, found {}", *p));
      } else {
        entry.players = static_cast<int>(*p);
      }
    }
  }
  if (n["params"]) {
    if (!n["params"].IsMap()) {
      r.error(n["params"], "'params' must be a map of param names to integers");
    } else {
      for (const auto& kv : n["params"]) {
        if (const auto v = r.integer(kv.second, fmt::format("param '{}'", kv.first.Scalar()))) {
          entry.params[kv.first.Scalar()] = *v;
          entry.param_where[kv.first.Scalar()] = r.at(kv.first);
          entry.param_where[kv.first.Scalar()].length =
              static_cast<std::uint32_t>(kv.first.Scalar().size());
        }
      }
    }
  }
  if (n["accept"]) {
    if (!n["accept"].IsSequence()) {
      r.error(n["accept"], "'accept' must be a list of {id, reason}");
    } else {
      std::set<std::string> seen;
      for (const auto& a : n["accept"]) {
        if (!r.keys(a, "an accepted finding", {"id", "reason"}, {"id", "reason"})) continue;
        if (!a["id"] || !a["reason"]) continue;
        const auto id = r.text(a["id"], "'id'");
        const auto reason = r.text(a["reason"], "'reason'");
        if (!id || !reason) continue;
        if (reason->find_first_not_of(" \t\n") == std::string::npos) {
          r.error(a["reason"], fmt::format("accepted finding '{}' needs a written reason", *id));
          continue;
        }
        if (!seen.insert(*id).second) {
          r.error(a["id"], fmt::format("finding '{}' is accepted twice", *id));
          continue;
        }
        entry.accept.push_back({*id, *reason, r.at(a["id"])});
      }
    }
  }
  out.rulesets.push_back(std::move(entry));
}

}  // namespace

std::optional<Project> load_project(const std::string& path, model::SourceManager& sources,
                                    model::DiagnosticSink& sink) {
  const std::string* text = sources.load(path);
  if (text == nullptr) {
    const auto& failure = sources.failure();
    sink.error(failure.where(path, model::SourceSpan{path, 0, 0, 0}),
               failure.message("project file", path));
    return std::nullopt;
  }
  // Quoted in diagnostics only once it is a map, as a project file is.
  sources.set_quotable(path, false);
  const auto parsed = model::parse_yaml_document(path, *text, "a project file", sink);
  if (!parsed) return std::nullopt;
  const YAML::Node& root = *parsed;
  sources.set_quotable(path, root.IsMap());
  Reader r{path, sink};
  Project project;
  project.path = path;
  if (!r.keys(root, "the project file", {"loophole", "rulesets"}, {"rulesets"}))
    return std::nullopt;
  if (root["loophole"]) {
    const auto v = r.integer(root["loophole"], "'loophole'");
    if (v && *v != 1) {
      r.error(root["loophole"], fmt::format("unsupported project file version {}; expected 1", *v));
    }
  }
  if (root["rulesets"]) {
    if (!root["rulesets"].IsSequence() || root["rulesets"].size() == 0) {
      r.error(root["rulesets"], "'rulesets' must be a non-empty list of ruleset entries");
    } else {
      for (const auto& n : root["rulesets"]) read_ruleset(r, n, path, project);
    }
  }
  if (!r.ok) return std::nullopt;
  return project;
}

bool read_entry_file(const ProjectRuleset& entry, model::SourceManager& sources,
                     model::DiagnosticSink& sink) {
  if (sources.load(entry.file) != nullptr) return true;
  const auto& failure = sources.failure();
  // A file that is not UTF-8 is located in itself; anything else at the
  // entry that names it.
  sink.error(failure.where(entry.file, entry.file_where),
             failure.message("ruleset file '" + entry.file + "'", entry.file));
  return false;
}

void apply_scope(const ProjectRuleset& entry, model::LoadOptions& load) {
  for (const auto& [name, value] : entry.params) {
    if (!load.param_overrides.emplace(name, value).second) continue;
    if (const auto at = entry.param_where.find(name); at != entry.param_where.end()) {
      load.param_origins[name] = at->second;
    }
  }
  if (!load.players && entry.players != 0) load.players = entry.players;
}

void apply_baseline(const ProjectRuleset& entry, std::vector<reports::RulesetReport>& runs) {
  if (runs.empty()) return;
  for (const auto& a : entry.accept) {
    bool found = false;
    for (auto& rs : runs) {
      const auto ids = reports::finding_ids(rs);
      if (std::find(ids.begin(), ids.end(), a.id) == ids.end()) continue;
      rs.accepted[a.id] = a.reason;
      found = true;
    }
    if (!found) runs.front().stale.push_back({a.id, a.where});
  }
}

}  // namespace loophole::cli
