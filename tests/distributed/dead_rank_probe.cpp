// A probe for tests/distributed/dead_rank_test.sh: the distributed search on
// a ruleset, in which rank 1 kills itself (SIGKILL) after it has asked its
// questions of `after` states, having written the time of its death to
// DIR/killed. mpirun then sends SIGTERM to the other ranks; rank 0, stuck
// in a collective with the dead rank, must write what it knew to
// DIR/partial (on_abandon) and end with exit code 3.
//
//   mpirun -np 2 dead_rank_probe RULESET.yaml DIR [AFTER]
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include <mpi.h>

#include "loophole/checker/semantics.hpp"
#include "loophole/distributed/explore.hpp"
#include "loophole/model/diagnostics.hpp"
#include "loophole/model/game.hpp"

namespace {

std::atomic<bool> g_stop{false};

void on_signal(int /*signal*/) { g_stop.store(true); }

double now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace loophole;
  MPI_Init(&argc, &argv);
  if (argc < 3) {
    std::fputs("usage: dead_rank_probe RULESET.yaml DIR [AFTER]\n", stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  std::signal(SIGTERM, on_signal);
  std::signal(SIGINT, on_signal);
  const std::string dir = argv[2];
  const long after = argc > 3 ? std::atol(argv[3]) : 20000;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  model::SourceManager sources;
  model::DiagnosticSink sink;
  model::LoadOptions load;
  load.override_origin.file = "<command line>";
  const std::optional<model::Game> game = model::load_game(argv[1], load, sources, sink);
  if (!game) {
    std::fputs(sink.render(sources).c_str(), stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const checker::Semantics sem(*game);
  distributed::Options options;
  options.batch = 256;
  options.interrupt = &g_stop;
  long asked = 0;
  options.questions.push_back([&](const checker::StateVec&, std::span<const checker::MoveFields>,
                                  std::vector<distributed::GroupKey>&) {
    if (rank == 1 && ++asked == after) {
      std::ofstream(dir + "/killed") << std::to_string(now()) << "\n";
      std::raise(SIGKILL);
    }
  });
  options.on_abandon = [&](const distributed::Snapshot& s) {
    std::ofstream(dir + "/partial")
        << "states " << s.states << "\ntransitions " << s.transitions << "\nlevels " << s.depth
        << "\nat " << std::to_string(now()) << "\n";
  };
  const distributed::Result r = distributed::explore(sem, MPI_COMM_WORLD, options);
  if (rank == 0) {
    std::ofstream(dir + "/finished") << "states " << r.states << "\n";
  }
  MPI_Finalize();
  return 0;
}
