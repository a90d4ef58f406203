// LoopForcing (loop_forcing.hpp).
#include "loop_forcing.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "move_groups.hpp"

namespace loophole::properties::detail {

LoopForcing::LoopForcing(const Context& cx) : cx_(cx) {}

std::vector<std::uint32_t> LoopForcing::coalitions(const std::vector<StateId>& members,
                                                   StateId entry, const EdgePredicate& keep) {
  if (!generator_) generator_ = std::make_unique<checker::Generator>(cx_.semantics);
  const auto local = [&](StateId v) -> std::int64_t {
    const auto it = std::lower_bound(members.begin(), members.end(), v);
    return it != members.end() && *it == v ? it - members.begin() : -1;
  };
  const std::size_t k = members.size();
  const std::int64_t at = local(entry);
  if (at < 0) return {};
  // Per state its moves (first_move[i]..first_move[i+1]), who chooses them;
  // per move its outcomes, how many stay, who picks; per staying edge its
  // move and target (then grouped by target: the predecessors).
  std::vector<std::uint32_t> first_move(k + 1, 0), movers(k, 0);
  std::vector<std::uint8_t> nobody(k, 0);
  std::vector<std::uint32_t> outcomes, staying;
  std::vector<std::int8_t> picker;
  std::vector<std::uint32_t> edge_move, edge_to;
  checker::Generator::Buffer buf;
  checker::StateVec s;
  StateMoves sm;
  for (std::size_t i = 0; i < k; ++i) {
    const StateId v = members[i];
    cx_.graph.state_into(v, s);
    generator_->successors(s.data(), buf);
    group_moves(buf, sm);
    first_move[i] = static_cast<std::uint32_t>(outcomes.size());
    movers[i] = sm.movers;
    nobody[i] = sm.nobody ? 1 : 0;
    const auto base = static_cast<std::uint32_t>(outcomes.size());
    outcomes.resize(base + sm.moves(), 0);
    staying.resize(base + sm.moves(), 0);
    picker.insert(picker.end(), sm.picker.begin(), sm.picker.end());
    for (const Edge& e : cx_.moves.out(v)) {
      if (e.index >= sm.move_of.size()) continue;  // (the graph and generator agree)
      const std::uint32_t m = base + sm.move_of[e.index];
      ++outcomes[m];
      const std::int64_t to = keep(v, e) ? local(e.to) : -1;
      if (to < 0) continue;
      ++staying[m];
      edge_move.push_back(m);
      edge_to.push_back(static_cast<std::uint32_t>(to));
    }
  }
  first_move[k] = static_cast<std::uint32_t>(outcomes.size());
  std::vector<std::uint32_t> move_state(outcomes.size());
  for (std::uint32_t i = 0; i < k; ++i) {
    for (std::uint32_t m = first_move[i]; m < first_move[i + 1]; ++m) move_state[m] = i;
  }
  // The staying edges by target: pred[pred_begin[t]..pred_begin[t+1]] are moves.
  std::vector<std::uint32_t> pred_begin(k + 1, 0), pred(edge_move.size());
  for (const std::uint32_t t : edge_to) ++pred_begin[t + 1];
  for (std::size_t i = 0; i < k; ++i) pred_begin[i + 1] += pred_begin[i];
  {
    std::vector<std::uint32_t> fill(pred_begin.begin(), pred_begin.end() - 1);
    for (std::size_t e = 0; e < edge_move.size(); ++e) pred[fill[edge_to[e]]++] = edge_move[e];
  }

  const int players = cx_.game.players;
  std::vector<std::uint32_t> found;
  std::vector<std::uint32_t> stay(outcomes.size()), ok_moves(k);
  std::vector<std::uint8_t> in(k);
  std::vector<std::uint32_t> queue;
  const auto forces = [&](std::uint32_t c) {
    const auto move_ok = [&](std::uint32_t m) {
      const bool picks = picker[m] >= 0 && ((c >> static_cast<unsigned>(picker[m])) & 1U) != 0;
      return picks ? stay[m] > 0 : stay[m] == outcomes[m];
    };
    const auto chosen = [&](std::uint32_t i) {
      const std::uint32_t moves = first_move[i + 1] - first_move[i];
      return moves > 1 && nobody[i] == 0 && movers[i] != 0 && (movers[i] & ~c) == 0;
    };
    const auto state_ok = [&](std::uint32_t i) {
      const std::uint32_t moves = first_move[i + 1] - first_move[i];
      return moves > 0 && (chosen(i) ? ok_moves[i] > 0 : ok_moves[i] == moves);
    };
    std::copy(staying.begin(), staying.end(), stay.begin());
    queue.clear();
    for (std::uint32_t i = 0; i < k; ++i) {
      ok_moves[i] = 0;
      for (std::uint32_t m = first_move[i]; m < first_move[i + 1]; ++m) ok_moves[i] += move_ok(m);
      in[i] = state_ok(i) ? 1 : 0;
      if (in[i] == 0) queue.push_back(i);
    }
    while (!queue.empty()) {
      const std::uint32_t w = queue.back();
      queue.pop_back();
      for (std::uint32_t j = pred_begin[w]; j < pred_begin[w + 1]; ++j) {
        const std::uint32_t m = pred[j];
        const std::uint32_t i = move_state[m];
        if (in[i] == 0) continue;
        const bool was = move_ok(m);
        --stay[m];
        if (was && !move_ok(m)) --ok_moves[i];
        if (!state_ok(i)) {
          in[i] = 0;
          queue.push_back(i);
        }
      }
    }
    return in[static_cast<std::size_t>(at)] != 0;
  };
  // Smallest first: every coalition containing one that forces it does too.
  std::vector<std::uint32_t> masks;
  for (std::uint32_t c = 0; c < (1U << static_cast<unsigned>(players)); ++c) masks.push_back(c);
  std::stable_sort(masks.begin(), masks.end(), [](std::uint32_t a, std::uint32_t b) {
    return std::popcount(a) < std::popcount(b);
  });
  for (const std::uint32_t c : masks) {
    if (cx_.interrupted()) break;
    if (std::any_of(found.begin(), found.end(), [&](std::uint32_t f) { return (f & ~c) == 0; }))
      continue;
    if (forces(c)) found.push_back(c);
  }
  return found;
}

std::string forcing_detail(const std::vector<std::uint32_t>& coalitions, int players) {
  const auto names = [](std::uint32_t c) {
    std::vector<std::string> ps;
    for (int p = 0; p < 32; ++p) {
      if (((c >> static_cast<unsigned>(p)) & 1U) != 0) ps.push_back(Context::player(p));
    }
    std::string s;
    for (std::size_t i = 0; i < ps.size(); ++i) {
      if (i > 0) s += i + 1 == ps.size() ? " and " : ", ";
      s += ps[i];
    }
    return s;
  };
  if (coalitions.empty()) {
    return "no player, nor all of them together, can force this loop: nature's choices or moves "
           "nobody chooses can end it";
  }
  if (coalitions.front() == 0) {
    return "no choice of any player or of nature leaves this loop once it is entered";
  }
  std::vector<std::string> alone, together;
  for (const std::uint32_t c : coalitions) {
    (std::popcount(c) == 1 ? alone : together).push_back(names(c));
  }
  const std::string whatever = players == 2 ? "whatever the other player and nature choose"
                                            : "whatever the other players and nature choose";
  std::string out;
  if (!alone.empty()) {
    out = fmt::format("{} alone can force this loop ({})", alone[0], whatever);
    for (std::size_t i = 1; i < alone.size(); ++i) {
      out += fmt::format(", and so can {} alone", alone[i]);
    }
    if (!together.empty()) out += "; so can " + together[0] + " together";
    for (std::size_t i = 1; i < together.size(); ++i) out += ", or " + together[i] + " together";
    return out;
  }
  out = "no player can force this loop alone; it needs " + together[0];
  for (std::size_t i = 1; i < together.size(); ++i) out += ", or " + together[i];
  out += together.size() == 1 && std::popcount(coalitions[0]) == 2 ? " both" : "";
  return out + " to keep choosing it (together they can force it whatever nature chooses)";
}

}  // namespace loophole::properties::detail
