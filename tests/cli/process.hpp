// Helpers for tests that signal a running `loophole`.
#pragma once

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include <signal.h>
#include <sys/types.h>

namespace loophole::test {

// Whether process `pid` catches SIGINT, from the SigCgt mask in /proc; waits
// up to 20 s for it. A SIGINT sent before loophole installs its handler would
// kill it instead of stopping the exploration, so tests wait for this first.
inline bool wait_for_sigint_handler(pid_t pid) {
  for (int i = 0; i < 2000; ++i) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("SigCgt:", 0) != 0) continue;
      const auto mask = std::stoull(line.substr(7), nullptr, 16);
      if ((mask & (1ull << (SIGINT - 1))) != 0) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace loophole::test
