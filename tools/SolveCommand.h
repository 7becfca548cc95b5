// `tessera solve PROBLEM --size N ...`: the multigrid solver from the command line.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace CLI {
class App;
}
namespace tessera::runtime {
class Session;
}
namespace tessera::multigrid {
struct Problem;
struct SolveResult;
struct SolverOptions;
} // namespace tessera::multigrid

namespace tessera::tools {

struct SolveCommandOptions {
  std::string problem;
  std::string size;
  std::string centring = "cell";
  std::string cycle = "V";
  std::string smoother = "gsrb";
  double anisotropy = 0; // poisson2d/3d: coupling along y (0: isotropic, the plain Laplacian)
  int pre = 2, post = 2;
  double omega = 0; // 0: 2d/(2d+1)
  double tolerance = 1e-10;
  int max_cycles = 20;
  std::string precision = "f64";
  std::string interpolation = "linear";
  int coarse_sweeps = 8;
  int64_t coarsest = 2;
  std::string device;
  std::string json;
  std::string tune = "off"; // off: default lowering; explore: the tuning database
  double tune_budget_s = 10;
  std::string tuning_db;
  std::vector<std::string> variants; // "gsrb-red=3": a named variant of an operator
  bool quiet = false;
  bool fused_smoothing = false;
  // Under mpirun (docs/distributed.md): ranks per dimension ("2x2"; empty: MPI_Dims_create)
  // and the points per rank below which a level moves to rank 0.
  std::string ranks;
  int64_t agglomerate = 4096;
};

// Registers the subcommand and its options; returns it (to test whether it was parsed).
CLI::App* add_solve_command(CLI::App& app, SolveCommandOptions& options);
int solve_command(const SolveCommandOptions& options);

// Shared by the single-device and the distributed solve: the report, the JSON summary, and the
// exit status with its message.
// exit status with its message. `every_cycle`: a line per cycle (not under --quiet).
void print_result(const multigrid::SolveResult& r, std::ostream& out, bool every_cycle = true);
nlohmann::json to_json(const multigrid::SolveResult& r, const SolveCommandOptions& o,
                       const runtime::Session& session);
// A tolerance below the round-off floor of the precision is input that no run could satisfy:
// exit status 2 with the tolerance that can be reached; a solve that diverged, stagnated above
// the floor or ran out of cycles: 1.
int solve_status(const multigrid::SolveResult& r, const SolveCommandOptions& o,
                 const multigrid::SolverOptions& s, const multigrid::Problem& problem);
// `mpirun -np P tessera solve ...` (DistributedSolveCommand.cpp, built with MPI).
bool launched_by_mpirun();
int distributed_solve_command(const SolveCommandOptions& o, const multigrid::Problem& problem,
                              const multigrid::SolverOptions& s);

} // namespace tessera::tools
