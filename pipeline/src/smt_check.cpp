// The SMT engine in the pipeline: which questions it answers, how its
// findings join the explicit ones under --engine auto (explicit search for
// what it finished, SMT for proofs and for what a limit left open), and
// --symbolic. A game the encoding does not support is said so precisely;
// under auto the explicit answers stand alone.
#include "smt_check.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "loophole/checker/questions.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/properties/finding.hpp"
#include "loophole/smt/engine.hpp"

namespace loophole::pipeline::detail {
namespace {

// Every question the SMT engine answers (smt::Questions).
smt::Questions smt_selection() { return smt::Questions{}; }

smt::Options options(int depth, const SmtLimits& limits) {
  smt::Options o;
  o.depth = depth;
  o.max_k = 6;
  o.timeout_ms = 60000;
  o.interrupt = limits.interrupted;
  o.deadline = limits.deadline;
  o.max_memory_bytes = limits.max_memory_bytes;
  if (limits.layer_states) o.layer_states = *limits.layer_states;
  if (limits.progress) {
    o.progress = [show = limits.progress](const smt::Activity& a) {
      show(a.depth, a.max_depth, a.seconds, a.what);
    };
  }
  return o;
}

checker::Completion completion_of(smt::Stop s) {
  switch (s) {
    case smt::Stop::none:
      return checker::Completion::complete;
    case smt::Stop::interrupted:
      return checker::Completion::interrupted;
    case smt::Stop::time_limit:
      return checker::Completion::time_limit;
    case smt::Stop::memory_limit:
      return checker::Completion::memory_limit;
  }
  return checker::Completion::interrupted;
}

// A stopped run is about to end, and tearing down a large Z3 context took
// over a second on cosmere (of the second a stop may take): the engine of a
// stopped run is kept, reachable, until the process exits. Its semantics
// may go first; a kept engine is never used again.
void keep_until_exit(std::unique_ptr<smt::Engine> engine) {
  static auto* const kept = new std::vector<std::unique_ptr<smt::Engine>>();
  kept->push_back(std::move(engine));
}

bool is_unknown(const properties::Finding& f) { return f.verdict == properties::Verdict::unknown; }

// leads_to is liveness, which BMC over finite paths cannot settle: each one
// is said to be unanswered rather than silently left out.
void leads_to_unknown(const model::Game& game, std::vector<properties::Finding>& out) {
  for (const auto& p : game.properties) {
    if (p.kind != model::Property::Kind::leads_to) continue;
    properties::Finding f;
    f.kind = properties::Kind::property_violation;
    f.severity = properties::Severity::note;
    f.verdict = properties::Verdict::unknown;
    f.engine = "smt";
    f.rule = "property:" + p.name;
    f.where = p.where;
    f.message = fmt::format("'{}' (leads_to) is not checked by the smt engine", p.name);
    f.details.emplace_back("liveness needs cycles; run --engine explicit or auto to check it");
    out.push_back(std::move(f));
  }
}

// --symbolic: what was settled with no problem at every value of lo..hi
// (each value loaded and checked, none stopped) is said to hold there: no
// deadlock, no rule gap, each always/never property.
void proved_for_every_value(const model::Game& game, const std::string& param, std::int64_t lo,
                            std::int64_t hi, const smt::ScopeResult& r,
                            std::vector<properties::Finding>& out) {
  if (r.stopped != smt::Stop::none || r.checked.size() != static_cast<std::size_t>(hi - lo + 1)) {
    return;
  }
  const auto seen = [&r](properties::Kind kind, const std::string& rule) {
    for (const auto* answers : {&r.answers, &r.open}) {
      for (const auto& a : *answers) {
        if (a.kind == kind && (rule.empty() || a.rule == rule)) return true;
      }
    }
    return false;
  };
  const std::string every = fmt::format("proved for every value of {} in {}..{}", param, lo, hi);
  const auto holds = [&](properties::Kind kind, std::string rule, model::SourceSpan where,
                         std::string message) {
    properties::Finding f;
    f.kind = kind;
    f.severity = properties::Severity::note;
    f.verdict = properties::Verdict::holds;
    f.engine = "smt";
    f.rule = std::move(rule);
    f.where = std::move(where);
    f.message = std::move(message) + ": " + every;
    out.push_back(std::move(f));
  };
  if (!seen(properties::Kind::deadlock, "")) {
    holds(properties::Kind::deadlock, "deadlock", {}, "no deadlock");
  }
  if (!seen(properties::Kind::rule_gap, "")) {
    holds(properties::Kind::rule_gap, "rule-gap", {}, "no rule gap");
  }
  for (const auto& p : game.properties) {
    if (p.kind != model::Property::Kind::always && p.kind != model::Property::Kind::never) continue;
    const std::string rule = checker::question::property_rule(p);
    if (seen(properties::Kind::property_violation, rule)) continue;
    holds(properties::Kind::property_violation, rule, p.where,
          checker::question::property_holds(p));
  }
}

}  // namespace

SmtCheck check_smt(const model::Game& game, int depth, const SmtLimits& limits) {
  SmtCheck out;
  const checker::Semantics sem(game);
  const auto o = options(depth, limits);
  auto kept = std::make_unique<smt::Engine>(sem, o);
  smt::Engine& engine = *kept;
  if (engine.unsupported()) {
    out.unsupported = engine.unsupported()->message();
    out.inconclusive = true;
    return out;
  }
  // A stop (even while encoding) leaves every question it did not answer
  // `unknown`: check() says which, and how deep it got.
  auto r = engine.check(o, smt_selection());
  auto statics = engine.static_checks(o, r.findings, r.statistics.complete || r.gaps_settled);
  leads_to_unknown(game, r.findings);
  // Candidate gaps left open are notes; only unanswered questions make the
  // run inconclusive.
  for (const auto& f : r.findings) out.inconclusive = out.inconclusive || is_unknown(f);
  out.completion = completion_of(engine.stopped());
  out.findings = std::move(r.findings);
  out.notes = std::move(statics);
  properties::mark_invented_rules(game, out.findings);
  properties::mark_invented_rules(game, out.notes);
  if (engine.stopped() != smt::Stop::none) keep_until_exit(std::move(kept));
  return out;
}

SmtCheck complete_with_smt(const model::Game& game, std::vector<properties::Finding>& found,
                           checker::Completion completion, int depth, const SmtLimits& limits) {
  SmtCheck out;
  const checker::Semantics sem(game);
  const auto o = options(depth, limits);
  auto kept = std::make_unique<smt::Engine>(sem, o);
  smt::Engine& engine = *kept;
  if (engine.unsupported()) {
    out.unsupported = engine.unsupported()->message();
    return out;
  }
  bool gaps_settled = completion == checker::Completion::complete;
  out.answered = !gaps_settled;
  if (!gaps_settled) {
    // The proofs are wanted too: a property proved by k-induction (verdict
    // holds) replaces the explicit `unknown` for it.
    auto sel = smt_selection();
    sel.report_holds = true;
    auto r = engine.check(o, sel);
    gaps_settled = r.statistics.complete || r.gaps_settled;
    for (auto& f : r.findings) {
      // An explicit `unknown` the SMT engine settled is replaced; a violation
      // only the SMT engine found (deeper than the explicit search got) is
      // added, and so is what it left open about deadlocks and rule gaps
      // (whose absence the explicit search cannot claim either).
      bool known = false;
      for (auto& e : found) {
        if (e.kind != f.kind || e.rule != f.rule) continue;
        known = true;
        if (is_unknown(e) && !is_unknown(f)) e = f;
      }
      const bool open_marker = is_unknown(f) && (f.kind == properties::Kind::deadlock ||
                                                 f.kind == properties::Kind::rule_gap);
      if (!known && (f.verdict == properties::Verdict::violated || open_marker)) {
        found.push_back(std::move(f));
      }
    }
  }
  out.notes = engine.static_checks(o, found, gaps_settled);
  properties::mark_invented_rules(game, found);  // those the SMT engine added
  properties::mark_invented_rules(game, out.notes);
  out.completion = completion_of(engine.stopped());
  for (const auto& f : found) out.inconclusive = out.inconclusive || is_unknown(f);
  if (engine.stopped() != smt::Stop::none) keep_until_exit(std::move(kept));
  return out;
}

SmtCheck symbolic_scope(const model::Game& game, const std::string& param, int depth,
                        const std::function<const model::Game*(std::int64_t)>& load,
                        const SmtLimits& limits, std::string& error) {
  SmtCheck out;
  const model::Param* p = nullptr;
  for (const auto& q : game.params) {
    if (q.name == param) p = &q;
  }
  if (p == nullptr) {
    error = fmt::format("--symbolic: no param '{}' in '{}'", param, game.name);
    return out;
  }
  if (!p->min || !p->max) {
    error =
        fmt::format("--symbolic: param '{}' has no declared min and max to search within", param);
    return out;
  }
  // What k-induction leaves open at a value is tried by IC3/PDR (unbounded,
  // 60 s a question), so that "no deadlock" and "no rule gap" are settled
  // for every value where it can be (docs/smt.md, "Symbolic scope").
  smt::Options o = options(depth, limits);
  o.pdr_seconds = 60;
  // A value whose reachable states fit in the layers is settled by their
  // complete search, past --depth: a larger budget than check's (still
  // bounded by --max-memory, which counts the layers' tables).
  o.layers_past_depth = true;
  if (!limits.layer_states) o.layer_states = smt::symbolic_layer_states;
  const auto r = smt::symbolic_scope(param, *p->min, *p->max, load, o, smt_selection());
  if (r.unsupported) {
    out.unsupported = r.unsupported->message();
    out.inconclusive = true;
    return out;
  }
  out.completion = completion_of(r.stopped);
  out.inconclusive = !r.unsettled.empty() || r.stopped != smt::Stop::none;
  if (r.checked.empty()) return out;
  std::string unsettled;
  if (!r.unsettled.empty()) {
    std::string values;
    for (const auto v : r.unsettled) values += (values.empty() ? "" : ", ") + std::to_string(v);
    unsettled = fmt::format("; not settled for {} = {}", param, values);
  }
  // Per value, how the question was settled (docs/smt.md, "Symbolic
  // scope"): "deck = 3: all 40 reachable states searched, every one within
  // 9 moves", "top = 8: proved by IC3/PDR (Z3's Spacer)", "found; ..." where
  // this finding appears, or "unknown: ..." and why.
  const auto per_value = [&](properties::Finding& f, const std::vector<std::int64_t>& found) {
    const std::string rule = f.kind == properties::Kind::deadlock   ? std::string("deadlock")
                             : f.kind == properties::Kind::rule_gap ? std::string("rule-gap")
                                                                    : f.rule;
    for (const auto& v : r.values) {
      const auto how = std::find_if(
          v.settled_how.begin(), v.settled_how.end(),
          [&](const smt::Result::Settled& s) { return s.kind == f.kind && s.rule == rule; });
      if (how == v.settled_how.end()) continue;
      const bool here = std::find(found.begin(), found.end(), v.value) != found.end();
      const bool property = f.kind == properties::Kind::property_violation;
      f.details.push_back(fmt::format("{} = {}: {}", param, v.value,
                                      !here      ? how->how
                                      : property ? std::string("violated")
                                                 : "found; " + how->how));
    }
  };
  for (const auto& a : r.answers) {
    properties::Finding f = a.first;
    f.details.insert(
        f.details.begin(),
        fmt::format("appears {}{} (checked {} = {}..{}; the trace is at {} = {}{})",
                    a.summary.starts_with("for every") ? "" : "when ", a.summary, param,
                    r.checked.front(), r.checked.back(), param, a.first_value, unsettled));
    per_value(f, a.values);
    out.findings.push_back(std::move(f));
  }
  for (const auto& a : r.open) {
    properties::Finding f = a.first;
    f.details.insert(f.details.begin(),
                     fmt::format("unknown {}{} (checked {} = {}..{})",
                                 a.summary.starts_with("for every") ? "" : "for ", a.summary, param,
                                 r.checked.front(), r.checked.back()));
    per_value(f, {});
    out.findings.push_back(std::move(f));
  }
  const std::size_t before = out.findings.size();
  proved_for_every_value(game, param, *p->min, *p->max, r, out.findings);
  for (std::size_t i = before; i < out.findings.size(); ++i) per_value(out.findings[i], {});
  leads_to_unknown(game, out.findings);
  for (const auto& f : out.findings) out.inconclusive = out.inconclusive || is_unknown(f);
  return out;
}

}  // namespace loophole::pipeline::detail
