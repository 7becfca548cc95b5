#include "stencils/StarBox.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>

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

const StencilInfo* star_box_info(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, StencilInfo> made; // entries stay where they are (node-based)
  std::smatch m;
  static const std::regex form("(sep)?(star|box)([123])d([1-9])r");
  if (!std::regex_match(name, m, form) || (m[1].matched && m[2] == "star"))
    return nullptr;
  std::lock_guard lock(mutex);
  if (auto it = made.find(name); it != made.end())
    return &it->second;
  const Shape shape = m[2] == "box" ? Shape::Box : Shape::Star;
  const int dims = std::stoi(m[3]), radius = std::stoi(m[4]);
  const bool separable = m[1].matched;
  int points = 0;
  for (double w : star_box_weights(dims, radius, shape))
    points += w != 0;
  StencilInfo info;
  info.name = name;
  info.description =
      cat(dims, "-D ", shape == Shape::Box ? "box" : "star", " of radius ", radius, " (", points,
          separable ? " points, weights that are products of one weight per axis"
                    : " points, weights that differ from point to point",
          ", the sum divided by their total; stencils/StarBox.h)");
  info.dims = dims;
  info.build = [=](const std::vector<ArithExpr>& extents) {
    require_dims(extents, static_cast<std::size_t>(dims), name);
    return star_box_stencil(extents, radius, shape, clamp, separable);
  };
  info.radius = radius;
  info.points = points;
  info.bytes_per_cell = 8;
  return &made.emplace(name, std::move(info)).first->second;
}

} // namespace tessera::stencils
