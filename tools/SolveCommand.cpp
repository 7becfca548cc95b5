#include "tools/SolveCommand.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/FilePlan.h"
#include "explore/Report.h"
#include "multigrid/Anisotropic.h"
#include "multigrid/Limits.h"
#include "multigrid/LineRelaxation.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
#include "multigrid/Wavefront.h"
#include "runtime/Session.h"
#include "runtime/Timeline.h"
#include "tools/Commands.h"
#include "tools/HostMemory.h"
#include "tools/Interrupt.h"
#include "tools/Validators.h"

namespace tessera::tools {

using namespace multigrid;

namespace {

// "poisson3d" -> {3, false}, "helmholtz2d" -> {2, true}; Error for anything else.
std::pair<int, bool> parse_problem(const std::string& name) {
  for (int d = 1; d <= 3; ++d) {
    if (name == cat("poisson", d, "d"))
      return {d, false};
    if (d > 1 && name == cat("helmholtz", d, "d"))
      return {d, true};
  }
  user_error(cat("unknown problem '", name,
                 "' (the problems are poisson1d, poisson2d, poisson3d: -lap(u) = f, and "
                 "helmholtz2d, helmholtz3d: a alpha u - b div(beta grad u) = f with variable "
                 "coefficients; both with a manufactured sine solution; and hpgmg3d, "
                 "HPGMG-FV's benchmark problem)"));
}

// "64", "64x64x64" -> 64: one side, or dims equal extents (checked as every command's sizes).
// Every refusal says both forms, so that correcting one mistake does not meet another message.
int64_t parse_side(const std::string& text, int dims, const std::string& problem) {
  const std::string cube = dims == 2 ? "64x64" : "64x64x64";
  const std::string forms =
      dims == 1 ? "give one side such as 64"
                : cat("give one side such as 64, or ", dims, " equal extents such as ", cube,
                      " (the multigrid grids are cubes)");
  const auto parts = static_cast<int>(std::count(text.begin(), text.end(), 'x')) + 1;
  if (parts != 1 && parts != dims)
    user_error(cat("bad size '", text, "' for ", problem, " (", dims, "-D): ", forms));
  const auto sides = parse_numeric_size(text, parts, problem);
  for (int64_t side : sides)
    if (side != sides[0])
      user_error(cat("bad size '", text, "' for ", problem, ": its extents differ; ", forms));
  std::string extents = std::to_string(sides[0]);
  for (int d = 1; d < dims; ++d)
    extents += "x" + std::to_string(sides[0]);
  parse_numeric_size(extents, dims, problem); // the point count every command checks
  return sides[0];
}

} // namespace

nlohmann::json to_json(const SolveResult& r, const SolveCommandOptions& o,
                       const runtime::Session& session) {
  nlohmann::json cycles = nlohmann::json::array();
  for (const auto& c : r.cycles)
    cycles.push_back({{"cycle", c.cycle},
                      {"kind", c.kind},
                      {"residual", c.residual},
                      {"relative_residual", c.relative},
                      {"convergence_factor", c.factor},
                      {"device_ms", c.device_ms},
                      {"wall_ms", c.wall_ms}});
  nlohmann::json breakdown = nlohmann::json::object();
  for (const auto& [op, t] : r.breakdown)
    breakdown[op] = {{"launches", t.launches}, {"ms", t.ms}};
  nlohmann::json j = {{"format", "tessera-solve"},
                      {"version", 1},
                      {"problem", o.problem},
                      {"size", o.size},
                      {"centring", o.centring},
                      {"cycle", o.cycle},
                      {"smoother", o.smoother},
                      {"anisotropy", o.anisotropy == 0 ? 1.0 : o.anisotropy},
                      {"pre", o.pre},
                      {"post", o.post},
                      {"precision", o.precision},
                      {"tolerance", o.tolerance},
                      {"device", session.device().name},
                      {"date", explore::utc_now()},
                      {"levels", r.levels},
                      {"kernels", r.kernels},
                      {"memory_bytes", r.memory_bytes},
                      {"coarse_launch", r.coarse_launch},
                      {"build_ms", r.build_ms},
                      {"initial_residual", r.initial_residual},
                      {"cycles", cycles},
                      {"mean_convergence_factor", r.mean_factor()},
                      {"converged", r.converged},
                      {"stop_reason", r.stop_reason},
                      {"interrupted", r.stop_reason == "interrupted"},
                      {"profiled", o.profile || !o.timeline.empty()},
                      {"breakdown", breakdown}};
  if (r.max_error)
    j["max_error"] = *r.max_error;
  return j;
}

void print_result(const SolveResult& r, std::ostream& out, bool every_cycle) {
  out << std::fixed << std::setprecision(3) << "kernels built and first launched in "
      << r.build_ms / 1000 << " s, before cycle 1 (not in the cycle times)\n"
      << std::scientific << std::setprecision(3);
  double device_ms = 0;
  for (const auto& c : r.cycles) {
    if (every_cycle)
      out << "cycle " << std::setw(2) << c.cycle << " (" << c.kind << ")  ||r||/||f|| "
          << c.relative << "  factor " << std::fixed << std::setprecision(4) << c.factor
          << "  device " << std::setprecision(3) << c.device_ms << " ms  wall " << c.wall_ms
          << " ms\n"
          << std::scientific << std::setprecision(3);
    device_ms += c.device_ms;
  }
  out << std::fixed << std::setprecision(3);
  const double cycles = static_cast<double>(std::max<std::size_t>(1, r.cycles.size()));
  if (r.breakdown.empty())
    out << "time per cycle (device, from its first kernel's start to its last one's end): "
        << device_ms / cycles << " ms (--profile: the time of each operator)\n";
  else
    out << "time per cycle (device): " << device_ms / cycles << " ms, by operator:\n";
  for (const auto& [op, t] : r.breakdown)
    out << "  " << std::left << std::setw(18) << op << std::right << std::setw(10) << t.ms / cycles
        << " ms  " << std::setw(5) << std::setprecision(1)
        << (device_ms > 0 ? 100 * t.ms / device_ms : 0) << "%  (" << t.launches << " launches)\n"
        << std::setprecision(3);
  if (!r.kernels.empty())
    out << "finest level's kernels: " << r.kernels.front() << "\n";
  if (!r.coarse_launch.empty())
    out << "coarse levels: " << r.coarse_launch << "\n";
  out << "mean convergence factor " << std::setprecision(4) << r.mean_factor() << " ("
      << r.stop_reason << " after " << r.cycles.size() << " cycles)\n";
  if (r.max_error)
    out << "max error against the exact solution " << std::scientific << std::setprecision(4)
        << *r.max_error << "\n";
  out << std::defaultfloat;
}

namespace {

// The problem to solve: line smoothers and --anisotropy need Poisson in variable-coefficient
// form (Anisotropic.h), cell-centred.
Problem variable_coefficient_problem(const SolveCommandOptions& o, int dims, int64_t n,
                                     bool helmholtz, Centring centring, SmootherKind smoother) {
  const bool line = line_smoother_axis(smoother, dims).has_value(); // checks the direction
  if (o.anisotropy != 0 && (helmholtz || dims == 1))
    user_error(cat("--anisotropy applies to poisson2d and poisson3d, not ", o.problem));
  if (helmholtz)
    return manufactured_helmholtz(dims, n);
  if (o.anisotropy == 0 && !line)
    return manufactured_poisson(dims, n, centring);
  if (centring != Centring::Cell)
    user_error("line relaxation and --anisotropy run on cell-centred grids: leave out "
               "--centring vertex");
  if (dims == 1)
    user_error("a 1-D problem has one line: a line smoother would be a direct solve; use gsrb");
  return anisotropic_poisson(dims, n, o.anisotropy == 0 ? 1.0 : o.anisotropy);
}

} // namespace

void check_memory(const SolveCommandOptions& o, const SolverFootprint& need,
                  const runtime::Device& device) {
  const std::string what = cat("solve ", o.problem, " --size ", o.size, " (", o.precision, ")");
  const double global = static_cast<double>(device.global_mem_size);
  const double largest = static_cast<double>(device.max_mem_alloc_size);
  if (global > 0 && need.device_bytes > global)
    user_error(cat(what, " needs about ", gigabytes(need.device_bytes),
                   " of device memory for its levels' grids, more than the ", gigabytes(global),
                   " of ", device.name, ": give a smaller --size",
                   o.precision == "f64" ? " or --precision f32" : ""));
  if (largest > 0 && need.largest_buffer > largest)
    user_error(cat(what, " needs a buffer of ", gigabytes(need.largest_buffer),
                   " for its finest grid, more than the largest single allocation of ", device.name,
                   " (", gigabytes(largest), "): give a smaller --size"));
  require_host_memory(need.host_bytes, what, " for the problem's arrays", "give a smaller --size");
}

namespace {

// Two significant digits (the round-off floor is an estimate); rounded up when `up`, so that a
// tolerance printed so is not below the value.
std::string brief(double v, bool up = false) {
  if (up && v > 0) {
    const double unit = std::pow(10.0, std::floor(std::log10(v)) - 1);
    v = std::ceil(v / unit) * unit;
  }
  std::ostringstream text;
  text << std::setprecision(2) << v;
  return text.str();
}

// The smallest relative residual of the cycles.
double lowest_relative(const SolveResult& r) {
  double lowest = 1;
  for (const auto& c : r.cycles)
    lowest = std::min(lowest, c.relative);
  return lowest;
}

// --tune, --tune-budget, --tune-operators, --tuning-db, --variant.
void add_tuning_options(CLI::App& app, SolveCommandOptions& o) {
  auto* solve = &app;
  solve->add_option("--tune", o.tune,
                    "off (default lowering of every operator) or explore (the tuning database, "
                    "exploring operators it lacks)");
  solve
      ->add_option("--tune-budget", o.tune_budget_s,
                   "Exploration budget per operator in seconds (default 10)")
      ->check(positive_seconds());
  solve
      ->add_option("--tune-operators", o.tune_operators,
                   "With --tune explore: explore these operators alone, e.g. restrict,prolong "
                   "(names as for --variant); the others take the default lowering")
      ->check(not_empty("restrict,prolong"));
  solve
      ->add_option("--tuning-db", o.tuning_db,
                   "Tuning database file (default: tuning.json in the cache directory; off: none, "
                   "with --tune off)")
      ->check(not_empty("tuning.json"));
  solve->add_option(
      "--variant", o.variants,
      "OPERATOR=K: run variant K of an operator, repeatable. Operators: gsrb-red, "
      "gsrb-black, gsrb-step, line-red, line-black, jacobi, residual, residual-norm, "
      "restrict, residual-restrict, "
      "prolong, prolong-gsrb, fmg-prolong, restrict-beta0..2, residual-f64, convert-to-f32, "
      "convert-to-f64, and with --fused-smoothing gsrb-fused-N, jacobi-fused-N "
      "(docs/multigrid.md)");
}

// The options of a run under mpirun.
void add_distributed_options(CLI::App& app, SolveCommandOptions& o) {
  auto* solve = &app;
  solve
      ->add_option("--ranks", o.ranks,
                   "Under mpirun: ranks per dimension, e.g. 2x2 (default: MPI_Dims_create)")
      ->check(not_empty("2x2"));
  solve
      ->add_option("--agglomerate", o.agglomerate,
                   "Under mpirun: a level whose blocks have fewer points than this is gathered, "
                   "with the coarser ones, onto fewer ranks (default: 4194304 / ranks where every "
                   "rank has a GPU, else 4096; 0: only where blocks stop halving)")
      ->check(integer_in(0, std::numeric_limits<int64_t>::max()));
  solve
      ->add_option("--halo", o.halo,
                   "Under mpirun: the finest level's halo width (default 1, the operators' "
                   "read radius; wider: fewer exchanges of more bytes)")
      ->check(integer_in(1, 64));
  solve
      ->add_option("--coarse-halo", o.coarse_halo,
                   "Under mpirun: the coarser levels' halo width (default 1; wider: one exchange "
                   "serves several half-sweeps where exchanges cost their latency; no wider "
                   "than a level's blocks)")
      ->check(integer_in(1, 64));
  solve
      ->add_option("--overlap", o.overlap,
                   "Under mpirun: on (default): a kernel that needs a halo exchange runs on the "
                   "points that read no halo while the faces travel")
      ->check(CLI::IsMember({"on", "off"}));
  solve
      ->add_option("--colour-exchanges", o.colour_exchanges,
                   "Under mpirun: on (default): after a red-black half-sweep, the halo exchange "
                   "carries the points of the colour it updated alone (half the bytes)")
      ->check(CLI::IsMember({"on", "off"}));
  solve
      ->add_option("--same-host-faces", o.same_host_faces,
                   "Under mpirun: shared (default): halo faces between ranks of one host go "
                   "through memory both ranks map, copied by the devices; mpi: as MPI messages")
      ->check(CLI::IsMember({"shared", "mpi"}));
}

} // namespace

CLI::App* add_solve_command(CLI::App& app, SolveCommandOptions& o) {
  auto* solve = app.add_subcommand("solve", "Solve a PDE with the multigrid solver on a device");
  solve
      ->add_option("problem", o.problem,
                   "poisson1d, poisson2d, poisson3d, helmholtz2d, helmholtz3d or hpgmg3d")
      ->required();
  solve
      ->add_option("--size", o.size,
                   "Grid side, e.g. 64: cells per side (cell-centred) or interior points per "
                   "side (vertex-centred, 2^k - 1); default 64")
      ->default_val("64")
      ->check(not_empty("64"));
  solve->add_option("--centring", o.centring, "cell (default) or vertex (n = 2^k - 1)");
  solve->add_option("--cycle", o.cycle, "V (default; hpgmg3d: F), W or F (full multigrid first)");
  solve->add_option("--smoother", o.smoother,
                    "gsrb (default), jacobi, or red-black line relaxation along x, y or z: "
                    "line-x, line-y, line-z");
  solve
      ->add_option("--anisotropy", o.anisotropy,
                   "poisson2d/3d: coupling EPS along y and 1 along the other dimensions, "
                   "-(u_xx + EPS u_yy) = f (e.g. 0.001)")
      ->check(positive_number(""));
  solve->add_option("--pre", o.pre, "Smoothing steps before the correction (default 2; hpgmg3d: 3)")
      ->check(integer_in(0, 1000));
  solve
      ->add_option("--post", o.post, "Smoothing steps after the correction (default 2; hpgmg3d: 3)")
      ->check(integer_in(0, 1000));
  solve->add_option("--omega", o.omega, "Jacobi weight (default 2d/(2d+1))");
  solve->add_option("--tol", o.tolerance, "Relative residual to reach (default 1e-10)")
      ->check(positive_number(""));
  solve->add_option("--max-cycles", o.max_cycles, "Cycle limit (default 20)")
      ->check(integer_in(1, 1000000));
  solve->add_option("--precision", o.precision, "f64 (default), f32 or mixed");
  solve
      ->add_option("--order", o.order,
                   "hpgmg3d: the order of HPGMG-FV's operator, 2 (default; operators.fv2.c) "
                   "or 4 (operators.fv4.c)")
      ->check(integer_in(1, 100));
  solve->add_option("--interpolation", o.interpolation, "linear (default) or constant");
  solve
      ->add_option("--coarse-sweeps", o.coarse_sweeps,
                   "Smoothing steps on the coarsest level (default 8)")
      ->check(integer_in(1, 1000000));
  solve
      ->add_option("--coarsest", o.coarsest,
                   "Coarsen while the grid has more points per side than this (default 2)")
      ->check(integer_in(1, 1 << 30));
  solve->add_option("--device", o.device, "OpenCL device: name substring or index (default PoCL)");
  solve->add_option("--json", o.json, "Write the residual history, timings and error as JSON")
      ->check(not_empty("solve.json"));
  solve
      ->add_option("--timeline", o.timeline,
                   "Write every command the device ran, with its start and end, as a trace for "
                   "ui.perfetto.dev or chrome://tracing (under mpirun one file per rank: "
                   "FILE.rankR.json)")
      ->check(not_empty("timeline.json"));
  add_tuning_options(*solve, o);
  solve->add_flag("-q,--quiet", o.quiet, "Print only the summary (no line per cycle)");
  solve->add_flag("--profile", o.profile,
                  "Time every kernel: the device time of each operator (in the summary and "
                  "--json's breakdown); each launch then costs a few microseconds more");
  solve->add_flag("--out-of-place-gsrb", o.out_of_place_gsrb,
                  "Red-black half-sweeps write a whole new grid each (the default where no "
                  "wavefront applies)");
  solve->add_flag("--in-place-gsrb", o.in_place_gsrb,
                  "Red-black half-sweeps store the points of their colour into the solution's "
                  "own grid (the plain lowering alone)");
  solve->add_flag(
      "--wavefront-gsrb", o.wavefront_gsrb,
      "A red-black step's two half-sweeps as one pass over the grid, red on one "
      "plane and black on the one below (3-D Poisson, levels of 128 or more per side, "
      "one device, not a periodic boundary; out of place elsewhere; the default on a "
      "GPU). On hpgmg3d --order 4, the 4th-order step's interior in one pass (levels of "
      "128 or more per side, one device; slower than the half-sweeps on the devices "
      "measured, never a default)");
  solve
      ->add_option("--wavefront-steps", o.wavefront_steps,
                   "Red-black steps a wavefront computes in one pass where a level smooths that "
                   "many (1 to 4; default 1): u read and written once for them all, but on the "
                   "GPUs measured two steps a pass ran slower than two passes")
      ->check(integer_in(1, multigrid::kMostWavefrontSteps));
  solve->add_flag("--fused-correction", o.fused_correction,
                  "The coarse-grid correction and the first half-sweep after it as one kernel "
                  "(half-sweeps out of place, linear interpolation, one device; slower than two "
                  "kernels on the devices measured)");
  solve->add_flag("--fused-smoothing", o.fused_smoothing,
                  "Run a level's pre- and post-smoothing steps as one fused kernel each "
                  "(jacobi, gsrb; levels of 16 or more per side, one device)");
  solve
      ->add_option("--coarse-launch", o.coarse_launch,
                   "The levels of at most SIDE points per side as one launch per run of their "
                   "steps (one work-group; default 8 on a GPU, 16 on a CPU; one device)")
      ->check(integer_in(1, 1024));
  solve->add_flag("--separate-launches", o.separate_launches,
                  "Every operator of every level its own launch (no one-launch coarse levels)");
  add_distributed_options(*solve, o);
  return solve;
}

int solve_command(const SolveCommandOptions& given) {
  InterruptGuard guard; // first of all, as explore's: no moment of the run may lose a Ctrl-C
  const SolveCommandOptions o = with_defaults(given);
  if (o.problem == "hpgmg3d")
    return hpgmg_solve_command(o, solver_options(o, guard), guard);
  const auto [dims, helmholtz] = parse_problem(o.problem);
  const int64_t n = parse_side(o.size, dims, o.problem);
  Centring centring = pick<Centring>("centring", o.centring,
                                     {{"cell", Centring::Cell}, {"vertex", Centring::Vertex}});
  SolverOptions s = solver_options(o, guard);

  if (helmholtz && centring != Centring::Cell)
    user_error("the Helmholtz problems are cell-centred: leave out --centring vertex");
  // The files before the work, not after it (docs/cli.md, "Outputs").
  FilePlan files;
  plan_tuning_database(files, o.tuning_db);
  files.output(o.json, "--json", "the report")
      .output(o.timeline, "--timeline", "the timeline")
      .check();
  if (launched_by_mpirun())
    return distributed_solve_command(
        o, variable_coefficient_problem(o, dims, n, helmholtz, centring, s.smoother), s);
  auto session = runtime::Session::from_env(o.device);
  // The memory before the problem's arrays are made (a grid too large fails in a second).
  const bool variable = helmholtz || o.anisotropy != 0 || line_smoother_axis(s.smoother, dims);
  check_memory(o, solver_footprint(dims, n, centring, variable, s), session.device());
  Problem problem = variable_coefficient_problem(o, dims, n, helmholtz, centring, s.smoother);
  if (!o.quiet)
    std::cout << "problem " << o.problem << " " << n << "^" << dims << " (" << o.centring
              << "-centred), " << o.cycle << "(" << o.pre << "," << o.post << ") " << o.smoother
              << (o.anisotropy != 0 ? cat(", anisotropy ", o.anisotropy) : std::string())
              << (o.fused_smoothing ? ", fused smoothing" : "") << ", " << o.precision << ", on "
              << session.device().name << "\n";
  guard.reclaim();
  Solver solver(session, problem, s);
  guard.reclaim();
  SolveResult r = solve_recording(solver, o.timeline, 0, 1);
  if (!o.quiet) {
    std::cout << "levels:";
    for (const auto& l : r.levels)
      std::cout << " " << l << ";";
    std::cout << "\n";
  }
  print_result(r, std::cout, !o.quiet);
  if (!o.json.empty())
    write_file_atomically(o.json, to_json(r, o, session).dump(2) + "\n");
  return solve_status(r, o, s, problem);
}

std::string timeline_path(const std::string& path, int rank, int ranks) {
  if (ranks <= 1)
    return path;
  const std::filesystem::path p(path);
  return (p.parent_path() / cat(p.stem().string(), ".rank", rank, p.extension().string())).string();
}

SolveResult solve_recording(Solver& solver, const std::string& timeline, int rank, int ranks) {
  if (timeline.empty())
    return solver.solve();
  runtime::Timeline recorded;
  SolveResult r = solver.solve();
  write_file_atomically(timeline_path(timeline, rank, ranks), recorded.trace(rank).dump() + "\n");
  return r;
}

int solve_status(const SolveResult& r, const SolveCommandOptions& o, const SolverOptions& s,
                 const Problem& problem) {
  if (r.converged)
    return 0;
  if (r.stop_reason == "interrupted")
    return interrupted_after(cat(r.cycles.size(), " of at most ", o.max_cycles, " cycles"), o.json);
  // Below the round-off floor (multigrid/Limits.h; the residuals measured stall at about 0.13 of
  // it, poisson2d 64^2 to 1024^2 in f64 and 32^2 in f32): no number of cycles reaches it.
  if (r.stop_reason != "diverged")
    if (const double floor = residual_floor(problem, r.solution, s.precision);
        o.tolerance < floor && lowest_relative(r) < floor) {
      std::cerr << "error: the tolerance " << o.tolerance << " is below what " << o.precision
                << " can resolve on this grid: the residual stopped at "
                << brief(lowest_relative(r)) << " of ||f||, at its round-off floor (eps |A| ||u|| "
                << "/ ||f||, at most " << brief(floor) << "); ask for --tol "
                << brief(lowest_relative(r), true) << " or more"
                << (s.precision == Precision::F64 ? "" : ", or use --precision f64") << "\n";
      return 2;
    }
  if (r.stop_reason == "diverged")
    std::cerr << "error: the solver diverged (residual " << r.cycles.back().relative
              << " of the initial one after " << r.cycles.size() << " cycles)\n";
  else if (r.stop_reason == "stagnated")
    std::cerr << "error: the residual stagnated at " << r.cycles.back().relative
              << " of the initial one, above the tolerance " << o.tolerance
              << (s.precision == Precision::F32 ? ": f32 cannot reach it, use --precision f64 "
                                                  "or mixed"
                                                : "")
              << "\n";
  else
    std::cerr << "error: the tolerance " << o.tolerance << " was not reached in " << r.cycles.size()
              << " cycles (raise --max-cycles)\n";
  if (!r.hint.empty())
    std::cerr << "hint: " << r.hint << "\n";
  return 1;
}

#ifndef TESSERA_WITH_MPI
bool launched_by_mpirun() {
  return false;
}
int distributed_solve_command(const SolveCommandOptions&, const Problem&, const SolverOptions&) {
  user_error("this tessera was built without MPI: the distributed solver is not available");
}
#endif

} // namespace tessera::tools
