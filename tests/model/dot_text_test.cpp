// DOT's escaping (model/src/dot_text.hpp) on hostile text, and the turn graph
// of a game whose every name is hostile (tests/common/hostile_names.hpp):
// each name stays inside its quoted string, no attribute but the writer's
// appears, and graphviz (when installed) reads the result without a warning.
#include "dot_text.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "loophole/model/diagnostics.hpp"
#include "loophole/model/phase_graph.hpp"

#include "hostile_names.hpp"

namespace loophole::model {
namespace {

TEST(DotText, OrdinaryNamesAndUtf8PassUnchanged) {
  for (const std::string name : {"research.draw", "turn start", "[window: opp \xc2\xb7 priority]",
                                 "Zw\xc3\xb6lf \xe2\x99\xa0 \xf0\x9f\x82\xa1", "a < b & c > d"}) {
    EXPECT_EQ(dot_escaped(name), name);
  }
}

TEST(DotText, QuotesBackslashesAndControlsAreEscaped) {
  EXPECT_EQ(dot_quoted("dot \"demo\""), "\"dot \\\"demo\\\"\"");
  EXPECT_EQ(dot_escaped("a\\N"), "a\\\\N");
  EXPECT_EQ(dot_escaped("trailing\\"), "trailing\\\\");
  EXPECT_EQ(dot_escaped("line\nbreak"), "line\\nbreak");
  EXPECT_EQ(dot_escaped("cr\rx"), "cr?x");
  EXPECT_EQ(dot_escaped("\x1b[31m"), "?[31m");
  EXPECT_EQ(dot_escaped(std::string("a\0b\x7f", 4)), "a?b?");
  EXPECT_EQ(dot_escaped("\xff\xfe ok \xc3"), "?? ok ?");
  EXPECT_EQ(dot_escaped("\xe2\x99"), "??");  // a sequence cut short
  EXPECT_EQ(dot_escaped(""), "");
}

// The quoted strings of one DOT text, and what lies between them, for the
// checks below; fails the test on an unterminated string.
struct Scanned {
  std::string outside;  // the text with every quoted string replaced by `"S"`
  std::vector<std::string> strings;
};

Scanned scan(const std::string& dot) {
  Scanned s;
  for (std::size_t i = 0; i < dot.size(); ++i) {
    if (dot[i] != '"') {
      s.outside += dot[i];
      continue;
    }
    std::string str;
    ++i;
    while (i < dot.size() && dot[i] != '"') {
      if (dot[i] == '\\' && i + 1 < dot.size()) str += dot[i++];
      str += dot[i++];
    }
    EXPECT_LT(i, dot.size()) << "unterminated string";
    s.strings.push_back(str);
    s.outside += "\"S\"";
  }
  return s;
}

TEST(DotText, AGraphOfHostileNamesKeepsThemInTheirStrings) {
  SourceManager sources;
  DiagnosticSink sink;
  sources.add("t.yaml", R"(loophole: 1
game: plain
windows:
  opp: {protocol: priority}
turn:
  phases:
    - name: research
      steps:
        - {name: draw, repeat_while: "turn_number == 2"}
        - {name: opportunity, window: opp, end_turn_if: "turn_number == 1"}
    - name: protect
      steps:
        - name: main
)");
  auto game = load_game("t.yaml", LoadOptions{}, sources, sink);
  ASSERT_TRUE(game.has_value()) << sink.render(sources);
  const std::string plain = to_dot(*game, build_phase_graph(*game), DotOptions{});
  const std::filesystem::path marker =
      std::filesystem::temp_directory_path() / ("loophole-dot-" + std::to_string(getpid()));
  test_support::rename_hostile(*game, marker.string());
  const std::string dot = to_dot(*game, build_phase_graph(*game), DotOptions{});

  // The same graph around other strings: the text outside them is unchanged.
  const Scanned a = scan(plain), b = scan(dot);
  EXPECT_EQ(a.outside, b.outside);
  EXPECT_EQ(a.strings.size(), b.strings.size());
  for (const std::string& s : b.strings) {
    for (const char ch : s) EXPECT_GE(static_cast<unsigned char>(ch), 0x20) << s;
  }

  if (std::system("command -v dot > /dev/null 2>&1") != 0) return;  // graphviz: optional here
  const std::filesystem::path file = marker.string() + ".dot";
  std::ofstream(file, std::ios::binary) << dot;
  const std::string log = marker.string() + ".log";
  const std::string command = "dot -Tcanon '" + file.string() + "' > /dev/null 2> '" + log + "'";
  EXPECT_EQ(std::system(command.c_str()), 0);
  std::ifstream in(log);
  std::stringstream warnings;
  warnings << in.rdbuf();
  EXPECT_EQ(warnings.str(), "");
  std::filesystem::remove(file);
  std::filesystem::remove(log);
}

}  // namespace
}  // namespace loophole::model
