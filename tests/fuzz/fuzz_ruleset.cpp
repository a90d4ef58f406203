// libFuzzer target for the whole front end: arbitrary bytes as a ruleset file
// go through YAML parsing, includes, expression parsing, name resolution and
// type checking. Any input must end in a Game or in diagnostics: no crash, no
// sanitizer report, no hang, no unbounded allocation. Diagnostics are also
// rendered, since rendering quotes source lines at reported positions.
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return 0;
  const auto in = loophole::fuzz::load_input(data, size);
  (void)in->sink.render(in->sources);
  if (in->game.has_value() == in->sink.has_errors()) __builtin_trap();  // a Game iff no error
  return 0;
}
