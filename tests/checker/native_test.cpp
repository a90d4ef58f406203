// --native (checker/src/explicit/native.hpp): the compiled generator's
// programs as machine code. That it gives the reference's successors on
// every state of every ruleset is checked in compiled_test.cpp (Native.*);
// here: the search on it, the cache, and what happens without a compiler.
#include "explicit/native.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "loophole/checker/explicit.hpp"

#include "explicit/compiled.hpp"
#include "explicit/compiled_program.hpp"
#include "hostile_names.hpp"
#include "loaded_game.hpp"
#include "native_cache.hpp"
#include "sanitized.hpp"

namespace loophole::checker {
namespace {

namespace fs = std::filesystem;

// A fresh cache directory, and the compiler named by LOOPHOLE_NATIVE_CC, for
// one test; both as they were afterwards.
class Environment {
 public:
  explicit Environment(const std::string& cc = {}) {
    static int made = 0;
    dir_ = fs::temp_directory_path() /
           ("loophole-native-test-" + std::to_string(getpid()) + "-" + std::to_string(++made));
    fs::remove_all(dir_);
    ::setenv("LOOPHOLE_CACHE", dir_.c_str(), 1);
    if (cc.empty()) {
      ::unsetenv("LOOPHOLE_NATIVE_CC");
    } else {
      ::setenv("LOOPHOLE_NATIVE_CC", cc.c_str(), 1);
    }
  }
  ~Environment() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    ::unsetenv("LOOPHOLE_NATIVE_CC");
    testing::use_test_native_cache();
  }
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  [[nodiscard]] const fs::path& dir() const { return dir_; }
  [[nodiscard]] std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().extension());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  fs::path dir_;
};

// A C compiler that takes two minutes, in a process it starts (as cc
// starts cc1, as and ld), whose pid it writes down.
class SlowCompiler {
 public:
  SlowCompiler()
      : path_(fs::temp_directory_path() / ("loophole-slow-cc-" + std::to_string(getpid()))),
        pid_file_(path_.string() + ".pid") {
    fs::remove(pid_file_);
    {
      std::ofstream out(path_);
      out << "#!/bin/sh\nsleep 120 &\necho $! >" << pid_file_.string() << "\nwait\n";
    }
    fs::permissions(path_, fs::perms::owner_all);
  }
  ~SlowCompiler() {
    std::error_code ec;
    fs::remove(path_, ec);
    fs::remove(pid_file_, ec);
  }
  SlowCompiler(const SlowCompiler&) = delete;
  SlowCompiler& operator=(const SlowCompiler&) = delete;

  [[nodiscard]] const fs::path& path() const { return path_; }
  void wait_until_started() const {
    for (int i = 0; i < 2000 && !fs::exists(pid_file_); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  // Its process is gone too (or a zombie nobody reaps yet).
  void expect_gone() const {
    std::ifstream in(pid_file_);
    pid_t child = 0;
    ASSERT_TRUE(in >> child) << "the slow compiler did not start";
    bool gone = false;
    for (int i = 0; i < 500 && !gone; ++i) {
      std::ifstream status("/proc/" + std::to_string(child) + "/status");
      std::string line;
      while (std::getline(status, line) && line.rfind("State:", 0) != 0) {
      }
      gone = !status || line.find('Z') != std::string::npos;
      if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_TRUE(gone) << "pid " << child;
  }

 private:
  fs::path path_, pid_file_;
};

std::unique_ptr<test_support::LoadedGame> cosmere() {
  auto l = test_support::load_game(
      "rulesets/cosmere.yaml",
      {.params = {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}},
       .with_semantics = true});
  EXPECT_TRUE(l->sem) << l->diagnostics();
  return l;
}

std::unique_ptr<test_support::LoadedGame> operators() {
  auto l = test_support::load_game("rulesets/operators.yaml", {.params = {{"item_copies", 0},
                                                                          {"attack_copies", 0},
                                                                          {"defence_copies", 0},
                                                                          {"opening_hand", 0}},
                                                               .with_semantics = true});
  EXPECT_TRUE(l->sem) << l->diagnostics();
  return l;
}

void expect_same_graph(const ExploredGraph& native, const ExploredGraph& interpreted) {
  ASSERT_EQ(native.size(), 46903U);
  ASSERT_EQ(interpreted.size(), 46903U);
  EXPECT_EQ(native.statistics().transitions, interpreted.statistics().transitions);
  EXPECT_EQ(native.statistics().depth, interpreted.statistics().depth);
  std::vector<Edge> a, b;
  StateVec sa, sb;
  for (StateId id = 0; id < native.size(); ++id) {
    native.state_into(id, sa);
    interpreted.state_into(id, sb);
    native.edges_into(id, a);
    interpreted.edges_into(id, b);
    ASSERT_EQ(sa, sb) << "state " << id;
    ASSERT_EQ(a.size(), b.size()) << "state " << id;
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i].to, b[i].to) << "state " << id << " edge " << i;
      ASSERT_EQ(a[i].kind, b[i].kind) << "state " << id << " edge " << i;
      ASSERT_EQ(a[i].progress, b[i].progress) << "state " << id << " edge " << i;
      ASSERT_EQ(a[i].chooser, b[i].chooser) << "state " << id << " edge " << i;
    }
  }
}

