// The one findings model every renderer reads: for each ruleset checked, the
// scope it was checked at, how far the engine got, the statistics, and the
// findings. Renderers (text, JSON, SARIF, JUnit, Markdown, HTML) are pure
// functions of a Report; they never run an engine.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loophole/checker/explored.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::reports {

struct RulesetReport {
  std::string file;
  std::string game;                    // the game's name ("" if it did not load)
  const model::Game* model = nullptr;  // for step names and slot names; may be null
  int players = 0;
  std::map<std::string, std::int64_t> params;  // effective values
  std::string engine;                          // "explicit", "structure", ...
  checker::Completion completion = checker::Completion::complete;
  std::optional<checker::Statistics> statistics;
  std::vector<properties::Finding> findings;
  // Under --sweep: the swept param ("players" for the player count) and its
  // value in this run; empty when nothing was swept.
  std::string swept;
  std::int64_t swept_value = 0;
  // Analyses an interruption cut short; they report nothing (see
  // properties::run_checks), so the report is inconclusive for them.
  std::vector<std::string> not_checked;
  // Findings accepted in the project file (loophole.yaml): finding id ->
  // the written reason. They are shown as suppressed and never fail a run.
  std::map<std::string, std::string> accepted;
  // Accepted ids that no longer occur (a stale baseline), with where the
  // project file lists them.
  struct StaleAcceptance {
    std::string id;
    model::SourceSpan where;
  };
  std::vector<StaleAcceptance> stale;
};

struct Report {
  std::string tool_version;
  std::vector<RulesetReport> rulesets;
  model::DiagnosticSink diagnostics;  // bad input, warnings of the front end
};

struct TextOptions {
  bool color = false;
  bool statistics = true;
  std::size_t max_trace_lines = 60;  // longer traces are elided in the middle
};

// Compiler-style lines for each finding, then its transcript, then statistics.
std::string render_text(const Report& report, const model::SourceManager& sources,
                        const TextOptions& options);

// The stable id of each finding of a ruleset, in order: `kind/rule`, with
// `#2`, `#3`, ... for the second and later findings of the same kind about
// the same rule (findings are ordered deterministically). It names a finding
// across runs and edits that leave its rule alone: SARIF fingerprints,
// `graph --trace`, baselines and `loophole diff` use it.
std::vector<std::string> finding_ids(const RulesetReport& rs);

// A short hex digest (FNV-1a, 64 bits) of `text`, for fingerprints.
std::string short_hash(std::string_view text);

// Whether a finding fails a run at `threshold`: violated, not accepted, and
// at least that severe.
bool fails(const RulesetReport& rs, const properties::Finding& f, const std::string& id,
           properties::Severity threshold);

enum class Format { text, json, sarif, junit, markdown, html };
std::optional<Format> parse_format(std::string_view name);

struct RenderOptions {
  TextOptions text;
  properties::Severity fail_on = properties::Severity::error;
  bool timings = true;  // JSON: the non-deterministic "timings" block
  // HTML: the phase graph of each ruleset as SVG (by file), made by the caller
  // (see graphviz.hpp); a ruleset without one gets no graph.
  std::map<std::string, std::string> svg;
  // HTML: a finding's path drawn on its ruleset's phase graph (the steps
  // and edges its trace takes, numbered by move, its step marked), as SVG
  // by path_key(file, id); a finding without one gets none.
  std::map<std::string, std::string> path_svg;
};

// The key of RenderOptions::path_svg for finding `id` of ruleset `file`.
[[nodiscard]] std::string path_key(const std::string& file, const std::string& id);

// Every renderer is a pure function of the report (and the source text).
std::string render_json(const Report& report, const RenderOptions& options);
std::string render_sarif(const Report& report, const RenderOptions& options);
std::string render_junit(const Report& report, const RenderOptions& options);
std::string render_markdown(const Report& report, const RenderOptions& options);
std::string render_html(const Report& report, const model::SourceManager& sources,
                        const RenderOptions& options);
std::string render(Format format, const Report& report, const model::SourceManager& sources,
                   const RenderOptions& options);

// `loophole explain`: finding `finding` of `rs` as the text report prints
// it, with its whole transcript (nothing folded), then the rule it is about
// as written (rule_text).
std::string render_explain(const RulesetReport& rs, std::size_t finding,
                           const model::SourceManager& sources, bool color);

// The source lines of the ruleset entry that starts at `where`: that line and
// the lines below it indented deeper, numbered ("27 |   - name: ward"); ""
// when the line cannot be quoted.
std::string rule_text(const model::SourceManager& sources, const model::SourceSpan& where);

// "48,213" style integer grouping and "0.84 s" durations, shared by renderers.
std::string group_digits(std::uint64_t n);
std::string format_rate(double per_second);  // "57k/s", "3.1M/s"

}  // namespace loophole::reports
