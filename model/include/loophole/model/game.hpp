// The checked intermediate representation of a ruleset: what every engine
// explores. A Game is closed (no unresolved names), typed, and its params are
// folded into constants for one scope (player count + param values), so the
// explicit engine, the SMT engine and the Promela export all see the same
// finite system. Data state is flattened into `slots`: every variable element
// and every zone count is one bounded integer.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loophole/model/expr.hpp"
#include "loophole/model/source.hpp"

namespace loophole::model {

// The most players a ruleset may declare (the checker rejects more; the
// engines size what they store per player from it).
inline constexpr int max_players = 8;
// Steps in a game, over all phases (the analyses keep a step in 10 bits a
// state; no card game's turn comes near).
inline constexpr int max_steps = 511;

// One bounded integer of the data state.
struct Slot {
  std::string name;  // pretty, for transcripts: "life[P1]", "field[P2][0].damage", "hand[P1].spark"
  std::int32_t lo = 0, hi = 0;
  std::int32_t init = 0;
  int var = -1;    // VarDecl id, or -1 for a zone slot
  int zone = -1;   // ZoneDecl id, or -1 for a variable slot
  int owner = -1;  // player index for per-player slots, else -1
  int kind = -1;   // card kind for zone slots
  Type type;       // int/bool/enum for variables, int for zone counts
};

struct Param {
  std::string name;
  std::int64_t value = 0;  // after overrides
  std::int64_t def = 0;
  std::optional<std::int64_t> min, max;
  SourceSpan where;
};

struct EnumDecl {
  std::string name;
  std::vector<std::string> values;
  SourceSpan where;
  std::vector<SourceSpan> value_where;
};

struct Field {
  std::string name;
  Type type;
  std::int32_t lo = 0, hi = 0;  // bool 0..1, enum 0..n-1
  std::int32_t init = 0;
  SourceSpan where;
};

struct VarDecl {
  std::string name;
  bool per_player = false;
  int array = 0;  // 0 = scalar, N = N elements
  bool is_record = false;
  std::vector<Field> fields;  // exactly one (unnamed "") when not a record
  int first_slot = 0;         // slot of [P1][0].fields[0]
  SourceSpan where;
  // slot of (player, index, field); player/index ignored when not per_player/array
  [[nodiscard]] int slot(int player, int index, int field) const {
    const int nf = static_cast<int>(fields.size());
    const int per_player_stride = (array == 0 ? 1 : array) * nf;
    return first_slot + (per_player ? player : 0) * per_player_stride +
           (array == 0 ? 0 : index) * nf + field;
  }
};

struct KindDecl {
  std::string name;
  std::int32_t copies = 0;  // per player
  std::vector<int> tags;    // tag ids
  SourceSpan where;
};

struct ZoneDecl {
  std::string name;
  bool per_player = true;
  bool init_all = false;
  std::map<int, std::int32_t> init_counts;  // kind id -> count per owner
  int first_slot = 0;                       // slot of (owner 0, kind 0); layout owner-major
  SourceSpan where;
  // `capacity`: the most cards (all kinds together) an owner's part holds,
  // -1 when unbounded; it also bounds each kind's count in the state.
  std::int32_t capacity = -1;
  SourceSpan capacity_where;
  [[nodiscard]] int slot(int owner, int kind, int kinds) const {
    return first_slot + (per_player ? owner : 0) * kinds + kind;
  }
};

// A typed argument of a custom event (`args: {who: player, amount: {type:
// int, range: [1, 3]}}`): what `fire` passes, what a trigger binds and its
// pending entry keeps. Values lo..hi: a player 0..players-1, a kind
// 0..kinds-1, a bool 0..1, an enum's values, an int its range.
struct EventArg {
  std::string name;
  Type type;
  std::int32_t lo = 0, hi = 0;
  SourceSpan where;
};

struct EventDecl {
  // Built-in events are created by the checker for every phase and step.
  enum class Kind : std::uint8_t {
    custom,
    begin_turn,
    end_turn,
    begin_phase,
    end_phase,
    begin_step,
    end_step
  };
  Kind kind = Kind::custom;
  std::string name;  // "discovered", "begin_phase(research)", "end_step(research.draw)"
  int phase = -1, step = -1;
  SourceSpan where;
  std::vector<EventArg> args;  // custom events only
};

// Who may act / control: roles relative to the active player.
enum class Role : std::uint8_t { active, opponent, each, any, others };

enum class Protocol : std::uint8_t { priority, alternate, sequence };

struct RoleSpeeds {
  Role role = Role::active;
  std::vector<int> lead;    // speeds allowed with an empty stack
  std::vector<int> answer;  // speeds allowed when answering (non-empty stack)
  bool lead_if_active_idle = false;
  SourceSpan where;
};

enum class SequenceTurn : std::uint8_t { active, opponent, active_if_answered };

struct Window {
  std::string name;
  Protocol protocol = Protocol::priority;
  std::vector<RoleSpeeds> roles;  // priority (and optionally alternate/sequence speed filters)
  bool may_pass = true;           // alternate: false by default
  // alternate, sequence: the player to move must act (is never skipped and
  // has no pass; in a sequence, passes only after acting); one who cannot
  // is a deadlock
  bool must_act = false;
  std::vector<SequenceTurn> order;  // sequence
  SourceSpan where;
};

struct Step {
  std::string name;
  int phase = -1;
  int index = -1;             // within the phase
  StmtPtr effects;            // `do`, may be null
  int window = -1;            // Window id or -1
  ExprPtr repeat_while;       // may be null
  ExprPtr end_turn_if;        // may be null
  std::string repeat_text;    // the two conditions as written (trimmed), for graph
  std::string end_turn_text;  // labels and messages; "" when absent
  int begin_event = -1, end_event = -1;
  SourceSpan where;
  SourceSpan window_where;
};

struct Phase {
  std::string name;
  std::vector<int> steps;  // global step ids, in order
  int begin_event = -1, end_event = -1;
  SourceSpan where;
};

struct Limit {
  int per_turn = 0;  // 0 = unlimited
  int per_window = 0;
};

// A target an action's controller chooses when it casts the action
// (`targets:`): a player, a kind, an int in a range, an enum value, or an
// `entry` (a position of the stack below the cast entry, an int). The cast
// stores the chosen values in the stack entry; the action's cost and effect
// read them as binders 0..k-1 (in declaration order), and `where` (binders
// 0..j bound) must hold when it is cast and again when it resolves.
struct ActionTarget {
  std::string name;
  Type type;
  bool entry = false;           // a stack position: 0..scope.stack-1, below the entry
  std::int32_t lo = 0, hi = 0;  // the values (entry: 0..scope.stack-1)
  ExprPtr where;                // may be null
  SourceSpan at;                // the name as written
  // What the lowering's nodes for this choice name as their origin (the
  // choice as a `pick`, the guard's test as an `exists`; not run).
  StmtPtr as_pick;
  ExprPtr as_exists;
};

struct Action {
  std::string name;
  Role who = Role::any;
  int speed = 0;             // 0 when the game declares no speeds
  std::vector<int> windows;  // empty = every window
  int play_kind = -1;        // card played from hand, or -1
  int to_zone = -1;          // where the played card goes (default: zone "discard")
  ExprPtr guard;             // `when`, may be null (true)
  StmtPtr cost;              // may be null
  StmtPtr effect;            // may be null
  Limit limit;
  bool answerable = true;
  bool negatable = true;
  std::vector<ActionTarget> targets;  // `targets:`, in declaration order
  // `invented: "why"`: a card text the ruleset made up (the seed names the
  // card but not what it does); findings that use it say so. "" when the
  // rule is from the seed.
  std::string invented;
  SourceSpan where;
};

struct Trigger {
  std::string name;
  int event = -1;
  Role controller = Role::active;
  ExprPtr condition;  // `when`, may be null
  bool optional = false;
  StmtPtr effect;        // `do`
  std::string invented;  // as Action::invented
  SourceSpan where;
  // `on: damaged(p, n)`: the names bound to the event's arguments, in order:
  // binders 0..k-1 of `when` (the values fired) and `do` (the values its
  // pending entry kept). Empty when the trigger binds none.
  std::vector<std::string> params;
};

struct EndCondition {
  std::string name;
  bool win = true;        // win or lose
  Role who = Role::each;  // evaluated with self = each player the role covers
  ExprPtr condition;
  // `win: P1`, `lose: EXPR` (a player expression instead of a role): the
  // loader keeps the expression in player_expr and the checker moves it into
  // `condition`, expanded to `self == EXPR and (when)` with who = each, so
  // every engine sees an ordinary per-player condition. `player` is the one
  // player it names when the expression is a constant, else -1: the analyses
  // ask about no other. `player_text` is the expression as written ("" for a
  // role).
  ExprPtr player_expr;
  int player = -1;
  std::string player_text;
  SourceSpan where;
};

struct Property {
  enum class Kind : std::uint8_t { always, never, reachable, leads_to };
  std::string name;
  Kind kind = Kind::always;
  ExprPtr expr;                // always/never/reachable; leads_to: `from`
  ExprPtr to;                  // leads_to only
  std::vector<int> at_phases;  // restriction (empty = everywhere)
  std::vector<int> at_steps;
  SourceSpan where;
};

struct TraceEntry {
  std::string seed;        // the quoted sentence
  std::string at;          // where modeled ("" when abstracted)
  std::string abstracted;  // reason ("" when modeled)
  SourceSpan where;
};

struct Scope {
  int stack = 4;  // max stack entries
  int turns = 2;  // turn_number saturates here
};

struct Game {
  std::string name;
  std::string file;  // the main ruleset file
  int players = 2;
  int min_players = 2, max_players = 2;
  std::vector<Param> params;
  Scope scope;
  std::vector<int> speeds;  // declared speeds (sorted, unique)
  std::vector<EnumDecl> enums;
  std::vector<std::string> tags;
  std::vector<KindDecl> kinds;
  std::vector<ZoneDecl> zones;
  std::vector<VarDecl> vars;
  std::vector<EventDecl> events;
  StmtPtr setup;  // may be null
  std::vector<Phase> phases;
  std::vector<Step> steps;  // all steps, phase-major
  std::vector<Window> windows;
  std::vector<Action> actions;
  std::vector<Trigger> triggers;
  std::vector<EndCondition> end_conditions;
  std::vector<Property> properties;
  std::vector<TraceEntry> trace;
  std::vector<Slot> slots;  // flattened data state
  int binder_slots = 0;     // how many bound variables evaluation needs at once
  int deck_zone = -1, hand_zone = -1, discard_zone = -1;  // well-known zone names, or -1
  SourceSpan where;                                       // the `turn` key, for whole-turn findings

