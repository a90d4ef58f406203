// Builds the phase/step graph of a game and renders it as DOT.
//
// The graph follows the `post` stage of the semantics (docs/semantics.md):
// after a step, the same step again while `repeat_while` holds, else turn
// end if `end_turn_if` holds or the step is the last, else the next step.
// Conditions are folded first (model::fold_constant, the checker's one
// folder), so a constant one either disappears (false) or replaces the ways
// onward (true); only state-dependent ones, and those that would fail at
// run time (a zero divisor, a result beyond 64 bits), become guarded
// edges. The DOT is written by hand rather than with
// boost::write_graphviz so that clusters, labels and order stay under our
// control and the output is byte-stable for golden tests.
#include "loophole/model/phase_graph.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/reverse_graph.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dot_text.hpp"

namespace loophole::model {

namespace {

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
  g.add_edge(from, to, std::move(e));
}

}  // namespace

// --- the graph --------------------------------------------------------------

struct PhaseGraph::Impl {
  boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, PhaseVertex, PhaseEdge>
      graph;
};

PhaseGraph::PhaseGraph() : impl_(std::make_unique<Impl>()) {}
PhaseGraph::~PhaseGraph() = default;
PhaseGraph::PhaseGraph(PhaseGraph&&) noexcept = default;
PhaseGraph& PhaseGraph::operator=(PhaseGraph&&) noexcept = default;

std::size_t PhaseGraph::vertex_count() const { return boost::num_vertices(impl_->graph); }
std::size_t PhaseGraph::edge_count() const { return boost::num_edges(impl_->graph); }
const PhaseVertex& PhaseGraph::vertex(PhaseVertexId v) const { return impl_->graph[v]; }

std::vector<PhaseEdgeRef> PhaseGraph::out_edges(PhaseVertexId v) const {
  std::vector<PhaseEdgeRef> out;
  for (const auto& e : boost::make_iterator_range(boost::out_edges(v, impl_->graph))) {
    out.push_back({v, boost::target(e, impl_->graph), &impl_->graph[e]});
  }
  return out;
}

std::vector<PhaseEdgeRef> PhaseGraph::edges() const {
  std::vector<PhaseEdgeRef> out;
  for (PhaseVertexId v = 0; v < vertex_count(); ++v) {
    for (const PhaseEdgeRef& e : out_edges(v)) out.push_back(e);
  }
  return out;
}

PhaseVertexId PhaseGraph::add_vertex(const PhaseVertex& v) {
  return boost::add_vertex(v, impl_->graph);
}

void PhaseGraph::add_edge(PhaseVertexId from, PhaseVertexId to, PhaseEdge e) {
  boost::add_edge(from, to, std::move(e), impl_->graph);
}

