#include "multigrid/Solver.h"

#include <chrono>
#include <cmath>

#include "core/Bytes.h"
#include "core/Error.h"
#include "multigrid/Blas.h"
#include "multigrid/CoarseCycle.h"
#include "multigrid/Hierarchy.h"
#include "multigrid/Wavefront.h"
#include "runtime/Session.h"
#include "runtime/Timeline.h"

namespace tessera::multigrid {

namespace {

void check_problem(const Problem& p, const SolverOptions& o) {
  if (p.dims < 1 || p.dims > 3)
    user_error(cat("multigrid grids have 1, 2 or 3 dimensions, got ", p.dims));
  Level finest{p.dims, p.n, ScalarKind::F64, p.centring};
  if (p.n < 2)
    user_error(cat("the grid needs at least 2 points per side, got ", p.n));
  if (!finest.can_coarsen() || finest.n <= o.coarsest)
    user_error(
        cat("the grid ", finest.describe(),
            " does not coarsen: multigrid needs at least two levels (a point count per side ",
            p.centring == Centring::Cell ? "divisible by 2, such as 2^k"
                                         : "of the form 2m+1, such as 2^k - 1",
            ", larger than the coarsest size ", o.coarsest, ")"));
  if (p.boundary.kind == Boundary::Fixed)
    user_error("the fixed boundary (cells near the edge keep their value) belongs to a stencil's "
               "time steps, not to a boundary value problem: a multigrid problem takes "
               "multigrid::dirichlet(problem.centring, kind) (zero values), a constant, clamp or "
               "mirror (Neumann) or wrap (periodic) boundary");
  if (static_cast<int64_t>(p.rhs.size()) != finest.points())
    user_error(
        cat("the right-hand side has ", p.rhs.size(), " values; the grid has ", finest.points()));
  for (std::size_t i = 0; i < p.rhs.size(); ++i)
    if (!std::isfinite(p.rhs[i]))
      user_error(cat("the right-hand side has ", p.rhs[i], " at index ", i, " (of ", p.rhs.size(),
                     " values): every value must be a finite number"));
  if (p.exact && p.exact->size() != p.rhs.size())
    user_error("the exact solution and the right-hand side differ in size");
  if (p.helmholtz) {
    const auto& c = *p.helmholtz;
    if (c.alpha.size() != p.rhs.size() || static_cast<int>(c.beta.size()) != p.dims)
      user_error(cat("the Helmholtz coefficients need alpha and ", p.dims,
                     " beta arrays of the grid's size"));
    for (const auto& beta : c.beta) {
      if (beta.size() != p.rhs.size())
        user_error("a beta array differs in size from the grid");
      for (double b : beta)
        if (!(b > 0))
          user_error(cat("the face coefficients beta must be positive, got ", b));
    }
    for (double a : c.alpha)
      if (!(c.constants.a * a >= 0))
        user_error(cat("a * alpha must be non-negative, got a = ", c.constants.a, ", alpha ", a));
    if (!(c.constants.b > 0))
      user_error(cat("the Helmholtz constant b must be positive, got ", c.constants.b));
  }
  if (o.pre < 0 || o.post < 0 || o.pre + o.post == 0)
    user_error(cat("smoothing steps must be non-negative and not both zero, got pre ", o.pre,
                   " and post ", o.post));
  if (o.max_cycles < 1)
    user_error(cat("the cycle limit must be at least 1, got ", o.max_cycles));
  if (!(o.tolerance > 0))
    user_error(cat("the tolerance must be positive, got ", o.tolerance));
  if (o.coarse_sweeps < 1)
    user_error("the coarsest level needs at least one smoothing step");
  if (o.wavefront_steps < 1 || o.wavefront_steps > kMostWavefrontSteps)
    user_error(cat("a wavefront computes 1 to ", kMostWavefrontSteps,
                   " red-black steps a pass, got ", o.wavefront_steps));
  for (const auto& named : o.tuning.named)
    check_operator_name(named.first);
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

namespace {

// The hierarchy's buffers against what the device may hold: most drivers allocate a buffer at
// its first use, so a grid too large would otherwise fail at its first launch with an
// allocation error that says nothing of the grid.
void check_fits(const DeviceMemory& memory, const runtime::Device& device, bool distributed) {
  const auto limits = runtime::usable_memory(device);
  const uint64_t total = memory.total_bytes(), largest = memory.largest_bytes();
  if (total <= limits.total && largest <= limits.largest_buffer)
    return;
  user_error(cat("the solver's buffers (every level's", distributed ? ", this rank's blocks" : "",
                 ") need ", format_bytes(total), ", the largest ", format_bytes(largest), ", on ",
                 device.name, ", which has ", format_bytes(limits.total), " (largest buffer ",
                 format_bytes(limits.largest_buffer), "): ",
                 distributed ? "use more ranks (more devices)"
                             : "split the grid over several devices (mpirun -np P tessera solve; "
                               "docs/distributed.md)",
                 ", f32 (--precision f32) or a smaller --size"));
}

} // namespace

struct Solver::Impl {
  runtime::Session& session;
  Problem problem;
  SolverOptions options;
  Layout whole_grid;
  Layout& layout;
  DeviceMemory memory;
  Tuner tuner;
  std::unique_ptr<Hierarchy> levels; // the cycles' precision
  // Mixed precision: the f64 solution, right-hand side, residual and correction.
  BufferId u64, f64, r64, e64;
  std::vector<BufferId> coefficients64;
  std::shared_ptr<CompiledKernel> residual64, to_single, to_double;
  std::unique_ptr<Blas> blas;
  std::unique_ptr<CoarseCycle> coarse; // the small levels' steps fused into single launches
  std::string coarse_why_not;          // why none are, when known before a cycle
  std::string coarse_choice;           // how the side was measured (kCoarseLaunchMeasure)
  // The first F-cycle's schedule by the parity of the finest solution at its start, and the
  // parity after it (built and fused once).
  std::map<int, std::pair<Schedule, int>> first_full;
  std::map<bool, Schedule> correction_cycles; // mixed precision: by whether it is the first
  double setup_ms = 0;                        // the constructor: building (and tuning) every kernel

  Impl(runtime::Session& s, const Problem& p, SolverOptions o, Layout* l)
      : session(s), problem(p), options(std::move(o)), layout(l ? *l : whole_grid), memory(s),
        tuner(s, options.tuning) {
    check_problem(problem, options);
    if (options.precision == Precision::F64 && !session.device().supports_double)
      user_error(cat("the device ", session.device().name,
                     " has no double precision: use --precision f32"));
    ScalarKind kind = options.precision == Precision::F64 ? ScalarKind::F64 : ScalarKind::F32;
    Level finest{problem.dims, problem.n, kind, problem.centring};
    std::optional<HelmholtzCoefficients> helmholtz;
    if (problem.helmholtz)
      helmholtz = problem.helmholtz->constants;
    levels = std::make_unique<Hierarchy>(finest, problem.boundary, helmholtz, options, memory,
                                         tuner, &layout);
    if (options.precision == Precision::Mixed) {
      if (!session.device().supports_double)
        user_error(cat("mixed precision needs double precision, which ", session.device().name,
                       " lacks: use --precision f32"));
      Level wide = finest;
      wide.kind = ScalarKind::F64;
      u64 = memory.allocate("u f64", ScalarKind::F64, wide.points());
      f64 = memory.allocate("f f64", ScalarKind::F64, wide.points());
      r64 = memory.allocate("r f64", ScalarKind::F64, wide.points());
      e64 = memory.allocate("e f64", ScalarKind::F64, wide.points());
      Boundary bc = problem.boundary;
      auto at = [](Level l, const std::vector<int64_t>& extents) {
        l.n = extents.at(0);
        return l;
      };
      std::vector<int64_t> extents(wide.dims, wide.n);
      residual64 = tuner.kernel({"residual-f64", extents, [=](const auto& e) {
                                   return helmholtz
                                              ? helmholtz_residual(at(wide, e), bc, *helmholtz)
                                              : multigrid::residual(at(wide, e), bc);
                                 }});
      for (BufferId c : levels->finest().coefficients)
        coefficients64.push_back(
            memory.allocate(memory.name(c) + " f64", ScalarKind::F64, memory.count(c)));
      to_single = tuner.kernel({"convert-to-f32", extents, [=](const auto& e) {
                                  return convert(at(wide, e), ScalarKind::F32);
                                }});
      to_double = tuner.kernel({"convert-to-f64", extents, [=](const auto& e) {
                                  return convert(at(finest, e), ScalarKind::F64);
                                }});
    }
    check_fits(memory, session.device(), layout.distributed());
    blas = std::make_unique<Blas>(memory);
    coarse = std::make_unique<CoarseCycle>(session, coarse_points(finest));
    if (layout.builds_in_set_up()) {
      levels->build_kernels();
      for (const auto& k : {residual64, to_single, to_double})
        if (k)
          k->built();
    }
  }

  // Why a solve that did not converge may have converged slowly: a coarsest level of many
  // points per side (the grid stopped coarsening early), whose few smoothing steps are far from
  // an exact coarse solve. "" when the hierarchy reached a small grid.
  std::string coarse_level_hint() const {
    const Level& coarsest = levels->levels().back().level;
    if (layout.distributed() || coarsest.n <= std::max<int64_t>(options.coarsest, 8))
      return "";
    const bool cell = coarsest.centring == Centring::Cell;
    return cat("the levels stop at ", coarsest.n, " points per side (", coarsest.n,
               cell ? " cells do not halve" : " vertices are not 2m+1", "), where ",
               options.coarse_sweeps,
               " smoothing steps solve the coarsest level only roughly; a size that halves down "
               "to a few points converges in far fewer cycles (",
               cell ? "2^k cells, e.g. 32 or 64" : "2^k - 1 vertices, e.g. 31 or 63",
               "), or raise --coarse-sweeps");
  }

  // The most points of a buffer a step of the one-launch coarse cycle touches (0: none).
  int64_t coarse_points(const Level& finest) {
    return coarse_points(finest, options.coarse_launch_side);
  }
  int64_t coarse_points(const Level& finest, int64_t side) {
    if (side == 0) {
      coarse_why_not = "turned off";
      return 0;
    }
    if (layout.distributed()) {
      coarse_why_not = "the grid is distributed: its levels exchange halos between operators "
                       "(the agglomerated levels run in one launch on every rank)";
      return 0;
    }
    return coarse_launch_points(side, session.device().type, finest.dims);
  }

  bool measures_coarse_side() const {
    return !layout.distributed() && coarse_launch_side_measured(options);
  }

  // kCoarseLaunchMeasure: from the start state, a warm repeated cycle and the best wall time of
  // three more with each candidate side; the fastest side kept (coarse_choice says what was
  // measured).
  void measure_coarse_side(Schedule& residual_f64, SolveResult& result) {
    const Level& finest = levels->finest().level;
    double best_ms = 0;
    int64_t best = 0;
    for (int64_t side : kCoarseLaunchCandidates) {
      if (side > finest.n)
        break;
      coarse = std::make_unique<CoarseCycle>(session, coarse_points(finest, side));
      std::map<int, std::pair<Schedule, int>> repeated;
      start_state();
      double ms = run_cycle(2, residual_f64, repeated, result, nullptr).wall_ms;
      for (int i = 0; i < 3; ++i)
        ms = std::min(ms, run_cycle(2, residual_f64, repeated, result, nullptr).wall_ms);
      coarse_choice += cat(coarse_choice.empty() ? "" : ", ", side, ": ", ms, " ms");
      if (side == 0 || ms < best_ms) {
        best_ms = ms;
        best = side;
      }
    }
    coarse = std::make_unique<CoarseCycle>(session, coarse_points(finest, best));
    coarse_choice =
        cat(" (side ", best, " measured fastest per cycle of sides ", coarse_choice, ")");
    result.bytes_per_cycle.clear();
    first_full.clear();
    correction_cycles.clear();
  }

  std::string describe_coarse_launch() const {
    return describe_coarse_launch_parts() + coarse_choice;
  }
  std::string describe_coarse_launch_parts() const {
    if (coarse->max_points() == 0)
      return "separate launches: " + coarse_why_not;
    if (coarse->fused_runs() == 0)
      return "separate launches: " + (coarse->why_not().empty()
                                          ? std::string("no two consecutive steps on small levels")
                                          : coarse->why_not());
    return cat("steps on buffers of at most ", coarse->max_points(), " points in ",
               coarse->fused_runs(), " launch", coarse->fused_runs() > 1 ? "es" : "", " (",
               coarse->fused_steps(), " steps) a cycle",
               coarse->why_not().empty() ? "" : "; apart: " + coarse->why_not());
  }

  // The buffers the norm and the solution are read from.
  BufferId residual_buffer() {
    return options.precision == Precision::Mixed ? r64 : levels->finest().r;
  }
  BufferId solution_buffer() {
    return options.precision == Precision::Mixed ? u64 : levels->finest().solution();
  }

  // One cycle of the hierarchy's precision, ending with the finest residual.
  Schedule single_precision_cycle(bool first) {
    Schedule s;
    if (first && options.cycle == CycleKind::F)
      levels->full_multigrid(s);
    else
      levels->cycle(s, 0, options.cycle == CycleKind::W ? CycleKind::W : CycleKind::V);
    if (norm_from_square_sums())
      levels->residual_square_sums(s);
    else
      levels->residual(s, 0);
    return s;
  }

  // The finest residual's norm from its square sums (the residual never stored) where the level
  // has them (Hierarchy::add_square_sums) and is not one of the coarse levels' one launch.
  bool norm_from_square_sums() const {
    const LevelState& top = levels->finest();
    return top.residual_square_sums && top.level.points() > coarse->max_points();
  }
  // After a cycle of single_precision_cycle.
  double finest_residual_norm() {
    if (norm_from_square_sums())
      return std::sqrt(blas->asum(levels->finest().square_sums));
    return layout.norm(memory, residual_buffer(), 0, *blas);
  }

  // Mixed: r (f64) -> f32 right-hand side, a zero f32 start, one cycle, the f32 correction as
  // f64 in e64. The update u += e (CLBlast) and the f64 residual follow.
  Schedule correction_cycle(bool first) {
    Schedule s;
    LevelState& top = levels->finest();
    top.current = 0;
    s.launch("convert", to_single, {r64}, top.f);
    s.fill_zero("zero", top.solution());
    if (first && options.cycle == CycleKind::F)
      levels->full_multigrid(s);
    else
      levels->cycle(s, 0, options.cycle == CycleKind::W ? CycleKind::W : CycleKind::V);
    s.launch("convert", to_double, {top.solution()}, e64);
    return s;
  }

  // The state before cycle 1: the right-hand side and a zero solution (and, mixed, the f64
  // residual r = f).
  void start_state() {
    if (options.precision == Precision::Mixed) {
      write_values(memory, f64, problem.rhs);
      write_values(memory, r64, problem.rhs); // u = 0
      Schedule zero;
      zero.fill_zero("zero", u64);
      zero.run(memory);
    } else {
      layout.write(memory, levels->finest().f, 0, problem.rhs);
      levels->finest().current = 0;
      Schedule zero;
      zero.fill_zero("zero", levels->finest().solution());
      zero.run(memory);
    }
    upload_coefficients();
  }

  Schedule::Profiling profiling() const {
    return options.profile_kernels || runtime::Timeline::recording()
               ? Schedule::Profiling::EveryStep
               : Schedule::Profiling::Span;
  }

  // A mixed-precision cycle's bytes: its f32 correction cycle's, the update u += e (reads e
  // and u, writes u, f64) and the f64 residual's.
  std::map<std::string, double> mixed_cycle_bytes(const Schedule& correction,
                                                  const Schedule& residual) const {
    auto bytes = correction.bytes_by_label(memory);
    for (const auto& [label, b] : residual.bytes_by_label(memory))
      bytes[label] += b;
    bytes["update"] += 3.0 * static_cast<double>(memory.buffer(u64).bytes());
    return bytes;
  }

  // Cycle c (its kernels, the norm), timed; `repeated` keeps the schedules by the parity of the
  // finest solution buffer at their start.
  CycleRecord run_cycle(int c, Schedule& residual_f64,
                        std::map<int, std::pair<Schedule, int>>& repeated, SolveResult& result,
                        Breakdown* breakdown) {
    auto start = std::chrono::steady_clock::now();
    CycleRecord rec;
    rec.cycle = c;
    const bool first = c == 1;
    rec.kind = first && options.cycle == CycleKind::F ? "F"
               : options.cycle == CycleKind::W        ? "W"
                                                      : "V";
    if (options.precision == Precision::Mixed) {
      // Built and fused once for the first cycle and once for the others (each starts from
      // the same buffers: correction_cycle resets the f32 solution's parity).
      auto found = correction_cycles.find(first);
      if (found == correction_cycles.end())
        found =
            correction_cycles.emplace(first, coarse->fuse(correction_cycle(first), memory)).first;
      // The correction, the update and the f64 residual enqueued back to back: the norm's
      // read waits for all of them.
      if (!(first && options.cycle == CycleKind::F) && result.bytes_per_cycle.empty())
        result.bytes_per_cycle = mixed_cycle_bytes(found->second, residual_f64);
      auto correction = found->second.enqueue(memory, profiling());
      blas->axpy(1.0, e64, u64);
      auto residual = residual_f64.enqueue(memory, profiling());
      rec.residual = layout.norm(memory, residual_buffer(), 0, *blas);
      rec.device_ms =
          found->second.collect(correction, breakdown) + residual_f64.collect(residual, breakdown);
    } else {
      const bool full = first && options.cycle == CycleKind::F;
      auto& schedules = full ? first_full : repeated;
      int parity = levels->finest().current;
      auto found = schedules.find(parity);
      if (found == schedules.end()) {
        Schedule s = coarse->fuse(single_precision_cycle(full), memory);
        found =
            schedules.emplace(parity, std::make_pair(std::move(s), levels->finest().current)).first;
      }
      const Schedule& schedule = found->second.first;
      if (!full && result.bytes_per_cycle.empty())
        result.bytes_per_cycle = schedule.bytes_by_label(memory);
      // One wait a cycle: the norm's read, enqueued after the cycle, waits for it too.
      auto events = schedule.enqueue(memory, profiling());
      levels->finest().current = found->second.second;
      runtime::Timeline::mark(memory.session().queue(), "norm read");
      rec.residual = finest_residual_norm();
      rec.device_ms = schedule.collect(events, breakdown);
    }
    rec.wall_ms = ms_since(start);
    return rec;
  }

  SolveResult solve() {
    SolveResult result;
    for (auto& l : levels->levels())
      result.levels.push_back(l.level.describe());
    Schedule residual_f64;
    if (options.precision == Precision::Mixed) {
      std::vector<BufferId> inputs{u64, f64};
      inputs.insert(inputs.end(), coefficients64.begin(), coefficients64.end());
      residual_f64.launch("residual", residual64, inputs, r64);
    }
    std::map<int, std::pair<Schedule, int>> repeated;
    // Every kernel's first launch before cycle 1 (the first cycle, and a repeated one after an
    // F-cycle), then the start again: cycle 1 is timed as the others are.
    auto warm = std::chrono::steady_clock::now();
    runtime::Timeline::mark(session.queue(), "warm-up: kernels built and launched once");
    if (measures_coarse_side())
      measure_coarse_side(residual_f64, result);
    start_state();
    int warm_cycles = options.cycle == CycleKind::F ? 2 : 1;
    for (int c = 1; c <= warm_cycles; ++c)
      run_cycle(c, residual_f64, repeated, result, nullptr);
    // A cycle that leaves the finest solution in its other buffer starts the next from a
    // schedule of its own, whose first launches (the driver's checks: 3 ms at 512^3 on an
    // H200) would land in cycle 2: launched here too.
    while (options.precision != Precision::Mixed && warm_cycles < 4 &&
           repeated.count(levels->finest().current) == 0)
      run_cycle(++warm_cycles, residual_f64, repeated, result, nullptr);
    result.build_ms = setup_ms + ms_since(warm);
    start_state();
    layout.start_counting();
    result.initial_residual = std::sqrt(dot_host(problem.rhs));
    if (!(result.initial_residual > 0))
      user_error("the right-hand side is zero: the solution is zero");

    double previous = result.initial_residual;
    int stagnant = 0;
    result.stop_reason = "cycle limit";
    for (int c = 1; c <= options.max_cycles; ++c) {
      runtime::Timeline::mark(session.queue(), cat("cycle ", c));
      CycleRecord rec = run_cycle(c, residual_f64, repeated, result, &result.breakdown);
      rec.relative = rec.residual / result.initial_residual;
      rec.factor = rec.residual / previous;
      result.cycles.push_back(rec);
      if (!std::isfinite(rec.residual) || rec.relative > 1e6) {
        result.stop_reason = "diverged";
        break;
      }
      if (rec.relative <= options.tolerance) {
        result.converged = true;
        result.stop_reason = "converged";
        break;
      }
      stagnant = rec.factor > 0.95 ? stagnant + 1 : 0;
      if (stagnant >= 3) {
        result.stop_reason = "stagnated";
        break;
      }
      if (options.stop && c < options.max_cycles && options.stop()) {
        result.stop_reason = "interrupted";
        break;
      }
      previous = rec.residual;
    }
    if (!result.converged)
      result.hint = coarse_level_hint();
    if (!result.converged && problem.boundary.kind == Boundary::Clamp && !problem.helmholtz)
      result.hint = cat(
          "the boundary is clamp (Problem::boundary's default: a zero normal derivative, "
          "Neumann), where -lap(u) = f has a solution only when f sums to zero; for homogeneous "
          "Dirichlet set problem.boundary = multigrid::dirichlet(problem.centring, ",
          options.precision == Precision::F32 ? "ScalarKind::F32" : "ScalarKind::F64", ")");
    result.solution = layout.read(memory, solution_buffer(), 0);
    if (problem.exact && !result.solution.empty()) {
      double e = 0;
      for (std::size_t i = 0; i < result.solution.size(); ++i)
        e = std::max(e, std::abs(result.solution[i] - (*problem.exact)[i]));
      result.max_error = e;
    }
    result.memory_bytes = memory.total_bytes();
    result.coarse_launch = describe_coarse_launch();
    for (std::size_t l = 0; l < levels->levels().size(); ++l) {
      const LevelState& s = levels->levels()[l];
      if (!s.smooth[0])
        continue; // agglomerated: solved elsewhere
      std::string smooth = s.smooth[0]->variant;
      if (!s.smooth_wavefront.empty()) // the most steps a pass first
        smooth = s.smooth_wavefront.rbegin()->second->variant +
                 (s.smooth_wavefront.size() > 1
                      ? cat(" (and ", s.smooth_wavefront.begin()->second->variant, ")")
                      : "");
      if (s.fv4_step)
        smooth = cat(s.fv4_step->variant, " (around it ", smooth, ")");
      result.kernels.push_back(
          cat("L", l, " smooth: ", smooth, ", residual: ", s.residual->variant));
    }
    return result;
  }

  // The finest level's coefficients (and their f64 copies), then every coarser level's.
  void upload_coefficients() {
    if (!problem.helmholtz)
      return;
    std::vector<const std::vector<double>*> host{&problem.helmholtz->alpha};
    for (const auto& b : problem.helmholtz->beta)
      host.push_back(&b);
    const auto& finest = levels->finest().coefficients;
    for (std::size_t c = 0; c < host.size(); ++c) {
      write_values(memory, finest[c], *host[c]);
      if (!coefficients64.empty())
        write_values(memory, coefficients64[c], *host[c]);
    }
    Schedule coarsen;
    levels->restrict_coefficients(coarsen);
    coarsen.run(memory);
  }

  static double dot_host(const std::vector<double>& v) {
    double s = 0;
    for (double x : v)
      s += x * x;
    return s;
  }
};

Solver::Solver(runtime::Session& session, const Problem& problem, SolverOptions options) {
  auto start = std::chrono::steady_clock::now();
  impl_ = std::make_unique<Impl>(session, problem, std::move(options), nullptr);
  impl_->setup_ms = ms_since(start);
}
Solver::Solver(runtime::Session& session, const Problem& problem, SolverOptions options,
               Layout& layout) {
  auto start = std::chrono::steady_clock::now();
  impl_ = std::make_unique<Impl>(session, problem, std::move(options), &layout);
  impl_->setup_ms = ms_since(start);
}
Solver::~Solver() = default;

SolveResult Solver::solve() {
  return impl_->solve();
}

} // namespace tessera::multigrid
