// The SMT engine in `loophole check`: which questions it answers, how its
// findings join the explicit ones under --engine auto (explicit search for
// what it finished, SMT for proofs and for what a limit left open), and
// --symbolic. A game the encoding does not support is said so precisely;
// under auto the explicit answers stand alone.
#include "smt_check.hpp"

#include <fmt/format.h>

#include "loophole/checker/semantics.hpp"
#include "loophole/smt/engine.hpp"

namespace loophole::cli {
namespace {

properties::CheckSelection smt_selection() {
  properties::CheckSelection s;
  s.response_loops = false;
  s.stalemates = false;
  s.dead_rules = false;
  return s;
}

smt::Options options(int depth, const std::atomic<bool>& interrupted) {
  smt::Options o;
  o.depth = depth;
  o.max_k = 6;
  o.timeout_ms = 60000;
  o.interrupt = &interrupted;
  return o;
}

bool is_unknown(const properties::Finding& f) { return f.verdict == properties::Verdict::unknown; }

}  // namespace

SmtCheck check_smt(const model::Game& game, int depth, const std::atomic<bool>& interrupted) {
  SmtCheck out;
  const checker::Semantics sem(game);
  smt::Engine engine(sem);
  if (engine.unsupported()) {
    out.unsupported = engine.unsupported()->message();
    out.inconclusive = true;
    return out;
  }
  const auto o = options(depth, interrupted);
  auto r = engine.check(o, smt_selection());
  auto statics = engine.static_checks(o, r.findings, r.statistics.complete);
  // Candidate gaps left open are notes; only unanswered questions make the
  // run inconclusive.
  for (const auto& f : r.findings) out.inconclusive = out.inconclusive || is_unknown(f);
  out.findings = std::move(r.findings);
  for (auto& f : statics) out.findings.push_back(std::move(f));
  return out;
}

SmtCheck complete_with_smt(const model::Game& game, std::vector<properties::Finding>& found,
                           checker::Completion completion, int depth,
                           const std::atomic<bool>& interrupted) {
  SmtCheck out;
  const checker::Semantics sem(game);
  smt::Engine engine(sem);
  if (engine.unsupported()) {
    out.unsupported = engine.unsupported()->message();
    return out;
  }
  const auto o = options(depth, interrupted);
  const bool complete = completion == checker::Completion::complete;
  if (!complete) {
    auto r = engine.check(o, smt_selection());
    for (auto& f : r.findings) {
      // An explicit `unknown` the SMT engine settled is replaced; a violation
      // only the SMT engine found (deeper than the explicit search got) is added.
      bool known = false;
      for (auto& e : found) {
        if (e.kind != f.kind || e.rule != f.rule) continue;
        known = true;
        if (is_unknown(e) && !is_unknown(f)) e = f;
      }
      if (!known && f.verdict == properties::Verdict::violated) found.push_back(std::move(f));
    }
  }
  out.findings = engine.static_checks(o, found, complete);
  for (const auto& f : found) out.inconclusive = out.inconclusive || is_unknown(f);
  return out;
}

SmtCheck symbolic_scope(const model::Game& game, const std::string& param, int depth,
                        const std::function<const model::Game*(std::int64_t)>& load,
                        const std::atomic<bool>& interrupted, std::string& error) {
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
  const auto r = smt::symbolic_scope(param, *p->min, *p->max, load, options(depth, interrupted),
                                     smt_selection());
  if (r.unsupported) {
    out.unsupported = r.unsupported->message();
    out.inconclusive = true;
    return out;
  }
  for (const auto& a : r.answers) {
    properties::Finding f = a.first;
    f.details.insert(f.details.begin(),
                     fmt::format("appears {}{} (checked {} = {}..{}; the trace is at {} = {})",
                                 a.summary.starts_with("for every") ? "" : "when ", a.summary,
                                 param, r.checked.front(), r.checked.back(), param, a.first_value));
    out.findings.push_back(std::move(f));
  }
  return out;
}

}  // namespace loophole::cli
