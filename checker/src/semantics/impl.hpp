// The private state of Semantics: the prepared game and its evaluator,
// shared by the files that implement Semantics' members (semantics.cpp,
// describe.cpp, replay.cpp). Each query builds a Run over scratch buffers.
#pragma once

#include "eval.hpp"

namespace loophole::checker {

struct Semantics::Impl {
  explicit Impl(const model::Game& game) : prep(game), ev(prep) {}
  semantics::Prepared prep;
  semantics::Evaluator ev;
};

}  // namespace loophole::checker
