// The HTML report, for designers who would rather look than read: one
// self-contained file (inline CSS and SVG, no script, nothing fetched) with,
// for each ruleset, its scope and statistics, the phase graph as SVG, and
// every finding with its transcript drawn as a timeline. Each finding
// carries its stable id (data-finding-id), so a link or a test can find it.
#include <fmt/format.h>
#include <range/v3/view/zip.hpp>

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
.changes { color: #555; font-size: .85rem; margin-left: 2.2rem; }
.clean { color: #2e7d32; font-weight: 600; }
.diag { color: #c62828; }
)css";

std::string strip_svg_prologue(const std::string& svg) {
  const auto at = svg.find("<svg");
  return at == std::string::npos ? svg : svg.substr(at);
}

void render_trace(std::string& out, const RulesetReport& rs, const checker::Trace& t) {
  out += fmt::format(
      "<p class=\"trace-head\">trace: {} move{}, shortest{}</p>\n<ol class=\"timeline\">\n",
      t.steps.size(), t.steps.size() == 1 ? "" : "s",
      t.loop_start >= 0
          ? fmt::format("; moves {}–{} repeat forever", t.loop_start + 1, t.steps.size())
          : "");
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const auto& s = t.steps[i];
    std::string cls;
    if (s.progress) cls += " progress";
    if (t.loop_start >= 0 && i >= static_cast<std::size_t>(t.loop_start)) cls += " cycle";
    out += fmt::format(
        "<li class=\"move{}\"><span class=\"move-n mono\">{}</span><span class=\"ctl mono\">T{} "
        "P{} {}</span> — {}",
        cls, i + 1, s.turn, s.active + 1, xml_escape(detail::pretty_step(rs, s.step)),
        xml_escape(s.text));
    std::string changes;
    for (const auto& c : s.changes) {
      if (!changes.empty()) changes += ", ";
      changes += fmt::format("{} {}→{}", c.what, c.before, c.after);
    }
    for (const auto& c : s.choices) {
      if (!changes.empty()) changes += ", ";
      changes += c.text;
    }
    if (!changes.empty()) {
      out += fmt::format("<div class=\"changes mono\">{}</div>", xml_escape(changes));
    }
    out += "</li>\n";
  }
  out += "</ol>\n";
}

void render_finding(std::string& out, const RulesetReport& rs, const properties::Finding& f,
                    const std::string& id, std::size_t ordinal,
                    const model::SourceManager& sources) {
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
  if (f.trace) render_trace(out, rs, *f.trace);
  out += "</section>\n";
}

}  // namespace

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
    out += fmt::format(
        "<tr><th>findings</th><td>{} error{}, {} warning{}, {} note{}, {} inconclusive, {} "
        "accepted</td></tr>\n</table>\n",
        c.errors, c.errors == 1 ? "" : "s", c.warnings, c.warnings == 1 ? "" : "s", c.notes,
        c.notes == 1 ? "" : "s", c.inconclusive, c.accepted);
    const auto svg = options.svg.find(rs.file);
    if (svg != options.svg.end()) {
      out += fmt::format(
          "<figure class=\"graph\">\n{}<figcaption>phase/step graph of "
          "{}</figcaption>\n</figure>\n",
          strip_svg_prologue(svg->second), xml_escape(rs.file));
    }
    if (!rs.not_checked.empty()) {
      std::string names;
      for (const auto& n : rs.not_checked) names += (names.empty() ? "" : ", ") + n;
      out += fmt::format("<p class=\"diag\">interrupted before these analyses finished: {}</p>\n",
                         xml_escape(names));
    }
    if (rs.findings.empty()) out += "<p class=\"clean\">no findings</p>\n";
    for (const auto& [f, id] : ranges::views::zip(rs.findings, ids)) {
      render_finding(out, rs, f, id, ++ordinal, sources);
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
