// States packed to the bits their fields' ranges need, for engines outside
// this library that store states themselves (the distributed search): the
// explicit engine's own packing (each field ceil(log2(hi - lo + 1)) bits,
// laid end to end in 64-bit words, padding bits zero, so equal states have
// equal words).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "loophole/checker/semantics.hpp"

namespace loophole::checker {

class Packer;

class StateCodec {
 public:
  explicit StateCodec(const Layout& layout);
  ~StateCodec();
  StateCodec(const StateCodec&) = delete;
  StateCodec& operator=(const StateCodec&) = delete;

  [[nodiscard]] std::size_t fields() const;
  [[nodiscard]] std::size_t bytes() const;  // of a packed state: ceil(bits / 8)
  [[nodiscard]] std::size_t words() const;  // 64-bit words pack() writes
  // Values unpack() writes: fields() and some padding its vector code uses.
  [[nodiscard]] std::size_t unpacked_size() const;

  void pack(const std::int32_t* state, std::uint64_t* out) const;  // fields() values in
  void unpack(const std::uint64_t* in, std::int32_t* out) const;   // words() words in
  // pack(state, out), given base_words = pack(base): patches the words where
  // the fields differ (a move changes few), the fast way for successors.
  void pack_from(const std::int32_t* base, const std::uint64_t* base_words,
                 const std::int32_t* state, std::uint64_t* out) const;

 private:
  std::unique_ptr<Packer> packer_;
};

}  // namespace loophole::checker
