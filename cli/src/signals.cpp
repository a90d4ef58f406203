// The two ways a signal is taken (signals.hpp). The handler does only what
// is async-signal-safe: atomics, write(2), _exit(2), signal(2), raise(3).
#include "signals.hpp"

#include <csignal>

#include <unistd.h>

namespace loophole::cli {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_cooperative{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_signal(int sig) {
  if (!g_cooperative.load()) {
    constexpr char k_message[] = "loophole: inconclusive: interrupted while loading\n";
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, k_message, sizeof k_message - 1);
    ::_exit(3);
  }
  if (g_interrupted.exchange(true)) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
}

}  // namespace

void install_signal_handlers() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

const std::atomic<bool>& interrupted() { return g_interrupted; }

void signals_ask_to_stop() { g_cooperative.store(true); }

}  // namespace loophole::cli
