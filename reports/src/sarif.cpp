// SARIF 2.1.0, the format code-scanning services (GitHub, GitLab, Azure)
// ingest: one rule per finding kind with its help text, each finding a result
// located in the ruleset, its trace a code flow from the state after setup
// (execution order 0) whose steps point at the step each move happened at. partialFingerprints
// carry a hash of the finding's stable id (see finding_ids), so a service tracks a finding across
// edits that move its line. Accepted findings (loophole.yaml) are results with an "external"
// suppression carrying the written reason; a finding identical to an earlier one names it in
// properties.identicalTo.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "loophole/reports/report.hpp"

#include "detail.hpp"

namespace loophole::reports {
namespace {

using nlohmann::json;

std::string_view level(properties::Severity s) {
  switch (s) {
    case properties::Severity::error:
      return "error";
    case properties::Severity::warning:
      return "warning";
    case properties::Severity::note:
      return "note";
  }
  return "none";
}

properties::Severity default_severity(properties::Kind k) {
  switch (k) {
    case properties::Kind::stalemate:
    case properties::Kind::dead_rule:
    case properties::Kind::cannot_lose:
    case properties::Kind::cannot_end:
      return properties::Severity::warning;
    default:
      return properties::Severity::error;
  }
}

std::string rule_name(properties::Kind k) {
  std::string out;
  bool upper = true;
  for (const char c : properties::to_string(k)) {
    if (c == '-') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

json physical(const model::SourceSpan& s) {
  json region{{"startLine", s.line}, {"startColumn", s.col}};
  if (s.length > 0) region["endColumn"] = s.col + s.length;
  return {{"artifactLocation", {{"uri", uri_reference(s.file)}}}, {"region", std::move(region)}};
}

json rules() {
  json out = json::array();
  for (const auto k : detail::all_kinds) {
    const std::string id(properties::to_string(k));
    out.push_back({{"id", id},
                   {"name", rule_name(k)},
                   {"shortDescription", {{"text", detail::kind_description(k)}}},
                   {"fullDescription", {{"text", detail::kind_description(k)}}},
                   {"help",
                    {{"text", detail::kind_description(k) +
                                  " See docs/properties.md for how to read the trace and fix it."},
                     {"markdown", fmt::format("{} See [docs/properties.md](docs/properties.md#{}) "
                                              "for how to read the trace and fix it.",
                                              detail::kind_description(k), id)}}},
                   {"defaultConfiguration", {{"level", level(default_severity(k))}}}});
  }
  const std::string stale =
      "An accepted finding listed in the project file (loophole.yaml) no "
      "longer occurs; the entry can be removed.";
  out.push_back({{"id", "stale-baseline"},
                 {"name", "StaleBaseline"},
                 {"shortDescription", {{"text", stale}}},
                 {"help", {{"text", stale}}},
                 {"defaultConfiguration", {{"level", "note"}}}});
  return out;
}

int rule_index(properties::Kind k) {
  int i = 0;
  for (const auto kind : detail::all_kinds) {
    if (kind == k) return i;
    ++i;
  }
  return -1;
}

// Where a move happened, in the ruleset: the step it was taken at.
std::optional<model::SourceSpan> move_site(const RulesetReport& rs, const checker::TraceStep& s) {
  if (rs.model == nullptr || s.step < 0 ||
      static_cast<std::size_t>(s.step) >= rs.model->steps.size()) {
    return std::nullopt;
  }
  const auto& where = rs.model->steps[static_cast<std::size_t>(s.step)].where;
  if (!where.known()) return std::nullopt;
  return where;
}

json code_flow(const RulesetReport& rs, const checker::Trace& t) {
  json locations = json::array();
  // The state the trace starts from, before move 1 (execution order 0).
  if (!t.start.empty()) {
    locations.push_back({{"location", {{"message", {{"text", "after setup: " + t.start}}}}},
                         {"executionOrder", 0}});
  }
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const auto& s = t.steps[i];
    std::string text = fmt::format("T{} P{} {}: {}", s.turn, s.active + 1,
                                   detail::pretty_step(rs, s.step), s.text);
    if (t.loop_start >= 0 && static_cast<std::size_t>(t.loop_start) == i) {
      text = "(cycle starts) " + text;
    }
    json location{{"message", {{"text", text}}}};
    if (const auto site = move_site(rs, s)) location["physicalLocation"] = physical(*site);
    json tfl{{"location", std::move(location)}, {"executionOrder", i + 1}};
    if (s.progress) tfl["kinds"] = json::array({"progress"});
    locations.push_back(std::move(tfl));
  }
  return {{"message", {{"text", detail::trace_summary(t, true)}}},
          {"threadFlows", json::array({{{"locations", std::move(locations)}}})}};
}

}  // namespace

std::string render_sarif(const Report& report, const RenderOptions& /*options*/) {
  json results = json::array();
  for (const auto& rs : report.rulesets) {
    const auto ids = finding_ids(rs);
    const auto same = detail::identical_to(rs, ids);
    for (std::size_t i = 0; i < rs.findings.size(); ++i) {
      const auto& f = rs.findings[i];
      const auto& id = ids[i];
      std::string text = fmt::format("{}: {}", detail::heading(f), f.message);
      for (const auto& d : f.details) text += "\n" + d;
      json result{{"ruleId", properties::to_string(f.kind)},
                  {"ruleIndex", rule_index(f.kind)},
                  {"level", level(f.severity)},
                  {"kind", f.verdict == properties::Verdict::unknown ? "review" : "fail"},
                  {"message", {{"text", text}}},
                  {"partialFingerprints",
                   {{"loopholeFindingId/v1", short_hash(detail::run_label(rs) + "\n" + id)}}},
                  {"properties",
                   {{"id", id},
                    {"rule", f.rule},
                    {"verdict", properties::to_string(f.verdict)},
                    {"game", rs.game},
                    {"players", rs.players},
                    {"params", rs.params}}}};
      if (same[i] != i) result["properties"]["identicalTo"] = ids[same[i]];
      if (!f.caused_by.empty()) result["properties"]["caused_by"] = f.caused_by;
      if (!f.invented.empty()) result["properties"]["invented"] = f.invented;
      if (!rs.swept.empty()) {
        result["properties"]["sweep"] = {{"param", rs.swept}, {"value", rs.swept_value}};
      }
      if (f.verdict == properties::Verdict::unknown) result["level"] = "none";
      const model::SourceSpan where =
          f.where.known() ? f.where : model::SourceSpan{rs.file, 1, 1, 0};
      result["locations"] = json::array({{{"physicalLocation", physical(where)}}});
      if (f.trace) result["codeFlows"] = json::array({code_flow(rs, *f.trace)});
      const auto a = rs.accepted.find(id);
      if (a != rs.accepted.end()) {
        result["suppressions"] = json::array(
            {{{"kind", "external"}, {"status", "accepted"}, {"justification", a->second}}});
      }
      results.push_back(std::move(result));
    }
    for (const auto& s : rs.stale) {
      json result{{"ruleId", "stale-baseline"},
                  {"ruleIndex", std::size(detail::all_kinds)},
                  {"level", "note"},
                  {"kind", "informational"},
                  {"message",
                   {{"text", fmt::format("accepted finding '{}' no longer occurs in '{}'; remove "
                                         "it from the project file",
                                         s.id, rs.file)}}}};
      if (s.where.known()) {
        result["locations"] = json::array({{{"physicalLocation", physical(s.where)}}});
      }
      results.push_back(std::move(result));
    }
  }
  json notifications = json::array();
  for (const auto& d : report.diagnostics.all()) {
    json n{{"level", d.severity == model::Severity::error     ? "error"
                     : d.severity == model::Severity::warning ? "warning"
                                                              : "note"},
           {"message", {{"text", d.message}}}};
    if (d.where.known()) n["locations"] = json::array({{{"physicalLocation", physical(d.where)}}});
    notifications.push_back(std::move(n));
  }
  json invocation{{"executionSuccessful", !report.diagnostics.has_errors()}};
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = std::move(notifications);
  json driver{{"name", "loophole"},
              {"version", report.tool_version},
              {"semanticVersion", report.tool_version},
              {"rules", rules()}};
  json run{{"tool", {{"driver", std::move(driver)}}},
           {"invocations", json::array({std::move(invocation)})},
           {"results", std::move(results)}};
  // Hash compaction: which rulesets' verdicts are probabilistic, and how.
  json probabilistic = json::array();
  for (const auto& rs : report.rulesets) {
    if (!detail::probabilistic(rs)) continue;
    probabilistic.push_back({{"file", detail::run_label(rs)},
                             {"omissionProbability", rs.statistics->omission_probability},
                             {"note", detail::probabilistic_note(rs)}});
  }
  if (!probabilistic.empty()) run["properties"] = {{"probabilistic", std::move(probabilistic)}};
  json out{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
           {"version", "2.1.0"},
           {"runs", json::array({std::move(run)})}};
  return json_dump(out);
}

}  // namespace loophole::reports
