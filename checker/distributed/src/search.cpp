// The partitioned breadth-first search (run.hpp): a rank expands the states
// it owns and sends each successor to its owner, which adds it to the next
// level under the parent the single-process search gives it; once a level
// is complete its states are numbered in the single-process order.
#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <limits>
#include <stdexcept>
#include <thread>

#include "run.hpp"

namespace loophole::distributed::detail {
namespace {

void note(LocalGroup& g, std::uint32_t depth, std::uint64_t gid, std::uint64_t num) {
  if (g.states == 0 || num < g.num) {
    g.depth = depth;
    g.first = gid;
    g.num = num;
  }
  ++g.states;
}

}  // namespace

void Run::merge_groups() {
  for (const auto& w : workers_) {
    for (std::size_t q = 0; q < w->groups.size(); ++q) {
      for (const auto& [key, g] : w->groups[q]) {
        LocalGroup& into = groups_[q][key];
        if (into.states == 0 || g.num < into.num) {
          into.depth = g.depth;
          into.first = g.first;
          into.num = g.num;
        }
        into.states += g.states;
      }
      w->groups[q].clear();
    }
  }
}

// Asks every question of the state just expanded (its moves in w.buf).
void Run::classify(Worker& w, std::size_t local, const std::int32_t* s) {
  if (w.questions.empty()) return;
  w.state.assign(s, s + codec_.fields());
  w.moves.clear();
  for (std::size_t i = 0; i < w.buf.size(); ++i) w.moves.push_back(w.buf.move(i));
  for (std::size_t q = 0; q < w.questions.size(); ++q) {
    w.keys.clear();
    w.questions[q](w.state, w.moves, w.keys);
    for (const GroupKey& key : w.keys)
      note(w.groups[q][key], depth_of(local), global_id(local), store_.num(local));
  }
}

void Run::expand(Worker& w, std::size_t local, bool direct) {
  store_.words_of(local, w.cur_words.data());
  codec_.unpack(w.cur_words.data(), w.cur.data());
  gen_.successors(w.cur.data(), w.buf);
  const std::size_t n = w.buf.size();
  w.transitions += n;
  classify(w, local, w.cur.data());
  if (n > k_index_mask) throw std::runtime_error("distributed search: more than 2^24 moves");
  const std::uint32_t ctl = ctl_of(sem_.layout(), w.cur.data());
  const std::uint64_t key = store_.num(local) << k_index_bits;
  for (std::size_t i = 0; i < n; ++i) {
    codec_.pack_from(w.cur.data(), w.cur_words.data(), w.buf.state(i), w.succ_words.data());
    const std::uint64_t label = label_of(i, w.buf.move(i), ctl);
    if (direct) {
      send(w.succ_words.data(), global_id(local), key | i, label);
    } else {
      w.successors.insert(w.successors.end(), {global_id(local), key | i, label});
      w.successors.insert(w.successors.end(), w.succ_words.begin(), w.succ_words.end());
    }
  }
}

// One thread: the states one after the other, looking at what has arrived
// every k_poll_every. Several: the round's states claimed in chunks (of at
// most k_poll_every) by
// the workers' threads, the rank's thread among them; while they read the
// store the rank's thread only receives (progress(true) keeps what
// arrives), and once they are done it sends their successors in worker
// order and adds what arrived. Which thread expands which state does not
// matter: a state's number and parent are fixed by the keys (add), and a
// group keeps its smallest-numbered state.
void Run::expand_round(std::size_t begin, std::size_t count) {
  constexpr std::size_t k_poll_every = 64;
  if (workers_.size() == 1) {
    Worker& w = *workers_[0];
    for (std::size_t i = 0; i < count; ++i) {
      expand(w, begin + i, true);
      if (i % k_poll_every == k_poll_every - 1) progress();
    }
    figures_.transitions += w.transitions;
    w.transitions = 0;
    return;
  }
  // (Chunks small enough for every thread to get several.)
  const std::size_t chunk = std::clamp<std::size_t>(count / (4 * workers_.size()), 1, k_poll_every);
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> errors(workers_.size());
  const auto work = [&](std::size_t t, bool poll) {
    try {
      for (;;) {
        const std::size_t at = next.fetch_add(chunk);
        if (at >= count) return;
        for (std::size_t i = at; i < std::min(count, at + chunk); ++i) {
          expand(*workers_[t], begin + i, false);
        }
        if (poll) progress(true);
      }
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> threads;
    for (std::size_t t = 1; t < workers_.size(); ++t) threads.emplace_back(work, t, false);
    work(0, true);
  }
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  const std::size_t record = words_ + 3;
  for (const auto& w : workers_) {
    for (std::size_t at = 0; at + record <= w->successors.size(); at += record) {
      const std::uint64_t* r = &w->successors[at];
      send(r + 3, r[0], r[1], r[2]);
    }
    w->successors.clear();
    figures_.transitions += w->transitions;
    w->transitions = 0;
  }
  add_deferred();
}

std::vector<std::uint64_t> Run::all_to_all(std::vector<int>* from) {
  const auto p = static_cast<std::size_t>(size_);
  std::vector<int> send_counts(p), recv_counts(p), send_displs(p), recv_displs(p);
  std::vector<std::uint64_t> send_buf;
  std::size_t total = 0;
  for (std::size_t r = 0; r < p; ++r) total += out_[r].size();
  if (total > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::runtime_error("distributed search: a round's message exceeds 2^31 words");
  }
  send_buf.reserve(total);
  for (std::size_t r = 0; r < p; ++r) {
    send_displs[r] = static_cast<int>(send_buf.size());
    send_counts[r] = static_cast<int>(out_[r].size());
    send_buf.insert(send_buf.end(), out_[r].begin(), out_[r].end());
    if (static_cast<int>(r) != rank_ && !out_[r].empty()) {
      figures_.bytes_sent += out_[r].size() * sizeof(std::uint64_t);
      ++figures_.messages;
    }
    // (A large list is freed, not kept for the next round: the cycle phase
    // sends every move at once, and its copy here would double that.)
    if (out_[r].capacity() > (std::size_t{1} << 20)) {
      std::vector<std::uint64_t>().swap(out_[r]);
    } else {
      out_[r].clear();
    }
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_);
  std::size_t received = 0;
  for (std::size_t r = 0; r < p; ++r) {
    recv_displs[r] = static_cast<int>(received);
    received += static_cast<std::size_t>(recv_counts[r]);
  }
  std::vector<std::uint64_t> recv_buf(received);
  MPI_Alltoallv(send_buf.data(), send_counts.data(), send_displs.data(), MPI_UINT64_T,
                recv_buf.data(), recv_counts.data(), recv_displs.data(), MPI_UINT64_T, comm_);
  if (from != nullptr) *from = std::move(recv_counts);
  return recv_buf;
}

// A successor for this rank: the new ones belong to the next level; for
// each state of the next level the parent the single-process search gives
// it is kept: the one of the smallest number, by its move of the smallest
// index (whatever the order successors arrive in).
void Run::add(const std::uint64_t* w, std::uint64_t hash, std::uint64_t parent, std::uint64_t key,
              std::uint64_t label) {
  const auto [id, added] = store_.insert(w, hash, parent);
  if (added) {
    level_keys_.push_back(key);
    store_.set_parent_index(id, static_cast<std::uint32_t>(key & k_index_mask));
  } else if (id >= next_begin_ && key < level_keys_[id - next_begin_]) {
    level_keys_[id - next_begin_] = key;
    store_.set_parent_index(id, static_cast<std::uint32_t>(key & k_index_mask));
    store_.set_parent(id, parent);
  }
  if (options_.cycles) {
    in_to_.push_back(static_cast<std::uint32_t>(id));
    in_from_.push_back(parent);
    in_label_.push_back(label);
  }
}

// Numbers the states [begin, end) just added (the next level) as the
// single-process search does: in the order of their keys. The keys' parent
// numbers lie in the current level's range, which is cut into one block a
// rank; each block's owner sorts the keys it gets, and its offset is the
// number of keys in the blocks before it.
void Run::number_level(std::size_t begin, std::size_t end, std::uint64_t current) {
  std::array<std::uint64_t, 2> mine = {current, end - begin};
  std::array<std::uint64_t, 2> all{};
  MPI_Allreduce(mine.data(), all.data(), 2, MPI_UINT64_T, MPI_SUM, comm_);
  const std::uint64_t width = all[0];  // states in the current level
  const std::uint64_t next_first = level_first_num_ + width;
  const auto p = static_cast<std::uint64_t>(size_);
  std::vector<std::vector<std::size_t>> sent(static_cast<std::size_t>(size_));
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint64_t key = level_keys_[i - begin];
    const std::uint64_t offset = (key >> k_index_bits) - level_first_num_;
    const auto block = static_cast<std::size_t>(width == 0 ? 0 : offset * p / width);
    out_[block].push_back(key);
    sent[block].push_back(i);
  }
  std::vector<int> from;
  const std::vector<std::uint64_t> got = all_to_all(&from);
  std::vector<std::size_t> order(got.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return got[a] < got[b]; });
  std::uint64_t count = got.size(), before = 0;
  MPI_Exscan(&count, &before, 1, MPI_UINT64_T, MPI_SUM, comm_);
  if (rank_ == 0) before = 0;
  std::vector<std::uint64_t> numbers(got.size());
  for (std::size_t j = 0; j < order.size(); ++j) numbers[order[j]] = next_first + before + j;
  std::size_t at = 0;
  for (std::size_t r = 0; r < static_cast<std::size_t>(size_); ++r) {
    const auto n = static_cast<std::size_t>(from[r]);
    out_[r].assign(numbers.begin() + static_cast<std::ptrdiff_t>(at),
                   numbers.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
  }
  const std::vector<std::uint64_t> back = all_to_all();
  at = 0;
  for (const auto& list : sent) {
    for (const std::size_t i : list) store_.set_num(i, back[at++]);
  }
  level_first_num_ = next_first;
  level_keys_.clear();
}

}  // namespace loophole::distributed::detail
