// One escaping function per language a report is written in. Every piece of
// text that came from a ruleset or the command line (names, messages, file
// names, transcripts, source lines) is untrusted: a pull request can put any
// bytes there, so each renderer passes such text through the function of its
// target and nowhere builds its own escaping (for a terminal, that is
// model::terminal_safe, which the diagnostics share). Every function also repairs
// invalid UTF-8 (each bad byte becomes U+FFFD), so no report is ever invalid
// UTF-8 whatever the input held.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace loophole::reports {

// `text` with every byte that does not start or continue a well-formed UTF-8
// sequence (overlong forms, surrogates and code points above U+10FFFF
// included) replaced by U+FFFD.
std::string valid_utf8(std::string_view text);

// XML and HTML element content and attribute values: `& < > " '` as
// entities, control characters (not allowed in XML 1.0) as U+FFFD except
// tab and newline.
std::string xml_escape(std::string_view text);

// Markdown inline text (a table cell, a list item): every ASCII punctuation
// character that Markdown or GitHub's HTML subset gives a meaning is
// backslash-escaped, `<`, `>`, `&` and `@` become entities (no HTML, no
// mentions), and newlines and controls become spaces.
std::string markdown_text(std::string_view text);

// A Markdown code span: fenced with one backtick more than the longest run
// inside it, on one line.
std::string markdown_code(std::string_view text);

// The fence for a Markdown code block holding `text`: three backticks, or
// one more than the longest backtick run inside it.
std::string markdown_fence(std::string_view text);

// A file path as a URI reference (SARIF's artifactLocation.uri): letters,
// digits, `-._~` and `/` as they are, every other byte (spaces, `#`, `%`,
// `?`, `:`, UTF-8) percent-encoded, so a file name cannot add a scheme, a
// query or a fragment.
std::string uri_reference(std::string_view path);

// JSON text of `j` (indent 2), with invalid UTF-8 in any string repaired
// instead of the serializer throwing.
std::string json_dump(const nlohmann::json& j);

}  // namespace loophole::reports
