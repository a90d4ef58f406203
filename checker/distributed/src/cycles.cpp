// The cycle phase (Options::cycles), on the partitioned graph after a
// complete search: the moves in and out of each rank's states, the
// backward search from the final states, OWCTY elimination for each
// analysis' subgraph, ends out of reach and leads_to. Each is
// level-synchronous, one all-to-all a round, and stops when interrupted.
#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "run.hpp"

namespace loophole::distributed::detail {

// Whether any rank has been interrupted (a collective: the cycle phase's
// rounds ask it once each).
bool Run::stopped_now() {
  int mine = options_.interrupt != nullptr && options_.interrupt->load() ? 1 : 0;
  int any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm_);
  return any != 0;
}

// Every move into a state owned here goes to its source's owner, which
// then has the moves out of its states (by source, in successor order);
// the moves in are kept by target. Also each state's ctl.
void Run::build_edges() {
  const std::size_t n = store_.size();
  ctl_.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    store_.words_of(v, cur_words_.data());
    codec_.unpack(cur_words_.data(), cur_.data());
    ctl_[v] = ctl_of(sem_.layout(), cur_.data());
    if (options_.leads_marks) {
      if (leads_.size() != n) leads_.assign(n, 0);
      state_.assign(cur_.begin(), cur_.begin() + static_cast<std::ptrdiff_t>(codec_.fields()));
      leads_[v] = options_.leads_marks(state_);
    }
  }
  const bool leads = static_cast<bool>(options_.leads_marks);
  const std::size_t width = leads ? 4 : 3;  // words a move travels as
  // The moves in, by target (counting sort); the arrival lists freed first.
  in_begin_.assign(n + 1, 0);
  for (const std::uint32_t v : in_to_) ++in_begin_[v + 1];
  for (std::size_t v = 0; v < n; ++v) in_begin_[v + 1] += in_begin_[v];
  in_from_csr_.assign(in_to_.size(), 0);
  in_label_csr_.assign(in_to_.size(), 0);
  {
    std::vector<std::uint64_t> fill(in_begin_.begin(), in_begin_.end() - 1);
    for (std::size_t e = 0; e < in_to_.size(); ++e) {
      const std::uint64_t at = fill[in_to_[e]]++;
      in_from_csr_[at] = in_from_[e];
      in_label_csr_[at] = in_label_[e];
    }
  }
  std::vector<std::uint32_t>().swap(in_to_);
  std::vector<std::uint64_t>().swap(in_from_);
  std::vector<std::uint64_t>().swap(in_label_);
  for (std::size_t v = 0; v < n; ++v) {
    for (std::uint64_t e = in_begin_[v]; e < in_begin_[v + 1]; ++e) {
      const std::uint64_t from = in_from_csr_[e];
      auto& o = out_[static_cast<std::size_t>(rank_of(from))];
      o.push_back(local_of(from));
      o.push_back(global_id(v));
      o.push_back(with_ctl(in_label_csr_[e], ctl_[v]));
      if (leads) o.push_back(leads_[v]);
    }
  }
  const std::vector<std::uint64_t> got = all_to_all();
  for (auto& o : out_) std::vector<std::uint64_t>().swap(o);
  // Counting sort by source, then each source's moves by index.
  out_begin_.assign(n + 1, 0);
  for (std::size_t at = 0; at + width <= got.size(); at += width) ++out_begin_[got[at] + 1];
  for (std::size_t v = 0; v < n; ++v) out_begin_[v + 1] += out_begin_[v];
  out_to_.assign(got.size() / width, 0);
  out_label_.assign(got.size() / width, 0);
  if (leads) out_leads_.assign(got.size() / width, 0);
  {
    std::vector<std::uint64_t> fill(out_begin_.begin(), out_begin_.end() - 1);
    for (std::size_t at = 0; at + width <= got.size(); at += width) {
      const std::uint64_t e = fill[got[at]]++;
      out_to_[e] = got[at + 1];
      out_label_[e] = got[at + 2];
      if (leads) out_leads_[e] = got[at + 3];
    }
  }
  std::vector<std::size_t> order;
  std::vector<std::uint64_t> to, label, target_leads;
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t b = out_begin_[v], e = out_begin_[v + 1];
    order.resize(e - b);
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = b + i;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      return (out_label_[x] & k_index_mask) < (out_label_[y] & k_index_mask);
    });
    to.clear();
    label.clear();
    target_leads.clear();
    for (const std::size_t x : order) {
      to.push_back(out_to_[x]);
      label.push_back(out_label_[x]);
      if (leads) target_leads.push_back(out_leads_[x]);
    }
    std::copy(to.begin(), to.end(), out_to_.begin() + static_cast<std::ptrdiff_t>(b));
    std::copy(label.begin(), label.end(), out_label_.begin() + static_cast<std::ptrdiff_t>(b));
    if (leads) {
      std::copy(target_leads.begin(), target_leads.end(),
                out_leads_.begin() + static_cast<std::ptrdiff_t>(b));
    }
  }
}

