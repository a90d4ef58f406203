// What is gathered to rank 0 (run.hpp): the groups and their traces, each
// rebuilt by following its parent chain from owner to owner; the slice of
// the graph the cycle analyses read; each rank's figures.
#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_map>

#include "run.hpp"

namespace loophole::distributed::detail {
namespace {

std::uint64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  }
  return 0;
}

// The part of the graph rank 0 gathers for the cycle analyses
// (Options::cycles): its states numbered in the single-process order.
class Slice final : public checker::ExploredGraph {
 public:
  explicit Slice(const checker::Semantics& sem) : sem_(sem) {}
  [[nodiscard]] const checker::Semantics& semantics() const override { return sem_; }
  [[nodiscard]] std::uint64_t size() const override { return states.size(); }
  [[nodiscard]] std::uint32_t initial_count() const override { return initials; }
  [[nodiscard]] checker::StateVec state(checker::StateId id) const override { return states[id]; }
  [[nodiscard]] std::vector<checker::Edge> edges(checker::StateId id) const override {
    return moves[id];
  }
  [[nodiscard]] std::uint64_t expanded() const override { return states.size(); }
  [[nodiscard]] checker::StateId parent(checker::StateId id) const override { return parents[id]; }
  [[nodiscard]] std::uint32_t parent_index(checker::StateId id) const override {
    return parent_indices[id];
  }
  [[nodiscard]] std::uint32_t depth(checker::StateId id) const override { return depths[id]; }
  [[nodiscard]] bool numbered_by_depth() const override { return true; }
  [[nodiscard]] checker::Completion completion() const override {
    return checker::Completion::complete;
  }
  [[nodiscard]] const checker::Statistics& statistics() const override { return stats; }

  std::vector<checker::StateVec> states;
  std::vector<std::vector<checker::Edge>> moves;
  std::vector<checker::StateId> parents;
  std::vector<std::uint32_t> parent_indices, depths;
  std::uint32_t initials = 0;
  checker::Statistics stats;

 private:
  const checker::Semantics& sem_;
};

}  // namespace

template <class T>
std::vector<T> Run::gather_on_root(const std::vector<T>& mine) {
  static_assert(std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>);
  const MPI_Datatype type = std::is_same_v<T, std::int64_t> ? MPI_INT64_T : MPI_UINT64_T;
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_));
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
  std::vector<T> all;
  if (rank_ == 0) {
    int at = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
      displs[i] = at;
      at += counts[i];
    }
    all.resize(static_cast<std::size_t>(at));
  }
  MPI_Gatherv(mine.data(), count, type, all.data(), counts.data(), displs.data(), type, 0, comm_);
  return all;
}

