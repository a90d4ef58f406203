// libFuzzer target for the checker behind the front end: every input that
// loads into a Game is explored two independent ways, and they must agree.
// Breadth-first over the reference semantics (up to a few hundred states),
// the compiled successor generator must give each state's successors exactly
// and the compiled conditions (Conditions) the reference's verdicts
// (tests/checker/disagreement.hpp); when that walk is complete, the explicit
// engine on one thread (inserting each successor as it goes) and on two
// (claiming them concurrently) must find the same states and transitions,
// and the properties (one analysis after another on the first graph, side
// by side on the second) the same findings with the same traces, each of
// which must replay on the semantics. The front-end target only proves that
// rulesets load; this one runs rulesets nobody wrote by hand through the
// code that checks them.
//
// With LOOPHOLE_FUZZ_NATIVE set, the compiled generator runs as native code
// (--native, checker/src/explicit/native.hpp): each input is translated into
// C and compiled (a few per second; into $LOOPHOLE_CACHE, which grows by
// ~100 KB an input), and a translation the C compiler rejects is a failure.
// For campaigns of their own, not the CI's smoke run.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <vector>

#include "loophole/checker/explicit.hpp"
#include "loophole/properties/check.hpp"

#include "disagreement.hpp"
#include "explicit/bfs.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace loophole;
using checker::StateVec;

constexpr std::size_t max_states = 400;

// A finding as the thread-count comparison sees it (traces by their moves).
std::string summary(const properties::Finding& f) {
  std::string out = std::string(properties::to_string(f.kind)) + " " +
                    std::string(properties::to_string(f.verdict)) + " " +
                    std::string(properties::to_string(f.loop)) + " " + f.rule + " " + f.message;
  if (f.trace) {
    out += " trace " + std::to_string(f.trace->initial) + ":";
    for (const checker::TraceStep& step : f.trace->steps)
      out += " " + std::to_string(step.successor);
    out += " loop " + std::to_string(f.trace->loop_start);
  }
  return out;
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_engines: %s\n", what.c_str());
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16 * 1024) return 0;
  const auto in = fuzz::load_input(data, size);
  if (!in->game) return 0;
  const model::Game& game = *in->game;
  const checker::Semantics sem(game);
  if (sem.layout().fields.size() > 512) return 0;  // a big game: slow, not interesting here
  static const bool native = std::getenv("LOOPHOLE_FUZZ_NATIVE") != nullptr;
  const checker::CompiledSystem compiled(
      sem, native ? checker::NativeMode::on : checker::NativeMode::off);
  if (native && compiled.generator() != "native") fail(compiled.generator());
  checker::testing::AgreementScratch x(sem);
  const auto conditions = checker::testing::all_conditions(game);
  const checker::Conditions compiled_conditions(sem, conditions);
  checker::testing::ConditionTally tally;

  std::unordered_set<StateVec, checker::testing::VecHash> seen;
  std::vector<StateVec> queue;
  for (const StateVec& s : sem.initial_states()) {
    if (seen.insert(s).second) queue.push_back(s);
    if (queue.size() > max_states) return 0;
  }
  std::uint64_t transitions = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const StateVec s = queue[head];
    const std::string diff = checker::testing::disagreement(sem, compiled, s, x);
    if (!diff.empty()) {
      fail("state " + std::to_string(head) + " (" + checker::testing::show(s, sem.layout()) +
           "): compiled and reference successors disagree: " + diff);
    }
    const std::string cdiff =
        checker::testing::condition_disagreement(sem, compiled_conditions, conditions, s, tally);
    if (!cdiff.empty()) {
      fail("state " + std::to_string(head) + " (" + checker::testing::show(s, sem.layout()) +
           "): " + cdiff);
    }
    transitions += x.ref.size();
    for (const checker::Successor& succ : x.ref) {
      if (seen.insert(succ.state).second) queue.push_back(succ.state);
    }
    if (queue.size() > max_states) return 0;  // only complete walks are compared below
  }

  std::string findings[2];
  const auto system = checker::rules_system(sem);
  for (const int threads : {1, 2}) {
    checker::ExplicitOptions options;
    options.threads = threads;
    options.max_memory_bytes = std::uint64_t{256} << 20;
    // (Two threads hand every chunk to the team, however small: the claims
    // that one thread, inserting as it goes, never makes.)
    checker::SearchTuning tuning;
    if (threads > 1) tuning.solo_below = 0;
    const auto g = checker::explore_system(*system, options, &sem, tuning);
    if (g->completion() != checker::Completion::complete || g->size() != queue.size() ||
        g->statistics().transitions != transitions) {
      fail("the explicit engine on " + std::to_string(threads) + " thread(s) found " +
           std::to_string(g->size()) + " states and " +
           std::to_string(g->statistics().transitions) + " transitions, the reference walk " +
           std::to_string(queue.size()) + " and " + std::to_string(transitions));
    }
    // (The analyses run side by side on the two-thread graph: joined, their
    // findings must be those of one thread's analyses in a row.)
    for (const properties::Finding& f : properties::run_checks(*g, {}, nullptr, threads).findings) {
      findings[threads - 1] += summary(f) + "\n";
      if (f.trace && !sem.replay(*f.trace).ok) {
        fail("the trace of '" + summary(f) + "' does not replay: " + sem.replay(*f.trace).error);
      }
    }
  }
  if (findings[0] != findings[1]) {
    fail("findings differ between one thread:\n" + findings[0] + "and two:\n" + findings[1]);
  }
  return 0;
}