// The backward search from the final states for the bits Options::marks
// gives them: a round sends each state's new bits to the sources of the
// moves into it. False when interrupted.
bool Run::reach_back() {
  const std::size_t n = store_.size();
  marks_.assign(n, 0);
  std::vector<std::uint64_t> fresh(n, 0);  // bits gained, not yet sent on
  std::vector<std::size_t> work;
  const auto end_shift = static_cast<unsigned>(1 + 2 * sem_.game().players);
  const bool marked = options_.marks || options_.end_marks;
  const std::unordered_map<std::size_t, checker::Ending> endings =
      marked && options_.endings ? gather_endings()
                                 : std::unordered_map<std::size_t, checker::Ending>();
  for (std::size_t v = 0; v < n; ++v) {
    if (ctl_fields(ctl_[v]).over == 0) continue;
    std::uint64_t m = 1;
    if (marked) {
      store_.words_of(v, cur_words_.data());
      codec_.unpack(cur_words_.data(), cur_.data());
      state_.assign(cur_.begin(), cur_.begin() + static_cast<std::ptrdiff_t>(codec_.fields()));
      checker::Ending ending;
      ending.conditions = true;
      if (const auto it = endings.find(v); it != endings.end()) ending = it->second;
      if (options_.marks) m |= options_.marks(state_, ending);
      if (options_.end_marks) m |= options_.end_marks(state_, ending) << end_shift;
    }
    marks_[v] = m;
    fresh[v] = m;
    work.push_back(v);
  }
  return propagate(work, fresh);
}

