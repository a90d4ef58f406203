// The text report: what a designer reads in a terminal or a CI log. Each
// finding is a compiler-style line (`file:line:col: severity: message`) so
// editors and CI annotators can jump to the rule, then the source line with a
// caret, then the game transcript of its trace. Results go to stdout; the
// caller decides about color (terminal or not). Text that came from the
// ruleset or the command line goes through model::terminal_safe on its way
// out: a ruleset must not be able to send escape sequences to a terminal.
#include <string>

#include <fmt/format.h>

#include "loophole/model/diagnostics.hpp"
#include "loophole/reports/report.hpp"

#include "detail.hpp"

namespace loophole::reports {
namespace {

using model::terminal_safe;

struct Palette {
  bool on = false;
  [[nodiscard]] std::string wrap(std::string_view code, std::string_view text) const {
    if (!on) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
  }
};

std::string severity_code(properties::Severity s) {
  switch (s) {
    case properties::Severity::error:
      return "1;31";
    case properties::Severity::warning:
      return "1;35";
    case properties::Severity::note:
      return "1;36";
  }
  return "1";
}

std::string_view completion_note(checker::Completion c) {
  switch (c) {
    case checker::Completion::complete:
      return "";
    case checker::Completion::state_limit:
      return "  (inconclusive: state limit reached)";
    case checker::Completion::memory_limit:
      return "  (inconclusive: memory limit reached)";
    case checker::Completion::time_limit:
      return "  (inconclusive: time limit reached)";
    case checker::Completion::interrupted:
      return "  (inconclusive: interrupted)";
  }
  return "";
}

// "  symmetry: slots of faces (12,345 states)", or why it was not applied;
// nothing when the rules have no array of records.
std::string symmetry_note(const checker::Statistics& st) {
  if (st.symmetry.empty()) return "";
  if (st.orbit_states == 0) return "  symmetry " + terminal_safe(st.symmetry);
  return fmt::format("  symmetry {} (orbits of {} states)", terminal_safe(st.symmetry),
                     group_digits(st.orbit_states));
}

// "rules.yaml", or "rules.yaml [deck=3]" for one run of a sweep.
std::string run_label(const RulesetReport& rs) { return terminal_safe(detail::run_label(rs)); }

}  // namespace

std::string group_digits(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  const std::size_t first = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
  out += digits.substr(0, first);
  for (std::size_t i = first; i < digits.size(); i += 3) {
    out += ',';
    out += digits.substr(i, 3);
  }
  return out;
}

std::string format_rate(double per_second) {
  if (per_second >= 1e6) return fmt::format("{:.1f}M/s", per_second / 1e6);
  if (per_second >= 1e3) return fmt::format("{:.0f}k/s", per_second / 1e3);
  return fmt::format("{:.0f}/s", per_second);
}

namespace detail {

std::string text_finding(const RulesetReport& rs, std::size_t i,
                         const std::vector<std::string>& ids, const std::vector<std::size_t>& same,
                         const model::SourceManager& sources, bool color, std::size_t max_lines) {
  const Palette p{color};
  std::string out;
  const auto& f = rs.findings[i];
  const auto& id = ids[i];
  const std::string loc = terminal_safe(detail::location(rs, f));
  out += fmt::format("{}: {}: {}: {}\n", p.wrap("1", loc),
                     p.wrap(severity_code(f.severity), properties::to_string(f.severity)),
                     detail::heading(f), p.wrap("1", terminal_safe(f.message)));
  out += model::render_snippet(sources, f.where);
  const auto accepted = rs.accepted.find(id);
  if (accepted != rs.accepted.end()) {
    out += fmt::format("  accepted ({}): {}\n", id, terminal_safe(accepted->second));
  }
  for (const auto& d : f.details) out += fmt::format("  {}\n", terminal_safe(d));
  const std::string merged = detail::identical_note(same, ids, i);
  if (!merged.empty()) out += fmt::format("  {}\n", terminal_safe(merged));
  if (f.trace) {
    out += fmt::format("  trace ({}):\n",
                       detail::trace_summary(*f.trace, false, rs.engine != "simulate"));
    out += detail::transcript_text(rs, *f.trace, max_lines, "    ");
  }
  return out;
}

}  // namespace detail

std::string render_text(const Report& report, const model::SourceManager& sources,
                        const TextOptions& options) {
  const Palette p{options.color};
  std::string out;
  for (const auto& rs : report.rulesets) {
    const auto ids = finding_ids(rs);
    const auto same = detail::identical_to(rs, ids);
    for (std::size_t i = 0; i < rs.findings.size(); ++i) {
      if (same[i] != i) continue;  // printed once, with the first of its group
      out +=
          detail::text_finding(rs, i, ids, same, sources, options.color, options.max_trace_lines);
    }
    for (const auto& st : rs.stale) {
      const std::string loc = terminal_safe(
          st.where.known() ? fmt::format("{}:{}:{}", st.where.file, st.where.line, st.where.col)
                           : rs.file);
      out += fmt::format(
          "{}: {}: accepted finding '{}' no longer occurs in '{}'; remove it from "
          "the project file\n",
          p.wrap("1", loc), p.wrap(severity_code(properties::Severity::note), "note"),
          terminal_safe(st.id), terminal_safe(rs.file));
    }
    if (options.statistics && rs.statistics) {
      const auto& st = *rs.statistics;
      const double rate = st.seconds > 0 ? static_cast<double>(st.states) / st.seconds : 0;
      out += fmt::format(
          "{}: {} finding{}  states {}  transitions {}  depth {}  time {:.2f} s  rate {}  "
          "bytes/state {:.1f}  threads {}{}{}{}\n",
          run_label(rs), rs.findings.size(), rs.findings.size() == 1 ? "" : "s",
          group_digits(st.states), group_digits(st.transitions), st.depth, st.seconds,
          format_rate(rate), st.bytes_per_state, st.threads,
          st.generator != "native" ? ""
          : st.native_from         ? "  native from state " + group_digits(*st.native_from)
                                   : "  native",
          symmetry_note(st), completion_note(rs.completion));
      if (!rs.not_checked.empty()) {
        out += fmt::format("{}: stopped before these analyses finished: {}\n", run_label(rs),
                           fmt::join(rs.not_checked, ", "));
      }
    } else if (options.statistics) {
      out += fmt::format("{}: {} finding{} ({}){}\n", run_label(rs), rs.findings.size(),
                         rs.findings.size() == 1 ? "" : "s", rs.engine,
                         completion_note(rs.completion));
    }
    if (detail::probabilistic(rs)) {
      out += fmt::format("{}: {}\n", run_label(rs), detail::probabilistic_note(rs));
    }
  }
  return out;
}

}  // namespace loophole::reports
