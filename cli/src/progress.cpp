// The progress line (progress.hpp): the texts, and the one writer that
// rewrites the line in place with "\r" and erases it with "\x1b[K".
#include "progress.hpp"

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "loophole/reports/report.hpp"

namespace loophole::cli {

std::string exploration_progress(const checker::Progress& p) {
  return fmt::format("states {}  transitions {}  depth {}  {}  mem {} MiB",
                     reports::group_digits(p.states), reports::group_digits(p.transitions), p.depth,
                     reports::format_rate(p.states_per_second),
                     reports::group_digits(p.bytes >> 20));
}

std::string analysis_progress(std::string_view running, std::size_t done, std::size_t total) {
  if (running.empty()) return fmt::format("analyses {}/{} done", done, total);
  return fmt::format("analyses {}/{} done, running {}", done, total, running);
}

std::string smt_progress(int depth, int max_depth, double seconds, std::string_view what) {
  // Past --depth only the breadth-first layers go on (--symbolic).
  const std::string at = depth < 0 ? std::string("smt")
                         : depth > max_depth
                             ? fmt::format("smt depth {} (past {})", depth, max_depth)
                             : fmt::format("smt depth {} of {}", depth, max_depth);
  return fmt::format("{}  {:.1f} s  {}{}", at, seconds, depth < 0 ? "" : "solving ", what);
}

std::string sweep_progress(std::string_view param, std::int64_t value, std::size_t index,
                           std::size_t count, std::optional<double> seconds_left) {
  std::string text = fmt::format("{} = {} (value {} of {}", param, value, index, count);
  if (seconds_left) {
    const auto s = static_cast<std::int64_t>(std::llround(*seconds_left));
    text += s < 1     ? std::string(", under a second left")
            : s < 120 ? fmt::format(", about {} s left", s)
                      : fmt::format(", about {} min left", (s + 30) / 60);
  }
  return text + ")";
}

std::optional<double> seconds_left(double elapsed, std::size_t done, std::size_t total) {
  if (done == 0 || done > total) return std::nullopt;
  return elapsed / static_cast<double>(done) * static_cast<double>(total - done);
}

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled) {}

void ProgressLine::set_prefix(std::string prefix) {
  const std::lock_guard lock(mutex_);
  prefix_ = std::move(prefix);
}

void ProgressLine::show(std::string_view text) {
  if (!enabled_) return;
  const std::lock_guard lock(mutex_);
  const std::string line = prefix_.empty() ? fmt::format("\r\x1b[K  {}", text)
                                           : fmt::format("\r\x1b[K  {}: {}", prefix_, text);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::clear() {
  if (!enabled_) return;
  const std::lock_guard lock(mutex_);
  if (!shown_) return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace loophole::cli
