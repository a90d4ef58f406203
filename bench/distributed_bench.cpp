// distributed_bench: the distributed search (checker/distributed) on one
// ruleset, per rank: states owned, transitions generated, bytes sent to
// other ranks and messages, peak resident bytes; and for the run: states,
// wall time, states per second, communication per state and resident bytes
// per state (the largest rank's peak over its owned states), with the
// state-local questions of `check` asked of every state. Run it under
// mpirun; rank 0 prints:
//
//   mpirun -np N distributed_bench [--batch N] [--message N] [--threads N]
//       [--cycles] [--param NAME=V]... RULESET.yaml
//
// --batch: states a rank expands a round; --message: states a message
// carries at most; --threads: threads a rank.
// --cycles: also the cycle phase (Options::cycles) and, on rank 0, the cycle
// analyses on the gathered slice: its size and the time they took.
//
// Figures go to stdout; record them with the date in bench/RESULTS.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include <mpi.h>

#include "loophole/checker/semantics.hpp"
#include "loophole/distributed/explore.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"
#include "loophole/properties/check.hpp"
#include "loophole/properties/state_groups.hpp"

namespace {

using namespace loophole;

[[noreturn]] void usage(const char* why) {
  std::fprintf(
      stderr,
      "distributed_bench: %s\nusage: mpirun -np N distributed_bench [--batch N] [--message N] "
      "[--threads N] [--cycles] [--param NAME=V]... RULESET.yaml\n",
      why);
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  // (Options::threads: only the calling thread calls MPI.)
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  distributed::Options options;
  model::LoadOptions load;
  load.override_origin.file = "<command line>";
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--cycles") {
      options.cycles = true;
    } else if (a == "--threads") {
      options.threads = static_cast<std::size_t>(std::max(1, std::atoi(value().c_str())));
    } else if (a == "--message") {
      options.message_states = static_cast<std::size_t>(std::max(1, std::atoi(value().c_str())));
    } else if (a == "--batch") {
      options.batch = static_cast<std::size_t>(std::max(1, std::atoi(value().c_str())));
    } else if (a == "--param") {
      const std::string v = value();
      const auto eq = v.find('=');
      if (eq == std::string::npos) usage("--param needs NAME=V");
      load.param_overrides[v.substr(0, eq)] = std::atoll(v.c_str() + eq + 1);
    } else if (!a.empty() && a[0] == '-') {
      usage(("unknown option " + a).c_str());
    } else {
      path = a;
    }
  }
  if (path.empty()) usage("give a ruleset");
  model::SourceManager sources;
  model::DiagnosticSink sink;
  const std::optional<model::Game> game = model::load_game(path, load, sources, sink);
  if (!game) {
    if (rank == 0) std::fputs(sink.render(sources).c_str(), stderr);
    MPI_Finalize();
    return 2;
  }
  const checker::Semantics sem(*game);
  // The state-local questions, as `check` asks them.
  for (auto& q : properties::state_questions(sem)) options.questions.push_back(std::move(q));
  options.thread_questions = [&sem] {
    std::vector<distributed::StateQuestion> copy;
    for (auto& q : properties::state_questions(sem)) copy.push_back(std::move(q));
    return copy;
  };
  options.traced.assign(properties::state_question_traced.begin(),
                        properties::state_question_traced.end());
  if (options.cycles) {
    options.endings = properties::ends_by_statement(sem.game());
    options.marks = [&sem, holding = std::vector<std::pair<int, int>>()](
                        const checker::StateVec& s, const checker::Ending& e) mutable {
      return properties::outcome_marks(sem, s, e, holding);
    };
  }
  const std::size_t max_stalemates = properties::CheckSelection().max_stalemates;
  const auto summaries_of = [](const std::vector<distributed::ComponentSummary>& all) {
    std::vector<properties::LoopSummary> out;
    for (const auto& c : all) out.push_back({c.subgraph, c.entry, c.num, c.words});
    return out;
  };
  if (options.cycles) {  // (as `check` under mpirun)
    options.summarize = [](const checker::ExploredGraph& slice, std::vector<bool> can_finish,
                           const std::vector<std::uint8_t>& designated) {
      std::vector<distributed::ComponentSummary> out;
      for (auto& s : properties::loop_summaries(slice, std::move(can_finish), designated)) {
        out.push_back({s.analysis, s.entry, 0, std::move(s.words), 0});
      }
      return out;
    };
    options.choose = [&](const std::vector<distributed::ComponentSummary>& all) {
      std::vector<std::size_t> chosen;
      (void)properties::loop_counts(summaries_of(all), max_stalemates, &chosen);
      return chosen;
    };
  }
  const distributed::Result r = distributed::explore(sem, MPI_COMM_WORLD, options);
  if (rank == 0) {
    std::printf(
        "%s: %d ranks, batch %zu: %llu states, %llu transitions, depth %u, %.3f s, "
        "%.0f states/s\n",
        path.c_str(), r.ranks, options.batch, static_cast<unsigned long long>(r.states),
        static_cast<unsigned long long>(r.transitions), r.depth, r.seconds,
        static_cast<double>(r.states) / r.seconds);
    std::uint64_t sent = 0, peak = 0, owned_at_peak = 1;
    for (std::size_t k = 0; k < r.per_rank.size(); ++k) {
      const distributed::RankFigures& f = r.per_rank[k];
      std::printf(
          "  rank %zu: %llu states, %llu transitions, %.1f MiB sent in %llu messages, "
          "peak %.1f MiB (%.1f B/state; store %.1f B/state, moves kept %.1f B/state)\n",
          k, static_cast<unsigned long long>(f.states),
          static_cast<unsigned long long>(f.transitions),
          static_cast<double>(f.bytes_sent) / (1 << 20),
          static_cast<unsigned long long>(f.messages),
          static_cast<double>(f.peak_resident) / (1 << 20),
          static_cast<double>(f.peak_resident) /
              static_cast<double>(std::max<std::uint64_t>(1, f.states)),
          static_cast<double>(f.store_bytes) /
              static_cast<double>(std::max<std::uint64_t>(1, f.states)),
          static_cast<double>(f.edge_bytes) /
              static_cast<double>(std::max<std::uint64_t>(1, f.states)));
      sent += f.bytes_sent;
      if (f.peak_resident > peak) {
        peak = f.peak_resident;
        owned_at_peak = std::max<std::uint64_t>(1, f.states);
      }
    }
    std::printf(
        "  sent %.1f bytes per state, %.1f per transition; largest rank %.1f B/state\n",
        static_cast<double>(sent) / static_cast<double>(std::max<std::uint64_t>(1, r.states)),
        static_cast<double>(sent) / static_cast<double>(std::max<std::uint64_t>(1, r.transitions)),
        static_cast<double>(peak) / static_cast<double>(owned_at_peak));
    std::printf(
        "  groups: %zu deadlock, %zu rule gap, %zu tie, %zu end condition reached, "
        "%zu property decided, %zu rule alive\n",
        r.answers[0].size(), r.answers[1].size(), r.answers[2].size(), r.answers[3].size(),
        r.answers[4].size(), r.answers[5].size());
    if (r.slice) {
      const auto t = std::chrono::steady_clock::now();
      const properties::LoopCounts counts =
          properties::loop_counts(summaries_of(r.summaries), max_stalemates);
      const auto found =
          properties::cycle_findings(*r.slice, r.can_finish, r.doomed, r.overflows, max_stalemates,
                                     nullptr, {}, &counts, &r.designated);
      std::printf(
          "  cycles: %llu states on or between cycles, %llu of them in cyclic components "
          "(%llu SCC rounds; %zu components summarised in %.3f s), %llu in those a finding "
          "shows; slice of %llu states (gathered in %.3f s); %zu cycle findings in %.3f s on "
          "rank 0\n",
          static_cast<unsigned long long>(r.core_states),
          static_cast<unsigned long long>(r.cyclic_states),
          static_cast<unsigned long long>(r.scc_rounds), r.summaries.size(), r.summarize_seconds,
          static_cast<unsigned long long>(r.shown_states),
          static_cast<unsigned long long>(r.slice->size()), r.gather_seconds, found.size(),
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
    }
  }
  MPI_Finalize();
  return 0;
}
