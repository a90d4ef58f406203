// What the seed ruleset tests share: where the rulesets and the seed
// documents are, a parameterised case's name, a file's text, and a
// finding's one-line description as the pinned lists write it.
#pragma once

#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "loophole/properties/finding.hpp"

namespace loophole::seeds {

namespace fs = std::filesystem;

// A parameterised case's name: the ruleset's file name without its
// extension, letters and digits only ("speedbiomespoolgame").
inline std::string case_name(const char* ruleset) {
  const char* r = ruleset;
  if (const char* slash = std::strrchr(r, '/')) r = slash + 1;
  std::string name;
  for (const char* p = r; *p != 0 && *p != '.'; ++p) {
    if (std::isalnum(static_cast<unsigned char>(*p)) != 0) name += *p;
  }
  return name;
}

inline std::string source_dir() { return LOOPHOLE_SOURCE_DIR; }
inline std::string ruleset_path(const std::string& rel) {
  return source_dir() + "/rulesets/" + rel;
}
inline fs::path seeds_dir() { return fs::path(source_dir()) / ".." / "shared" / "seeds"; }

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// "kind rule severity line:col[ class/player]"
inline std::string describe(const properties::Finding& f) {
  std::string s = std::string(properties::to_string(f.kind)) + " " + f.rule + " " +
                  std::string(properties::to_string(f.severity)) + " " +
                  std::to_string(f.where.line) + ":" + std::to_string(f.where.col);
  if (f.loop != properties::LoopClass::none) {
    s += " " + std::string(properties::to_string(f.loop));
    if (f.loop_player >= 0) s += "/P" + std::to_string(f.loop_player + 1);
  }
  return s;
}

}  // namespace loophole::seeds
