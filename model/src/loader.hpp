// The YAML reader of rulesets (loader*.cpp), shared by its files: the
// Loader class, which reads the main file and its includes into one Ruleset,
// and small helpers for its messages. loader.cpp reads files, includes and
// the top-level keys; loader_decls.cpp the declarations (players, params,
// scope, speeds, enums, kinds, zones, state); loader_rules.cpp the turn
// structure and the rules (windows, actions, triggers, end conditions,
// properties, trace).
#pragma once

#include <filesystem>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ruleset.hpp"

namespace loophole::model::detail {

inline std::string peek_name(const YAML::Node& node) {
  if (!node.IsMap()) return {};
  for (const auto& kv : node) {
    if (kv.first.IsScalar() && kv.first.Scalar() == "name" && kv.second.IsScalar())
      return kv.second.Scalar();
  }
  return {};
}

inline std::string named(std::string_view category, const std::string& name) {
  return name.empty() ? std::string(category) : std::string(category) + " " + quote_name(name);
}

inline std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

struct RoleWord {
  std::string_view word;
  Role role;
};
inline constexpr RoleWord k_roles[] = {{"active", Role::active},
                                       {"opponent", Role::opponent},
                                       {"each", Role::each},
                                       {"any", Role::any},
                                       {"others", Role::others}};

inline std::string list_words(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i != 0) out += i + 1 == words.size() ? " or " : ", ";
    out += quote_name(words[i]);
  }
  return out;
}

// "unknown X 'y'; did you mean 'z'?" or "...; expected 'a', 'b' or 'c'".
inline std::string unknown_word(std::string_view what, const std::string& word,
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

  bool load_main(const std::string& path, const std::vector<std::string>& include_roots) {
    out_.file = path;
    out_.start = SourceSpan{path, 1, 1, 0};
    const std::string dir = std::filesystem::path(path).parent_path().string();
    main_dir_ = dir.empty() ? "." : dir;
    roots_.add(main_dir_);
    for (const auto& root : include_roots) roots_.add(root);
    return load_file(path, nullptr);
  }

 private:
  // `from` is the include entry naming this file (nullptr for the main file).
  bool load_file(const std::string& path, const Text* from);

  // Reports why sources_.load() failed for `path`.
  void report_read_failure(const std::string& path, const Text* from);

  bool read_root(const YamlReader& r, const YAML::Node& root, bool main);

  template <typename F>
  void read_list(const YamlReader& r, const Entry& e, F each) {
    if (auto items = r.list(e)) {
      for (const auto& item : *items) each(r, item);
    }
  }

  void read_version(const YamlReader& r, const Entry& e);

  void read_players(const YamlReader& r, const Entry& e);

  void read_params(const YamlReader& r, const Entry& e);

  void read_scope(const YamlReader& r, const Entry& e);

  void read_speeds(const YamlReader& r, const Entry& e);

  void read_enums(const YamlReader& r, const Entry& e);

  void read_kinds(const YamlReader& r, const Entry& e);

  void read_zones(const YamlReader& r, const Entry& e);

  void read_field(const YamlReader& r, const MapView& m, RawField& f);

  void read_state(const YamlReader& r, const Entry& e);

  // `functions:` (macro = false) or `macros:` (loader_rules.cpp).
  void read_callables(const YamlReader& r, const Entry& e, bool macro);

  void read_turn(const YamlReader& r, const Entry& e);

  void read_step(const YamlReader& r, const YAML::Node& item, RawPhase& phase);

  std::vector<RawNumber> read_speed_list(const YamlReader& r, const Entry& e);

  void read_windows(const YamlReader& r, const Entry& e);

  void read_events(const YamlReader& r, const Entry& e);
  void read_end_who(const YamlReader& r, const Entry& e, EndCondition& c);
  std::optional<Role> read_role(const YamlReader& r, const Entry& e,
                                std::initializer_list<Role> allowed);

  // The `name` of a list entry; reports a missing one at the entry.
  std::optional<Text> entry_name(const YamlReader& r, const MapView& m, std::string_view category);

  struct Include {
    Text path;
    std::string invented;  // the entry's `invented:` reason, or ""
  };
  void read_include(const YamlReader& r, const YAML::Node& item, std::vector<Include>& out);

  std::string read_invented(const YamlReader& r, const Entry& e);

  void read_action(const YamlReader& r, const YAML::Node& item);

  void read_trigger(const YamlReader& r, const YAML::Node& item);

  void read_end(const YamlReader& r, const YAML::Node& item);

  void read_property(const YamlReader& r, const YAML::Node& item);

  void read_trace(const YamlReader& r, const YAML::Node& item);

  SourceManager& sources_;
  DiagnosticSink& sink_;
  Ruleset& out_;
  std::vector<std::string> chain_;          // canonical paths of the files being read
  std::vector<std::string> chain_display_;  // the same, as written
  std::set<std::string> done_;              // canonical paths already read
  FileRoots roots_;                         // where includes may come from
  std::string main_dir_;                    // the ruleset's directory, as given
  std::string invented_;  // while reading an include marked `invented:`, its reason
};

}  // namespace loophole::model::detail
