// Diagnostics are values: every stage of the front end appends to one sink,
// and the sink is rendered once at the end (text for humans, JSON/SARIF by
// reports/). Errors do not stop the front end: it reports as many as it can.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loophole/model/source.hpp"

namespace loophole::model {

enum class Severity { note, warning, error };

struct Diagnostic {
  Severity severity = Severity::error;
  SourceSpan where;
  std::string message;  // lowercase, user-written names quoted: "unknown zone 'discard_pile'"
  std::vector<Diagnostic> notes;  // e.g. "did you mean 'discard'? (declared at f:3:6)"
};

class DiagnosticSink {
 public:
  Diagnostic& error(SourceSpan where, std::string message);
  Diagnostic& warning(SourceSpan where, std::string message);
  static void note(Diagnostic& d, SourceSpan where, std::string message);

  // Adds the note to every diagnostic from index `first` on: what an
  // expansion reported gets where it was expanded ("in macro 'm' used at ...").
  void note_since(std::size_t first, const SourceSpan& where, const std::string& message);

  [[nodiscard]] bool has_errors() const;
  [[nodiscard]] std::size_t error_count() const;
  [[nodiscard]] const std::vector<Diagnostic>& all() const { return diags_; }

  // Renders compiler style:
  //   file:line:col: error: message
  //      14 |   do: move(hand, discard_pile, 1)
  //         |                  ^~~~~~~~~~~~
  //   note: did you mean 'discard'? (declared at file:3:6)
  // Diagnostics are sorted by file, line, col (stable) before rendering;
  // the first max_rendered are rendered, then one note counts the rest
  // ("and 199900 more errors"): nobody reads past them, and a generated
  // file with an error per line would print for minutes.
  static constexpr std::size_t max_rendered = 100;
  [[nodiscard]] std::string render(const SourceManager& sources, bool color = false) const;

 private:
  std::vector<Diagnostic> diags_;
};

// The line of `where` with the span underlined, as render() quotes it under
// a diagnostic (two lines); "" when the line is unknown or its file may not
// be quoted (SourceManager::line). Findings are quoted with it too.
std::string render_snippet(const SourceManager& sources, const SourceSpan& where,
                           bool color = false);

// `text` with everything a terminal would act on shown escaped: C0 and C1
// control characters (ESC as \x1b), DEL, the bidirectional overrides, and
// bytes that are not UTF-8 (\xff); tabs stay. The renderer passes every file
// name, message and quoted line through it, so a ruleset cannot move the
// cursor, recolor or rewrite a CI log.
std::string terminal_safe(std::string_view text);

// "did you mean" helper: the closest candidate by edit distance, or "" when
// none is close enough (distance <= max(1, name.size() / 3)).
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace loophole::model
