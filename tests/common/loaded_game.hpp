// A ruleset loaded for a test: the game together with what must outlive it
// (its sources, which diagnostics point into, and the diagnostics), and the
// reference semantics when asked for. One helper for every test binary, so
// that no test file writes its own (they clashed in unity builds, where
// several test files share one translation unit).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"

namespace loophole::test_support {

struct LoadedGame {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::optional<model::Game> game;
  std::unique_ptr<checker::Semantics> sem;  // with_semantics, when the game loaded

  [[nodiscard]] std::string diagnostics() const { return sink.render(sources); }
};

struct Load {
  std::map<std::string, std::int64_t> params{};  // as --param NAME=V gives them
  std::optional<std::string> text{};             // the file's text, instead of reading it
  bool with_semantics = false;
};

// Loads the ruleset at `path` (relative to the working directory: the source
// root, under ctest) into `l`, a fresh LoadedGame or a test's own type
// derived from it. Never fails the test by itself: a test that loads a
// broken ruleset on purpose says what it expects.
inline void load_into(LoadedGame& l, const std::string& path, const Load& how = {}) {
  if (how.text) l.sources.add(path, *how.text);
  model::LoadOptions options;
  options.param_overrides = how.params;
  options.override_origin = model::SourceSpan{"<test>", 0, 0, 0};
  // The example rulesets share rulesets/include and rulesets/cards, as with
  // --include-root rulesets.
  options.include_roots = {LOOPHOLE_SOURCE_DIR "/rulesets"};
  l.game = model::load_game(path, options, l.sources, l.sink);
  if (l.game && how.with_semantics) l.sem = std::make_unique<checker::Semantics>(*l.game);
}

// The same into a new LoadedGame.
inline std::unique_ptr<LoadedGame> load_game(const std::string& path, const Load& how = {}) {
  auto l = std::make_unique<LoadedGame>();
  load_into(*l, path, how);
  return l;
}

}  // namespace loophole::test_support
