// The Lift expressions of the GMG thesis (/work/shared/seeds/lift-gmg-thesis.txt), written in the
// C++ front end in their lowered form (MapGlb/MapWrg/MapLcl/MapSeq, ReduceSeq(Unroll), toGlobal/
// toLocal), as the listings give them, so that each can become one OpenCL kernel.
//
// Every function returns a program (a lambda over typed inputs) for the given sizes; a size may
// be a constant or a size variable (`size("N")`). Grids are indexed [k][j][i] from the outside
// in, as in the thesis's C loops; "Front/Back" are k-1/k+1, "North/South" j-1/j+1 and
// "West/East" i-1/i+1 (Listing 2.8).
//
// Results of the forms that end in MapSeq over a reduction are nested one level deeper than the
// grid ([[f32]_1]_n for 1-D): Data::flatten() gives the values in grid order.
#pragma once

#include "core/Expr.h"
#include "core/arith/ArithExpr.h"

namespace tessera::stencils {

// ---- Chapter 2: the GMG operations ----

// Listing 2.1: out[i] = (x[2i] + x[2i+1]) / 2; n even; result [[f32]_1]_{n/2}.
Expr restrict_1d(ArithExpr n);
// Listing 2.2: out[i][j] = (sum of the 2x2 block at (2i, 2j)) / 4; input n x n, n even.
Expr restrict_2d(ArithExpr n);
// Listing 2.3: out[i][j][k] = (sum of the 2x2x2 block at (2i, 2j, 2k)) / 8; input n^3, n even.
Expr restrict_3d(ArithExpr n);

// Listing 2.4: (input [f32]_n, weights [f32]_2) =>
//   out[2i] = w0*x[i-1] + w1*x[i],  out[2i+1] = w1*x[i] + w0*x[i+1]  (x clamped at the edges);
// with weights [0.25, 0.75] this is linear interpolation onto the grid twice as fine.
// Result [[f32]_1]_{2n}.
Expr prolong_1d(ArithExpr n);
// Listing 2.5: (matrix n^3, weights [[[f32]_2]_2]_2) => the 3-D form of prolong_1d,
//   out[2i+a][2j+b][2k+c] = sum over d, e, f in {0,1} of w[.][.][.] * x[clamped neighbour],
// per dimension the pair (x[i-1], x[i]) with weights (w0, w1) for even outputs and (x[i], x[i+1])
// with (w1, w0) for odd ones; the outer product of [0.25, 0.75] gives trilinear interpolation.
// Result (2n)^3 of [f32]_1.
Expr prolong_3d(ArithExpr n);

// Listing 2.7: (A, B) => out[i] = A[i-1] + A[i] + A[i+1] + B[i-1] + B[i] + B[i+1] (clamped).
Expr multi_input_1d(ArithExpr n);

// Listing 2.8 (the operator of Listing 2.6): inputs alpha, beta_i, beta_j, beta_k, phi, rhs (n^3)
//   res = rhs - a*alpha*phi - b*h2inv*( beta_i[i+1]*(phi[i+1]-phi) - beta_i*(phi-phi[i-1])
//                                      + beta_j[j+1]*(phi[j+1]-phi) - beta_j*(phi-phi[j-1])
//                                      + beta_k[k+1]*(phi[k+1]-phi) - beta_k*(phi-phi[k-1]) )
// with every input clamped at the boundary, so the whole grid including its faces is computed.
// a, b, h2inv become f32 literals of the user function.
Expr residual_3d(ArithExpr n, double a, double b, double h2inv);

// Listing 2.10 (the GSRB step of Listing 2.9): inputs alpha, beta_i, beta_j, beta_k, phi,
// lambda, rhs, mask (n^3; mask is the colour array, 1.0f where a point is updated, else 0.0f)
//   out = mask != 0 ? phi - lambda*(helmholtz - rhs) : phi,
//   helmholtz = a*alpha*phi - b*h2inv*(the bracket of residual_3d).
Expr gsrb_smooth_3d(ArithExpr n, double a, double b, double h2inv);
// The same step with the colour computed by Generate instead of read from a mask input:
// points with (i + j + k + colour) % 2 == 0 are updated (Listing 2.9's condition).
// Inputs alpha, beta_i, beta_j, beta_k, phi, lambda, rhs.
Expr gsrb_smooth_3d_generated(ArithExpr n, double a, double b, double h2inv, int colour);

// ---- Chapter 3 and 4: optimised forms ----

// Listing 3.1: restrict_1d computed in tiles of `tile` elements (n % tile == 0, tile even), one
// tile per work-group; out[i] = (x[2i] + x[2i+1]) / 2, result [[f32]_1]_{n/2}.
Expr tiled_restrict_1d(ArithExpr n, ArithExpr tile);
// Listing 3.2: overlapped tiling of the clamped 3-point sum out[i] = x[i-1] + x[i] + x[i+1];
// each work-group computes tile_out outputs from tile_out + 2 inputs (n % tile_out == 0).
Expr overlapped_tiling_1d(ArithExpr n, ArithExpr tile_out);
// Listing 3.3: two 3-point sums in one kernel by overlapped temporal tiling:
//   p = x padded by 2 with clamp, out[i] = sum over m in 0..2 of (p[i+m] + p[i+m+1] + p[i+m+2]).
// At the two outermost points on each side this is NOT two clamped 3-point sums in a row (the
// thesis pads the input once by 2, so the intermediate sums are not clamped themselves).
Expr temporal_tiling_1d(ArithExpr n);
// Listing 3.4: the same value as Listing 3.3 with the neighbourhoods of a tile joined and summed
// by a single reduction (the additions happen in another order).
Expr temporal_tiling_1d_optimized(ArithExpr n);
// Listing 4.1: (matrix n x n, weights [f32]_4) => weighted 2-D restriction in tile x tile tiles
// loaded to local memory (n % tile == 0, tile even). Like the listing, the result keeps the
// tiled layout: out[ti][tj][a][b] = [(sum over d,e in {0,1} of
//   w[2d+e] * x[ti*tile + 2a + d][tj*tile + 2b + e]) / 4], i.e.
//   [[[[[f32]_1]_{tile/2}]_{tile/2}]_{n/tile}]_{n/tile}.
Expr spatial_tiling_2d(ArithExpr n, ArithExpr tile);

} // namespace tessera::stencils
