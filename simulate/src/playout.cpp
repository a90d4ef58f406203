// One playout (playout.hpp). A state's successors come from the compiled
// generator in Semantics::successors order; consecutive successors of the
// same move (kind, player, action or trigger) are one move's outcomes. The
// policy picks a move; then one outcome is drawn, weighted by the number of
// ways to take the cards that leave zones in it (C(before, taken) per card
// kind and zone): for a draw of n cards that is the hypergeometric law of
// drawing from the cards actually in the deck, for a random card of a zone
// each card equally likely, and 1 for outcomes that take no card. Outcomes
// are weighted as whole leaves, so a move whose choices nest (a draw, and
// depending on the card another choice) is only approximately weighted
// (docs/simulate.md). The weights are multiplied together in doubles; they
// stay exact for any deck below 2^53 ways.
#include "playout.hpp"

#include <algorithm>

namespace loophole::simulate::detail {
namespace {

std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ULL;

}  // namespace

double binomial(std::int32_t n, std::int32_t k) {
  double r = 1;
  for (std::int32_t i = 1; i <= k; ++i) r = r * static_cast<double>(n - k + i) / i;
  return r;
}

namespace {

std::vector<const model::Expr*> property_exprs(const Shared& sh) {
  std::vector<const model::Expr*> out;
  for (const auto* p : sh.watched) out.push_back(p->expr.get());
  return out;
}

}  // namespace

Playout::Playout(const Shared& shared, Tally& tally)
    : sh_(shared), t_(tally), conditions_(shared.sem, property_exprs(shared)) {
  const auto& g = sh_.sem.game();
  action_seen_.assign(g.actions.size(), 0);
  trigger_seen_.assign(g.triggers.size(), 0);
  step_seen_.assign(g.steps.size(), 0);
}

// SplitMix64: the stream of game i starts from mix(seed ^ mix(i + golden)),
// whatever thread plays it.
std::uint64_t Playout::next() { return mix(rng_ += golden); }

double Playout::unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

std::size_t Playout::below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

double Playout::weight(const std::int32_t* before, const std::int32_t* after) const {
  double w = 1;
  for (const int x : sh_.zone_slots) {
    if (after[x] < before[x]) w *= binomial(before[x], before[x] - after[x]);
  }
  return w;
}

std::size_t Playout::weighted(const std::int32_t* before, std::size_t first, std::size_t end) {
  if (end - first == 1) return first;
  weights_.clear();
  double total = 0;
  bool uniform = true;
  for (std::size_t i = first; i < end; ++i) {
    const double w = weight(before, buf_.state(i));
    uniform = uniform && w == 1;
    weights_.push_back(w);
    total += w;
  }
  if (uniform) return first + below(end - first);
  double r = unit() * total;
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    r -= weights_[i];
    if (r < 0) return first + i;
  }
  return end - 1;
}

std::size_t Playout::choose(const std::int32_t* before) {
  groups_.clear();
  const std::size_t n = buf_.size();
  checker::MoveFields last = buf_.move(0);
  groups_.push_back(Group{0, 1});
  for (std::size_t i = 1; i < n; ++i) {
    const checker::MoveFields m = buf_.move(i);
    if (m.kind == last.kind && m.player == last.player && m.ref == last.ref) {
      groups_.back().end = i + 1;
    } else {
      groups_.push_back(Group{i, i + 1});
      last = m;
    }
  }
  std::size_t g = 0;
  const bool greedy =
      sh_.options.policy == Policy::greedy && sh_.potential && !sh_.potential->empty();
  if (greedy && groups_.size() == 1 && n > 1 && buf_.move(0).chooser == checker::Chooser::player &&
      buf_.move(0).chooser_player >= 0) {
    // The only move's outcomes are a player's pick: theirs to choose, greedily.
    const int picker = buf_.move(0).chooser_player;
    std::int64_t best = 0;
    best_.clear();
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t value = sh_.potential->of(buf_.state(i), picker);
      if (best_.empty() || value > best) {
        best = value;
        best_.assign(1, i);
      } else if (value == best) {
        best_.push_back(i);
      }
    }
    return best_[below(best_.size())];
  }
  if (groups_.size() > 1) {
    const int mover = buf_.move(0).player;
    if (greedy && mover >= 0) {
      // The move with the highest expected potential for its mover (each
      // outcome weighted as above); ties drawn uniformly.
      double best = 0;
      best_.clear();
      for (std::size_t k = 0; k < groups_.size(); ++k) {
        double sum = 0, total = 0;
        for (std::size_t i = groups_[k].first; i < groups_[k].end; ++i) {
          const std::int32_t* after = buf_.state(i);
          const double w = weight(before, after);
          sum += w * static_cast<double>(sh_.potential->of(after, mover));
          total += w;
        }
        const double value = sum / total;
        if (best_.empty() || value > best) {
          best = value;
          best_.assign(1, k);
        } else if (value == best) {
          best_.push_back(k);
        }
      }
      g = best_[below(best_.size())];
    } else {
      g = below(groups_.size());
    }
  }
  return weighted(before, groups_[g].first, groups_[g].end);
}

void Playout::met(const ProblemKey& key, std::uint64_t game, const std::int32_t* state) {
  Example& e = t_.problems[key];
  ++e.games;
  if (game < e.game) {
    e.game = game;
    e.initial = initial_;
    e.moves = moves_;
    e.last.assign(state, state + sh_.generator.fields());
  }
}

