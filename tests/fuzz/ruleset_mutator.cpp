// The structure-aware mutator (rule_mutator.hpp) as libFuzzer's custom
// mutator, linked into the targets whose input is a ruleset file (ruleset,
// engines, smt). libFuzzer finds LLVMFuzzerCustomMutator by name and calls
// it instead of its own mutations; LLVMFuzzerMutate is its own, kept for a
// share of the mutations.
#include <cstddef>
#include <cstdint>

#include "rule_mutator.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  return loophole::fuzz::mutate_ruleset(data, size, max_size, seed, LLVMFuzzerMutate);
}
