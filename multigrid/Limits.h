// What a solve can fit and reach. The memory a single-device solve takes is known from the grid's
// sizes alone: checked before the problem's arrays are made and the hierarchy allocated, a grid
// that does not fit fails at once with what it needs (tools: `solve`) instead of after minutes of
// set-up. The residual a precision can resolve tells a tolerance that no number of cycles reaches
// from a solver that does not converge.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "multigrid/Solver.h"

namespace tessera::multigrid {

struct SolverFootprint {
  double device_bytes = 0;   // every level's buffers, as Solver allocates them
  double largest_buffer = 0; // one finest-level grid
  double host_bytes =
      0; // the problem's arrays (f, the exact solution, coefficients) and the solution read back
};

// For a grid of side n in `dims` dimensions: every level's two solutions, right-hand side and
// residual, with `variable_coefficients` its alpha and beta arrays; mixed precision's f64 copies
// of the finest grid.
SolverFootprint solver_footprint(int dims, int64_t n, Centring centring, bool variable_coefficients,
                                 const SolverOptions& options);

// The relative residual ||f - A u|| / ||f|| below which `precision` cannot go for the solution u
// of `problem`: computing A u rounds each point by about eps times the sum of |A|'s terms times
// |u| (eps of the precision the residual is computed in: f64 for f64 and mixed), so the
// residual's norm stalls near eps |A| ||u|| / ||f||; cycles beyond that only move rounding.
double residual_floor(const Problem& problem, const std::vector<double>& solution,
                      Precision precision);

} // namespace tessera::multigrid
