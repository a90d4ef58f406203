// Generator (generator.hpp): the transition system explore() searches
// (rules_system: compiled, else the reference), seen through its flat
// successor interface without the engine's packing.
#include "loophole/checker/generator.hpp"

#include "loophole/checker/state_codec.hpp"
#include "loophole/checker/successors.hpp"

#include "bfs.hpp"

namespace loophole::checker {

struct Generator::Impl {
  std::unique_ptr<TransitionSystem> system;
};

struct Generator::Buffer::Impl {
  FlatSuccessors flat;
};

Generator::Generator(const Semantics& sem, NativeMode native) : impl_(std::make_unique<Impl>()) {
  impl_->system = rules_system(sem, native == NativeMode::automatic ? NativeMode::off : native);
}

Generator::~Generator() = default;

std::string Generator::name() const { return impl_->system->generator(); }

std::size_t Generator::fields() const { return impl_->system->layout().fields.size(); }

Generator::Buffer::Buffer() : impl_(std::make_unique<Impl>()) {}
Generator::Buffer::~Buffer() = default;

std::size_t Generator::Buffer::size() const { return impl_->flat.count; }

const std::int32_t* Generator::Buffer::state(std::size_t i) const { return impl_->flat.state(i); }

MoveFields Generator::Buffer::move(std::size_t i) const {
  const MoveInfo& m = impl_->flat.moves[i];
  return MoveFields{m.kind, m.player, m.ref, m.chooser, m.chooser_player, m.progress};
}

void Generator::successors(const std::int32_t* state, Buffer& out) const {
  FlatSuccessors& flat = out.impl_->flat;
  flat.fields = fields();
  flat.pack_with = nullptr;
  impl_->system->successors_flat(state, flat);
}

}  // namespace loophole::checker

namespace loophole::checker {

// CompiledSuccessors (successors.hpp): the generator and the codec together.
struct CompiledSuccessors::Impl {
  explicit Impl(const Semantics& sem) : generator(sem), codec(sem.layout()) {}
  Generator generator;
  StateCodec codec;
  Generator::Buffer buffer;
};

CompiledSuccessors::CompiledSuccessors(const Semantics& sem) : impl_(std::make_unique<Impl>(sem)) {}
CompiledSuccessors::~CompiledSuccessors() = default;

std::size_t CompiledSuccessors::fields() const { return impl_->codec.fields(); }
std::size_t CompiledSuccessors::words() const { return impl_->codec.words(); }
std::size_t CompiledSuccessors::unpacked_size() const { return impl_->codec.unpacked_size(); }

void CompiledSuccessors::pack(const std::int32_t* state, std::uint64_t* out) const {
  impl_->codec.pack(state, out);
}
void CompiledSuccessors::unpack(const std::uint64_t* in, std::int32_t* out) const {
  impl_->codec.unpack(in, out);
}
void CompiledSuccessors::pack_from(const std::int32_t* base, const std::uint64_t* base_words,
                                   const std::int32_t* state, std::uint64_t* out) const {
  impl_->codec.pack_from(base, base_words, state, out);
}

std::size_t CompiledSuccessors::successors(const std::int32_t* state) {
  impl_->generator.successors(state, impl_->buffer);
  return impl_->buffer.size();
}

const std::int32_t* CompiledSuccessors::successor(std::size_t i) const {
  return impl_->buffer.state(i);
}

}  // namespace loophole::checker
