// What the explicit and the SMT engine are compared on. Each engine answers,
// per question (a deadlock group, a rule-gap site, an end condition per
// player, a user property), whether a witness exists within depth K (the
// explicit search's depth, so that both cover every reachable state) and how
// long its trace is: BFS and BMC with increasing depth both give shortest
// traces, so the lengths must be equal. Shared by tests/smt/agreement_test.cpp
// (every fixture) and tests/fuzz/fuzz_smt.cpp (generated rulesets).
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/properties/finding.hpp"
#include "loophole/smt/engine.hpp"

namespace loophole::smt::testing {

// found: a witness (deadlock, gap, violation, reached goal) with a trace of
// `trace` moves; otherwise none within the depth.
struct Outcome {
  bool found = false;
  std::size_t trace = 0;
  friend bool operator==(const Outcome&, const Outcome&) = default;
};
using Answers = std::map<std::string, Outcome>;

inline std::string show(const Answers& a) {
  std::string s;
  for (const auto& [k, v] : a) {
    s += "    {\"" + k + "\", {" + (v.found ? "true" : "false") + ", " + std::to_string(v.trace) +
         "}},\n";
  }
  return s;
}

// The analyses both engines run (loops, stalemates and dead rules need the
// whole graph: explicit only).
// The same questions, as the SMT engine is asked them.
inline smt::Questions smt_questions() {
  smt::Questions s;
  s.report_holds = true;
  return s;
}

inline properties::CheckSelection selection() {
  properties::CheckSelection s;
  s.response_loops = false;
  s.stalemates = false;
  s.dead_rules = false;
  s.report_holds = true;
  return s;
}

// The answers in `found`; a finding that is no well-formed answer (a
// deadlock without a trace, an unreachable win that holds) is described in
// `problems`.
inline Answers answers(const model::Game& g, const std::vector<properties::Finding>& found,
                       std::vector<std::string>& problems) {
  using properties::Kind;
  using properties::Verdict;
  Answers out;
  for (const auto& f : found) {
    const std::size_t len = f.trace ? f.trace->size() : 0;
    switch (f.kind) {
      case Kind::deadlock:
      case Kind::rule_gap:
        // `unknown`: "no other one within the depth", which the map says by
        // leaving it out; a violation is a witness with its trace.
        if (f.message.starts_with("candidate") || f.verdict == Verdict::unknown) break;
        if (f.verdict != Verdict::violated || !f.trace) {
          problems.push_back("a witness without a violation and a trace: " + f.message);
        }
        out[std::string(f.kind == Kind::deadlock ? "deadlock " : "rule-gap " + f.rule + " ") +
            f.message] = Outcome{true, len};
        break;
      case Kind::unreachable_win:
        // Not reached within the depth: proved never (violated) or not
        // settled beyond it (unknown). Nothing else is an answer.
        if (f.verdict == Verdict::violated || f.verdict == Verdict::unknown) {
          out["unreached " + f.rule] = Outcome{false, 0};
        } else {
          problems.push_back("unreachable-win with verdict " +
                             std::string(properties::to_string(f.verdict)) + ": " + f.message);
        }
        break;
      case Kind::property_violation: {
        const auto it = std::find_if(g.properties.begin(), g.properties.end(),
                                     [&](const auto& p) { return "property:" + p.name == f.rule; });
        if (it == g.properties.end() || it->kind == model::Property::Kind::leads_to) break;
        const bool reachable = it->kind == model::Property::Kind::reachable;
        const bool witness =
            reachable ? f.verdict == Verdict::holds : f.verdict == Verdict::violated;
        out[std::string(reachable ? "reached " : "violated ") + f.rule] =
            Outcome{witness, witness ? len : 0};
        break;
      }
      default:
        break;
    }
  }
  return out;
}

// Only witnesses within depth K count. An end condition has no trace when it
// is reached, so when K does not cover every reachable state (`capped`), end
// conditions are not compared.
inline Answers within(Answers a, int depth, bool capped) {
  for (auto it = a.begin(); it != a.end();) {
    auto& o = it->second;
    if (o.found && o.trace > static_cast<std::size_t>(depth)) o = Outcome{false, 0};
    const bool several = it->first.starts_with("deadlock ") || it->first.starts_with("rule-gap ");
    if ((capped && it->first.starts_with("unreached ")) || (several && !o.found)) {
      it = a.erase(it);
    } else {
      ++it;
    }
  }
  return a;
}

}  // namespace loophole::smt::testing
