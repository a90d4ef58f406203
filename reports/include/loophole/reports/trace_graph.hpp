// A finding's trace drawn on the phase graph: the steps it visits and the
// edges it takes, each edge numbered with the moves that take it (as the
// transcripts number them), and the step where the finding happens marked.
// `loophole graph --trace` uses it; the HTML report can draw a finding's
// path the same way:
//
//   const auto dot = model::to_dot(game, model::build_phase_graph(game),
//                                  reports::trace_dot_options(game, finding));
//   const auto svg = reports::dot_to_svg(dot, error);
#pragma once

#include "loophole/model/game.hpp"
#include "loophole/model/phase_graph.hpp"
#include "loophole/properties/finding.hpp"

namespace loophole::reports {

// DotOptions highlighting `f`'s trace (none when it has no trace).
[[nodiscard]] model::DotOptions trace_dot_options(const model::Game& game,
                                                  const properties::Finding& f);

}  // namespace loophole::reports
