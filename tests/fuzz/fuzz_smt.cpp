// libFuzzer target: the SMT engine against the explicit engine on whatever
// loads. A small game the explicit engine explores completely (up to 1,000
// states, every state within ten moves) is checked by bounded model
// checking to that depth as well, and the two must give the same answers
// with the same trace lengths, as tests/smt/agreement_test.cpp requires on
// the fixtures (tests/smt/answers.hpp). Games the SMT engine declines
// (unsupported constructs) and queries the solver gives up on are skipped.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "loophole/checker/explicit.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/smt/engine.hpp"

#include "answers.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace loophole;

constexpr std::uint64_t max_states = 1000;
constexpr int max_depth = 10;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_smt: %s\n", what.c_str());
  __builtin_trap();
}

bool gave_up(const std::vector<properties::Finding>& findings) {
  for (const auto& f : findings) {
    for (const std::string& d : f.details) {
      if (d.find("gave up") != std::string::npos) return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16 * 1024) return 0;
  const auto in = fuzz::load_input(data, size);
  if (!in->game) return 0;
  const model::Game& game = *in->game;
  const checker::Semantics sem(game);
  if (sem.layout().fields.size() > 64) return 0;

  checker::ExplicitOptions eo;
  eo.threads = 1;
  eo.max_states = max_states;
  eo.max_memory_bytes = std::uint64_t{256} << 20;
  const auto graph = checker::explore(sem, eo);
  if (graph->completion() != checker::Completion::complete) return 0;
  const int depth = static_cast<int>(graph->statistics().depth) - 1;
  if (depth > max_depth) return 0;

  smt::Engine engine(sem);
  if (engine.unsupported()) return 0;
  smt::Options o;
  o.depth = depth;
  o.induction = false;
  o.completeness = false;
  o.timeout_ms = 2000;
  const smt::Result r = engine.check(o, smt::testing::smt_questions());
  if (gave_up(r.findings)) return 0;

  std::vector<std::string> problems;
  const auto expl = smt::testing::within(
      smt::testing::answers(game, properties::check_all(*graph, smt::testing::selection()),
                            problems),
      depth, false);
  const auto bmc =
      smt::testing::within(smt::testing::answers(game, r.findings, problems), depth, false);
  for (const std::string& p : problems) fail(p);
  if (expl != bmc) {
    fail("the engines disagree within depth " + std::to_string(depth) + "\nexplicit:\n" +
         smt::testing::show(expl) + "smt:\n" + smt::testing::show(bmc));
  }
  return 0;
}
