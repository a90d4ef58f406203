// The simulation report (simulation.hpp). The problems a simulation met are
// Findings with traces, so they are printed by the same code as `check`'s
// findings (text_finding, finding_json, html_finding); what is new here is
// the statistics: per-seat win rates with Wilson intervals, the length
// distribution, rule use, and in HTML two inline SVG charts (no script,
// nothing fetched, as the check report).
#include "loophole/reports/simulation.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "detail.hpp"

namespace loophole::reports {
namespace {

using nlohmann::json;

RulesetReport as_ruleset(const SimulationReport& report) {
  RulesetReport rs;
  rs.file = report.file;
  rs.game = report.model != nullptr ? report.model->name : "";
  rs.model = report.model;
  rs.players = static_cast<int>(report.result.wins.size());
  rs.params = report.params;
  rs.engine = "simulate";
  rs.findings = report.result.problems;
  return rs;
}

std::string percent(double x) { return fmt::format("{:.1f}%", 100 * x); }

double rate(std::uint64_t k, std::uint64_t n) {
  return n == 0 ? 0 : static_cast<double>(k) / static_cast<double>(n);
}

const char* completion_text(const std::string& c) {
  if (c == "time-limit") return "stopped at the time limit";
  if (c == "interrupted") return "interrupted";
  return "";
}

}  // namespace

std::vector<LengthBin> length_bins(const simulate::Result& r, std::size_t bins) {
  std::vector<LengthBin> out;
  if (r.games == 0 || bins == 0) return out;
  const std::uint32_t lo = r.min_length, hi = r.max_length;
  const std::uint32_t span = hi - lo + 1;
  const std::uint32_t width = std::max<std::uint32_t>(
      1, (span + static_cast<std::uint32_t>(bins) - 1) / static_cast<std::uint32_t>(bins));
  for (std::uint32_t from = lo; from <= hi; from += width) {
    LengthBin b{from, std::min(hi, from + width - 1), 0};
    for (std::uint32_t m = b.from; m <= b.to && m < r.lengths.size(); ++m) b.games += r.lengths[m];
    out.push_back(b);
    if (hi - from < width) break;
  }
  return out;
}

std::vector<std::string> unused_rules(const simulate::Result& r) {
  std::vector<std::string> out;
  for (const auto* list : {&r.actions, &r.triggers, &r.steps}) {
    for (const auto& u : *list) {
      if (u.uses == 0) out.push_back(u.rule);
    }
  }
  return out;
}

std::string render_simulation_text(const SimulationReport& report,
                                   const model::SourceManager& sources,
                                   const TextOptions& options) {
  const simulate::Result& r = report.result;
  const RulesetReport rs = as_ruleset(report);
  std::string out = fmt::format(
      "{}: {} games simulated (seed {}, {} policy, cut off at {} moves){}\n", report.file,
      group_digits(r.games), r.seed, simulate::to_string(r.policy), group_digits(r.max_moves),
      r.completion == "complete" ? ""
                                 : fmt::format("; {} after {} of {}", completion_text(r.completion),
                                               group_digits(r.games), group_digits(r.requested)));
  out += "outcome (95% confidence interval):\n";
  for (std::size_t p = 0; p < r.wins.size(); ++p) {
    const auto ci = simulate::wilson(r.wins[p], r.games);
    out += fmt::format("  P{} wins      {:>10}  {:>6}  ({} – {})\n", p + 1, group_digits(r.wins[p]),
                       percent(rate(r.wins[p], r.games)), percent(ci.lo), percent(ci.hi));
  }
  const auto line = [&](const char* what, std::uint64_t n) {
    out += fmt::format("  {:<12}{:>10}  {:>6}\n", what, group_digits(n), percent(rate(n, r.games)));
  };
  line("no winner", r.no_winner);
  line("rule gap", r.gaps);
  line("deadlock", r.deadlocks);
  line("cut off", r.cut_off);
  out += fmt::format("game length (moves): min {}  median {}  p90 {}  max {}\n", r.min_length,
                     r.median_length, r.p90_length, r.max_length);
  const auto bins = length_bins(r, 10);
  std::uint64_t most = 0;
  for (const auto& b : bins) most = std::max(most, b.games);
  for (const auto& b : bins) {
    const auto bar = static_cast<std::size_t>(
        std::lround(40.0 * static_cast<double>(b.games) /
                    static_cast<double>(std::max<std::uint64_t>(most, 1))));
    out += fmt::format("  {:>6}-{:<6} {:>10}{}\n", b.from, b.to, group_digits(b.games),
                       bar == 0 ? "" : "  " + std::string(bar, '#'));
  }
  out += "rule use (times used, in how many games):\n";
  for (const auto* list : {&r.actions, &r.triggers, &r.steps}) {
    for (const auto& u : *list) {
      out += fmt::format("  {:<40} {:>12}  {:>10} games\n", model::terminal_safe(u.rule),
                         group_digits(u.uses), group_digits(u.games));
    }
  }
  const auto unused = unused_rules(r);
  if (!unused.empty()) {
    out += "never used in these games (dead-rule candidates at this scope):\n";
    for (const auto& u : unused) out += "  " + model::terminal_safe(u) + "\n";
  }
  if (!r.problems.empty()) {
    out += fmt::format("problems met ({}):\n", r.problems.size());
    const auto ids = finding_ids(rs);
    std::vector<std::size_t> same(rs.findings.size());
    for (std::size_t i = 0; i < same.size(); ++i) same[i] = i;
    for (std::size_t i = 0; i < rs.findings.size(); ++i) {
      out +=
          detail::text_finding(rs, i, ids, same, sources, options.color, options.max_trace_lines);
    }
  }
  if (options.statistics) {
    out += fmt::format("games {}  time {:.2f} s  rate {}  threads {}  generator {}\n",
                       group_digits(r.games), r.seconds,
                       format_rate(r.seconds > 0 ? static_cast<double>(r.games) / r.seconds : 0),
                       r.threads, r.generator);
  }
  return out;
}

std::string render_simulation_json(const SimulationReport& report, bool timings) {
  const simulate::Result& r = report.result;
  const RulesetReport rs = as_ruleset(report);
  json seats = json::array();
  for (std::size_t p = 0; p < r.wins.size(); ++p) {
    const auto ci = simulate::wilson(r.wins[p], r.games);
    seats.push_back({{"player", p + 1},
                     {"wins", r.wins[p]},
                     {"losses", r.losses[p]},
                     {"win_rate", rate(r.wins[p], r.games)},
                     {"ci95", {ci.lo, ci.hi}}});
  }
  json histogram = json::array();
  for (std::size_t m = 0; m < r.lengths.size(); ++m) {
    if (r.lengths[m] > 0) histogram.push_back({{"moves", m}, {"games", r.lengths[m]}});
  }
  const auto usage = [](const std::vector<simulate::Usage>& list) {
    json out = json::array();
    for (const auto& u : list) {
      json where = nullptr;
      if (u.where.known()) {
        where = {{"file", u.where.file}, {"line", u.where.line}, {"column", u.where.col}};
      }
      out.push_back({{"rule", u.rule}, {"uses", u.uses}, {"games", u.games}, {"location", where}});
    }
    return out;
  };
  const auto ids = finding_ids(rs);
  json problems = json::array();
  for (std::size_t i = 0; i < rs.findings.size(); ++i) {
    problems.push_back({{"games", r.problem_games[i]},
                        {"finding", detail::finding_json(rs, rs.findings[i], ids[i])}});
  }
  json out{
      {"format", "loophole-simulation"},
      {"version", 1},
      {"tool", {{"name", "loophole"}, {"version", report.tool_version}}},
      {"file", report.file},
      {"game", rs.game},
      {"scope", {{"players", rs.players}, {"params", report.params}}},
      {"seed", r.seed},
      {"policy", simulate::to_string(r.policy)},
      {"max_moves", r.max_moves},
      {"requested", r.requested},
      {"games", r.games},
      {"completion", r.completion},
      {"endings",
       {{"over", r.ended},
        {"no_winner", r.no_winner},
        {"rule_gap", r.gaps},
        {"deadlock", r.deadlocks},
        {"cut_off", r.cut_off}}},
      {"seats", std::move(seats)},
      {"length",
       {{"min", r.min_length},
        {"median", r.median_length},
        {"p90", r.p90_length},
        {"max", r.max_length},
        {"histogram", std::move(histogram)}}},
      {"usage",
       {{"actions", usage(r.actions)}, {"triggers", usage(r.triggers)}, {"steps", usage(r.steps)}}},
      {"unused", unused_rules(r)},
      {"problems", std::move(problems)}};
  if (timings) {
    out["timings"] = {{"seconds", r.seconds}, {"threads", r.threads}, {"generator", r.generator}};
  }
  return out.dump(2) + "\n";
}

std::string render_simulation_html(const SimulationReport& report,
                                   const model::SourceManager& sources,
                                   const RenderOptions& options) {
  const simulate::Result& r = report.result;
  const RulesetReport rs = as_ruleset(report);
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta "
      "name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>loophole "
      "simulation: {}</title>\n<style>{}"
      ".bar {{ fill: #1565c0; }} .ci {{ stroke: #1d1d1f; stroke-width: 2; }} .hist {{ fill: "
      "#00838f; }} svg text {{ font: 12px system-ui, sans-serif; fill: #1d1d1f; }}\n"
      "</style>\n</head>\n<body>\n<h1>loophole simulation</h1>\n",
      xml_escape(report.file), detail::html_style());
  out += fmt::format(
      "<p><code>{}</code>: {} games simulated (seed {}, {} policy, cut off at {} moves){}. "
      "Hidden information is not modelled: every policy sees the whole state.</p>\n",
      xml_escape(report.file), group_digits(r.games), r.seed, simulate::to_string(r.policy),
      group_digits(r.max_moves),
      r.completion == "complete" ? ""
                                 : fmt::format("; {} after {} of {}", completion_text(r.completion),
                                               group_digits(r.games), group_digits(r.requested)));

