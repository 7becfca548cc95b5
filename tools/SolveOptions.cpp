// The solver's options from the command's: the problem's defaults, the choices by name, and the
// refusal of options that conflict or do not apply.
#include <iostream>
#include <map>
#include <set>

#include "core/Error.h"
#include "multigrid/Solver.h"
#include "tools/Interrupt.h"
#include "tools/SolveCommand.h"
#include "tools/Validators.h"

namespace tessera::tools {

using namespace multigrid;

namespace {

// --variant OPERATOR=K, each operator one the solver builds (multigrid/Tuning.h).
// "restrict,prolong": each name checked (check_operator_name).
std::set<std::string> parse_operator_list(const std::string& list) {
  std::set<std::string> names;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string name = list.substr(at, comma - at);
    check_operator_name(name);
    names.insert(name);
    at = comma + 1;
  }
  return names;
}

std::map<std::string, int> parse_named_variants(const std::vector<std::string>& variants) {
  std::map<std::string, int> named;
  for (const auto& v : variants) {
    auto eq = v.find('=');
    std::size_t used = 0;
    int index = -1;
    try {
      if (eq != std::string::npos)
        index = std::stoi(v.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (eq == std::string::npos || eq == 0 || used == 0 || eq + 1 + used != v.size() || index < 0)
      user_error(
          cat("bad --variant '", v, "': expected OPERATOR=K with K from 0, e.g. residual=3"));
    check_operator_name(v.substr(0, eq));
    named[v.substr(0, eq)] = index;
  }
  return named;
}

} // namespace

SolveCommandOptions with_defaults(SolveCommandOptions o) {
  const bool hpgmg = o.problem == "hpgmg3d";
  if (o.cycle.empty())
    o.cycle = hpgmg ? "F" : "V";
  if (o.pre < 0)
    o.pre = hpgmg ? 3 : 2;
  if (o.post < 0)
    o.post = hpgmg ? 3 : 2;
  if (o.order == 0 && hpgmg)
    o.order = 2;
  if (o.order != 0 && !hpgmg)
    user_error(
        cat("--order applies to hpgmg3d (HPGMG-FV's operators of order 2 or 4), not ", o.problem));
  return o;
}

namespace {

// --out-of-place-gsrb, --in-place-gsrb, --wavefront-gsrb: at most one, for gsrb.
HalfSweepStorage half_sweep_storage(const SolveCommandOptions& o) {
  std::vector<std::pair<const char*, HalfSweepStorage>> given;
  if (o.out_of_place_gsrb)
    given.emplace_back("--out-of-place-gsrb", HalfSweepStorage::OutOfPlace);
  if (o.in_place_gsrb)
    given.emplace_back("--in-place-gsrb", HalfSweepStorage::InPlace);
  if (o.wavefront_gsrb)
    given.emplace_back("--wavefront-gsrb", HalfSweepStorage::Wavefront);
  if (given.empty())
    return HalfSweepStorage::Auto;
  if (given.size() > 1)
    user_error(cat(given[0].first, " and ", given[1].first,
                   " conflict: give one of them (none: out of place, on a GPU's large 3-D "
                   "Poisson levels the wavefront)"));
  if (o.smoother != "gsrb")
    user_error(cat(given[0].first,
                   " applies to --smoother gsrb (the point red-black half-sweeps), not ",
                   o.smoother));
  return given[0].second;
}

// --wavefront-steps K (K > 1) needs half-sweeps that may run as a wavefront.
void check_wavefront_steps(const SolveCommandOptions& o, HalfSweepStorage storage) {
  if (o.wavefront_steps == 1)
    return;
  if (o.smoother != "gsrb")
    user_error(cat("--wavefront-steps ", o.wavefront_steps,
                   " applies to --smoother gsrb (red-black steps as one wavefront), not ",
                   o.smoother));
  if (storage == HalfSweepStorage::InPlace || storage == HalfSweepStorage::OutOfPlace)
    user_error(cat("--wavefront-steps ", o.wavefront_steps, " and ",
                   storage == HalfSweepStorage::InPlace ? "--in-place-gsrb" : "--out-of-place-gsrb",
                   " conflict: the steps a pass are the wavefront's (--wavefront-gsrb, or a GPU's "
                   "default)"));
}

// --fused-correction fuses a linear correction with a red-black half-sweep written out of place.
void check_fused_correction(const SolveCommandOptions& o) {
  if (!o.fused_correction)
    return;
  auto refuse = [](const std::string& what) {
    user_error(cat("--fused-correction fuses the linear correction with a red-black half-sweep "
                   "written out of place; ",
                   what));
  };
  if (o.smoother != "gsrb")
    refuse(cat("--smoother ", o.smoother, " has no half-sweep"));
  if (o.in_place_gsrb)
    refuse("--in-place-gsrb writes in place (give --out-of-place-gsrb, or nothing on a GPU)");
  if (o.fused_smoothing)
    refuse("--fused-smoothing runs the post-smoothing as one kernel of its own");
  if (o.interpolation != "linear")
    refuse(cat("--interpolation ", o.interpolation, " is not the linear one"));
}

} // namespace

SolverOptions solver_options(const SolveCommandOptions& o, InterruptGuard& guard) {
  SolverOptions s;
  s.cycle = pick<CycleKind>("cycle", o.cycle,
                            {{"V", CycleKind::V}, {"W", CycleKind::W}, {"F", CycleKind::F}});
  s.smoother = pick<SmootherKind>("smoother", o.smoother,
                                  {{"gsrb", SmootherKind::GaussSeidel},
                                   {"jacobi", SmootherKind::Jacobi},
                                   {"line-x", SmootherKind::LineX},
                                   {"line-y", SmootherKind::LineY},
                                   {"line-z", SmootherKind::LineZ}});
  s.precision = pick<Precision>(
      "precision", o.precision,
      {{"f64", Precision::F64}, {"f32", Precision::F32}, {"mixed", Precision::Mixed}});
  s.interpolation = pick<Interpolation>(
      "interpolation", o.interpolation,
      {{"linear", Interpolation::Linear}, {"constant", Interpolation::Constant}});
  s.tuning.mode = pick<TuneMode>("tuning mode", o.tune,
                                 {{"off", TuneMode::Default}, {"explore", TuneMode::Explore}});
  s.pre = o.pre;
  s.fused_smoothing = o.fused_smoothing;
  check_fused_correction(o);
  s.fused_correction = o.fused_correction;
  s.profile_kernels = o.profile;
  s.gauss_seidel_storage = half_sweep_storage(o);
  check_wavefront_steps(o, s.gauss_seidel_storage);
  if (o.separate_launches && o.coarse_launch > 0)
    user_error(cat("--separate-launches and --coarse-launch ", o.coarse_launch,
                   " conflict: the first runs every level's operators as separate launches, the "
                   "second the levels of at most ",
                   o.coarse_launch, " per side in one; give one of them"));
  s.coarse_launch_side = o.separate_launches ? 0 : o.coarse_launch;
  s.post = o.post;
  s.omega = o.omega;
  s.tolerance = o.tolerance;
  s.max_cycles = o.max_cycles;
  s.coarse_sweeps = o.coarse_sweeps;
  s.coarsest = o.coarsest;
  s.wavefront_steps = o.wavefront_steps;
  s.tuning.budget_s = o.tune_budget_s;
  // "off" names no file (as for explore): the solve then reads and records no tuning, which
  // --tune explore needs.
  if (o.tuning_db == "off" && s.tuning.mode == TuneMode::Explore)
    user_error(
        "--tune explore records what it explores in a tuning database: leave out "
        "--tuning-db off (the default is tuning.json in the cache directory) or name a file");
  s.tuning.database = o.tuning_db == "off" ? std::string() : o.tuning_db;
  s.tuning.log = [](const std::string& line) { std::cerr << line << "\n"; };
  s.tuning.named = parse_named_variants(o.variants);
  if (!o.tune_operators.empty() && s.tuning.mode != TuneMode::Explore)
    user_error("--tune-operators names the operators --tune explore explores: give --tune explore");
  s.tuning.explore_only = parse_operator_list(o.tune_operators);
  // Ctrl-C: the cycle in hand (or the tuning exploration) finishes, then the solve ends.
  s.tuning.stop = &guard.flag();
  s.stop = [&guard] {
    guard.reclaim(); // PoCL's compiler installs its own handler when it first runs
    return guard.interrupted();
  };
  if (o.omega != 0 && !(o.omega > 0 && o.omega < 2))
    user_error(cat("--omega must be between 0 and 2, got ", o.omega));
  return s;
}

} // namespace tessera::tools