TEST(Native, ExploresTheSameGraphAsTheInterpreter) {
  testing::use_test_native_cache();
  const auto l = operators();
  ASSERT_TRUE(l->sem);
  for (const int threads : {1, 2}) {
    ExplicitOptions options;
    options.threads = threads;
    const auto interpreted = explore(*l->sem, options);
    options.native = NativeMode::on;
    const auto native = explore(*l->sem, options);
    EXPECT_EQ(interpreted->statistics().generator, "compiled");
    EXPECT_EQ(native->statistics().generator, "native");
    expect_same_graph(*native, *interpreted);
  }
}

// A CompiledSystem whose switch to native code waits until the search
// reaches state `from` (and then for the compiler): the switch at a known
// place in the middle of a search.
class SwitchAt final : public TransitionSystem {
 public:
  SwitchAt(const CompiledSystem& c, std::uint64_t from) : c_(c), from_(from) {}
  [[nodiscard]] const Layout& layout() const override { return c_.layout(); }
  [[nodiscard]] std::vector<StateVec> initial_states() const override {
    return c_.initial_states();
  }
  void successors(const StateVec& state, std::vector<Successor>& out) const override {
    c_.successors(state, out);
  }
  void successors_flat(const std::int32_t* state, FlatSuccessors& out) const override {
    c_.successors_flat(state, out);
  }
  [[nodiscard]] std::string generator() const override { return c_.generator(); }
  [[nodiscard]] std::optional<std::uint64_t> native_from() const override {
    return c_.native_from();
  }
  void between_chunks(double seconds, std::uint64_t next, bool wait) const override {
    if (next >= from_) c_.between_chunks(seconds, next, wait);
  }

 private:
  const CompiledSystem& c_;
  std::uint64_t from_;
};

