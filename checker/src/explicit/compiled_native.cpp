// CompiledSystem's making and its native code (native.hpp): the programs
// compiled (compiled_compile.cpp), and then, by NativeMode, run as machine
// code from the start, or interpreted until a compiler running in the
// background is done and the search switches between two chunks
// (between_chunks). The interpreter itself is compiled.cpp's Runner.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include "compiled.hpp"
#include "compiled_program.hpp"
#include "native.hpp"

namespace loophole::checker {

struct CompiledSystem::Native {
  double after = 1.0;  // NativeMode::automatic: when to start compiling
  std::optional<std::chrono::steady_clock::time_point> deadline;  // stops the compiler
  std::string note;                   // why the programs run interpreted
  std::optional<std::uint64_t> from;  // switched to before expanding this state
  // NativeMode::automatic: the C, until it is compiled (or fails to), and
  // the compiler's thread and what it made (or why it did not; the search's
  // thread reads them once the compiler's has set done).
  std::string source;
  std::thread compiler;
  std::atomic<bool> cancel{false}, done{false};
  std::shared_ptr<const NativeCode> code;
  std::string failure;

  Native() = default;
  Native(const Native&) = delete;
  Native& operator=(const Native&) = delete;
  ~Native() {
    cancel.store(true, std::memory_order_relaxed);
    if (compiler.joinable()) compiler.join();
  }
};

namespace {

std::string why_not(const std::exception& e) {
  const std::string what = e.what();
  return what.starts_with("native: ") ? what : "native: " + what;
}

}  // namespace

CompiledSystem::CompiledSystem(const Semantics& sem, NativeMode native, double native_after_seconds,
                               std::optional<std::chrono::steady_clock::time_point> deadline)
    : sem_(sem), prog_(std::make_unique<Program>(sem.game())), native_(std::make_unique<Native>()) {
  compile(*prog_);
  native_->after = native_after_seconds;
  native_->deadline = deadline;
  if (native == NativeMode::off) return;
  try {
    std::string source = native_source(*prog_);
    if (native == NativeMode::on) {
      install(load_native(source, {.deadline = deadline}));
    } else if (auto code = find_native(source)) {
      install(std::move(code));
    } else {
      native_->source = std::move(source);
    }
  } catch (const std::exception& e) {
    native_->note = why_not(e);
  }
}

void CompiledSystem::install(std::shared_ptr<const NativeCode> code) const {
  Program& p = *prog_;
  p.native_run = code->run;
  p.native_enabled = code->enabled;
  p.native_exprs = code->exprs;
  p.native_expr_count = static_cast<int>(p.xcode.size());  // the library's table
  p.native = std::move(code);
}

// (The compiler's thread reads only Native::source, deadline and cancel and
// writes code, failure and done; the rest is the search's thread's.)
void CompiledSystem::between_chunks(double seconds, std::uint64_t next, bool wait) const {
  Native& n = *native_;
  if (n.source.empty()) return;  // not automatic, or already native, or failed
  if (!n.compiler.joinable()) {
    if (seconds < n.after) return;
    try {
      n.compiler = std::thread([&n] {
        try {
          n.code = load_native(n.source, {.cancel = &n.cancel, .deadline = n.deadline});
        } catch (const std::exception& e) {
          n.failure = why_not(e);
        }
        n.done.store(true, std::memory_order_release);
      });
    } catch (const std::system_error& e) {
      n.note = why_not(e);
      n.source.clear();
      return;
    }
  }
  if (!wait && !n.done.load(std::memory_order_acquire)) return;
  n.compiler.join();
  n.source.clear();
  n.note = std::move(n.failure);
  if (n.code) {
    install(std::move(n.code));
    n.from = next;
  }
}

const NativeCode* CompiledSystem::native_code() const { return prog_->native.get(); }

std::string CompiledSystem::generator() const {
  if (prog_->native) return "native";
  if (!native_->note.empty()) return "compiled (" + native_->note + ")";
  return "compiled";
}

std::optional<std::uint64_t> CompiledSystem::native_from() const { return native_->from; }

CompiledSystem::~CompiledSystem() = default;

}  // namespace loophole::checker
