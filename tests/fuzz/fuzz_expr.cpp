// libFuzzer target for the expression and statement parser alone: it sees
// far more syntax per second than the whole-ruleset target, which spends most
// of its time in YAML. Both parses must return a tree or a diagnostic.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/expr.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16 * 1024) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto origin = loophole::model::TextOrigin::at_position("fuzz", 1, 1);
  loophole::model::DiagnosticSink sink;
  const auto e = loophole::model::parse_expr(text, origin, sink);
  if ((e == nullptr) != sink.has_errors()) __builtin_trap();
  loophole::model::DiagnosticSink sink2;
  const auto s = loophole::model::parse_stmts(text, origin, sink2);
  if ((s == nullptr) != sink2.has_errors()) __builtin_trap();
  if (e) (void)loophole::model::to_string(*e);
  if (s) (void)loophole::model::to_string(*s);
  return 0;
}
