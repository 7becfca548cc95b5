// The multigrid operators as tessera programs, written with the public DSL for grids of 1, 2 or
// 3 dimensions. Every function returns a high-level program (Map, Slide, Pad, Zip, Generate, ...)
// over grids of constant size, which the rewrite system lowers and the explorer tunes like any
// other stencil; the multigrid solver runs them as kernels.
//
// Grids are d-dimensional cubes of n cells per side, stored row-major, outermost dimension first.
// The discrete operator is the (2d+1)-point Laplacian of the Poisson problem -lap(u) = f,
//   (A u)_p = (2d u_p - sum of the 2d neighbours of p) / h^2,
// with the boundary condition given as the Pad boundary of the ghost layer: antisymmetric
// reflection (cell-centred homogeneous Dirichlet, the ghost is -u inside), mirror (homogeneous
// Neumann) or wrap (periodic).
//
// Cell-centred grids have n = 2^k cells of width h = 1/n; coarsening halves n. Vertex-centred
// grids have n = 2^k - 1 interior vertices of spacing h = 1/(n+1); coarsening maps n to (n-1)/2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Expr.h"
#include "core/Type.h"

namespace tessera::multigrid {

enum class Centring { Cell, Vertex };

// One grid level: d dimensions of n points each.
struct Level {
  int dims = 3;
  int64_t n = 0;
  ScalarKind kind = ScalarKind::F64;
  Centring centring = Centring::Cell;
  // The extents of the grid the kernels run on when it is not the whole n^d cube: one rank's
  // block of a distributed grid with its halos (distributed/MultigridLayout.h). n still gives
  // the mesh width; the operators work on any box.
  std::vector<int64_t> box;
  // A box's halos: how far it reaches below and above the rank's block along each dimension
  // (empty: none). Two levels' boxes may have halos of different widths (the distributed
  // solver's finest level and its coarser ones, distributed/MultigridLayout.h); the transfers
  // between them (restrict_average, prolong_add) take both levels.
  std::vector<int64_t> halo_lo, halo_hi;
  // The side of the domain; the mesh width follows from it. A grid with another grid's
  // coefficients (a small copy of a large operator, as the benchmarks' peers take their taps
  // from) has the same h: length = h * n.
  double length = 1.0;

