// Runs under mpirun (docs/distributed.md): `loophole check` started by
// mpirun as several ranks runs the distributed search; every rank loads and
// checks the same rulesets, rank 0 alone writes the report. This header
// keeps MPI out of the cli: it only asks who it is.
#pragma once

namespace loophole::pipeline {

// Whether this process is a rank of a job that mpirun started (Open MPI's
// environment: OMPI_COMM_WORLD_SIZE).
[[nodiscard]] bool launched_by_mpirun();
// Whether this build has the distributed search (MPI was found).
[[nodiscard]] bool distributed_available();

// MPI for the lifetime of main() when launched_by_mpirun() and available;
// otherwise nothing.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

// This process is the one that reports: rank 0, or the only process.
[[nodiscard]] bool reporting_rank();
// Rank 0's value on every rank (an exit code), or `value` outside mpirun.
// Rank 0 also records it (record_exit_code).
[[nodiscard]] int agree_on(int value);
// Under mpirun with LOOPHOLE_EXIT_FILE set (scripts/loophole-mpirun sets
// it): writes the exit code there, so that the wrapper exits with rank 0's
// code rather than mpirun's (which is 1 after SIGINT, and a dead rank's
// signal when one is killed). Called by rank 0 only.
void record_exit_code(int code);

}  // namespace loophole::pipeline
