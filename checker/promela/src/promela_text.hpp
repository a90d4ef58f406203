// User text on its way into the Promela export, made harmless in one place.
// SPIN runs the model through the C preprocessor, so a comment is a C comment:
// text that could close it (`*/`), splice a line (`\` + newline, and the
// trigraph `??/` that spells `\`), or open another (`/*`) would let a ruleset
// write Promela, and through `c_code`/`c_decl` the C of pan, which the
// documented pipeline compiles and runs. Identifiers are generated (`s<i>_`
// and a sanitised tail), so no user text can form a keyword.
#pragma once

#include <string>
#include <string_view>

namespace loophole::promela::detail {

// `text` as it may stand inside a `/* ... */` comment: printable ASCII is
// kept (ordinary names byte for byte), except that a backslash, the `/` of
// `*/`, the `*` of `/*` and the second `?` of `??` are spelled `\xNN`, as is
// every other byte (controls, newlines, DEL, UTF-8 sequences).
[[nodiscard]] std::string comment_text(std::string_view text);

// The tail of a generated identifier: letters and digits kept, runs of
// anything else one `_`, at most 40 characters (`s<i>_` + tail is a valid
// identifier, unique by its index, and no keyword: none starts `s<digit>`).
[[nodiscard]] std::string identifier_tail(std::string_view text);

}  // namespace loophole::promela::detail