void PhaseGraph::remove_edges(PhaseVertexId from, PhaseVertexId to) {
  boost::remove_edge(from, to, impl_->graph);
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

std::vector<bool> PhaseGraph::reachable_from(PhaseVertexId from) const {
  return reachable(impl_->graph, from);
}

std::vector<bool> PhaseGraph::reaching(PhaseVertexId to) const {
  return reachable(boost::make_reverse_graph(impl_->graph), to);
}

// --- building ---------------------------------------------------------------

Guard fold_guard(const Expr* condition) {
  if (condition == nullptr) return Guard::none;
  const auto v = fold_constant(*condition);
  if (!v) return Guard::conditional;
  return *v != 0 ? Guard::always : Guard::never;
}

PhaseGraph build_phase_graph(const Game& game) {
  PhaseGraph g;
  const int steps = static_cast<int>(game.steps.size());
  PhaseVertex start;
  start.kind = PhaseVertex::Kind::turn_start;
  g.start = g.add_vertex(start);
  for (int i = 0; i < steps; ++i) {
    const Step& s = game.steps[i];
    PhaseVertex v;
    v.kind = PhaseVertex::Kind::step;
    v.phase = s.phase;
    v.step = i;
    v.window = s.window;
    v.repeat = fold_guard(s.repeat_while.get());
    v.end_turn = fold_guard(s.end_turn_if.get());
    g.add_vertex(v);
  }
  PhaseVertex end;
  end.kind = PhaseVertex::Kind::turn_end;
  g.end = g.add_vertex(end);

  add_edge(g, g.start, steps == 0 ? g.end : PhaseGraph::step_vertex(0), PhaseEdgeKind::next,
           Guard::none, nullptr, "");
  for (int i = 0; i < steps; ++i) {
    const Step& s = game.steps[i];
    const PhaseVertexId v = PhaseGraph::step_vertex(i);
    const PhaseVertex p = g.vertex(v);
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
  const PhaseVertex& p = g.vertex(v);
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

std::string edge_label(const Game& game, const PhaseGraph& g, const PhaseEdgeRef& e) {
  const PhaseEdge& edge = *e.edge;
  const PhaseVertex& from = g.vertex(e.from);
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

// "move 3", "moves 2, 5-7": a trace's move numbers, runs joined.
std::string move_list(const std::vector<std::size_t>& moves) {
  std::string out;
  for (std::size_t i = 0; i < moves.size();) {
    std::size_t j = i;
    while (j + 1 < moves.size() && moves[j + 1] == moves[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(moves[i]);
    if (j > i) out += (j == i + 1 ? ", " : "-") + std::to_string(moves[j]);
    i = j + 1;
  }
  return (moves.size() == 1 ? "move " : "moves ") + out;
}

// At most `limit` characters of a rule as written, on one line.
std::string clipped(const std::string& text, std::size_t limit = 60) {
  std::string line = one_line(text);
  if (line.size() > limit) {
    std::size_t cut = limit - 3;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0U) == 0x80U) --cut;
    line = line.substr(0, cut) + "...";
  }
  return line;
}

// A step's `do` in the words of the language, by what each statement does
// ("draw, set counters, if ..., fire discovered"): the expressions are
// left out, since they are written once, in the ruleset.
void summarize(const Game& game, const Stmt& s, std::vector<std::string>& out) {
  switch (s.kind) {
    case StmtKind::block:
      for (const auto& b : s.bodies) summarize(game, *b, out);
      return;
    case StmtKind::assign:
      out.push_back("set " + (s.target && !s.target->text.empty() ? s.target->text : "a var"));
      return;
    case StmtKind::if_:
      out.emplace_back("if ...");
      return;
    case StmtKind::for_:
      out.emplace_back("for ...");
      return;
    case StmtKind::choose:
      out.emplace_back("choose");
      return;
    case StmtKind::pick:
      out.emplace_back("pick");
      return;
    case StmtKind::draw:
      out.emplace_back("draw");
      return;
    case StmtKind::move_kind:
    case StmtKind::move_any:
      out.emplace_back("move");
      return;
    case StmtKind::fire:
      out.push_back("fire " + (s.ref >= 0 && s.ref < static_cast<int>(game.events.size())
                                   ? game.events[s.ref].name
                                   : std::string("an event")));
      return;
    case StmtKind::win:
      out.emplace_back("win");
      return;
    case StmtKind::lose:
      out.emplace_back("lose");
      return;
    case StmtKind::negate:
      out.emplace_back("negate");
      return;
    case StmtKind::reverse_order:
      out.emplace_back("reverse_turn_order");
      return;
    case StmtKind::skip_next:
      out.emplace_back("skip_next");
      return;
    case StmtKind::shuffle:
      out.emplace_back("shuffle");
      return;
    case StmtKind::skip:
      return;
    case StmtKind::call:
      out.push_back(s.text);
      return;
  }
}

// Who an end condition is about, as the note says it.
const char* role_phrase(Role r) {
  switch (r) {
    case Role::active:
      return "the active player";
    case Role::opponent:
      return "the opponent";
    case Role::each:
      return "a player";
    case Role::any:
      return "any player";
    case Role::others:
      return "another player";
  }
  return "a player";
}

// --detail: the lines under a step's name. Its `do`; the actions its window
// allows; the triggers of its own events and, for the first and last step of
// a phase, of the phase's.
std::vector<std::string> step_detail(const Game& game, int s) {
  const Step& step = game.steps[s];
  std::vector<std::string> lines;
  if (step.effects) {
    std::vector<std::string> parts;
    summarize(game, *step.effects, parts);
    if (!parts.empty()) lines.push_back(clipped(fmt::format("do: {}", fmt::join(parts, ", "))));
  }
  if (step.window >= 0) {
    std::vector<std::string> names;
    for (const Action& a : game.actions) {
      if (a.windows.empty() ||
          std::find(a.windows.begin(), a.windows.end(), step.window) != a.windows.end()) {
        names.push_back(a.name);
      }
    }
    if (!names.empty()) {
      std::string line = "actions:";
      for (const auto& n : names) line += " " + n;
      lines.push_back(clipped(line));
    }
  }
  const Phase& phase = game.phases[step.phase];
  const bool first = !phase.steps.empty() && phase.steps.front() == s;
  const bool last = !phase.steps.empty() && phase.steps.back() == s;
  const std::pair<int, const char*> events[] = {
      {first ? phase.begin_event : -1, "phase begins"},
      {step.begin_event, "begins"},
      {step.end_event, "ends"},
      {last ? phase.end_event : -1, "phase ends"},
  };
  for (const auto& [event, when] : events) {
    if (event < 0) continue;
    for (const Trigger& t : game.triggers) {
      if (t.event != event) continue;
      lines.push_back(
          fmt::format("trigger: {} (when {}{})", t.name, when, t.optional ? ", optional" : ""));
    }
  }
  return lines;
}

// --detail: the end conditions, in a note beside turn start, each with the
// line it is written at (its condition is shown there, as written).
std::string end_conditions_note(const Game& game) {
  std::string text = "end conditions (checked after every move):";
  for (const EndCondition& e : game.end_conditions) {
    const std::string who = e.player_text.empty() ? role_phrase(e.who) : e.player_text;
    text += fmt::format("\n{} {} '{}'{}", who, e.win ? "wins by" : "loses by", e.name,
                        e.where.line != 0 ? fmt::format(" (line {})", e.where.line) : "");
  }
  return text;
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
  std::map<std::pair<PhaseVertexId, PhaseVertexId>, std::vector<std::size_t>> edge_moves;
  for (const auto& [ends, moves] : options.edge_moves) {
    const auto va = vertex_of(ends.first), vb = vertex_of(ends.second);
    if (va && vb) edge_moves[{*va, *vb}] = moves;
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

  const std::vector<bool> reached = g.reachable_from(g.start);  // unreachable steps are grey
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
      // Each line of the label escaped on its own, joined by DOT's line
      // break `\n` (which must not be escaped itself).
      std::vector<std::string> lines{step.name};
      if (step.window >= 0) {
        const Window& w = game.windows[step.window];
        lines.push_back("[window: " + w.name + " · " + std::string(protocol_name(w.protocol)) +
                        "]");
      }
      if (options.detail) {
        for (auto& line : step_detail(game, s)) lines.push_back(std::move(line));
      }
      if (const auto m = options.step_moves.find(s); m != options.step_moves.end()) {
        lines.push_back(move_list(m->second));
      }
      const bool marked = options.marked_step == s;
      if (marked) lines.emplace_back("finding here");
      out << "    " << node_id(game, g, v) << " [label=\"";
      for (std::size_t i = 0; i < lines.size(); ++i) {
        out << (i != 0 ? "\\n" : "") << dot_escaped(lines[i]);
      }
      out << '"' << (step.window >= 0 ? ", shape=box3d" : ", shape=box");
      if (!reached[v]) out << ", color=gray60, fontcolor=gray60";
      out << hot(v);
      if (marked) out << ", style=filled, fillcolor=\"#ffd7d7\", peripheries=2";
      out << "];\n";
    }
    out << "  }\n";
  }
  out << "  turn_end [label=\"turn end\", shape=oval, peripheries=2, style=filled, "
         "fillcolor=\"#eeeeee\""
      << hot(g.end) << "];\n";
  if (options.detail && !game.end_conditions.empty()) {
    out << "  end_conditions [label=" << dot_quoted(end_conditions_note(game))
        << ", shape=note];\n";
  }
  out << "\n";

  for (PhaseVertexId v = 0; v < g.vertex_count(); ++v) {
    for (const PhaseEdgeRef& e : g.out_edges(v)) {
      const PhaseEdge& edge = *e.edge;
      const PhaseVertexId to = e.to;
      std::vector<std::string> attrs;
      std::string label = edge_label(game, g, e);
      if (hot_edges.count({v, to}) != 0) {
        if (const auto m = edge_moves.find({v, to}); m != edge_moves.end()) {
          label = move_list(m->second) + (label.empty() ? "" : "\n" + label);
        }
      }
      if (!label.empty()) attrs.push_back("label=" + dot_quoted(label));
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