// NativeMode::automatic: interpreted, then, once the search has run long
// enough, compiled in the background and switched to between two chunks;
// the graph is the interpreter's, on one thread and on two.
TEST(Native, SwitchesToNativeCodeBetweenTwoChunks) {
  const auto l = operators();
  ASSERT_TRUE(l->sem);
  ExplicitOptions options;
  const auto interpreted = explore(*l->sem, options);
  SearchTuning tuning;
  tuning.chunk_records = 2048;  // chunks of a few hundred states
  tuning.wait_between_chunks = true;
  for (const int threads : {1, 2}) {
    const Environment env;
    options.threads = threads;
    const CompiledSystem c(*l->sem, NativeMode::automatic, 0.0);
    EXPECT_EQ(c.generator(), "compiled");  // not in the cache
    EXPECT_EQ(c.native_code(), nullptr);
    const SwitchAt system(c, 20000);
    const auto g = explore_system(system, options, l->sem.get(), tuning);
    EXPECT_EQ(g->statistics().generator, "native");
    ASSERT_TRUE(g->statistics().native_from.has_value());
    ASSERT_NE(c.native_code(), nullptr);
    EXPECT_FALSE(c.native_code()->cached);
    // At the first chunk that starts at state 20,000 or after.
    EXPECT_GE(*g->statistics().native_from, 20000U);
    EXPECT_LT(*g->statistics().native_from, 21000U);
    expect_same_graph(*g, *interpreted);
    // Compiled, the code is loaded from the cache before a search starts.
    const CompiledSystem cached(*l->sem, NativeMode::automatic);
    EXPECT_EQ(cached.generator(), "native");
    EXPECT_FALSE(cached.native_from().has_value());
    ASSERT_NE(cached.native_code(), nullptr);
    EXPECT_TRUE(cached.native_code()->cached);
  }
}

// When the background compile starts: after a second when the search leaves
// a core for the compiler, else after five.
TEST(Native, CompilesSoonerWhenACoreIsFree) {
  ExplicitOptions options;
  EXPECT_EQ(native_after_seconds(options), 5.0);  // every core
  options.threads = 256;
  EXPECT_EQ(native_after_seconds(options), 5.0);
  if (std::thread::hardware_concurrency() > 1) {
    options.threads = 1;
    EXPECT_EQ(native_after_seconds(options), 1.0);
  }
  options.native_after_seconds = 2.5;
  EXPECT_EQ(native_after_seconds(options), 2.5);
  options.native_after_seconds = 0;
  EXPECT_EQ(native_after_seconds(options), 0.0);
}

