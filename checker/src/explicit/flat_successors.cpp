// The transition system's flat successor interface (bfs.hpp) where a
// system has no generator of its own: successors_flat() through
// successors(), and the owner ids of the generators' scratch.
#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "bfs.hpp"

namespace loophole::checker {

namespace {

// successors_flat() through successors(), for systems without their own.
struct ViaVectors final : FlatSuccessors::Scratch {
  StateVec state;
  std::vector<Successor> successors;
};

}  // namespace

std::uint64_t FlatSuccessors::Scratch::new_owner() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

void TransitionSystem::successors_flat(const std::int32_t* state, FlatSuccessors& out) const {
  auto* sc = dynamic_cast<ViaVectors*>(out.scratch.get());
  if (sc == nullptr) {
    out.scratch = std::make_unique<ViaVectors>();
    sc = static_cast<ViaVectors*>(out.scratch.get());
  }
  const std::size_t n = layout().fields.size();
  out.fields = n;
  out.count = 0;
  out.has_dirty = false;
  out.wrote_packed = false;
  sc->state.assign(state, state + n);
  successors(sc->state, sc->successors);
  for (const Successor& x : sc->successors) {
    if (x.state.size() != n) {
      throw std::logic_error("loophole: internal error: successor has " +
                             std::to_string(x.state.size()) + " fields, layout has " +
                             std::to_string(n));
    }
    MoveInfo m;
    m.kind = x.kind;
    m.player = static_cast<std::int8_t>(x.player);
    m.ref = x.ref;
    m.chooser = x.chooser;
    m.chooser_player = static_cast<std::int8_t>(x.chooser_player);
    m.progress = x.progress;
    std::copy(x.state.begin(), x.state.end(), out.add(m));
  }
}

}  // namespace loophole::checker
