#include "multigrid/Hierarchy.h"

#include "compile/DeviceValues.h"
#include "compile/KernelRunner.h"
#include "core/Error.h"
#include "multigrid/Fv4Step.h"
#include "multigrid/HelmholtzFv4.h"
#include "multigrid/LineRelaxation.h"
#include "multigrid/OperatorForms.h"
#include "multigrid/PointFunctions.h"
#include "multigrid/Solver.h"
#include "multigrid/Wavefront.h"
#include "runtime/Launch.h"
#include "runtime/Session.h"

namespace tessera::multigrid {

namespace {

using detail::fv4_on;
using detail::level_at;
using detail::spec;
using detail::with_fv4_forms;

// Fused smoothing (FusedSmoothing.cpp) on levels of at least this many points per side:
// below, a level's steps cost their launches, which fusing cannot save much of.
constexpr int64_t kFusedSmoothingSide = 16;

// One kernel of `steps` smoothing steps where it applies: weighted Jacobi or red-black
// Gauss-Seidel of the Poisson operator on a whole grid (a distributed one exchanges halos
// between steps) at least kFusedSmoothingSide per side, where the stream-temporal rule has a
// form; nothing elsewhere. The forms are tried in the order of preference until one launches
// with its own work-group on this device (a GPU's compiler may cap a kernel's work-group below
// the one the register window asks for); none launching means separate steps.
std::shared_ptr<CompiledKernel> fused_smoother(const Level& level, Boundary bc,
                                               const SolverOptions& o, double omega, int steps,
                                               Tuner& tuner) {
  const bool gsrb = o.smoother == SmootherKind::GaussSeidel;
  if (!gsrb && o.smoother != SmootherKind::Jacobi)
    return nullptr;
  if (steps < 1 || level.n < kFusedSmoothingSide || !level.box.empty())
    return nullptr;
  auto forms = [=](const Level& at) {
    return fused_smoothing_forms(gsrb ? gsrb_steps(at, bc, steps)
                                      : jacobi_steps(at, bc, omega, steps),
                                 gsrb ? 2 * steps : steps);
  };
  const std::size_t count = forms(level).size();
  for (std::size_t i = 0; i < count; ++i) {
    std::string name = cat(gsrb ? "gsrb" : "jacobi", "-fused-", steps);
    if (i > 0)
      name += cat("-form-", i);
    auto kernel = tuner.kernel(spec(name, level, [=](const Level& at) {
      auto all = forms(at);
      if (i >= all.size())
        user_error(cat("no fused form ", i, " of ", steps, " smoothing steps on ", at.describe()));
      return all[i];
    }));
    try {
      runtime::check_launch(tuner.session().device(), kernel->built(), kernel->global,
                            kernel->local);
      return kernel;
    } catch (const Error&) {
      // This form's work-group does not fit this kernel on this device: the next form.
    }
  }
  return nullptr;
}

// The tuner's kernel for a spec, as the hierarchy asks for it.
using KernelOf = std::function<std::shared_ptr<CompiledKernel>(OperatorSpec)>;

// A whole grid's kernels run their interiors apart where that pays (OperatorSpec::split_interior).
KernelOf kernels_of(Tuner& tuner, bool whole_grid) {
  return [&tuner, whole_grid](OperatorSpec spec) {
    spec.split_interior = whole_grid;
    return tuner.kernel(spec);
  };
}

} // namespace

namespace {

// The user names a variant of a half-sweep (--variant gsrb-red=K): it runs as named.
bool half_sweeps_named(const SolverOptions& o) {
  return o.tuning.named.count("gsrb-red") || o.tuning.named.count("gsrb-black");
}

// What a pass of a level's steps in one kernel must move: each of its `inputs` grids read once,
// the new solution written once.
double one_pass_bytes(const Level& level, std::size_t inputs) {
  return static_cast<double>(inputs + 1) * static_cast<double>(level.points()) *
         static_cast<double>(explore::element_bytes(level.kind));
}

} // namespace

bool in_place_half_sweeps(const SolverOptions& o, bool distributed) {
  const bool wanted = o.gauss_seidel_storage == HalfSweepStorage::InPlace;
  return wanted && !distributed && o.tuning.mode == TuneMode::Default && !half_sweeps_named(o);
}

bool wavefront_half_sweeps(const SolverOptions& o, bool distributed, const Level& level,
                           Boundary bc, const std::string& device_type) {
  return one_pass_steps(o, distributed, level, device_type) && level.n >= kWavefrontSide &&
         poisson_wavefront_why_not(level, bc).empty();
}

bool one_pass_steps(const SolverOptions& o, bool distributed, const Level& level,
                    const std::string& device_type) {
  const bool wanted = o.gauss_seidel_storage == HalfSweepStorage::Wavefront ||
                      (o.gauss_seidel_storage == HalfSweepStorage::Auto && device_type == "GPU" &&
                       o.tuning.mode == TuneMode::Default);
  return wanted && !distributed && level.n >= o.wavefront_side && !half_sweeps_named(o);
}

Hierarchy::Hierarchy(const Level& finest, Boundary bc,
                     std::optional<HelmholtzCoefficients> helmholtz, const SolverOptions& options,
                     DeviceMemory& memory, Tuner& tuner, Layout* layout)
    : options_(&options), session_(&tuner.session()), device_type_(session_->device().type),
      layout_(layout ? layout : &whole_grid_) {
  const KernelOf kernel_of = kernels_of(tuner, !layout_->distributed());
  Level whole = finest;
  while (true) {
    const std::size_t l = levels_.size();
    const Level level = layout_->local(whole, l);
    const int shift = layout_->colour_shift(l);
    LevelState s;
    s.level = level;
    const std::string tag = cat("L", l, " ", level.describe());
    for (int i = 0; i < 2; ++i)
      s.u[i] = memory.allocate(cat("u", i, " ", tag), level.kind, level.points());
    s.f = memory.allocate("f " + tag, level.kind, level.points());
    if (layout_->agglomerated(l)) { // solved elsewhere: u and f are its interface
      levels_.push_back(std::move(s));
      break;
    }
    if (helmholtz) {
      s.coefficients.push_back(memory.allocate("alpha " + tag, level.kind, level.points()));
      for (int k = 0; k < level.dims; ++k)
        s.coefficients.push_back(
            memory.allocate(cat("beta", k, " ", tag), level.kind, level.points()));
    }
    const double omega =
        options.omega > 0 ? options.omega : 2.0 * level.dims / (2 * level.dims + 1);
    add_smoothers(s, kernel_of, bc, helmholtz, shift, omega);
    add_fv4_step(s, helmholtz, shift, memory);
    if (options.fused_smoothing && !helmholtz && !layout_->distributed())
      for (int steps : {options.pre, options.post})
        if (!s.fused_smooth.count(steps))
          if (auto k = fused_smoother(level, bc, options, omega, steps, tuner))
            s.fused_smooth[steps] = k;
    s.residual = kernel_of(with_fv4_forms(
        spec("residual", level,
             [=](const Level& at) {
               return helmholtz ? helmholtz_residual(at, bc, *helmholtz)
                                : multigrid::residual(at, bc);
             }),
        level, fv4_on(level, helmholtz),
        [=](const Level& at, detail::Fv4Region region) {
          return detail::fv4_residual(at, *helmholtz, false, region);
        },
        detail::kFv4InteriorMargin));
    if (l == 0)
      add_square_sums(s, kernel_of, bc, helmholtz, memory);
    const bool coarsest = !whole.can_coarsen() || whole.n <= options.coarsest;
    if (!coarsest) {
      // The coarser level as this rank holds it (its halos may be wider or narrower).
      add_transfers(s, l, layout_->local(whole.coarser(), l + 1), kernel_of, bc, helmholtz, shift,
                    memory);
    }
    // The residual's grid, unless no step writes it: the finest level's where its norm comes
    // from square sums and its residual is restricted in one kernel (1 GiB at 512^3 f64).
    if (!(l == 0 && s.residual_square_sums && s.residual_to_coarser &&
          level.points() > most_coarse_launch_points(options, device_type_, level.dims)))
      s.r = memory.allocate("r " + tag, level.kind, level.points());
    levels_.push_back(std::move(s));
    if (coarsest)
      break;
    whole = whole.coarser();
  }
}

void Hierarchy::add_square_sums(LevelState& s, const KernelOf& kernel_of, Boundary bc,
                                const std::optional<HelmholtzCoefficients>& helmholtz,
                                DeviceMemory& memory) {
  const Level& level = s.level;
  // On a rank the norm covers its own points alone (Layout::norm); the 4th-order residual runs
  // its interior and slabs as separate launches; mixed precision takes its f64 residual's norm.
  if (!options_->fused_residual_norm || options_->precision == Precision::Mixed ||
      layout_->distributed() || fv4_on(level, helmholtz))
    return;
  const SquareSumAxis axis =
      device_type_ == "GPU" ? SquareSumAxis::Outermost : SquareSumAxis::Innermost;
  const int64_t run = square_sum_run(level, axis);
  if (run == 0)
    return;
  s.residual_square_sums = kernel_of(spec("residual-norm", level, [=](const Level& at) {
    return helmholtz ? helmholtz_residual_square_sums(at, bc, *helmholtz, axis)
                     : multigrid::residual_square_sums(at, bc, axis);
  }));
  s.square_sums =
      memory.allocate("square sums " + level.describe(), level.kind, level.points() / run);
}

void Hierarchy::add_smoothers(LevelState& s, const KernelOf& kernel_of, Boundary bc,
                              const std::optional<HelmholtzCoefficients>& helmholtz, int shift,
                              double omega) {
  const Level& level = s.level;
  if (options_->smoother == SmootherKind::GaussSeidel && options_->fused_gauss_seidel &&
      !helmholtz && level.n >= 2) {
    s.smooth[0] =
        kernel_of(spec("gsrb-step", level, [=](const Level& at) { return gsrb_step(at, bc); }));
  } else if (auto axis = line_smoother_axis(options_->smoother, level.dims)) {
    if (!helmholtz)
      user_error("line relaxation runs on the operator in variable-coefficient form: give the "
                 "problem coefficients (Problem::helmholtz; anisotropic_poisson writes Poisson "
                 "so)");
    for (int colour = 0; colour < 2; ++colour)
      s.smooth[colour] =
          kernel_of(spec(colour == 0 ? "line-red" : "line-black", level, [=](const Level& at) {
            return helmholtz_line_half_sweep(at, bc, *helmholtz, *axis, colour);
          }));
  } else if (options_->smoother == SmootherKind::GaussSeidel) {
    // The 4th-order form reads points of its own colour (2 cells away, and across edges).
    s.smooth_by_colour = !(helmholtz && helmholtz->order == 4);
    s.smooth_in_place =
        in_place_half_sweeps(*options_, layout_->distributed()) && s.smooth_by_colour;
    for (int colour = 0; colour < 2; ++colour) {
      const int c = (colour + shift) % 2;
      OperatorSpec half_sweep = with_fv4_forms(
          spec(colour == 0 ? "gsrb-red" : "gsrb-black", level,
               [=](const Level& at) {
                 return helmholtz ? helmholtz_gsrb_half_sweep(at, bc, *helmholtz, c)
                                  : gsrb_half_sweep(at, bc, c);
               }),
          level, fv4_on(level, helmholtz),
          [=](const Level& at, detail::Fv4Region region) {
            return detail::fv4_gsrb_half_sweep(at, *helmholtz, c, region);
          },
          detail::kFv4InteriorMargin);
      half_sweep.in_place = s.smooth_in_place;
      half_sweep.colour_parity = c;
      s.smooth[colour] = kernel_of(half_sweep);
      if (s.smooth_in_place)
        for (auto* k : {s.smooth[colour].get(), s.smooth[colour]->interior.get()})
          if (k)
            k->written_fraction = 0.5;
    }
    if (!helmholtz &&
        wavefront_half_sweeps(*options_, layout_->distributed(), level, bc, device_type_) &&
        point_function_why_not(s.smooth[0]->code).empty()) {
      // The kernel of `steps` steps a pass where its tile fits the device's local memory.
      auto add_wavefront = [&](int steps) {
        const auto shape = wavefront_shape(session_->device(), level.sizes(), steps);
        if (!wavefront_fits(session_->device(), shape, level.kind))
          return false;
        s.smooth_wavefront[steps] =
            poisson_wavefront_kernel(*session_, s.smooth[0]->code, level, bc, shift % 2, shape);
        return true;
      };
      // One step a pass first: more steps need more local memory, and smooth() runs the steps
      // left over one a pass.
      if (add_wavefront(1) && options_->wavefront_steps > 1)
        add_wavefront(options_->wavefront_steps);
    }
  } else {
    s.smooth[0] = kernel_of(with_fv4_forms(
        spec("jacobi", level,
             [=](const Level& at) {
               return helmholtz ? helmholtz_jacobi(at, bc, *helmholtz, omega)
                                : jacobi(at, bc, omega);
             }),
        level, fv4_on(level, helmholtz),
        [=](const Level& at, detail::Fv4Region region) {
          return detail::fv4_jacobi(at, *helmholtz, omega, region);
        },
        detail::kFv4InteriorMargin));
  }
}

void Hierarchy::add_fv4_step(LevelState& s, const std::optional<HelmholtzCoefficients>& helmholtz,
                             int shift, DeviceMemory& memory) {
  const Level& level = s.level;
  // Asked for alone: on an H200 the pass ran at 0.69-0.80x the two half-sweeps' interiors at
  // 512^3, on PoCL at 0.42-0.55x at 128^3 (BENCHMARKS.md): the 4th-order update is bound by its
  // loads through the caches (about 56 a point), which the pass does not reduce, not by the
  // bytes it saves.
  if (options_->gauss_seidel_storage != HalfSweepStorage::Wavefront ||
      options_->smoother != SmootherKind::GaussSeidel || !fv4_on(level, helmholtz) ||
      !s.smooth[0] || !s.smooth[1] ||
      !one_pass_steps(*options_, layout_->distributed(), level, device_type_) ||
      !fv4_step_why_not(level, *s.smooth[0], *s.smooth[1]).empty())
    return;
  const auto shape = fv4_step_shape(session_->device(), level.sizes());
  if (fv4_step_local_bytes(shape, level.kind) >
      static_cast<int64_t>(session_->device().local_mem_size))
    return;
  s.fv4_step = fv4_step_kernel(*session_, *s.smooth[0], level, shift % 2, shape);
  s.fv4_shell = memory.allocate("shell " + level.describe(), level.kind, level.points());
}

std::vector<BufferId> Hierarchy::operator_inputs(const LevelState& L) const {
  std::vector<BufferId> inputs;
  for (const Read& r : operator_reads(L, 1))
    inputs.push_back(r.buffer);
  return inputs;
}

std::vector<Read> Hierarchy::operator_reads(const LevelState& L, int radius) const {
  std::vector<Read> reads{{L.solution(), Read::Level::Same, radius}, {L.f, Read::Level::Same, 0}};
  for (BufferId c : L.coefficients)
    reads.push_back({c, Read::Level::Same, radius});
  return reads;
}

void Hierarchy::restrict_coefficients(Schedule& s) {
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l)
    for (std::size_t c = 0; c < levels_[l].coefficients.size(); ++c)
      s.launch("coefficients", levels_[l].restrict_coefficients[c], {levels_[l].coefficients[c]},
               levels_[l + 1].coefficients[c]);
}

