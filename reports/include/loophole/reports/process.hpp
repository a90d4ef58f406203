// Runs another program (Graphviz's `dot`, `git`) without a shell: the
// arguments go to execvp as they are, so no text from a ruleset or the
// command line is ever parsed by a shell, whatever quotes, `$(...)` or
// newlines it holds. Standard input is given as text, standard output and
// standard error come back separately.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace loophole::reports {

struct ProcessResult {
  int exit_code = -1;  // -1: killed by a signal
  std::string out;     // standard output
  std::string err;     // standard error
};

// Runs argv[0] (looked up in PATH) with `input` on its standard input and
// waits for it; nullopt, with `error` set, when it cannot be started.
std::optional<ProcessResult> run_process(const std::vector<std::string>& argv,
                                         const std::string& input, std::string& error);

}  // namespace loophole::reports
