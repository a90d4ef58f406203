// User text on its way into DOT (phase_graph.cpp's to_dot), made harmless in
// one place. Every name and label is written as a quoted DOT string: a `"`
// left bare would end it and let a ruleset add attributes of its own
// (`image=`, `shapefile=` make graphviz read files into the SVG), and a `\`
// would start one of graphviz's label escapes (`\N`, `\G`, `\l`). Control
// bytes and broken UTF-8 are what graphviz warns about or misreads; they
// become `?`. The output has no HTML-like labels (`<...>`), so `& < >` need
// nothing.
#pragma once

#include <string>
#include <string_view>

namespace loophole::model {

// `text` as the inside of a quoted DOT string: `"` and `\` escaped, a newline
// DOT's line break `\n`, other control bytes, DEL and bytes outside a valid
// UTF-8 sequence `?`; printable ASCII and UTF-8 sequences kept as they are.
[[nodiscard]] std::string dot_escaped(std::string_view text);

// `text` as a quoted DOT string (an id or a label).
[[nodiscard]] std::string dot_quoted(std::string_view text);

}  // namespace loophole::model
