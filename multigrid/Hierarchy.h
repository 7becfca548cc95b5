// The levels of one precision with their buffers and kernels, and the cycles as schedules over
// them. Which of a level's two solution buffers holds u is tracked while a schedule is built
// (a kernel never reads and writes the same buffer), so a schedule is valid for the parity it
// was built from.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "multigrid/Helmholtz.h"
#include "multigrid/Layout.h"
#include "multigrid/Program.h"
#include "multigrid/Tuning.h"

namespace tessera::multigrid {

struct SolverOptions;
enum class CycleKind;

struct LevelState {
  Level level;
  std::array<BufferId, 2> u; // ping-pong
  BufferId f, r;
  std::vector<BufferId> coefficients; // Helmholtz: alpha, beta_0 .. beta_{d-1}
  int current = 0;                    // which u holds the solution (while a schedule is built)
  // Red and black half-sweeps; or [0] alone: a Jacobi step, or a fused red-black step.
  std::array<std::shared_ptr<CompiledKernel>, 2> smooth;
  // The half-sweeps read and write the solution's buffer (SolverOptions::gauss_seidel_storage).
  bool smooth_in_place = false;
  // smooth[c] updates the points of global colour c alone, each from itself and points of the
  // other colour (red-black Gauss-Seidel on a 2nd-order operator).
  bool smooth_by_colour = false;
  // Red-black steps as one pass (Wavefront.h; HalfSweepStorage::Wavefront) where it applies, by
  // steps a pass: one, and SolverOptions::wavefront_steps; each launch over (u, f, new u).
  std::map<int, std::shared_ptr<CompiledKernel>> smooth_wavefront;
  // HPGMG-FV's 4th-order step with its interior in one pass (Fv4Step.h; asked for by
  // HalfSweepStorage::Wavefront, on the levels one_pass_steps names) between the half-sweeps
  // around the interior, which meet it in fv4_shell. None where it does not apply.
  std::shared_ptr<CompiledKernel> fv4_step;
  BufferId fv4_shell;
  // --fused-smoothing: by number of steps (pre, post), one kernel of that many steps.
  std::map<int, std::shared_ptr<CompiledKernel>> fused_smooth;
  std::shared_ptr<CompiledKernel> residual;
  // The finest level on one device: the residual's squares summed in runs (its norm without
  // storing it: residual_square_sums, Operators.h) into square_sums; none where it does not apply.
  std::shared_ptr<CompiledKernel> residual_square_sums;
  BufferId square_sums;
  std::shared_ptr<CompiledKernel> restrict_to_coarser; // none on the coarsest level
  // The residual restricted to the coarser level's f in one kernel (the fine residual never
  // stored; SolverOptions::fused_residual_restriction); none where it does not apply.
  std::shared_ptr<CompiledKernel> residual_to_coarser;
  std::shared_ptr<CompiledKernel> correct_from_coarser; // u + P e; none on the coarsest level
  std::shared_ptr<CompiledKernel> start_from_coarser;   // full multigrid's interpolation
  // HPGMG-FV's interpolations on one device run a pass per dimension (prolong_hpgmg_fv_pass):
  // those along x and y write pass_grids[0] and [1] in turn, then correct_from_coarser or
  // start_from_coarser is the pass along z. Empty: that kernel alone.
  std::vector<std::shared_ptr<CompiledKernel>> correct_passes, start_passes;
  std::array<BufferId, 2> pass_grids;
  // u + P e and the first half-sweep after it in one kernel (SolverOptions::fused_correction);
  // none where it does not apply.
  std::shared_ptr<CompiledKernel> correct_and_smooth;
  // It writes P e alone (no zero fill before it, no read of u: prolong); else u + P e.
  bool start_assigns = false;
  std::vector<std::shared_ptr<CompiledKernel>> restrict_coefficients; // to the coarser level
  BufferId solution() const { return u[current]; }
};

// Whether red-black half-sweeps run in place (SolverOptions::gauss_seidel_storage InPlace; Auto
// runs them out of place) where their kernels are the plain lowering on a whole grid: the
// explorer times its variants out of place, and a rank's box would need its halo points kept
// apart.
bool in_place_half_sweeps(const SolverOptions& o, bool distributed);
// Whether a level's red-black step of the Poisson operator runs as one wavefront (Wavefront.h):
// where asked for (SolverOptions::gauss_seidel_storage), or by default on a GPU (f64 and f32
// levels) outside --tune explore, on a whole 3-D grid of at least SolverOptions::wavefront_side and
// kWavefrontSide points per side, through a boundary that reads near the point (not wrap), with
// half-sweeps that are not named variants (and, the caller checks, are the plain lowering).
bool wavefront_half_sweeps(const SolverOptions& o, bool distributed, const Level& level,
                           Boundary bc, const std::string& device_type);
// Whether a level's red-black steps run in one pass each where a form applies (the Poisson
// wavefront, HPGMG-FV's 4th-order step: Fv4Step.h): as wavefront_half_sweeps, without its
// operator's conditions.
bool one_pass_steps(const SolverOptions& o, bool distributed, const Level& level,
                    const std::string& device_type);
// Below, a level's steps belong to the coarse levels' one launch (CoarseCycle.h), which runs
// them as half-sweeps.
constexpr int64_t kWavefrontSide = 32;

class Hierarchy {
public:
  // Levels from `finest` down while the grid coarsens and has more than options.coarsest
  // points per side; buffers from `memory`, kernels from `tuner`. With `helmholtz`, the
  // operator is the variable-coefficient one and every level holds its coefficients. `layout`
  // (not owned; none: the whole grid on this device) gives each level's box and the steps
  // between kernels of a distributed grid; it ends the levels at an agglomerated one.
  Hierarchy(const Level& finest, Boundary bc, std::optional<HelmholtzCoefficients> helmholtz,
            const SolverOptions& options, DeviceMemory& memory, Tuner& tuner,
            Layout* layout = nullptr);
  Hierarchy(const Hierarchy&) = delete; // it points to its own default layout
  Hierarchy& operator=(const Hierarchy&) = delete;

