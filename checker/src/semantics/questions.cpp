// The words of each question (loophole/checker/questions.hpp), shared by the
// explicit analyses and the SMT engine.
#include "loophole/checker/questions.hpp"

#include <string>

namespace loophole::checker::question {

std::string player(int p) { return "P" + std::to_string(p + 1); }

std::string deadlock_rule(const model::Game& game, int step) { return game.step_rule(step); }

model::SourceSpan deadlock_where(const model::Game& game, int step, bool in_window) {
  if (step < 0 || static_cast<std::size_t>(step) >= game.steps.size()) return game.where;
  const model::Step& s = game.steps[static_cast<std::size_t>(step)];
  return in_window && s.window_where.known() ? s.window_where : s.where;
}

std::string deadlock_message(const model::Game& game, int step, bool in_window, int holder) {
  const std::string where = game.step_label(step);
  const model::Step* s = step >= 0 && static_cast<std::size_t>(step) < game.steps.size()
                             ? &game.steps[static_cast<std::size_t>(step)]
                             : nullptr;
  if (in_window && s != nullptr && s->window >= 0) {
    const model::Window& w = game.windows[static_cast<std::size_t>(s->window)];
    if (w.must_act) {
      return "in '" + where + "', " + player(holder) + " must act in window '" + w.name +
             "' and has no action enabled";
    }
    const char* holds = w.protocol == model::Protocol::priority ? "holds priority" : "is to move";
    return "in '" + where + "', " + player(holder) + " " + holds + " and can neither act nor pass";
  }
  return "in '" + where + "', no move is possible";
}

std::string property_rule(const model::Property& p) { return "property:" + p.name; }

std::string property_fails(const model::Game& game, const model::Property& p, int step) {
  const std::string at = game.step_label(step);
  return p.kind == model::Property::Kind::always
             ? "'" + p.name + "' does not always hold: it fails in '" + at + "'"
             : "'" + p.name + "' should never hold, but it does in '" + at + "'";
}

std::string property_reached(const model::Game& game, const model::Property& p, int step) {
  return "'" + p.name + "' is reachable in '" + game.step_label(step) + "'";
}

std::string property_never_reached(const model::Property& p) {
  return "'" + p.name + "' is never reached";
}

std::string property_holds(const model::Property& p) { return "'" + p.name + "' holds"; }

std::string action_label(const model::Action& a) {
  if (a.speed > 0) return "'" + a.name + "' (speed " + std::to_string(a.speed) + ")";
  return "'" + a.name + "'";
}

std::string property_not_violated(const model::Property& p, std::string_view within) {
  return "'" + p.name + "' was not violated " + std::string(within);
}

int deadlock_seat(int holder, int active, int players) {
  return holder < 0 ? -1 : (holder - active + players) % players;
}

std::string end_rule(const model::EndCondition& end, int p) {
  return "end:" + end.name + "/" + player(p);
}

std::string end_never_message(const model::EndCondition& end, int p) {
  return player(p) + " can never " + (end.win ? "win" : "lose") + " by '" + end.name + "'";
}

bool end_asked(const model::EndCondition& end, int p) { return end.player < 0 || end.player == p; }

std::string end_never_detail(int p, bool settled, std::string_view why) {
  return "its condition holds for " + player(p) +
         (settled ? " in no reachable state; " : " in none of the states searched; ") +
         std::string(why);
}

std::string action_never_taken(const model::Action& a) {
  return action_label(a) + " can never be taken";
}

}  // namespace loophole::checker::question
