// The phase/step graph: exact vertex and edge counts per edge kind for tiny
// turn structures, constant folding of step conditions, reachability, and
// the DOT rendering (golden files under tests/golden/graph/).
#include "loophole/model/phase_graph.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/model/diagnostics.hpp"

namespace loophole::model {
namespace {

// --- helpers ----------------------------------------------------------------

Game load(const std::string& yaml) {
  SourceManager sources;
  DiagnosticSink sink;
  sources.add("t.yaml", yaml);
  auto game = load_game("t.yaml", LoadOptions{}, sources, sink);
  EXPECT_TRUE(game.has_value()) << sink.render(sources);
  return game ? std::move(*game) : Game{};
}

// A ruleset with the given `turn:` phases (YAML lines under `phases:`).
Game load_turn(const std::string& extra, const std::string& phases) {
  return load("loophole: 1\ngame: t\n" + extra + "turn:\n  phases:\n" + phases);
}

ExprPtr bool_lit(bool b) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::bool_lit;
  e->type = Type::bool_();
  e->value = b ? 1 : 0;
  return e;
}

ExprPtr int_lit(std::int64_t v) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::int_lit;
  e->type = Type::int_();
  e->value = v;
  return e;
}

ExprPtr binary(Op op, ExprPtr a, ExprPtr b) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::binary;
  e->op = op;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

// `turn_number == n`: depends on the state.
ExprPtr turn_is(int n) {
  auto t = std::make_unique<Expr>();
  t->kind = ExprKind::turn_number;
  t->type = Type::int_();
  return binary(Op::eq, std::move(t), int_lit(n));
}

std::map<PhaseEdgeKind, int> edge_counts(const PhaseGraph& g) {
  std::map<PhaseEdgeKind, int> n;
  for (const PhaseEdgeRef& e : g.edges()) ++n[e.edge->kind];
  return n;
}

bool has_edge(const PhaseGraph& g, PhaseVertexId from, PhaseVertexId to, PhaseEdgeKind kind) {
  for (const PhaseEdgeRef& e : g.out_edges(from)) {
    if (e.to == to && e.edge->kind == kind) return true;
  }
  return false;
}

std::size_t in_degree(const PhaseGraph& g, PhaseVertexId v) {
  std::size_t n = 0;
  for (const PhaseEdgeRef& e : g.edges()) n += e.to == v ? 1 : 0;
  return n;
}

using K = PhaseEdgeKind;
using Counts = std::map<PhaseEdgeKind, int>;

// --- shape ------------------------------------------------------------------

TEST(PhaseGraph, MinimalGameIsAChainThroughItsOnlyStep) {
  const Game game = load_turn("", "    - name: main\n      steps:\n        - name: only\n");
  const PhaseGraph g = build_phase_graph(game);
  EXPECT_EQ(3u, g.vertex_count());
  EXPECT_EQ(3u, g.edge_count());
  EXPECT_EQ((Counts{{K::next, 2}, {K::new_turn, 1}}), edge_counts(g));
  EXPECT_EQ(0u, g.start);
  EXPECT_EQ(2u, g.end);
  EXPECT_EQ(PhaseVertex::Kind::turn_start, g.vertex(g.start).kind);
  EXPECT_EQ(PhaseVertex::Kind::turn_end, g.vertex(g.end).kind);
  EXPECT_EQ(PhaseVertex::Kind::step, g.vertex(1).kind);
  EXPECT_EQ(0, g.vertex(PhaseGraph::step_vertex(0)).step);
  EXPECT_EQ(0, g.vertex(PhaseGraph::step_vertex(0)).phase);
  EXPECT_TRUE(has_edge(g, g.start, 1, K::next));
  EXPECT_TRUE(has_edge(g, 1, g.end, K::next));
  EXPECT_TRUE(has_edge(g, g.end, g.start, K::new_turn));
}

