// Markdown: a short summary for a pull-request comment or a CI job summary
// ($GITHUB_STEP_SUMMARY). One table row per ruleset, then at most
// `max_listed` findings that fail the run, each with its location, id and a
// collapsed transcript (folded as every report folds it: the end, where the
// finding happens, always shows); the full report is the SARIF or HTML one.
#include <fmt/format.h>

#include "loophole/reports/report.hpp"

#include "detail.hpp"

namespace loophole::reports {
namespace {

constexpr std::size_t max_listed = 20;

std::string scope(const RulesetReport& rs) {
  std::string out = fmt::format("players={}", rs.players);
  for (const auto& [name, value] : rs.params) out += fmt::format(" {}={}", name, value);
  return out;
}

}  // namespace

std::string render_markdown(const Report& report, const RenderOptions& options) {
  std::string out = "## loophole\n\n";
  int failing = 0;
  std::size_t listed = 0, unlisted = 0;
  std::string table =
      "| ruleset | result | errors | warnings | notes | inconclusive | accepted | states |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|\n";
  std::string list, stale;
  for (const auto& rs : report.rulesets) {
    const auto ids = finding_ids(rs);
    const auto c = detail::count(rs, ids);
    bool fail = false;
    const auto same = detail::identical_to(rs, ids);
    for (std::size_t i = 0; i < rs.findings.size(); ++i) {
      const auto& f = rs.findings[i];
      const auto& id = ids[i];
      if (!fails(rs, f, id, options.fail_on)) continue;
      fail = true;
      if (same[i] != i) continue;  // listed once, with the first of its group
      if (listed == max_listed) {
        ++unlisted;
        continue;
      }
      ++listed;
      list += fmt::format("- **{}** {} at {}: {}  \n  id {}\n", properties::to_string(f.severity),
                          markdown_text(detail::heading(f)), markdown_code(detail::location(rs, f)),
                          markdown_text(f.message), markdown_code(id));
      if (!f.invented.empty()) {
        // (Markdown prints no details: the rules the finding rests on that
        // are card texts invented for the model, as JSON lists them.)
        std::string rules;
        for (const auto& r : f.invented) rules += (rules.empty() ? "" : ", ") + markdown_code(r);
        list += fmt::format(
            "  rests on card texts invented for this model, not in the seed's rules: {}\n", rules);
      }
      const std::string merged = detail::identical_note(same, ids, i);
      if (!merged.empty()) list += fmt::format("  {}\n", markdown_text(merged));
      if (f.trace) {
        const auto& t = *f.trace;
        // The moves are one line each (a newline in a move's text would let
        // it start a line of its own) in a fence longer than any backtick
        // run they hold.
        const std::string moves =
            detail::transcript_text(rs, t, options.text.max_trace_lines, "  ");
        const std::string fence = markdown_fence(moves);
        list += fmt::format("  <details><summary>trace ({} move{})</summary>\n\n  {}\n{}  {}\n",
                            t.steps.size(), t.steps.size() == 1 ? "" : "s", fence, moves, fence);
        list += "  </details>\n";
      }
    }
    if (fail) ++failing;
    const bool open = rs.completion != checker::Completion::complete || c.inconclusive > 0 ||
                      !rs.not_checked.empty();
    std::string result = fail ? "❌ fails" : open ? "⚠️ inconclusive" : "✅ passes";
    if (detail::probabilistic(rs)) {
      result += fmt::format(" ({})", markdown_text(detail::probabilistic_note(rs)));
    }
    std::string states = rs.statistics ? group_digits(rs.statistics->states) : "–";
    table += fmt::format("| {} ({}) | {} | {} | {} | {} | {} | {} | {} |\n",
                         markdown_code(detail::run_label(rs)), markdown_text(scope(rs)), result,
                         c.errors, c.warnings, c.notes, c.inconclusive, c.accepted, states);
    for (const auto& s : rs.stale) {
      stale += fmt::format(
          "- note: accepted finding {} no longer occurs in {}; remove it from the "
          "project file\n",
          markdown_code(s.id), markdown_code(rs.file));
    }
  }
  const std::size_t bad = report.diagnostics.error_count();
  out += fmt::format("{} ruleset{} checked, {} failing (at or above `{}`){}.\n\n",
                     report.rulesets.size(), report.rulesets.size() == 1 ? "" : "s", failing,
                     properties::to_string(options.fail_on),
                     bad > 0 ? fmt::format(", {} input error{}", bad, bad == 1 ? "" : "s") : "");
  if (!report.rulesets.empty()) out += table + "\n";
  for (const auto& d : report.diagnostics.all()) {
    if (d.severity != model::Severity::error) continue;
    out += fmt::format("- **bad input** {}: {}\n",
                       markdown_code(d.where.known() ? fmt::format("{}:{}:{}", d.where.file,
                                                                   d.where.line, d.where.col)
                                                     : d.where.file),
                       markdown_text(d.message));
  }
  if (!list.empty()) out += "### Findings that fail the run\n\n" + list;
  if (unlisted > 0) out += fmt::format("\n…and {} more; see the full report.\n", unlisted);
  if (!stale.empty()) {
    if (!list.empty()) out += "\n";  // the findings list ends without a blank line
    out += "### Stale baseline entries\n\n" + stale;
  }
  return out;
}

}  // namespace loophole::reports
