// What every renderer shares: the stable finding ids, the fingerprint hash,
// the rule that decides whether a finding fails a run, the one switch from a
// --format name to its renderer, and the one way a transcript is folded
// (passes, the middle of a long trace) and findings that read the same are
// merged, so no two formats disagree on what a designer sees.
#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <range/v3/view/zip.hpp>

#include "loophole/model/diagnostics.hpp"
#include "loophole/reports/report.hpp"

#include "detail.hpp"

namespace loophole::reports {

std::string path_key(const std::string& file, const std::string& id) { return file + "\n" + id; }

std::vector<std::string> finding_ids(const RulesetReport& rs) {
  return properties::finding_ids(rs.findings);
}

std::string short_hash(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return fmt::format("{:016x}", h);
}

bool fails(const RulesetReport& rs, const properties::Finding& f, const std::string& id,
           properties::Severity threshold) {
  return f.verdict == properties::Verdict::violated && f.severity >= threshold &&
         rs.accepted.count(id) == 0;
}

std::optional<Format> parse_format(std::string_view name) {
  if (name == "text") return Format::text;
  if (name == "json") return Format::json;
  if (name == "sarif") return Format::sarif;
  if (name == "junit") return Format::junit;
  if (name == "markdown") return Format::markdown;
  if (name == "html") return Format::html;
  return std::nullopt;
}

std::string render(Format format, const Report& report, const model::SourceManager& sources,
                   const RenderOptions& options) {
  switch (format) {
    case Format::text:
      return render_text(report, sources, options.text);
    case Format::json:
      return render_json(report, options);
    case Format::sarif:
      return render_sarif(report, options);
    case Format::junit:
      return render_junit(report, options);
    case Format::markdown:
      return render_markdown(report, options);
    case Format::html:
      return render_html(report, sources, options);
  }
  return {};
}

namespace detail {

std::string step_label(const RulesetReport& rs, int step) {
  if (rs.model == nullptr || step < 0) return "setup";
  return rs.model->step_name(step);
}

std::string pretty_step(const RulesetReport& rs, int step) {
  return rs.model == nullptr ? "setup" : rs.model->step_label(step);
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

std::string probabilistic_note(const RulesetReport& rs) {
  if (!probabilistic(rs)) return "";
  return fmt::format(
      "probabilistic verdict: hash compaction (64-bit fingerprints) may have missed a state, "
      "with probability at most {:.1e}",
      rs.statistics->omission_probability);
}

std::string_view completion_name(checker::Completion c) {
  switch (c) {
    case checker::Completion::complete:
      return "complete";
    case checker::Completion::state_limit:
      return "state-limit";
    case checker::Completion::memory_limit:
      return "memory-limit";
    case checker::Completion::time_limit:
      return "time-limit";
    case checker::Completion::interrupted:
      return "interrupted";
  }
  return "unknown";
}

std::string_view move_kind_name(checker::MoveKind k) {
  switch (k) {
    case checker::MoveKind::start:
      return "start";
    case checker::MoveKind::advance:
      return "advance";
    case checker::MoveKind::enter:
      return "enter";
    case checker::MoveKind::effects:
      return "effects";
    case checker::MoveKind::action:
      return "action";
    case checker::MoveKind::pass:
      return "pass";
    case checker::MoveKind::resolve:
      return "resolve";
    case checker::MoveKind::trigger:
      return "trigger";
    case checker::MoveKind::decline:
      return "decline";
  }
  return "unknown";
}

std::string run_label(const RulesetReport& rs) {
  if (rs.swept.empty()) return rs.file;
  return fmt::format("{} [{}={}]", rs.file, rs.swept, rs.swept_value);
}

std::string location(const RulesetReport& rs, const properties::Finding& f) {
  return f.where.known() ? fmt::format("{}:{}:{}", f.where.file, f.where.line, f.where.col)
                         : rs.file;
}

Counts count(const RulesetReport& rs, const std::vector<std::string>& ids) {
  Counts c;
  for (const auto& [f, id] : ranges::views::zip(rs.findings, ids)) {
    if (rs.accepted.count(id) != 0) {
      ++c.accepted;
    } else if (f.verdict == properties::Verdict::unknown) {
      ++c.inconclusive;
    } else if (f.verdict == properties::Verdict::violated) {
      switch (f.severity) {
        case properties::Severity::error:
          ++c.errors;
          break;
        case properties::Severity::warning:
          ++c.warnings;
          break;
        case properties::Severity::note:
          ++c.notes;
          break;
      }
    }
  }
  return c;
}

std::string TranscriptLine::number() const {
  return first == last ? std::to_string(first + 1) : fmt::format("{}-{}", first + 1, last + 1);
}

namespace {

// A pass that did nothing else: its printed line is exactly "P2 passes".
bool bare_pass(const checker::TraceStep& s) {
  return s.kind == checker::MoveKind::pass && s.player >= 0 &&
         s.text == fmt::format("P{} passes", s.player + 1);
}

}  // namespace

std::vector<TranscriptLine> transcript_lines(const checker::Trace& t, std::size_t max_lines) {
  std::vector<TranscriptLine> lines;
  const auto& steps = t.steps;
  const auto loop = static_cast<std::size_t>(t.loop_start);
  for (std::size_t i = 0; i < steps.size();) {
    std::size_t j = i + 1;
    if (bare_pass(steps[i])) {
      while (j < steps.size() && bare_pass(steps[j]) && !(t.loop_start >= 0 && j == loop) &&
             steps[j].turn == steps[i].turn && steps[j].active == steps[i].active &&
             steps[j].step == steps[i].step) {
        ++j;
      }
    }
    TranscriptLine line;
    line.first = i;
    line.last = j - 1;
    line.cycle_starts = t.loop_start >= 0 && i == loop;
    if (j - i == 1) {
      line.text = steps[i].text;
    } else {
      for (std::size_t k = i; k < j; ++k) {
        line.text += fmt::format("{}P{}", k == i ? "" : ", ", steps[k].player + 1);
      }
      line.text += " pass";
    }
    lines.push_back(std::move(line));
    i = j;
  }
  if (max_lines == 0 || lines.size() <= max_lines) return lines;
  const std::size_t head = max_lines / 2;
  const std::size_t tail = max_lines - head;
  TranscriptLine fold;
  fold.kind = TranscriptLine::Kind::fold;
  fold.first = lines[head].first;
  fold.last = lines[lines.size() - tail - 1].last;
  fold.text = fmt::format("... ({} moves)", fold.last - fold.first + 1);
  std::vector<TranscriptLine> out(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(head));
  out.push_back(std::move(fold));
  out.insert(out.end(), lines.end() - static_cast<std::ptrdiff_t>(tail), lines.end());
  return out;
}

std::string trace_summary(const checker::Trace& t, bool with_cycle, bool shortest) {
  std::string out = fmt::format("{} move{}, {}", t.steps.size(), t.steps.size() == 1 ? "" : "s",
                                shortest ? "shortest" : "a simulated game");
  if (with_cycle && t.loop_start >= 0) {
    out += fmt::format("; moves {}-{} repeat forever", t.loop_start + 1, t.steps.size());
  }
  return out;
}

std::string transcript_text(const RulesetReport& rs, const checker::Trace& t, std::size_t max_lines,
                            std::string_view indent) {
  using model::terminal_safe;
  std::string out;
  if (!t.start.empty()) out += fmt::format("{}after setup: {}\n", indent, terminal_safe(t.start));
  const auto lines = transcript_lines(t, max_lines);
  std::size_t number = 3, where = 0;
  for (const auto& l : lines) {
    if (l.kind != TranscriptLine::Kind::move) continue;
    number = std::max(number, l.number().size());
    where = std::max(where, pretty_step(rs, t.steps[l.first].step).size());
  }
  for (const auto& l : lines) {
    if (l.kind == TranscriptLine::Kind::fold) {
      out += fmt::format("{}{}\n", indent, l.text);
      continue;
    }
    if (l.cycle_starts) out += fmt::format("{}-- cycle starts here --\n", indent);
    const auto& s = t.steps[l.first];
    out += fmt::format("{}{:>{}}  T{} P{}  {:<{}}  {}\n", indent, l.number(), number, s.turn,
                       s.active + 1, terminal_safe(pretty_step(rs, s.step)), where,
                       terminal_safe(l.text));
  }
  if (t.loop_start >= 0) {
    const std::size_t len = t.steps.size() - static_cast<std::size_t>(t.loop_start);
    out += fmt::format("{}(cycle: {} move{} back to the state after move {}, repeats forever)\n",
                       indent, len, len == 1 ? "" : "s", t.loop_start);
  }
  return out;
}

namespace {

// The printed identity of a finding: everything a reader of the text report sees.
std::string printed(const RulesetReport& rs, const properties::Finding& f, const std::string& id) {
  std::string key = fmt::format("{}\n{}\n{}\n{}\n{}\n", properties::to_string(f.kind),
                                properties::to_string(f.severity), properties::to_string(f.verdict),
                                location(rs, f), f.message);
  for (const auto& d : f.details) key += d + "\n";
  const auto a = rs.accepted.find(id);
  key += a != rs.accepted.end() ? "accepted: " + a->second + "\n" : "\n";
  if (f.trace) key += transcript_text(rs, *f.trace, 0, "");
  return key;
}

}  // namespace

std::vector<std::size_t> identical_to(const RulesetReport& rs,
                                      const std::vector<std::string>& ids) {
  std::vector<std::size_t> out(rs.findings.size());
  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < rs.findings.size(); ++i) {
    out[i] = first.emplace(printed(rs, rs.findings[i], ids[i]), i).first->second;
  }
  return out;
}

std::string identical_note(const std::vector<std::size_t>& same,
                           const std::vector<std::string>& ids, std::size_t i) {
  std::vector<std::string> others;
  for (std::size_t k = i + 1; k < same.size(); ++k) {
    if (same[k] == i && k != i) others.push_back("'" + ids[k] + "'");
  }
  if (same[i] != i || others.empty()) return "";
  return fmt::format(
      "identical to {} more finding{}: {} (they differ only in detail the transcript does not "
      "show)",
      others.size(), others.size() == 1 ? "" : "s", fmt::join(others, ", "));
}

std::string kind_description(properties::Kind k) {
  switch (k) {
    case properties::Kind::deadlock:
      return "The game reaches a point where the rules allow no move and nobody has won.";
    case properties::Kind::response_loop:
      return "Players can (or must) keep answering each other forever without the game "
             "advancing.";
    case properties::Kind::unbounded_chain:
      return "A response chain can grow until the stack reaches its scope bound.";
    case properties::Kind::stalemate:
      return "The game can go on forever, advancing turns, without any sequence of moves ending "
             "it.";
    case properties::Kind::unreachable_win:
      return "A win or loss condition that no sequence of legal play can ever satisfy.";
    case properties::Kind::rule_gap:
      return "An effect leaves the rules' own bounds (a draw from an empty deck, a counter below "
             "zero) where the rules say nothing.";
    case properties::Kind::dead_rule:
      return "An action, trigger, step or window that can never be used.";
    case properties::Kind::property_violation:
      return "A designer's own property (always, never, reachable, leads_to) fails.";
    case properties::Kind::structure:
      return "The turn structure itself is broken: a step nothing leads to, a step that never "
             "lets go, a turn that never passes on.";
    case properties::Kind::tie:
      return "Several end conditions hold at once and the rules do not say who wins: the first "
             "declared silently decides.";
    case properties::Kind::turn_loop:
      return "Steps can be entered again and again without the turn ever moving on.";
    case properties::Kind::cannot_lose:
      return "From some reachable state a player can neither lose nor win any more.";
    case properties::Kind::stall:
      return "A player can keep a loop going forever because every way out of it loses for them.";
    case properties::Kind::cannot_end:
      return "From some reachable state no end condition can hold any more: only a rule gap "
             "stops the game.";
  }
  return "";
}

}  // namespace detail
}  // namespace loophole::reports