void Playout::check_properties(const std::int32_t* state, std::uint64_t game) {
  if (sh_.watched.empty()) return;
  const auto& g = sh_.sem.game();
  const int step = state[sh_.sem.layout().step];
  for (std::size_t i = 0; i < sh_.watched.size(); ++i) {
    if (violated_[i]) continue;
    const model::Property& p = *sh_.watched[i];
    if (!p.at_phases.empty() || !p.at_steps.empty()) {
      const bool at = std::find(p.at_steps.begin(), p.at_steps.end(), step) != p.at_steps.end() ||
                      (step >= 0 && static_cast<std::size_t>(step) < g.steps.size() &&
                       std::find(p.at_phases.begin(), p.at_phases.end(), g.steps[step].phase) !=
                           p.at_phases.end());
      if (!at) continue;
    }
    const bool holds = conditions_.holds(i, state_);
    if ((p.kind == model::Property::Kind::always) == holds) continue;
    violated_[i] = true;
    met(ProblemKey{properties::Kind::property_violation, static_cast<int>(i), -1, -1}, game, state);
  }
}

bool Playout::play(std::uint64_t game) {
  const checker::Layout& layout = sh_.sem.layout();
  const int players = sh_.sem.game().players;
  rng_ = mix(sh_.options.seed ^ mix(game + golden));
  moves_.clear();
  violated_.assign(sh_.watched.size(), false);
  // The deal: setup's outcomes, weighted from the zones' initial counts.
  initial_ = 0;
  if (sh_.initial.size() > 1) {
    double r = unit() * sh_.initial_weights.back();
    while (initial_ + 1 < sh_.initial.size() && r >= sh_.initial_weights[initial_]) ++initial_;
  }
  state_ = sh_.initial[initial_];
  check_properties(state_.data(), game);
  Ending ending = Ending::over;
  for (;;) {
    const std::int32_t over = state_[static_cast<std::size_t>(layout.over)];
    if (over == 1) {
      ending = Ending::over;
      break;
    }
    if (over == 2) {
      ending = Ending::gap;
      const int site = layout.gap >= 0 ? state_[static_cast<std::size_t>(layout.gap)] - 1 : -1;
      met(ProblemKey{properties::Kind::rule_gap, site, -1, -1}, game, state_.data());
      break;
    }
    sh_.generator.successors(state_.data(), buf_);
    if (buf_.size() == 0) {
      ending = Ending::deadlock;
      const int step = state_[static_cast<std::size_t>(layout.step)];
      const int stage = state_[static_cast<std::size_t>(layout.stage)];
      const int active = state_[static_cast<std::size_t>(layout.active)];
      int seat = -1;
      if (layout.window_holder >= 0 && stage == static_cast<int>(checker::Stage::window)) {
        seat =
            (state_[static_cast<std::size_t>(layout.window_holder)] - active + players) % players;
      }
      met(ProblemKey{properties::Kind::deadlock, step, stage, seat}, game, state_.data());
      break;
    }
    if (moves_.size() >= sh_.options.max_moves) {
      ending = Ending::cut_off;
      break;
    }
    if ((moves_.size() & 1023) == 1023 && sh_.stop.load(std::memory_order_relaxed)) return false;
    const std::size_t i = choose(state_.data());
    const checker::MoveFields m = buf_.move(i);
    const std::uint64_t mark = game + 1;
    if (m.kind == checker::MoveKind::action && m.ref >= 0) {
      ++t_.action_uses[static_cast<std::size_t>(m.ref)];
      if (action_seen_[static_cast<std::size_t>(m.ref)] != mark) {
        action_seen_[static_cast<std::size_t>(m.ref)] = mark;
        ++t_.action_games[static_cast<std::size_t>(m.ref)];
      }
    } else if (m.kind == checker::MoveKind::trigger && m.ref >= 0) {
      ++t_.trigger_uses[static_cast<std::size_t>(m.ref)];
      if (trigger_seen_[static_cast<std::size_t>(m.ref)] != mark) {
        trigger_seen_[static_cast<std::size_t>(m.ref)] = mark;
        ++t_.trigger_games[static_cast<std::size_t>(m.ref)];
      }
    }
    const std::int32_t* after = buf_.state(i);
    if (m.progress) {
      const auto step = static_cast<std::size_t>(after[layout.step]);
      if (step < step_seen_.size()) {
        ++t_.step_uses[step];
        if (step_seen_[step] != mark) {
          step_seen_[step] = mark;
          ++t_.step_games[step];
        }
      }
    }
    moves_.push_back(static_cast<std::uint32_t>(i));
    prev_.swap(state_);
    state_.assign(after, after + sh_.generator.fields());
    check_properties(state_.data(), game);
  }

  ++t_.games;
  ++t_.lengths[moves_.size()];
  switch (ending) {
    case Ending::over: {
      ++t_.ended;
      int player = -1;
      bool win = false;
      if (!moves_.empty()) {
        // Who it ended for: the last move, on the reference with its record.
        sh_.sem.successors(prev_, ref_, true);
        const checker::Successor& s = ref_[moves_.back()];
        player = s.end_player;
        win = s.end_win;
      }
      if (player < 0 || player >= players) {
        ++t_.no_winner;
      } else if (win) {
        ++t_.wins[static_cast<std::size_t>(player)];
        for (int q = 0; q < players; ++q) {
          if (q != player) ++t_.losses[static_cast<std::size_t>(q)];
        }
      } else {
        ++t_.losses[static_cast<std::size_t>(player)];
        if (players == 2) {
          ++t_.wins[static_cast<std::size_t>(1 - player)];
        } else {
          ++t_.no_winner;
        }
      }
      break;
    }
    case Ending::gap:
      ++t_.gaps;
      break;
    case Ending::deadlock:
      ++t_.deadlocks;
      break;
    case Ending::cut_off:
      ++t_.cut_off;
      break;
  }
  return true;
}

}  // namespace loophole::simulate::detail
