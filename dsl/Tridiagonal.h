// Tridiagonal solves along a line, written with the Scan primitive (the Thomas algorithm).
//
// Row i of the system reads lower_i x_{i-1} + diagonal_i x_i + upper_i x_{i+1} = rhs_i
// (lower_0 and upper_{n-1} are ignored). The rows come from a function of the line's element i,
// so that the coefficients are computed where they are used and never stored:
//   c'_i = upper_i / (diagonal_i - lower_i c'_{i-1})                      Scan,  c'_{-1} = 0
//   d'_i = (rhs_i - lower_i d'_{i-1}) / (diagonal_i - lower_i c'_{i-1})    Scan,  d'_{-1} = 0
//   x_i  = d'_i - c'_i x_{i+1}                                          ScanBackward, x_n = 0
// Without pivoting: the system must be diagonally dominant (or otherwise safe for Thomas).
#pragma once

#include <functional>

#include "dsl/Dsl.h"

namespace tessera {

struct TridiagonalRow {
  Val lower, diagonal, upper, rhs; // scalars of one kind
};
using TridiagonalRows = std::function<TridiagonalRow(Val element)>;

// The solution x (an array of `kind` scalars as long as `line`) of the system whose row i is
// rows(line[i]); `kind` is the scalar kind of the coefficients (f32 or f64).
Val thomas_solve(Val line, const TridiagonalRows& rows, ScalarKind kind, Loc loc = Loc::current());

// Where the steps of parallel cyclic reduction run: high-level Maps (the lowering decides, e.g.
// one work-item per line with the arrays in private memory), or the line as one work-group,
// a work-item per row (MapLcl) and every step's arrays in local memory (the caller maps the
// lines with MapWrg).
enum class ReductionPlacement { HighLevel, LocalMemory };

// The same solution by parallel cyclic reduction: ceil(log2 n) steps, each eliminating from
// every row its couplings at distance s = 1, 2, 4, ... (rows outside the line are x = 0:
// lower = upper = rhs = 0, diagonal = 1), then x_i = rhs_i / diagonal_i. O(n log n) work in
// log n parallel steps, where Thomas is O(n) in n sequential ones; the line's length must be a
// constant.
Val pcr_solve(Val line, const TridiagonalRows& rows, ScalarKind kind, ReductionPlacement placement,
              Loc loc = Loc::current());

} // namespace tessera