TEST(PhaseGraph, NextEdgesCrossPhasesAndVerticesCarryWindows) {
  const Game game = load_turn("windows:\n  opp: {active: {}}\n",
                              "    - name: research\n      steps:\n"
                              "        - name: begin\n"
                              "        - {name: opportunity, window: opp}\n"
                              "    - name: recon\n      steps:\n"
                              "        - {name: play, window: opp}\n");
  const PhaseGraph g = build_phase_graph(game);
  EXPECT_EQ(5u, g.vertex_count());
  EXPECT_EQ(5u, g.edge_count());
  EXPECT_EQ((Counts{{K::next, 4}, {K::new_turn, 1}}), edge_counts(g));
  EXPECT_TRUE(has_edge(g, PhaseGraph::step_vertex(1), PhaseGraph::step_vertex(2), K::next));
  EXPECT_EQ(-1, g.vertex(PhaseGraph::step_vertex(0)).window);
  EXPECT_EQ(0, g.vertex(PhaseGraph::step_vertex(1)).window);
  EXPECT_EQ(0, g.vertex(PhaseGraph::step_vertex(2)).window);
  EXPECT_EQ(1, g.vertex(PhaseGraph::step_vertex(2)).phase);
  EXPECT_EQ(2, g.vertex(PhaseGraph::step_vertex(2)).step);
}

TEST(PhaseGraph, ConditionalRepeatAddsAGuardedSelfEdgeAndKeepsNext) {
  const Game game = load_turn("",
                              "    - name: protect\n      steps:\n        - name: main\n"
                              "          repeat_while: >-\n"
                              "            turn_number  ==\n"
                              "            1\n");
  const PhaseGraph g = build_phase_graph(game);
  EXPECT_EQ(3u, g.vertex_count());
  EXPECT_EQ((Counts{{K::next, 2}, {K::repeat, 1}, {K::new_turn, 1}}), edge_counts(g));
  const PhaseVertexId v = PhaseGraph::step_vertex(0);
  EXPECT_EQ(Guard::conditional, g.vertex(v).repeat);
  EXPECT_EQ(Guard::none, g.vertex(v).end_turn);
  int repeats = 0;
  for (const PhaseEdgeRef& e : g.out_edges(v)) {
    if (e.edge->kind != K::repeat) continue;
    ++repeats;
    EXPECT_EQ(v, e.to);
    EXPECT_TRUE(e.edge->conditional());
    EXPECT_EQ(game.steps[0].repeat_while.get(), e.edge->condition);
    EXPECT_EQ("turn_number == 1", e.edge->label);  // whitespace runs folded
  }
  EXPECT_EQ(1, repeats);
}

TEST(PhaseGraph, ConstantFalseConditionsAddNoEdge) {
  const Game game =
      load_turn("params:\n  deck: 3\n",
                "    - name: main\n      steps:\n"
                "        - {name: a, repeat_while: \"false\", end_turn_if: \"deck > 5\"}\n"
                "        - {name: b}\n");
  const PhaseGraph g = build_phase_graph(game);
  EXPECT_EQ(4u, g.vertex_count());
  EXPECT_EQ((Counts{{K::next, 3}, {K::new_turn, 1}}), edge_counts(g));
  EXPECT_EQ(Guard::never, g.vertex(PhaseGraph::step_vertex(0)).repeat);
  EXPECT_EQ(Guard::never, g.vertex(PhaseGraph::step_vertex(0)).end_turn);
  EXPECT_EQ(Guard::none, g.vertex(PhaseGraph::step_vertex(1)).repeat);
}

TEST(PhaseGraph, ConstantTrueRepeatLeavesOnlyTheSelfEdge) {
  const Game game =
      load_turn("",
                "    - name: main\n      steps:\n"
                "        - {name: a, repeat_while: \"true\", end_turn_if: \"turn_number == 1\"}\n"
                "        - {name: b}\n");
  const PhaseGraph g = build_phase_graph(game);
  // start->a, a->a, b->end, end->start: `a` has no way onward, not even its end_turn_if.
  EXPECT_EQ(4u, g.edge_count());
  EXPECT_EQ((Counts{{K::next, 2}, {K::repeat, 1}, {K::new_turn, 1}}), edge_counts(g));
  EXPECT_EQ(Guard::always, g.vertex(1).repeat);
  EXPECT_EQ(Guard::conditional, g.vertex(1).end_turn);
  EXPECT_EQ(1u, g.out_edges(1).size());
  EXPECT_TRUE(has_edge(g, 1, 1, K::repeat));
  for (const PhaseEdgeRef& e : g.out_edges(1)) {
    EXPECT_FALSE(e.edge->conditional());
  }
}

