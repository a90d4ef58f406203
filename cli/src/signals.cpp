// The two ways a signal is taken (signals.hpp). The handler does only what
// is async-signal-safe: atomics, write(2), _exit(2), signal(2), raise(3).
#include "signals.hpp"

#include <csignal>

#include <unistd.h>

namespace loophole::cli {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_cooperative{false};
std::atomic<bool> g_stderr_terminal{false};  // read once, before any signal
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
    return;
  }
  // Said at once: the search and analyses stop at their next poll, and the
  // report is still to be rendered, which can take seconds. On a terminal
  // the progress line is erased first.
  constexpr char k_erase[] = "\r\x1b[K";
  constexpr char k_stopping[] =
      "loophole: stopping... (writing what was explored; signal again to quit at once)\n";
  if (g_stderr_terminal.load()) {
    [[maybe_unused]] const auto erased = ::write(STDERR_FILENO, k_erase, sizeof k_erase - 1);
  }
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, k_stopping, sizeof k_stopping - 1);
}

}  // namespace

void install_signal_handlers() {
  g_stderr_terminal.store(::isatty(STDERR_FILENO) != 0);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

const std::atomic<bool>& interrupted() { return g_interrupted; }

void signals_ask_to_stop() { g_cooperative.store(true); }

}  // namespace loophole::cli
