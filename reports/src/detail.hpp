// Helpers the renderers share; not part of the reports library's interface.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "loophole/reports/escape.hpp"
#include "loophole/reports/report.hpp"

namespace loophole::reports::detail {

inline constexpr properties::Kind all_kinds[] = {
    properties::Kind::deadlock,        properties::Kind::response_loop,
    properties::Kind::unbounded_chain, properties::Kind::stalemate,
    properties::Kind::unreachable_win, properties::Kind::rule_gap,
    properties::Kind::dead_rule,       properties::Kind::property_violation,
    properties::Kind::structure,       properties::Kind::tie,
    properties::Kind::turn_loop,       properties::Kind::cannot_lose,
    properties::Kind::cannot_end,      properties::Kind::stall,
};

std::string step_label(const RulesetReport& rs, int step);   // "combat.fight", "setup"
std::string pretty_step(const RulesetReport& rs, int step);  // "combat · fight"
std::string heading(const properties::Finding& f);           // "response loop (mandatory)"
std::string_view completion_name(checker::Completion c);     // "state-limit"
std::string_view move_kind_name(checker::MoveKind k);
std::string location(const RulesetReport& rs, const properties::Finding& f);  // "f:1:2" or f
std::string kind_description(properties::Kind k);
std::string run_label(const RulesetReport& rs);  // "f.yaml", or "f.yaml [deck=3]" in a sweep
// Under hash compaction (--compact), what the verdict's probability is:
// "probabilistic verdict: hash compaction (64-bit fingerprints) may have
// missed a state, with probability at most 6.0e-07"; empty otherwise. Every
// format says it in these words (JSON and SARIF as data beside them).
std::string probabilistic_note(const RulesetReport& rs);
[[nodiscard]] inline bool probabilistic(const RulesetReport& rs) {
  return rs.statistics && rs.statistics->compact;
}

struct Counts {
  int errors = 0, warnings = 0, notes = 0, inconclusive = 0, accepted = 0;
};
Counts count(const RulesetReport& rs, const std::vector<std::string>& ids);

// One line of a transcript as the text, Markdown, JUnit and HTML reports
// print it. Runs of bare passes at one control point fold into one line
// ("P2, P1 pass"); past `max_lines` lines the middle folds into one line
// ("... (14 moves)") so that both the start and the end, where the finding
// happens, stay. JSON and SARIF keep every move: they are data.
struct TranscriptLine {
  enum class Kind : std::uint8_t { move, fold } kind = Kind::move;
  std::size_t first = 0, last = 0;           // the moves (0-based, inclusive) the line stands for
  bool cycle_starts = false;                 // the trace's cycle starts at this line's first move
  std::string text;                          // a move's text, or the joined passes
  [[nodiscard]] std::string number() const;  // "4", "4-5" (1-based)
};
// max_lines 0: no folding of the middle (`loophole explain`).
std::vector<TranscriptLine> transcript_lines(const checker::Trace& t, std::size_t max_lines);

// "4 moves, shortest", "4 moves, shortest; moves 2-4 repeat forever" (with_cycle);
// "4 moves, a simulated game" for a playout's trace (not shortest).
std::string trace_summary(const checker::Trace& t, bool with_cycle, bool shortest = true);

// The transcript as plain text (text, Markdown, JUnit, explain): the state
// after setup, the lines above, the cycle's closing note; every line starts
// with `indent`, and text from the ruleset passes model::terminal_safe.
std::string transcript_text(const RulesetReport& rs, const checker::Trace& t, std::size_t max_lines,
                            std::string_view indent);

// For each finding, the index of the first finding a reader cannot tell it
// apart from (itself when none comes before): same kind, severity, verdict,
// location, message, details and acceptance, and the same transcript as
// printed (the state after setup and every move's text and control point;
// not the per-slot changes and choices JSON lists). Text, Markdown, HTML and
// JUnit print such a group once with its count and ids; JSON and SARIF keep
// every finding and mark the later ones (docs/cli.md, Report formats).
std::vector<std::size_t> identical_to(const RulesetReport& rs, const std::vector<std::string>& ids);

// "identical to 2 more findings: 'a#2', 'a#3' (they differ only in detail the
// transcript does not show)", for the first finding of a group; "" otherwise.
std::string identical_note(const std::vector<std::size_t>& same,
                           const std::vector<std::string>& ids, std::size_t i);

// One finding as the text report prints it (location line, source snippet,
// acceptance, details, the identical_note, the transcript folded past
// max_lines; 0: in full), for render_text and render_explain.
std::string text_finding(const RulesetReport& rs, std::size_t i,
                         const std::vector<std::string>& ids, const std::vector<std::size_t>& same,
                         const model::SourceManager& sources, bool color, std::size_t max_lines);

// One finding as the JSON report writes it (schema/report.schema.json).
nlohmann::json finding_json(const RulesetReport& rs, const properties::Finding& f,
                            const std::string& id);

// The HTML report's style sheet, and one finding as it draws it (for the
// simulation report, which shows its problems the same way).
std::string_view html_style();
void html_finding(std::string& out, const RulesetReport& rs, const properties::Finding& f,
                  const std::string& id, std::size_t ordinal, const model::SourceManager& sources,
                  const RenderOptions& options);

}  // namespace loophole::reports::detail