TEST(PhaseGraph, ConstantTrueEndTurnReplacesNext) {
  const Game game = load_turn("",
                              "    - name: recon\n      steps:\n"
                              "        - {name: exit, end_turn_if: \"true or turn_number == 1\"}\n"
                              "    - name: protect\n      steps:\n"
                              "        - {name: main}\n");
  const PhaseGraph g = build_phase_graph(game);
  EXPECT_EQ((Counts{{K::next, 2}, {K::end_turn_if, 1}, {K::new_turn, 1}}), edge_counts(g));
  EXPECT_TRUE(has_edge(g, 1, g.end, K::end_turn_if));
  EXPECT_FALSE(has_edge(g, 1, 2, K::next));
  EXPECT_EQ(0u, in_degree(g, PhaseGraph::step_vertex(1)));
}

TEST(PhaseGraph, ConditionalEndTurnIsAGuardedEarlyExit) {
  const Game game = load_turn("",
                              "    - name: recon\n      steps:\n"
                              "        - name: first_round_exit\n"
                              "          end_turn_if: \"turn_number == 1\"   # skip the rest\n"
                              "    - name: protect\n      steps:\n"
                              "        - {name: main}\n");
  const PhaseGraph g = build_phase_graph(game);
  EXPECT_EQ(4u, g.vertex_count());
  EXPECT_EQ(5u, g.edge_count());
  EXPECT_EQ((Counts{{K::next, 3}, {K::end_turn_if, 1}, {K::new_turn, 1}}), edge_counts(g));
  EXPECT_TRUE(has_edge(g, 1, g.end, K::end_turn_if));
  EXPECT_TRUE(has_edge(g, 1, 2, K::next));
  for (const PhaseEdgeRef& e : g.out_edges(1)) {
    if (e.edge->kind == K::end_turn_if) {
      EXPECT_EQ("turn_number == 1", e.edge->label);
    }
  }
}

TEST(PhaseGraph, FoldGuardFoldsLiteralsAndShortCircuits) {
  EXPECT_EQ(Guard::none, fold_guard(nullptr));
  EXPECT_EQ(Guard::always, fold_guard(bool_lit(true).get()));
  EXPECT_EQ(Guard::never, fold_guard(bool_lit(false).get()));
  EXPECT_EQ(Guard::conditional, fold_guard(turn_is(1).get()));
  EXPECT_EQ(Guard::always,
            fold_guard(binary(Op::le, binary(Op::add, int_lit(2), int_lit(3)), int_lit(5)).get()));
  EXPECT_EQ(Guard::never, fold_guard(binary(Op::and_, bool_lit(false), turn_is(1)).get()));
  // The one folder (model::fold_constant) decides `and`/`or` by the left
  // operand, as evaluation runs: a right operand alone folds nothing.
  EXPECT_EQ(Guard::conditional, fold_guard(binary(Op::and_, turn_is(1), bool_lit(false)).get()));
  EXPECT_EQ(Guard::always, fold_guard(binary(Op::or_, bool_lit(true), turn_is(2)).get()));
  EXPECT_EQ(Guard::conditional, fold_guard(binary(Op::and_, turn_is(1), bool_lit(true)).get()));
  // dividing by zero is a rule gap at run time, not a constant
  EXPECT_EQ(Guard::conditional,
            fold_guard(binary(Op::eq, binary(Op::div, int_lit(1), int_lit(0)), int_lit(0)).get()));
}

TEST(PhaseGraph, ReachabilityForwardAndBackward) {
  const Game game = load_turn("",
                              "    - name: recon\n      steps:\n"
                              "        - {name: exit, end_turn_if: \"true\"}\n"
                              "        - {name: after}\n");
  const PhaseGraph g = build_phase_graph(game);
  EXPECT_EQ((std::vector<bool>{true, true, false, true}), g.reachable_from(g.start));
  EXPECT_EQ((std::vector<bool>{true, true, true, true}), g.reaching(g.end));
  EXPECT_EQ((std::vector<bool>{false, false, true, false}), g.reaching(PhaseGraph::step_vertex(1)));
}

// --- DOT --------------------------------------------------------------------

Game dot_game() {
  return load(R"(loophole: 1
game: dot "demo"
windows:
  opp: {protocol: priority, active: {}}
  combat: {protocol: alternate}
turn:
  phases:
    - name: research
      steps:
        - name: draw
        - {name: opportunity, window: opp}
    - name: recon
      steps:
        - {name: fight, window: combat, repeat_while: "turn_number == 2"}
        - {name: exit, end_turn_if: "turn_number == 1"}
    - name: protect
      steps:
        - name: main
)");
}

