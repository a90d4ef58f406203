// Builds the phase/step graph of a game and renders it as DOT.
//
// The graph follows the `post` stage of the semantics (docs/semantics.md):
// after a step, the same step again while `repeat_while` holds, else turn
// end if `end_turn_if` holds or the step is the last, else the next step.
// Conditions are folded first, so a constant one either disappears (false)
// or replaces the ways onward (true); only state-dependent ones become
// guarded edges. Each operator folds as model::fold_operation does (the
// checker's folder): a zero divisor or a result beyond 64 bits is no
// constant, and the condition stays guarded. The DOT is written by hand rather than with
// boost::write_graphviz so that clusters, labels and order stay under our
// control and the output is byte-stable for golden tests.
#include "loophole/model/phase_graph.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/reverse_graph.hpp>

#include "dot_text.hpp"

namespace loophole::model {

namespace {

std::optional<std::int64_t> constant_value(const Expr& e);

std::optional<std::int64_t> constant_binary(const Expr& e) {
  const auto lhs = constant_value(*e.args[0]);
  // `and`/`or` fold when one side decides, whatever the other is.
  if (e.op == Op::and_ || e.op == Op::or_) {
    const bool decisive = e.op == Op::or_;  // or: true decides; and: false decides
    const auto rhs = constant_value(*e.args[1]);
    if ((lhs && (*lhs != 0) == decisive) || (rhs && (*rhs != 0) == decisive))
      return decisive ? 1 : 0;
    if (lhs && rhs) return decisive ? 0 : 1;
    return std::nullopt;
  }
  const auto rhs = constant_value(*e.args[1]);
  if (!lhs || !rhs) return std::nullopt;
  return fold_operation(e.op, {*lhs, *rhs});
}

std::optional<std::int64_t> constant_builtin(const Expr& e) {
  std::vector<std::int64_t> v;
  for (const auto& a : e.args) {
    const auto x = constant_value(*a);
    if (!x) return std::nullopt;
    v.push_back(*x);
  }
  const std::size_t arity = e.op == Op::abs ? 1 : e.op == Op::clamp ? 3 : 2;
  return v.size() == arity ? fold_operation(e.op, v) : std::nullopt;
}

// The value of an expression that does not depend on the state, if it is one.
std::optional<std::int64_t> constant_value(const Expr& e) {
  switch (e.kind) {
    case ExprKind::int_lit:
    case ExprKind::bool_lit:
    case ExprKind::enum_lit:
    case ExprKind::kind_lit:
    case ExprKind::action_lit:
      return e.value;
    case ExprKind::unary: {
      if (e.args.size() != 1) return std::nullopt;
      const auto x = constant_value(*e.args[0]);
      if (!x) return std::nullopt;
      return fold_operation(e.op, {*x});
    }
    case ExprKind::binary:
      return e.args.size() == 2 ? constant_binary(e) : std::nullopt;
    case ExprKind::cond: {
      if (e.args.size() != 3) return std::nullopt;
      const auto c = constant_value(*e.args[0]);
      if (!c) return std::nullopt;
      return constant_value(*e.args[*c != 0 ? 1 : 2]);
    }
    case ExprKind::builtin:
      return constant_builtin(e);
    default:
      return std::nullopt;
  }
}

// Whitespace runs (a condition written over several YAML lines) become one space.
std::string one_line(const std::string& text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

void add_edge(PhaseGraph& g, PhaseVertexId from, PhaseVertexId to, PhaseEdgeKind kind, Guard guard,
              const Expr* condition, const std::string& text) {
  PhaseEdge e;
  e.kind = kind;
  if (guard == Guard::conditional) {
    e.condition = condition;
    e.label = one_line(text);
  }
  boost::add_edge(from, to, e, g.graph);
}

}  // namespace

Guard fold_guard(const Expr* condition) {
  if (condition == nullptr) return Guard::none;
  const auto v = constant_value(*condition);
  if (!v) return Guard::conditional;
  return *v != 0 ? Guard::always : Guard::never;
}

PhaseGraph build_phase_graph(const Game& game) {
  PhaseGraph g;
  const int steps = static_cast<int>(game.steps.size());
  PhaseVertex start;
  start.kind = PhaseVertex::Kind::turn_start;
  g.start = boost::add_vertex(start, g.graph);
  for (int i = 0; i < steps; ++i) {
    const Step& s = game.steps[i];
    PhaseVertex v;
    v.kind = PhaseVertex::Kind::step;
    v.phase = s.phase;
    v.step = i;
    v.window = s.window;
    v.repeat = fold_guard(s.repeat_while.get());
    v.end_turn = fold_guard(s.end_turn_if.get());
    boost::add_vertex(v, g.graph);
  }
  PhaseVertex end;
  end.kind = PhaseVertex::Kind::turn_end;
  g.end = boost::add_vertex(end, g.graph);

  add_edge(g, g.start, steps == 0 ? g.end : PhaseGraph::step_vertex(0), PhaseEdgeKind::next,
           Guard::none, nullptr, "");
  for (int i = 0; i < steps; ++i) {
    const Step& s = game.steps[i];
    const PhaseVertexId v = PhaseGraph::step_vertex(i);
    const PhaseVertex p = g.graph[v];
    if (p.repeat == Guard::always || p.repeat == Guard::conditional) {
      add_edge(g, v, v, PhaseEdgeKind::repeat, p.repeat, s.repeat_while.get(), s.repeat_text);
    }
    if (p.repeat == Guard::always) continue;  // the step never lets go
    if (p.end_turn == Guard::always || p.end_turn == Guard::conditional) {
      add_edge(g, v, g.end, PhaseEdgeKind::end_turn_if, p.end_turn, s.end_turn_if.get(),
               s.end_turn_text);
    }
    if (p.end_turn == Guard::always) continue;  // the turn always ends here
    add_edge(g, v, i + 1 < steps ? PhaseGraph::step_vertex(i + 1) : g.end, PhaseEdgeKind::next,
             Guard::none, nullptr, "");
  }
  add_edge(g, g.end, g.start, PhaseEdgeKind::new_turn, Guard::none, nullptr, "");
  return g;
}

namespace {

template <class Graph>
std::vector<bool> reachable(const Graph& graph, PhaseVertexId from) {
  const auto n = boost::num_vertices(graph);
  std::vector<boost::default_color_type> colors(n, boost::white_color);
  boost::breadth_first_search(graph, from,
                              boost::color_map(boost::make_iterator_property_map(
                                  colors.begin(), boost::get(boost::vertex_index, graph))));
  std::vector<bool> seen(n);
  for (std::size_t v = 0; v < n; ++v) seen[v] = colors[v] != boost::white_color;
  return seen;
}

}  // namespace

std::vector<bool> reachable_from(const PhaseGraph& g, PhaseVertexId from) {
  return reachable(g.graph, from);
}

std::vector<bool> reaching(const PhaseGraph& g, PhaseVertexId to) {
  return reachable(boost::make_reverse_graph(g.graph), to);
}

// --- DOT --------------------------------------------------------------------

namespace {

std::string_view protocol_name(Protocol p) {
  switch (p) {
    case Protocol::priority:
      return "priority";
    case Protocol::alternate:
      return "alternate";
    case Protocol::sequence:
      return "sequence";
  }
  return "?";
}

std::string node_id(const Game& game, const PhaseGraph& g, PhaseVertexId v) {
  const PhaseVertex& p = g.graph[v];
  switch (p.kind) {
    case PhaseVertex::Kind::turn_start:
      return "turn_start";
    case PhaseVertex::Kind::turn_end:
      return "turn_end";
    case PhaseVertex::Kind::step:
      break;
  }
  const Step& s = game.steps[p.step];
  return dot_quoted(game.phases[s.phase].name + "." + s.name);
}

constexpr std::string_view highlight_attrs = ", color=red, fontcolor=red, penwidth=2.5";

std::string edge_label(const Game& game, const PhaseGraph& g,
                       const PhaseGraphBase::edge_descriptor& e) {
  const PhaseEdge& edge = g.graph[e];
  const PhaseVertex& from = g.graph[boost::source(e, g.graph)];
  // A guard that folded to true is drawn solid; the label says why.
  const std::string always = edge.conditional() ? "" : " (always)";
  switch (edge.kind) {
    case PhaseEdgeKind::next:
      return "";
    case PhaseEdgeKind::new_turn:
      return "next player";
    case PhaseEdgeKind::repeat: {
      const std::string text = one_line(game.steps[from.step].repeat_text);
      return (text.empty() ? "repeat_while" : "while " + text) + always;
    }
    case PhaseEdgeKind::end_turn_if: {
      const std::string text = one_line(game.steps[from.step].end_turn_text);
      return "end turn " + (text.empty() ? "(end_turn_if)" : "if " + text) + always;
    }
  }
  return "";
}

}  // namespace

std::string to_dot(const Game& game, const PhaseGraph& g, const DotOptions& options) {
  const auto vertex_of = [&](int id) -> std::optional<PhaseVertexId> {
    if (id == DotOptions::turn_start) return g.start;
    if (id == DotOptions::turn_end) return g.end;
    if (id >= 0 && id < static_cast<int>(game.steps.size())) return PhaseGraph::step_vertex(id);
    return std::nullopt;
  };
  std::set<PhaseVertexId> hot_vertices;
  for (const int s : options.highlight_steps) {
    if (const auto v = vertex_of(s)) hot_vertices.insert(*v);
  }
  std::set<std::pair<PhaseVertexId, PhaseVertexId>> hot_edges;
  for (const auto& [a, b] : options.highlight_edges) {
    const auto va = vertex_of(a), vb = vertex_of(b);
    if (va && vb) hot_edges.emplace(*va, *vb);
  }
  // The turn vertices are highlighted when a highlighted edge touches them.
  for (const auto& [a, b] : hot_edges) {
    for (const PhaseVertexId v : {a, b}) {
      if (v == g.start || v == g.end) hot_vertices.insert(v);
    }
  }
  const auto hot = [&](PhaseVertexId v) {
    return hot_vertices.count(v) != 0 ? highlight_attrs : "";
  };

  const std::vector<bool> reached = reachable_from(g, g.start);  // unreachable steps are grey
  std::ostringstream out;
  out << "digraph turn {\n";
  out << "  graph [label=" << dot_quoted(game.name)
      << ", labelloc=t, fontname=\"Helvetica\", rankdir=TB];\n";
  out << "  node [fontname=\"Helvetica\", fontsize=11];\n";
  out << "  edge [fontname=\"Helvetica\", fontsize=10];\n\n";
  out << R"(  turn_start [label="turn start", shape=oval, style=filled, fillcolor="#eeeeee")"
      << hot(g.start) << "];\n";
  for (std::size_t ph = 0; ph < game.phases.size(); ++ph) {
    const Phase& phase = game.phases[ph];
    out << "  subgraph cluster_" << ph << " {\n";
    out << "    label=" << dot_quoted(phase.name) << ";\n";
    for (const int s : phase.steps) {
      const Step& step = game.steps[s];
      const PhaseVertexId v = PhaseGraph::step_vertex(s);
      out << "    " << node_id(game, g, v) << " [label=";
      if (step.window >= 0) {
        const Window& w = game.windows[step.window];
        // `\n` is DOT's line break inside a label; it must not be escaped.
        const std::string window =
            "[window: " + w.name + " · " + std::string(protocol_name(w.protocol)) + "]";
        out << '"' << dot_escaped(step.name) << "\\n" << dot_escaped(window) << "\", shape=box3d";
      } else {
        out << dot_quoted(step.name) << ", shape=box";
      }
      if (!reached[v]) out << ", color=gray60, fontcolor=gray60";
      out << hot(v) << "];\n";
    }
    out << "  }\n";
  }
  out << "  turn_end [label=\"turn end\", shape=oval, peripheries=2, style=filled, "
         "fillcolor=\"#eeeeee\""
      << hot(g.end) << "];\n\n";

  for (PhaseVertexId v = 0; v < boost::num_vertices(g.graph); ++v) {
    for (const auto& e : boost::make_iterator_range(boost::out_edges(v, g.graph))) {
      const PhaseEdge& edge = g.graph[e];
      const PhaseVertexId to = boost::target(e, g.graph);
      std::vector<std::string> attrs;
      if (const std::string label = edge_label(game, g, e); !label.empty())
        attrs.push_back("label=" + dot_quoted(label));
      if (edge.conditional()) attrs.emplace_back("style=dashed");
      if (edge.kind == PhaseEdgeKind::new_turn) {
        attrs.emplace_back("style=dotted");
        attrs.emplace_back("constraint=false");
      }
      if (hot_edges.count({v, to}) != 0) {
        attrs.emplace_back("color=red");
        attrs.emplace_back("fontcolor=red");
        attrs.emplace_back("penwidth=2.5");
      }
      out << "  " << node_id(game, g, v) << " -> " << node_id(game, g, to);
      if (!attrs.empty()) {
        out << " [";
        for (std::size_t i = 0; i < attrs.size(); ++i) out << (i != 0 ? ", " : "") << attrs[i];
        out << "]";
      }
      out << ";\n";
    }
  }
  out << "}\n";
  return out.str();
}

}  // namespace loophole::model
