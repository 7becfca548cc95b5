// The star and box stencils of a given radius (the AN5D benchmark family: star2d1r ... box3d4r),
// written with the public DSL as a weighted_sum over the (2r+1)^d neighbourhood, f32. They are
// not catalog entries (a 729-point box is a large program; the catalog's tests run every entry):
// the large-stencil tests and bench/large_stencils build them here.
#pragma once

#include <string>
#include <vector>

#include "core/Expr.h"
#include "dsl/Dsl.h"
#include "stencils/Catalog.h"

namespace tessera::stencils {

enum class Shape { Star, Box };

// The weights of the (2r+1)^d neighbourhood, row-major: a star keeps the points on the axes
// through the centre, a box all of them. Every kept weight differs from its neighbours (so that a
// wrong offset shows), none factors into per-axis weights unless `separable`, where the weight
// of a box point is the product of one weight per axis (a star is never separable).
std::vector<double> star_box_weights(int dims, int radius, Shape shape, bool separable = false);

// x | pad_nd(r, boundary) | slide_nd(2r+1) | map_nd(weighted_sum(w) / points), over extents
// (a fixed boundary through fixed_halo). The user function is named "star" or "box".
Expr star_box_stencil(const std::vector<ArithExpr>& extents, int radius, Shape shape,
                      Boundary boundary, bool separable = false);

// "star2d1r", "box3d4r": the benchmark family's names.
std::string star_box_name(int dims, int radius, Shape shape);

// The entry of a name of the family (star|box)(1|2|3)d(1-9)r, clamped, and of the separable
// boxes sepbox(1|2|3)d(1-9)r: what find_stencil gives for those names beside the catalog's (they
// are not in catalog(), whose every entry the tests run); nothing for another name.
const StencilInfo* star_box_info(const std::string& name);

} // namespace tessera::stencils
