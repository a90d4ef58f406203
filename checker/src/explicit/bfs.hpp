// The breadth-first search behind explore(), over a small interface so that it
// can be run (and tested, and benchmarked) on transition systems other than
// Semantics: the tests use tiny hand-written systems with known graphs.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loophole/checker/explicit.hpp"
#include "loophole/checker/semantics.hpp"

#include "explicit_graph.hpp"
#include "line_vector.hpp"
#include "packer.hpp"
#include "symmetry.hpp"

namespace loophole::checker {

// The move fields of a successor (what Successor has besides its state).
struct MoveInfo {
  MoveKind kind = MoveKind::advance;
  std::int8_t player = -1;
  std::int8_t chooser_player = -1;
  Chooser chooser = Chooser::none;
  bool progress = false;
  std::int32_t ref = -1;
};

// Successors as one flat array: state i is states[i * fields .. (i+1) * fields).
// `scratch` belongs to the system that fills it (per calling thread).
struct FlatSuccessors {
  struct Scratch {
    virtual ~Scratch() = default;
    // What made it (a generator takes back only its own): an id no other
    // generator ever has. (Not an address: a scratch kept by a thread outlives
    // its generator, and a later one allocated at the same address took back
    // buffers sized for another ruleset.)
    std::uint64_t owner = 0;
    [[nodiscard]] static std::uint64_t new_owner();  // never 0
  };
  std::size_t fields = 0;
  std::size_t count = 0;
  LineVector<std::int32_t> states;
  LineVector<MoveInfo> moves;
  // With has_dirty, successor i's fields that may differ from the source
  // state are the bits set in dirty[i * dirty_words(fields) ..] (a superset
  // of those that differ); without, the engine compares every field.
  bool has_dirty = false;
  LineVector<std::uint64_t> dirty;
  std::unique_ptr<Scratch> scratch;
  [[nodiscard]] static std::size_t dirty_words(std::size_t fields) { return (fields + 63) / 64; }
  [[nodiscard]] const std::int32_t* state(std::size_t i) const { return &states[i * fields]; }
  [[nodiscard]] std::uint64_t* dirty_of(std::size_t i) { return &dirty[i * dirty_words(fields)]; }
  [[nodiscard]] const std::uint64_t* dirty_of(std::size_t i) const {
    return &dirty[i * dirty_words(fields)];
  }
  // The engine's fast path: with pack_with set (and pack_base, the source's
  // packed words), a generator may pack each successor as it makes it, into
  // packed[i * pack_with->words() ..], and say so with wrote_packed; states
  // and dirty are then not filled. Generators that do not set wrote_packed
  // leave the packing to the engine.
  const Packer* pack_with = nullptr;
  const Word* pack_base = nullptr;
  bool wrote_packed = false;
  LineVector<Word> packed;
  // The engine may give room of its own for them (packed_room words at
  // packed_into, with packed_external set): add_packed() then writes there,
  // and the engine has nothing to copy. A successor past that room moves
  // the ones written so far into `packed` and clears packed_external.
  Word* packed_into = nullptr;
  std::size_t packed_room = 0;
  bool packed_external = false;
  // Appends a successor as packed words; returns where to write them.
  Word* add_packed(const MoveInfo& m) {
    const std::size_t words = pack_with->words();
    if (moves.size() <= count) moves.resize(count + 1);
    moves[count] = m;
    if (packed_external) {
      if ((count + 1) * words <= packed_room) return packed_into + count++ * words;
      if (packed.size() < count * words) packed.resize(count * words);
      std::copy(packed_into, packed_into + count * words, packed.begin());
      packed_external = false;
    }
    if (packed.size() < (count + 1) * words) packed.resize((count + 1) * words);
    return &packed[count++ * words];
  }
  // Appends a successor; returns where to write its fields.
  std::int32_t* add(const MoveInfo& m) {
    if (moves.size() <= count) moves.resize(count + 1);
    if (states.size() < (count + 1) * fields) states.resize((count + 1) * fields);
    if (dirty.size() < (count + 1) * dirty_words(fields)) {
      dirty.resize((count + 1) * dirty_words(fields));
    }
    moves[count] = m;
    return &states[count++ * fields];
  }
};

class TransitionSystem {
 public:
  virtual ~TransitionSystem() = default;
  [[nodiscard]] virtual const Layout& layout() const = 0;
  [[nodiscard]] virtual std::vector<StateVec> initial_states() const = 0;
  // Must be safe to call from several threads at once.
  virtual void successors(const StateVec& state, std::vector<Successor>& out) const = 0;
  // The same into a flat buffer (out.fields == layout().fields.size(); out.count
  // is reset). The default goes through successors().
  virtual void successors_flat(const std::int32_t* state, FlatSuccessors& out) const;
  // What Statistics::generator and native_from report.
  [[nodiscard]] virtual std::string generator() const { return "reference"; }
  [[nodiscard]] virtual std::optional<std::uint64_t> native_from() const { return {}; }
  // Called by the search on its calling thread before each chunk, while no
  // successors call runs: the chunk's first source is state `next`, `seconds`
  // into the search. (CompiledSystem switches to native code there.) With
  // `wait`, first waits for what the system started in the background.
  virtual void between_chunks(double /*seconds*/, std::uint64_t /*next*/, bool /*wait*/) const {}
};

// The rules semantics as a TransitionSystem (what explore() searches).
class SemanticsSystem final : public TransitionSystem {
 public:
  explicit SemanticsSystem(const Semantics& sem, std::string why = {})
      : sem_(sem), why_(std::move(why)) {}
  [[nodiscard]] std::string generator() const override {
    return why_.empty() ? "reference" : "reference: " + why_;
  }
  [[nodiscard]] const Layout& layout() const override { return sem_.layout(); }
  [[nodiscard]] std::vector<StateVec> initial_states() const override {
    return sem_.initial_states();
  }
  void successors(const StateVec& state, std::vector<Successor>& out) const override {
    sem_.successors(state, out, false);
  }

