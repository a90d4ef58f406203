// The fastest successor generator of a game's rules, for engines outside this
// library that walk states one at a time instead of exploring a graph (the
// simulator): the compiled generator the explicit engine runs (its flat
// programs, interpreted), or the reference semantics when the compiler
// declines the game. Successors come in Semantics::successors order with the
// same move fields, so a move's index here is its index in a Trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"

namespace loophole::checker {

// A successor's move, without its state (Successor's fields besides state).
struct MoveFields {
  MoveKind kind = MoveKind::advance;
  int player = -1;
  int ref = -1;
  Chooser chooser = Chooser::none;
  int chooser_player = -1;
  bool progress = false;
};

class Generator {
 public:
  // The Semantics must outlive the generator. NativeMode::on runs the
  // programs as machine code (compiled by the system's C compiler before the
  // first state, cached; interpreted when that fails, and name() says why);
  // NativeMode::automatic is taken as off (nothing here switches between
  // chunks).
  explicit Generator(const Semantics& sem, NativeMode native = NativeMode::off);
  ~Generator();
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  // "compiled", "native", "compiled (native: <why not>)", or "reference:
  // <why the compiler declined>".
  [[nodiscard]] std::string name() const;
  [[nodiscard]] std::size_t fields() const;

  // The successors of one state, reused from call to call; one per thread.
  class Buffer {
   public:
    Buffer();
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    [[nodiscard]] std::size_t size() const;
    [[nodiscard]] const std::int32_t* state(std::size_t i) const;  // fields() values
    [[nodiscard]] MoveFields move(std::size_t i) const;

   private:
    friend class Generator;
    struct Impl;
    std::unique_ptr<Impl> impl_;
  };

  // Semantics::successors(state) into `out` (safe from several threads, each
  // with its own buffer).
  void successors(const std::int32_t* state, Buffer& out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The trace of a path found without a graph (a playout): from initial state
// `initial` (an index into Semantics::initial_states), the successors
// `moves` in order, each transcribed by Semantics::describe; replayed on the
// reference before it is returned, and checked to end in `last` (a path that
// does not is an internal error, as for ExploredGraph::trace_to).
[[nodiscard]] Trace trace_of_moves(const Semantics& sem, std::uint32_t initial,
                                   std::span<const std::uint32_t> moves, const StateVec& last);

}  // namespace loophole::checker
