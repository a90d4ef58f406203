// The level's exchange, overlapped with expansion (run.hpp): a successor
// for another rank waits in out_[owner] until Options::message_states of
// them are queued, then goes as one non-blocking send while the rank goes
// on expanding; what other ranks sent is received and added between
// expansions. At most Options::in_flight sends are outstanding: a rank at
// the bound receives while it waits, so two ranks that send to each other
// always drain each other. A level ends (end_level) with each rank sending
// what is left and an empty message, the marker, to every other rank;
// messages between two ranks arrive in the order sent (MPI's non-overtaking
// rule, one tag), so a rank that has every other rank's marker has the
// whole level. No rank sends the next level's states before the level's
// collectives (number_level), which every rank reaches only after its
// markers, so a message never crosses a level. Every wait here (a send
// slot, a marker, the round's all-reduce) receives while it waits: a
// blocking collective there could deadlock against a rank waiting for its
// send slot.
#include <algorithm>
#include <chrono>
#include <thread>

#include "run.hpp"

namespace loophole::distributed::detail {
namespace {

constexpr int k_tag_states = 38;

}  // namespace

// A wait's step that found nothing to do yields the core, and after a
// while sleeps: ranks share cores with each other and other work (4
// ranks on 2 cores in the tests), and a rank that spins while it waits
// takes the core the rank it waits for needs.
void Run::idle(bool busy) {
  constexpr unsigned k_spins = 64;
  if (busy) {
    idle_spins_ = 0;
  } else if (++idle_spins_ < k_spins) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

void Run::send(const std::uint64_t* w, std::uint64_t parent, std::uint64_t key,
               std::uint64_t label) {
  const std::uint64_t hash = hash_words(w, words_);
  const auto to = static_cast<std::size_t>(owner(hash));
  if (static_cast<int>(to) == rank_) {
    add(w, hash, parent, key, label);
    return;
  }
  auto& o = out_[to];
  o.push_back(parent);
  o.push_back(key);
  if (options_.cycles) o.push_back(label);  // (only the cycle phase reads it)
  o.insert(o.end(), w, w + words_);
  if (o.size() >= std::max<std::size_t>(options_.message_states, 1) * record_words()) post(to);
}

void Run::post(std::size_t to) {
  while (send_requests_.size() >= std::max<std::size_t>(options_.in_flight, 1)) {
    idle(progress());
  }
  std::vector<std::uint64_t> data;
  data.swap(out_[to]);
  if (!spare_.empty()) {
    out_[to].swap(spare_.back());
    spare_.pop_back();
  }
  if (!data.empty()) {
    figures_.bytes_sent += data.size() * sizeof(std::uint64_t);
    ++figures_.messages;
    figures_.largest_message =
        std::max<std::uint64_t>(figures_.largest_message, data.size() * sizeof(std::uint64_t));
  }
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Isend(data.data(), static_cast<int>(data.size()), MPI_UINT64_T, static_cast<int>(to),
            k_tag_states, comm_, &request);
  // (Moving the vector keeps its buffer where MPI reads it.)
  send_requests_.push_back(request);
  send_buffers_.push_back(std::move(data));
}

bool Run::progress(bool defer) {
  bool any = false;
  if (!send_requests_.empty()) {
    int done = 0;
    std::vector<int> indices(send_requests_.size());
    MPI_Testsome(static_cast<int>(send_requests_.size()), send_requests_.data(), &done,
                 indices.data(), MPI_STATUSES_IGNORE);
    if (done > 0 && done != MPI_UNDEFINED) {
      any = true;
      std::size_t kept = 0;
      for (std::size_t i = 0; i < send_requests_.size(); ++i) {
        if (send_requests_[i] != MPI_REQUEST_NULL) {
          send_requests_[kept] = send_requests_[i];
          send_buffers_[kept].swap(send_buffers_[i]);
          ++kept;
        } else if (spare_.size() < static_cast<std::size_t>(size_)) {
          send_buffers_[i].clear();
          spare_.push_back(std::move(send_buffers_[i]));
        }
      }
      send_requests_.resize(kept);
      send_buffers_.resize(kept);
    }
  }
  for (;;) {
    int flag = 0;
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, k_tag_states, comm_, &flag, &message, &status);
    if (flag == 0) break;
    any = true;
    int count = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &count);
    received_.resize(static_cast<std::size_t>(count));
    MPI_Mrecv(received_.data(), count, MPI_UINT64_T, &message, MPI_STATUS_IGNORE);
    if (count == 0) {
      ++markers_;
      continue;
    }
    if (defer) {
      deferred_.insert(deferred_.end(), received_.begin(), received_.end());
      continue;
    }
    add_records(received_);
  }
  return any;
}

void Run::add_records(const std::vector<std::uint64_t>& records) {
  const std::size_t head = options_.cycles ? 3 : 2;
  const std::size_t record = record_words();
  for (std::size_t at = 0; at + record <= records.size(); at += record) {
    const std::uint64_t* w = &records[at + head];
    add(w, hash_words(w, words_), records[at], records[at + 1],
        options_.cycles ? records[at + 2] : 0);
  }
}

void Run::add_deferred() {
  add_records(deferred_);
  deferred_.clear();
}

void Run::wait(MPI_Request& request) {
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done != 0) return;
    idle(progress());
  }
}

void Run::end_level() {
  for (std::size_t to = 0; to < out_.size(); ++to) {
    if (static_cast<int>(to) == rank_) continue;
    if (!out_[to].empty()) post(to);
    post(to);  // (out_[to] is empty now: the marker)
  }
  while (markers_ < size_ - 1 || !send_requests_.empty()) {
    idle(progress());
  }
  markers_ = 0;
}

}  // namespace loophole::distributed::detail
