// What the distributed tests sweep: every catalog stencil whose step can be repeated (one grid
// in, a grid of the same type out), under every boundary kind, at small grids whose blocks stay
// thicker than the deepest halo (radius 3 x 4 steps in 1-D, 2 x 4 in 2-D and 3-D) on 4 ranks.
// Extents differ per dimension and do not divide evenly, so a swapped dimension or an uneven
// split shows.
#pragma once

#include <string>
#include <vector>

#include "core/Error.h"
#include "distributed/Sweep.h"
#include "primitives/TypeCheck.h"
#include "stencils/Catalog.h"
#include "stencils/WithBoundary.h"

namespace tessera::testing {

inline const std::vector<std::string>& boundary_kinds() {
  static const std::vector<std::string> kinds{"clamp", "mirror", "wrap", "constant(1.5)",
                                              "antisymmetric"};
  return kinds;
}

inline std::vector<int64_t> sweep_extents(int dims) {
  if (dims == 1)
    return {58};
  if (dims == 2)
    return {21, 18};
  return {17, 16, 5};
}

// The catalog entries a sweep repeats.
inline std::vector<stencils::StencilInfo> sweepable_stencils() {
  std::vector<stencils::StencilInfo> found;
  for (const auto& info : stencils::catalog()) {
    if (info.inputs != 1)
      continue;
    auto e = sweep_extents(info.dims);
    try {
      Expr p = info.build(std::vector<ArithExpr>(e.begin(), e.end()));
      if (input_types(p).at(0) == infer_type(p))
        found.push_back(info);
    } catch (const Error&) {
      // an entry for other grids (the thesis's cubic multigrid operators)
    }
  }
  return found;
}

inline distributed::StencilBuilder with_boundary_builder(const stencils::StencilInfo& info,
                                                         const std::string& boundary) {
  auto b = stencils::parse_boundary(boundary);
  return [build = info.build, b](const std::vector<ArithExpr>& extents) {
    return stencils::with_boundary(build(extents), b);
  };
}

} // namespace tessera::testing
