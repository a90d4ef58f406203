// The two ways a signal is taken (signals.hpp). The handler does only what
// is async-signal-safe: atomics, write(2), unlink(2), rmdir(2), _exit(2),
// signal(2), raise(3).
#include "signals.hpp"

#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include <pthread.h>
#include <unistd.h>

namespace loophole::cli {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_cooperative{false};
std::atomic<bool> g_stderr_terminal{false};  // read once, before any signal
static_assert(std::atomic<bool>::is_always_lock_free);

// remove_if_ended's paths. Only the main thread changes it, with SIGINT and
// SIGTERM blocked; the handler only reads it (unlink and rmdir are
// async-signal-safe). It is a namespace-scope object, constant-initialized
// (vector's default constructor is constexpr): a function-local static
// would be constructed
// by the handler itself on the first signal, and registering its destructor
// (__cxa_atexit) from a handler that interrupted malloc corrupts the heap
// (seen: "malloc assertion failure in sysmalloc" on SIGTERM while loading).
constinit std::vector<std::string> g_ended_paths;

extern "C" void on_signal(int sig) {
  if (!g_cooperative.load()) {
    const auto& paths = g_ended_paths;
    for (auto p = paths.rbegin(); p != paths.rend(); ++p) {
      if (::unlink(p->c_str()) != 0) ::rmdir(p->c_str());
    }
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
  // Under mpirun, SIGUSR1 too: mpirun forwards it to every rank, where
  // SIGINT makes mpirun abort the job (exit 1 whatever the ranks do).
  // scripts/loophole-mpirun turns ^C into it (docs/distributed.md).
  if (std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr) std::signal(SIGUSR1, on_signal);
}

const std::atomic<bool>& interrupted() { return g_interrupted; }

void signals_ask_to_stop() { g_cooperative.store(true); }

void remove_if_ended(const std::string& path) {
  sigset_t both, previous;
  sigemptyset(&both);
  sigaddset(&both, SIGINT);
  sigaddset(&both, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &both, &previous);
  g_ended_paths.push_back(path);
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

}  // namespace loophole::cli
