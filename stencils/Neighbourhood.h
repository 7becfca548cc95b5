// Building blocks of the catalog (internal to stencils/): neighbourhood stencils over one grid
// and point formulas whose reads are addressed by their offsets.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/Dsl.h"
#include "stencils/Catalog.h"

namespace tessera::stencils {

// Error unless a `dims`-D stencil got `dims` extents.
void require_dims(const std::vector<ArithExpr>& extents, std::size_t dims, const std::string& name);

// One grid of `kind` elements, padded by `radius` with `boundary` in every dimension; `point`
// is applied to each (2*radius+1)^dims neighbourhood:
//   MapND(point) o SlideND(2r+1, 1) o PadND(r, r, boundary) $ x
// or, for the fixed boundary, fixed_halo(dims, radius, point) $ x (dsl/FixedHalo.h).
Expr neighbourhood_stencil(const std::vector<ArithExpr>& extents, ScalarKind kind, int radius,
                           Boundary boundary, const std::function<Val(Val)>& point);

// The input values a point formula reads, addressed by their offset from the output point,
// outermost dimension first: in 2-D p(-1, 0) is the north neighbour and p(0, 1) the east one.
// Each distinct offset is one parameter of the formula's user function. Points() collects the
// offsets a formula reads; Points(offsets) numbers the parameters by their position in
// `offsets` (point_stencil passes them in row-major order, so that the parameters do not depend
// on the order in which C++ evaluates operands).
class Points {
public:
  Points() = default;
  explicit Points(std::vector<std::vector<int>> offsets)
      : offsets_(std::move(offsets)), fixed_(true) {}
  template <class... Offset> Sym operator()(Offset... offset) {
    return read({static_cast<int>(offset)...});
  }
  const std::vector<std::vector<int>>& offsets() const { return offsets_; }

private:
  Sym read(const std::vector<int>& offset);
  std::vector<std::vector<int>> offsets_;
  bool fixed_ = false;
};

using Formula = std::function<Sym(Points&)>;

// A stencil whose value at each point is `formula` of the input around it: the formula becomes
// one user function `name` of the points it reads (in row-major order), applied to each
// neighbourhood; the radius is the largest offset the formula uses.
Expr point_stencil(const std::string& name, const std::vector<ArithExpr>& extents,
                   Boundary boundary, ScalarKind kind, const Formula& formula);

// The groups of entries, joined by catalog().
std::vector<StencilInfo> suite_1d();
std::vector<StencilInfo> suite_2d();
std::vector<StencilInfo> suite_3d();
std::vector<StencilInfo> life_entries();
std::vector<StencilInfo> multigrid_entries();

} // namespace tessera::stencils
