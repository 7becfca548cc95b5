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
} // namespace tessera::runtime
namespace tessera::multigrid {
struct Problem;
struct SolveResult;
class Solver;
struct SolverOptions;
struct SolverFootprint;
} // namespace tessera::multigrid
namespace tessera::runtime {
struct Device;
}

namespace tessera::tools {

struct SolveCommandOptions {
  std::string problem;
  std::string size;
  std::string centring = "cell";
  std::string cycle; // empty: the problem's default (with_defaults)
  std::string smoother = "gsrb";
  double anisotropy = 0;   // poisson2d/3d: coupling along y (0: isotropic, the plain Laplacian)
  int pre = -1, post = -1; // -1: the problem's default (with_defaults)
  double omega = 0;        // 0: 2d/(2d+1)
  double tolerance = 1e-10;
  int max_cycles = 20;
  std::string precision = "f64";
  int order = 0; // hpgmg3d: HPGMG-FV's operator of order 2 or 4; 0: not given (2)
  std::string interpolation = "linear";
  int coarse_sweeps = 8;
  int64_t coarsest = 2;
  std::string device;
  std::string json;
  std::string timeline;     // --timeline FILE: the device's commands (runtime/Timeline.h)
  std::string tune = "off"; // off: default lowering; explore: the tuning database
  double tune_budget_s = 10;
  std::string tune_operators; // with --tune explore: the operators explored ("restrict,prolong")
  std::string tuning_db;
  std::vector<std::string> variants; // "gsrb-red=3": a named variant of an operator
  bool quiet = false;
  bool profile = false; // --profile: every kernel timed (SolverOptions::profile_kernels)
  bool fused_smoothing = false;
  bool fused_correction = false;  // SolverOptions::fused_correction
  bool out_of_place_gsrb = false; // every red-black half-sweep writes a new grid
  bool in_place_gsrb = false;     // every one stores its colour into the solution's grid
  bool wavefront_gsrb = false;    // a step's two half-sweeps as one pass (multigrid/Wavefront.h)
  int wavefront_steps = 1;        // SolverOptions::wavefront_steps
  int64_t coarse_launch = -1;     // SolverOptions::coarse_launch_side (-1: the device's default)
  bool separate_launches = false; // every step its own launch (coarse_launch_side 0)
  // Under mpirun (docs/distributed.md): ranks per dimension ("2x2"; empty: MPI_Dims_create)
  // and the points per rank below which a level moves to rank 0.
  std::string ranks;
  int64_t agglomerate = -1;               // -1: distributed::default_agglomerate_below
  int64_t halo = 1;                       // the finest level's halo width
  int64_t coarse_halo = 1;                // the coarser levels' (distributed::HaloWidths)
  std::string overlap = "on";             // exchanges overlapped with the kernels that need them
  std::string colour_exchanges = "on";    // one colour exchanged after a red-black half-sweep
  std::string same_host_faces = "shared"; // faces between ranks of one host: shared memory, mpi
};

// Registers the subcommand and its options; returns it (to test whether it was parsed).
CLI::App* add_solve_command(CLI::App& app, SolveCommandOptions& options);
int solve_command(const SolveCommandOptions& options);

class InterruptGuard;
// The options with the left-out cycle, smoothing steps and order at the problem's defaults:
// hpgmg3d HPGMG-FV's F-cycle with V(3,3) and order 2, the others V(2,2). Error: --order with
// another problem.
SolveCommandOptions with_defaults(SolveCommandOptions o);
// The solver's options from the command's, Ctrl-C through `guard`; Error for a bad choice
// (SolveOptions.cpp).
multigrid::SolverOptions solver_options(const SolveCommandOptions& o, InterruptGuard& guard);
// Error when the solve would not fit the device (its global memory, its largest buffer) or the
// host (the problem's arrays), as `run` checks its grid before allocating it.
void check_memory(const SolveCommandOptions& o, const multigrid::SolverFootprint& need,
                  const runtime::Device& device);
// `tessera solve hpgmg3d` (HpgmgSolveCommand.cpp): HPGMG-FV's problem and its Richardson error.
int hpgmg_solve_command(const SolveCommandOptions& o, const multigrid::SolverOptions& s,
                        InterruptGuard& guard);

// Shared by the single-device and the distributed solve: the report, the JSON summary, and the
// exit status with its message. `every_cycle`: a line per cycle (not under --quiet).
void print_result(const multigrid::SolveResult& r, std::ostream& out, bool every_cycle = true);
nlohmann::json to_json(const multigrid::SolveResult& r, const SolveCommandOptions& o,
                       const runtime::Session& session);
// --timeline: the file of rank `rank` of `ranks` (FILE itself on one device; under mpirun FILE
// with ".rankR" before its extension).
std::string timeline_path(const std::string& path, int rank, int ranks);
// solver.solve(), its device's commands recorded and written to timeline_path(timeline, ...)
// when `timeline` names a file (runtime/Timeline.h).
multigrid::SolveResult solve_recording(multigrid::Solver& solver, const std::string& timeline,
                                       int rank, int ranks);
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
