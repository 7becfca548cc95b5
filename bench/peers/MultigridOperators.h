// The operators of tessera's multigrid layer (multigrid/Operators.h) as the peers' operators:
// weighted Jacobi with a right-hand side, a red-black Gauss-Seidel half-sweep, the residual, the
// cell-centred restriction by averaging, vertex-centred full weighting and cell-centred linear
// prolongation added to the fine grid, in 2-D and 3-D, f32, with the homogeneous Dirichlet
// boundary (antisymmetric reflection). Each is known by its fine
// grid's extents, n per side (full weighting: n - 1 vertices, odd). The fused red-black step
// (multigrid::gsrb_step) is not among them: its black points read red values that were updated
// next to the boundary, which no single boundary rule over its radius-2 taps reproduces.
#pragma once

#include <string>
#include <vector>

#include "peers/Taps.h"

namespace tessera::peers {

// Every operator, named "mg_<operator>_<d>d" (mg_jacobi_2d, mg_restrict_3d, ...).
std::vector<OperatorAt> multigrid_operators();

// The names of multigrid_operators(), in order.
std::vector<std::string> multigrid_operator_names();

// The operator of that name; Error listing the names for an unknown one.
OperatorAt find_multigrid_operator(const std::string& name);

} // namespace tessera::peers
