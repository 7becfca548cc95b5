// The operators between a level and the next coarser one: restriction, the residual restricted
// in one kernel, the interpolations (HPGMG-FV's as a pass per dimension) and the coefficients'
// restrictions.
#include "core/Error.h"
#include "multigrid/Helmholtz.h"
#include "multigrid/HelmholtzFv4.h"
#include "multigrid/Hierarchy.h"
#include "multigrid/OperatorForms.h"
#include "multigrid/Solver.h"

namespace tessera::multigrid {

namespace {

using detail::fv4_on;
using detail::spec;
using detail::with_fv4_forms;
using KernelOf = std::function<std::shared_ptr<CompiledKernel>(OperatorSpec)>;

// An interpolation's kernels: one, or HPGMG-FV's as a pass per dimension on one device, the
// passes along x and y (into the fine level's pass grids) before `last`, the pass along z.
struct InterpolationKernels {
  std::vector<std::shared_ptr<CompiledKernel>> passes;
  std::shared_ptr<CompiledKernel> last;
};

// HPGMG-FV's interpolation of `order` from `coarse` (a whole grid) as a pass per dimension
// (prolong_hpgmg_fv_pass), each its own operator over the grid it writes: a pass reads 7 values a
// point where the one kernel reads 7^3 (the quartic, its ghosts resolved), and it needs no form
// of its own near the boundary.
InterpolationKernels interpolation_passes(const std::string& name, const Level& coarse, int order,
                                          const KernelOf& kernel_of) {
  InterpolationKernels kernels;
  for (int k = coarse.dims - 1; k >= 0; --k) {
    OperatorSpec pass{k == 0 ? name : cat(name, k == 1 ? "-y" : "-x"),
                      prolong_hpgmg_fv_pass_sizes(coarse, k),
                      [=](const std::vector<int64_t>& extents) {
                        Level at = coarse;
                        at.n = extents.at(static_cast<std::size_t>(k)) / 2;
                        return prolong_hpgmg_fv_pass(at, order, k);
                      }};
    pass.gpu_work_group = {32, 4, 1};
    (k == 0 ? kernels.last : kernels.passes.emplace_back()) = kernel_of(std::move(pass));
  }
  return kernels;
}

// u_fine + P e_coarse: interpolation of `kind`, or HPGMG-FV's of `hpgmg_order` (2 or 4; 0: none)
// on coarse grids of at least that side; with `assign`, P e_coarse alone (prolong). At extents
// other than the coarse level's own (the explorer's small copy of an operator), the fine level is
// the one the default halos give.
InterpolationKernels interpolation(const std::string& name, const Level& coarse, const Level& fine,
                                   Interpolation kind, Boundary bc, int hpgmg_order,
                                   const KernelOf& kernel_of, bool assign = false) {
  const bool hpgmg = hpgmg_order > 0 && coarse.n >= hpgmg_order;
  if (hpgmg && coarse.box.empty())
    return interpolation_passes(name, coarse, hpgmg_order, kernel_of);
  OperatorSpec interpolate = spec(name, coarse, [=](const Level& at) {
    if (hpgmg_order > 0 && at.n >= hpgmg_order)
      return prolong_hpgmg_fv(at, hpgmg_order);
    if (at.sizes() == coarse.sizes())
      return assign ? prolong(at, fine, kind, bc) : prolong_add(at, fine, kind, bc);
    return assign ? prolong(at, kind, bc) : prolong_add(at, kind, bc);
  });
  // Full multigrid's start of a 3-D level on one device (P e assigned): each coarse value is
  // read by the 2x2x2 fine points around it, which a work-group two planes deep keeps in cache
  // (the explorer's choice on an H200: 1.07 ms at 512^3 against 1.7-2.0 ms with the driver's
  // work-group; the linear correction gains nothing from it).
  if (assign && kind == Interpolation::Quadratic && coarse.dims == 3 && hpgmg_order == 0)
    interpolate.gpu_work_group = {16, 8, 2};
  return {{}, kernel_of(interpolate)};
}

} // namespace

void Hierarchy::add_transfers(LevelState& s, std::size_t l, const Level& coarse,
                              const KernelOf& kernel_of, Boundary bc,
                              const std::optional<HelmholtzCoefficients>& helmholtz, int shift,
                              DeviceMemory& memory) {
  const Level& level = s.level;
  const std::string tag = cat("L", l, " ", level.describe());
  const bool cell = level.centring == Centring::Cell;
  // At extents other than the level's own (the explorer's small copy of an operator), the
  // transfers' other level is the one their default halos give.
  s.restrict_to_coarser = kernel_of(spec("restrict", level, [=](const Level& at) {
    if (!cell)
      return restrict_full_weighting(at);
    return at.sizes() == level.sizes() ? restrict_average(at, coarse) : restrict_average(at);
  }));
  // (On ranks: the constant-coefficient operator, the one the distributed solver has.)
  if (cell && options_->fused_residual_restriction && (!layout_->distributed() || !helmholtz))
    s.residual_to_coarser = kernel_of(with_fv4_forms(
        spec("residual-restrict", level,
             [=](const Level& at) {
               if (helmholtz)
                 return helmholtz_residual_restricted(at, bc, *helmholtz);
               return at.sizes() == level.sizes() ? multigrid::residual_restricted(at, coarse, bc)
                                                  : multigrid::residual_restricted(at, bc);
             }),
        level, fv4_on(level, helmholtz),
        [=](const Level& at, detail::Fv4Region region) {
          return detail::fv4_residual(at, *helmholtz, true, region);
        },
        1));
  auto kind = options_->interpolation;
  // The 4th-order form: HPGMG-FV's interpolations where they are defined.
  const bool hpgmg_fv4 = helmholtz && helmholtz->order == 4;
  InterpolationKernels correct =
      interpolation("prolong", coarse, level, kind, bc, hpgmg_fv4 ? 2 : 0, kernel_of);
  s.correct_from_coarser = correct.last;
  s.correct_passes = correct.passes;
  if (fuses_correction(s, l, bc, helmholtz.has_value()))
    s.correct_and_smooth = kernel_of(spec("prolong-gsrb", coarse, [=](const Level& at) {
      return prolong_add_half_sweep(at, bc, shift % 2);
    }));
  if (options_->cycle == CycleKind::F) {
    // Third order where it exists (cell-centred): enough for one V-cycle per level to
    // reach the discretisation error. On one device it assigns P e (the level is not
    // zeroed first, nor read).
    auto start = cell ? Interpolation::Quadratic : Interpolation::Linear;
    s.start_assigns = cell && !hpgmg_fv4 && !layout_->distributed();
    InterpolationKernels first = interpolation("fmg-prolong", coarse, level, start, bc,
                                               hpgmg_fv4 ? 4 : 0, kernel_of, s.start_assigns);
    s.start_from_coarser = first.last;
    s.start_passes = first.passes;
  }
  if (!s.correct_passes.empty() || !s.start_passes.empty())
    for (int i = 0; i < 2; ++i) {
      int64_t points = 1;
      for (int64_t e : prolong_hpgmg_fv_pass_sizes(coarse, level.dims - 1 - i))
        points *= e;
      s.pass_grids[static_cast<std::size_t>(i)] =
          memory.allocate(cat("prolong pass ", i, " ", tag), level.kind, points);
    }
  if (helmholtz) {
    if (!cell)
      user_error("the variable-coefficient operator is defined on cell-centred grids");
    s.restrict_coefficients.push_back(s.restrict_to_coarser);
    for (int k = 0; k < level.dims; ++k)
      s.restrict_coefficients.push_back(
          kernel_of(spec(cat("restrict-beta", k), level,
                         [k](const Level& at) { return restrict_face_coefficient(at, k); })));
  }
}

} // namespace tessera::multigrid
