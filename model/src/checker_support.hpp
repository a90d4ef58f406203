// What the expression checker's files share: the built-in names of the
// language and small helpers for messages and new nodes.
#pragma once

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>

#include "checker.hpp"
#include "lexer.hpp"
#include "yaml_reader.hpp"

namespace loophole::model::detail {

using Category = NameDecl::Category;

inline constexpr std::string_view k_builtin_values[] = {
    "active",     "opponent",       "self",       "turn_number", "stack_size",
    "top_action", "top_controller", "turn_order", "forward",     "reversed"};
inline constexpr std::string_view k_functions[] = {
    "count", "min",  "max",   "abs",          "clamp",
    "next",  "prev", "speed", "stack_action", "stack_controller"};
inline constexpr std::string_view k_statements[] = {
    "draw",     "move", "fire", "win", "lose", "negate", "shuffle", "skip", "reverse_turn_order",
    "skip_next"};
// The domains `for`/`pick`/`count` range over besides integer ranges.
inline constexpr std::string_view k_domains[] = {"players", "others", "kinds"};

template <std::size_t N>
bool listed(const std::string_view (&names)[N], std::string_view name) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

// Names that expressions give a meaning of their own, so the ruleset cannot
// declare them: the keywords, built-in values, functions, statements and
// domains (one list each, above and in the lexer).
inline bool is_reserved(std::string_view name) {
  return is_keyword(name) || listed(k_builtin_values, name) || listed(k_functions, name) ||
         listed(k_statements, name) || listed(k_domains, name);
}

inline bool is_builtin_value(std::string_view name) {
  return std::find(std::begin(k_builtin_values), std::end(k_builtin_values), name) !=
         std::end(k_builtin_values);
}

// P1, P2, ... -> 1, 2, ...; 0 when `name` is not of that form.
inline int player_number(std::string_view name) {
  if (name.size() < 2 || name.size() > 4 || name[0] != 'P' || name[1] == '0') return 0;
  int n = 0;
  for (std::size_t i = 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return 0;
    n = n * 10 + (name[i] - '0');
  }
  return n;
}

inline std::string_view category_name(Category c) {
  switch (c) {
    case Category::param:
      return "param";
    case Category::enum_value:
      return "enum value";
    case Category::variable:
      return "variable";
    case Category::kind:
      return "kind";
    case Category::action:
      return "action";
    case Category::zone:
      return "zone";
    case Category::enum_type:
      return "enum";
    case Category::event:
      return "event";
    case Category::tag:
      return "tag";
  }
  return "name";
}

inline std::string ordinal_argument(std::size_t i, std::string_view fn) {
  return "argument " + std::to_string(i + 1) + " of " + quote_name(fn);
}

inline std::string plural(std::size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

inline ExprPtr make_node(ExprKind kind, const SourceSpan& where, Type type) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->where = where;
  e->type = type;
  return e;
}

}  // namespace loophole::model::detail
