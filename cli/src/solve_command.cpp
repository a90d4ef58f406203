// `loophole solve FILE`: who can force what (properties/strategy.hpp) on the
// explored state graph of one ruleset: for each player and each coalition
// of players, whether they can force a win from the start (by any end and
// by each end condition), and whether they can keep the game from ever
// ending, each with the witness strategy as a bounded decision tree.
// Perfect information, nature against the player or (--nature fair) a fair
// coin: an upper bound on what a real player can force. Text or JSON. Exit
// codes as for check's search: 0 answered, 2 bad input, 3 the search was
// cut short (no answer).
#include <bit>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "loophole/checker/explicit.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/strategy.hpp"

#include "command_line.hpp"
#include "commands.hpp"
#include "signals.hpp"

namespace loophole::cli {
namespace {

using properties::StrategyTree;

// "P1", "P1 and P2", "P1, P2 and P3".
std::string members(std::uint32_t c) {
  std::vector<std::string> ps;
  for (int p = 0; p < 32; ++p) {
    if (((c >> static_cast<unsigned>(p)) & 1U) != 0) ps.push_back(fmt::format("P{}", p + 1));
  }
  std::string s;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (i > 0) s += i + 1 == ps.size() ? " and " : ", ";
    s += ps[i];
  }
  return s;
}

// What a tree node's move did: "T1 P1 main · play: P1 plays 'gain' (...)".
std::string move_text(const checker::Semantics& sem, const checker::ExploredGraph& g,
                      checker::StateId from, std::uint32_t index) {
  const checker::StateVec s = g.state(from);
  std::vector<checker::Successor> next;
  sem.successors(s, next, true);
  return fmt::format("{}: {}", sem.where(s), sem.describe(s, next.at(index), 0).text);
}

// The tree as text: the coalition's moves one a line; where several replies
// (or outcomes of its move) are possible, one "if" line each with what
// follows beneath it; forced moves left out.
void tree_text(const checker::Semantics& sem, const checker::ExploredGraph& g,
               const StrategyTree& t, std::size_t at, int indent, std::string& out) {
  const auto& node = t.nodes[at];
  const auto pad = static_cast<std::size_t>(indent);
  for (const std::size_t kid : node.children) {
    const auto& child = t.nodes[kid];
    int deeper = indent;
    if (child.by == StrategyTree::By::coalition) {
      out += std::string(pad, ' ') + move_text(sem, g, node.state, child.index) + "\n";
    } else if (child.by != StrategyTree::By::forced) {
      const bool last = child.end == StrategyTree::End::win;
      out += std::string(pad, ' ') + "if " + move_text(sem, g, node.state, child.index) +
             (last ? "\n" : ":\n");
      deeper = indent + 2;
    }
    const std::string more(static_cast<std::size_t>(deeper), ' ');
    if (child.end == StrategyTree::End::repeat) {
      out += more + "(back to a state met before on this line of play: it repeats)\n";
    }
    tree_text(sem, g, t, kid, deeper, out);
    if (child.end == StrategyTree::End::cut) out += more + "... (cut here: the report's bound)\n";
  }
  if (node.end == StrategyTree::End::cut && node.children.empty() && at == 0) {
    out += std::string(pad, ' ') + "... (cut here: the report's bound)\n";
  }
}

nlohmann::json tree_json(const checker::Semantics& sem, const checker::ExploredGraph& g,
                         const StrategyTree& t, std::size_t at, checker::StateId parent) {
  static constexpr const char* by[] = {"coalition", "outcome", "reply", "forced"};
  static constexpr const char* end[] = {nullptr, "win", "repeat", "cut", "lost"};
  const auto& node = t.nodes[at];
  nlohmann::json out;
  if (at == 0) {
    out["move"] = nullptr;
    out["by"] = nullptr;
    out["where"] = sem.where(g.state(node.state));
  } else {
    out["move"] = move_text(sem, g, parent, node.index);
    out["by"] = by[static_cast<int>(node.by)];
  }
  const char* e = end[static_cast<int>(node.end)];
  out["end"] = e != nullptr ? nlohmann::json(e) : nlohmann::json(nullptr);
  nlohmann::json then = nlohmann::json::array();
  for (const std::size_t kid : node.children) then.push_back(tree_json(sem, g, t, kid, node.state));
  out["then"] = std::move(then);
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
  const bool fair = args.nature == "fair";
  const auto a = properties::analyse_strategies(
      *graph, fair ? properties::Nature::fair : properties::Nature::adversarial);
  const auto depth = static_cast<std::uint32_t>(args.tree_depth);
  const auto size = static_cast<std::size_t>(args.tree_size);
  const std::string caveat =
      fair ? "perfect information, nature a fair coin: a win counts when it comes with "
             "probability 1 whatever the others do; an upper bound on what a player who cannot "
             "see hands or decks can force"
           : "perfect information, nature against the player: an upper bound on what a player "
             "who cannot see hands or decks can force";
  const auto count = [&](const std::vector<bool>& region) {
    std::size_t k = 0;
    for (checker::StateId v = 0; v < graph->size(); ++v) k += region[v] ? 1 : 0;
    return k;
  };
  const auto condition_name = [&](std::size_t c) {
    return c == 0 ? std::string("a win or lose effect")
                  : "'" + game->end_conditions[c - 1].name + "'";
  };

  std::string out;
  if (args.format == "json") {
    nlohmann::json doc;
    doc["format"] = "loophole-solve";
    doc["version"] = 1;  // schema/solve.schema.json
    doc["file"] = file;
    doc["states"] = graph->size();
    doc["nature"] = fair ? "fair" : "adversarial";
    doc["perfect_information"] = true;
    doc["caveat"] = caveat;
    doc["tree_bounds"] = {{"moves", depth}, {"nodes", size}};
    nlohmann::json all = nlohmann::json::array();
    for (std::size_t k = 0; k < a.coalitions.size(); ++k) {
      const auto& st = a.coalitions[k];
      nlohmann::json players = nlohmann::json::array();
      for (int p = 0; p < 32; ++p) {
        if (((st.members >> static_cast<unsigned>(p)) & 1U) != 0) players.push_back(p + 1);
      }
      nlohmann::json by = nlohmann::json::object();
      for (std::size_t c = 0; c < st.win_by_condition_from_start.size(); ++c) {
        by[c == 0 ? std::string("win/lose effects") : game->end_conditions[c - 1].name] =
            static_cast<bool>(st.win_by_condition_from_start[c]);
      }
      const auto strategy = [&](bool win, bool yes) {
        return yes ? tree_json(sem, *graph,
                               properties::strategy_tree(*graph, a, k, win, 0, depth, size), 0, 0)
                   : nlohmann::json(nullptr);
      };
      nlohmann::json win{{"from_start", st.win_from_start},
                         {"states", count(st.win)},
                         {"by_condition", by},
                         {"strategy", strategy(true, st.win_from_start)}};
      win["within"] =
          st.win_from_start && !fair ? nlohmann::json(st.win_rank[0]) : nlohmann::json(nullptr);
      all.push_back({{"players", players},
                     {"win", win},
                     {"endless",
                      {{"from_start", st.endless_from_start},
                       {"states", count(st.endless)},
                       {"strategy", strategy(false, st.endless_from_start)}}}});
    }
    doc["coalitions"] = std::move(all);
    out = doc.dump(2) + "\n";
  } else {
    out = fmt::format("{}: who can force what, over {} states ({})\n", file, graph->size(), caveat);
    const std::string bound = fmt::format(
        "decision tree: the move where they choose, every reply of the others and of nature; "
        "at most {} of their moves deep and {} nodes",
        depth, size);
    for (std::size_t k = 0; k < a.coalitions.size(); ++k) {
      const auto& st = a.coalitions[k];
      const std::string who =
          members(st.members) + (std::popcount(st.members) > 1 ? " together" : "");
      out += fmt::format("{} can force a win from the start: {}", who,
                         st.win_from_start ? (fair ? "yes, almost surely" : "yes") : "no");
      if (st.win_from_start && !fair) out += fmt::format(" (within {} moves)", st.win_rank[0]);
      out += fmt::format("; from {} of {} states\n", count(st.win), graph->size());
      // By each way the game can end: the effects, then each end condition.
      for (std::size_t c = 0; c < st.win_by_condition_from_start.size(); ++c) {
        if (c == 0 && !st.win_by_condition_from_start[0]) continue;  // effects: only when yes
        out += fmt::format("  by {}: {}\n", condition_name(c),
                           st.win_by_condition_from_start[c] ? "yes" : "no");
      }
      if (st.win_from_start) {
        out += "  strategy (" + bound + "):\n";
        tree_text(sem, *graph, properties::strategy_tree(*graph, a, k, true, 0, depth, size), 0, 4,
                  out);
      }
      out += fmt::format(
          "{} can keep the game from ever ending, from the start: {}; from {} of {} states\n", who,
          st.endless_from_start ? "yes" : "no", count(st.endless), graph->size());
      if (st.endless_from_start) {
        out += "  strategy (" + bound + "):\n";
        tree_text(sem, *graph, properties::strategy_tree(*graph, a, k, false, 0, depth, size), 0, 4,
                  out);
      }
    }
  }
  std::string error;
  if (!write_output(args.output, out, error)) {
    std::cerr << "loophole: " << error << "\n";
    return 2;
  }
  return 0;
}

}  // namespace loophole::cli