// The states from an initial state to `gid`, followed from owner to owner:
// each step, the owner of the current state broadcasts it with its parent.
std::vector<checker::StateVec> Run::path_to(std::uint64_t gid, std::uint32_t& initial) {
  std::vector<checker::StateVec> path;
  std::vector<std::uint64_t> msg(words_ + 1);
  for (;;) {
    const int root = static_cast<int>(gid >> k_rank_shift);
    if (root == rank_) {
      const std::size_t local = gid & ((std::uint64_t{1} << k_rank_shift) - 1);
      msg[0] = store_.parent(local);
      store_.words_of(local, &msg[1]);
    }
    MPI_Bcast(msg.data(), static_cast<int>(msg.size()), MPI_UINT64_T, root, comm_);
    codec_.unpack(&msg[1], cur_.data());
    path.emplace_back(cur_.begin(), cur_.begin() + static_cast<std::ptrdiff_t>(codec_.fields()));
    const std::uint64_t parent = msg[0];
    if ((parent & k_initial) != 0) {
      initial = static_cast<std::uint32_t>(parent & ~k_initial);
      break;
    }
    gid = parent;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

// The trace to `gid` (rank 0; the others take part in the broadcasts and
// return nothing): at each state the first successor equal to the next one,
// then replayed on the reference semantics by trace_of_moves.
std::optional<checker::Trace> Run::trace_to(std::uint64_t gid) {
  std::uint32_t initial = 0;
  const auto path = path_to(gid, initial);
  if (rank_ != 0) return std::nullopt;
  std::vector<std::uint32_t> moves;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    gen_.successors(path[k].data(), buf_);
    std::size_t i = 0;
    while (i < buf_.size() && std::memcmp(buf_.state(i), path[k + 1].data(),
                                          codec_.fields() * sizeof(std::int32_t)) != 0) {
      ++i;
    }
    if (i == buf_.size()) throw std::logic_error("distributed trace: a parent link is not a move");
    moves.push_back(static_cast<std::uint32_t>(i));
  }
  return checker::trace_of_moves(sem_, initial, moves, path.back());
}

// Rank 0 merges every rank's groups (per key: the states summed, the
// shallowest first state, the first in the single-process order); then every
// rank takes part in rebuilding each group's trace. A group travels as
// [question, key length, key..., states, depth, first, its number].
void Run::gather_groups(Result& r) {
  std::vector<std::int64_t> mine;
  const auto put = [&](std::size_t q, const GroupKey& key, const LocalGroup& g) {
    mine.push_back(static_cast<std::int64_t>(q));
    mine.push_back(static_cast<std::int64_t>(key.size()));
    mine.insert(mine.end(), key.begin(), key.end());
    mine.insert(mine.end(),
                {static_cast<std::int64_t>(g.states), static_cast<std::int64_t>(g.depth),
                 static_cast<std::int64_t>(g.first), static_cast<std::int64_t>(g.num)});
  };
  // Calls each(q, key, group) for every group in `v`.
  const auto read = [](const std::vector<std::int64_t>& v, const auto& each) {
    for (std::size_t at = 0; at + 2 <= v.size();) {
      const auto q = static_cast<std::size_t>(v[at]);
      const auto len = static_cast<std::size_t>(v[at + 1]);
      const GroupKey key(v.begin() + static_cast<std::ptrdiff_t>(at + 2),
                         v.begin() + static_cast<std::ptrdiff_t>(at + 2 + len));
      const std::size_t tail = at + 2 + len;
      each(q, key,
           LocalGroup{static_cast<std::uint64_t>(v[tail]), static_cast<std::uint32_t>(v[tail + 1]),
                      static_cast<std::uint64_t>(v[tail + 2]),
                      static_cast<std::uint64_t>(v[tail + 3])});
      at = tail + 4;
    }
  };
  for (std::size_t q = 0; q < groups_.size(); ++q) {
    for (const auto& [key, g] : groups_[q]) put(q, key, g);
  }
  const std::vector<std::int64_t> all = gather_on_root(mine);
  std::vector<std::map<GroupKey, LocalGroup>> merged(options_.questions.size());
  read(all, [&](std::size_t q, const GroupKey& key, const LocalGroup& g) {
    LocalGroup& into = merged[q][key];
    if (into.states == 0 || g.num < into.num) {
      into.depth = g.depth;
      into.first = g.first;
      into.num = g.num;
    }
    into.states += g.states;
  });
  mine.clear();
  for (std::size_t q = 0; q < merged.size(); ++q) {
    for (const auto& [key, g] : merged[q]) put(q, key, g);
  }
  int n = static_cast<int>(mine.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, comm_);
  mine.resize(static_cast<std::size_t>(n));
  MPI_Bcast(mine.data(), n, MPI_INT64_T, 0, comm_);
  r.answers.resize(options_.questions.size());
  read(mine, [&](std::size_t q, const GroupKey& key, const LocalGroup& g) {
    Group out;
    out.states = g.states;
    out.depth = g.depth;
    if (options_.traced.empty() || (q < options_.traced.size() && options_.traced[q])) {
      out.trace = trace_to(g.first);
    }
    r.answers[q][key] = std::move(out);
  });
}

// Rank 0 gathers the states of cyclic components (core_) with their moves,
// then, round by round, the states it lacks: those the moves lead to and
// the parents of every state it has, until it reaches the initial states.
// A state travels as [global id, number, depth, parent's id, parent index,
// marks, core bits, leads_to bits, moves (for a core state, else 0), (to, label) per
// move, the packed state].
void Run::gather_slice(Result& r) {
  const auto began = std::chrono::steady_clock::now();
  const std::size_t n = store_.size();
  std::vector<std::uint8_t> sent(n, 0);
  std::vector<std::size_t> want;
  std::set<std::uint64_t> asked;  // rank 0
  std::vector<std::uint64_t> mine, all, requests;
  std::array<std::uint64_t, 2> core = {0, 0};  // OWCTY left; in cyclic components
  for (std::size_t v = 0; v < n; ++v) {
    if ((core_[v] & k_owcty_core) != 0) ++core[0];
    if ((core_[v] & k_gathered_cores) != 0) {
      want.push_back(v);
      ++core[1];
    } else if (!ball_.empty() && ball_[v] != 0) {
      want.push_back(v);
    }
  }
  MPI_Reduce(rank_ == 0 ? MPI_IN_PLACE : core.data(), core.data(), 2, MPI_UINT64_T, MPI_SUM, 0,
             comm_);
  // The stack-overflow gap states, per site: how many, and the first
  // k_overflows_gathered in the single-process order (unbounded chains
  // read their chains back).
  {
    std::map<std::int64_t, std::vector<std::pair<std::uint64_t, std::size_t>>> sites;
    const auto& gaps = sem_.gaps();
    for (std::size_t v = 0; v < n; ++v) {
      if (ctl_fields(ctl_[v]).over != 2) continue;
      store_.words_of(v, cur_words_.data());
      codec_.unpack(cur_words_.data(), cur_.data());
      const int gap = cur_[static_cast<std::size_t>(sem_.layout().gap)];
      if (gap <= 0 || static_cast<std::size_t>(gap) > gaps.size() ||
          gaps[static_cast<std::size_t>(gap) - 1].kind != checker::GapSite::Kind::stack_overflow) {
        continue;
      }
      sites[gap].emplace_back(store_.num(v), v);
    }
    // [site, states, then (number, global id) of the first ones, 0-ended]
    std::vector<std::uint64_t> firsts;
    for (auto& [gap, list] : sites) {
      std::sort(list.begin(), list.end());
      firsts.push_back(static_cast<std::uint64_t>(gap));
      firsts.push_back(list.size());
      for (std::size_t i = 0; i < list.size() && i < k_overflows_gathered; ++i) {
        firsts.push_back(list[i].first);
        firsts.push_back(global_id(list[i].second));
      }
      firsts.push_back(k_initial);
    }
    all = gather_on_root(firsts);
    std::vector<std::uint64_t> chosen;
    if (rank_ == 0) {
      std::map<std::int64_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> merged;
      for (std::size_t at = 0; at < all.size();) {
        const auto gap = static_cast<std::int64_t>(all[at]);
        r.overflows[static_cast<int>(gap)] += all[at + 1];
        auto& list = merged[gap];
        for (at += 2; all[at] != k_initial; at += 2) list.emplace_back(all[at], all[at + 1]);
        ++at;
      }
      for (auto& [gap, list] : merged) {
        std::sort(list.begin(), list.end());
        for (std::size_t i = 0; i < list.size() && i < k_overflows_gathered; ++i) {
          chosen.push_back(list[i].second);
        }
      }
    }
    int chosen_count = static_cast<int>(chosen.size());
    MPI_Bcast(&chosen_count, 1, MPI_INT, 0, comm_);
    chosen.resize(static_cast<std::size_t>(chosen_count));
    MPI_Bcast(chosen.data(), chosen_count, MPI_UINT64_T, 0, comm_);
    for (const std::uint64_t gid : chosen) {
      if (rank_of(gid) == rank_) want.push_back(local_of(gid));
      asked.insert(gid);
    }
  }
  struct Rec {
    std::uint64_t num, depth, parent, parent_index, marks, leads, core;
    std::vector<std::uint64_t> moves;  // to, label
    std::vector<std::uint64_t> words;
  };
  std::map<std::uint64_t, Rec> have;  // rank 0: by global id
  for (;;) {
    mine.clear();
    for (const std::size_t v : want) {
      if (sent[v] != 0) continue;
      sent[v] = 1;
      mine.insert(mine.end(), {global_id(v), store_.num(v), depth_of(v), store_.parent(v),
                               store_.parent_index(v), marks_[v], core_[v],
                               leads_slice_.empty() ? 0 : leads_slice_[v]});
      if ((core_[v] & k_gathered_cores) != 0 || (!ball_.empty() && ball_[v] == 1)) {
        mine.push_back(out_begin_[v + 1] - out_begin_[v]);
        for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
          mine.push_back(out_to_[e]);
          mine.push_back(out_label_[e]);
        }
      } else {
        mine.push_back(0);
      }
      const std::size_t at = mine.size();
      mine.resize(at + words_);
      store_.words_of(v, &mine[at]);
    }
    want.clear();
    all = gather_on_root(mine);
    requests.clear();
    if (rank_ == 0) {
      const auto ask = [&](std::uint64_t gid) {
        if (asked.insert(gid).second) requests.push_back(gid);
      };
      for (std::size_t at = 0; at < all.size();) {
        const std::uint64_t gid = all[at];
        asked.insert(gid);
        Rec rec{all[at + 1], all[at + 2], all[at + 3], all[at + 4], all[at + 5],
                all[at + 7], all[at + 6], {},          {}};
        const std::uint64_t moves = all[at + 8];
        at += 9;
        rec.moves.assign(all.begin() + static_cast<std::ptrdiff_t>(at),
                         all.begin() + static_cast<std::ptrdiff_t>(at + 2 * moves));
        at += 2 * moves;
        rec.words.assign(all.begin() + static_cast<std::ptrdiff_t>(at),
                         all.begin() + static_cast<std::ptrdiff_t>(at + words_));
        at += words_;
        if ((rec.parent & k_initial) == 0) ask(rec.parent);
        for (std::size_t m = 0; m < rec.moves.size(); m += 2) ask(rec.moves[m]);
        have.emplace(gid, std::move(rec));
      }
    }
    int asks = static_cast<int>(requests.size());
    MPI_Bcast(&asks, 1, MPI_INT, 0, comm_);
    if (asks == 0) break;
    requests.resize(static_cast<std::size_t>(asks));
    MPI_Bcast(requests.data(), asks, MPI_UINT64_T, 0, comm_);
    for (const std::uint64_t gid : requests) {
      if (rank_of(gid) == rank_) want.push_back(local_of(gid));
    }
  }
  if (rank_ != 0) return;
  r.core_states = core[0];
  r.shown_states = core[1];
  if (!options_.summarize) r.cyclic_states = core[1];
  r.scc_rounds = scc_rounds_;
  // Numbered by the single-process numbers.
  std::vector<const std::pair<const std::uint64_t, Rec>*> order;
  for (const auto& entry : have) order.push_back(&entry);
  std::sort(order.begin(), order.end(),
            [](const auto* a, const auto* b) { return a->second.num < b->second.num; });
  std::map<std::uint64_t, checker::StateId> id;
  for (std::size_t i = 0; i < order.size(); ++i) {
    id[order[i]->first] = static_cast<checker::StateId>(i);
  }
  auto slice = std::make_unique<Slice>(sem_);
  const auto players = static_cast<std::size_t>(sem_.game().players);
  r.doomed.assign(players, std::vector<bool>(order.size(), false));
  r.can_finish.assign(order.size(), false);
  const bool ends = static_cast<bool>(options_.end_marks);
  const std::size_t end_shift = 1 + 2 * players;
  if (ends) {
    r.can_end.assign(order.size(), false);
    r.endless.assign(order.size(), false);
    r.can_lose.assign(players, std::vector<bool>(order.size(), false));
    r.can_win = r.can_lose;
  }
  if (options_.summarize) r.designated.assign(order.size(), 0);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Rec& rec = order[i]->second;
    if (options_.summarize) {
      r.designated[i] = static_cast<std::uint8_t>(rec.core & k_gathered_cores);
    }
    codec_.unpack(rec.words.data(), cur_.data());
    slice->states.emplace_back(cur_.begin(),
                               cur_.begin() + static_cast<std::ptrdiff_t>(codec_.fields()));
    std::vector<checker::Edge> edges;
    for (std::size_t m = 0; m < rec.moves.size(); m += 2) {
      checker::Edge e = edge_of(rec.moves[m + 1]);
      e.to = id.at(rec.moves[m]);
      edges.push_back(e);
    }
    slice->stats.transitions += edges.size();
    slice->moves.push_back(std::move(edges));
    const bool initial = (rec.parent & k_initial) != 0;
    slice->parents.push_back(initial ? checker::no_state : id.at(rec.parent));
    slice->parent_indices.push_back(static_cast<std::uint32_t>(rec.parent_index));
    slice->depths.push_back(static_cast<std::uint32_t>(rec.depth));
    if (rec.depth == 0) ++slice->initials;
    const auto marks = static_cast<std::uint32_t>(rec.marks);
    r.can_finish[i] = (marks & 1U) != 0;
    for (std::size_t p = 0; p < players; ++p) {
      r.doomed[p][i] = ((marks >> (1 + 2 * p)) & 1U) != 0 && ((marks >> (2 + 2 * p)) & 1U) == 0;
    }
    if (ends) {
      const auto bit = [&](std::size_t b) { return ((rec.marks >> b) & 1U) != 0; };
      r.can_end[i] = bit(end_shift);
      r.endless[i] = bit(63);
      for (std::size_t p = 0; p < players; ++p) {
        r.can_lose[p][i] = bit(end_shift + 1 + 2 * p);
        r.can_win[p][i] = bit(end_shift + 2 + 2 * p);
      }
    }
  }
  if (options_.leads_marks) {
    r.leads_bits.resize(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) r.leads_bits[i] = order[i]->second.leads;
    r.leads_bad.assign(leads_bad_num_.size(), checker::no_state);
    for (std::size_t k = 0; k < leads_bad_num_.size(); ++k) {
      for (std::size_t i = 0; i < order.size(); ++i) {
        if (order[i]->second.num == leads_bad_num_[k]) {
          r.leads_bad[k] = static_cast<checker::StateId>(i);
          break;
        }
      }
    }
  }
  slice->stats.states = order.size();
  r.slice = std::move(slice);
  r.gather_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

