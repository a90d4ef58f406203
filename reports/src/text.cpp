// The text report: what a designer reads in a terminal or a CI log. Each
// finding is a compiler-style line (`file:line:col: severity: message`) so
// editors and CI annotators can jump to the rule, then the source line with a
// caret, then the game transcript of its trace. Results go to stdout; the
// caller decides about color (terminal or not). Text that came from the
// ruleset or the command line goes through model::terminal_safe on its way
// out: a ruleset must not be able to send escape sequences to a terminal.
#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <range/v3/view/zip.hpp>

#include "loophole/model/diagnostics.hpp"
#include "loophole/reports/report.hpp"

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

std::string heading(const properties::Finding& f) {
  std::string h(properties::to_string(f.kind));
  std::replace(h.begin(), h.end(), '-', ' ');
  if (f.kind == properties::Kind::response_loop || f.kind == properties::Kind::stall) {
    if (f.loop == properties::LoopClass::optional_one && f.loop_player >= 0) {
      h += fmt::format(" (optional, P{} controls it)", f.loop_player + 1);
    } else if (f.loop != properties::LoopClass::none) {
      h += fmt::format(" ({})", properties::to_string(f.loop));
    }
  }
  if (f.verdict == properties::Verdict::unknown) h += " (inconclusive)";
  return h;
}

std::string control_point(const model::Game* game, const checker::TraceStep& s) {
  if (game == nullptr || s.step < 0) return "setup";
  std::string name = game->step_name(s.step);
  const auto dot = name.find('.');
  if (dot != std::string::npos) name.replace(dot, 1, " · ");
  return name;
}

void render_trace(std::string& out, const RulesetReport& rs, const checker::Trace& trace,
                  const TextOptions& options) {
  const std::size_t n = trace.steps.size();
  out += fmt::format("  trace ({} move{}, shortest):\n", n, n == 1 ? "" : "s");
  std::size_t width = 0;
  for (const auto& s : trace.steps) width = std::max(width, control_point(rs.model, s).size());
  const std::size_t keep = options.max_trace_lines;
  for (std::size_t i = 0; i < n; ++i) {
    if (n > keep && i == keep / 2) {
      out += fmt::format("    ... ({} moves)\n", n - keep);
      i = n - keep / 2 - 1;
      continue;
    }
    const auto& s = trace.steps[i];
    if (trace.loop_start >= 0 && static_cast<std::size_t>(trace.loop_start) == i) {
      out += "    -- cycle starts here --\n";
    }
    out += fmt::format("    {:>3}  T{} P{}  {:<{}}  {}\n", i + 1, s.turn, s.active + 1,
                       control_point(rs.model, s), width, terminal_safe(s.text));
  }
  if (trace.loop_start >= 0) {
    const std::size_t len = n - static_cast<std::size_t>(trace.loop_start);
    out += fmt::format("    (cycle: {} move{} back to the state after move {}, repeats forever)\n",
                       len, len == 1 ? "" : "s", trace.loop_start);
  }
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

// "rules.yaml", or "rules.yaml [deck=3]" for one run of a sweep.
std::string run_label(const RulesetReport& rs) {
  if (rs.swept.empty()) return terminal_safe(rs.file);
  return terminal_safe(fmt::format("{} [{}={}]", rs.file, rs.swept, rs.swept_value));
}

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

std::string render_text(const Report& report, const model::SourceManager& sources,
                        const TextOptions& options) {
  const Palette p{options.color};
  std::string out;
  for (const auto& rs : report.rulesets) {
    const auto ids = finding_ids(rs);
    for (const auto& [f, id] : ranges::views::zip(rs.findings, ids)) {
      const std::string loc = terminal_safe(
          f.where.known() ? fmt::format("{}:{}:{}", f.where.file, f.where.line, f.where.col)
                          : rs.file);
      out += fmt::format("{}: {}: {}: {}\n", p.wrap("1", loc),
                         p.wrap(severity_code(f.severity), properties::to_string(f.severity)),
                         heading(f), p.wrap("1", terminal_safe(f.message)));
      out += model::render_snippet(sources, f.where);
      const auto accepted = rs.accepted.find(id);
      if (accepted != rs.accepted.end()) {
        out += fmt::format("  accepted ({}): {}\n", id, terminal_safe(accepted->second));
      }
      for (const auto& d : f.details) out += fmt::format("  {}\n", terminal_safe(d));
      if (f.trace) render_trace(out, rs, *f.trace, options);
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
          "bytes/state {:.1f}  threads {}{}{}\n",
          run_label(rs), rs.findings.size(), rs.findings.size() == 1 ? "" : "s",
          group_digits(st.states), group_digits(st.transitions), st.depth, st.seconds,
          format_rate(rate), st.bytes_per_state, st.threads,
          st.generator != "native" ? ""
          : st.native_from         ? "  native from state " + group_digits(*st.native_from)
                                   : "  native",
          completion_note(rs.completion));
      if (!rs.not_checked.empty()) {
        out += fmt::format("{}: interrupted before these analyses finished: {}\n", run_label(rs),
                           fmt::join(rs.not_checked, ", "));
      }
    } else if (options.statistics) {
      out += fmt::format("{}: {} finding{} ({})\n", run_label(rs), rs.findings.size(),
                         rs.findings.size() == 1 ? "" : "s", rs.engine);
    }
  }
  return out;
}

}  // namespace loophole::reports
