// simulate(): the games are handed to the threads in chunks by an atomic
// counter; each thread plays its games into its own Tally (playout.hpp), and
// the tallies are summed at the end. A game's course depends only on (seed,
// game index), sums do not depend on order, and each problem keeps the
// example of its lowest game index, so every thread count gives the same
// Result. The calling thread watches the time limit and the interrupt flag
// meanwhile; a game cut short by them is not counted.
#include "loophole/simulate/simulate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "loophole/checker/generator.hpp"

#include "playout.hpp"

namespace loophole::simulate {

using detail::Example;
using detail::ProblemKey;
using detail::Tally;

Interval wilson(std::uint64_t k, std::uint64_t n) {
  if (n == 0) return {0, 1};
  const double z = 1.959963984540054;
  const double nn = static_cast<double>(n);
  const double p = static_cast<double>(k) / nn;
  const double denom = 1 + z * z / nn;
  const double centre = (p + z * z / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::string_view to_string(Policy p) { return p == Policy::greedy ? "greedy" : "uniform"; }

namespace {

constexpr std::uint64_t chunk = 64;

std::string step_label(const model::Game& g, int step) {
  if (step < 0 || static_cast<std::size_t>(step) >= g.steps.size()) return "setup";
  const model::Step& s = g.steps[static_cast<std::size_t>(step)];
  return fmt::format("{} · {}", g.phases[static_cast<std::size_t>(s.phase)].name, s.name);
}

std::string step_rule(const model::Game& g, int step) {
  if (step < 0 || static_cast<std::size_t>(step) >= g.steps.size()) return "setup";
  return "step:" + g.step_name(step);
}

void add(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& from) {
  for (std::size_t i = 0; i < into.size(); ++i) into[i] += from[i];
}

void merge(Tally& into, const Tally& t) {
  into.games += t.games;
  add(into.wins, t.wins);
  add(into.losses, t.losses);
  into.no_winner += t.no_winner;
  into.ended += t.ended;
  into.gaps += t.gaps;
  into.deadlocks += t.deadlocks;
  into.cut_off += t.cut_off;
  add(into.lengths, t.lengths);
  add(into.action_uses, t.action_uses);
  add(into.action_games, t.action_games);
  add(into.trigger_uses, t.trigger_uses);
  add(into.trigger_games, t.trigger_games);
  add(into.step_uses, t.step_uses);
  add(into.step_games, t.step_games);
  for (const auto& [key, e] : t.problems) {
    Example& x = into.problems[key];
    const std::uint64_t games = x.games + e.games;
    if (e.game < x.game) x = e;
    x.games = games;
  }
}

Tally empty_tally(const model::Game& g, std::uint32_t max_moves) {
  Tally t;
  const auto players = static_cast<std::size_t>(g.players);
  t.wins.assign(players, 0);
  t.losses.assign(players, 0);
  t.lengths.assign(std::size_t{max_moves} + 1, 0);
  t.action_uses.assign(g.actions.size(), 0);
  t.action_games.assign(g.actions.size(), 0);
  t.trigger_uses.assign(g.triggers.size(), 0);
  t.trigger_games.assign(g.triggers.size(), 0);
  t.step_uses.assign(g.steps.size(), 0);
  t.step_games.assign(g.steps.size(), 0);
  return t;
}

// The length m at which `fraction` of the games have at most m moves.
std::uint32_t quantile(const std::vector<std::uint64_t>& lengths, std::uint64_t games,
                       double fraction) {
  const auto need = static_cast<std::uint64_t>(std::ceil(fraction * static_cast<double>(games)));
  std::uint64_t seen = 0;
  for (std::size_t m = 0; m < lengths.size(); ++m) {
    seen += lengths[m];
    if (seen >= std::max<std::uint64_t>(need, 1)) return static_cast<std::uint32_t>(m);
  }
  return 0;
}

properties::Finding problem(const checker::Semantics& sem, const detail::Shared& sh,
                            const ProblemKey& key, const Example& e, std::uint64_t games) {
  const model::Game& g = sem.game();
  properties::Finding f;
  f.kind = key.kind;
  f.severity = properties::Severity::error;
  f.verdict = properties::Verdict::violated;
  f.engine = "simulate";
  switch (key.kind) {
    case properties::Kind::rule_gap: {
      const checker::GapSite& site = sem.gaps().at(static_cast<std::size_t>(key.a));
      f.rule = site.rule;
      f.where = site.where;
      f.message = site.message;
      break;
    }
    case properties::Kind::deadlock: {
      f.rule = step_rule(g, key.a);
      const model::Step* step = key.a >= 0 && static_cast<std::size_t>(key.a) < g.steps.size()
                                    ? &g.steps[static_cast<std::size_t>(key.a)]
                                    : nullptr;
      const bool in_window = key.b == static_cast<int>(checker::Stage::window);
      f.where = step == nullptr                           ? g.where
                : in_window && step->window_where.known() ? step->window_where
                                                          : step->where;
      if (in_window && step != nullptr && step->window >= 0 && key.c >= 0) {
        const model::Window& w = g.windows[static_cast<std::size_t>(step->window)];
        const int active = e.last[static_cast<std::size_t>(sem.layout().active)];
        f.message =
            fmt::format("in '{}', P{} {} and can neither act nor pass", step_label(g, key.a),
                        (active + key.c) % g.players + 1,
                        w.protocol == model::Protocol::priority ? "holds priority" : "is to move");
      } else {
        f.message = fmt::format("in '{}', no move is possible", step_label(g, key.a));
      }
      break;
    }
    default: {
      const model::Property& p = *sh.watched.at(static_cast<std::size_t>(key.a));
      f.rule = "property:" + p.name;
      f.where = p.where;
      const int step = e.last[static_cast<std::size_t>(sem.layout().step)];
      f.message = p.kind == model::Property::Kind::always
                      ? fmt::format("'{}' does not always hold: it fails in '{}'", p.name,
                                    step_label(g, step))
                      : fmt::format("'{}' should never hold, but it does in '{}'", p.name,
                                    step_label(g, step));
      break;
    }
  }
  f.details.push_back(
      fmt::format("met in {} of {} simulated games; the trace is game #{} of seed {}", e.games,
                  games, e.game, sh.options.seed));
  f.trace = checker::trace_of_moves(sem, e.initial, e.moves, e.last);
  return f;
}

}  // namespace

Result simulate(const checker::Semantics& sem, const Options& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const model::Game& g = sem.game();
  const checker::Generator generator(
      sem, options.native ? checker::NativeMode::on : checker::NativeMode::off);
  detail::Shared sh{sem, generator, options, sem.initial_states(), {}, {}, {}, {}, {}};
  const std::size_t data = sem.layout().data_fields;
  for (std::size_t i = 0; i < data && i < g.slots.size(); ++i) {
    if (g.slots[i].zone >= 0) sh.zone_slots.push_back(static_cast<int>(i));
  }
  // Setup's outcomes weighted as a move's, from the zones' initial counts.
  std::vector<std::int32_t> init(generator.fields(), 0);
  for (std::size_t i = 0; i < g.slots.size() && i < init.size(); ++i) init[i] = g.slots[i].init;
  double cumulative = 0;
  for (const auto& s : sh.initial) {
    double w = 1;
    for (const int x : sh.zone_slots) {
      if (s[static_cast<std::size_t>(x)] < init[static_cast<std::size_t>(x)]) {
        w *= detail::binomial(init[static_cast<std::size_t>(x)],
                              init[static_cast<std::size_t>(x)] - s[static_cast<std::size_t>(x)]);
      }
    }
    cumulative += w;
    sh.initial_weights.push_back(cumulative);
  }
  for (const auto& p : g.properties) {
    if (p.expr &&
        (p.kind == model::Property::Kind::always || p.kind == model::Property::Kind::never)) {
      sh.watched.push_back(&p);
    }
  }
  if (options.policy == Policy::greedy) {
    sh.potential = std::make_unique<detail::Potential>(g, sem.layout());
  }

  Result r;
  r.requested = options.games;
  r.seed = options.seed;
  r.policy = options.policy;
  r.max_moves = options.max_moves;
  r.generator = generator.name();
  int threads = options.threads > 0
                    ? options.threads
                    : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::min<std::uint64_t>(
      static_cast<std::uint64_t>(threads), std::max<std::uint64_t>(1, options.games / chunk + 1)));
  r.threads = threads;

  std::vector<Tally> tallies;
  for (int i = 0; i < threads; ++i) tallies.push_back(empty_tally(g, options.max_moves));
  std::atomic<std::uint64_t> next{0};
  std::atomic<int> running{threads};
  std::vector<std::thread> workers;
  std::exception_ptr failure;
  std::mutex failure_lock;
  if (!sh.initial.empty()) {
    for (int i = 0; i < threads; ++i) {
      workers.emplace_back([&, i] {
        try {
          detail::Playout playout(sh, tallies[static_cast<std::size_t>(i)]);
          for (;;) {
            const std::uint64_t first = next.fetch_add(chunk);
            if (first >= options.games) break;
            const std::uint64_t end = std::min(options.games, first + chunk);
            for (std::uint64_t game = first; game < end; ++game) {
              if (sh.stop.load(std::memory_order_relaxed) || !playout.play(game)) break;
            }
            if (sh.stop.load(std::memory_order_relaxed)) break;
          }
        } catch (...) {
          const std::lock_guard<std::mutex> lock(failure_lock);
          if (!failure) failure = std::current_exception();
          sh.stop = true;
        }
        --running;
      });
    }
  }
  while (running.load() > 0 && !workers.empty()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (!sh.stop && options.interrupt != nullptr && options.interrupt->load()) {
      r.completion = "interrupted";
      sh.stop = true;
    }
    if (!sh.stop && options.timeout_seconds > 0 && seconds >= options.timeout_seconds) {
      r.completion = "time-limit";
      sh.stop = true;
    }
  }
  for (auto& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);

  Tally total = empty_tally(g, options.max_moves);
  for (const Tally& t : tallies) merge(total, t);
  r.games = total.games;
  r.wins = total.wins;
  r.losses = total.losses;
  r.no_winner = total.no_winner;
  r.ended = total.ended;
  r.gaps = total.gaps;
  r.deadlocks = total.deadlocks;
  r.cut_off = total.cut_off;
  std::size_t last = 0;
  for (std::size_t m = 0; m < total.lengths.size(); ++m) {
    if (total.lengths[m] > 0) last = m;
  }
  r.lengths.assign(total.lengths.begin(),
                   total.lengths.begin() + static_cast<std::ptrdiff_t>(last + 1));
  if (r.games > 0) {
    r.min_length = quantile(r.lengths, r.games, 0);
    r.median_length = quantile(r.lengths, r.games, 0.5);
    r.p90_length = quantile(r.lengths, r.games, 0.9);
    r.max_length = static_cast<std::uint32_t>(last);
  }
  for (std::size_t a = 0; a < g.actions.size(); ++a) {
    r.actions.push_back(Usage{"action:" + g.actions[a].name, g.actions[a].where,
                              total.action_uses[a], total.action_games[a]});
  }
  for (std::size_t t = 0; t < g.triggers.size(); ++t) {
    r.triggers.push_back(Usage{"trigger:" + g.triggers[t].name, g.triggers[t].where,
                               total.trigger_uses[t], total.trigger_games[t]});
  }
  for (std::size_t s = 0; s < g.steps.size(); ++s) {
    r.steps.push_back(Usage{step_rule(g, static_cast<int>(s)), g.steps[s].where, total.step_uses[s],
                            total.step_games[s]});
  }
  for (const auto& [key, e] : total.problems) {
    r.problems.push_back(problem(sem, sh, key, e, r.games));
    r.problem_games.push_back(e.games);
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

}  // namespace loophole::simulate
