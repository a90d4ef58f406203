// `loophole solve FILE`: who can force what (properties/strategy.hpp) on the
// explored state graph of one ruleset: for each player, whether they can
// force a win from the start, and whether they can keep the game from ever
// ending, with the first moves of the witness strategy. Perfect information
// and nature against the player: an upper bound on what a real player can
// force. Exit codes as for check's search: 0 answered, 2 bad input, 3 the
// search was cut short (no answer).
#include <iostream>

#include <fmt/format.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/strategy.hpp"

#include "command_line.hpp"
#include "commands.hpp"
#include "signals.hpp"

namespace loophole::cli {
namespace {

// The witness as the moves it makes along the branch where every reply is
// the first one, up to `limit` moves of the player: "T1 P1 main · play:
// P1 takes 'gain'".
std::string witness(const checker::Semantics& sem, const checker::ExploredGraph& g,
                    const properties::StrategyAnalysis& a, int p, bool win, std::size_t limit) {
  const auto& st = a.players[static_cast<std::size_t>(p)];
  std::string out;
  checker::StateId v = 0;
  std::vector<checker::Successor> next;
  for (std::size_t moves = 0, steps = 0; moves < limit && steps < 10000; ++steps) {
    const checker::StateVec s = g.state(v);
    if (sem.is_final(s)) break;
    const std::int32_t m = win ? st.win_move[v] : st.endless_move[v];
    const auto edges = g.edges(v);
    if (edges.empty()) break;
    std::uint32_t index = edges.front().index;
    if (m != properties::no_move) {
      index = static_cast<std::uint32_t>(m);
      sem.successors(s, next, true);
      out += fmt::format("    {}: {}\n", sem.where(s), sem.describe(s, next[index], 0).text);
      ++moves;
    }
    checker::StateId to = checker::no_state;
    for (const auto& e : edges) {
      if (e.index == index) to = e.to;
    }
    if (to == checker::no_state) break;
    v = to;
  }
  return out;
}

}  // namespace

int run_solve(const SolveArgs& args, const std::atomic<bool>& interrupted) {
  model::LoadOptions load;
  if (!apply_params(args.params, load)) return 2;
  if (args.players != 0) load.players = args.players;
  load.include_roots = args.include_roots;
  checker::ExplicitOptions explore;
  explore.threads = args.threads;
  explore.interrupt = &interrupted;
  if (!apply_timeout(args.timeout, explore)) return 2;
  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::string file = args.file;
  if (!read_stdin_if_dash(file, sources, sink)) {
    std::cerr << sink.render(sources);
    return 2;
  }
  auto game = model::load_game(file, load, sources, sink);
  if (!sink.all().empty()) std::cerr << sink.render(sources);
  if (!game) return 2;
  signals_ask_to_stop();
  const checker::Semantics sem(*game);
  const auto graph = checker::explore(sem, explore);
  if (graph->completion() != checker::Completion::complete) {
    std::cerr << "loophole: inconclusive: the search stopped after " << graph->size()
              << " states; strategies need the whole graph\n";
    return 3;
  }
  const auto a = properties::analyse_strategies(*graph);
  std::string out = fmt::format(
      "{}: who can force what, over {} states (perfect information, nature against the player: "
      "an upper bound on what a player who cannot see hands or decks can force)\n",
      file, graph->size());
  for (int p = 0; p < game->players; ++p) {
    const auto& st = a.players[static_cast<std::size_t>(p)];
    std::size_t win_states = 0, endless_states = 0;
    for (checker::StateId v = 0; v < graph->size(); ++v) {
      win_states += st.win[v] ? 1 : 0;
      endless_states += st.endless[v] ? 1 : 0;
    }
    out += fmt::format("P{} can force a win from the start: {}", p + 1,
                       st.win_from_start ? "yes" : "no");
    if (st.win_from_start) out += fmt::format(" (within {} moves)", st.win_rank[0]);
    out += fmt::format("; from {} of {} states\n", win_states, graph->size());
    if (st.win_from_start) out += witness(sem, *graph, a, p, true, 8);
    // By each way the game can end: the effects, then each end condition.
    for (std::size_t c = 0; c < st.win_by_condition_from_start.size(); ++c) {
      if (c == 0 && !st.win_by_condition_from_start[0]) continue;  // effects: only when yes
      out += fmt::format("  by {}: {}\n",
                         c == 0 ? std::string("a win or lose effect")
                                : "'" + game->end_conditions[c - 1].name + "'",
                         st.win_by_condition_from_start[c] ? "yes" : "no");
    }
    out += fmt::format(
        "P{} can keep the game from ever ending, from the start: {}; from {} of {} "
        "states\n",
        p + 1, st.endless_from_start ? "yes" : "no", endless_states, graph->size());
    if (st.endless_from_start) out += witness(sem, *graph, a, p, false, 8);
  }
  std::cout << out;
  return 0;
}

}  // namespace loophole::cli
