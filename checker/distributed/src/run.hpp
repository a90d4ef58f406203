// The distributed search (see explore.hpp), one rank's part of it: Run.
// A rank keeps the states it owns packed (checker::StateCodec, the
// explicit engine's bit packing: bytes() bytes a state) in chunks, with
// local numbers in the order they arrive (so level by level), each with the
// global id of its parent, its number in the single-process order and the
// index of the move from its parent; a global id is (rank << 40) | local
// number. An open-addressing table of 32-bit slots at a load of at most 3/4
// indexes them. States travel packed too, as words() 64-bit words after
// their parent's id, the key (parent's number << 24 | move index) and, for
// the cycle phase, the move's label.
//
// One file a concern: run.cpp (the run, its limits and stop), search.cpp
// (the partitioned BFS and its exchange), cycles.cpp (the cycle phase,
// Options::cycles: moves in and out, the backward search, OWCTY
// elimination, ends out of reach, leads_to), gather.cpp (groups, traces,
// the slice and the figures, to rank 0).
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include <mpi.h>

#include "loophole/checker/generator.hpp"
#include "loophole/checker/state_codec.hpp"
#include "loophole/distributed/explore.hpp"

#include "store.hpp"
#include "wire.hpp"

namespace loophole::distributed::detail {

struct LocalGroup {
  std::uint64_t states = 0;
  std::uint32_t depth = 0;
  std::uint64_t first = 0;  // global id of the first state (the smallest number, num)
  std::uint64_t num = 0;
};

// One thread's part of a round (Options::threads): its scratch, its copy of
// the questions (they keep scratch of their own) and the groups it found,
// and, with several threads, the successors it generated ([parent, key,
// label, packed state] each), which the rank's thread sends after the
// round (only it touches the store and MPI).
struct Worker {
  Worker(std::size_t words, std::size_t unpacked, std::vector<StateQuestion> qs)
      : cur_words(words),
        succ_words(words),
        cur(unpacked),
        questions(std::move(qs)),
        groups(questions.size()) {}
  checker::Generator::Buffer buf;
  std::vector<std::uint64_t> cur_words, succ_words;
  std::vector<std::int32_t> cur;
  std::vector<StateQuestion> questions;
  std::vector<std::map<GroupKey, LocalGroup>> groups;
  checker::StateVec state;
  std::vector<GroupKey> keys;
  std::vector<checker::MoveFields> moves;
  std::uint64_t transitions = 0;
  std::vector<std::uint64_t> successors;
};

class Run {
 public:
  Run(const checker::Semantics& sem, MPI_Comm comm, const Options& options)
      : sem_(sem),
        gen_(sem),
        comm_(comm),
        options_(options),
        codec_(sem.layout()),
        words_(codec_.words()),
        store_(codec_.words(), codec_.bytes()),
        cur_words_(words_),
        succ_words_(words_),
        cur_(codec_.unpacked_size()) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    out_.resize(static_cast<std::size_t>(size_));
    groups_.resize(options_.questions.size());
    const std::size_t threads = std::max<std::size_t>(options_.threads, 1);
    for (std::size_t t = 0; t < threads; ++t) {
      if (t > 0 && !options_.questions.empty() && !options_.thread_questions) {
        throw std::invalid_argument("distributed search: threads need thread_questions");
      }
      workers_.push_back(
          std::make_unique<Worker>(words_, codec_.unpacked_size(),
                                   t == 0 ? options_.questions : options_.thread_questions()));
    }
  }

  Result run();

 private:
  [[nodiscard]] int owner(std::uint64_t hash) const {
    return static_cast<int>((hash >> 32) % static_cast<std::uint64_t>(size_));
  }
  [[nodiscard]] std::uint64_t global_id(std::size_t local) const {
    return (static_cast<std::uint64_t>(rank_) << k_rank_shift) | local;
  }
  [[nodiscard]] std::uint32_t depth_of(std::size_t local) const {
    const auto it = std::upper_bound(level_begin_.begin(), level_begin_.end(), local);
    return static_cast<std::uint32_t>(it - level_begin_.begin() - 1);
  }

  [[nodiscard]] static std::size_t local_of(std::uint64_t gid) { return gid & k_local_mask; }
  [[nodiscard]] static int rank_of(std::uint64_t gid) {
    return static_cast<int>(gid >> k_rank_shift);
  }