TEST(PhaseGraphDot, RendersClustersWindowsAndGuardedEdges) {
  const Game game = dot_game();
  const std::string dot = to_dot(game, build_phase_graph(game), DotOptions{});
  EXPECT_EQ(R"(digraph turn {
  graph [label="dot \"demo\"", labelloc=t, fontname="Helvetica", rankdir=TB];
  node [fontname="Helvetica", fontsize=11];
  edge [fontname="Helvetica", fontsize=10];

  turn_start [label="turn start", shape=oval, style=filled, fillcolor="#eeeeee"];
  subgraph cluster_0 {
    label="research";
    "research.draw" [label="draw", shape=box];
    "research.opportunity" [label="opportunity\n[window: opp · priority]", shape=box3d];
  }
  subgraph cluster_1 {
    label="recon";
    "recon.fight" [label="fight\n[window: combat · alternate]", shape=box3d];
    "recon.exit" [label="exit", shape=box];
  }
  subgraph cluster_2 {
    label="protect";
    "protect.main" [label="main", shape=box];
  }
  turn_end [label="turn end", shape=oval, peripheries=2, style=filled, fillcolor="#eeeeee"];

  turn_start -> "research.draw";
  "research.draw" -> "research.opportunity";
  "research.opportunity" -> "recon.fight";
  "recon.fight" -> "recon.fight" [label="while turn_number == 2", style=dashed];
  "recon.fight" -> "recon.exit";
  "recon.exit" -> turn_end [label="end turn if turn_number == 1", style=dashed];
  "recon.exit" -> "protect.main";
  "protect.main" -> turn_end;
  turn_end -> turn_start [label="next player", style=dotted, constraint=false];
}
)",
            dot);
}

TEST(PhaseGraphDot, HighlightsATracePathInBoldRed) {
  const Game game = dot_game();
  DotOptions options;
  options.highlight_steps = {3, 4, 99};  // unknown ids are ignored
  options.highlight_edges = {
      {3, DotOptions::turn_end}, {DotOptions::turn_end, DotOptions::turn_start}, {4, 0}};
  const std::string dot = to_dot(game, build_phase_graph(game), options);
  const auto has = [&](const std::string& line) { return dot.find(line) != std::string::npos; };
  EXPECT_TRUE(
      has("turn_start [label=\"turn start\", shape=oval, style=filled, "
          "fillcolor=\"#eeeeee\", color=red, fontcolor=red, penwidth=2.5];"));
  EXPECT_TRUE(
      has("turn_end [label=\"turn end\", shape=oval, peripheries=2, style=filled, "
          "fillcolor=\"#eeeeee\", color=red, fontcolor=red, penwidth=2.5];"));
  EXPECT_TRUE(
      has("\"recon.exit\" [label=\"exit\", shape=box, color=red, fontcolor=red, penwidth=2.5];"));
  EXPECT_TRUE(
      has("\"protect.main\" [label=\"main\", shape=box, color=red, fontcolor=red, penwidth=2.5];"));
  EXPECT_TRUE(has("\"research.draw\" [label=\"draw\", shape=box];"));
  EXPECT_TRUE(
      has("\"recon.exit\" -> turn_end [label=\"end turn if turn_number == 1\", "
          "style=dashed, color=red, fontcolor=red, penwidth=2.5];"));
  EXPECT_TRUE(
      has("turn_end -> turn_start [label=\"next player\", style=dotted, "
          "constraint=false, color=red, fontcolor=red, penwidth=2.5];"));
  EXPECT_TRUE(has("\"recon.exit\" -> \"protect.main\";"));         // not highlighted
  EXPECT_TRUE(has("\"protect.main\" -> turn_end;"));               // (4, 0) names no edge
  EXPECT_EQ(dot, to_dot(game, build_phase_graph(game), options));  // deterministic
}

TEST(PhaseGraphDot, DetailShowsEachStepsRulesAndTheEnds) {
  const Game game = load_turn(
      "state:\n  coins: {type: int, range: [0, 5]}\n"
      "windows:\n  shop: {active: {}}\n"
      "actions:\n  - name: buy\n    who: active\n    effect: \"coins -= 0\"\n"
      "triggers:\n  - name: income\n    on: begin_phase(main)\n    optional: true\n"
      "    do: \"coins := min(5, coins + 1)\"\n"
      "end:\n  - name: rich\n    win: each\n    when: \"coins == 5\"\n",
      "    - name: main\n      steps:\n        - name: earn\n          do: \"coins += 1\"\n"
      "        - name: spend\n          window: shop\n");
  DotOptions options;
  options.detail = true;
  const std::string dot = to_dot(game, build_phase_graph(game), options);
  const auto has = [&](const std::string& line) { return dot.find(line) != std::string::npos; };
  EXPECT_TRUE(
      has("\"main.earn\" [label=\"earn\\ndo: set coins\\ntrigger: income (when phase "
          "begins, optional)\", shape=box];"))
      << dot;
  EXPECT_TRUE(
      has("\"main.spend\" [label=\"spend\\n[window: shop · priority]\\nactions: buy\", "
          "shape=box3d];"))
      << dot;
  EXPECT_TRUE(
      has("end_conditions [label=\"end conditions (checked after every move):\\na player "
          "wins by 'rich' (line "))
      << dot;
  // Without --detail, none of it.
  EXPECT_FALSE(to_dot(game, build_phase_graph(game), {}).find("do:") != std::string::npos);
}

