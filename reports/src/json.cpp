// The JSON report: the findings model as data, for scripts and dashboards.
// Its shape is schema/report.schema.json (versioned by "version"). Everything
// outside "timings" is deterministic: object keys sorted, findings in the
// engine's order, the same bytes for the same ruleset at any thread count, so
// two reports can be diffed. Every move of every trace is listed (no folding:
// this is data), and a finding the text report merges into an earlier one
// names it in "identical_to". Timings and memory, which vary from run to run,
// live under "timings" alone and are left out with --no-stats.
#include <nlohmann/json.hpp>

#include "loophole/reports/report.hpp"

#include "detail.hpp"

namespace loophole::reports {
namespace {

using nlohmann::json;

json span_json(const model::SourceSpan& s) {
  if (!s.known()) return nullptr;
  return json{{"file", s.file}, {"line", s.line}, {"column", s.col}, {"length", s.length}};
}

json trace_json(const RulesetReport& rs, const checker::Trace& t) {
  json moves = json::array();
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const auto& s = t.steps[i];
    json changes = json::array();
    for (const auto& c : s.changes) {
      changes.push_back({{"what", c.what}, {"before", c.before}, {"after", c.after}});
    }
    json choices = json::array();
    for (const auto& c : s.choices) {
      json choice{{"by", c.by == checker::Choice::By::nature ? "nature" : "player"},
                  {"text", c.text}};
      if (c.by == checker::Choice::By::player) choice["player"] = c.player + 1;
      choices.push_back(std::move(choice));
    }
    json move{{"index", i + 1},
              {"kind", detail::move_kind_name(s.kind)},
              {"turn", s.turn},
              {"active", s.active + 1},
              {"step", detail::step_label(rs, s.step)},
              {"progress", s.progress},
              {"text", s.text},
              {"changes", std::move(changes)},
              {"choices", std::move(choices)}};
    move["player"] = s.player >= 0 ? json(s.player + 1) : json(nullptr);
    moves.push_back(std::move(move));
  }
  json out{{"length", t.steps.size()}, {"start", t.start}, {"moves", std::move(moves)}};
  out["loop_start"] = t.loop_start >= 0 ? json(t.loop_start + 1) : json(nullptr);
  return out;
}

}  // namespace

namespace detail {

json finding_json(const RulesetReport& rs, const properties::Finding& f, const std::string& id) {
  json out{{"id", id},
           {"kind", properties::to_string(f.kind)},
           {"severity", properties::to_string(f.severity)},
           {"verdict", properties::to_string(f.verdict)},
           {"rule", f.rule},
           {"location", span_json(f.where)},
           {"message", f.message},
           {"details", f.details},
           {"engine", f.engine},
           {"caused_by", f.caused_by.empty() ? json(nullptr) : json(f.caused_by)},
           {"invented", f.invented}};
  if (f.loop != properties::LoopClass::none) {
    json c{{"loop", properties::to_string(f.loop)}};
    if (f.loop_player >= 0) c["player"] = f.loop_player + 1;
    if (f.forced_by) {
      json coalitions = json::array();
      for (const std::uint32_t m : *f.forced_by) {
        json players = json::array();
        for (int p = 0; p < 32; ++p) {
          if (((m >> static_cast<unsigned>(p)) & 1U) != 0) players.push_back(p + 1);
        }
        coalitions.push_back(std::move(players));
      }
      c["forced_by"] = std::move(coalitions);
    }
    out["classification"] = std::move(c);
  } else {
    out["classification"] = nullptr;
  }
  out["trace"] = f.trace ? trace_json(rs, *f.trace) : json(nullptr);
  const auto a = rs.accepted.find(id);
  out["accepted"] = a != rs.accepted.end() ? json{{"reason", a->second}} : json(nullptr);
  return out;
}

}  // namespace detail

std::string render_json(const Report& report, const RenderOptions& options) {
  json rulesets = json::array();
  json timings = json::array();
  for (const auto& rs : report.rulesets) {
    const auto ids = finding_ids(rs);
    const auto same = detail::identical_to(rs, ids);
    json findings = json::array();
    for (std::size_t i = 0; i < rs.findings.size(); ++i) {
      json f = detail::finding_json(rs, rs.findings[i], ids[i]);
      f["identical_to"] = same[i] != i ? json(ids[same[i]]) : json(nullptr);
      findings.push_back(std::move(f));
    }
    json stale = json::array();
    for (const auto& s : rs.stale)
      stale.push_back({{"id", s.id}, {"location", span_json(s.where)}});
    const auto c = detail::count(rs, ids);
    json statistics = nullptr;
    if (rs.statistics) {
      statistics = {{"states", rs.statistics->states},
                    {"transitions", rs.statistics->transitions},
                    {"depth", rs.statistics->depth}};
      if (!rs.statistics->symmetry.empty()) {
        statistics["symmetry"] = {{"applied", rs.statistics->symmetric_arrays},
                                  {"orbit_states", rs.statistics->orbit_states},
                                  {"note", rs.statistics->symmetry}};
      }
      if (rs.statistics->compact) {
        statistics["compaction"] = {{"fingerprint_bits", 64},
                                    {"omission_probability", rs.statistics->omission_probability},
                                    {"note", detail::probabilistic_note(rs)}};
      }
      timings.push_back({{"file", detail::run_label(rs)},
                         {"seconds", rs.statistics->seconds},
                         {"peak_bytes", rs.statistics->bytes},
                         {"search_peak_bytes", rs.statistics->search_bytes},
                         {"bytes_per_state", rs.statistics->bytes_per_state},
                         {"threads", rs.statistics->threads}});
    }
    rulesets.push_back(
        {{"file", rs.file},
         {"game", rs.game},
         {"scope", {{"players", rs.players}, {"params", rs.params}}},
         {"engine", rs.engine},
         {"completion", detail::completion_name(rs.completion)},
         {"probabilistic", detail::probabilistic(rs)},
         {"statistics", std::move(statistics)},
         {"summary",
          {{"errors", c.errors},
           {"warnings", c.warnings},
           {"notes", c.notes},
           {"inconclusive", c.inconclusive},
           {"accepted", c.accepted}}},
         {"findings", std::move(findings)},
         {"not_checked", rs.not_checked},
         {"sweep",
          rs.swept.empty() ? json(nullptr) : json{{"param", rs.swept}, {"value", rs.swept_value}}},
         {"stale_accepted", std::move(stale)}});
  }
  json diagnostics = json::array();
  for (const auto& d : report.diagnostics.all()) {
    json notes = json::array();
    for (const auto& n : d.notes) {
      notes.push_back({{"message", n.message}, {"location", span_json(n.where)}});
    }
    diagnostics.push_back({{"severity", d.severity == model::Severity::error     ? "error"
                                        : d.severity == model::Severity::warning ? "warning"
                                                                                 : "note"},
                           {"message", d.message},
                           {"location", span_json(d.where)},
                           {"notes", std::move(notes)}});
  }
  json out{{"format", "loophole-report"},
           {"version", 1},
           {"tool", {{"name", "loophole"}, {"version", report.tool_version}}},
           {"rulesets", std::move(rulesets)},
           {"diagnostics", std::move(diagnostics)}};
  if (options.timings) out["timings"] = std::move(timings);
  return json_dump(out);
}

}  // namespace loophole::reports
