// `loophole explain`: one finding in full, for a CI log that showed only its
// id. It prints what the text report prints for the finding, but with the
// whole transcript (no folding of the middle), and then the rule the finding
// is about as the designer wrote it: the source lines of that rule's YAML
// entry, from the line the finding points at down to the next line indented
// no deeper (the next entry or key), at most `max_rule_lines` of them.
#include <fmt/format.h>

#include "loophole/model/diagnostics.hpp"
#include "loophole/reports/report.hpp"

#include "detail.hpp"

namespace loophole::reports {
namespace {

constexpr std::uint32_t max_rule_lines = 40;

std::size_t indent_of(std::string_view line) {
  const auto n = line.find_first_not_of(' ');
  return n == std::string_view::npos ? line.size() : n;
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

}  // namespace

std::string rule_text(const model::SourceManager& sources, const model::SourceSpan& where) {
  if (!where.known()) return "";
  const std::string_view first = sources.line(where.file, where.line);
  if (blank(first)) return "";
  const std::size_t base = indent_of(first);
  std::uint32_t last = where.line;
  for (std::uint32_t l = where.line + 1; l < where.line + max_rule_lines; ++l) {
    const std::string_view text = sources.line(where.file, l);
    if (blank(text)) continue;  // a blank line, or past the end
    if (indent_of(text) <= base) break;
    last = l;
  }
  std::string out;
  const std::size_t width = std::to_string(last).size();
  for (std::uint32_t l = where.line; l <= last; ++l) {
    out +=
        fmt::format("{:>{}} | {}\n", l, width, model::terminal_safe(sources.line(where.file, l)));
  }
  return out;
}

std::string render_explain(const RulesetReport& rs, std::size_t finding,
                           const model::SourceManager& sources, bool color) {
  const auto ids = finding_ids(rs);
  const auto same = detail::identical_to(rs, ids);
  const auto& f = rs.findings.at(finding);
  std::string out = fmt::format("finding {} in {}\n", model::terminal_safe(ids[finding]),
                                model::terminal_safe(detail::run_label(rs)));
  out += detail::text_finding(rs, finding, ids, same, sources, color, 0);
  const std::string rule = rule_text(sources, f.where);
  if (!rule.empty()) {
    out += fmt::format("the rule, as written ({}):\n", model::terminal_safe(f.rule));
    out += rule;
  }
  return out;
}

}  // namespace loophole::reports
