// A ruleset as read from YAML, merged over its includes, before any name is
// resolved: the loader (loader.cpp) fills it, the checker (checker.cpp)
// turns it into a Game. Each Raw* wraps the Game declaration it becomes plus
// the names and unfolded numbers that can only be resolved once every file
// has been read (an action may name a window declared in an include).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"

#include "yaml_reader.hpp"

namespace loophole::model {

struct RawNumber {  // an int written in YAML (speeds, lead/answer lists)
  std::int64_t value = 0;
  SourceSpan where;
};

struct RawPlayers {
  std::int64_t def = 2, min = 2, max = 2;
  SourceSpan where, def_where;
};

struct RawKind {
  KindDecl decl;
  ExprPtr copies;
  std::vector<Text> tags;
};

struct RawZone {
  ZoneDecl decl;
  std::vector<std::pair<Text, ExprPtr>> init;  // kind name -> count expression
  // `init: {P1: {kind: n}, P2: {...}}`: per owner (player name -> counts)
  std::vector<std::pair<Text, std::vector<std::pair<Text, ExprPtr>>>> owner_init;
  SourceSpan init_where;
  ExprPtr capacity;  // `capacity`, a constant expression
};

// Initial counts given per owner (`init: {P1: {...}}`), per zone id: empty
// for a zone whose owners all start alike (ZoneDecl::init_counts); else one
// map (kind id -> count) per player.
using OwnerInit = std::vector<std::vector<std::map<int, std::int32_t>>>;

struct RawField {
  Text name;                 // "" when the variable is not a record
  std::optional<Text> type;  // int, bool or an enum's name
  ExprPtr lo, hi;            // `range`
  ExprPtr init;
  SourceSpan where, range_where;
};

// A custom event as declared: `name`, or `{name: n, args: {who: player,
// amount: {type: int, range: [1, 3]}}}` (each argument a RawField).
struct RawEvent {
  Text name;
  std::vector<RawField> args;
};

struct RawVar {
  VarDecl decl;
  ExprPtr array;
  std::vector<RawField> fields;
};

struct RawStep {
  Step decl;
  std::optional<Text> window;
};

struct RawPhase {
  Phase decl;
  std::vector<RawStep> steps;
};

struct RawRole {
  RoleSpeeds decl;
  std::vector<RawNumber> lead, answer;
};

struct RawWindow {
  Window decl;
  std::vector<RawRole> roles;
};

// A `targets:` entry: a type word or `{type, range, where}` (RawField's
// type and range) and its `where`.
struct RawTarget {
  RawField field;
  ExprPtr where;
};

struct RawAction {
  Action decl;
  std::vector<RawTarget> targets;
  std::optional<RawNumber> speed;
  std::vector<Text> in;
  std::optional<Text> play, to;
};

struct RawTrigger {
  Trigger decl;
  Text on;
};

struct RawProperty {
  Property decl;
  std::vector<Text> at;
};

struct RawTrace {
  TraceEntry decl;
  SourceSpan at_where;
};

// A `functions:` or `macros:` entry: typed parameters and a body, checked
// once where it is declared and expanded at every use (checker_calls.cpp).
struct RawCallable {
  Text name;
  bool macro = false;
  std::vector<std::pair<Text, Text>> params;  // parameter name -> type name
  std::optional<Text> returns;                // functions: the result type's name
  ExprPtr expr;                               // functions: the body
  StmtPtr body;                               // macros: the statements
};

struct Ruleset {
  std::string file;
  std::string name;
  SourceSpan start;  // 1:1 of the main file
  std::optional<RawPlayers> players;
  std::vector<Param> params;
  std::optional<SourceSpan> params_where;  // the main file's `params:` key
  ExprPtr scope_stack, scope_turns;
  std::vector<RawNumber> speeds;
  bool speeds_declared = false;
  std::vector<EnumDecl> enums;
  std::vector<RawKind> kinds;
  std::vector<RawZone> zones;
  std::vector<RawVar> vars;
  std::vector<RawEvent> events;
  std::vector<RawCallable> callables;  // functions and macros, in declaration order
  std::vector<StmtPtr> setup;          // one per file that has `setup`, in merge order
  std::vector<RawPhase> phases;
  std::optional<SourceSpan> turn_where;
  std::vector<RawWindow> windows;
  std::vector<RawAction> actions;
  std::vector<RawTrigger> triggers;
  std::vector<EndCondition> end_conditions;
  std::vector<RawProperty> properties;
  std::vector<RawTrace> trace;
};

// Reads `path` and everything it includes into `out`; an include must lie
// in the ruleset's directory tree or under one of `include_roots`. Returns
// false when the main file could not be read or parsed at all (nothing to
// check).
bool read_ruleset(const std::string& path, const std::vector<std::string>& include_roots,
                  SourceManager& sources, DiagnosticSink& sink, Ruleset& out);

// Resolves every name, types every expression and statement, folds params
// and lays out the slots. Returns nullopt if it reported an error.
std::optional<Game> check_ruleset(Ruleset& rules, const LoadOptions& options, DiagnosticSink& sink);

// Lays out the data slots of a checked Game (layout.cpp); false on error.
bool lay_out_slots(Game& game, DiagnosticSink& sink, const OwnerInit& owner_init = {});

}  // namespace loophole::model
