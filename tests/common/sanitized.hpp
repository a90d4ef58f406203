// Whether this test binary runs under a sanitizer (the dev, tsan and fuzz
// presets), for the few tests whose point is not memory safety and which a
// sanitized -O0 build makes take most of a minute: they skip there and run
// on the release build, which scripts/test (and CI) runs as well.
#pragma once

#include <gtest/gtest.h>

namespace loophole::test_support {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif
#else
inline constexpr bool sanitized = false;
#endif

}  // namespace loophole::test_support

// At the top of such a test: `why` says what it spends its time on.
#define LOOPHOLE_RELEASE_ONLY(why)                                                   \
  do {                                                                               \
    if (::loophole::test_support::sanitized) {                                       \
      GTEST_SKIP() << "sanitized build: " << (why) << "; runs on the release build"; \
    }                                                                                \
  } while (false)
