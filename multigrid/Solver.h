// The geometric multigrid solver for -lap(u) = f and for the variable-coefficient Helmholtz
// operator (Helmholtz.h) on one device. Every operator at every level is a tessera kernel chosen by
// the Tuner; a cycle is one Schedule enqueued back to back over buffers of one memory plan; CLBlast
// computes the residual norms (and, in mixed precision, the f64 update).
//
// Cycles: V (one coarse-grid correction per level), W (two), F (full multigrid: the right-hand
// side restricted to every level, the coarsest level solved, then per level upwards the solution
// interpolated and one V-cycle; later cycles are V-cycles). nu1/nu2 smoothing steps before and
// after the correction; a red-black Gauss-Seidel step is a red and a black half-sweep. The
// coarsest level is solved by `coarse_sweeps` smoothing steps.
//
// Precision: f64, f32, or mixed (the residual, the solution and its update in f64; each cycle a
// correction computed by an f32 V-cycle on the f32 copy of the residual: iterative refinement).
#pragma once

#include <functional>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "multigrid/Helmholtz.h"
#include "multigrid/Layout.h"
#include "multigrid/Operators.h"
#include "multigrid/Program.h"
#include "multigrid/Tuning.h"

namespace tessera::multigrid {

// The Pad boundary of a problem (core/Expr.h), as multigrid::Boundary: dirichlet(centring, kind)
// of Problems.h gives the homogeneous Dirichlet one.
using Boundary = tessera::Boundary;

enum class CycleKind { V, W, F };
// LineX/LineY/LineZ: red-black line relaxation along x (the innermost dimension), y or z
// (LineRelaxation.h); they need the operator in variable-coefficient form (Problem::helmholtz,
// e.g. anisotropic_poisson of Anisotropic.h).
enum class SmootherKind { GaussSeidel, Jacobi, LineX, LineY, LineZ };
enum class Precision { F64, F32, Mixed };

// SolverOptions::coarse_launch_side's default on a GPU and on a CPU (docs/multigrid.md: the
// measurements that chose them).
// Measured on an H200 (mg_bench, 256^3 and 512^3 V(2,2), F(3,3)): 16 beat 32 and separate
// launches (one work-group runs 32^3 levels slower than their launches do); since launches
// carry no profiling events (SolverOptions::profile_kernels), 8 beats 16 (the one launch took
// 154 us at 16, 43 at 8; V(2,2) 256^3 1.67 -> 1.63 ms, the 512^3 F-cycle with the wavefront
// 20.23-20.36 -> 20.02-20.19: BENCHMARKS.md).
constexpr int64_t kCoarseLaunchSideGpu = 8, kCoarseLaunchSideCpu = 16;
// SolverOptions::coarse_launch_side chosen by measurement before cycle 1: a repeated cycle's wall
// time with each side of kCoarseLaunchCandidates (up to the finest grid's), the fastest kept.
constexpr int64_t kCoarseLaunchMeasure = -2;
constexpr int64_t kCoarseLaunchCandidates[] = {0, 8, 16, 32, 64};
// The most points of a buffer the one-launch coarse levels' steps touch for a side (negative:
// the device's default; 0: none) on grids of `dims` dimensions.
int64_t coarse_launch_points(int64_t side, const std::string& device_type, int dims);

const char* to_string(CycleKind c);
const char* to_string(SmootherKind s);
const char* to_string(Precision p);

// Where a red-black half-sweep writes (SolverOptions::gauss_seidel_storage); Wavefront: a
// step's two half-sweeps as one pass (Wavefront.h).
enum class HalfSweepStorage { Auto, InPlace, OutOfPlace, Wavefront };

struct SolverOptions {
  CycleKind cycle = CycleKind::V;
  SmootherKind smoother = SmootherKind::GaussSeidel;
  // Red-black Gauss-Seidel of the Poisson operator as one kernel a step (gsrb_step: u and f
  // read once) instead of two half-sweeps; the same values either way. Off by default: each
  // point then computes both colours' updates (7 red updates for a black point), which made a
  // 512^3 f64 V(2,2)-cycle 1.7x slower on an H100 and slower on PoCL (BENCHMARKS.md).
  bool fused_gauss_seidel = false;
  // Red-black half-sweeps in place: each reads and writes the solution's buffer and stores the
  // points of its colour only (codegen::CodegenOptions::in_place), the same values as out of
  // place. Where the half-sweeps run the plain lowering on one device (not under --tune explore
  // or a named gsrb variant, not on ranks). Auto: out of place: on a GPU every 32-byte sector
  // holds both colours, so in place saves no write and its conditional stores cost (an H200's
  // V(2,2) at 512^3 smoothed in 9.32 ms in place, 8.33 out of place: BENCHMARKS.md); on a CPU
  // the out-of-place half-sweeps take 4 results a work-item in vector registers (Tuner::
  // cpu_default), 1.5-1.9x faster than in place on PoCL; and on a GPU the f64 Poisson step as a
  // wavefront on large levels, as below. Wavefront: the Poisson
  // operator's step as one pass over a 3-D grid where wavefront_half_sweeps (Hierarchy.h)
  // allows, out of place elsewhere; the same values (on an H200 in f64 1.0-1.08x the
  // half-sweeps' speed: 1-2% of a 512^3 F-cycle in five calls; 0.82-0.88x in f32; slower on
  // PoCL).
  HalfSweepStorage gauss_seidel_storage = HalfSweepStorage::Auto;
  // Wavefront: on levels of at least this many points per side. Each plane of a wavefront costs
  // a few microseconds of latency whatever its size, so on small levels the two half-sweeps are
  // faster (an H200's V(2,2) at 512^3 smoothed in 10.8 ms with it from 32^3 up, 8.3 without).
  // At 128^3 the 32x16 tile of one step ran at 1.42x the half-sweeps' speed, and the V(2,2)
  // cycle at 256^3 took 1.61 ms with it from 128 up against 1.70 from 256 (BENCHMARKS.md).
  int64_t wavefront_side = 128;
  // Wavefront: red-black steps a pass where a level smooths that many or more (temporal
  // blocking: u and f read and u written once for them all); the remaining steps one a pass.
  // Each more step a pass widens the ring a work-group recomputes by two points. One: on an
  // H200 two steps a pass took 1.4-1.6x the time of two passes of one step (the kernel is bound
  // by its planes' latency, not by bytes, and two steps hold more registers and local memory, so
  // fewer work-groups run at once: BENCHMARKS.md).
  int wavefront_steps = 1;
  // The residual and its restriction to the coarser level as one kernel
  // (restrict_average_of(residual)): the fine residual is not stored. Cell-centred grids on one
  // device; the same values as the residual followed by the restriction.
  bool fused_residual_restriction = true;
  // The finest residual's norm after each cycle from its squares summed in one kernel
  // (residual_square_sums: the residual is not stored, nor read again by CLBlast's Nrm2), on
  // one device in f32 or f64 for 2-D and 3-D grids above the coarse levels' one launch, but the
  // 4th-order operator; the same norm to rounding.
  bool fused_residual_norm = true;
  // The coarse-grid correction and the first half-sweep after it as one kernel
  // (prolong_add_half_sweep: u + P e never stored, two passes over the fine grid fewer), where
  // the Poisson operator's red-black half-sweeps run out of place on one device with linear
  // interpolation on cell-centred grids, above the coarse levels' one launch; the same values to
  // rounding. Off by default: each point interpolates e at 2d + 1 places, and the kernel is
  // slower than the two it replaces (an H200's V(2,2) at 512^3 14.1 ms a cycle against 10.6;
  // slower on PoCL too: BENCHMARKS.md).
  bool fused_correction = false;
  // Time every kernel: each cycle's device time is then the sum of its kernels' times and
  // SolveResult::breakdown holds them per operator. Off, a cycle's device time runs from its
  // first kernel's start to its last one's end (the gaps between included) and the breakdown
  // stays empty: a profiled launch costs about 4 us more on an H200 (1.2 ms of a 512^3
  // F-cycle's 21.7). A timeline being recorded (runtime::Timeline) profiles every kernel.
  bool profile_kernels = false;
  // The pre- and post-smoothing steps of a level as one fused kernel each (stream-temporal:
  // 2.5-D blocking; weighted Jacobi, or Gauss-Seidel with a red and a black half-sweep a step)
  // on levels large enough, separate steps elsewhere; the same values to rounding.
  bool fused_smoothing = false;
  // The levels of at most this many points per side (every buffer a step touches) as one launch
  // per run of their steps (CoarseCycle.h: the coarse part of a cycle in one work-group); the
  // same values as separate launches. -1: the device's default (kCoarseLaunchSideGpu, ...), or
  // under TuneMode::Explore measured as kCoarseLaunchMeasure; 0: every step its own launch. One
  // device only (a distributed grid's levels launch separately).
  int64_t coarse_launch_side = -1;
  int pre = 2, post = 2;
  double omega = 0;         // weighted Jacobi; 0: 2d/(2d+1), the best smoothing weight
  double tolerance = 1e-10; // on ||r|| / ||f||
  int max_cycles = 20;
  Precision precision = Precision::F64;
  int64_t coarsest = 2; // coarsen while the grid has more points per side than this
  int coarse_sweeps = 8;
  Interpolation interpolation = Interpolation::Linear;
  TuningOptions tuning;
  // Asked after every cycle; true ends the solve there with stop_reason "interrupted" (the
  // Ctrl-C of tessera solve). Every rank of a distributed solve must give the same answer.
  std::function<bool()> stop;
};

// Whether the coarse levels' one launch takes the side measured before cycle 1
// (kCoarseLaunchMeasure, or the device's default under TuneMode::Explore; one device).
bool coarse_launch_side_measured(const SolverOptions& o);
// The most points of a buffer the coarse levels' one launch may touch: the side given, the
// device's default, or the largest candidate where the side is measured.
int64_t most_coarse_launch_points(const SolverOptions& o, const std::string& device_type, int dims);

// The problem on the finest grid: level (dims, n, centring), the boundary condition as a Pad
// boundary, the right-hand side, the operator (the Poisson Laplacian, or the variable-coefficient
// Helmholtz operator of Helmholtz.h with its coefficients on the finest grid), and the exact
// solution when it is known (to report the error).
struct VariableCoefficients {
  HelmholtzCoefficients constants;
  std::vector<double> alpha;             // n^dims values
  std::vector<std::vector<double>> beta; // per dimension, n^dims values (low faces)
};

struct Problem {
  std::string name;
  int dims = 3;
  int64_t n = 0;
  Centring centring = Centring::Cell;
  // Clamp (a zero normal derivative: Neumann) unless set. Not Dirichlet by default: that boundary
  // depends on the centring (antisymmetric reflection for cells, zero values for vertices), which
  // is set after construction, and a default computed before it would be silently wrong for one
  // of them. -lap(u) = f with Neumann boundaries is solvable only when f sums to zero (and then
  // up to a constant): a solve of another f stagnates, and SolveResult::hint says what to set.
  Boundary boundary = Boundary::clamp();
  std::vector<double> rhs;                       // f, row-major, n^dims values
  std::optional<VariableCoefficients> helmholtz; // none: -lap(u) = f
  std::optional<std::vector<double>> exact;      // u
};

struct CycleRecord {
  int cycle = 0;
  double residual = 0; // ||r||_2 after the cycle
  double relative = 0; // ||r|| / ||f||
  double factor = 0;   // residual / the previous residual
  // The cycle's kernels on the device, from profiling events: their sum with
  // SolverOptions::profile_kernels, else the first one's start to the last one's end.
  double device_ms = 0;
  double wall_ms = 0; // the whole cycle, norms included
  std::string kind;   // "V", "F", ...
};

struct SolveResult {
  std::vector<CycleRecord> cycles;
  double initial_residual = 0;
  bool converged = false;
  // "converged", "cycle limit", "diverged", "stagnated", "interrupted"
  std::string stop_reason;
  std::string hint;                 // what to change when it did not converge, when known
  std::optional<double> max_error;  // max |u - exact|
  Breakdown breakdown;              // device time per operator over all cycles (profile_kernels)
  std::vector<std::string> levels;  // "64^3 f64 cell-centred", finest first
  std::vector<std::string> kernels; // "gsrb L0: v3 local=32x8 (explored)", ...
  // What ran the coarse levels: "levels of at most 16 per side in one launch (34 steps)", or
  // why they launch separately.
  std::string coarse_launch;
  std::size_t memory_bytes = 0;
  // Building the kernels (and tuning them) and their first launches, before cycle 1: PoCL
  // compiles a kernel for its work-group size at its first launch, CLBlast its kernels at their
  // first call. Cycle times and the breakdown leave it out.
  double build_ms = 0;
  // The bytes a repeated cycle's kernels must move, per operator (for bandwidth bounds).
  std::map<std::string, double> bytes_per_cycle;
  std::vector<double> solution; // the whole grid (distributed: on rank 0 only)
  // The geometric mean of the convergence factors of all cycles but the first.
  double mean_factor() const;
};

class Solver {
public:
  Solver(runtime::Session& session, const Problem& problem, SolverOptions options);
  // The same solver on a layout of the grids (not owned; it must outlive the solver): one
  // rank's part of a grid distributed over MPI ranks (distributed/MultigridLayout.h).
  Solver(runtime::Session& session, const Problem& problem, SolverOptions options, Layout& layout);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  SolveResult solve();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace tessera::multigrid
