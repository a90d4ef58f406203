// Differential tests against SPIN: every fixture and every seed ruleset (at
// the reduced scopes of tests/seeds) is exported with promela::to_promela,
// compiled with `spin -a` and a C compiler (pan_compilers), and checked with
// pan. SPIN and loophole's explicit engine must agree exactly on the number
// of reachable states (pan stores loophole's states +
// promela::state_offset), on whether a deadlock exists, on whether a
// non-progress cycle exists (pan -l on the model built with LH_PROGRESS; in
// loophole a cycle of moves none of which enters a step) and on whether an
// assertion fails (a reachable rule gap, or an `always` / `never` property
// violated in a reachable state).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/explored.hpp"
#include "loophole/checker/semantics.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/model/source.hpp"
#include "loophole/promela/promela.hpp"

#include "hostile_names.hpp"

namespace loophole {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string ruleset;  // relative to the source root
  std::map<std::string, std::int64_t> params;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.ruleset; }

struct Verdicts {
  std::uint64_t states = 0;
  bool deadlock = false;
  bool non_progress_cycle = false;
  bool assertion = false;
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs a shell command in `dir`; its output goes to `log`.
int run(const fs::path& dir, const std::string& command, const std::string& log) {
  const std::string full = "cd '" + dir.string() + "' && " + command + " > " + log + " 2>&1";
  const int status = std::system(full.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Whether some cycle uses only non-progress moves (iterative three-colour DFS).
bool has_non_progress_cycle(const checker::ExploredGraph& g) {
  const std::uint64_t n = g.size();
  std::vector<std::uint8_t> colour(n, 0);
  std::vector<std::vector<checker::StateId>> succ(n);
  for (checker::StateId v = 0; v < n; ++v) {
    for (const auto& e : g.edges(v)) {
      if (!e.progress) succ[v].push_back(e.to);
    }
  }
  std::vector<std::pair<checker::StateId, std::size_t>> stack;
  for (checker::StateId root = 0; root < n; ++root) {
    if (colour[root] != 0) continue;
    stack.emplace_back(root, 0);
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [v, i] = stack.back();
      if (i < succ[v].size()) {
        const checker::StateId w = succ[v][i++];
        if (colour[w] == 1) return true;
        if (colour[w] == 0) {
          colour[w] = 1;
          stack.emplace_back(w, 0);
        }
      } else {
        colour[v] = 2;
        stack.pop_back();
      }
    }
  }
  return false;
}

bool restricted_to(const model::Game& game, const model::Property& p, int step) {
  if (p.at_phases.empty() && p.at_steps.empty()) return true;
  for (int s : p.at_steps) {
    if (s == step) return true;
  }
  for (int ph : p.at_phases) {
    if (step >= 0 && step < static_cast<int>(game.steps.size()) && game.steps[step].phase == ph) {
      return true;
    }
  }
  return false;
}

Verdicts loophole_verdicts(const checker::Semantics& sem) {
  checker::ExplicitOptions options;
  options.threads = 1;
  options.symmetry = false;  // pan counts every concrete state
  const auto g = checker::explore(sem, options);
  EXPECT_EQ(g->completion(), checker::Completion::complete);
  const auto& layout = sem.layout();
  const auto& game = sem.game();
  Verdicts v;
  v.states = g->size();
  for (checker::StateId id = 0; id < g->size(); ++id) {
    const checker::StateVec s = g->state(id);
    if (s[layout.over] == 0 && g->edges(id).empty()) v.deadlock = true;
    if (s[layout.over] == 2) v.assertion = true;
    for (const auto& p : game.properties) {
      if (p.kind != model::Property::Kind::always && p.kind != model::Property::Kind::never) {
        continue;
      }
      if (!p.expr || !restricted_to(game, p, s[layout.step])) continue;
      const bool holds = sem.holds(*p.expr, s);
      if ((p.kind == model::Property::Kind::always) != holds) v.assertion = true;
    }
  }
  v.non_progress_cycle = has_non_progress_cycle(*g);
  return v;
}

std::optional<std::uint64_t> stored_states(const std::string& out) {
  static const std::regex re(R"(([0-9]+) states, stored)");
  std::smatch m;
  if (!std::regex_search(out, m, re)) return std::nullopt;
  return std::stoull(m[1].str());
}

int errors(const std::string& out) {
  static const std::regex re(R"(errors: ([0-9]+))");
  std::smatch m;
  if (!std::regex_search(out, m, re)) return -1;
  return std::stoi(m[1].str());
}

std::string case_name(const Case& c) {
  std::string name;
  for (char ch : c.ruleset) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

std::vector<Case> all_cases() {
  std::vector<Case> out;
  const fs::path root = LOOPHOLE_SOURCE_DIR;
  std::vector<std::string> files;
  for (const char* dir : {"tests/fixtures/semantics", "tests/fixtures/findings"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (e.path().extension() == ".yaml") files.push_back(fs::relative(e.path(), root).string());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    // Values beyond 32 bits, which pan cannot compute: the export refuses
    // them (ExportRefusesValuesBeyondInt32).
    if (f.find("overflow") != std::string::npos) continue;
    out.push_back(Case{f, {}});
  }
  // The seed rulesets at the reduced scopes of tests/seeds/seeds_explore_test.cpp.
  out.push_back(Case{
      "rulesets/containment.yaml",
      {{"hand_target", 1}, {"item_copies", 0}, {"opportunity_copies", 0}, {"event_copies", 0}}});
  out.push_back(Case{"rulesets/cosmere.yaml",
                     {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}}});
  out.push_back(
      Case{"rulesets/operators.yaml",
           {{"item_copies", 0}, {"attack_copies", 0}, {"defence_copies", 0}, {"opening_hand", 0}}});
  out.push_back(Case{"rulesets/speed-biomes.yaml", {{"gear_copies", 0}, {"anomaly_copies", 0}}});
  out.push_back(Case{"rulesets/examples/speed-biomes-pool-game.yaml",
                     {{"opening_hand", 2}, {"quick_step_copies", 0}}});
  return out;
}

// The C compilers pan may be built with: LOOPHOLE_PAN_CC alone when set,
// else those of tcc, clang and gcc that are installed, in that order (the
// next is tried when one cannot compile a model). Compiling pan.c twice is
// most of each test's time: tcc compiles operators' pan.c in 0.17 s, clang
// -O0 in 4.7 s and gcc -O0 in about 9 (pan runs slower from tcc, but these
// models are small); every pan explores the same states.
const std::vector<std::string>& pan_compilers() {
  static const std::vector<std::string> compilers = [] {
    const char* chosen = std::getenv("LOOPHOLE_PAN_CC");
    if (chosen != nullptr && *chosen != '\0') return std::vector<std::string>{chosen};
    std::vector<std::string> out;
    for (const char* c : {"tcc", "clang", "gcc"}) {
      if (std::system(("command -v " + std::string(c) + " > /dev/null 2>&1").c_str()) == 0) {
        out.emplace_back(c);
      }
    }
    return out;
  }();
  return compilers;
}

// Builds `exe` from dir/pan.c with `defines`, trying pan_compilers() in
// turn; 0 when one succeeded. `log` holds the last attempt's messages.
int compile_pan(const fs::path& dir, const std::string& exe, const std::string& defines,
                const std::string& log) {
  int status = -1;
  for (const std::string& cc : pan_compilers()) {
    status = run(dir, cc + " -O0 -w -DVECTORSZ=4096 -o " + exe + " " + defines + " pan.c", log);
    if (status == 0) break;
  }
  return status;
}

class SpinAgrees : public ::testing::TestWithParam<Case> {};

TEST_P(SpinAgrees, OnStatesDeadlocksCyclesAndAssertions) {
  const Case& c = GetParam();
  if (std::system("command -v spin > /dev/null 2>&1") != 0) {
    GTEST_FAIL() << "spin is not installed (scripts/setup installs it)";
  }
  model::SourceManager sources;
  model::DiagnosticSink sink;
  model::LoadOptions options;
  options.param_overrides = c.params;
  options.override_origin = model::SourceSpan{"<test>", 0, 0, 0};
  options.include_roots = {"rulesets"};  // the example shares rulesets/include and cards
  const auto game = model::load_game(c.ruleset, options, sources, sink);
  ASSERT_TRUE(game.has_value()) << sink.render(sources);
  const checker::Semantics sem(*game);
  const Verdicts expected = loophole_verdicts(sem);

  const fs::path dir = fs::temp_directory_path() /
                       ("loophole-spin-" + std::to_string(::getpid()) + "-" + case_name(c));
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream out(dir / "model.pml");
    out << promela::to_promela(*game, c.ruleset);
  }
  // Safety: state count, deadlocks (invalid end states), assertions.
  ASSERT_EQ(run(dir, "spin -o2 -a model.pml", "spin.log"), 0) << read_text(dir / "spin.log");
  ASSERT_FALSE(pan_compilers().empty()) << "no C compiler (scripts/setup installs tcc)";
  ASSERT_EQ(compile_pan(dir, "pan", "-DSAFETY", "cc.log"), 0) << read_text(dir / "cc.log");
  // (-m, the depth bound: the deepest of these searches reaches ~1,400, and
  // pan allocates the bound up front, 0.15 s a run at a million.)
  const std::string pan = "./pan -m100000 -w20 -n ";
  ASSERT_EQ(run(dir, pan + "-c0 -A -E", "count.log"), 0);
  ASSERT_EQ(run(dir, pan + "-A", "deadlock.log"), 0);
  ASSERT_EQ(run(dir, pan + "-E", "assert.log"), 0);
  // Non-progress cycles: the model with its progress state.
  ASSERT_EQ(run(dir, "spin -o2 -DLH_PROGRESS -a model.pml", "spin-np.log"), 0)
      << read_text(dir / "spin-np.log");
  ASSERT_EQ(compile_pan(dir, "pan_np", "-DNP", "cc-np.log"), 0) << read_text(dir / "cc-np.log");
  ASSERT_EQ(run(dir, "./pan_np -m100000 -w20 -n -l -A", "np.log"), 0);

  const std::string count = read_text(dir / "count.log");
  const auto states = stored_states(count);
  ASSERT_TRUE(states.has_value()) << count;
  EXPECT_EQ(*states, expected.states + promela::state_offset) << count;
  for (const char* log : {"count.log", "deadlock.log", "assert.log", "np.log"}) {
    const std::string text = read_text(dir / log);
    EXPECT_EQ(text.find("max search depth too small"), std::string::npos) << log << ":\n" << text;
  }
  EXPECT_EQ(errors(read_text(dir / "deadlock.log")) > 0, expected.deadlock)
      << read_text(dir / "deadlock.log");
  EXPECT_EQ(errors(read_text(dir / "assert.log")) > 0, expected.assertion)
      << read_text(dir / "assert.log");
  EXPECT_EQ(errors(read_text(dir / "np.log")) > 0, expected.non_progress_cycle)
      << read_text(dir / "np.log");
  if (!HasFailure()) fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(AllModels, SpinAgrees, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return case_name(info.param);
                         });

// A ruleset from a pull request is untrusted: its names must not reach pan.c
// as code. Each case is exported with every name (and the file name) hostile
// (tests/common/hostile_names.hpp) and run through the documented pipeline,
// spin -a, gcc, ./pan: SPIN parses the model, pan counts loophole's states and
// finds its verdict on assertions, and the payload's marker file never appears.
class HostileNames : public ::testing::TestWithParam<std::string> {};

// The pipeline's C compiler: gcc as documented (clang else), which run the
// payload's constructor if it ever got into pan.c (tcc does not).
std::string payload_compiler() {
  for (const char* c : {"gcc", "clang"}) {
    if (std::system(("command -v " + std::string(c) + " > /dev/null 2>&1").c_str()) == 0) return c;
  }
  return {};
}

fs::path hostile_dir(const std::string& what) {
  const fs::path dir = fs::temp_directory_path() /
                       ("loophole-spin-hostile-" + std::to_string(::getpid()) + "-" + what);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST_P(HostileNames, ReachNoCodeAndChangeNoVerdict) {
  if (std::system("command -v spin > /dev/null 2>&1") != 0) {
    GTEST_FAIL() << "spin is not installed (scripts/setup installs it)";
  }
  const std::string cc = payload_compiler();
  ASSERT_FALSE(cc.empty()) << "neither gcc nor clang (scripts/setup installs them)";
  model::SourceManager sources;
  model::DiagnosticSink sink;
  auto game = model::load_game(GetParam(), {}, sources, sink);
  ASSERT_TRUE(game.has_value()) << sink.render(sources);
  const Verdicts expected = loophole_verdicts(checker::Semantics(*game));

  const fs::path dir = hostile_dir(case_name(Case{GetParam(), {}}));
  const fs::path marker = dir / "pwned";
  test_support::rename_hostile(*game, marker.string());
  ASSERT_EQ(game->name, test_support::c_payload(marker.string()));
  {
    std::ofstream out(dir / "model.pml", std::ios::binary);
    out << promela::to_promela(
        *game, "rulesets/" + test_support::c_payload(marker.string()) + "\\\n.yaml");
  }
  ASSERT_EQ(run(dir, "spin -o2 -a model.pml", "spin.log"), 0) << read_text(dir / "spin.log");
  ASSERT_EQ(run(dir, cc + " -O0 -w -DSAFETY -DVECTORSZ=4096 -o pan pan.c", "cc.log"), 0)
      << read_text(dir / "cc.log");
  ASSERT_EQ(run(dir, "./pan -m100000 -w20 -n -c0 -A -E", "count.log"), 0);
  ASSERT_EQ(run(dir, "./pan -m100000 -w20 -n -E", "assert.log"), 0);
  EXPECT_FALSE(fs::exists(marker)) << "the payload in a name ran";
  const std::string count = read_text(dir / "count.log");
  const auto states = stored_states(count);
  ASSERT_TRUE(states.has_value()) << count;
  EXPECT_EQ(*states, expected.states + promela::state_offset) << count;
  EXPECT_EQ(errors(read_text(dir / "assert.log")) > 0, expected.assertion)
      << read_text(dir / "assert.log");
  if (!HasFailure()) fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, HostileNames,
                         ::testing::Values("tests/fixtures/semantics/draw.yaml",
                                           "tests/fixtures/semantics/priority.yaml",
                                           "tests/fixtures/findings/property-violation/alarm.yaml"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return case_name(Case{info.param, {}});
                         });

// The oracle above works: the same payload, left to close the header comment
// as an unescaped name once did, runs when pan starts.
TEST(HostileNames, ThePayloadRunsWhenItEscapesItsComment) {
  const std::string cc = payload_compiler();
  if (std::system("command -v spin > /dev/null 2>&1") != 0 || cc.empty()) {
    GTEST_FAIL() << "spin and gcc or clang are needed (scripts/setup installs them)";
  }
  const fs::path dir = hostile_dir("oracle");
  const fs::path marker = dir / "pwned";
  {
    std::ofstream out(dir / "model.pml");
    out << "/* Promela export of '" << test_support::c_payload(marker.string())
        << "' */\nbyte x = 0;\nactive proctype game() { x = 1 }\n";
  }
  ASSERT_EQ(run(dir, "spin -a model.pml", "spin.log"), 0) << read_text(dir / "spin.log");
  ASSERT_EQ(run(dir, cc + " -O0 -w -o pan pan.c", "cc.log"), 0) << read_text(dir / "cc.log");
  ASSERT_EQ(run(dir, "./pan", "pan.log"), 0);
  EXPECT_TRUE(fs::exists(marker));
  if (!HasFailure()) fs::remove_all(dir);
}

// The export is the same text for the same game (no addresses, no clock).
// pan computes in 32-bit integers: a game whose values can leave them is
// refused, at the first expression that can, rather than exported wrapped.
TEST(PromelaExport, RefusesValuesBeyondInt32) {
  for (const auto& [file, text, line, col] :
       {std::tuple<std::string, std::string, int, int>{
            "tests/fixtures/findings/rule-gap/overflow.yaml", "big", 16, 19},
        {"tests/fixtures/semantics/overflow-ops.yaml", "low", 0, 0}}) {
    model::SourceManager sources;
    model::DiagnosticSink sink;
    const auto game = model::load_game(file, {}, sources, sink);
    ASSERT_TRUE(game.has_value()) << sink.render(sources);
    try {
      (void)promela::to_promela(*game, file);
      ADD_FAILURE() << file << " was exported";
    } catch (const promela::Unsupported& e) {
      EXPECT_EQ(std::string(e.what()).rfind("the Promela export computes in 32-bit integers, "
                                            "as pan does, and '",
                                            0),
                0u)
          << e.what();
      if (line > 0) {
        EXPECT_EQ(e.what(), "the Promela export computes in 32-bit integers, as pan does, and '" +
                                text + "' can take values beyond them");
        EXPECT_EQ(e.where().line, static_cast<std::uint32_t>(line));
        EXPECT_EQ(e.where().col, static_cast<std::uint32_t>(col));
      }
    }
  }
  // Within 32 bits, the same game exports.
  model::SourceManager sources;
  model::DiagnosticSink sink;
  model::LoadOptions small;
  small.param_overrides = {{"big", 1000}};
  const auto game =
      model::load_game("tests/fixtures/findings/rule-gap/overflow.yaml", small, sources, sink);
  ASSERT_TRUE(game.has_value()) << sink.render(sources);
  EXPECT_NE(promela::to_promela(*game, "overflow.yaml").find("proctype"), std::string::npos);
}

TEST(PromelaExport, IsDeterministic) {
  model::SourceManager sources;
  model::DiagnosticSink sink;
  const auto game = model::load_game("tests/fixtures/semantics/priority.yaml", {}, sources, sink);
  ASSERT_TRUE(game.has_value());
  const std::string a = promela::to_promela(*game, "priority.yaml");
  EXPECT_EQ(a, promela::to_promela(*game, "priority.yaml"));
  EXPECT_NE(a.find("active proctype game()"), std::string::npos);
  EXPECT_NE(a.find("end_over: false"), std::string::npos);
  EXPECT_NE(a.find("progress_lh: goto lh_loop"), std::string::npos);
}

}  // namespace
}  // namespace loophole
