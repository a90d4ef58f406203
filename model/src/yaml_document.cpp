// One YAML document from a file's text, or located diagnostics. yaml-cpp
// guards its own recursion (a DeepRecursion exception at 500 levels: 100,000
// `[` cost 0.1 s and no stack), so no pre-scan is needed, only a message
// that says what happened instead of its "bad file"; its other messages
// ("end of map not found") are rephrased in the file's terms (yaml_message). LoadAll() rather than
// Load(): the first would ignore everything after a `---`, and a ruleset
// whose second half is silently unread is worse than one that fails.
#include "loophole/model/yaml_document.hpp"

#include <string>
#include <utility>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/exceptions.h>

namespace loophole::model {
namespace {

SourceSpan at_mark(const std::string& path, const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) return SourceSpan{path, 0, 0, 0};
  return SourceSpan{path, static_cast<std::uint32_t>(mark.line) + 1,
                    static_cast<std::uint32_t>(mark.column) + 1, 0};
}

bool is_blank_or_comment(std::string_view line) {
  const auto first = line.find_first_not_of(" \t\r");
  return first == std::string_view::npos || line[first] == '#';
}

// The line of the `---` that starts the second document: the first marker
// after the first document's content (a marker before it opens the first).
// 0 when there is none (a bare document after `...`).
std::uint32_t second_document_line(std::string_view text) {
  bool content = false;
  std::uint32_t number = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    const std::string_view line = text.substr(begin, end - begin);
    ++number;
    const bool marker = line.substr(0, 3) == "---" &&
                        (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
    if (marker && content) return number;
    if (!marker && line.substr(0, 1) != "%" && !is_blank_or_comment(line)) content = true;
    if (marker && line.find_first_not_of(" \t\r", 3) != std::string_view::npos &&
        line[line.find_first_not_of(" \t\r", 3)] != '#') {
      content = true;  // `--- value` holds content itself
    }
    begin = end + 1;
  }
  return 0;
}

// Where a document's first token is a ',' (after blank and comment lines,
// directives, `---`/`...` markers, anchors and tags), as a 1-based line and
// column; {0, 0} when no document starts so. yaml-cpp 0.7 never returns
// from such a text (`,a`, `--- ,`, `&x ,`: found by fuzz_engines, it loops
// allocating without end), so it must not be handed one. A ',' can never
// start a YAML document (it is a flow indicator, which no plain scalar may
// start with), so no valid file is refused.
std::pair<std::uint32_t, std::uint32_t> leading_comma(std::string_view text) {
  bool start = true;  // before the first token of the current document
  std::uint32_t line = 1;
  std::size_t line_begin = 0;
  const auto marker = [&](std::size_t i) {
    if (i != line_begin || text.size() - i < 3) return false;
    const std::string_view m = text.substr(i, 3);
    if (m != "---" && m != "...") return false;
    return i + 3 == text.size() || text[i + 3] == ' ' || text[i + 3] == '\t' ||
           text[i + 3] == '\r' || text[i + 3] == '\n';
  };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_begin = ++i;
      continue;
    }
    if (marker(i)) {
      start = true;
      i += 3;
      continue;
    }
    if (!start) {
      i = std::min(text.find('\n', i), text.size());
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (c == '#' || (c == '%' && i == line_begin)) {
      i = std::min(text.find('\n', i), text.size());
    } else if (c == '&' || c == '!') {
      while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\r' &&
             text[i] != '\n') {
        ++i;
      }
    } else if (c == ',') {
      return {line, static_cast<std::uint32_t>(i - line_begin) + 1};
    } else {
      start = false;
    }
  }
  return {0, 0};
}

// yaml-cpp's message (its ErrorMsg constants) in the words of a designer
// who wrote the file: what is wrong at the marked place and what usually
// fixes it. A message not listed is passed through as it is.
std::string yaml_message(const std::string& raw) {
  namespace m = YAML::ErrorMsg;
  static const std::pair<const char*, const char*> k_words[] = {
      {m::END_OF_MAP,
       "this line does not line up with the keys of the map above it; check its "
       "indentation"},
      {m::END_OF_SEQ,
       "this line does not line up with the items of the list above it; check its "
       "indentation"},
      {m::END_OF_MAP_FLOW, "a '{' map is not closed with '}'"},
      {m::END_OF_SEQ_FLOW, "a '[' list is not closed with ']'"},
      {m::MAP_VALUE, "unexpected ':' (a value that holds ': ' must be quoted)"},
      {m::MAP_KEY, "unexpected '?' (a key that starts with '?' must be quoted)"},
      {m::BLOCK_ENTRY, "unexpected '- ' list item here; check its indentation"},
      {m::FLOW_END, "a closing ']' or '}' with nothing open"},
      {m::EOF_IN_SCALAR, "a quoted string is not closed before the end of the file"},
      {m::DOC_IN_SCALAR, "a '---' or '...' line inside a quoted string"},
      {m::CHAR_IN_SCALAR, "a character that cannot appear in an unquoted value; quote it"},
      {m::TAB_IN_INDENTATION, "a tab in the indentation; YAML indents with spaces"},
      {m::UNKNOWN_TOKEN, "a character YAML does not expect here"},
      {m::UNKNOWN_ANCHOR, "'*' names an anchor that no '&' defines above it"},
      {m::ALIAS_NOT_FOUND, "a '*' with no anchor name after it"},
      {m::ANCHOR_NOT_FOUND, "a '&' with no anchor name after it"},
      {m::CHAR_IN_BLOCK, "a character that cannot follow '|' or '>'"},
  };
  for (const auto& [from, to] : k_words) {
    if (raw == from) return to;
  }
  if (raw.rfind(m::INVALID_ESCAPE, 0) == 0) {
    return "unknown escape '\\" + raw.substr(std::string_view(m::INVALID_ESCAPE).size()) +
           "' in a double-quoted string (use single quotes for a literal backslash)";
  }
  return raw;
}

}  // namespace

std::optional<YAML::Node> parse_yaml_document(const std::string& path, const std::string& text,
                                              std::string_view what, DiagnosticSink& sink) {
  std::vector<YAML::Node> documents;
  if (const auto [line, column] = leading_comma(text); line != 0) {
    sink.error(SourceSpan{path, line, column, 1},
               "malformed YAML: a ',' outside a '[' list or '{' map (a value that starts "
               "with ',' must be quoted)");
    return std::nullopt;
  }
  try {
    documents = YAML::LoadAll(text);
  } catch (const YAML::DeepRecursion& e) {
    sink.error(at_mark(path, e.mark), fmt::format("nesting deeper than {} levels", e.depth()));
    return std::nullopt;
  } catch (const YAML::Exception& e) {
    sink.error(at_mark(path, e.mark), "malformed YAML: " + yaml_message(e.msg));
    return std::nullopt;
  }
  if (documents.size() > 1) {
    SourceSpan where = at_mark(path, documents[1].Mark());
    if (const std::uint32_t line = second_document_line(text); line != 0) {
      where = SourceSpan{path, line, 1, 3};
    }
    sink.error(where, fmt::format("{} holds one YAML document; a second starts here", what));
    return std::nullopt;
  }
  if (documents.empty()) return YAML::Node();
  return documents.front();
}

}  // namespace loophole::model
