// The HTML report, for designers who would rather look than read: one
// self-contained file (inline CSS and SVG, no script, nothing fetched) with,
// for each ruleset, its scope and statistics, every finding with its
// transcript drawn as a timeline (from the state after setup, folded as every
// report folds it, in the designer's terms: data changes behind a toggle,
// engine control fields left to the JSON), then the phase graph as SVG,
// collapsed. Each finding
// carries its stable id (data-finding-id), so a link or a test can find it.
#include <fmt/format.h>

#include "loophole/reports/report.hpp"

#include "detail.hpp"

namespace loophole::reports {
namespace {

constexpr std::string_view style = R"css(
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 70rem; padding: 1rem 2rem; color: #1d1d1f; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2.5rem; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
table.stats { border-collapse: collapse; margin: .5rem 0 1rem; }
table.stats th, table.stats td { text-align: left; padding: .15rem .8rem .15rem 0; }
table.stats td { font-variant-numeric: tabular-nums; }
figure.graph { margin: 1rem 0; overflow: auto; border: 1px solid #eee; padding: .5rem; }
figure.graph svg { max-width: 100%; height: auto; }
.finding { border-left: 4px solid #999; padding: .4rem .9rem; margin: 1rem 0; background: #fafafa; }
.finding.error { border-color: #c62828; } .finding.warning { border-color: #8e24aa; } .finding.note { border-color: #00838f; }
.finding.accepted { opacity: .65; }
.badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: 0 .4rem; border-radius: .6rem; color: #fff; background: #999; text-transform: uppercase; }
.error .badge { background: #c62828; } .warning .badge { background: #8e24aa; } .note .badge { background: #00838f; }
.finding h3 { font-size: 1rem; margin: .2rem 0; }
.where, .fid { color: #555; font-size: .85rem; }
ol.timeline { list-style: none; padding-left: 0; margin: .6rem 0; border-left: 2px solid #ccc; }
ol.timeline li { position: relative; padding: .1rem 0 .35rem 1.2rem; }
ol.timeline li::before { content: ""; position: absolute; left: -6px; top: .5rem; width: 10px; height: 10px; border-radius: 50%; background: #fff; border: 2px solid #888; }
ol.timeline li.progress::before { background: #888; }
ol.timeline li.cycle { background: #fff4e5; }
.move-n { display: inline-block; min-width: 2.2rem; color: #777; }
.ctl { color: #555; }
details.changes { color: #555; font-size: .85rem; margin-left: 2.2rem; }
details.changes summary { cursor: pointer; }
details.graph > summary { cursor: pointer; font-weight: 600; margin: 1rem 0 .5rem; }
p.start { color: #555; margin: .4rem 0 0; }
ol.timeline li.fold { color: #777; font-style: italic; }
ol.timeline li.last { font-weight: 600; }
.identical { color: #555; font-size: .85rem; }
.clean { color: #2e7d32; font-weight: 600; }
.diag { color: #c62828; }
)css";

std::string strip_svg_prologue(const std::string& svg) {
  const auto at = svg.find("<svg");
  return at == std::string::npos ? svg : svg.substr(at);
}

// A change of data as the ruleset writes it ("flag false→true"); control
// fields (stage, holder, step) are engine internals and stay in the JSON.
std::string data_changes(const RulesetReport& rs, const checker::TraceStep& s) {
  std::string out;
  for (const auto& c : s.changes) {
    if (c.slot < 0) continue;
    if (!out.empty()) out += ", ";
    const auto value = [&](std::int32_t v) {
      return rs.model != nullptr ? rs.model->slot_value(c.slot, v) : std::to_string(v);
    };
    out += fmt::format("{} {}→{}", c.what, value(c.before), value(c.after));
  }
  for (const auto& c : s.choices) out += (out.empty() ? "" : "; ") + c.text;
  return out;
}

void render_trace(std::string& out, const RulesetReport& rs, const checker::Trace& t,
                  std::size_t max_lines) {
  out += fmt::format("<p class=\"trace-head\">trace: {}</p>\n",
                     xml_escape(detail::trace_summary(t, true, rs.engine != "simulate")));
  if (!t.start.empty()) {
    out +=
        fmt::format("<p class=\"start\"><span class=\"move-n mono\">0</span>after setup: {}</p>\n",
                    xml_escape(t.start));
  }
  out += "<ol class=\"timeline\">\n";
  for (const auto& l : detail::transcript_lines(t, max_lines)) {
    if (l.kind == detail::TranscriptLine::Kind::fold) {
      out += fmt::format("<li class=\"fold\">{}</li>\n", xml_escape(l.text));
      continue;
    }
    const auto& s = t.steps[l.first];
    std::string cls;
    if (s.progress) cls += " progress";
    if (l.first != l.last) cls += " passes";
    if (t.loop_start >= 0 && l.first >= static_cast<std::size_t>(t.loop_start)) cls += " cycle";
    if (l.last + 1 == t.steps.size()) cls += " last";
    out += fmt::format(
        "<li class=\"move{}\"><span class=\"move-n mono\">{}</span><span class=\"ctl mono\">T{} "
        "P{} {}</span> — {}",
        cls, l.number(), s.turn, s.active + 1, xml_escape(detail::pretty_step(rs, s.step)),
        xml_escape(l.text));
    const std::string changes = l.first == l.last ? data_changes(rs, s) : "";
    if (!changes.empty()) {
      out += fmt::format(
          "<details class=\"changes\"><summary>changes</summary><div class=\"mono\">{}</div>"
          "</details>",
          xml_escape(changes));
    }
    out += "</li>\n";
  }
  out += "</ol>\n";
}

void render_finding(std::string& out, const RulesetReport& rs, const properties::Finding& f,
                    const std::string& id, const std::string& merged, std::size_t ordinal,
                    const model::SourceManager& sources, const RenderOptions& options) {
  const std::size_t max_lines = options.text.max_trace_lines;
  const auto accepted = rs.accepted.find(id);
  const std::string sev(properties::to_string(f.severity));
  out +=
      fmt::format("<section class=\"finding {}{}\" id=\"finding-{}\" data-finding-id=\"{}\">\n",
                  sev, accepted != rs.accepted.end() ? " accepted" : "", ordinal, xml_escape(id));
  out += fmt::format("<h3><span class=\"badge\">{}</span> {}: {}</h3>\n", sev,
                     xml_escape(detail::heading(f)), xml_escape(f.message));
  out += fmt::format("<div class=\"where mono\">{}</div>\n", xml_escape(detail::location(rs, f)));
  if (f.where.known()) {
    const auto line = sources.line(f.where.file, f.where.line);
    if (!line.empty()) {
      out +=
          fmt::format("<pre class=\"source\">{:>5} | {}</pre>\n", f.where.line, xml_escape(line));
    }
  }
  out += fmt::format("<div class=\"fid\">id <code class=\"finding-id\">{}</code></div>\n",
                     xml_escape(id));
  if (accepted != rs.accepted.end()) {
    out += fmt::format("<p class=\"accepted-reason\">accepted: {}</p>\n",
                       xml_escape(accepted->second));
  }
  if (!f.details.empty()) {
    out += "<ul class=\"details\">\n";
    for (const auto& d : f.details) out += fmt::format("<li>{}</li>\n", xml_escape(d));
    out += "</ul>\n";
  }
  if (!merged.empty()) out += fmt::format("<p class=\"identical\">{}</p>\n", xml_escape(merged));
  if (f.trace) render_trace(out, rs, *f.trace, max_lines);
  // The path on the phase graph, closed like the ruleset's graph.
  const auto path = options.path_svg.find(path_key(rs.file, id));
  if (path != options.path_svg.end()) {
    out += fmt::format(
        "<details class=\"path\"><summary>the path in the phase graph</summary>\n<figure "
        "class=\"graph path\">\n{}</figure>\n</details>\n",
        strip_svg_prologue(path->second));
  }
  out += "</section>\n";
}

}  // namespace

namespace detail {

std::string_view html_style() { return style; }

void html_finding(std::string& out, const RulesetReport& rs, const properties::Finding& f,
                  const std::string& id, std::size_t ordinal, const model::SourceManager& sources,
                  const RenderOptions& options) {
  render_finding(out, rs, f, id, "", ordinal, sources, options);
}

}  // namespace detail

std::string render_html(const Report& report, const model::SourceManager& sources,
                        const RenderOptions& options) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta "
      "name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>loophole "
      "report</title>\n<style>{}</style>\n</head>\n<body>\n<h1>loophole report</h1>\n"
      "<p class=\"tool\">loophole {}</p>\n",
      style, xml_escape(report.tool_version));
  for (const auto& d : report.diagnostics.all()) {
    out += fmt::format("<p class=\"diag mono\">{}: {}</p>\n",
                       xml_escape(d.where.known() ? fmt::format("{}:{}:{}", d.where.file,
                                                                d.where.line, d.where.col)
                                                  : d.where.file),
                       xml_escape(d.message));
  }
  std::size_t ordinal = 0;
  for (const auto& rs : report.rulesets) {
    const auto ids = finding_ids(rs);
    const auto c = detail::count(rs, ids);
    out += fmt::format("<section class=\"ruleset\" data-file=\"{}\">\n<h2>{}{}</h2>\n",
                       xml_escape(rs.file), xml_escape(detail::run_label(rs)),
                       rs.game.empty() ? "" : fmt::format(" — {}", xml_escape(rs.game)));
    out += "<table class=\"stats\">\n";
    std::string scope = fmt::format("players {}", rs.players);
    for (const auto& [name, value] : rs.params) scope += fmt::format(", {} {}", name, value);
    out += fmt::format("<tr><th>scope</th><td>{}</td></tr>\n", xml_escape(scope));
    out += fmt::format("<tr><th>engine</th><td>{} ({})</td></tr>\n", xml_escape(rs.engine),
                       detail::completion_name(rs.completion));
    if (rs.statistics) {
      out += fmt::format(
          "<tr><th>states</th><td>{}</td></tr>\n<tr><th>transitions</th><td>{}</td></"
          "tr>\n<tr><th>depth</th><td>{}</td></tr>\n",
          group_digits(rs.statistics->states), group_digits(rs.statistics->transitions),
          rs.statistics->depth);
      if (options.timings) {
        out += fmt::format("<tr><th>time</th><td>{:.2f} s ({} thread{})</td></tr>\n",
                           rs.statistics->seconds, rs.statistics->threads,
                           rs.statistics->threads == 1 ? "" : "s");
      }
    }
    if (detail::probabilistic(rs)) {
      out += fmt::format("<tr><th>verdict</th><td>{}</td></tr>\n",
                         xml_escape(detail::probabilistic_note(rs)));
    }
    out += fmt::format(
        "<tr><th>findings</th><td>{} error{}, {} warning{}, {} note{}, {} inconclusive, {} "
        "accepted</td></tr>\n</table>\n",
        c.errors, c.errors == 1 ? "" : "s", c.warnings, c.warnings == 1 ? "" : "s", c.notes,
        c.notes == 1 ? "" : "s", c.inconclusive, c.accepted);
    if (!rs.not_checked.empty()) {
      std::string names;
      for (const auto& n : rs.not_checked) names += (names.empty() ? "" : ", ") + n;
      out += fmt::format("<p class=\"diag\">stopped before these analyses finished: {}</p>\n",
                         xml_escape(names));
    }
    if (rs.findings.empty()) out += "<p class=\"clean\">no findings</p>\n";
    const auto same = detail::identical_to(rs, ids);
    for (std::size_t i = 0; i < rs.findings.size(); ++i) {
      if (same[i] != i) continue;  // shown once, with the first of its group
      render_finding(out, rs, rs.findings[i], ids[i], detail::identical_note(same, ids, i),
                     ++ordinal, sources, options);
    }
    // The graph after the findings, closed: a designer opens the report for
    // the findings, and a 14-step turn's graph fills a screen.
    const auto svg = options.svg.find(rs.file);
    if (svg != options.svg.end()) {
      out += fmt::format(
          "<details class=\"graph\">\n<summary>phase/step graph of {}</summary>\n<figure "
          "class=\"graph\">\n{}</figure>\n</details>\n",
          xml_escape(rs.file), strip_svg_prologue(svg->second));
    }
    for (const auto& s : rs.stale) {
      out += fmt::format(
          "<p class=\"stale\">note: accepted finding <code>{}</code> no longer occurs; remove it "
          "from the project file</p>\n",
          xml_escape(s.id));
    }
    out += "</section>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace loophole::reports
