// The fixtures both engine-agreement suites run on (tests/fixtures/{findings,
// semantics,smt}), and the test name each gets ("findings_dead_rule" style
// from "dead-rule/dead-rule.yaml": its folder and stem, non-alphanumerics as _).
#pragma once

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

namespace loophole::smt::testing {

inline std::vector<std::string> agreement_fixtures() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  const fs::path root = fs::path(LOOPHOLE_SOURCE_DIR) / "tests" / "fixtures";
  for (const char* dir : {"findings", "semantics", "smt"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (e.path().extension() == ".yaml") out.push_back(e.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string fixture_test_name(const std::string& path) {
  const std::filesystem::path p(path);
  std::string name = p.parent_path().filename().string() + "_" + p.stem().string();
  for (char& ch : name) {
    if (std::isalnum(static_cast<unsigned char>(ch)) == 0) ch = '_';
  }
  return name;
}

}  // namespace loophole::smt::testing
