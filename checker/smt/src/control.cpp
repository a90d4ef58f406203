// The watch thread of one engine (control.hpp). Polling every 10 ms keeps
// the reaction to a signal or the deadline far under the 1 s the CLI
// promises; the progress callback is called at most every 250 ms, from the
// same thread, so a long check still shows its elapsed time.
#include "control.hpp"

#include <algorithm>
#include <limits>
#include <string_view>

#include <fmt/format.h>

namespace loophole::smt {

std::string_view to_string(Stop s) {
  switch (s) {
    case Stop::none:
      return "not stopped";
    case Stop::interrupted:
      return "an interrupt";
    case Stop::time_limit:
      return "the time limit";
    case Stop::memory_limit:
      return "the memory limit";
  }
  return "stopped";
}

namespace detail {

namespace {
constexpr auto k_poll = std::chrono::milliseconds(10);
constexpr auto k_show = std::chrono::milliseconds(250);

// 0: no limit of ours (the CLI always passes one: --max-memory, or 80% of
// the memory available, checker::default_memory_limit()).
std::uint64_t memory_limit(const Options& o) {
  return o.max_memory_bytes != 0 ? o.max_memory_bytes : std::numeric_limits<std::uint64_t>::max();
}
}  // namespace

Control::Control(z3::context& ctx) : ctx_(ctx), t0_(std::chrono::steady_clock::now()) {}

Control::Watch::Watch(Control& c, const Options& o) : c_(c) {
  std::lock_guard lock(c.mutex_);
  if (c.watching_) return;
  outer_ = true;
  c.watching_ = true;
  c.o_ = &o;
  // Z3's own ceiling, a quarter above the limit the thread watches: a
  // backstop for an allocation burst between two polls.
  if (o.max_memory_bytes != 0) {
    const std::uint64_t mib = o.max_memory_bytes / 4 * 5 >> 20;
    z3::set_param("memory_max_size",
                  static_cast<int>(std::min<std::uint64_t>(
                      std::max<std::uint64_t>(mib, 1),
                      static_cast<std::uint64_t>(std::numeric_limits<int>::max()))));
  }
  c.poll();  // a limit already passed (auto after a timed-out search) stops it at once
  c.thread_ = std::thread([&c] { c.run(); });
}

Control::Watch::~Watch() {
  if (!outer_) return;
  {
    std::lock_guard lock(c_.mutex_);
    c_.watching_ = false;
  }
  c_.wake_.notify_all();
  c_.thread_.join();
  std::lock_guard lock(c_.mutex_);
  c_.o_ = nullptr;
  z3::set_param("memory_max_size", 0);
}

void Control::run() {
  std::unique_lock lock(mutex_);
  while (watching_) {
    wake_.wait_for(lock, k_poll);
    if (!watching_) break;
    poll();
    if (o_->progress && std::chrono::steady_clock::now() - shown_ >= k_show) report();
  }
}

// Under mutex_.
void Control::poll() {
  const Options& o = *o_;
  if (o.interrupt != nullptr && o.interrupt->load()) {
    stop(Stop::interrupted);
  } else if (o.deadline && std::chrono::steady_clock::now() >= *o.deadline) {
    stop(Stop::time_limit);
  } else if (Z3_get_estimated_alloc_size() + reserved_.load() > memory_limit(o)) {
    stop(Stop::memory_limit);
  }
  if (stopped() != Stop::none) ctx_.interrupt();
}

// Under mutex_.
void Control::report() {
  shown_ = std::chrono::steady_clock::now();
  o_->progress(Activity{depth_, o_->depth, elapsed(), what_});
}

Stop Control::check_limits() {
  std::lock_guard lock(mutex_);
  if (o_ != nullptr) poll();
  return stopped();
}

void Control::stop(Stop why) {
  Stop none = Stop::none;
  stop_.compare_exchange_strong(none, why);
}

z3::check_result Control::check(z3::solver& s) { return check_within(s, 0); }

z3::check_result Control::check_within(z3::solver& s, unsigned cap_ms) {
  if (stopped() != Stop::none) return z3::unknown;
  unsigned ms = cap_ms;
  {
    std::lock_guard lock(mutex_);
    if (o_ != nullptr) {
      if (o_->timeout_ms > 0) ms = ms == 0 ? o_->timeout_ms : std::min(ms, o_->timeout_ms);
      if (o_->deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              *o_->deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) {
          stop(Stop::time_limit);
          return z3::unknown;
        }
        const auto capped = static_cast<unsigned>(std::min<long long>(left, 1u << 30));
        ms = ms == 0 ? capped : std::min(ms, capped);
      }
    }
  }
  z3::params p(ctx_);
  p.set("timeout", ms == 0 ? std::numeric_limits<unsigned>::max() : ms);
  // Z3 installs a SIGINT handler of its own for the length of a check
  // (ctrl_c) that cancels that one check and swallows the signal: the CLI's
  // handler must see it.
  p.set("ctrl_c", false);
  s.set(p);
  try {
    return s.check();
  } catch (const z3::exception& e) {
    // Z3 gives up by exception when it passes memory_max_size.
    if (std::string_view(e.msg()).find("memory") != std::string_view::npos) {
      stop(Stop::memory_limit);
    }
    return z3::unknown;
  }
}

bool Control::reserve(std::uint64_t bytes) {
  std::lock_guard lock(mutex_);
  if (stopped() != Stop::none) return false;
  const std::uint64_t limit =
      o_ != nullptr ? memory_limit(*o_) : std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t held = Z3_get_estimated_alloc_size() + reserved_.load();
  if (held > limit || bytes > limit - held) {
    stop(Stop::memory_limit);
    ctx_.interrupt();
    return false;
  }
  reserved_ += bytes;
  return true;
}

void Control::release(std::uint64_t bytes) { reserved_ -= std::min(bytes, reserved_.load()); }

void Control::doing(int depth, std::string what) {
  std::lock_guard lock(mutex_);
  depth_ = depth;
  what_ = std::move(what);
}

double Control::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

}  // namespace detail
}  // namespace loophole::smt
