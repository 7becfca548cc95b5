#include "stencils/StarBox.h"

#include <cstdlib>

#include "core/Error.h"
#include "stencils/Neighbourhood.h"

namespace tessera::stencils {

std::vector<double> star_box_weights(int dims, int radius, Shape shape, bool separable) {
  if (dims < 1 || radius < 1)
    user_error(cat("a star or box stencil needs dims >= 1 and radius >= 1, got ", dims,
                   "-D of "
                   "radius ",
                   radius));
  const int side = 2 * radius + 1;
  int points = 1;
  for (int d = 0; d < dims; ++d)
    points *= side;
  std::vector<double> w(static_cast<std::size_t>(points), 0.0);
  for (int k = 0; k < points; ++k) {
    int off_axis = 0;
    double product = 1;
    for (int d = 0, rest = k; d < dims; ++d, rest /= side) {
      int o = rest % side - radius;
      off_axis += o != 0;
      product *= 1.0 + 0.25 * (std::abs(o) + d) + (o < 0 ? 0.125 : 0.0);
    }
    if (shape == Shape::Star && off_axis > 1)
      continue;
    w[static_cast<std::size_t>(k)] =
        separable && shape == Shape::Box ? product : 1.0 + (k * 7 % 11) * 0.125;
  }
  return w;
}

Expr star_box_stencil(const std::vector<ArithExpr>& extents, int radius, Shape shape,
                      Boundary boundary, bool separable) {
  const int dims = static_cast<int>(extents.size());
  std::vector<double> w = star_box_weights(dims, radius, shape, separable);
  double total = 0;
  for (double x : w)
    total += x;
  const char* name = shape == Shape::Box ? "box" : "star";
  return neighbourhood_stencil(extents, ScalarKind::F32, radius, boundary,
                               [=](Val n) { return (weighted_sum(n, w) / total).named(name); });
}

std::string star_box_name(int dims, int radius, Shape shape) {
  return cat(shape == Shape::Box ? "box" : "star", dims, "d", radius, "r");
}

} // namespace tessera::stencils
