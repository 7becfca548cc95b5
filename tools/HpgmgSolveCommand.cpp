// `tessera solve hpgmg3d`: HPGMG-FV's benchmark problem (multigrid/Hpgmg.h) solved on its grid,
// then, as HPGMG-FV's Richardson analysis does, on the grids 2h and 4h with f and the
// coefficients restricted, and the error estimated from the three solutions.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/FilePlan.h"
#include "multigrid/Hpgmg.h"
#include "multigrid/Limits.h"
#include "runtime/Session.h"
#include "tools/Commands.h"
#include "tools/Interrupt.h"
#include "tools/SolveCommand.h"
#include "tools/Validators.h"

namespace tessera::tools {

using namespace multigrid;

namespace {

void refuse_conflicts(const SolveCommandOptions& o, const SolverOptions& s) {
  if (o.centring != "cell")
    user_error("hpgmg3d is HPGMG-FV's cell-centred problem: leave out --centring");
  if (o.anisotropy != 0)
    user_error("--anisotropy applies to poisson2d and poisson3d, not hpgmg3d");
  if (s.smoother != SmootherKind::GaussSeidel && s.smoother != SmootherKind::Jacobi)
    user_error("hpgmg3d runs the point smoothers gsrb (HPGMG-FV's) and jacobi: line relaxation "
               "does not take its quadratic boundary (nor the 4th-order operator)");
  if (launched_by_mpirun())
    user_error("hpgmg3d runs on one device: its quadratic and quartic boundaries are not written "
               "for a rank's block (run it without mpirun)");
}

int64_t parse_hpgmg_side(const std::string& text) {
  const auto sides = parse_numeric_size(text, 1, "hpgmg3d");
  const int64_t n = sides[0];
  if (n < 16 || (n & (n - 1)) != 0)
    user_error(cat("hpgmg3d needs a power of two of at least 16 cells per side (the Richardson "
                   "analysis solves it on n/2 and n/4, each with a coarser level), got ",
                   text));
  parse_numeric_size(cat(n, "x", n, "x", n), 3, "hpgmg3d"); // the point count every command checks
  return n;
}

nlohmann::json norms_json(const ErrorNorms& e) {
  return {{"max", e.max}, {"l2", e.l2}};
}

} // namespace

int hpgmg_solve_command(const SolveCommandOptions& o, const SolverOptions& s,
                        InterruptGuard& guard) {
  const int64_t n = parse_hpgmg_side(o.size);
  refuse_conflicts(o, s);
  hpgmg_fv_problem(16, o.order); // refuses an order before any work
  FilePlan files;
  plan_tuning_database(files, o.tuning_db);
  files.output(o.json, "--json", "the report")
      .output(o.timeline, "--timeline", "the timeline")
      .check();
  auto session = runtime::Session::from_env(o.device);
  check_memory(o, solver_footprint(3, n, Centring::Cell, true, s), session.device());
  const Problem problem = hpgmg_fv_problem(n, o.order);
  if (!o.quiet)
    std::cout << "problem hpgmg3d " << n << "^3 (HPGMG-FV, order " << o.order
              << ": -div(beta grad u) = f, " << (o.order == 4 ? "quartic" : "quadratic")
              << " Dirichlet boundary), " << o.cycle << "(" << o.pre << "," << o.post << ") "
              << o.smoother << ", " << o.precision << ", on " << session.device().name << "\n";
  // The solves of h, 2h and 4h; the first is the one reported in full.
  std::vector<SolveResult> results;
  std::vector<Problem> problems{problem};
  for (int grid = 0; grid < 3; ++grid) {
    if (grid > 0)
      problems.push_back(coarsened(problems.back()));
    guard.reclaim();
    Solver solver(session, problems.back(), s);
    guard.reclaim();
    // (the timeline of the first solve, the one reported in full)
    results.push_back(solve_recording(solver, grid == 0 ? o.timeline : "", 0, 1));
    const SolveResult& r = results.back();
    if (grid == 0) {
      print_result(r, std::cout, !o.quiet);
      if (!o.quiet)
        std::cout << "Richardson analysis (HPGMG-FV): the problem again on " << n / 2 << "^3 and "
                  << n / 4 << "^3, f and beta restricted\n";
    } else if (!o.quiet) {
      std::cout << "  " << problems.back().n << "^3: ||r||/||f|| " << std::scientific
                << std::setprecision(3) << (r.cycles.empty() ? 1.0 : r.cycles.back().relative)
                << " after " << r.cycles.size() << " cycles (" << r.stop_reason << ")\n"
                << std::defaultfloat;
    }
    if (r.stop_reason == "interrupted")
      break;
  }
  const bool complete = results.size() == 3 && results[2].stop_reason != "interrupted";
  nlohmann::json richardson;
  if (complete) {
    const ErrorNorms fine = richardson_difference(results[0].solution, results[1].solution, 3, n);
    const ErrorNorms coarse =
        richardson_difference(results[1].solution, results[2].solution, 3, n / 2);
    const double order_max = std::log2(coarse.max / fine.max);
    const double order_l2 = std::log2(coarse.l2 / fine.l2);
    std::cout << std::scientific << std::setprecision(4) << "error estimate at h=1/" << n
              << " (||u^2h - R u^h||): max " << fine.max << "  L2 " << fine.l2 << "\n"
              << "error estimate at h=1/" << n / 2 << " (||u^4h - R u^2h||): max " << coarse.max
              << "  L2 " << coarse.l2 << "\n"
              << std::fixed << std::setprecision(3) << "order " << order_max << " (max), "
              << order_l2 << " (L2)\n"
              << std::defaultfloat;
    richardson = {{"error", norms_json(fine)},
                  {"coarse_error", norms_json(coarse)},
                  {"order_max", order_max},
                  {"order_l2", order_l2}};
  }
  if (!o.json.empty()) {
    nlohmann::json j = to_json(results[0], o, session);
    j["order"] = o.order;
    if (complete)
      j["richardson"] = richardson;
    write_file_atomically(o.json, j.dump(2) + "\n");
  }
  // The status of the solve that went wrong first (each must reach the tolerance).
  for (std::size_t i = 0; i < results.size(); ++i)
    if (!results[i].converged)
      return solve_status(results[i], o, s, problems[i]);
  return 0;
}

} // namespace tessera::tools