void Hierarchy::smooth(Schedule& s, std::size_t l, int steps) {
  LevelState& L = levels_[l];
  const int sweeps = L.smooth[1] ? 2 : 1; // two half-sweeps, or one kernel a step
  const std::string label = l + 1 == levels_.size() ? "coarse solve" : "smooth";
  if (auto fused = L.fused_smooth.find(steps); fused != L.fused_smooth.end()) {
    s.launch(label, fused->second, operator_inputs(L), L.u[1 - L.current]);
    L.current = 1 - L.current;
    return;
  }
  if (L.fv4_step) {
    // The red half-sweep around the interior into the shell grid, the interior's step in one
    // pass, the black half-sweep around the interior from the shell grid.
    std::vector<BufferId> inputs = operator_inputs(L);
    const double bytes = one_pass_bytes(L.level, inputs.size());
    for (int step = 0; step < steps; ++step) {
      const BufferId next = L.u[1 - L.current];
      inputs[0] = L.solution();
      s.launch_around_interior(label, L.smooth[0], inputs, L.fv4_shell);
      std::vector<BufferId> buffers = inputs;
      buffers.push_back(L.fv4_shell);
      buffers.push_back(next);
      s.launch_over(label, L.fv4_step, buffers, bytes);
      inputs[0] = L.fv4_shell;
      s.launch_around_interior(label, L.smooth[1], inputs, next);
      L.current = 1 - L.current;
    }
    return;
  }
  if (!L.smooth_wavefront.empty()) {
    // Every input read once a pass, the new solution written once; as many steps a pass as
    // remain, up to the most a kernel has.
    std::vector<BufferId> buffers = operator_inputs(L);
    const double bytes = one_pass_bytes(L.level, buffers.size());
    while (steps > 0) {
      auto pass = std::prev(L.smooth_wavefront.upper_bound(steps));
      buffers[0] = L.solution();
      buffers.push_back(L.u[1 - L.current]);
      s.launch_over(label, pass->second, buffers, bytes);
      buffers.pop_back();
      L.current = 1 - L.current;
      steps -= pass->first;
    }
    return;
  }
  // A whole red-black step in one kernel reads its neighbours' neighbours.
  const int radius = sweeps == 1 && options_->smoother == SmootherKind::GaussSeidel ? 2 : 1;
  for (int step = 0; step < steps; ++step)
    for (int half = 0; half < sweeps; ++half)
      half_sweep(s, l, half, radius);
}

