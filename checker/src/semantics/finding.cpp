// Stable names of the finding enums (checker/finding.hpp). They appear in
// text reports, JSON and SARIF rule ids and in baselines, so they are part
// of the output format: change with care.
#include "loophole/checker/finding.hpp"

namespace loophole::checker {

std::string_view to_string(Kind k) {
  switch (k) {
    case Kind::deadlock:
      return "deadlock";
    case Kind::response_loop:
      return "response-loop";
    case Kind::unbounded_chain:
      return "unbounded-chain";
    case Kind::stalemate:
      return "stalemate";
    case Kind::unreachable_win:
      return "unreachable-win";
    case Kind::rule_gap:
      return "rule-gap";
    case Kind::dead_rule:
      return "dead-rule";
    case Kind::property_violation:
      return "property-violation";
    case Kind::structure:
      return "structure";
    case Kind::tie:
      return "tie";
    case Kind::turn_loop:
      return "turn-loop";
    case Kind::cannot_lose:
      return "cannot-lose";
    case Kind::cannot_end:
      return "cannot-end";
    case Kind::stall:
      return "stall";
  }
  return "unknown-kind";
}

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::note:
      return "note";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "unknown-severity";
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::holds:
      return "holds";
    case Verdict::violated:
      return "violated";
    case Verdict::unknown:
      return "unknown";
  }
  return "unknown-verdict";
}

std::string_view to_string(LoopClass c) {
  switch (c) {
    case LoopClass::none:
      return "none";
    case LoopClass::mandatory:
      return "mandatory";
    case LoopClass::optional_one:
      return "optional";
    case LoopClass::several_players:
      return "several-players";
    case LoopClass::chance:
      return "chance";
  }
  return "unknown-loop-class";
}

}  // namespace loophole::checker