  std::vector<LevelState>& levels() { return levels_; }
  LevelState& finest() { return levels_.front(); }

  // Appends to `s`: one V- or W-cycle at level l; full multigrid (the right-hand side
  // restricted to every level, the coarsest solved, then per level upwards the solution
  // interpolated and one V-cycle); the residual of level l into its r; smoothing steps.
  // `zero_start`: level l's solution holds zeros (an agglomerated level then does not move it).
  void cycle(Schedule& s, std::size_t l, CycleKind kind, bool zero_start = false);
  void full_multigrid(Schedule& s);
  // The cycle `kind` from the finest level, full multigrid for F: what an agglomerated level's
  // hierarchy runs for Layout::coarse_cycle.
  void cycle_of_kind(Schedule& s, CycleKind kind);
  void residual(Schedule& s, std::size_t l);
  // The finest residual's squares summed into its square_sums (where it has the kernel).
  void residual_square_sums(Schedule& s);
  void smooth(Schedule& s, std::size_t l, int steps);
  // Builds every level's kernels now (they are otherwise built when first launched), compiled
  // as one program where that pays (compile/KernelRunner.h's build_together: PoCL's cost per
  // program paid once; every kernel is built here, so none is compiled for nothing).
  void build_kernels();
  // The coefficients of every coarser level from the finest one's (Helmholtz only).
  void restrict_coefficients(Schedule& s);

private:
  // The level's smoothing kernels (s.smooth, smooth_by_colour, smooth_in_place), from the
  // tuner as the hierarchy asks for them (`kernel_of`).
  void add_smoothers(LevelState& s,
                     const std::function<std::shared_ptr<CompiledKernel>(OperatorSpec)>& kernel_of,
                     Boundary bc, const std::optional<HelmholtzCoefficients>& helmholtz, int shift,
                     double omega);
  // The level's fv4_step and its shell grid where they apply (after add_smoothers).
  void add_fv4_step(LevelState& s, const std::optional<HelmholtzCoefficients>& helmholtz, int shift,
                    DeviceMemory& memory);
  // The finest level's residual_square_sums and its buffer, where they apply.
  void add_square_sums(
      LevelState& s, const std::function<std::shared_ptr<CompiledKernel>(OperatorSpec)>& kernel_of,
      Boundary bc, const std::optional<HelmholtzCoefficients>& helmholtz, DeviceMemory& memory);
  // Level l's operators to and from `coarse` (the next coarser level as this rank holds it):
  // restrictions and interpolations (HierarchyTransfers.cpp).
  void add_transfers(LevelState& s, std::size_t l, const Level& coarse,
                     const std::function<std::shared_ptr<CompiledKernel>(OperatorSpec)>& kernel_of,
                     Boundary bc, const std::optional<HelmholtzCoefficients>& helmholtz, int shift,
                     DeviceMemory& memory);
  // Every level's kernels.
  std::vector<std::shared_ptr<CompiledKernel>> kernels() const;
  // u_l += P u_{l+1}, with the cycles' interpolation or full multigrid's (u_l = P u_{l+1} where
  // the level's start assigns: LevelState::start_assigns).
  void correct(Schedule& s, std::size_t l, bool full_multigrid = false);
  // The correction and the post-smoothing after it: correct_and_smooth then the step's other
  // half-sweep where the level has it, else correct() then smooth().
  void correct_and_post_smooth(Schedule& s, std::size_t l);
  // Half-sweep `half` (0 or 1) of a red-black step, or a whole step of one kernel (half 0);
  // neighbours read `radius` deep.
  void half_sweep(Schedule& s, std::size_t l, int half, int radius);
  // Whether level l (the finer of the two) runs correct_and_smooth (SolverOptions).
  bool fuses_correction(const LevelState& s, std::size_t l, Boundary bc, bool helmholtz) const;
  // u, f and the coefficients: the inputs of the smoothers and the residual (u and the
  // coefficients read `radius` points around).
  std::vector<BufferId> operator_inputs(const LevelState& L) const;
  std::vector<Read> operator_reads(const LevelState& L, int radius) const;

  std::vector<LevelState> levels_;
  const SolverOptions* options_;
  runtime::Session* session_; // the kernels' device
  std::string device_type_;   // its runtime::Device::type
  Layout whole_grid_;
  Layout* layout_;
};

} // namespace tessera::multigrid