void Hierarchy::half_sweep(Schedule& s, std::size_t l, int half, int radius) {
  LevelState& L = levels_[l];
  const char* label = l + 1 == levels_.size() ? "coarse solve" : "smooth";
  // In place: the colour's points written into the solution's own buffer.
  const BufferId output = L.smooth_in_place ? L.solution() : L.u[1 - L.current];
  if (L.smooth_by_colour)
    layout_->launch_half_sweep(s, l, label, L.smooth[half], operator_reads(L, radius), output,
                               half);
  else
    layout_->launch(s, l, label, L.smooth[half], operator_reads(L, radius), output);
  if (!L.smooth_in_place)
    L.current = 1 - L.current;
}

std::vector<std::shared_ptr<CompiledKernel>> Hierarchy::kernels() const {
  std::vector<std::shared_ptr<CompiledKernel>> all;
  for (const LevelState& L : levels_) {
    for (const auto& k : {L.smooth[0], L.smooth[1], L.residual, L.residual_square_sums,
                          L.restrict_to_coarser, L.residual_to_coarser, L.correct_from_coarser,
                          L.start_from_coarser, L.correct_and_smooth})
      all.push_back(k);
    for (const auto& [steps, k] : L.fused_smooth)
      all.push_back(k);
    all.insert(all.end(), L.correct_passes.begin(), L.correct_passes.end());
    all.insert(all.end(), L.start_passes.begin(), L.start_passes.end());
    for (const auto& [steps, k] : L.smooth_wavefront)
      all.push_back(k);
    all.push_back(L.fv4_step);
    all.insert(all.end(), L.restrict_coefficients.begin(), L.restrict_coefficients.end());
  }
  std::erase(all, nullptr);
  return all;
}