  double h() const; // the mesh width: length / n cell-centred, length / (n + 1) vertex-centred
  int64_t points() const; // of the box the kernels run on
  std::vector<ArithExpr> extents() const;
  std::vector<int64_t> sizes() const; // extents() as numbers
  // The next coarser level; throws Error when n does not coarsen (odd cell count, or a vertex
  // count that is not 2m+1).
  Level coarser() const; // the whole coarser grid (no box)
  bool can_coarsen() const;
  std::string describe() const; // "64^3 f64 cell-centred"
};

// r = f - A u. Inputs u, f.
Expr residual(const Level& level, Boundary bc);
// The residual's 2^d average on the coarser cell-centred grid in one program: restrict_average
// of residual's result, each fine residual computed where the average reads it (never stored).
// Inputs u, f of `fine`; the result a grid of fine.coarser().
Expr residual_restricted(const Level& fine, Boundary bc);
// The same written to `coarse`, a rank's box of the coarser level (its halos may differ from the
// fine box's); its children beyond the fine box are clamped (not exact: the halo bookkeeping
// knows).
Expr residual_restricted(const Level& fine, const Level& coarse, Boundary bc);
// The residual's norm without storing it: its squares summed along `axis` in runs of
// square_sum_run(level, axis) points (the square of the norm is their sum). Along the outermost
// axis a work-item sums a column, its neighbours reading neighbouring elements (a GPU's order);
// along the innermost it sums a row, reading it in order (a CPU's). Inputs u, f; the result
// [n0/run][n1]..[n_{d-1}][1] or [n0]..[n_{d-1}/run][1].
enum class SquareSumAxis { Outermost, Innermost };
Expr residual_square_sums(const Level& level, Boundary bc, SquareSumAxis axis);
// The run of those sums: along the innermost axis a whole row; along the outermost the shortest
// run of 8-64 points that divides n0 (many work-items, each a short chain of loads). 0 where none
// does or the grid is 1-D (the norm then reads the stored residual).
int64_t square_sum_run(const Level& level, SquareSumAxis axis);
// Weighted Jacobi: u + omega * h^2/(2d) * (f - A u). Inputs u, f.
Expr jacobi(const Level& level, Boundary bc, double omega);
// One half-sweep of red-black Gauss-Seidel: the points whose index sum has the parity `colour`
// (0: red, 1: black) get (h^2 f + sum of neighbours) / (2d); the others keep u. The colour
// comes from the index (Generate), not from an array. Inputs u, f.
Expr gsrb_half_sweep(const Level& level, Boundary bc, int colour);
// A whole red-black Gauss-Seidel step (the red half-sweep, then the black one) in one program:
// the same values as gsrb_half_sweep(.., 0) followed by gsrb_half_sweep(.., 1), with u and f
// read once (GaussSeidel.cpp). Inputs u, f; n >= 2.
Expr gsrb_step(const Level& level, Boundary bc);
// k smoothing steps in one program (FusedSmoothing.cpp): weighted Jacobi k times, and red-black
// Gauss-Seidel as k red and black half-sweep pairs. Inputs u, f. The rewrite rule
// stream-temporal fuses them into one kernel (2.5-D blocking, every step's own boundary).
Expr jacobi_steps(const Level& level, Boundary bc, double omega, int k);
Expr gsrb_steps(const Level& level, Boundary bc, int k);
// `steps` (jacobi_steps, gsrb_steps: `half_steps` stencil applications) as programs of one
// fused kernel each, the stream-temporal forms the solver may run (--fused-smoothing), the one
// it prefers first (register window, then segments, then the largest tile); none where the rule
// does not apply (a grid smaller than its tiles or than the steps' reach). The solver takes the
// first whose kernel the device can launch with its work-group.
std::vector<Expr> fused_smoothing_forms(const Expr& steps, int64_t half_steps);

// Cell-centred restriction by the 2^d average: coarse(I) = mean of the fine cells 2I + {0,1}^d.
// Input the fine grid r; `fine` is its level, `coarse` the output's (the whole coarser grid, or
// the coarser box of the same rank with halos of any width). On a rank's box (Level::halo_lo) a
// coarse halo point averages fine halo points or padding (exact only as deep as the fine halo
// was: half as deep), every coarse point of the block averages its children in the fine block.
// Without `coarse`: the coarser grid, or the coarser box with the same halos.
Expr restrict_average(const Level& fine, const Level& coarse);
Expr restrict_average(const Level& fine);
// Vertex-centred full weighting: coarse(I) = sum over offsets o in {-1,0,1}^d of
// prod_k w(o_k) * fine(2I + 1 + o), w(0) = 1/2, w(+-1) = 1/4. Input the fine grid r.
Expr restrict_full_weighting(const Level& fine);

enum class Interpolation { Constant, Linear, Quadratic };
// u_fine + P e_coarse, where P is piecewise-constant, (bi/tri)linear or quadratic interpolation:
//   cell-centred linear: per dimension fine 2i gets 3/4 e[i] + 1/4 e[i-1] and fine 2i+1 gets
//   3/4 e[i] + 1/4 e[i+1], the ghosts e[-1], e[n] given by the boundary `bc`;
//   vertex-centred linear: fine 2i+1 = e[i], fine 2i = (e[i-1] + e[i]) / 2, e[-1] = e[n] = 0;
//   constant (cell-centred): fine i = e[i/2];
//   quadratic (cell-centred, third order, for the full-multigrid start of each level): per
//   dimension fine 2i gets (5 e[i-1] + 30 e[i] - 3 e[i+1]) / 32 and fine 2i+1 the mirror image
//   (the Lagrange polynomial through e[i-1], e[i], e[i+1] at -1/4 and +1/4 of a coarse cell).
// Inputs u (fine), e (coarse); `coarse` is e's level, `fine` u's and the output's (the next finer
// grid, or on a rank the next finer box, with halos of any width: the refined coarse box less
// the halos' excess, or padded where the fine halo is wider than twice the coarse one), its
// parities global. Without `fine`: the finer grid, or the finer box with the same halos.
Expr prolong_add(const Level& coarse, const Level& fine, Interpolation kind, Boundary bc);
Expr prolong_add(const Level& coarse, Interpolation kind, Boundary bc);
// The quadratic interpolation of e alone (no u: full multigrid's start of a level, where u would
// be zeros), the values of prolong_add with u = 0; input e (coarse), output of `fine`.
Expr prolong(const Level& coarse, const Level& fine, Interpolation kind, Boundary bc);
Expr prolong(const Level& coarse, Interpolation kind, Boundary bc);

// The coarse-grid correction and the first half-sweep after it in one program, the corrected
// grid never stored: v = u + P e with linear interpolation (cell-centred), then the red-black
// half-sweep of `colour` over v, out of place (that colour's points get (h^2 f + the sum of v
// around them) / (2d), the others v). The values of prolong_add then gsrb_half_sweep, up to
// rounding. Inputs u (the finer grid of `coarse`), e (coarse), f; the output of the finer grid.
// Whole grids with an antisymmetric, mirror, clamp or wrap boundary; why_not says why not.
Expr prolong_add_half_sweep(const Level& coarse, Boundary bc, int colour);
std::string prolong_add_half_sweep_why_not(const Level& coarse, Boundary bc);

// The update of a correction scheme on the host side of a cycle, as one kernel: u + e.
Expr add(const Level& level);
// A grid converted to another precision: inputs x of `level`, output of kind `to`.
Expr convert(const Level& level, ScalarKind to);

} // namespace tessera::multigrid
