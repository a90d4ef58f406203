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

 private:
  Type resolve_name(Expr& e, const CheckContext& ctx, std::optional<Type> hint);
  Type resolve_place(ExprPtr& e, const CheckContext& ctx);  // index/field chains -> var or enum_lit
  Type check_binary(Expr& e, const CheckContext& ctx);
  Type check_call(ExprPtr& e, const CheckContext& ctx);
  Type check_count(ExprPtr& e, const CheckContext& ctx);
  // `hand[p]`, `world` -> zone_count (value -1); false after reporting.
  bool check_zone_ref(ExprPtr& e, const CheckContext& ctx);
  bool check_domain(Domain& d, std::vector<ExprPtr>& bounds, const CheckContext& ctx);
  void check_call_stmt(Stmt& s, const CheckContext& ctx);
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
};

}  // namespace loophole::model
