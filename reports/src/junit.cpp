// JUnit XML, the format CI dashboards (GitLab, Jenkins, GitHub test
// reporters) show as tests: one test suite per ruleset checked, one test case
// per property per ruleset (each built-in analysis, then each of the
// designer's own properties), failing when a finding of that property is at
// or above --fail-on and not accepted. A failure carries the findings and
// their transcripts (from the state after setup, folded as in the text
// report); an inconclusive check is skipped with the reason.
#include <algorithm>

#include <fmt/format.h>

#include "loophole/reports/report.hpp"

#include "detail.hpp"

namespace loophole::reports {
namespace {

struct Case {
  std::string name;
  std::vector<std::size_t> findings;  // indices into rs.findings
};

std::string transcript(const RulesetReport& rs, const properties::Finding& f, const std::string& id,
                       const std::string& merged, std::size_t max_lines) {
  std::string out =
      fmt::format("{}: {}: {}: {}\n  id: {}\n", detail::location(rs, f),
                  properties::to_string(f.severity), detail::heading(f), f.message, id);
  for (const auto& d : f.details) out += "  " + d + "\n";
  if (!merged.empty()) out += "  " + merged + "\n";
  if (f.trace) {
    out += fmt::format("  trace ({}):\n", detail::trace_summary(*f.trace, false));
    out += detail::transcript_text(rs, *f.trace, max_lines, "    ");
  }
  return out;
}

// Whether an interruption stopped the analysis behind test case `name`
// (rs.not_checked names analyses as properties::run_checks does).
bool cut_short(const RulesetReport& rs, const std::string& name) {
  for (const auto& a : rs.not_checked) {
    const bool hit =
        (a == "deadlocks" && name == "deadlock") ||
        (a == "response loops" &&
         (name == "response-loop" || name == "unbounded-chain" || name == "stall")) ||
        (a == "turn loops" && name == "turn-loop") || (a == "ties" && name == "tie") ||
        (a == "stalemates" && name == "stalemate") ||
        (a == "ends out of reach" && (name == "cannot-lose" || name == "cannot-end")) ||
        (a == "unreachable wins" && name == "unreachable-win") ||
        (a == "rule gaps" && name == "rule-gap") || (a == "dead rules" && name == "dead-rule") ||
        (a == "user properties" && name.rfind("property:", 0) == 0);
    if (hit) return true;
  }
  return false;
}

}  // namespace

std::string render_junit(const Report& report, const RenderOptions& options) {
  std::string suites;
  int total_tests = 0, total_failures = 0, total_skipped = 0;
  for (const auto& rs : report.rulesets) {
    const auto ids = finding_ids(rs);
    const auto same = detail::identical_to(rs, ids);
    std::vector<Case> cases;
    for (const auto k : detail::all_kinds) {
      if (k == properties::Kind::property_violation) continue;
      cases.push_back({std::string(properties::to_string(k)), {}});
    }
    if (rs.model != nullptr) {
      for (const auto& p : rs.model->properties) cases.push_back({"property:" + p.name, {}});
    }
    for (std::size_t i = 0; i < rs.findings.size(); ++i) {
      const auto& f = rs.findings[i];
      const std::string name = f.kind == properties::Kind::property_violation
                                   ? f.rule
                                   : std::string(properties::to_string(f.kind));
      auto it =
          std::find_if(cases.begin(), cases.end(), [&](const Case& c) { return c.name == name; });
      if (it == cases.end()) {
        cases.push_back({name, {}});
        it = cases.end() - 1;
      }
      it->findings.push_back(i);
    }
    const std::string suite_name =
        fmt::format("{} (players {})", detail::run_label(rs), rs.players);
    std::string body;
    int failures = 0, skipped = 0;
    for (const auto& c : cases) {
      std::string failing, inconclusive, other;
      int fail_count = 0;
      std::string first_failure;
      for (const auto i : c.findings) {
        const auto& f = rs.findings[i];
        // A finding identical to an earlier one is counted but not printed again.
        const std::string text =
            same[i] != i ? ""
                         : transcript(rs, f, ids[i], detail::identical_note(same, ids, i),
                                      options.text.max_trace_lines);
        if (fails(rs, f, ids[i], options.fail_on)) {
          if (fail_count++ == 0) first_failure = f.message;
          failing += text;
        } else if (f.verdict == properties::Verdict::unknown) {
          inconclusive += text;
        } else {
          const auto a = rs.accepted.find(ids[i]);
          other += text;
          if (a != rs.accepted.end() && !text.empty()) {
            other += "  accepted: " + a->second + "\n";
          }
        }
      }
      body += fmt::format("    <testcase name=\"{}\" classname=\"{}\">\n", xml_escape(c.name),
                          xml_escape(rs.file));
      if (fail_count > 0) {
        ++failures;
        body += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
                            xml_escape(fail_count == 1 ? first_failure
                                                       : fmt::format("{} ({} findings)",
                                                                     first_failure, fail_count)),
                            xml_escape(c.name), xml_escape(failing));
      } else if (!inconclusive.empty() || cut_short(rs, c.name)) {
        ++skipped;
        body += fmt::format("      <skipped message=\"inconclusive: {}\"/>\n",
                            xml_escape(detail::completion_name(rs.completion)));
      }
      if (!other.empty() || !inconclusive.empty()) {
        body +=
            fmt::format("      <system-out>{}</system-out>\n", xml_escape(inconclusive + other));
      }
      body += "    </testcase>\n";
    }
    total_tests += static_cast<int>(cases.size());
    total_failures += failures;
    total_skipped += skipped;
    suites += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
        xml_escape(suite_name), cases.size(), failures, skipped);
    suites += "    <properties>\n";
    suites += fmt::format("      <property name=\"game\" value=\"{}\"/>\n", xml_escape(rs.game));
    suites += fmt::format("      <property name=\"players\" value=\"{}\"/>\n", rs.players);
    for (const auto& [name, value] : rs.params) {
      suites += fmt::format("      <property name=\"param:{}\" value=\"{}\"/>\n", xml_escape(name),
                            value);
    }
    suites +=
        fmt::format("      <property name=\"engine\" value=\"{}\"/>\n", xml_escape(rs.engine));
    suites += fmt::format("      <property name=\"completion\" value=\"{}\"/>\n",
                          detail::completion_name(rs.completion));
    if (rs.statistics) {
      suites +=
          fmt::format("      <property name=\"states\" value=\"{}\"/>\n", rs.statistics->states);
    }
    if (detail::probabilistic(rs)) {
      suites += fmt::format("      <property name=\"probabilistic\" value=\"{}\"/>\n",
                            xml_escape(detail::probabilistic_note(rs)));
    }
    suites += "    </properties>\n";
    suites += body;
    suites += "  </testsuite>\n";
  }
  // Rulesets that did not load are errors of a suite of their own.
  int errors = 0;
  std::string bad;
  for (const auto& d : report.diagnostics.all()) {
    if (d.severity != model::Severity::error) continue;
    ++errors;
    const std::string where = d.where.known()
                                  ? fmt::format("{}:{}:{}", d.where.file, d.where.line, d.where.col)
                                  : d.where.file;
    bad += fmt::format(
        "    <testcase name=\"load\" classname=\"{}\">\n      <error message=\"{}\" "
        "type=\"bad-input\">{}: error: {}</error>\n    </testcase>\n",
        xml_escape(d.where.file), xml_escape(d.message), xml_escape(where), xml_escape(d.message));
  }
  if (errors > 0) {
    suites += fmt::format(
        "  <testsuite name=\"bad input\" tests=\"{}\" failures=\"0\" errors=\"{}\" "
        "skipped=\"0\">\n{}  </testsuite>\n",
        errors, errors, bad);
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"loophole\" tests=\"{}\" "
      "failures=\"{}\" errors=\"{}\" skipped=\"{}\">\n{}</testsuites>\n",
      total_tests + errors, total_failures, errors, total_skipped, suites);
}

}  // namespace loophole::reports