// Options::endings: per game-over state owned here that a move leads into,
// who those moves named (checker::Ending). Each move goes back to its
// source's owner, which recomputes the source's successors with their
// record once and answers for each of its moves.
std::unordered_map<std::size_t, checker::Ending> Run::gather_endings() {
  const std::size_t n = store_.size();
  for (std::size_t v = 0; v < n; ++v) {
    if (ctl_fields(ctl_[v]).over != 1) continue;
    for (std::uint64_t e = in_begin_[v]; e < in_begin_[v + 1]; ++e) {
      const std::uint64_t u = in_from_csr_[e];
      auto& o = out_[static_cast<std::size_t>(rank_of(u))];
      o.push_back(local_of(u));
      o.push_back(in_label_csr_[e] & k_index_mask);
      o.push_back(global_id(v));
    }
  }
  std::vector<std::uint64_t> asked = all_to_all();
  // One recomputation per source: the questions sorted by it.
  std::vector<std::size_t> order(asked.size() / 3);
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return asked[3 * a] < asked[3 * b]; });
  const int players = sem_.game().players;
  std::vector<checker::Successor> moves;
  std::uint64_t source = std::numeric_limits<std::uint64_t>::max();
  for (const std::size_t i : order) {
    if (asked[3 * i] != source) {
      source = asked[3 * i];
      store_.words_of(static_cast<std::size_t>(source), cur_words_.data());
      codec_.unpack(cur_words_.data(), cur_.data());
      state_.assign(cur_.begin(), cur_.begin() + static_cast<std::ptrdiff_t>(codec_.fields()));
      sem_.successors(state_, moves, true);
    }
    const std::uint64_t index = asked[3 * i + 1];
    if (index >= moves.size()) {
      throw std::logic_error("distributed search: a move's index is past its source's successors");
    }
    checker::Ending one;
    one.add(moves[index], players);
    const std::uint64_t target = asked[3 * i + 2];
    auto& o = out_[static_cast<std::size_t>(rank_of(target))];
    o.push_back(local_of(target));
    o.push_back(std::uint64_t{one.loses} | std::uint64_t{one.wins} << 16 |
                std::uint64_t{one.conditions ? 1U : 0U} << 32);
  }
  std::vector<std::uint64_t>().swap(asked);
  std::unordered_map<std::size_t, checker::Ending> out;
  const std::vector<std::uint64_t> got = all_to_all();
  for (std::size_t at = 0; at + 2 <= got.size(); at += 2) {
    checker::Ending& e = out[static_cast<std::size_t>(got[at])];
    e.loses |= static_cast<std::uint32_t>(got[at + 1] & 0xFFFFU);
    e.wins |= static_cast<std::uint32_t>((got[at + 1] >> 16) & 0xFFFFU);
    e.conditions = e.conditions || ((got[at + 1] >> 32) & 1U) != 0;
  }
  return out;
}

// The backward rounds: each state of `work` sends its `fresh` bits to the
// sources of the moves into it, which keep those they lacked and send them
// on in the next round. False when interrupted.
bool Run::propagate(std::vector<std::size_t>& work, std::vector<std::uint64_t>& fresh) {
  for (;;) {
    for (const std::size_t v : work) {
      const std::uint64_t bits = fresh[v];
      fresh[v] = 0;
      for (std::uint64_t e = in_begin_[v]; e < in_begin_[v + 1]; ++e) {
        const std::uint64_t u = in_from_csr_[e];
        auto& o = out_[static_cast<std::size_t>(rank_of(u))];
        o.push_back(local_of(u));
        o.push_back(bits);
      }
    }
    work.clear();
    const std::vector<std::uint64_t> got = all_to_all();
    for (std::size_t at = 0; at + 2 <= got.size(); at += 2) {
      const std::size_t u = got[at];
      const std::uint64_t gained = got[at + 1] & ~marks_[u];
      if (gained == 0) continue;
      marks_[u] |= gained;
      if (fresh[u] == 0) work.push_back(u);
      fresh[u] |= gained;
    }
    if (stopped_now()) return false;
    int more = work.empty() ? 0 : 1, any = 0;
    MPI_Allreduce(&more, &any, 1, MPI_INT, MPI_MAX, comm_);
    if (any == 0) return true;
  }
}

