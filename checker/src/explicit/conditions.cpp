// Conditions (conditions.hpp) on the compiled generator: the whole game is
// compiled as for a search (a few milliseconds), then the conditions into
// the same program, so that they share its domains and slot tables.
#include "loophole/checker/conditions.hpp"

#include <optional>

#include "compiled.hpp"
#include "compiled_expr.hpp"
#include "compiled_program.hpp"

namespace loophole::checker {

struct Conditions::Impl {
  const Semantics& sem;
  std::vector<const model::Expr*> exprs;
  std::unique_ptr<CompiledSystem::Program> program;  // null: all on the reference
  std::vector<int> starts;
  std::optional<ExprMachine> machine;
  mutable std::vector<std::int64_t> binders;
  mutable FlatSuccessors scratch;  // enabled_actions'
};

Conditions::Conditions(const Semantics& sem, std::vector<const model::Expr*> conditions)
    : impl_(std::make_unique<Impl>(Impl{sem, std::move(conditions), nullptr, {}, {}, {}, {}})) {
  auto program = std::make_unique<CompiledSystem::Program>(sem.game());
  try {
    compile(*program);
  } catch (const CompiledSystem::Unsupported&) {
    return;  // a game the generator does not handle
  }
  impl_->starts = compile_conditions(*program, impl_->exprs);
  impl_->binders.assign(static_cast<std::size_t>(std::max(0, program->binders)), 0);
  impl_->program = std::move(program);
  impl_->machine.emplace(*impl_->program);
}

Conditions::~Conditions() = default;

bool Conditions::holds(std::size_t i, const StateVec& s) const {
  const model::Expr* e = impl_->exprs.at(i);
  if (e == nullptr) return true;
  if (impl_->program == nullptr || impl_->starts[i] == no_program) return impl_->sem.holds(*e, s);
  int error = -1;
  const int self = get(s.data(), impl_->program->low.ctl.active);
  const std::int64_t v =
      impl_->machine->eval(impl_->starts[i], s.data(), impl_->binders.data(), self, error);
  return error < 0 && v != 0;
}

void Conditions::enabled_actions(const StateVec& s, std::vector<int>& out) const {
  if (impl_->program == nullptr) return impl_->sem.enabled_actions(s, out);
  checker::enabled_actions(*impl_->program, s.data(), impl_->scratch, out);
}

std::size_t Conditions::compiled() const {
  if (impl_->program == nullptr) return 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < impl_->exprs.size(); ++i) {
    n += impl_->exprs[i] != nullptr && impl_->starts[i] >= 0 ? 1 : 0;
  }
  return n;
}

}  // namespace loophole::checker
