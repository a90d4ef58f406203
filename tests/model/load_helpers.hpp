// Loading rulesets in tests: from an in-memory string (registered with the
// SourceManager under a file name) or from a file, with the diagnostics in
// the order they are rendered (by file, line, column).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"

namespace loophole::model::testing {

struct Loaded {
  std::optional<Game> game;
  std::vector<Diagnostic> diags;  // sorted like DiagnosticSink::render
  std::string rendered;

  [[nodiscard]] const Diagnostic& first() const {
    static const Diagnostic none{Severity::note, {}, "(no diagnostic)", {}};
    return diags.empty() ? none : diags.front();
  }
};

inline Loaded finish(std::optional<Game> game, const DiagnosticSink& sink,
                     const SourceManager& sources) {
  Loaded out;
  out.game = std::move(game);
  out.diags = sink.all();
  std::stable_sort(out.diags.begin(), out.diags.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     if (a.where.file != b.where.file) return a.where.file < b.where.file;
                     if (a.where.line != b.where.line) return a.where.line < b.where.line;
                     return a.where.col < b.where.col;
                   });
  out.rendered = sink.render(sources);
  return out;
}

inline Loaded load_text(const std::string& yaml, const LoadOptions& options = {},
                        const std::string& path = "t.yaml") {
  SourceManager sources;
  sources.add(path, yaml);
  DiagnosticSink sink;
  auto game = load_game(path, options, sources, sink);
  return finish(std::move(game), sink, sources);
}

inline Loaded load_path(const std::string& path, const LoadOptions& options = {}) {
  SourceManager sources;
  DiagnosticSink sink;
  auto game = load_game(path, options, sources, sink);
  return finish(std::move(game), sink, sources);
}

// The smallest turn a ruleset can have (one phase of one step), for inline
// rulesets that test something else.
inline const std::string k_turn =
    "turn:\n"
    "  phases:\n"
    "    - name: main\n"
    "      steps:\n"
    "        - name: only\n";

// "line:col" of a diagnostic.
inline std::string at(const Diagnostic& d) {
  return std::to_string(d.where.line) + ":" + std::to_string(d.where.col);
}

}  // namespace loophole::model::testing