// Not compiled yet and no time to: the search stays interpreted, looks into
// the cache without making it, and a compiler still running when the
// search ends is stopped (with what it started) and leaves nothing behind.
TEST(Native, ASearchThatEndsFirstStopsTheCompiler) {
  const auto l = cosmere();
  ASSERT_TRUE(l->sem);
  {
    const Environment env;
    ExplicitOptions options;
    options.threads = 1;
    options.native = NativeMode::automatic;
    options.native_after_seconds = 3600;
    const auto g = explore(*l->sem, options);
    EXPECT_EQ(g->size(), 13758U);
    EXPECT_EQ(g->statistics().generator, "compiled");
    EXPECT_FALSE(fs::exists(env.dir()));
  }
  const SlowCompiler slow;
  const Environment env(slow.path().string());
  double seconds = 0;
  {
    auto c = std::make_unique<CompiledSystem>(*l->sem, NativeMode::automatic, 0.0);
    // Started by the search's first between_chunks(), or here: the search
    // below starts when the compiler runs.
    c->between_chunks(0, 0, false);
    slow.wait_until_started();
    ExplicitOptions options;
    options.threads = 1;
    const auto g = explore_system(*c, options, l->sem.get());
    EXPECT_EQ(g->size(), 13758U);
    EXPECT_EQ(g->statistics().generator, "compiled");
    const auto start = std::chrono::steady_clock::now();
    c.reset();  // as explore() does when done
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  EXPECT_LT(seconds, 60.0);
  EXPECT_EQ(env.files(), std::vector<std::string>{});
  slow.expect_gone();
}

// With --native, the compile before the search counts towards --timeout:
// a compiler still running at the limit is stopped, and the run ends there
// (inconclusive), interpreted.
TEST(Native, TheCompileBeforeTheSearchStopsAtTheTimeLimit) {
  const auto l = cosmere();
  ASSERT_TRUE(l->sem);
  const SlowCompiler slow;
  const Environment env(slow.path().string());
  ExplicitOptions options;
  options.threads = 1;
  options.native = NativeMode::on;
  options.timeout_seconds = 1;
  const auto start = std::chrono::steady_clock::now();
  const auto g = explore(*l->sem, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(seconds, 1.0);
  EXPECT_LT(seconds, 60.0);
  EXPECT_EQ(g->completion(), Completion::time_limit);
  EXPECT_LT(g->size(), 13758U);
  EXPECT_EQ(g->statistics().generator,
            "compiled (native: the C compiler did not finish within the time limit)");
  EXPECT_EQ(env.files(), std::vector<std::string>{});
  slow.expect_gone();
}

TEST(Native, ASecondSystemLoadsWhatTheFirstCompiled) {
  const Environment env;
  const auto l = cosmere();
  ASSERT_TRUE(l->sem);
  const CompiledSystem first(*l->sem, NativeMode::on);
  ASSERT_EQ(first.generator(), "native");
  ASSERT_NE(first.native_code(), nullptr);
  EXPECT_FALSE(first.native_code()->cached);
  // The library, and the C it was compiled from (kept for the curious).
  EXPECT_EQ(env.files(), (std::vector<std::string>{".c", ".so"}));
  const auto written = fs::last_write_time(first.native_code()->library);
  const CompiledSystem second(*l->sem, NativeMode::on);
  ASSERT_EQ(second.generator(), "native");
  EXPECT_TRUE(second.native_code()->cached);
  EXPECT_EQ(second.native_code()->library, first.native_code()->library);
  EXPECT_EQ(fs::last_write_time(second.native_code()->library), written);
  EXPECT_EQ(env.files(), (std::vector<std::string>{".c", ".so"}));

  // Another scope is another program, and another library.
  auto other = test_support::load_game(
      "rulesets/cosmere.yaml",
      {.params = {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 3}},
       .with_semantics = true});
  ASSERT_TRUE(other->sem);
  const CompiledSystem third(*other->sem, NativeMode::on);
  ASSERT_EQ(third.generator(), "native");
  EXPECT_FALSE(third.native_code()->cached);
  EXPECT_NE(third.native_code()->library, first.native_code()->library);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A library is loaded only beside the very source it was compiled from: a
// cache entry whose kept source differs (another ruleset whose 64-bit name
// collides, or a tampered file) is compiled anew, not loaded.
TEST(Native, ALibraryWhoseKeptSourceDiffersIsNotLoaded) {
  const Environment env;
  const auto l = cosmere();
  ASSERT_TRUE(l->sem);
  const CompiledSystem first(*l->sem, NativeMode::on);
  ASSERT_EQ(first.generator(), "native");
  fs::path source = first.native_code()->library;
  source.replace_extension(".c");
  const std::string original = slurp(source);
  std::ofstream(source, std::ios::binary | std::ios::app) << "/* another ruleset */\n";
  const CompiledSystem second(*l->sem, NativeMode::on);
  ASSERT_EQ(second.generator(), "native");
  EXPECT_FALSE(second.native_code()->cached);
  EXPECT_EQ(slurp(source), original);  // compiled again, from the wanted source
  fs::remove(source);                  // no kept source: not loaded either
  const CompiledSystem third(*l->sem, NativeMode::on);
  EXPECT_FALSE(third.native_code()->cached);
  const CompiledSystem fourth(*l->sem, NativeMode::on);
  EXPECT_TRUE(fourth.native_code()->cached);
}

TEST(Native, WithoutACompilerTheRulesRunInterpretedAndSayWhy) {
  const auto l = cosmere();
  ASSERT_TRUE(l->sem);
  {
    const Environment env("/nonexistent/cc");
    const CompiledSystem c(*l->sem, NativeMode::on);
    EXPECT_EQ(c.native_code(), nullptr);
    EXPECT_EQ(c.generator(),
              "compiled (native: cannot run the C compiler '/nonexistent/cc': No such file or "
              "directory)");
    // Nothing is left behind, and the search still runs, interpreted.
    EXPECT_EQ(env.files(), std::vector<std::string>{});
    ExplicitOptions options;
    options.threads = 1;
    options.native = NativeMode::on;
    const auto g = explore(*l->sem, options);
    EXPECT_EQ(g->size(), 13758U);
    EXPECT_EQ(g->statistics().generator.rfind("compiled (native: ", 0), 0U);
  }
  {
    const Environment env("false");  // a compiler that fails
    const CompiledSystem c(*l->sem, NativeMode::on);
    EXPECT_EQ(c.native_code(), nullptr);
    const std::string says =
        "compiled (native: 'false -O2 -fPIC -shared -w -std=c99' failed (exit 1); see " +
        (env.dir() / "native-").string();
    EXPECT_EQ(c.generator().substr(0, says.size()), says);
    EXPECT_EQ(c.generator().size(), says.size() + 16 + 5);  // the hash, ".log)"
    EXPECT_EQ(c.generator().substr(c.generator().size() - 5), ".log)");
    // The C and the compiler's output stay for a look; no library.
    EXPECT_EQ(env.files(), (std::vector<std::string>{".c", ".log"}));
    // Compiled in the background, the same: the search goes on interpreted.
    const CompiledSystem tiered(*l->sem, NativeMode::automatic, 0.0);
    EXPECT_EQ(tiered.generator(), "compiled");
    tiered.between_chunks(0, 0, true);
    EXPECT_EQ(tiered.native_code(), nullptr);
    EXPECT_EQ(tiered.generator(), c.generator());
    ::unsetenv("LOOPHOLE_NATIVE_CC");  // a compiler that works, now: not tried again
    tiered.between_chunks(1, 100, true);
    EXPECT_EQ(tiered.native_code(), nullptr);
    EXPECT_EQ(tiered.generator(), c.generator());
  }
}

// Code is loaded from the cache: not from a directory others may write.
TEST(Native, RefusesACacheOthersMayWrite) {
  const auto l = cosmere();
  ASSERT_TRUE(l->sem);
  const Environment env;
  fs::create_directories(env.dir());
  fs::permissions(env.dir(), fs::perms::all);  // 0777
  const CompiledSystem c(*l->sem, NativeMode::on);
  EXPECT_EQ(c.native_code(), nullptr);
  EXPECT_EQ(c.generator(), "compiled (native: the cache " + env.dir().string() +
                               " is not a directory of this user's that only they may write)");
  EXPECT_EQ(env.files(), std::vector<std::string>{});
  fs::permissions(env.dir(), fs::perms::owner_all);
  const CompiledSystem d(*l->sem, NativeMode::on);
  EXPECT_EQ(d.generator(), "native");
}

// No name of a ruleset reaches the generated C (only numbers and generated
// names do), so a hostile one (tests/common/hostile_names.hpp) cannot put
// code in it: every name of the game replaced, the C is the same text, and
// compiled and run it creates no payload's marker.
TEST(Native, NamesNeverReachTheGeneratedC) {
  const test_support::Load how{.params = {{"item_copies", 0},
                                          {"attack_copies", 0},
                                          {"defence_copies", 0},
                                          {"opening_hand", 0}},
                               .with_semantics = false};
  const auto plain = test_support::load_game("rulesets/operators.yaml", how);
  const auto hostile = test_support::load_game("rulesets/operators.yaml", how);
  ASSERT_TRUE(plain->game && hostile->game) << plain->diagnostics();
  const Environment env;
  const fs::path marker = env.dir().string() + "-pwned";
  test_support::rename_hostile(*hostile->game, marker.string());
  CompiledSystem::Program a(*plain->game), b(*hostile->game);
  compile(a);
  compile(b);
  const std::string source = native_source(b);
  EXPECT_EQ(source, native_source(a));
  hostile->sem = std::make_unique<Semantics>(*hostile->game);
  ExplicitOptions options;
  options.threads = 1;
  options.native = NativeMode::on;
  const auto g = explore(*hostile->sem, options);
  EXPECT_EQ(g->statistics().generator, "native");
  EXPECT_EQ(g->completion(), Completion::complete);
  EXPECT_FALSE(fs::exists(marker));
}

}  // namespace
}  // namespace loophole::checker
