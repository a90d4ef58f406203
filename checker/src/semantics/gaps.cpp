// The rule-gap sites: every place where running the rules can leave their
// own bounds, listed once up front so that a gap state carries only a small
// number (ctl.gap = 1 + site). Sites are found syntactically (assignments,
// card movements, divisions, array indices, played cards, pushes; see
// docs/semantics.md, "Details the definition settles"); a constant divisor
// or in-range constant index cannot fail and gets none.
#include "prepared.hpp"

namespace loophole::checker::semantics {
namespace {

using model::Expr;
using model::ExprKind;
using model::Stmt;
using model::StmtKind;
using Kind = GapSite::Kind;

class Collector {
 public:
  Collector(const model::Game& game, GapTable& gaps) : game_(game), gaps_(gaps) {}

  int add(const std::string& rule, const model::SourceSpan& where, std::string message, Kind kind) {
    gaps_.sites.push_back(GapSite{rule, where, std::move(message), kind});
    return static_cast<int>(gaps_.sites.size()) - 1;
  }

  void expr(const std::string& rule, const Expr* e) {
    if (e == nullptr) return;
    for (const auto& a : e->args) expr(rule, a.get());
    if (e->kind == ExprKind::binary && (e->op == model::Op::div || e->op == model::Op::mod)) {
      const Expr* d = e->args.size() > 1 ? e->args[1].get() : nullptr;
      if (d == nullptr || d->kind != ExprKind::int_lit || d->value == 0) {
        gaps_.at[e] =
            add(rule, e->where, e->op == model::Op::div ? "division by zero" : "modulo by zero",
                Kind::div_zero);
      }
    }
    if (e->kind == ExprKind::var && e->ref >= 0) {
      const auto& v = game_.vars[e->ref];
      if (v.array > 0) {
        const std::size_t at = v.per_player ? 1 : 0;
        const Expr* i = at < e->args.size() ? e->args[at].get() : nullptr;
        if (i == nullptr || i->kind != ExprKind::int_lit || i->value < 0 || i->value >= v.array) {
          gaps_.at[e] = add(rule, e->where, "index out of range of '" + v.name + "'", Kind::index);
        }
      }
    }
  }

  void stmt(const std::string& rule, const Stmt* s) {
    if (s == nullptr) return;
    expr(rule, s->target.get());
    expr(rule, s->value.get());
    for (const auto& a : s->args) expr(rule, a.get());
    for (const auto& c : s->conds) expr(rule, c.get());
    switch (s->kind) {
      case StmtKind::assign: {
        std::string name = "a variable";
        if (s->target && s->target->ref >= 0) {
          const auto& v = game_.vars[s->target->ref];
          name = "'" + v.name;
          if (v.is_record && s->target->field < static_cast<int>(v.fields.size())) {
            name += "." + v.fields[s->target->field].name;
          }
          name += "'";
        }
        gaps_.at[s] = add(rule, s->where, "assignment leaves the range of " + name, Kind::range);
        break;
      }
      case StmtKind::draw:
        gaps_.at[s] = add(rule, s->where, "draw from an empty deck", Kind::empty_zone);
        add(rule, s->where, "draw overfills the hand or draws a negative count", Kind::range);
        break;
      case StmtKind::move_kind:
      case StmtKind::move_any:
        gaps_.at[s] =
            add(rule, s->where, "move of more cards than the source zone holds", Kind::empty_zone);
        add(rule, s->where, "move overfills the destination zone or moves a negative count",
            Kind::range);
        break;
      default:
        break;
    }
    for (const auto& b : s->bodies) stmt(rule, b.get());
  }

 private:
  const model::Game& game_;
  GapTable& gaps_;
};

}  // namespace

void collect_gaps(const model::Game& game, const std::vector<bool>& window_used, GapTable& gaps) {
  Collector c(game, gaps);
  c.stmt("setup", game.setup.get());
  for (const auto& st : game.steps) {
    const std::string rule = "step:" + game.phases[st.phase].name + "." + st.name;
    c.stmt(rule, st.effects.get());
    c.expr(rule, st.repeat_while.get());
    c.expr(rule, st.end_turn_if.get());
  }
  gaps.play_site.assign(game.actions.size(), -1);
  gaps.push_site.assign(game.actions.size(), -1);
  for (std::size_t i = 0; i < game.actions.size(); ++i) {
    const auto& a = game.actions[i];
    const std::string rule = "action:" + a.name;
    c.expr(rule, a.guard.get());
    if (a.play_kind >= 0 && a.to_zone >= 0) {
      gaps.play_site[i] = c.add(
          rule, a.where, "playing '" + a.name + "' overfills '" + game.zones[a.to_zone].name + "'",
          Kind::range);
    }
    c.stmt(rule, a.cost.get());
    c.stmt(rule, a.effect.get());
    bool in_priority = false;
    for (std::size_t w = 0; w < game.windows.size(); ++w) {
      if (!window_used[w] || game.windows[w].protocol != model::Protocol::priority) continue;
      bool listed = a.windows.empty();
      for (int x : a.windows) listed = listed || x == static_cast<int>(w);
      in_priority = in_priority || listed;
    }
    if (a.answerable && in_priority) {
      gaps.push_site[i] =
          c.add(rule, a.where,
                "'" + a.name + "' pushed onto a full stack (scope stack = " +
                    std::to_string(game.scope.stack) + "): an unbounded response chain",
                Kind::stack_overflow);
    }
  }
  for (const auto& t : game.triggers) {
    const std::string rule = "trigger:" + t.name;
    c.expr(rule, t.condition.get());
    c.stmt(rule, t.effect.get());
  }
  for (const auto& e : game.end_conditions) c.expr("end:" + e.name, e.condition.get());
}

}  // namespace loophole::checker::semantics