// OWCTY elimination on the partitioned graph: the states for which
// member(v) holds start alive, with their moves out (out_kept(v, e), an
// index into the out-CSR) and in (in_kept(v, e), into the in-CSR) counted;
// then, level-synchronously, a state with no live predecessor or successor
// dies and its moves lower its neighbours' counts on their owners. What
// stays alive (alive[v] != 0) lies on a cycle of the subgraph or between
// cycles. False when interrupted.
template <class Member, class OutKept, class InKept>
bool Run::eliminate(std::vector<std::uint8_t>& alive, Member member, OutKept out_kept,
                    InKept in_kept) {
  const std::size_t n = store_.size();
  alive.assign(n, 0);
  std::vector<std::uint32_t> ins(n, 0), outs(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    if (!member(v)) continue;
    alive[v] = 1;
    for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
      if (!out_kept(v, e)) continue;
      ++outs[v];
      out_[static_cast<std::size_t>(rank_of(out_to_[e]))].push_back(local_of(out_to_[e]));
    }
  }
  for (const std::uint64_t w : all_to_all()) ++ins[w];
  std::vector<std::size_t> work;
  for (std::size_t v = 0; v < n; ++v) {
    if (alive[v] != 0 && (ins[v] == 0 || outs[v] == 0)) {
      alive[v] = 0;
      work.push_back(v);
    }
  }
  constexpr std::uint64_t k_lower_out = std::uint64_t{1} << 63;
  for (;;) {
    for (const std::size_t v : work) {
      for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
        if (!out_kept(v, e)) continue;
        out_[static_cast<std::size_t>(rank_of(out_to_[e]))].push_back(local_of(out_to_[e]));
      }
      for (std::uint64_t e = in_begin_[v]; e < in_begin_[v + 1]; ++e) {
        // (A source outside the subgraph was never alive: its count is not read.)
        if (!in_kept(v, e)) continue;
        const std::uint64_t u = in_from_csr_[e];
        out_[static_cast<std::size_t>(rank_of(u))].push_back(k_lower_out | local_of(u));
      }
    }
    work.clear();
    for (const std::uint64_t m : all_to_all()) {
      const std::size_t x = m & ~k_lower_out;
      if (alive[x] == 0) continue;
      std::uint32_t& count = (m & k_lower_out) != 0 ? outs[x] : ins[x];
      if (--count == 0) {
        alive[x] = 0;
        work.push_back(x);
      }
    }
    if (stopped_now()) return false;
    int more = work.empty() ? 0 : 1, any = 0;
    MPI_Allreduce(&more, &any, 1, MPI_INT, MPI_MAX, comm_);
    if (any == 0) break;
  }
  return true;
}

// The states on or between the cycles of subgraph k: the others are removed
// round by round, each once it has no move into it or none out of it
// within the subgraph (among the states not removed), and each removal
// lowers its neighbours' counts on their owners (eliminate).
// False when interrupted.
bool Run::trim(Subgraph k) {
  const std::size_t n = store_.size();
  if (core_.size() != n) core_.assign(n, 0);
  const auto member = [&](std::size_t v) {  // may be in the subgraph at all
    const Ctl c = ctl_fields(ctl_[v]);
    switch (k) {
      case k_quiet:
        return true;
      case k_same_turn:
        return c.over == 0 && c.step1 >= 1;
      case k_stuck:
        return (marks_[v] & 1U) == 0;
      case k_all:
        return true;
      default:
        return false;
    }
  };
  // Whether the move u -> w (labels give the other end's ctl) is in the
  // subgraph, for a source that is a member.
  const auto kept = [&](std::uint32_t from, std::uint64_t label, std::uint32_t to) {
    switch (k) {
      case k_quiet:
        return !progress_of(label);
      case k_same_turn: {
        const Ctl a = ctl_fields(from), b = ctl_fields(to);
        return a.over == 0 && b.over == 0 && a.step1 >= 1 && b.step1 >= 1 && a.active == b.active &&
               a.turn == b.turn;
      }
      case k_stuck:
      case k_all:
        return true;
      default:
        return false;
    }
  };
  const auto out_kept = [&](std::size_t v, std::uint64_t e) {
    return kept(ctl_[v], out_label_[e], ctl_of_label(out_label_[e]));
  };
  // (A source outside the subgraph was never alive: its count is not read.)
  const auto in_kept = [&](std::size_t v, std::uint64_t e) {
    return kept(ctl_of_label(in_label_csr_[e]), in_label_csr_[e], ctl_[v]);
  };
  std::vector<std::uint8_t> alive;
  if (!eliminate(alive, member, out_kept, in_kept)) return false;
  if (k < k_subgraphs) {
    for (std::size_t v = 0; v < n; ++v) {
      if (alive[v] != 0) core_[v] |= k_owcty_core;
    }
  }
  // The cycle analyses' subgraphs: only the states of their cyclic
  // components are gathered, not those between them.
  if (k < k_subgraphs && !cyclic(alive, out_kept, in_kept, roots_[k])) return false;
  for (std::size_t v = 0; v < n; ++v) {
    if (alive[v] != 0) core_[v] |= static_cast<std::uint8_t>(1U << k);
  }
  return true;
}

