// `loophole diff`: what an edit of a ruleset changed, in terms of what the
// designer cares about rather than lines. Findings are matched by their
// stable ids (kind/rule), so a finding whose rule moved or whose trace got
// longer is the same finding, and a renamed rule shows as one removed and one
// added. A win or loss condition is unreachable exactly when there is an
// unreachable-win finding for it, so its reachability change is read off the
// added and removed findings of that kind.
#include "loophole/reports/diff.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "detail.hpp"

namespace loophole::reports {
namespace {

// "end:points/P2" -> "points"
std::string end_name(const std::string& rule) {
  const auto colon = rule.find(':');
  const auto slash = rule.rfind('/');
  if (colon == std::string::npos || slash == std::string::npos || slash < colon) return rule;
  return rule.substr(colon + 1, slash - colon - 1);
}

bool has_end(const RulesetReport& rs, const std::string& name) {
  if (rs.model == nullptr) return false;
  return std::any_of(rs.model->end_conditions.begin(), rs.model->end_conditions.end(),
                     [&](const model::EndCondition& e) { return e.name == name; });
}

bool unreachable_win(const properties::Finding& f) {
  return f.kind == properties::Kind::unreachable_win && f.verdict == properties::Verdict::violated;
}

// "P2 win by 'points'" from the finding's rule "end:points/P2".
std::string end_label(const RulesetReport& rs, const std::string& rule) {
  const std::string name = end_name(rule);
  const std::string player = rule.substr(rule.rfind('/') + 1);
  bool win = true;
  if (rs.model != nullptr) {
    for (const auto& e : rs.model->end_conditions) {
      if (e.name == name) win = e.win;
    }
  }
  return fmt::format("{} {} by '{}'", player, win ? "win" : "loss", name);
}

// "+1,204" or "-299,503", grouped like every other count.
std::string signed_delta(std::int64_t d) {
  const auto magnitude = d >= 0 ? static_cast<std::uint64_t>(d) : 0 - static_cast<std::uint64_t>(d);
  return (d >= 0 ? "+" : "-") + group_digits(magnitude);
}

std::string finding_line(const RulesetReport& rs, const properties::Finding& f,
                         const std::string& id) {
  return fmt::format("  {}: {}: {}: {} [{}]\n", detail::location(rs, f),
                     properties::to_string(f.severity), detail::heading(f), f.message, id);
}

// What `check` prints under an added finding's line (its details and its
// transcript), indented one level under the diff's line for it. It is
// rendered by render_text itself, so a trace reads the same in both.
std::string finding_body(const RulesetReport& rs, const properties::Finding& f) {
  if (!f.trace && f.details.empty()) return "";
  Report one;
  RulesetReport alone;
  alone.file = rs.file;
  alone.model = rs.model;
  alone.players = rs.players;
  alone.findings.push_back(f);
  one.rulesets.push_back(std::move(alone));
  static const model::SourceManager k_no_sources;  // no quoted source lines
  TextOptions options;
  options.statistics = false;
  const std::string text = render_text(one, k_no_sources, options);
  std::string out;
  for (auto at = text.find('\n') + 1; at < text.size();) {
    const auto end = std::min(text.find('\n', at), text.size());
    out += "  " + text.substr(at, end - at) + "\n";
    at = end + 1;
  }
  return out;
}

}  // namespace

RulesetDiff diff_rulesets(const RulesetReport& before, const RulesetReport& after) {
  RulesetDiff d;
  d.before = &before;
  d.after = &after;
  const auto old_ids = finding_ids(before);
  const auto new_ids = finding_ids(after);
  const std::set<std::string> old_set(old_ids.begin(), old_ids.end());
  const std::set<std::string> new_set(new_ids.begin(), new_ids.end());
  for (std::size_t i = 0; i < new_ids.size(); ++i) {
    if (old_set.count(new_ids[i]) == 0) {
      d.added.push_back(i);
      if (unreachable_win(after.findings[i]))
        d.became_unreachable.push_back(after.findings[i].rule);
    } else {
      d.kept.push_back(new_ids[i]);
    }
  }
  for (std::size_t i = 0; i < old_ids.size(); ++i) {
    if (new_set.count(old_ids[i]) != 0) continue;
    d.removed.push_back(i);
    const auto& f = before.findings[i];
    if (unreachable_win(f) && has_end(after, end_name(f.rule))) {
      d.became_reachable.push_back(f.rule);
    }
  }
  return d;
}

bool adds_findings(const RulesetDiff& d, properties::Severity threshold) {
  return std::any_of(d.added.begin(), d.added.end(), [&](std::size_t i) {
    const auto& f = d.after->findings[i];
    return f.verdict == properties::Verdict::violated && f.severity >= threshold;
  });
}

std::string render_diff_text(const RulesetDiff& d) {
  const auto& before = *d.before;
  const auto& after = *d.after;
  const auto old_ids = finding_ids(before);
  const auto new_ids = finding_ids(after);
  std::string out = fmt::format("loophole diff {} -> {}\n", before.file, after.file);
  out += fmt::format("findings added ({}):\n", d.added.size());
  for (const auto i : d.added) {
    out += finding_line(after, after.findings[i], new_ids[i]);
    out += finding_body(after, after.findings[i]);
  }
  out += fmt::format("findings removed ({}):\n", d.removed.size());
  for (const auto i : d.removed) out += finding_line(before, before.findings[i], old_ids[i]);
  out += fmt::format("findings unchanged: {}\n", d.kept.size());
  if (!d.became_unreachable.empty() || !d.became_reachable.empty()) {
    out += "end conditions:\n";
    for (const auto& r : d.became_unreachable) {
      out += fmt::format("  became unreachable: {} ({})\n", end_label(after, r), r);
    }
    for (const auto& r : d.became_reachable) {
      out += fmt::format("  became reachable: {} ({})\n", end_label(after, r), r);
    }
  }
  if (before.statistics && after.statistics) {
    const auto& a = *before.statistics;
    const auto& b = *after.statistics;
    out += fmt::format(
        "states {} -> {} ({})  transitions {} -> {} ({})\n", group_digits(a.states),
        group_digits(b.states),
        signed_delta(static_cast<std::int64_t>(b.states) - static_cast<std::int64_t>(a.states)),
        group_digits(a.transitions), group_digits(b.transitions),
        signed_delta(static_cast<std::int64_t>(b.transitions) -
                     static_cast<std::int64_t>(a.transitions)));
  }
  for (const auto* rs : {&before, &after}) {
    if (rs->completion != checker::Completion::complete) {
      out += fmt::format("{}: inconclusive ({}): claims of absence are not final\n", rs->file,
                         detail::completion_name(rs->completion));
    }
  }
  return out;
}

std::string render_diff_json(const RulesetDiff& d) {
  using nlohmann::json;
  const auto& before = *d.before;
  const auto& after = *d.after;
  const auto old_ids = finding_ids(before);
  const auto new_ids = finding_ids(after);
  const auto side = [](const RulesetReport& rs) {
    json s{{"file", rs.file},
           {"completion", detail::completion_name(rs.completion)},
           {"scope", {{"players", rs.players}, {"params", rs.params}}}};
    s["states"] = rs.statistics ? json(rs.statistics->states) : json(nullptr);
    s["transitions"] = rs.statistics ? json(rs.statistics->transitions) : json(nullptr);
    return s;
  };
  json added = json::array();
  for (const auto i : d.added)
    added.push_back(detail::finding_json(after, after.findings[i], new_ids[i]));
  json removed = json::array();
  for (const auto i : d.removed) {
    removed.push_back(detail::finding_json(before, before.findings[i], old_ids[i]));
  }
  json out{
      {"format", "loophole-diff"},
      {"version", 1},
      {"before", side(before)},
      {"after", side(after)},
      {"added", std::move(added)},
      {"removed", std::move(removed)},
      {"unchanged", d.kept},
      {"ends",
       {{"became_unreachable", d.became_unreachable}, {"became_reachable", d.became_reachable}}}};
  if (before.statistics && after.statistics) {
    out["states_delta"] = static_cast<std::int64_t>(after.statistics->states) -
                          static_cast<std::int64_t>(before.statistics->states);
  } else {
    out["states_delta"] = nullptr;
  }
  return json_dump(out);
}

}  // namespace loophole::reports
