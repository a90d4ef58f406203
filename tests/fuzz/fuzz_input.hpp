// A fuzz input read as a ruleset file: the bytes become "rulesets/fuzz.yaml"
// in a source manager of their own and go through the whole front end. (As if
// the file lay in rulesets/: run from the source root, as scripts/fuzz-smoke
// and ctest run, a seed's includes resolve, so speed-biomes and its
// include/speed-biomes-rules.yaml load as a seed.) What it returns keeps the
// sources and the diagnostics alive beside the Game.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"

namespace loophole::fuzz {

struct Input {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  std::optional<model::Game> game;  // none: the sink holds the errors
};

inline std::unique_ptr<Input> load_input(const std::uint8_t* data, std::size_t size) {
  auto in = std::make_unique<Input>();
  const std::string path = "rulesets/fuzz.yaml";
  in->sources.add(path, std::string(reinterpret_cast<const char*>(data), size));
  in->game = model::load_game(path, {}, in->sources, in->sink);
  return in;
}

}  // namespace loophole::fuzz