TEST(PhaseGraphDot, ConstantAndUnreachableShapesAreMarked) {
  const Game game = load_turn("",
                              "    - name: a\n      steps:\n"
                              "        - {name: exit, end_turn_if: \"1 < 2\"}\n"
                              "        - {name: spin, repeat_while: \"true\"}\n");
  const std::string dot = to_dot(game, build_phase_graph(game), DotOptions{});
  EXPECT_NE(std::string::npos,
            dot.find("\"a.exit\" -> turn_end [label=\"end turn if 1 < 2 (always)\"];"));
  EXPECT_NE(std::string::npos,
            dot.find("\"a.spin\" [label=\"spin\", shape=box, color=gray60, fontcolor=gray60];"));
  EXPECT_NE(std::string::npos,
            dot.find("\"a.spin\" -> \"a.spin\" [label=\"while true (always)\"];"));
}

TEST(PhaseGraphDot, MissingConditionTextFallsBackToTheKeyName) {
  // Games built by other means than the loader may leave the texts empty.
  Game game = load_turn("",
                        "    - name: main\n      steps:\n"
                        "        - {name: a, repeat_while: \"turn_number == 1\", "
                        "end_turn_if: \"turn_number == 2\"}\n");
  game.steps[0].repeat_text.clear();
  game.steps[0].end_turn_text.clear();
  const std::string dot = to_dot(game, build_phase_graph(game), DotOptions{});
  EXPECT_NE(std::string::npos,
            dot.find("\"main.a\" -> \"main.a\" [label=\"repeat_while\", style=dashed];"));
  EXPECT_NE(std::string::npos,
            dot.find("\"main.a\" -> turn_end [label=\"end turn (end_turn_if)\", style=dashed];"));
}

// --- golden files -----------------------------------------------------------

// Each tests/golden/graph/<case>/input.yaml renders to <case>/expected.dot.
// LOOPHOLE_UPDATE_GOLDEN=1 rewrites the expected files instead of comparing,
// and skips (review the diff before committing).
TEST(PhaseGraphGolden, EveryCaseMatchesItsExpectedDot) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(LOOPHOLE_SOURCE_DIR) / "tests" / "golden" / "graph";
  const char* update_env = std::getenv("LOOPHOLE_UPDATE_GOLDEN");
  const bool update = update_env != nullptr && std::string(update_env) == "1";
  std::vector<fs::path> cases;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (entry.is_directory()) cases.push_back(entry.path());
  }
  std::sort(cases.begin(), cases.end());
  ASSERT_FALSE(cases.empty()) << "no golden cases under " << root;
  for (const fs::path& dir : cases) {
    SCOPED_TRACE(dir.filename().string());
    SourceManager sources;
    DiagnosticSink sink;
    const auto game = load_game((dir / "input.yaml").string(), LoadOptions{}, sources, sink);
    ASSERT_TRUE(game.has_value()) << sink.render(sources);
    const std::string dot = to_dot(*game, build_phase_graph(*game), DotOptions{});
    const fs::path expected_path = dir / "expected.dot";
    if (update) {
      std::ofstream(expected_path, std::ios::binary) << dot;
      continue;
    }
    std::ifstream in(expected_path, std::ios::binary);
    ASSERT_TRUE(in.good()) << "missing " << expected_path << " (run with LOOPHOLE_UPDATE_GOLDEN=1)";
    const std::string expected((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    EXPECT_EQ(expected, dot);
  }
  // An update run compared nothing: it must not pass as if it had.
  if (update) GTEST_SKIP() << "rewrote the golden files under " << root << "; review the diff";
}

}  // namespace
}  // namespace loophole::model
