#include "core/TimeTile.h"

#include "core/Error.h"
#include "core/Fields.h"

namespace tessera {

namespace {

// Map^level(g) $ x
Expr at_level(int level, Expr g, const Expr& x) {
  for (int i = 0; i < level; ++i)
    g = make_map(MapKind::Map, 0, g);
  return make_call(g, {x});
}

// The (2r+1)^d neighbourhoods of a d-dimensional array, window levels outermost:
// [w0][w1]..[e0][e1]..  (Slide at every level, then transposes that move the window levels
// out).
Expr neighbourhoods(int d, int64_t r, Expr x) {
  Expr slide = make_slide(2 * r + 1, 1);
  for (int l = 0; l < d; ++l)
    x = at_level(2 * l, slide, x);
  // Levels are now w0 e0 w1 e1 ..; bubble every window level in front of the element levels.
  std::vector<int> labels; // 0: window level, 1: element level
  for (int l = 0; l < d; ++l)
    labels.insert(labels.end(), {0, 1});
  for (std::size_t pass = 0; pass < labels.size(); ++pass)
    for (std::size_t i = 0; i + 1 < labels.size(); ++i)
      if (labels[i] > labels[i + 1]) {
        std::swap(labels[i], labels[i + 1]);
        x = at_level(static_cast<int>(i), make_transpose(), x);
      }
  return x;
}

} // namespace

const char* scheme_name(TimeTileScheme scheme) {
  switch (scheme) {
  case TimeTileScheme::Diamond:
    return "diamond";
  case TimeTileScheme::Parallelogram:
    return "parallelogram";
  case TimeTileScheme::Rolling:
    return "rolling";
  }
  return "unknown";
}

Expr make_time_tile(const TimeTiling& t, Boundary boundary, Expr f) {
  if (!f || !f->is_function())
    user_error("TimeTile: expects a function applied to each neighbourhood");
  require_pad_boundary(boundary, "TimeTile");
  if (t.dims < 1 || t.dims > 3)
    user_error(cat("TimeTile: 1 to 3 dimensions, got ", t.dims));
  if (t.work_group < 1 || t.work_group > 1024)
    user_error(cat("TimeTile: 1 to 1024 work-items per tile, got ", t.work_group));
  if (t.scheme == TimeTileScheme::Rolling && (t.work_group != 1 || t.dims < 2))
    user_error(cat("TimeTile: rolling tiles are one work-item each in 2 or 3 dimensions, got ",
                   t.work_group, " work-items in ", t.dims));
  if (t.radius < 1 || t.steps < 1 || t.band < 1 || t.band > t.steps)
    user_error(cat("TimeTile: needs radius >= 1 and 1 <= band <= steps, got radius ", t.radius,
                   ", band ", t.band, ", steps ", t.steps));
  Node n;
  n.kind = NodeKind::TimeTile;
  n.sizes = {static_cast<int64_t>(t.scheme), t.dims, t.radius, t.steps, t.band, t.work_group};
  for (int l = 0; l < t.dims; ++l) {
    if (t.tile[static_cast<std::size_t>(l)] < 1)
      user_error(
          cat("TimeTile: tile widths must be positive, got ", t.tile[static_cast<std::size_t>(l)]));
    n.sizes.push_back(t.tile[static_cast<std::size_t>(l)]);
  }
  n.boundary = boundary;
  n.children = {std::move(f)};
  return make_node(std::move(n));
}

TimeTiling time_tiling_of(const Node& n) {
  const TimeTileFields f = time_tile_fields(n); // checks the count against dims
  auto value = [](const ArithExpr& size) -> int64_t {
    if (!size.is_constant())
      user_error("TimeTile: its parameters must be constants [scheme, dims, radius, steps, "
                 "band, work-items, tile widths]");
    return size.value();
  };
  TimeTiling t;
  int64_t scheme = value(f.scheme);
  if (scheme < 0 || scheme > 2)
    user_error(cat("TimeTile: scheme 0 (diamond), 1 (parallelogram) or 2 (rolling), got ", scheme));
  t.scheme = static_cast<TimeTileScheme>(scheme);
  t.dims = static_cast<int>(value(f.dims));
  t.radius = value(f.radius);
  t.steps = value(f.steps);
  t.band = value(f.band);
  t.work_group = value(f.work_group);
  if (t.dims < 1 || t.dims > 3)
    user_error(cat("TimeTile: 1 to 3 dimensions with one tile width each, got ", t.dims));
  for (std::size_t l = 0; l < f.tiles.size(); ++l)
    t.tile[l] = value(f.tiles[l]);
  return t;
}

Expr time_tile_steps(const Node& n) {
  TimeTiling t = time_tiling_of(n);
  Expr a = make_param();
  Expr padded = a;
  Expr pad = make_pad(t.radius, t.radius, n.boundary);
  for (int l = 0; l < t.dims; ++l)
    padded = at_level(l, pad, padded);
  Expr f = n.children.at(0);
  for (int l = 0; l < t.dims; ++l)
    f = make_map(MapKind::Map, 0, f);
  Expr step = make_lambda({a}, make_call(f, {neighbourhoods(t.dims, t.radius, padded)}));
  return make_iterate(t.steps, step);
}

} // namespace tessera
