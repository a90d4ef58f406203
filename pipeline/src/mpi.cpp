// MPI for `loophole check` under mpirun (loophole/pipeline/mpi.hpp).
#include "loophole/pipeline/mpi.hpp"

#include <cstdio>
#include <cstdlib>

#ifdef LOOPHOLE_WITH_MPI
#include <mpi.h>
#endif

namespace loophole::pipeline {

void record_exit_code(int code) {
  const char* path = std::getenv("LOOPHOLE_EXIT_FILE");
  if (path == nullptr || !launched_by_mpirun()) return;
  if (std::FILE* f = std::fopen(path, "w")) {
    std::fprintf(f, "%d\n", code);
    std::fclose(f);
  }
}

bool launched_by_mpirun() {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  return size != nullptr && std::atoi(size) >= 1;
}

#ifdef LOOPHOLE_WITH_MPI
namespace {
bool g_mpi = false;
}  // namespace

bool distributed_available() { return true; }

MpiSession::MpiSession(int& argc, char**& argv) {
  if (!launched_by_mpirun()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  g_mpi = true;
}

MpiSession::~MpiSession() {
  if (g_mpi) MPI_Finalize();
}

bool reporting_rank() {
  if (!g_mpi) return true;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

int agree_on(int value) {
  if (g_mpi) MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (reporting_rank()) record_exit_code(value);
  return value;
}
#else
bool distributed_available() { return false; }
MpiSession::MpiSession(int& /*argc*/, char**& /*argv*/) {}
MpiSession::~MpiSession() = default;
bool reporting_rank() { return true; }
int agree_on(int value) { return value; }
#endif

}  // namespace loophole::pipeline
