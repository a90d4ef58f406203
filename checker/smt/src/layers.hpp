// The states reached in exactly k moves, layer by layer: a breadth-first
// search whose successor function is the rules' one lowered form executed
// on integers (checker::CompiledSuccessors: the compiled programs the explicit
// engine runs, or the reference semantics when the compiler declines the
// game), not Z3. The one-step agreement test (tests/smt/one_step_test.cpp)
// checks on every reachable state of the fixtures and of the seeds at
// reduced scope that the encoded relation admits exactly these successors, so the
// layers are the exact breadth-first levels of the relation BMC unrolls,
// and a question asked of layer k has the answer BMC's query at depth k
// has: the first depth at which a bad state lies is the same, and a state
// of the first layer that holds one is reached by a shortest path (its
// parents). When a layer is empty every reachable state has been seen
// (complete). When the states outnumber the budget, the search stops and
// BMC takes over from that depth (bmc.cpp).
//
// States are stored packed (CompiledSuccessors::pack, the explicit engine's
// packing: each field in the bits its range needs), in chunks, with a
// 32-bit parent each and an open-addressing index of 32-bit slots: about
// ceil(bits / 64) * 8 + 4 + 6-12 bytes a state. Nothing of it is Z3's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "loophole/checker/semantics.hpp"
#include "loophole/checker/successors.hpp"

#include "control.hpp"

namespace loophole::smt::detail {

class Layers {
 public:
  // At most `budget` states in all; 0: off (alive() is false). The memory
  // its tables hold is reserved with the engine's Control as they grow
  // (counted against --max-memory with Z3's allocation); when there is no
  // room the engine stops with memory_limit.
  Layers(const checker::Semantics& sem, Control& control, std::size_t budget);
  ~Layers();
  Layers(const Layers&) = delete;
  Layers& operator=(const Layers&) = delete;

  // Whether layers 0..k are all known (computing them when needed): false
  // once the budget was exceeded or the engine was stopped.
  bool reach(int k);
  [[nodiscard]] bool alive() const { return alive_; }
  // The states of layer k (after reach(k)): indexes [first, second).
  [[nodiscard]] std::pair<std::size_t, std::size_t> layer(int k) const {
    return {begin_[static_cast<std::size_t>(k)], begin_[static_cast<std::size_t>(k) + 1]};
  }
  // State i, unpacked into a buffer the next view() overwrites.
  const checker::StateVec& view(std::size_t i);
  [[nodiscard]] checker::StateVec state(std::size_t i) const;
  [[nodiscard]] std::size_t size() const { return count_; }
  // The states of the path to state i through its parents, from an initial state.
  [[nodiscard]] std::vector<checker::StateVec> path_to(std::size_t i) const;
  // Whether state i has no successor (known once its layer was expanded,
  // else computed).
  [[nodiscard]] bool stuck(std::size_t i);
  // Stops the search (a question it could not answer): BMC takes over.
  void give_up() { alive_ = false; }
  // The bytes reserved for the tables (the states, the index, the parents).
  [[nodiscard]] std::uint64_t bytes() const { return reserved_; }

 private:
  bool expand();  // computes the next layer; false when over budget or stopped
  // Adds the packed state `words` (hash h) with its parent unless it was
  // seen; false when there is no room.
  bool add(const std::uint64_t* words, std::uint64_t h, std::uint32_t parent);
  [[nodiscard]] const std::uint64_t* words(std::size_t i) const {
    return chunks_[i >> chunk_bits].get() + (i & (chunk_states - 1)) * words_;
  }
  [[nodiscard]] std::uint64_t hash(const std::uint64_t* w) const;
  bool grow_index();
  // Reserves what the tables hold now plus `extra` bytes about to be
  // allocated (ahead, a share at a time); false when there is no room (the
  // engine is then stopped).
  bool account(std::uint64_t extra = 0);

  static constexpr unsigned chunk_bits = 10;
  static constexpr std::size_t chunk_states = std::size_t{1} << chunk_bits;

  const checker::Semantics& sem_;
  Control& control_;
  std::size_t budget_;
  bool alive_ = true;
  std::uint64_t reserved_ = 0;  // with control_ (account())
  std::unique_ptr<checker::CompiledSuccessors> rules_;
  std::size_t fields_ = 0, words_ = 0;
  std::size_t count_ = 0;
  std::vector<std::unique_ptr<std::uint64_t[]>> chunks_;  // chunk_states packed states each
  std::vector<std::uint32_t> parent_;  // index of the parent; itself for an initial state
  std::vector<std::uint64_t> stuck_;   // bit i: state i has no successor (i < expanded_)
  std::size_t expanded_ = 0;           // states whose successors were computed
  std::vector<std::uint32_t> index_;   // open addressing: 0 empty, else state + 1
  std::vector<std::size_t> begin_;     // layer k is [begin_[k], begin_[k + 1])
  std::vector<std::int32_t> scratch_;  // an unpacked state (with the codec's padding)
  std::vector<std::int32_t> padded_;   // view()'s, with the padding
  checker::StateVec view_;
};

}  // namespace loophole::smt::detail
