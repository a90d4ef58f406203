// Native code for the compiled generator (`--native`): a Program's
// expression and statement programs translated into C, compiled by the
// system's C compiler into a shared object and loaded, as SPIN compiles
// pan.c. The interpreter (Runner, compiled.cpp) stays in charge of moves,
// choice points and successors; the native code runs what it dispatches
// most: whole expression programs, the straight runs of an effect's
// statements between two choice points (assignments, jumps, `for` loops),
// and the test whether an action may be taken, with every slot, bound and
// constant folded into the instructions.
//
// native_source() writes the C (native_codegen.cpp); load_native() compiles
// it, or finds it compiled in the cache, and loads it (native_load.cpp).
// The generated code must behave exactly as the interpreter: tests/checker/
// native_test.cpp checks every fixture and seed on both.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "compiled.hpp"

namespace loophole::checker {

// What the statement code reads and writes: the Runner's work state and
// locals (layout shared with the generated C's struct loophole_frame).
struct NativeFrame {
  std::int32_t* w;       // the work state
  std::uint64_t* dirty;  // one bit per written field
  std::int64_t* binders;
  std::int64_t* regs;  // `for` counters
  std::int32_t self;
};

// Runs the statements from pc up to the next one the interpreter handles
// (a choice point, a draw, a move, an event, an end, done): returns its pc,
// or -2 - site when a rule fails at gap site `site`.
using NativeRun = int (*)(NativeFrame*, int pc);
// Runs the expression program starting at its pc (ExprMachine::eval).
using NativeExpr = std::int64_t (*)(const std::int32_t* s, std::int64_t* binders, int self,
                                    int* error);

// Runner::enabled for action a and player p (guard binders at b): 1, 0, or
// -1 with *error set.
using NativeEnabled = int (*)(const std::int32_t* s, int a, int p, std::int64_t* binders,
                              int* error);

struct NativeCode {
  NativeCode() = default;
  ~NativeCode();
  NativeCode(const NativeCode&) = delete;
  NativeCode& operator=(const NativeCode&) = delete;

  void* handle = nullptr;
  NativeRun run = nullptr;
  NativeEnabled enabled = nullptr;
  const NativeExpr* exprs = nullptr;  // per xcode pc: the program starting there, or null
  std::string library;                // the shared object's path
  bool cached = false;                // found compiled in the cache
};

struct NativeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The C translation of p (after compile(p)). Throws NativeError for a
// program the translator does not handle.
[[nodiscard]] std::string native_source(const CompiledSystem::Program& p);

// Ends a compilation early: *cancel becoming true, or the deadline passing.
struct NativeStop {
  const std::atomic<bool>* cancel = nullptr;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

// Compiles `source` with the C compiler ($LOOPHOLE_NATIVE_CC, else cc) into
// the cache ($LOOPHOLE_CACHE, else $XDG_CACHE_HOME/loophole, else
// ~/.cache/loophole), named by a hash of the source and the command, and
// loads it; a second run with the same rules and scope loads what the first
// compiled. Throws NativeError (no compiler, a failed compilation, no cache
// directory), naming the log of the compiler's output where there is one;
// also when `stop` ends the compilation (the compiler and what it started
// killed, its files removed).
[[nodiscard]] std::shared_ptr<const NativeCode> load_native(const std::string& source,
                                                            const NativeStop& stop = {});

// The code load_native(source) would load when it is in the cache already,
// else null: never compiles, never creates the cache.
[[nodiscard]] std::shared_ptr<const NativeCode> find_native(const std::string& source);

}  // namespace loophole::checker
