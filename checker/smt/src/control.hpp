// Stopping one engine when told, and saying what it is doing. A Z3 check
// can run for minutes without returning to our code, so polling a flag
// between queries is not enough: while a Watch lives, a thread wakes every
// 10 ms and checks the interrupt flag (SIGINT/SIGTERM), the deadline
// (--timeout) and Z3's own allocation plus what the engine's own tables
// reserved (--max-memory); the first that trips
// is the reason, recorded once, and from then on the thread calls
// Z3_interrupt at every wake-up (a check that starts after the first
// interrupt is cancelled too). Every query also carries the time left as its
// solver timeout, and Z3's memory_max_size is set to the limit, so a check
// that polls the cancel flag rarely still returns. Once stopped, every
// query answers `unknown` at once and the encoding throws Stopped.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <z3++.h>

#include "loophole/smt/engine.hpp"

namespace loophole::smt::detail {

// Thrown out of the encoding (and caught by the engine) once stopped.
struct Stopped : std::runtime_error {
  Stopped() : std::runtime_error("stopped") {}
};

class Control {
 public:
  explicit Control(z3::context& ctx);
  Control(const Control&) = delete;
  Control& operator=(const Control&) = delete;

  // Watches `o` (its interrupt, deadline, memory limit and progress) until
  // destroyed. Nested watches (check() proving by k-induction) keep the
  // outer one.
  class Watch {
   public:
    Watch(Control& c, const Options& o);
    ~Watch();
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;

   private:
    Control& c_;
    bool outer_ = false;
  };

  [[nodiscard]] Stop stopped() const { return stop_.load(); }
  // The limits checked now, not at the thread's next wake-up: between
  // depths, so that an interrupt never lets one more depth start.
  Stop check_limits();
  void throw_if_stopped() const {
    if (stopped() != Stop::none) throw Stopped();
  }
  // s.check(), with the time left as its timeout; unknown once stopped (and
  // when Z3 gives up with an exception, e.g. out of memory).
  z3::check_result check(z3::solver& s);
  // The same, within at most cap_ms (0: no cap of its own).
  z3::check_result check_within(z3::solver& s, unsigned cap_ms);
  // Memory our own tables hold outside Z3 (the breadth-first layers'),
  // counted with Z3's allocation against the memory limit: reserves `bytes`
  // when the two fit under it, else stops the engine (memory_limit) and says
  // false. release() gives a reservation back.
  bool reserve(std::uint64_t bytes);
  void release(std::uint64_t bytes);
  [[nodiscard]] std::uint64_t reserved() const { return reserved_.load(); }
  // What is being solved, for the progress line ("deadlock", "induction").
  void doing(int depth, std::string what);
  // The seconds since the engine was created.
  [[nodiscard]] double elapsed() const;

 private:
  void run();
  void poll();
  void report();
  void stop(Stop why);

  z3::context& ctx_;
  const std::chrono::steady_clock::time_point t0_;
  std::atomic<Stop> stop_{Stop::none};
  std::atomic<std::uint64_t> reserved_{0};  // reserve()
  const Options* o_ = nullptr;              // the outer watch's options
  std::mutex mutex_;                        // guards what follows
  std::condition_variable wake_;
  bool watching_ = false;
  int depth_ = -1;
  std::string what_;
  std::chrono::steady_clock::time_point shown_{};
  std::thread thread_;
};

}  // namespace loophole::smt::detail
