// Engine agreement: the same fixtures through the explicit engine and the
// SMT engine. Explore explicitly, run BMC to the explicit search's depth, and
// require the same verdict for every deadlock group, rule gap, end condition
// and always/never/reachable property, and for each violation a trace of the
// same length (BFS and BMC both give shortest ones).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/smt/engine.hpp"

namespace loophole::smt {
namespace {

namespace fs = std::filesystem;
using properties::Finding;
using properties::Kind;
using properties::Verdict;

struct Answer {
  Verdict verdict;
  std::size_t trace;
  friend bool operator==(const Answer&, const Answer&) = default;
};
using Answers = std::map<std::string, Answer>;

bool compared(Kind k) {
  return k == Kind::deadlock || k == Kind::rule_gap || k == Kind::unreachable_win ||
         k == Kind::property_violation;
}

Answers answers(const std::vector<Finding>& found) {
  Answers out;
  for (const auto& f : found) {
    if (!compared(f.kind) || f.message.starts_with("candidate")) continue;
    out[std::string(properties::to_string(f.kind)) + " " + f.rule + " " + f.message] =
        Answer{f.verdict, f.trace ? f.trace->size() : 0};
  }
  return out;
}

std::string show(const Answers& a) {
  std::string s;
  for (const auto& [k, v] : a) {
    s += "  " + k + " -> " + std::string(properties::to_string(v.verdict)) + " " +
         std::to_string(v.trace) + "\n";
  }
  return s;
}

properties::CheckSelection selection() {
  properties::CheckSelection s;
  s.response_loops = false;
  s.stalemates = false;
  s.dead_rules = false;
  s.report_holds = true;
  return s;
}

std::vector<std::string> fixtures() {
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

class Agreement : public ::testing::TestWithParam<std::string> {};

TEST_P(Agreement, SameVerdictsAndTraceLengths) {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  const auto game = model::load_game(GetParam(), {}, sources, sink);
  ASSERT_TRUE(game) << sink.render(sources);
  const checker::Semantics sem(*game);
  checker::ExplicitOptions eo;
  eo.threads = 1;
  const auto graph = checker::explore(sem, eo);
  ASSERT_EQ(graph->completion(), checker::Completion::complete);
  const Answers expl = answers(properties::check_all(*graph, selection()));
  Engine engine(sem);
  ASSERT_FALSE(engine.unsupported()) << engine.unsupported()->message();
  Options o;
  o.depth = static_cast<int>(graph->statistics().depth) + 2;
  o.timeout_ms = 20000;
  const Result r = engine.check(o, selection());
  const Answers smt = answers(r.findings);
  EXPECT_EQ(expl, smt) << "explicit:\n" << show(expl) << "smt (depth " << r.statistics.depth
                       << (r.statistics.complete ? ", complete" : "") << ", "
                       << r.statistics.paths << " paths):\n" << show(smt);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Agreement, ::testing::ValuesIn(fixtures()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = fs::path(info.param).parent_path().filename().string() +
                                              "_" + fs::path(info.param).stem().string();
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace loophole::smt
