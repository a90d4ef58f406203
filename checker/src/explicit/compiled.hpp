// The compiled successor generator: a Game's rules translated once into flat
// programs over state-vector indices, so that the explicit engine's hot loop
// does no name lookup, no allocation and no recursion over the IR. Every
// expression becomes a stack-machine program (slots, gap sites and domains
// resolved, constant indices folded, first failure aborts: the reference
// records only the first); every effect becomes a flat statement program whose
// choice points backtrack over an explicit frame stack instead of the
// reference's continuation recursion. The control part of a move (steps,
// events, windows, the stack, end checks) follows checker/src/semantics/
// moves.cpp line for line. It must give exactly Semantics::successors:
// same successors, same order, same move fields; tests/checker/
// compiled_test.cpp checks that on every reachable state of every fixture and
// seed. Traces are still replayed on the reference Semantics.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bfs.hpp"

namespace loophole::checker {

struct NativeCode;

class CompiledSystem final : public TransitionSystem {
 public:
  // Compiles sem's Game. Throws CompiledSystem::Unsupported when the Game uses
  // something this generator does not handle (explore() then falls back to
  // the reference and says so in Statistics::engine).
  // With NativeMode::on, also translates the programs into C and runs them
  // as machine code (native.hpp); when that fails (no C compiler, ...), runs
  // them interpreted, and generator() says why. With NativeMode::automatic,
  // loads them from the cache, or compiles them in the background once a
  // search has run `native_after_seconds` (between_chunks() starts it and
  // switches). A compile still running at `deadline` is stopped.
  explicit CompiledSystem(const Semantics& sem, NativeMode native = NativeMode::off,
                          double native_after_seconds = 1.0,
                          std::optional<std::chrono::steady_clock::time_point> deadline = {});
  ~CompiledSystem() override;
  CompiledSystem(const CompiledSystem&) = delete;
  CompiledSystem& operator=(const CompiledSystem&) = delete;

  struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
  };

  [[nodiscard]] const Layout& layout() const override { return sem_.layout(); }
  [[nodiscard]] std::vector<StateVec> initial_states() const override {
    return sem_.initial_states();
  }
  void successors(const StateVec& state, std::vector<Successor>& out) const override;
  void successors_flat(const std::int32_t* state, FlatSuccessors& out) const override;
  // "compiled", "native", or "compiled (native: why not)".
  [[nodiscard]] std::string generator() const override;
  [[nodiscard]] std::optional<std::uint64_t> native_from() const override;
  void between_chunks(double seconds, std::uint64_t next, bool wait) const override;
  // The machine code the programs run as (native.hpp), or null.
  [[nodiscard]] const NativeCode* native_code() const;

  // The instruction forms the expression programs use ("load", "rel self
  // next", "bound then and", "cmp_k lt", ...), for the tests' census: every
  // form the compiler can emit must be run by some ruleset of the corpus.
  [[nodiscard]] std::vector<std::string> instruction_forms() const;
  [[nodiscard]] static std::vector<std::string> all_instruction_forms();
  // How many `choose` / `pick` statements have their where-clause compiled
  // once per value of the binder (constants folded), for the tests.
  [[nodiscard]] int choices_per_value() const;
  // How many of them have their body compiled once per value, too.
  [[nodiscard]] int bodies_per_value() const;
  // How many turns of unrolled `for` loops the statement programs have.
  [[nodiscard]] int unrolled_turns() const;

  struct Program;

 private:
  // Runs the programs as `code` from now on (while no successors call runs).
  void install(std::shared_ptr<const NativeCode> code) const;

  const Semantics& sem_;
  std::unique_ptr<Program> prog_;
  struct Native;  // the native code's state: mode, why not, the background compiler
  std::unique_ptr<Native> native_;
};

}  // namespace loophole::checker
