// `tessera solve PROBLEM --size N ...`: the multigrid solver from the command line.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

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
};

// Registers the subcommand and its options; returns it (to test whether it was parsed).
CLI::App* add_solve_command(CLI::App& app, SolveCommandOptions& options);
int solve_command(const SolveCommandOptions& options);

} // namespace tessera::tools