// The strongly connected components within the states OWCTY left
// (`alive` on entry), by coloring (Orzan; as DIVINE's and LTSmin's
// distributed SCC searches): each state takes, forwards along the kept
// moves, the largest global id that reaches it; a state that keeps its own
// id is a root, and the states of its colour it reaches backwards are its
// component. Those components are removed, OWCTY trims what is left, and
// so on until no state is left. A state is in a cyclic component (several
// states, or one with a kept self-loop) when the backward search reaches
// it along a move into a state of its own component. On return alive[v]
// says that. Level-synchronous, one all-to-all a round; false when
// interrupted.
template <class OutKept, class InKept>
bool Run::cyclic(std::vector<std::uint8_t>& alive, OutKept out_kept, InKept in_kept,
                 std::vector<std::pair<std::uint32_t, std::uint64_t>>& roots) {
  const std::size_t n = store_.size();
  std::vector<std::uint8_t> left = std::move(alive), queued(n, 0);
  alive.assign(n, 0);
  std::vector<std::uint64_t> color(n, 0);
  std::vector<std::size_t> work;
  // Rounds of a wave: each state of `work` sends along its moves; `receive`
  // takes the (local number, colour) pairs that arrived and queues anew.
  const auto wave = [&](const auto& send, const auto& receive) {
    for (;;) {
      for (const std::size_t v : work) {
        queued[v] = 0;
        send(v);
      }
      work.clear();
      const std::vector<std::uint64_t> got = all_to_all();
      for (std::size_t at = 0; at + 2 <= got.size(); at += 2) {
        receive(static_cast<std::size_t>(got[at]), got[at + 1]);
      }
      if (stopped_now()) return false;
      int more = work.empty() ? 0 : 1, any = 0;
      MPI_Allreduce(&more, &any, 1, MPI_INT, MPI_MAX, comm_);
      if (any == 0) return true;
    }
  };
  const auto queue = [&](std::size_t v) {
    if (queued[v] == 0) {
      queued[v] = 1;
      work.push_back(v);
    }
  };
  for (;;) {
    std::uint64_t mine = 0, count = 0;
    for (std::size_t v = 0; v < n; ++v) mine += left[v];
    MPI_Allreduce(&mine, &count, 1, MPI_UINT64_T, MPI_SUM, comm_);
    if (count == 0) return true;
    ++scc_rounds_;
    // Forwards: the largest id that reaches each state.
    for (std::size_t v = 0; v < n; ++v) {
      if (left[v] == 0) continue;
      color[v] = global_id(v);
      queue(v);
    }
    const bool forward = wave(
        [&](std::size_t v) {
          for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
            if (!out_kept(v, e)) continue;
            auto& o = out_[static_cast<std::size_t>(rank_of(out_to_[e]))];
            o.push_back(local_of(out_to_[e]));
            o.push_back(color[v]);
          }
        },
        [&](std::size_t x, std::uint64_t c) {
          if (left[x] != 0 && c > color[x]) {
            color[x] = c;
            queue(x);
          }
        });
    if (!forward) return false;
    // Backwards from each root within its colour: its component.
    std::vector<std::uint8_t> reached(n, 0);
    for (std::size_t v = 0; v < n; ++v) {
      if (left[v] != 0 && color[v] == global_id(v)) {
        reached[v] = 1;
        queue(v);
      }
    }
    const bool backward = wave(
        [&](std::size_t v) {
          for (std::uint64_t e = in_begin_[v]; e < in_begin_[v + 1]; ++e) {
            if (!in_kept(v, e)) continue;
            const std::uint64_t u = in_from_csr_[e];
            auto& o = out_[static_cast<std::size_t>(rank_of(u))];
            o.push_back(local_of(u));
            o.push_back(color[v]);
          }
        },
        [&](std::size_t x, std::uint64_t c) {
          if (left[x] == 0 || color[x] != c) return;
          alive[x] = 1;  // a move from x into its own component
          if (reached[x] == 0) {
            reached[x] = 1;
            queue(x);
          }
        });
    if (!backward) return false;
    // The components found leave; OWCTY trims the rest.
    for (std::size_t v = 0; v < n; ++v) {
      if (reached[v] == 0) continue;
      left[v] = 0;
      if (alive[v] != 0) roots.emplace_back(static_cast<std::uint32_t>(v), color[v]);
    }
    std::vector<std::uint8_t> rest;
    if (!eliminate(
            rest, [&](std::size_t v) { return left[v] != 0; }, out_kept, in_kept)) {
      return false;
    }
    left = std::move(rest);
  }
}

