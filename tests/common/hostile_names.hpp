// Names a hostile ruleset could give, for the tests of the exports' escaping
// (Promela, native C, DOT): text that closes comments and strings, splices
// lines, starts escapes, or is no text at all. A ruleset from a pull request
// is untrusted input, and only the game name (and the file name) is free text
// in the language, so rename_hostile() also gives every other name of a
// loaded game one of these, as a Game built in code could have. The payload
// creates `marker` when its C runs: a test asserts that it never does.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "loophole/model/game.hpp"

namespace loophole::test_support {

// A comment break-out that, once in pan.c, runs at pan's start (gcc, clang).
inline std::string c_payload(const std::string& marker) {
  return "*/ c_decl { __attribute__((constructor)) static void lh_pwn(void) { system(\"touch " +
         marker + "\"); } } /*";
}

inline std::vector<std::string> hostile_names(const std::string& marker) {
  return {
      c_payload(marker),
      "*/ c_code { system(\"touch " + marker + "\"); } /*",
      "\" ] ; node [image=\"/etc/passwd\"] x [label=\"",
      "back\\slash\\",
      "line\nbreak */ c_code { x } /*",
      "carriage\rreturn",
      std::string("controls \x01\x02\x1f\x7f end"),
      "\x1b[31mred\x1b[0m",
      "trigraph *?\?/\n/ c_code { x } /*",
      "splice \\\n*/ c_code { x } /*",
      "// line comment\n#include \"/etc/passwd\"",
      "%s%n%x%%",
      "Zw\xc3\xb6lf \xe2\x99\xa0 \xf0\x9f\x82\xa1",
      "\xff\xfe broken \xc3",
      "../../etc/passwd",
      "c_code",
      "inline proctype c_expr",
      std::string(1000, 'n') + "*/",
  };
}

// Every name of `game` replaced by one of hostile_names(marker), in turn.
inline void rename_hostile(model::Game& game, const std::string& marker) {
  const std::vector<std::string> names = hostile_names(marker);
  std::size_t next = 0;
  auto rename = [&](std::string& name) { name = names[next++ % names.size()]; };
  rename(game.name);
  for (auto& p : game.params) rename(p.name);
  for (auto& e : game.enums) {
    rename(e.name);
    for (auto& v : e.values) rename(v);
  }
  for (auto& t : game.tags) rename(t);
  for (auto& k : game.kinds) rename(k.name);
  for (auto& z : game.zones) rename(z.name);
  for (auto& v : game.vars) {
    rename(v.name);
    for (auto& f : v.fields) rename(f.name);
  }
  for (auto& e : game.events) rename(e.name);
  for (auto& p : game.phases) rename(p.name);
  for (auto& s : game.steps) {
    rename(s.name);
    if (!s.repeat_text.empty()) rename(s.repeat_text);  // (empty: no condition)
    if (!s.end_turn_text.empty()) rename(s.end_turn_text);
  }
  for (auto& w : game.windows) rename(w.name);
  for (auto& a : game.actions) rename(a.name);
  for (auto& t : game.triggers) rename(t.name);
  for (auto& e : game.end_conditions) rename(e.name);
  for (auto& p : game.properties) rename(p.name);
  for (auto& s : game.slots) rename(s.name);
}

}  // namespace loophole::test_support
