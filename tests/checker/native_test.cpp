// --native (checker/src/explicit/native.hpp): the compiled generator's
// programs as machine code. That it gives the reference's successors on
// every state of every ruleset is checked in compiled_test.cpp (Native.*);
// here: the search on it, the cache, and what happens without a compiler.
#include "explicit/native.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "loophole/checker/explicit.hpp"

#include "explicit/compiled.hpp"
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

std::unique_ptr<test_support::LoadedGame> cosmere() {
  auto l = test_support::load_game(
      "rulesets/cosmere.yaml",
      {.params = {{"face_copies", 1}, {"number_copies", 1}, {"hand_target", 2}},
       .with_semantics = true});
  EXPECT_TRUE(l->sem) << l->diagnostics();
  return l;
}

TEST(Native, ExploresTheSameGraphAsTheInterpreter) {
  testing::use_test_native_cache();
  const auto l = test_support::load_game("rulesets/operators.yaml",
                                         {.params = {{"item_copies", 0}}, .with_semantics = true});
  ASSERT_TRUE(l->sem) << l->diagnostics();
  for (const int threads : {1, 2}) {
    ExplicitOptions options;
    options.threads = threads;
    const auto interpreted = explore(*l->sem, options);
    options.native = true;
    const auto native = explore(*l->sem, options);
    EXPECT_EQ(interpreted->statistics().generator, "compiled");
    EXPECT_EQ(native->statistics().generator, "native");
    ASSERT_EQ(native->size(), 46903U);
    ASSERT_EQ(interpreted->size(), 46903U);
    EXPECT_EQ(native->statistics().transitions, interpreted->statistics().transitions);
    EXPECT_EQ(native->statistics().depth, interpreted->statistics().depth);
    std::vector<Edge> a, b;
    StateVec sa, sb;
    for (StateId id = 0; id < native->size(); ++id) {
      native->state_into(id, sa);
      interpreted->state_into(id, sb);
      native->edges_into(id, a);
      interpreted->edges_into(id, b);
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
}

TEST(Native, ASecondSystemLoadsWhatTheFirstCompiled) {
  const Environment env;
  const auto l = cosmere();
  ASSERT_TRUE(l->sem);
  const CompiledSystem first(*l->sem, true);
  ASSERT_EQ(first.generator(), "native");
  ASSERT_NE(first.native_code(), nullptr);
  EXPECT_FALSE(first.native_code()->cached);
  // The library, and the C it was compiled from (kept for the curious).
  EXPECT_EQ(env.files(), (std::vector<std::string>{".c", ".so"}));
  const auto written = fs::last_write_time(first.native_code()->library);
  const CompiledSystem second(*l->sem, true);
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
  const CompiledSystem third(*other->sem, true);
  ASSERT_EQ(third.generator(), "native");
  EXPECT_FALSE(third.native_code()->cached);
  EXPECT_NE(third.native_code()->library, first.native_code()->library);
}

TEST(Native, WithoutACompilerTheRulesRunInterpretedAndSayWhy) {
  const auto l = cosmere();
  ASSERT_TRUE(l->sem);
  {
    const Environment env("/nonexistent/cc");
    const CompiledSystem c(*l->sem, true);
    EXPECT_EQ(c.native_code(), nullptr);
    EXPECT_EQ(c.generator(),
              "compiled (native: cannot run the C compiler '/nonexistent/cc': No such file or "
              "directory)");
    // Nothing is left behind, and the search still runs, interpreted.
    EXPECT_EQ(env.files(), std::vector<std::string>{});
    ExplicitOptions options;
    options.threads = 1;
    options.native = true;
    const auto g = explore(*l->sem, options);
    EXPECT_EQ(g->size(), 13758U);
    EXPECT_EQ(g->statistics().generator.rfind("compiled (native: ", 0), 0U);
  }
  {
    const Environment env("false");  // a compiler that fails
    const CompiledSystem c(*l->sem, true);
    EXPECT_EQ(c.native_code(), nullptr);
    const std::string says =
        "compiled (native: 'false -O2 -fPIC -shared -w -std=c99' failed (exit 1); see " +
        (env.dir() / "native-").string();
    EXPECT_EQ(c.generator().substr(0, says.size()), says);
    EXPECT_EQ(c.generator().size(), says.size() + 16 + 5);  // the hash, ".log)"
    EXPECT_EQ(c.generator().substr(c.generator().size() - 5), ".log)");
    // The C and the compiler's output stay for a look; no library.
    EXPECT_EQ(env.files(), (std::vector<std::string>{".c", ".log"}));
  }
}

// Code is loaded from the cache: not from a directory others may write.
TEST(Native, RefusesACacheOthersMayWrite) {
  const auto l = cosmere();
  ASSERT_TRUE(l->sem);
  const Environment env;
  fs::create_directories(env.dir());
  fs::permissions(env.dir(), fs::perms::all);  // 0777
  const CompiledSystem c(*l->sem, true);
  EXPECT_EQ(c.native_code(), nullptr);
  EXPECT_EQ(c.generator(), "compiled (native: the cache " + env.dir().string() +
                               " is not a directory of this user's that only they may write)");
  EXPECT_EQ(env.files(), std::vector<std::string>{});
  fs::permissions(env.dir(), fs::perms::owner_all);
  const CompiledSystem d(*l->sem, true);
  EXPECT_EQ(d.generator(), "native");
}

}  // namespace
}  // namespace loophole::checker
