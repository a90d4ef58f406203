// The options every subcommand shares (command_line.hpp), read in one place.
#include "command_line.hpp"

#include <chrono>
#include <cstdlib>
#include <iostream>

#include <unistd.h>

#include "options.hpp"

namespace loophole::cli {

bool apply_params(const std::vector<std::string>& params, model::LoadOptions& load) {
  std::string error;
  for (const auto& p : params) {
    const auto a = parse_param(p, error);
    if (!a) {
      std::cerr << "loophole: error: --param: " << error << "\n";
      return false;
    }
    load.param_overrides[a->name] = a->value;
  }
  return true;
}

bool apply_timeout(const std::string& timeout, checker::ExplicitOptions& explore) {
  if (timeout.empty()) return true;
  std::string error;
  const auto s = parse_seconds(timeout, error);
  if (!s) {
    std::cerr << "loophole: error: --timeout: " << error << "\n";
    return false;
  }
  explore.timeout_seconds = *s;
  return true;
}

bool apply_limits(const std::string& max_memory, const std::string& timeout,
                  pipeline::Options& options) {
  std::string error;
  options.max_resident = 0;
  if (!max_memory.empty()) {
    const auto b = parse_bytes(max_memory, error);
    if (!b) {
      std::cerr << "loophole: error: --max-memory: " << error << "\n";
      return false;
    }
    options.max_resident = *b;
  }
  checker::ExplicitOptions parsed;
  if (!apply_timeout(timeout, parsed)) return false;
  if (options.max_resident == 0) options.max_resident = checker::default_memory_limit();
  options.deadline.reset();
  if (parsed.timeout_seconds > 0) {
    options.deadline = checker::RunLimits::Clock::now() +
                       std::chrono::duration_cast<checker::RunLimits::Clock::duration>(
                           std::chrono::duration<double>(parsed.timeout_seconds));
  }
  return true;
}

bool apply_engine(const std::string& engine, pipeline::Options& options) {
  const auto e = pipeline::parse_engine(engine);
  if (!e) {
    std::cerr << "loophole: error: --engine: expected explicit, smt, auto or structure; found '"
              << model::terminal_safe(engine) << "'\n";
    return false;
  }
  options.engine = *e;
  return true;
}

bool use_color(std::string_view flag, int fd) {
  if (flag == "always") return true;
  if (flag == "never") return false;
  const auto set = [](const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0';
  };
  if (set("NO_COLOR")) return false;
  if (set("CLICOLOR_FORCE") && std::string_view(std::getenv("CLICOLOR_FORCE")) != "0") return true;
  return ::isatty(fd) != 0;
}

bool read_stdin_if_dash(std::string& file, model::SourceManager& sources,
                        model::DiagnosticSink& sink) {
  if (file != "-") return true;
  file = std::string(stdin_name);
  if (sources.load_stream(STDIN_FILENO, file) != nullptr) return true;
  const auto& failure = sources.failure();
  sink.error(failure.where(file, model::SourceSpan{file, 0, 0, 0}),
             failure.message("standard input", file));
  return false;
}

}  // namespace loophole::cli
