// A trace as a path through the turn structure (trace_graph.hpp). A move
// that changes the control step, or ends a turn (the turn number or active
// player changes), is an edge; a progress move that stays on its step is the
// step's repeat edge; any other move (an action, a pass inside a window) is
// made at its step without leaving it, and numbered on the step. The game's
// first move enters the first step from turn start. A lasso's last move
// leads back to the step its cycle starts at.
#include "loophole/reports/trace_graph.hpp"

#include <string_view>

namespace loophole::reports {
namespace {

using model::DotOptions;

// Where the finding happens: the step a step finding is about, else where
// a cycle starts, else the step of the last move.
std::optional<int> finding_step(const model::Game& game, const properties::Finding& f) {
  constexpr std::string_view k_step = "step:";
  if (std::string_view(f.rule).substr(0, k_step.size()) == k_step) {
    const int s = game.find_step(f.rule.substr(k_step.size()));
    if (s >= 0) return s;
  }
  const auto& steps = f.trace->steps;
  if (f.trace->loop_start >= 0) {
    const int s = steps[static_cast<std::size_t>(f.trace->loop_start)].step;
    if (s >= 0) return s;
  }
  if (!steps.empty() && steps.back().step >= 0) return steps.back().step;
  return std::nullopt;
}

}  // namespace

DotOptions trace_dot_options(const model::Game& game, const properties::Finding& f) {
  DotOptions dot;
  if (!f.trace) return dot;
  const checker::Trace& t = *f.trace;
  const auto edge = [&](int from, int to, std::size_t move) {
    dot.highlight_edges.emplace_back(from, to);
    dot.edge_moves[{from, to}].push_back(move);
  };
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const auto& s = t.steps[i];
    const std::size_t move = i + 1;
    const checker::TraceStep* next = nullptr;
    if (i + 1 < t.steps.size()) {
      next = &t.steps[i + 1];
    } else if (t.loop_start >= 0) {
      next = &t.steps[static_cast<std::size_t>(t.loop_start)];
    }
    if (s.step >= 0) dot.highlight_steps.push_back(s.step);
    if (s.kind == checker::MoveKind::start) {
      if (next != nullptr && next->step >= 0) edge(DotOptions::turn_start, next->step, move);
      continue;
    }
    if (s.step < 0) continue;
    if (next == nullptr || next->step < 0) {
      dot.step_moves[s.step].push_back(move);
      continue;
    }
    if (next->turn != s.turn || next->active != s.active) {
      edge(s.step, DotOptions::turn_end, move);
      edge(DotOptions::turn_end, DotOptions::turn_start, move);
      edge(DotOptions::turn_start, next->step, move);
    } else if (next->step != s.step || s.progress) {
      edge(s.step, next->step, move);
    } else {
      dot.step_moves[s.step].push_back(move);
    }
  }
  dot.marked_step = finding_step(game, f);
  if (dot.marked_step) dot.highlight_steps.push_back(*dot.marked_step);
  return dot;
}

}  // namespace loophole::reports