  // The packed state w with its parent, the parent's number and move index
  // and (Options::cycles) the move's label, to w's owner: added here if
  // this rank owns it, else queued for a message (exchange.cpp).
  void send(const std::uint64_t* w, std::uint64_t parent, std::uint64_t key, std::uint64_t label);
  // Adds a successor that arrived (or was generated) for this rank.
  void add(const std::uint64_t* w, std::uint64_t hash, std::uint64_t parent, std::uint64_t key,
           std::uint64_t label);
  [[nodiscard]] std::size_t record_words() const { return words_ + (options_.cycles ? 3 : 2); }
  // The level's exchange (exchange.cpp): out_[to] sent non-blocking (empty:
  // the end-of-level marker), once at most Options::in_flight sends are
  // outstanding; progress() completes sends and adds what has arrived
  // (true if anything happened); wait() completes a request while
  // progressing; end_level() sends what is queued and the markers, then
  // receives until every other rank's marker has come.
  void post(std::size_t to);
  bool progress(bool defer = false);
  void wait(MPI_Request& request);
  void end_level();
  void idle(bool busy);  // after a wait's step: busy, whether it did anything
  // One all-to-all of out_ (cleared): what every rank sent this one, in
  // rank order; `from` gets the number of words from each rank.
  std::vector<std::uint64_t> all_to_all(std::vector<int>* from = nullptr);
  // Every rank's `mine`, concatenated in rank order, on rank 0 (empty on
  // the others).
  template <class T>
  std::vector<T> gather_on_root(const std::vector<T>& mine);
  // The states [begin, begin + count) of the level, on the workers'
  // threads; then every successor sent and every group merged.
  void expand_round(std::size_t begin, std::size_t count);
  // Expands one state on worker w: its successors sent (`direct`, on the
  // rank's thread) or kept in w.successors.
  void expand(Worker& w, std::size_t local, bool direct);
  void classify(Worker& w, std::size_t local, const std::int32_t* s);
  // The workers' groups into groups_ (after the search).
  void merge_groups();
  // Received records ([parent, key, (label,) packed state] each) added;
  // add_deferred: those progress(true) kept.
  void add_records(const std::vector<std::uint64_t>& records);
  void add_deferred();
  void number_level(std::size_t begin, std::size_t end, std::uint64_t current);
  // The cycle phase (Options::cycles).
  bool stopped_now();
  void build_edges();
  bool reach_back();
  std::unordered_map<std::size_t, checker::Ending> gather_endings();
  bool propagate(std::vector<std::size_t>& work, std::vector<std::uint64_t>& fresh);
  bool trim(Subgraph k);
  template <class OutKept, class InKept>
  bool cyclic(std::vector<std::uint8_t>& alive, OutKept out_kept, InKept in_kept,
              std::vector<std::pair<std::uint32_t, std::uint64_t>>& roots);
  // Options::summarize: every component summarised on its root's owner,
  // rank 0 chooses, and core_ keeps only the chosen components' states.
  void summarize_components(Result& r);
  template <class Member, class OutKept, class InKept>
  bool eliminate(std::vector<std::uint8_t>& alive, Member member, OutKept out_kept, InKept in_kept);
  bool ends_out_of_reach(Result& r);
  bool leads_to();
  void gather_slice(Result& r);
  int stop_reason(bool more, bool& any_more);
  std::vector<checker::StateVec> path_to(std::uint64_t gid, std::uint32_t& initial);
  std::optional<checker::Trace> trace_to(std::uint64_t gid);
  void gather_groups(Result& r);
  void gather_figures(Result& r);

  const checker::Semantics& sem_;
  checker::Generator gen_;
  checker::Generator::Buffer buf_;
  MPI_Comm comm_;
  Options options_;
  checker::StateCodec codec_;
  std::size_t words_;
  Store store_;
  std::vector<std::uint64_t> cur_words_, succ_words_;  // scratch: a state packed
  std::vector<std::int32_t> cur_;                      // scratch: the state expanded
  int rank_ = 0, size_ = 1;
  std::vector<std::vector<std::uint64_t>> out_;
  // The level's sends outstanding (their buffers, which MPI reads until
  // the request completes), spare buffers, the message being read, and
  // the end-of-level markers received this level.
  std::vector<MPI_Request> send_requests_;
  std::vector<std::vector<std::uint64_t>> send_buffers_, spare_;
  std::vector<std::uint64_t> received_;
  // Records received while workers read the store (progress(true)), added
  // after the round.
  std::vector<std::uint64_t> deferred_;
  std::vector<std::unique_ptr<Worker>> workers_;
  int markers_ = 0;
  unsigned idle_spins_ = 0;
  std::vector<std::size_t> level_begin_;
  std::size_t next_begin_ = 0;  // the first state of the level being added
  // Per state of the level being added, the smallest (parent's number << 24
  // | move index) it was reached by (Store::num: the numbers given).
  std::vector<std::uint64_t> level_keys_;
  std::uint64_t level_first_num_ = 0;  // the number of the current level's first state
  // Options::cycles: every move into a state owned here, as it arrived
  // (the state, the source's global id, the label with the source's ctl).
  // (Local numbers fit 32 bits: the store's index slots are 32-bit.)
  std::vector<std::uint32_t> in_to_;
  std::vector<std::uint64_t> in_from_, in_label_;
  // The stack-overflow states of a site gathered at most (properties'
  // unbounded chains read back the chains of so many).
  static constexpr std::size_t k_overflows_gathered = 4096;
  // Then per state: ctl, the moves out (to, label with the target's ctl)
  // and in (from, label with the source's ctl), in CSR form, the marks of
  // the backward search and which subgraphs' cores it is in (bit k).
  std::vector<std::uint32_t> ctl_;
  std::vector<std::uint64_t> marks_;
  // Options::end_marks: the states rank 0 gathers besides the cores, with
  // their moves (ball_ 1: the gap cause's search) or without (2).
  std::vector<std::uint8_t> ball_;
  // Options::leads_marks: per state its from/to bits, per move out its
  // target's; per state the bits rank 0 reads (Result::leads_bits); per
  // property the number of its earliest failing state (max: none).
  std::vector<std::uint64_t> leads_, out_leads_, leads_slice_, leads_bad_num_;
  std::vector<std::uint64_t> out_begin_, out_to_, out_label_, in_begin_, in_from_csr_,
      in_label_csr_;
  std::vector<std::uint8_t> core_;
  // The coloring rounds of the SCC searches (cyclic), over the subgraphs;
  // per subgraph, each state of a cyclic component with its root (the
  // component's largest global id).
  std::uint64_t scc_rounds_ = 0;
  std::array<std::vector<std::pair<std::uint32_t, std::uint64_t>>, k_subgraphs> roots_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  RankFigures figures_;
  std::vector<std::map<GroupKey, LocalGroup>> groups_;  // per question
  checker::StateVec state_;                             // scratch: a state asked about
  std::mutex snapshot_mutex_;
  Snapshot snapshot_;
};

}  // namespace loophole::distributed::detail
