// Typed reading of one YAML file with exact positions. yaml-cpp gives every
// node a 0-based mark; this turns marks into 1-based SourceSpans (pointing
// inside quotes), builds the TextOrigin of expression scalars (including
// literal and folded block scalars, whose lines are found in the raw file
// text), and reports wrong node types and unknown keys (with a did-you-mean)
// as diagnostics instead of exceptions. Only model/ includes yaml-cpp.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/expr.hpp"
#include "loophole/model/source.hpp"

namespace loophole::model {

// A scalar as written, with where it was written.
struct Text {
  std::string value;
  SourceSpan where;
};

// One `key: value` of a YAML map.
struct Entry {
  std::string key;
  SourceSpan key_where;
  YAML::Node value;
};

// A map's entries in file order, keys checked against the known set.
class MapView {
 public:
  [[nodiscard]] const Entry* get(std::string_view key) const;
  [[nodiscard]] const std::vector<Entry>& entries() const { return entries_; }
  SourceSpan where;  // the map itself

 private:
  friend class YamlReader;
  std::vector<Entry> entries_;
};

class YamlReader {
 public:
  YamlReader(std::string file, std::string_view raw, DiagnosticSink& sink);

  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] DiagnosticSink& sink() const { return sink_; }
  [[nodiscard]] SourceSpan start() const { return SourceSpan{file_, 1, 1, 0}; }

  // Where a node starts (1-based); for scalars, the text itself (inside
  // quotes) with its length.
  [[nodiscard]] SourceSpan span(const YAML::Node& node) const;
  // Where a value is, or its key when the value is empty (yaml-cpp puts the
  // mark of an empty value on the next token).
  [[nodiscard]] SourceSpan span(const Entry& entry) const;
  [[nodiscard]] TextOrigin origin(const YAML::Node& scalar) const;
  // "a map", "a list", "nothing", or the scalar quoted.
  [[nodiscard]] static std::string describe(const YAML::Node& node);

  // `what` names the value in messages: "'state'", "each entry of 'actions'".
  // `context` names the map for unknown keys: "ruleset", "action 'spark'".
  // An empty `known` accepts any key (maps of names).
  [[nodiscard]] std::optional<MapView> map(const YAML::Node& node, const SourceSpan& where,
                                           std::string_view what,
                                           std::initializer_list<std::string_view> known,
                                           std::string_view context) const;
  [[nodiscard]] std::optional<MapView> map(const Entry& e,
                                           std::initializer_list<std::string_view> known,
                                           std::string_view context) const;
  // The elements of a list; a single scalar counts as a list of one when
  // `allow_scalar` (e.g. `in: primary`).
  [[nodiscard]] std::optional<std::vector<YAML::Node>> list(const Entry& e,
                                                            bool allow_scalar = false) const;

  [[nodiscard]] std::optional<std::int64_t> integer(const Entry& e) const;
  [[nodiscard]] std::optional<std::int64_t> integer(const YAML::Node& node, const SourceSpan& where,
                                                    std::string_view what) const;
  [[nodiscard]] std::optional<bool> boolean(const Entry& e) const;
  [[nodiscard]] std::optional<Text> string(const Entry& e) const;
  [[nodiscard]] std::optional<Text> string(const YAML::Node& node, const SourceSpan& where,
                                           std::string_view what) const;
  // A name: [a-z_][a-z0-9_]*
  [[nodiscard]] std::optional<Text> identifier(const Entry& e) const;
  [[nodiscard]] std::optional<Text> identifier(const YAML::Node& node, const SourceSpan& where,
                                               std::string_view what) const;
  // A name as a map key.
  [[nodiscard]] std::optional<Text> key_identifier(const Entry& e, std::string_view category) const;

  // Expression / statements of a scalar (integers and true/false are read
  // directly; everything else goes through the expression parser).
  [[nodiscard]] ExprPtr expr(const Entry& e) const;
  [[nodiscard]] ExprPtr expr(const YAML::Node& node, const SourceSpan& where,
                             std::string_view what) const;
  [[nodiscard]] StmtPtr stmts(const Entry& e) const;

 private:
  std::string file_;
  std::string_view raw_;
  DiagnosticSink& sink_;
  [[nodiscard]] char raw_at(int pos) const;
};

bool is_identifier(std::string_view name);
// closest_name(), and failing that a candidate one adjacent swap away
// ("sprak" -> "spark"): the commonest typo, which plain edit distance
// counts as two edits and so misses for short names.
std::string suggest_name(const std::string& name, const std::vector<std::string>& candidates);
std::string quote_name(std::string_view name);  // 'name'

}  // namespace loophole::model
