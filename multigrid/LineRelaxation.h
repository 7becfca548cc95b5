// Red-black line relaxation of the variable-coefficient operator of Helmholtz.h: the lines of
// one colour along dimension `axis` are solved exactly, each as a tridiagonal system (the Thomas
// algorithm of dsl/Tridiagonal.h: three scans in the work-item of the line), with the values of
// the neighbouring lines held fixed. On anisotropic problems, lines along the strong coupling
// smooth what point smoothers cannot (the error is smooth along the strong direction only).
//
// A line's colour is the parity of its index in the other dimensions (in 2-D, lines along x are
// rows and the colour is the row's parity). Along the line, the boundary's ghost enters the
// system: antisymmetric (x_{-1} = -x_0), mirror and clamp (x_{-1} = x_0), constant c; periodic
// (wrap) lines would need a cyclic solve and are refused.
#pragma once

#include <optional>

#include "multigrid/Helmholtz.h"
#include "multigrid/Solver.h"

namespace tessera::multigrid {

// Dimension of the lines named x, y, z on a d-dimensional grid (x is the innermost, contiguous
// dimension): 'x' -> d-1, 'y' -> d-2, 'z' -> d-3; Error when the grid has no such dimension.
int line_axis(int dims, char name);
// The axis of a line smoother on a d-dimensional grid; none for a point smoother.
std::optional<int> line_smoother_axis(SmootherKind smoother, int dims);

// One half-sweep: the lines of `colour` (0 or 1) along `axis` get the exact solution of their
// rows of L u = f; the other points keep u. Inputs u, f, alpha, beta_0 .. beta_{d-1} as for
// the other Helmholtz operators.
Expr helmholtz_line_half_sweep(const Level& level, Boundary bc, HelmholtzCoefficients c, int axis,
                               int colour);

} // namespace tessera::multigrid