// Options::summarize. (1) Each state of a cyclic component goes to the
// rank that summarises its component (by a hash of the root), once a rank,
// with the subgraphs whose component there it is in and their roots:
// [global id, number, depth, marks, subgraph bits, a root per bit, moves,
// (to, label) per move, the packed state]. (2) Those ranks ask for the
// states the moves lead to that they lack, and get [global id, number,
// depth, marks, packed state] back. (3) Each rank summarises its
// components on a slice of them; rank 0 gathers the summaries as
// [subgraph, root, number, words, the words...], chooses, and broadcasts
// the chosen (subgraph, root) pairs; (4) core_ keeps only the chosen
// components' states, which gather_slice gathers.
void Run::summarize_components(Result& r) {
  const auto began = std::chrono::steady_clock::now();
  const std::size_t n = store_.size();
  // The rank that summarises a component: by a hash of its root (the root
  // itself, the largest id, is on the last ranks more often than not).
  const auto summarizer = [&](std::uint64_t root) { return owner(hash_words(&root, 1)); };
  std::unordered_map<std::uint32_t, std::array<std::uint64_t, k_subgraphs>> roots;
  std::unordered_map<std::uint32_t, std::uint8_t> bits;
  for (unsigned k = 0; k < k_subgraphs; ++k) {
    for (const auto& [v, root] : roots_[k]) {
      roots[v][k] = root;
      bits[v] |= static_cast<std::uint8_t>(1U << k);
    }
  }
  {
    std::uint64_t mine = bits.size(), all_cyclic = 0;
    MPI_Allreduce(&mine, &all_cyclic, 1, MPI_UINT64_T, MPI_SUM, comm_);
    r.cyclic_states = all_cyclic;
  }
  for (const auto& [v, b] : bits) {
    const auto& rs = roots.at(v);
    for (int to = 0; to < size_; ++to) {
      std::uint64_t here = 0;
      for (unsigned k = 0; k < k_subgraphs; ++k) {
        if (((b >> k) & 1U) != 0 && summarizer(rs[k]) == to) here |= 1U << k;
      }
      if (here == 0) continue;
      auto& o = out_[static_cast<std::size_t>(to)];
      o.insert(o.end(), {global_id(v), store_.num(v), depth_of(v), marks_[v], here});
      for (unsigned k = 0; k < k_subgraphs; ++k) {
        if (((here >> k) & 1U) != 0) o.push_back(rs[k]);
      }
      o.push_back(out_begin_[v + 1] - out_begin_[v]);
      for (std::uint64_t e = out_begin_[v]; e < out_begin_[v + 1]; ++e) {
        o.push_back(out_to_[e]);
        o.push_back(out_label_[e]);
      }
      const std::size_t at = o.size();
      o.resize(at + words_);
      store_.words_of(v, &o[at]);
    }
  }
  struct Rec {
    std::uint64_t num, depth, marks, bits;
    std::array<std::uint64_t, k_subgraphs> roots{};
    std::vector<std::uint64_t> moves;  // to, label
    std::vector<std::uint64_t> words;
  };
  std::unordered_map<std::uint64_t, Rec> have;
  {
    const std::vector<std::uint64_t> got = all_to_all();
    for (std::size_t at = 0; at < got.size();) {
      Rec rec{got[at + 1], got[at + 2], got[at + 3], got[at + 4], {}, {}, {}};
      const std::uint64_t gid = got[at];
      at += 5;
      for (unsigned k = 0; k < k_subgraphs; ++k) {
        if (((rec.bits >> k) & 1U) != 0) rec.roots[k] = got[at++];
      }
      const std::uint64_t moves = got[at++];
      rec.moves.assign(got.begin() + static_cast<std::ptrdiff_t>(at),
                       got.begin() + static_cast<std::ptrdiff_t>(at + 2 * moves));
      at += 2 * moves;
      rec.words.assign(got.begin() + static_cast<std::ptrdiff_t>(at),
                       got.begin() + static_cast<std::ptrdiff_t>(at + words_));
      at += words_;
      Rec& into = have[gid];
      if (into.words.empty()) {
        into = std::move(rec);
      } else {  // (the same state for another subgraph's component here)
        for (unsigned k = 0; k < k_subgraphs; ++k) {
          if (((rec.bits >> k) & 1U) != 0) into.roots[k] = rec.roots[k];
        }
        into.bits |= rec.bits;
      }
    }
  }
  {
    std::set<std::uint64_t> asked;
    for (const auto& [gid, rec] : have) {
      for (std::size_t m = 0; m < rec.moves.size(); m += 2) {
        const std::uint64_t to = rec.moves[m];
        if (!have.contains(to) && asked.insert(to).second) {
          out_[static_cast<std::size_t>(rank_of(to))].push_back(local_of(to));
        }
      }
    }
    std::vector<int> from;
    const std::vector<std::uint64_t> wanted = all_to_all(&from);
    std::size_t at = 0;
    for (std::size_t src = 0; src < from.size(); ++src) {
      auto& o = out_[src];
      for (int i = 0; i < from[src]; ++i, ++at) {
        const auto v = static_cast<std::size_t>(wanted[at]);
        o.insert(o.end(), {global_id(v), store_.num(v), depth_of(v), marks_[v]});
        const std::size_t w = o.size();
        o.resize(w + words_);
        store_.words_of(v, &o[w]);
      }
    }
    const std::vector<std::uint64_t> got = all_to_all();
    for (std::size_t g = 0; g + 4 + words_ <= got.size(); g += 4 + words_) {
      Rec rec{got[g + 1], got[g + 2], got[g + 3], 0, {}, {}, {}};
      rec.words.assign(got.begin() + static_cast<std::ptrdiff_t>(g + 4),
                       got.begin() + static_cast<std::ptrdiff_t>(g + 4 + words_));
      have.emplace(got[g], std::move(rec));
    }
  }
  // The rank's components in groups, one a thread (Options::threads), each
  // component whole in the group its root hashes to (the hash's low bits:
  // its high ones chose the rank); a group's slice holds its components'
  // states with their moves and the states those lead to, in the
  // single-process order, and is summarised on a thread of its own (the
  // semantics keep their scratch per thread, as when check's analyses run
  // side by side).
  const std::size_t groups = std::max<std::size_t>(1, options_.threads);
  const auto group_of = [&](std::uint64_t root) {
    return static_cast<std::size_t>((hash_words(&root, 1) & 0xFFFFFFFFU) % groups);
  };
  struct Part {
    explicit Part(const checker::Semantics& sem) : slice(sem) {}
    std::unordered_map<std::uint64_t, std::uint8_t> members;     // global id -> subgraph bits
    std::vector<std::pair<std::uint64_t, std::uint64_t>> order;  // (number, global id)
    Slice slice;
    std::vector<bool> can_finish;
    std::vector<std::uint8_t> designated;
    std::vector<ComponentSummary> found;
    std::exception_ptr error;
  };
  std::vector<std::unique_ptr<Part>> parts;
  for (std::size_t g = 0; g < groups; ++g) parts.push_back(std::make_unique<Part>(sem_));
  for (const auto& [gid, rec] : have) {
    for (unsigned k = 0; k < k_subgraphs; ++k) {
      if (((rec.bits >> k) & 1U) != 0) {
        parts[group_of(rec.roots[k])]->members[gid] |= static_cast<std::uint8_t>(1U << k);
      }
    }
  }
  for (auto& part : parts) {
    std::vector<std::uint64_t> gids;
    for (const auto& [gid, b] : part->members) {
      gids.push_back(gid);
      const Rec& rec = have.at(gid);
      for (std::size_t m = 0; m < rec.moves.size(); m += 2) gids.push_back(rec.moves[m]);
    }
    std::sort(gids.begin(), gids.end());
    gids.erase(std::unique(gids.begin(), gids.end()), gids.end());
    for (const std::uint64_t gid : gids) part->order.emplace_back(have.at(gid).num, gid);
    std::sort(part->order.begin(), part->order.end());
    std::unordered_map<std::uint64_t, checker::StateId> id;
    for (std::size_t i = 0; i < part->order.size(); ++i) {
      id[part->order[i].second] = static_cast<checker::StateId>(i);
    }
    Slice& slice = part->slice;
    part->can_finish.assign(part->order.size(), false);
    part->designated.assign(part->order.size(), 0);
    for (std::size_t i = 0; i < part->order.size(); ++i) {
      const std::uint64_t gid = part->order[i].second;
      const Rec& rec = have.at(gid);
      codec_.unpack(rec.words.data(), cur_.data());
      slice.states.emplace_back(cur_.begin(),
                                cur_.begin() + static_cast<std::ptrdiff_t>(codec_.fields()));
      std::vector<checker::Edge> edges;
      const auto member = part->members.find(gid);
      if (member != part->members.end()) {  // (a state a move leads to has none here)
        part->designated[i] = member->second;
        for (std::size_t m = 0; m < rec.moves.size(); m += 2) {
          checker::Edge e = edge_of(rec.moves[m + 1]);
          e.to = id.at(rec.moves[m]);
          edges.push_back(e);
        }
      }
      slice.stats.transitions += edges.size();
      slice.moves.push_back(std::move(edges));
      slice.parents.push_back(checker::no_state);  // (no trace is asked of this slice)
      slice.parent_indices.push_back(0);
      slice.depths.push_back(static_cast<std::uint32_t>(rec.depth));
      if (rec.depth == 0) ++slice.initials;
      part->can_finish[i] = (rec.marks & 1U) != 0;
    }
    slice.stats.states = part->order.size();
  }
  {
    const auto summarize = [&](Part& part) {
      try {
        part.found = options_.summarize(part.slice, part.can_finish, part.designated);
      } catch (...) {
        part.error = std::current_exception();
      }
    };
    std::vector<std::jthread> team;
    for (std::size_t g = 1; g < groups; ++g) team.emplace_back(summarize, std::ref(*parts[g]));
    summarize(*parts[0]);
  }
  std::vector<std::uint64_t> mine;
  for (const auto& part : parts) {
    if (part->error) std::rethrow_exception(part->error);
    for (const ComponentSummary& c : part->found) {
      const Rec& rec = have.at(part->order[c.entry].second);
      mine.insert(mine.end(), {c.subgraph, rec.roots[c.subgraph], rec.num, c.words.size()});
      mine.insert(mine.end(), c.words.begin(), c.words.end());
    }
  }
  parts.clear();
  have.clear();
  const std::vector<std::uint64_t> all = gather_on_root(mine);
  std::vector<std::uint64_t> chosen;  // (subgraph, root) pairs
  if (rank_ == 0) {
    for (std::size_t at = 0; at + 4 <= all.size();) {
      ComponentSummary c;
      c.subgraph = static_cast<unsigned>(all[at]);
      c.root = all[at + 1];
      c.num = all[at + 2];
      c.entry = checker::no_state;
      const std::size_t words = all[at + 3];
      c.words.assign(all.begin() + static_cast<std::ptrdiff_t>(at + 4),
                     all.begin() + static_cast<std::ptrdiff_t>(at + 4 + words));
      at += 4 + words;
      r.summaries.push_back(std::move(c));
    }
    for (const std::size_t i : options_.choose(r.summaries)) {
      chosen.push_back(r.summaries[i].subgraph);
      chosen.push_back(r.summaries[i].root);
    }
  }
  int count = static_cast<int>(chosen.size());
  MPI_Bcast(&count, 1, MPI_INT, 0, comm_);
  chosen.resize(static_cast<std::size_t>(count));
  MPI_Bcast(chosen.data(), count, MPI_UINT64_T, 0, comm_);
  std::array<std::set<std::uint64_t>, k_subgraphs> shown;
  for (std::size_t i = 0; i + 1 < chosen.size(); i += 2) {
    shown[static_cast<std::size_t>(chosen[i])].insert(chosen[i + 1]);
  }
  for (std::size_t v = 0; v < n; ++v) core_[v] &= static_cast<std::uint8_t>(~k_gathered_cores);
  for (unsigned k = 0; k < k_subgraphs; ++k) {
    for (const auto& [v, root] : roots_[k]) {
      if (shown[k].contains(root)) core_[v] |= static_cast<std::uint8_t>(1U << k);
    }
  }
  r.summarize_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

void Run::gather_figures(Result& r) {
  figures_.peak_resident = peak_resident_bytes();
  figures_.store_bytes = store_.memory();
  const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  figures_.edge_bytes = bytes(out_begin_) + bytes(out_to_) + bytes(out_label_) + bytes(in_begin_) +
                        bytes(in_from_csr_) + bytes(in_label_csr_) + bytes(ctl_) + bytes(marks_) +
                        bytes(core_) + bytes(ball_) + bytes(leads_) + bytes(out_leads_) +
                        bytes(leads_slice_);
  const std::array<std::uint64_t, 8> mine = {
      figures_.states,        figures_.transitions, figures_.bytes_sent, figures_.messages,
      figures_.peak_resident, figures_.store_bytes, figures_.edge_bytes, figures_.largest_message};
  std::vector<std::uint64_t> all(rank_ == 0 ? mine.size() * static_cast<std::size_t>(size_) : 0);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, all.data(),
             static_cast<int>(mine.size()), MPI_UINT64_T, 0, comm_);
  for (std::size_t at = 0; at + mine.size() <= all.size(); at += mine.size()) {
    r.per_rank.push_back({all[at], all[at + 1], all[at + 2], all[at + 3], all[at + 4], all[at + 5],
                          all[at + 6], all[at + 7]});
  }
}

}  // namespace loophole::distributed::detail