void Hierarchy::build_kernels() {
  const auto all = kernels();
  std::vector<codegen::Kernel> codes;
  for (const auto& k : all)
    codes.push_back(k->code);
  if (!all.empty())
    explore::build_together(*all.front()->session, codes);
  for (const auto& k : all)
    k->built();
}

void Hierarchy::residual(Schedule& s, std::size_t l) {
  LevelState& L = levels_[l];
  if (L.r.index < 0)
    internal_error(cat("level ", l, "'s residual stored where it has no grid for it"));
  layout_->launch(s, l, "residual", L.residual, operator_reads(L, 1), L.r);
}

void Hierarchy::residual_square_sums(Schedule& s) {
  LevelState& L = levels_.front();
  if (!L.residual_square_sums)
    internal_error("the finest level has no square sums of its residual");
  layout_->launch(s, 0, "residual norm", L.residual_square_sums, operator_reads(L, 1),
                  L.square_sums);
}

void Hierarchy::correct(Schedule& s, std::size_t l, bool full_multigrid) {
  LevelState &fine = levels_[l], &coarse = levels_[l + 1];
  // Coarse points read around a fine point's parent: none for constant interpolation, one on
  // each side for linear and quadratic.
  const int radius = !full_multigrid && options_->interpolation == Interpolation::Constant ? 0 : 1;
  // HPGMG-FV's passes along x and y first, each reading the grid the one before it wrote.
  BufferId from = coarse.solution();
  const auto& passes = full_multigrid ? fine.start_passes : fine.correct_passes;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    layout_->launch(s, l, "prolong", passes[i], {{from, Read::Level::Coarser, radius}},
                    fine.pass_grids.at(i));
    from = fine.pass_grids[i];
  }
  std::vector<Read> reads{{from, Read::Level::Coarser, radius}};
  if (!(full_multigrid && fine.start_assigns)) // u + P e reads u
    reads.insert(reads.begin(), {fine.solution(), Read::Level::Same, 0});
  layout_->launch(s, l, "prolong",
                  full_multigrid ? fine.start_from_coarser : fine.correct_from_coarser, reads,
                  fine.u[1 - fine.current]);
  fine.current = 1 - fine.current;
}