  // Win rate per seat: a bar per player, its 95% interval as a whisker.
  const int w = 480, row = 28, left = 60;
  const int h = row * static_cast<int>(r.wins.size()) + 30;
  out += fmt::format(
      "<h2>Win rate per seat</h2>\n<svg class=\"wins\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"win rate per seat\">\n",
      w + left + 80, h);
  for (int t = 0; t <= 4; ++t) {
    const int x = left + w * t / 4;
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"0\" x2=\"{0}\" y2=\"{1}\" stroke=\"#ddd\"/><text x=\"{0}\" "
        "y=\"{2}\" text-anchor=\"middle\">{3}%</text>\n",
        x, h - 20, h - 5, 25 * t);
  }
  for (std::size_t p = 0; p < r.wins.size(); ++p) {
    const double x = rate(r.wins[p], r.games);
    const auto ci = simulate::wilson(r.wins[p], r.games);
    const int y = static_cast<int>(p) * row + 4;
    out += fmt::format(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">P{}</text>"
        "<rect class=\"bar\" data-seat=\"P{}\" x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\">"
        "<title>P{} wins {} of {} ({}, 95% CI {} – {})</title></rect>"
        "<line class=\"ci\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\"/>"
        "<text x=\"{:.1f}\" y=\"{}\">{}</text>\n",
        left - 8, y + 15, p + 1, p + 1, left, y, w * x, row - 8, p + 1, group_digits(r.wins[p]),
        group_digits(r.games), percent(x), percent(ci.lo), percent(ci.hi), left + w * ci.lo,
        y + (row - 8) / 2, left + w * ci.hi, y + (row - 8) / 2, left + w * ci.hi + 6, y + 15,
        percent(x));
  }
  out += "</svg>\n";
  out += "<table class=\"stats\">\n";
  const auto tr = [&](const std::string& what, std::uint64_t n) {
    out += fmt::format("<tr><th>{}</th><td>{}</td><td>{}</td></tr>\n", what, group_digits(n),
                       percent(rate(n, r.games)));
  };
  for (std::size_t p = 0; p < r.wins.size(); ++p) tr(fmt::format("P{} wins", p + 1), r.wins[p]);
  tr("no winner", r.no_winner);
  tr("rule gap", r.gaps);
  tr("deadlock", r.deadlocks);
  tr("cut off", r.cut_off);
  out += "</table>\n";

  // Game length histogram.
  const auto bins = length_bins(r, 30);
  std::uint64_t most = 1;
  for (const auto& b : bins) most = std::max(most, b.games);
  const int hw = 600, hh = 200, bw = bins.empty() ? 0 : hw / static_cast<int>(bins.size());
  out += fmt::format(
      "<h2>Game length</h2>\n<p>moves per game: min {}, median {}, p90 {}, max {}</p>\n"
      "<svg class=\"lengths\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "role=\"img\" aria-label=\"game length histogram\">\n",
      r.min_length, r.median_length, r.p90_length, r.max_length, hw + 20, hh + 40);
  for (std::size_t i = 0; i < bins.size(); ++i) {
    const auto& b = bins[i];
    const double bh = hh * static_cast<double>(b.games) / static_cast<double>(most);
    out += fmt::format(
        "<rect class=\"hist\" x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{:.1f}\"><title>{}–{} "
        "moves: {} games</title></rect>\n",
        10 + static_cast<int>(i) * bw, hh - bh, std::max(1, bw - 1), bh, b.from, b.to,
        group_digits(b.games));
  }
  if (!bins.empty()) {
    out += fmt::format(
        "<text x=\"10\" y=\"{0}\">{1}</text><text x=\"{2}\" y=\"{0}\" "
        "text-anchor=\"end\">{3}</text>\n",
        hh + 16, bins.front().from, 10 + bw * static_cast<int>(bins.size()), bins.back().to);
  }
  out += "</svg>\n";

  out +=
      "<h2>Rule use</h2>\n<table class=\"stats usage\">\n<tr><th>rule</th><th>used</th>"
      "<th>games</th></tr>\n";
  for (const auto* list : {&r.actions, &r.triggers, &r.steps}) {
    for (const auto& u : *list) {
      out += fmt::format("<tr{}><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n",
                         u.uses == 0 ? " class=\"unused\"" : "", xml_escape(u.rule),
                         group_digits(u.uses), group_digits(u.games));
    }
  }
  out += "</table>\n";
  const auto unused = unused_rules(r);
  if (!unused.empty()) {
    out += "<p>Never used in these games (dead-rule candidates at this scope): ";
    for (std::size_t i = 0; i < unused.size(); ++i) {
      out += (i > 0 ? ", " : "") + fmt::format("<code>{}</code>", xml_escape(unused[i]));
    }
    out += "</p>\n";
  }
  out += fmt::format("<h2>Problems met ({})</h2>\n", r.problems.size());
  if (r.problems.empty()) out += "<p class=\"clean\">none</p>\n";
  const auto ids = finding_ids(rs);
  for (std::size_t i = 0; i < rs.findings.size(); ++i) {
    detail::html_finding(out, rs, rs.findings[i], ids[i], i + 1, sources, options);
  }
  if (options.timings) {
    out += fmt::format("<p class=\"where\">{} games in {:.2f} s on {} threads ({})</p>\n",
                       group_digits(r.games), r.seconds, r.threads, xml_escape(r.generator));
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace loophole::reports