  [[nodiscard]] int find_step(const std::string& phase_dot_step) const;  // -1 if none
  [[nodiscard]] std::string step_name(int step) const;                   // "phase.step"
  // What messages and transcripts call a step: "combat · fight", and
  // "setup" for no step (before the first step is entered).
  [[nodiscard]] std::string step_label(int step) const;
  // The rule a finding about the step names: "step:combat.fight", or "setup".
  [[nodiscard]] std::string step_rule(int step) const;
  // The value `v` of data slot `slot` as the ruleset writes it: true/false,
  // an enum value's name, or the number (transcripts and reports).
  [[nodiscard]] std::string slot_value(int slot, std::int32_t v) const;
};

struct LoadOptions {
  std::map<std::string, std::int64_t> param_overrides;  // --param NAME=V
  std::optional<int> players;                           // --players N
  SourceSpan override_origin;  // where overrides came from ("<command line>")
  // Where a param override was written when it was not on the command line
  // (a `params:` entry of loophole.yaml): its errors are reported there.
  std::map<std::string, SourceSpan> param_origins;
  // Directories includes may also come from (--include-root, the project
  // file's directory), besides the ruleset's own directory tree.
  std::vector<std::string> include_roots;
};

class DiagnosticSink;
class SourceManager;

// Reads, parses, resolves and type-checks a ruleset and its includes. Returns
// nullopt when any error was reported to `sink`.
std::optional<Game> load_game(const std::string& path, const LoadOptions& options,
                              SourceManager& sources, DiagnosticSink& sink);

}  // namespace loophole::model
