// The fuzz targets' structure-aware mutator: on the shipped rulesets its
// mutations change the text, stay within the size libFuzzer allows, repeat
// for a seed, and mostly give rulesets that still load (which is what it is
// for: byte mutations leave about one in ten loadable).
#include "rule_mutator.hpp"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fuzz_input.hpp"
#include "sanitized.hpp"

namespace loophole::fuzz {
namespace {

int byte_calls = 0;

// Stands in for libFuzzer's byte mutator: flips the middle byte's low bit.
std::size_t flip(std::uint8_t* data, std::size_t size, std::size_t /*max_size*/) {
  ++byte_calls;
  if (size > 0) data[size / 2] ^= 1;
  return size;
}

std::string read(const std::string& path) {
  std::ifstream in(std::string(LOOPHOLE_SOURCE_DIR) + "/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string mutated(const std::string& text, unsigned seed, std::size_t max_size) {
  std::vector<std::uint8_t> buf(max_size);
  std::copy(text.begin(), text.end(), buf.begin());
  const std::size_t n = mutate_ruleset(buf.data(), text.size(), max_size, seed, flip);
  EXPECT_LE(n, max_size);
  return {reinterpret_cast<const char*>(buf.data()), n};
}

TEST(RuleMutator, MostMutantsOfTheSeedsStillLoad) {
  LOOPHOLE_RELEASE_ONLY(
      "800 seed loads, 40 s here, 4 s in release (the fuzz smoke runs the mutator sanitized)");
  // (speed-biomes loads too: its include resolves from rulesets/, where
  // load_input() places the input.)
  for (const char* name : {"rulesets/cosmere.yaml", "rulesets/operators.yaml",
                           "rulesets/containment.yaml", "rulesets/speed-biomes.yaml"}) {
    SCOPED_TRACE(name);
    const std::string text = read(name);
    ASSERT_FALSE(text.empty());
    ASSERT_TRUE(load_input(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())
                    ->game.has_value());
    constexpr unsigned runs = 200;
    byte_calls = 0;
    unsigned changed = 0, loads = 0;
    for (unsigned seed = 0; seed < runs; ++seed) {
      const std::string m = mutated(text, seed, text.size() + 4096);
      changed += m != text ? 1 : 0;
      loads +=
          load_input(reinterpret_cast<const std::uint8_t*>(m.data()), m.size())->game.has_value()
              ? 1
              : 0;
    }
    EXPECT_GE(changed, runs * 99 / 100);
    EXPECT_LE(byte_calls, static_cast<int>(runs / 4));  // one in eight, and the fallbacks
    EXPECT_GE(loads, runs / 2);
  }
}

TEST(RuleMutator, IsDeterministicAndStaysWithinMaxSize) {
  const std::string text = read("rulesets/cosmere.yaml");
  for (unsigned seed = 0; seed < 50; ++seed) {
    EXPECT_EQ(mutated(text, seed, text.size() + 100), mutated(text, seed, text.size() + 100));
    // No room to grow: what would grow falls back to the byte mutator.
    EXPECT_LE(mutated(text, seed, text.size()).size(), text.size());
  }
}

}  // namespace
}  // namespace loophole::fuzz
