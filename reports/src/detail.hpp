// Helpers the renderers share; not part of the reports library's interface.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "loophole/reports/escape.hpp"
#include "loophole/reports/report.hpp"

namespace loophole::reports::detail {

inline constexpr properties::Kind all_kinds[] = {
    properties::Kind::deadlock,        properties::Kind::response_loop,
    properties::Kind::unbounded_chain, properties::Kind::stalemate,
    properties::Kind::unreachable_win, properties::Kind::rule_gap,
    properties::Kind::dead_rule,       properties::Kind::property_violation,
    properties::Kind::structure,       properties::Kind::tie,
    properties::Kind::turn_loop,       properties::Kind::cannot_lose,
    properties::Kind::cannot_end,      properties::Kind::stall,
};

std::string step_label(const RulesetReport& rs, int step);   // "combat.fight", "setup"
std::string pretty_step(const RulesetReport& rs, int step);  // "combat · fight"
std::string heading(const properties::Finding& f);           // "response loop (mandatory)"
std::string_view completion_name(checker::Completion c);     // "state-limit"
std::string_view move_kind_name(checker::MoveKind k);
std::string location(const RulesetReport& rs, const properties::Finding& f);  // "f:1:2" or f
std::string kind_description(properties::Kind k);
std::string run_label(const RulesetReport& rs);  // "f.yaml", or "f.yaml [deck=3]" in a sweep

struct Counts {
  int errors = 0, warnings = 0, notes = 0, inconclusive = 0, accepted = 0;
};
Counts count(const RulesetReport& rs, const std::vector<std::string>& ids);

// One finding as the JSON report writes it (schema/report.schema.json).
nlohmann::json finding_json(const RulesetReport& rs, const properties::Finding& f,
                            const std::string& id);

}  // namespace loophole::reports::detail
