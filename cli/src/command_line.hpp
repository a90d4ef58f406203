// What every subcommand reads the same way: --param, --timeout, --color and
// `-` as a ruleset file. One function each, so the subcommands cannot drift
// apart (they had four copies of the --param loop). Each reports a bad value
// on stderr as `loophole: error: --OPTION: ...` and returns false.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loophole/checker/explicit.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/pipeline/pipeline.hpp"

namespace loophole::cli {

// --param NAME=VALUE (repeatable) into `load.param_overrides`.
bool apply_params(const std::vector<std::string>& params, model::LoadOptions& load);

// --timeout DURATION ("" = none) into `explore.timeout_seconds`.
bool apply_timeout(const std::string& timeout, checker::ExplicitOptions& explore);

// The limits of a checking run, as every checking command reads them:
// --max-memory SIZE (the resident size of the whole process; "" = 80% of
// the memory available now) and --timeout DURATION (the wall time of the
// whole run from now; "" = none) into `options`.
bool apply_limits(const std::string& max_memory, const std::string& timeout,
                  pipeline::Options& options);

// --engine NAME ("explicit", "smt", "auto", "structure") into `options`.
bool apply_engine(const std::string& engine, pipeline::Options& options);

// Whether to colour what is written to `fd`. `--color always|never` decide;
// with `auto`, a non-empty NO_COLOR turns colour off (even on a terminal),
// else a CLICOLOR_FORCE other than "" or "0" turns it on (even into a pipe),
// else colour is on when `fd` is a terminal (https://no-color.org).
bool use_color(std::string_view flag, int fd);

// The name standard input goes by in diagnostics and reports.
inline constexpr std::string_view stdin_name = "<stdin>";

// `-` as a ruleset file: standard input is read whole, with the bounds and
// UTF-8 check of any file, into `sources` as the in-memory file `<stdin>`,
// and `file` renamed to it. It has no directory, so its includes resolve
// from (and are confined to) the current directory. A second `-` names the
// same text. False, with the reason in `sink`, when it cannot be read.
bool read_stdin_if_dash(std::string& file, model::SourceManager& sources,
                        model::DiagnosticSink& sink);

}  // namespace loophole::cli
