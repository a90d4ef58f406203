// Small queries on the checked IR that every engine and report needs:
// steps by their written name `phase.step` and back, the element type of a
// domain, and a data slot's value as the ruleset writes it.
#include "loophole/model/game.hpp"

namespace loophole::model {

Type Domain::element_type() const {
  switch (kind) {
    case Kind::players:
    case Kind::others:
      return Type::player();
    case Kind::range:
      return Type::int_();
    case Kind::enum_values:
      return Type::enum_of(ref);
    case Kind::kinds:
    case Kind::kinds_tagged:
      return Type::kind();
  }
  return Type{};
}

int Game::find_step(const std::string& phase_dot_step) const {
  const auto dot = phase_dot_step.find('.');
  if (dot == std::string::npos) return -1;
  const std::string_view phase = std::string_view(phase_dot_step).substr(0, dot);
  const std::string_view step = std::string_view(phase_dot_step).substr(dot + 1);
  for (const Phase& p : phases) {
    if (p.name != phase) continue;
    for (int s : p.steps) {
      if (steps[static_cast<std::size_t>(s)].name == step) return s;
    }
  }
  return -1;
}

std::string Game::step_label(int step) const {
  if (step < 0 || static_cast<std::size_t>(step) >= steps.size()) return "setup";
  const Step& s = steps[static_cast<std::size_t>(step)];
  if (s.phase < 0 || static_cast<std::size_t>(s.phase) >= phases.size()) return s.name;
  return phases[static_cast<std::size_t>(s.phase)].name + " · " + s.name;
}

std::string Game::step_rule(int step) const {
  if (step < 0 || static_cast<std::size_t>(step) >= steps.size()) return "setup";
  return "step:" + step_name(step);
}

std::string Game::step_name(int step) const {
  if (step < 0 || static_cast<std::size_t>(step) >= steps.size()) return "?";
  const Step& s = steps[static_cast<std::size_t>(step)];
  if (s.phase < 0 || static_cast<std::size_t>(s.phase) >= phases.size()) return s.name;
  return phases[static_cast<std::size_t>(s.phase)].name + "." + s.name;
}

std::string Game::slot_value(int slot, std::int32_t v) const {
  if (slot < 0 || static_cast<std::size_t>(slot) >= slots.size()) return std::to_string(v);
  const Slot& sl = slots[static_cast<std::size_t>(slot)];
  if (sl.var >= 0 && sl.type.base == BaseType::bool_) return v != 0 ? "true" : "false";
  if (sl.var >= 0 && sl.type.base == BaseType::enum_ && sl.type.enum_id >= 0) {
    const auto& values = enums[static_cast<std::size_t>(sl.type.enum_id)].values;
    if (v >= 0 && static_cast<std::size_t>(v) < values.size())
      return values[static_cast<std::size_t>(v)];
  }
  if (sl.var >= 0 && sl.type.base == BaseType::player && v >= 0 && v < players) {
    return "P" + std::to_string(v + 1);
  }
  if (sl.var >= 0 && sl.type.base == BaseType::kind && v >= 0 &&
      static_cast<std::size_t>(v) < kinds.size()) {
    return "'" + kinds[static_cast<std::size_t>(v)].name + "'";
  }
  return std::to_string(v);
}

}  // namespace loophole::model