// Ends out of reach (Options::end_marks), after the backward search: (1)
// the states from which a cycle can be reached (k_endless: backwards from
// the core of the whole graph, OWCTY elimination on every move); (2) the
// earliest running state of each finding, in the single-process order, and
// whether an initial state can reach a real end and each player's loss
// (all-reduces); (3) from each of those that cannot go on forever, a
// breadth-first search forward, level by level, until a level holds a rule
// gap: the states before that level are gathered with their moves (ball_),
// so that the gap cause's shortest path is found on rank 0 as one process
// finds it. False when interrupted.
bool Run::ends_out_of_reach(Result& r) {
  if (!trim(k_all)) return false;
  const std::size_t n = store_.size();
  ball_.assign(n, 0);
  {
    std::vector<std::uint64_t> fresh(n, 0);
    std::vector<std::size_t> work;
    for (std::size_t v = 0; v < n; ++v) {
      if ((core_[v] & (1U << k_all)) == 0) continue;
      marks_[v] |= k_endless;
      fresh[v] = k_endless;
      work.push_back(v);
    }
    if (!propagate(work, fresh)) return false;
  }
  const auto players = static_cast<std::size_t>(sem_.game().players);
  const auto end_shift = static_cast<unsigned>(1 + 2 * players);
  const auto has = [&](std::size_t v, std::size_t bit) { return ((marks_[v] >> bit) & 1U) != 0; };
  // Per player p (index p): cannot lose nor win; index `players`: cannot end.
  std::vector<std::uint64_t> first(players + 1, std::numeric_limits<std::uint64_t>::max());
  std::vector<std::size_t> first_local(players + 1, n);
  std::vector<int> start(players + 1, 0);
  const std::size_t initials = level_begin_.size() > 1 ? level_begin_[1] : n;
  for (std::size_t v = 0; v < n; ++v) {
    if (v < initials) {
      start[players] |= has(v, end_shift) ? 1 : 0;
      for (std::size_t p = 0; p < players; ++p) start[p] |= has(v, end_shift + 1 + 2 * p) ? 1 : 0;
    }
    if (ctl_fields(ctl_[v]).over != 0 || !has(v, 0)) continue;
    const std::uint64_t num = store_.num(v);
    const auto note_first = [&](std::size_t k) {
      if (num < first[k]) {
        first[k] = num;
        first_local[k] = v;
      }
    };
    if (!has(v, end_shift)) note_first(players);
    for (std::size_t p = 0; p < players; ++p) {
      if (!has(v, end_shift + 1 + 2 * p) && !has(v, end_shift + 2 + 2 * p)) note_first(p);
    }
  }
  std::vector<std::uint64_t> global_first(first.size());
  MPI_Allreduce(first.data(), global_first.data(), static_cast<int>(first.size()), MPI_UINT64_T,
                MPI_MIN, comm_);
  std::vector<int> global_start(start.size());
  MPI_Allreduce(start.data(), global_start.data(), static_cast<int>(start.size()), MPI_INT, MPI_MAX,
                comm_);
  r.start_can_end = global_start[players] != 0;
  r.start_can_lose.assign(players, false);
  for (std::size_t p = 0; p < players; ++p) r.start_can_lose[p] = global_start[p] != 0;
  std::vector<std::size_t> bfs_from;  // the same list on every rank
  for (std::size_t k = 0; k <= players; ++k) {
    if (global_start[k] == 0 || global_first[k] == std::numeric_limits<std::uint64_t>::max()) {
      continue;
    }
    const bool mine = first[k] == global_first[k];
    if (mine && ball_[first_local[k]] == 0) ball_[first_local[k]] = 2;
    if (std::find_if(bfs_from.begin(), bfs_from.end(), [&](std::size_t j) {
          return global_first[j] == global_first[k];
        }) == bfs_from.end()) {
      bfs_from.push_back(k);
    }
  }
  const auto& gaps = sem_.gaps();
  const auto at_gap = [&](std::size_t v) {  // as ends_out_of_reach.cpp's gap cause asks
    if (ctl_fields(ctl_[v]).over != 2) return false;
    store_.words_of(v, cur_words_.data());
    codec_.unpack(cur_words_.data(), cur_.data());
    const int gap = cur_[static_cast<std::size_t>(sem_.layout().gap)];
    return gap > 0 && static_cast<std::size_t>(gap) <= gaps.size() &&
           gaps[static_cast<std::size_t>(gap) - 1].kind != checker::GapSite::Kind::stack_overflow;
  };
  constexpr std::uint32_t k_unseen = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> level_of(n, k_unseen);
  for (const std::size_t k : bfs_from) {
    std::vector<std::size_t> frontier, seen;
    if (first[k] == global_first[k] && !has(first_local[k], 63)) {
      frontier.push_back(first_local[k]);
      seen.push_back(first_local[k]);
      level_of[first_local[k]] = 0;
    }
    for (std::uint32_t level = 0;; ++level) {
      int found = 0, any = 0;
      for (const std::size_t v : frontier) found |= level > 0 && at_gap(v) ? 1 : 0;
      MPI_Allreduce(MPI_IN_PLACE, &found, 1, MPI_INT, MPI_MAX, comm_);
      if (found != 0) {
        for (const std::size_t v : seen) {
          if (level_of[v] < level) ball_[v] = 1;
        }
        break;
      }
      any = frontier.empty() ? 0 : 1;
      MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm_);
      if (any == 0) break;  // no rule gap ahead: the analysis finds no cause either
      for (const std::size_t v : frontier) {
        for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
          out_[static_cast<std::size_t>(rank_of(out_to_[e]))].push_back(local_of(out_to_[e]));
        }
      }
      frontier.clear();
      for (const std::uint64_t w : all_to_all()) {
        if (level_of[w] != k_unseen) continue;
        level_of[w] = level + 1;
        seen.push_back(w);
        frontier.push_back(w);
      }
      if (stopped_now()) return false;
    }
    for (const std::size_t v : seen) level_of[v] = k_unseen;
  }
  return true;
}

