// SIGINT and SIGTERM, handled from main's first instruction. Until a search
// starts nothing has been explored, so a signal ends the process at once:
// exit 3 ("inconclusive: interrupted while loading"), no report written
// (reports are written at the end, atomically). Loading polls nothing, so
// `timeout 10 loophole check huge.yaml` ends in time however slow the file.
// Once a search runs, the first signal asks it to stop and report what it
// explored (interrupted() turns true) and says "loophole: stopping..." on
// stderr at once (write(2) from the handler); a second ends the process.
// `diff` writes revisions to temporary trees before it loads them: those are
// registered (remove_if_ended), and a signal while loading removes them.
#pragma once

#include <atomic>

namespace loophole::cli {

void install_signal_handlers();
[[nodiscard]] const std::atomic<bool>& interrupted();
// From here on a signal asks the work to stop instead of ending the process:
// called before a search starts, and before anything is written.
void signals_ask_to_stop();
// A file or directory that a signal which ends the process at once removes
// first (diff's revision trees, written before loading): paths registered
// later are removed first, a directory once it is empty. Registering blocks
// both signals for the moment it takes, so the handler never reads a list
// being changed.
void remove_if_ended(const std::string& path);

}  // namespace loophole::cli