 private:
  const Semantics& sem_;
  std::string why_;
};

// Wall seconds the search spent in each phase of its chunks (for benchmarks:
// SearchTuning::phases). `walk` includes its serial per-task steps, `other`
// is what lies between the phases and chunks.
struct PhaseTimes {
  double expand = 0, reserve = 0, claim = 0, walk = 0, commit = 0, other = 0;
  std::uint64_t chunks = 0;
};

// How a level is cut into chunks. The result does not depend on it (tests
// check that with tiny chunks); it trades barrier overhead against buffer size.
struct SearchTuning {
  std::uint64_t chunk_records = std::uint64_t{1} << 17;  // successors per chunk, roughly
  StateId min_chunk = 64;                                // sources per chunk
  StateId max_chunk = StateId{1} << 16;
  // A chunk of fewer sources runs on the calling thread alone (handing a
  // few hundred states to the team costs more than it saves).
  StateId solo_below = 256;
  PhaseTimes* phases = nullptr;  // when set, filled in (a few clock reads per chunk)
  // between_chunks() waits for the system's background work (a test's
  // switch to native code at a known chunk).
  bool wait_between_chunks = false;
};

// When a search with these options starts compiling its rules in the
// background (NativeMode::automatic): ExplicitOptions::native_after_seconds,
// or when that is negative, what it says.
[[nodiscard]] double native_after_seconds(const ExplicitOptions& options);

// What explore() searches for sem's rules: the compiled generator, or the
// reference semantics when the compiler declines the game (explicit.cpp).
[[nodiscard]] std::unique_ptr<TransitionSystem> rules_system(
    const Semantics& sem, NativeMode native = NativeMode::off, double native_after_seconds = 1.0,
    std::optional<std::chrono::steady_clock::time_point> deadline = {});

// `semantics` (may be null) is what the returned graph's semantics() gives.
// With `symmetry` (active or not), successors are stored as their canonical
// forms when it is active, and the statistics say what it did.
[[nodiscard]] std::unique_ptr<ExplicitGraph> explore_system(
    const TransitionSystem& system, const ExplicitOptions& options, const Semantics* semantics,
    const SearchTuning& tuning = {}, std::shared_ptr<const Symmetry> symmetry = {});

}  // namespace loophole::checker
