// Variable-coefficient 9-point operators in compass storage (BoxMG's layout), 2-D,
// vertex-centred (n = 2^k - 1 interior points per side, coarse point I at fine 2I+1).
//
// Five coefficient arrays per point p = (j, i) (row j along y, column i along x): O (the
// diagonal), W, S, SW, NW (the couplings to the west, south, south-west and north-west
// neighbours). The other four couplings are stored at the neighbour they point to:
//   E_p = W[j][i+1],  N_p = S[j+1][i],  NE_p = SW[j+1][i+1],  SE_p = NW[j-1][i+1],
// so the operator is symmetric:
//   (A u)_p = O_p u_p - W_p u_W - E_p u_E - S_p u_S - N_p u_N
//                     - SW_p u_SW - NE_p u_NE - NW_p u_NW - SE_p u_SE.
// Every array, coefficients included, is stored with a ghost ring: [[T]_{n+2}]_{n+2}, interior
// point (j, i) at [j+1][i+1]; the ring holds the boundary values (zero couplings and zero u for
// homogeneous Dirichlet). The operators compute interior grids [[T]_n]_n (pad_nd(2, 1, 1,
// constant(0)) puts a zero ring back as a view).
#pragma once

#include "multigrid/Operators.h"

namespace tessera::multigrid {

// r = f - A u on the interior. Inputs u, f, O, W, S, SW, NW (ring grids of `level`).
Expr compass_residual(const Level& level);
// Full weighting (1/16 [1 2 1; 2 4 2; 1 2 1] around fine 2I+1). Input r (a fine ring grid);
// output the coarse interior.
Expr compass_restrict_full_weighting(const Level& fine);
// Bilinear interpolation P e. Input e (a coarse ring grid, the ring the boundary values); output
// the fine interior: coarse points copy, points between two coarse points average them, cell
// centres average four.
Expr compass_prolong_bilinear(const Level& coarse);
// Operator-dependent interpolation (Dendy's black-box multigrid) from the fine operator:
//   on a coarse row (between coarse points west and east):
//     (aW e_W + aE e_E) / (O - S - N),  aW = W + SW + NW,  aE = E + NE + SE;
//   on a coarse column: (aS e_S + aN e_N) / (O - W - E),  aS = S + SW + SE,  aN = N + NW + NE;
//   at a coarse cell's centre: the fine operator's equation with zero right-hand side solved for
//   the point, from the eight interpolated neighbours: (sum of coupling x neighbour) / O.
// Inputs e (a coarse ring grid), O, W, S, SW, NW (fine ring grids); output the fine interior.
// Two launches: the centres read the values interpolated first.
Expr compass_prolong_operator(const Level& coarse);

} // namespace tessera::multigrid
