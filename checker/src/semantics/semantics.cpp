// Semantics: the public face of the reference semantics. It prepares the game
// once (layout, gap sites, tables) and hands each query to a Run over
// per-thread scratch buffers, so successors() allocates nothing once the
// buffers have grown and any number of threads may call it at once.
#include <memory>

#include "impl.hpp"
#include "run.hpp"

namespace loophole::checker {

using semantics::Env;
using semantics::Evaluator;
using semantics::Prepared;
using semantics::Run;
using semantics::Scratch;

namespace semantics {

Prepared::Prepared(const model::Game& g) : game(g) {
  players = g.players;
  kinds = static_cast<int>(g.kinds.size());
  window_used.assign(g.windows.size(), false);
  for (const auto& st : g.steps) {
    if (st.window >= 0) window_used[st.window] = true;
  }
  collect_gaps(g, window_used, gaps);
  build_layout(g, gaps, layout, ctl);
  triggers_by_event.assign(g.events.size(), {});
  for (std::size_t t = 0; t < g.triggers.size(); ++t) {
    const int e = g.triggers[t].event;
    if (e >= 0 && e < static_cast<int>(g.events.size())) {
      triggers_by_event[e].push_back(static_cast<int>(t));
    }
  }
  window_actions.assign(g.windows.size(), {});
  for (std::size_t a = 0; a < g.actions.size(); ++a) {
    const auto& act = g.actions[a];
    for (std::size_t w = 0; w < g.windows.size(); ++w) {
      bool listed = act.windows.empty();
      for (int x : act.windows) listed = listed || x == static_cast<int>(w);
      if (listed) window_actions[w].push_back(static_cast<int>(a));
    }
  }
  kinds_by_tag.assign(g.tags.size(), {});
  for (int k = 0; k < kinds; ++k) {
    for (int t : g.kinds[k].tags) {
      if (t >= 0 && t < static_cast<int>(kinds_by_tag.size())) kinds_by_tag[t].push_back(k);
    }
  }
  for (std::size_t e = 0; e < g.events.size(); ++e) {
    if (g.events[e].kind == model::EventDecl::Kind::begin_turn) {
      begin_turn_event = static_cast<int>(e);
    }
    if (g.events[e].kind == model::EventDecl::Kind::end_turn) {
      end_turn_event = static_cast<int>(e);
    }
  }
}

namespace {

// Scratch buffers for the calling thread; a nested call (describe() asking
// for successors) simply takes a second set.
class Lease {
 public:
  Lease() {
    if (pool().empty()) {
      scratch_ = std::make_unique<Scratch>();
    } else {
      scratch_ = std::move(pool().back());
      pool().pop_back();
    }
  }
  ~Lease() { pool().push_back(std::move(scratch_)); }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  Scratch& get() { return *scratch_; }

 private:
  static std::vector<std::unique_ptr<Scratch>>& pool() {
    thread_local std::vector<std::unique_ptr<Scratch>> free;
    return free;
  }
  std::unique_ptr<Scratch> scratch_;
};

}  // namespace
}  // namespace semantics

Semantics::Semantics(const model::Game& game) : game_(game), impl_(new Impl(game)) {}

Semantics::~Semantics() { delete impl_; }

const Layout& Semantics::layout() const { return impl_->prep.layout; }

const std::vector<GapSite>& Semantics::gaps() const { return impl_->prep.gaps.sites; }

bool Semantics::is_final(const StateVec& s) const { return s[impl_->prep.ctl.over] != 0; }

std::vector<StateVec> Semantics::initial_states() const {
  semantics::Lease lease;
  std::vector<StateVec> out;
  Run run(impl_->prep, impl_->ev, lease.get(), false);
  run.initial_states(out);
  return out;
}

void Semantics::successors(const StateVec& s, std::vector<Successor>& out,
                           bool with_choices) const {
  semantics::Lease lease;
  Run run(impl_->prep, impl_->ev, lease.get(), with_choices);
  run.successors(s, out);
}

bool Semantics::holds(const model::Expr& e, const StateVec& s, int self) const {
  semantics::Lease lease;
  auto& binders = lease.get().aux_binders;
  binders.assign(static_cast<std::size_t>(std::max(0, game_.binder_slots)), 0);
  Env env{s.data(), binders.data(), self, -1};
  const bool holds = impl_->ev.eval(e, env) != 0;
  return env.error < 0 && holds;
}

Semantics::Value Semantics::evaluate(const model::Expr& e, const StateVec& s, int self,
                                     std::vector<std::int64_t>& binders) const {
  binders.resize(static_cast<std::size_t>(std::max(1, game_.binder_slots)), 0);
  Env env{s.data(), binders.data(), self, -1};
  const std::int64_t v = impl_->ev.eval(e, env);
  return env.error >= 0 ? Value{0, env.error} : Value{v, -1};
}

std::vector<StateVec> Semantics::effect_outcomes(const model::Stmt& effect, const StateVec& s,
                                                 int self) const {
  semantics::Lease lease;
  std::vector<StateVec> out;
  Run run(impl_->prep, impl_->ev, lease.get(), false);
  run.effect_outcomes(&effect, s, self, out);
  return out;
}

void Semantics::end_conditions_holding(const StateVec& s,
                                       std::vector<std::pair<int, int>>& out) const {
  out.clear();
  const auto& prep = impl_->prep;
  const int active = s[prep.ctl.active];
  for (std::size_t c = 0; c < game_.end_conditions.size(); ++c) {
    const auto& end = game_.end_conditions[c];
    for (int p = 0; p < prep.players; ++p) {
      if (!prep.covers(end.who, p, active, s.data())) continue;
      if (end.condition == nullptr || holds(*end.condition, s, p)) {
        out.emplace_back(static_cast<int>(c), p);
      }
    }
  }
}

void Semantics::enabled_actions(const StateVec& s, std::vector<int>& out) const {
  out.clear();
  const auto& ctl = impl_->prep.ctl;
  if (s[ctl.over] != 0 || s[ctl.stage] != static_cast<std::int32_t>(Stage::window)) return;
  semantics::Lease lease;
  Run run(impl_->prep, impl_->ev, lease.get(), false);
  run.collect_moves(s);
  for (const auto& m : lease.get().moves) {
    if (m.kind == MoveKind::action && m.gap < 0) out.push_back(m.ref);
  }
}

}  // namespace loophole::checker
