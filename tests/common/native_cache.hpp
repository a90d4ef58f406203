// The cache the tests compile native code into (native.hpp): one directory
// next to the build trees, shared by the presets (the generated C is the
// same in every build, so a CI run compiles each ruleset's once).
#pragma once

#include <cstdlib>

namespace loophole::checker::testing {

inline void use_test_native_cache() { ::setenv("LOOPHOLE_CACHE", LOOPHOLE_TEST_NATIVE_CACHE, 1); }

}  // namespace loophole::checker::testing
