// Generator (generator.hpp): the transition system explore() searches
// (rules_system: compiled, else the reference), seen through its flat
// successor interface without the engine's packing.
#include "loophole/checker/generator.hpp"

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
