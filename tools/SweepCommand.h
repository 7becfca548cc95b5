// `[mpirun -np P] tessera sweep STENCIL --size ... --steps K [--iterations I]`: a stencil swept
// over a grid split into blocks over the MPI ranks (distributed/, docs/distributed.md). Without
// mpirun it runs as one rank.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace tessera::tools {

struct SweepCommandOptions {
  std::string stencil;
  std::string program; // --program FILE.json
  std::string size;
  int steps = 1;        // fused steps per halo exchange
  int iterations = 1;   // exchange periods
  std::string boundary; // empty: the stencil's own
  std::string ranks;    // "2x2": ranks per dimension; empty: MPI_Dims_create
  std::string overlap = "on";
  std::string same_host_faces = "shared"; // faces between ranks of one host: shared memory, mpi
  std::string device;
  std::string json;   // summary with the checksum (rank 0)
  std::string values; // the whole result grid as JSON (rank 0)
  unsigned seed = 1;
  std::string local;         // work-group "32x4x1", OpenCL's dimension 0 first; empty: automatic
  std::string variant = "0"; // number or name of the rank-local step's variant (0: plain)
  // Where each rank looks for the explored best variant of its local step ("off": nowhere;
  // empty: tuning.json in the cache directory).
  std::string tuning_db;
  bool quiet = false;
  bool verbose = false; // each rank's phases on stderr as they begin
};

CLI::App* add_sweep_command(CLI::App& app, SweepCommandOptions& options);
int sweep_command(const SweepCommandOptions& options);

} // namespace tessera::tools