// leads_to (Options::leads_marks), per property k: the region is the
// running states where `to` does not hold. (1) OWCTY elimination within it
// leaves its cycles; they and its dead ends are the traps. (2) A backward
// search within the region from the traps marks the states that can avoid
// `to` forever. (3) An all-reduce picks the earliest `from` state among
// them (the single-process numbers). (4) From it a forward search within
// the region: every state it meets is gathered with its moves (ball_ 1),
// so that rank 0 finds the nearest cycle (OWCTY's core also holds the
// states between cycles) and dead end as one process does. False when
// interrupted.
bool Run::leads_to() {
  const std::size_t n = store_.size();
  if (ball_.size() != n) ball_.assign(n, 0);
  leads_slice_.assign(n, 0);
  leads_bad_num_.assign(options_.leads_count, std::numeric_limits<std::uint64_t>::max());
  constexpr std::uint32_t k_unseen = std::numeric_limits<std::uint32_t>::max();
  for (std::size_t k = 0; k < options_.leads_count && k < 32; ++k) {
    const std::uint64_t to_bit = std::uint64_t{1} << (2 * k + 1);
    const auto region = [&](std::size_t v) {
      return ctl_fields(ctl_[v]).over == 0 && (leads_[v] & to_bit) == 0;
    };
    const auto region_target = [&](std::uint64_t e) {
      return ctl_fields(ctl_of_label(out_label_[e])).over == 0 && (out_leads_[e] & to_bit) == 0;
    };
    // (1) OWCTY within the region.
    std::vector<std::uint8_t> alive;
    const bool done = eliminate(
        alive, region, [&](std::size_t, std::uint64_t e) { return region_target(e); },
        // (A source outside the region was never alive: its count is not read.)
        [](std::size_t, std::uint64_t) { return true; });
    if (!done) return false;
    // (2) The traps, then backwards within the region.
    std::vector<std::uint8_t> escapes(n, 0);
    std::vector<std::size_t> work;
    for (std::size_t v = 0; v < n; ++v) {
      if (!region(v)) continue;
      leads_slice_[v] |= std::uint64_t{1} << (2 * k);
      const bool dead_end = out_begin_[v] == out_begin_[v + 1];
      if (dead_end) leads_slice_[v] |= to_bit;
      if (alive[v] != 0 || dead_end) {
        escapes[v] = 1;
        work.push_back(v);
      }
    }
    for (;;) {
      for (const std::size_t v : work) {
        for (std::uint64_t e = in_begin_[v]; e < in_begin_[v + 1]; ++e) {
          const std::uint64_t u = in_from_csr_[e];
          out_[static_cast<std::size_t>(rank_of(u))].push_back(local_of(u));
        }
      }
      work.clear();
      for (const std::uint64_t u : all_to_all()) {
        if (escapes[u] != 0 || !region(u)) continue;
        escapes[u] = 1;
        work.push_back(u);
      }
      if (stopped_now()) return false;
      int more = work.empty() ? 0 : 1, any = 0;
      MPI_Allreduce(&more, &any, 1, MPI_INT, MPI_MAX, comm_);
      if (any == 0) break;
    }
    // (3) The earliest failing `from` state.
    const std::uint64_t from_bit = std::uint64_t{1} << (2 * k);
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    std::size_t first_local = n;
    for (std::size_t v = 0; v < n; ++v) {
      if ((leads_[v] & from_bit) == 0 || escapes[v] == 0) continue;
      if (store_.num(v) < first) {
        first = store_.num(v);
        first_local = v;
      }
    }
    std::uint64_t global = 0;
    MPI_Allreduce(&first, &global, 1, MPI_UINT64_T, MPI_MIN, comm_);
    leads_bad_num_[k] = global;
    if (global == std::numeric_limits<std::uint64_t>::max()) continue;
    // (4) Forward within the region.
    std::vector<std::uint32_t> level_of(n, k_unseen);
    std::vector<std::size_t> frontier;
    if (first == global) {
      frontier.push_back(first_local);
      level_of[first_local] = 0;
    }
    for (std::uint32_t level = 0;; ++level) {
      for (const std::size_t v : frontier) ball_[v] = 1;
      int any = frontier.empty() ? 0 : 1;
      MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm_);
      if (any == 0) break;
      for (const std::size_t v : frontier) {
        for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
          if (!region_target(e)) continue;
          out_[static_cast<std::size_t>(rank_of(out_to_[e]))].push_back(local_of(out_to_[e]));
        }
      }
      frontier.clear();
      for (const std::uint64_t w : all_to_all()) {
        if (level_of[w] != k_unseen) continue;
        level_of[w] = level + 1;
        frontier.push_back(w);
      }
      if (stopped_now()) return false;
    }
  }
  return true;
}

}  // namespace loophole::distributed::detail
