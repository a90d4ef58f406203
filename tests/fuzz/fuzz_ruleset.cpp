// libFuzzer target for the whole front end: arbitrary bytes as a ruleset file
// go through YAML parsing, includes, expression parsing, name resolution and
// type checking. Any input must end in a Game or in diagnostics: no crash, no
// sanitizer report, no hang, no unbounded allocation. Diagnostics are also
// rendered, since rendering quotes source lines at reported positions.
#include <cstddef>
#include <cstdint>
#include <string>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return 0;
  loophole::model::SourceManager sources;
  const std::string path = "fuzz.yaml";
  sources.add(path, std::string(reinterpret_cast<const char*>(data), size));
  loophole::model::DiagnosticSink sink;
  const auto game = loophole::model::load_game(path, {}, sources, sink);
  (void)sink.render(sources);
  if (game.has_value() == sink.has_errors()) __builtin_trap();  // a Game iff no error
  return 0;
}
