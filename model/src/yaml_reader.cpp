// Typed reading of YAML nodes with exact positions. Every reader returns
// nullopt/nullptr after reporting why, so the loader can keep going and
// report every problem of a file in one run. Block scalars (`|`, `>`) get a
// TextOrigin line per value line, found by matching the value's lines
// against the raw file text that follows the block indicator.
#include "yaml_reader.hpp"

#include <algorithm>
#include <charconv>

namespace loophole::model {

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == text.size()) break;
    begin = end + 1;
  }
  return lines;
}

bool is_blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t'; });
}

std::size_t indent_of(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

std::optional<std::int64_t> parse_int(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::string_view digits = s;
  if (digits.front() == '+') digits.remove_prefix(1);
  std::int64_t value = 0;
  const auto* first = digits.data();
  const auto* last = digits.data() + digits.size();
  if (first == last) return std::nullopt;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr != last) return std::nullopt;
  return value;
}

bool looks_numeric(std::string_view s) {
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<bool> parse_bool(std::string_view s) {
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  return std::nullopt;
}

}  // namespace

bool is_identifier(std::string_view name) {
  if (name.empty()) return false;
  const char c0 = name.front();
  if (!((c0 >= 'a' && c0 <= 'z') || c0 == '_')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string suggest_name(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best = closest_name(name, candidates);
  if (!best.empty()) return best;
  for (const std::string& c : candidates) {
    if (c.size() != name.size() || c == name) continue;
    std::size_t i = 0;
    while (i < c.size() && c[i] == name[i]) ++i;
    if (i + 1 < c.size() && c[i] == name[i + 1] && c[i + 1] == name[i] &&
        c.compare(i + 2, std::string::npos, name, i + 2, std::string::npos) == 0) {
      return c;
    }
  }
  return {};
}

std::string quote_name(std::string_view name) { return "'" + std::string(name) + "'"; }

const Entry* MapView::get(std::string_view key) const {
  for (const Entry& e : entries_) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

YamlReader::YamlReader(std::string file, std::string_view raw, DiagnosticSink& sink)
    : file_(std::move(file)), raw_(raw), sink_(sink) {}

char YamlReader::raw_at(int pos) const {
  if (pos < 0 || static_cast<std::size_t>(pos) >= raw_.size()) return '\0';
  return raw_[static_cast<std::size_t>(pos)];
}

SourceSpan YamlReader::span(const YAML::Node& node) const {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null() || mark.line < 0 || mark.column < 0) return SourceSpan{file_, 0, 0, 0};
  SourceSpan s{file_, static_cast<std::uint32_t>(mark.line) + 1,
               static_cast<std::uint32_t>(mark.column) + 1, 0};
  if (node.IsScalar()) {
    const std::string& value = node.Scalar();
    const char c = raw_at(mark.pos);
    const bool single_line = value.find('\n') == std::string::npos;
    if (c == '"' || c == '\'') {
      s.col += 1;
      if (single_line) s.length = static_cast<std::uint32_t>(value.size());
    } else if (c == '|' || c == '>') {
      s.length = 1;
    } else if (single_line) {
      s.length = static_cast<std::uint32_t>(value.size());
    }
  }
  return s;
}

SourceSpan YamlReader::span(const Entry& entry) const {
  if (!entry.value.IsDefined() || entry.value.IsNull()) {
    // An explicit `~` or `null` has a position of its own.
    const YAML::Mark mark = entry.value.Mark();
    const char c = raw_at(mark.pos);
    if (entry.value.IsDefined() && (c == '~' || c == 'n' || c == 'N')) return span(entry.value);
    return entry.key_where;
  }
  return span(entry.value);
}

TextOrigin YamlReader::origin(const YAML::Node& scalar) const {
  const YAML::Mark mark = scalar.Mark();
  if (mark.is_null() || mark.line < 0) return TextOrigin::at_position(file_, 0, 0);
  const auto line = static_cast<std::uint32_t>(mark.line) + 1;
  const auto col = static_cast<std::uint32_t>(mark.column) + 1;
  const char c = raw_at(mark.pos);
  if (c == '"' || c == '\'') return TextOrigin::at_position(file_, line, col + 1);
  if (c != '|' && c != '>') return TextOrigin::at_position(file_, line, col);

  // A block scalar: its content starts on the line after the indicator.
  const bool folded = c == '>';
  const std::vector<std::string_view> file_lines = split_lines(raw_);
  const std::vector<std::string_view> value_lines = split_lines(scalar.Scalar());
  TextOrigin origin;
  origin.file = file_;
  std::size_t cursor = static_cast<std::size_t>(mark.line) + 1;  // 0-based file line
  const auto at_line = [&](std::size_t index, std::size_t column) {
    return TextOrigin::LineStart{static_cast<std::uint32_t>(index + 1),
                                 static_cast<std::uint32_t>(column + 1)};
  };
  for (const std::string_view v : value_lines) {
    if (cursor >= file_lines.size()) {
      origin.lines.push_back(at_line(file_lines.empty() ? 0 : file_lines.size() - 1, 0));
      continue;
    }
    if (!folded) {
      // Literal: one file line per value line, the value being its tail.
      const std::string_view f = file_lines[cursor];
      const std::size_t column =
          f.size() >= v.size() && f.substr(f.size() - v.size()) == v && !v.empty()
              ? f.size() - v.size()
              : indent_of(f);
      origin.lines.push_back(at_line(cursor, column));
      ++cursor;
      continue;
    }
    // Folded: a value line is one or more non-blank file lines joined by
    // spaces; an empty value line stands for a blank file line.
    if (v.empty()) {
      origin.lines.push_back(at_line(cursor, 0));
      if (is_blank(file_lines[cursor])) ++cursor;
      continue;
    }
    while (cursor < file_lines.size() && is_blank(file_lines[cursor])) ++cursor;
    if (cursor >= file_lines.size()) {
      origin.lines.push_back(at_line(file_lines.size() - 1, 0));
      continue;
    }
    const std::string_view first = file_lines[cursor];
    const std::size_t indent = indent_of(first);
    origin.lines.push_back(at_line(cursor, indent));
    std::size_t consumed = first.size() - indent;
    ++cursor;
    while (consumed < v.size() && cursor < file_lines.size() && !is_blank(file_lines[cursor])) {
      const std::string_view next = file_lines[cursor];
      consumed += 1 + next.size() - indent_of(next);
      ++cursor;
    }
  }
  if (origin.lines.empty()) origin.lines.push_back(at_line(static_cast<std::size_t>(mark.line), 0));
  return origin;
}

std::string YamlReader::describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  std::string value = node.Scalar();
  if (value.size() > 40) value = value.substr(0, 37) + "...";
  return quote_name(value);
}

std::optional<MapView> YamlReader::map(const YAML::Node& node, const SourceSpan& where,
                                       std::string_view what,
                                       std::initializer_list<std::string_view> known,
                                       std::string_view context) const {
  if (!node.IsMap()) {
    sink_.error(where, std::string(what) + " must be a map, found " + describe(node));
    return std::nullopt;
  }
  MapView view;
  view.where = where;
  const std::vector<std::string> candidates(known.begin(), known.end());
  for (const auto& kv : node) {
    const YAML::Node& key = kv.first;
    if (!key.IsScalar()) {
      sink_.error(span(key), "a key must be a name, found " + describe(key));
      continue;
    }
    Entry entry{key.Scalar(), span(key), kv.second};
    if (known.size() != 0) {
      if (std::find(known.begin(), known.end(), entry.key) == known.end()) {
        std::string message =
            "unknown key " + quote_name(entry.key) + " in " + std::string(context);
        const std::string suggestion = suggest_name(entry.key, candidates);
        if (!suggestion.empty()) message += "; did you mean " + quote_name(suggestion) + "?";
        sink_.error(entry.key_where, std::move(message));
        continue;
      }
      if (const Entry* first = view.get(entry.key)) {
        Diagnostic& d = sink_.error(entry.key_where, "duplicate key " + quote_name(entry.key) +
                                                         " in " + std::string(context));
        DiagnosticSink::note(d, first->key_where, "first given here");
        continue;
      }
    }
    view.entries_.push_back(std::move(entry));
  }
  return view;
}

std::optional<MapView> YamlReader::map(const Entry& e,
                                       std::initializer_list<std::string_view> known,
                                       std::string_view context) const {
  return map(e.value, span(e), quote_name(e.key), known, context);
}

std::optional<std::vector<YAML::Node>> YamlReader::list(const Entry& e, bool allow_scalar) const {
  if (e.value.IsSequence()) {
    std::vector<YAML::Node> items;
    for (const auto& item : e.value) items.push_back(item);
    return items;
  }
  if (allow_scalar && e.value.IsScalar()) return std::vector<YAML::Node>{e.value};
  sink_.error(span(e), quote_name(e.key) + " must be a list, found " + describe(e.value));
  return std::nullopt;
}

std::optional<std::int64_t> YamlReader::integer(const YAML::Node& node, const SourceSpan& where,
                                                std::string_view what) const {
  if (node.IsScalar()) {
    if (auto v = parse_int(node.Scalar())) return v;
    if (looks_numeric(node.Scalar())) {
      sink_.error(where, "integer " + node.Scalar() + " is too large");
      return std::nullopt;
    }
  }
  sink_.error(where, std::string(what) + " must be an integer, found " + describe(node));
  return std::nullopt;
}

std::optional<std::int64_t> YamlReader::integer(const Entry& e) const {
  return integer(e.value, span(e), quote_name(e.key));
}

std::optional<bool> YamlReader::boolean(const Entry& e) const {
  if (e.value.IsScalar()) {
    if (auto v = parse_bool(e.value.Scalar())) return v;
  }
  sink_.error(span(e), quote_name(e.key) + " must be true or false, found " + describe(e.value));
  return std::nullopt;
}

std::optional<Text> YamlReader::string(const YAML::Node& node, const SourceSpan& where,
                                       std::string_view what) const {
  if (!node.IsScalar()) {
    sink_.error(where, std::string(what) + " must be a string, found " + describe(node));
    return std::nullopt;
  }
  return Text{node.Scalar(), where};
}

std::optional<Text> YamlReader::string(const Entry& e) const {
  return string(e.value, span(e), quote_name(e.key));
}

std::optional<Text> YamlReader::identifier(const YAML::Node& node, const SourceSpan& where,
                                           std::string_view what) const {
  auto text = string(node, where, what);
  if (!text) return std::nullopt;
  if (!is_identifier(text->value)) {
    sink_.error(where, std::string(what) + " must be a name ([a-z_][a-z0-9_]*), found " +
                           quote_name(text->value));
    return std::nullopt;
  }
  return text;
}

std::optional<Text> YamlReader::identifier(const Entry& e) const {
  return identifier(e.value, span(e), quote_name(e.key));
}

std::optional<Text> YamlReader::key_identifier(const Entry& e, std::string_view category) const {
  if (!is_identifier(e.key)) {
    sink_.error(e.key_where, "invalid " + std::string(category) + " name " + quote_name(e.key) +
                                 ": names are lowercase identifiers [a-z_][a-z0-9_]*");
    return std::nullopt;
  }
  return Text{e.key, e.key_where};
}

ExprPtr YamlReader::expr(const YAML::Node& node, const SourceSpan& where,
                         std::string_view what) const {
  if (!node.IsScalar()) {
    sink_.error(where, std::string(what) + " must be an expression, found " + describe(node));
    return nullptr;
  }
  const std::string& text = node.Scalar();
  if (auto v = parse_int(text)) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::int_lit;
    e->type = Type::int_();
    e->value = *v;
    e->where = where;
    e->text = text;
    return e;
  }
  if (looks_numeric(text)) {
    sink_.error(where, "integer " + text + " is too large");
    return nullptr;
  }
  if (auto b = parse_bool(text)) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::bool_lit;
    e->type = Type::bool_();
    e->value = *b ? 1 : 0;
    e->where = where;
    e->text = text;
    return e;
  }
  return parse_expr(text, origin(node), sink_);
}

ExprPtr YamlReader::expr(const Entry& e) const { return expr(e.value, span(e), quote_name(e.key)); }

StmtPtr YamlReader::stmts(const Entry& e) const {
  if (!e.value.IsDefined() || e.value.IsNull()) return nullptr;
  if (!e.value.IsScalar()) {
    sink_.error(span(e),
                quote_name(e.key) + " must be statements (a string), found " + describe(e.value));
    return nullptr;
  }
  return parse_stmts(e.value.Scalar(), origin(e.value), sink_);
}

}  // namespace loophole::model
