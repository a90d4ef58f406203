// StateCodec: the explicit engine's Packer behind a public interface.
#include "loophole/checker/state_codec.hpp"

#include <vector>

#include "packer.hpp"

namespace loophole::checker {

StateCodec::StateCodec(const Layout& layout) : packer_(std::make_unique<Packer>(layout)) {}
StateCodec::~StateCodec() = default;

std::size_t StateCodec::fields() const { return packer_->fields(); }
std::size_t StateCodec::bytes() const { return packer_->bytes(); }
std::size_t StateCodec::words() const { return packer_->words(); }
std::size_t StateCodec::unpacked_size() const { return packer_->unpacked_size(); }

void StateCodec::pack(const std::int32_t* state, std::uint64_t* out) const {
  const StateVec s(state, state + packer_->fields());
  packer_->pack(s, out);
}

void StateCodec::unpack(const std::uint64_t* in, std::int32_t* out) const {
  packer_->unpack(in, out);
}

void StateCodec::pack_from(const std::int32_t* base, const std::uint64_t* base_words,
                           const std::int32_t* state, std::uint64_t* out) const {
  packer_->pack_delta(base, base_words, state, out);
}

}  // namespace loophole::checker