void Hierarchy::cycle(Schedule& s, std::size_t l, CycleKind kind, bool zero_start) {
  if (layout_->agglomerated(l)) {
    layout_->coarse_cycle(s, l, levels_[l], kind, zero_start);
    return;
  }
  if (l + 1 == levels_.size()) {
    smooth(s, l, options_->coarse_sweeps);
    return;
  }
  LevelState &fine = levels_[l], &coarse = levels_[l + 1];
  smooth(s, l, options_->pre);
  if (fine.residual_to_coarser) {
    // A kernel of the coarser level that reads the finer one (on ranks: its halo exchanges are
    // the finer level's, and the depth it leaves exact is the coarser level's).
    std::vector<Read> reads = operator_reads(fine, 1);
    for (Read& r : reads)
      r.level = Read::Level::Finer;
    layout_->launch(s, l + 1, "residual+restrict", fine.residual_to_coarser, reads, coarse.f);
  } else {
    residual(s, l);
    layout_->launch(s, l + 1, "restrict", fine.restrict_to_coarser,
                    {{fine.r, Read::Level::Finer, 0}}, coarse.f);
  }
  layout_->fill_zero(s, l + 1, "zero", coarse.solution());
  // V: one coarse-grid correction per level; W: two.
  const int corrections = kind == CycleKind::W ? 2 : 1;
  for (int i = 0; i < corrections; ++i)
    cycle(s, l + 1, kind, i == 0);
  correct_and_post_smooth(s, l);
}

