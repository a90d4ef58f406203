// The successors of many states, for an engine that walks the state graph
// itself (the SMT engine's breadth-first layers, checker/smt/src/layers.hpp):
// the rules compiled once, as for a search (the explicit engine's successor
// generator, its flat programs interpreted; the reference semantics when the
// compiler declines the game), so Semantics::successors' states in its
// order without walking the rules' trees per state; and the states packed
// as the explicit engine packs them (each field in the bits its range needs,
// in 64-bit words, padding bits zero: equal states have equal words). An
// interface of the semantics layer like conditions.hpp, implemented on the
// compiled generator (checker/src/explicit/generator.cpp); the compiled
// generator's agreement with the reference is tested on every reachable
// state of every fixture, docs example and seed at reduced scope
// (tests/checker/compiled_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "loophole/checker/semantics.hpp"

namespace loophole::checker {

class CompiledSuccessors {
 public:
  // The Semantics must outlive this object.
  explicit CompiledSuccessors(const Semantics& sem);
  ~CompiledSuccessors();
  CompiledSuccessors(const CompiledSuccessors&) = delete;
  CompiledSuccessors& operator=(const CompiledSuccessors&) = delete;

  [[nodiscard]] std::size_t fields() const;
  [[nodiscard]] std::size_t words() const;  // of a packed state
  // The values unpack() writes and successors() reads: fields() and some
  // padding the vector code uses.
  [[nodiscard]] std::size_t unpacked_size() const;
  void pack(const std::int32_t* state, std::uint64_t* out) const;  // fields() values in
  void unpack(const std::uint64_t* in, std::int32_t* out) const;   // unpacked_size() out
  // pack(state, out), given base_words = pack(base): patches the words where
  // the fields differ.
  void pack_from(const std::int32_t* base, const std::uint64_t* base_words,
                 const std::int32_t* state, std::uint64_t* out) const;

  // The successors of `state` (unpacked_size() values), in
  // Semantics::successors order, duplicates kept; successor(i) is valid
  // until the next call. One thread at a time per object.
  std::size_t successors(const std::int32_t* state);
  [[nodiscard]] const std::int32_t* successor(std::size_t i) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace loophole::checker
