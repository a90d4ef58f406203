// Name resolution and typing of expressions and statements, in place. The
// declaration checker (checker.cpp) builds a Game whose declarations are
// resolved and then hands every expression and statement of it to an
// ExprChecker with the context it appears in (is `self` defined? is
// `negate()` allowed? must it be a constant?). After a successful check no
// `name`/`index`/`field`/`call` node and no `call` statement remains, params
// are folded to int literals and binders carry slot numbers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"

namespace loophole::model {

struct RawCallable;

struct CheckContext {
  bool self = false;      // `self` (and the domain `others`) is defined
  bool negate = false;    // `negate()` is allowed (action effects)
  bool constant = false;  // only literals, params and enum values (ranges, init values, counts)
};

// "int", "bool", "player", "kind", "action" or the enum's name.
std::string type_name(const Game& game, const Type& t);
std::string format_span(const SourceSpan& where);  // "file:line:col"

// One declared name visible in expressions.
struct NameDecl {
  enum class Category : std::uint8_t {
    param,
    enum_value,
    variable,
    kind,
    action,
    zone,
    enum_type,
    event,
    tag
  };
  Category category;
  int id = -1;     // index into the Game's vector (enum id for enum values)
  int value = -1;  // enum values: index of the value
  SourceSpan where;
};

// A function or macro after its declaration is checked: typed parameters
// and the body as parsed, which every use clones and checks in place
// (checker_calls.cpp), so engines never see a call.
struct Callable {
  std::string name;
  bool macro = false;
  std::vector<std::pair<std::string, Type>> params;
  std::vector<SourceSpan> param_where;
  Type result;                 // functions only
  const Expr* expr = nullptr;  // functions: the body as parsed
  const Stmt* body = nullptr;  // macros: the statements as parsed
  SourceSpan where;
  bool ok = true;  // false once its body reported an error: its uses add none
};

class ExprChecker {
 public:
  ExprChecker(Game& game, DiagnosticSink& sink, std::vector<SourceSpan> tag_where = {});

  // Types `e` in place (resolving names against the game's declarations);
  // returns its type, or the error type after reporting. `hint` is the type
  // the context expects; it only picks among same-named declarations.
  Type check(ExprPtr& e, const CheckContext& ctx, std::optional<Type> hint = std::nullopt);
  // A condition: must be bool ("condition must be bool, found int").
  void check_condition(ExprPtr& e, const CheckContext& ctx);
  void check_stmt(StmtPtr& s, const CheckContext& ctx);
  // A constant of the given type (ranges, init values, copies): checked and
  // folded; nullopt after reporting. `what` names it in messages.
  std::optional<std::int64_t> constant(ExprPtr& e, Type expected, const std::string& what);

  // The value of a checked expression made only of constants.
  static std::optional<std::int64_t> fold(const Expr& e, std::string* why = nullptr);

  [[nodiscard]] int binder_slots() const { return max_binders_; }

  // Names bound around a rule's bodies (a trigger's event arguments, binders
  // 0..k-1 of its `when` and `do`); unbind(n) drops the last n.
  void bind(const std::string& name, Type type, const SourceSpan& where);
  void unbind(std::size_t n);

  // The functions and macros (resolved signatures); then check_callables()
  // checks each body once with its parameters as typed names, so an error
  // in a body is reported where it is written even if nothing uses it.
  // Parameter and result types are resolved here (an enum's name or a
  // built-in type); `raw` must outlive the checker.
  void declare_callables(const std::vector<RawCallable>& raw);
  void check_callables();

 private:
  // One expansion under way: the callee, where the binders its body may see
  // start (the caller's are hidden, the body is closed), and the checked
  // arguments its parameters stand for (empty while checking the definition,
  // where the parameters are binders).
  struct Frame {
    const Callable* callee = nullptr;
    std::size_t floor = 0;
    std::vector<const Expr*> args;
  };
  [[nodiscard]] std::size_t binder_floor() const {
    return frames_.empty() ? 0 : frames_.back().floor;
  }
  [[nodiscard]] Callable* find_callable(const std::string& name);
  // A parameter of the innermost expansion named `name`: replaces `x` by a
  // copy of its argument; nullopt when `name` is no parameter there.
  std::optional<Type> substitute_param(Expr& x, const CheckContext& ctx);
  // Checks the arguments of a use of `c` against its parameters (arity,
  // types); false after reporting.
  bool check_arguments(const Callable& c, std::vector<ExprPtr>& args, const SourceSpan& where,
                       const CheckContext& ctx);
  // Refuses a use of `c` inside its own expansion (recursion); true if refused.
  bool recursive_use(Callable& c, const SourceSpan& where);
  Type expand_function(ExprPtr& e, Callable& c, const CheckContext& ctx);
  void expand_macro(Stmt& s, Callable& c, const CheckContext& ctx);

  Type resolve_name(Expr& e, const CheckContext& ctx, std::optional<Type> hint);
  Type resolve_place(ExprPtr& e, const CheckContext& ctx);  // index/field chains -> var or enum_lit
  Type check_binary(Expr& e, const CheckContext& ctx);
  Type check_call(ExprPtr& e, const CheckContext& ctx);
  Type check_count(ExprPtr& e, const CheckContext& ctx);
  // `hand[p]`, `world` -> zone_count (value -1); false after reporting.
  bool check_zone_ref(ExprPtr& e, const CheckContext& ctx);
  bool check_domain(Domain& d, std::vector<ExprPtr>& bounds, const CheckContext& ctx);
  void check_call_stmt(Stmt& s, const CheckContext& ctx);
  void check_event_args(Stmt& s, const CheckContext& ctx);
  void check_assign(Stmt& s, const CheckContext& ctx);
  bool expect(ExprPtr& e, const CheckContext& ctx, Type want, const std::string& what);
  // "unknown <what> 'name'" with a did-you-mean note among `categories`
  // (and binders and built-ins when `with_values`).
  void unknown(const SourceSpan& where, const std::string& what, const std::string& name,
               const std::vector<NameDecl::Category>& categories, bool with_values);
  void not_constant(const SourceSpan& where, const std::string& what);
  void push_binder(const std::string& name, Type type, const SourceSpan& where);
  void pop_binder();
  [[nodiscard]] std::vector<const NameDecl*> lookup(const std::string& name) const;
  [[nodiscard]] Type decl_type(const NameDecl& d) const;
  [[nodiscard]] std::string index_shape(const VarDecl& v) const;
  [[nodiscard]] std::string index_example(const VarDecl& v) const;
  static bool is_error(const Type& t) { return t.base == BaseType::error; }

  Game& game_;
  DiagnosticSink& sink_;
  std::multimap<std::string, NameDecl> decls_;
  std::vector<std::pair<std::string, Type>> binders_;
  int max_binders_ = 0;
  std::vector<Callable> callables_;
  std::vector<Frame> frames_;
  std::size_t expansions_ = 0;  // uses expanded so far, against k_max_expansions
};

}  // namespace loophole::model