bool Hierarchy::fuses_correction(const LevelState& s, std::size_t l, Boundary bc,
                                 bool helmholtz) const {
  const SolverOptions& o = *options_;
  const Level& level = s.level;
  return o.fused_correction && !helmholtz && !layout_->distributed() && o.post >= 1 &&
         o.smoother == SmootherKind::GaussSeidel && s.smooth_by_colour && !s.smooth_in_place &&
         s.smooth[1] && !s.fused_smooth.count(o.post) && o.interpolation == Interpolation::Linear &&
         prolong_add_half_sweep_why_not(layout_->local(level.coarser(), l + 1), bc).empty() &&
         level.points() > most_coarse_launch_points(o, device_type_, level.dims);
}

void Hierarchy::correct_and_post_smooth(Schedule& s, std::size_t l) {
  LevelState &fine = levels_[l], &coarse = levels_[l + 1];
  if (!fine.correct_and_smooth) {
    correct(s, l);
    smooth(s, l, options_->post);
    return;
  }
  layout_->launch(s, l, "prolong+smooth", fine.correct_and_smooth,
                  {{fine.solution(), Read::Level::Same, 1},
                   {coarse.solution(), Read::Level::Coarser, 1},
                   {fine.f, Read::Level::Same, 0}},
                  fine.u[1 - fine.current]);
  fine.current = 1 - fine.current;
  half_sweep(s, l, 1, 1);
  smooth(s, l, options_->post - 1);
}

void Hierarchy::cycle_of_kind(Schedule& s, CycleKind kind) {
  if (kind == CycleKind::F)
    full_multigrid(s);
  else
    cycle(s, 0, kind);
}

void Hierarchy::full_multigrid(Schedule& s) {
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l)
    layout_->launch(s, l + 1, "restrict", levels_[l].restrict_to_coarser,
                    {{levels_[l].f, Read::Level::Finer, 0}}, levels_[l + 1].f);
  const std::size_t last = levels_.size() - 1;
  if (layout_->agglomerated(last)) { // full multigrid from there on, elsewhere
    layout_->coarse_cycle(s, last, levels_[last], CycleKind::F, true);
  } else {
    layout_->fill_zero(s, last, "zero", levels_.back().solution());
    cycle(s, last, CycleKind::V); // the coarse solve
  }
  for (std::size_t l = levels_.size() - 1; l-- > 0;) {
    if (!levels_[l].start_assigns) // the interpolation is added to zeros
      layout_->fill_zero(s, l, "zero", levels_[l].solution());
    correct(s, l, true);
    cycle(s, l, CycleKind::V);
  }
}

} // namespace tessera::multigrid
