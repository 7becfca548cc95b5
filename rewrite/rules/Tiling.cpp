// Tiling rules.
//
//   slide-tiling (overlapped tiling, 1-D):
//     Slide(n, s) $ x -> Join $ Map(Slide(n, s)) $ Slide(u + n - s, u) $ x
//     when s | u and u | (L - n + s): tiles of u/s windows that overlap by n - s elements.
//   tile-nd (split-join in d dimensions, d >= 2):
//     Map^d(f) $ x -> untile_d $ Map^d(Map^d(f)) $ tile_d(k) $ x      k divides every extent
//   overlapped-tiling-nd (d >= 1): the neighbourhoods of a tile come from one input tile with a
//   halo, which the lowering can stage in local memory:
//     Map^d(f) $ SlideND(n, 1) $ x
//       -> untile_d $ Map^d(t => Map^d(f) $ SlideND(n, 1) $ t) $ SlideND(k + n - 1, k) $ x
//   and with zipped inputs (windowed ones with their halos, plain ones in tiles of k):
//     Map^d(f) $ ZipND(SlideND(n, 1) $ x, c)
//       -> untile_d $ Map^d(t => Map^d(f) $ ZipND(SlideND(n,1) $ t.0, t.1))
//                  $ ZipND(SlideND(k + n - 1, k) $ x, tile_d(k) $ c)
#include <optional>

#include "core/Error.h"
#include "core/Substitute.h"
#include "rewrite/Pattern.h"
#include "rewrite/Shapes.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

RuleResult slide_tiling(const Expr& e, const RuleContext& ctx) {
  if (!is_call_of(e, NodeKind::Slide))
    return RuleResult::none("");
  const ArithExpr& n = e->callee()->sizes[0];
  const ArithExpr& s = e->callee()->sizes[1];
  const ArithExpr& L = ctx.type_of(arg0(e)).length();
  RuleResult r;
  for (int64_t u : ctx.tile_sizes) {
    if (prove_divisible(u, s) != Truth::Yes || prove_divisible(L - n + s, u) != Truth::Yes ||
        prove_lt(u + n - s, L) != Truth::Yes)
      continue;
    Expr tiles = call1(make_slide(u + n - s, u), arg0(e));
    Expr windows = call1(make_map(MapKind::Map, 0, e->callee()), tiles);
    r.alternatives.push_back({call1(make_join(), windows), {{"tile", u}}});
  }
  if (r.alternatives.empty())
    r.why_not = "no candidate tile fits the windows exactly";
  return r;
}

// The extents of the d outer levels of a value's type.
std::vector<ArithExpr> outer_extents(const Type& t, int d) {
  std::vector<ArithExpr> ext;
  const Type* cur = &t;
  for (int i = 0; i < d && cur->is_array(); ++i, cur = &cur->element())
    ext.push_back(cur->length());
  return ext;
}

bool divides_all(int64_t k, const std::vector<ArithExpr>& extents) {
  for (const auto& n : extents)
    if (prove_divisible(n, k) != Truth::Yes || prove_lt(k, n) != Truth::Yes)
      return false;
  return true;
}

RuleResult tile_nd(const Expr& e, const RuleContext& ctx) {
  if (!is_computing_map_call(e))
    return RuleResult::none("");
  Expr f;
  int d = map_depth(e->callee(), &f);
  if (d < 2)
    return RuleResult::none("");
  d = std::min(d, 3);
  // The function under d maps (deeper maps stay inside it).
  Expr body = e->callee();
  for (int i = 0; i < d; ++i)
    body = body->children[0];
  auto extents = outer_extents(ctx.type_of(arg0(e)), d);
  RuleResult r;
  for (int64_t k : ctx.tile_sizes) {
    if (!divides_all(k, extents))
      continue;
    Expr computed = call1(map_nest(d, map_nest(d, body)), tile_expr(d, k, arg0(e)));
    r.alternatives.push_back({untile_expr(d, computed), {{"dims", d}, {"tile", k}}});
  }
  if (r.alternatives.empty())
    r.why_not = "no candidate tile divides every extent";
  return r;
}

// Finds x and n such that `a` is SlideND(n, 1) $ x over d levels: walks down the chain of
// layout calls and tries each value below a Slide as the base.
bool match_slide_nd(const Expr& a, int d, Expr* x, ArithExpr* n) {
  std::optional<ArithExpr> size;
  Expr cur = a;
  while (cur->kind == NodeKind::Call && cur->children.size() == 2 &&
         is_layout_only(cur->callee())) {
    Expr inner;
    map_depth(cur->callee(), &inner);
    if (inner->kind == NodeKind::Slide)
      size = inner->sizes[0];
    cur = arg0(cur);
    if (size && structurally_equal(slide_nd_expr(d, *size, 1, cur), a)) {
      *x = cur;
      *n = *size;
      return true;
    }
  }
  return false;
}

// The components of ZipND(parts..) over d levels, or nothing.
std::optional<std::vector<Expr>> match_zip_nd(const Expr& a, int d) {
  Expr zip = a;
  if (d > 1) {
    if (zip->kind != NodeKind::Call || zip->children.size() != 2)
      return std::nullopt;
    zip = arg0(zip);
  }
  if (zip->kind != NodeKind::Call || zip->callee()->kind != NodeKind::Zip)
    return std::nullopt;
  auto parts = zip->call_args();
  if (parts.size() < 2 || !structurally_equal(zip_nd_expr(d, parts), a))
    return std::nullopt;
  return parts;
}

RuleResult overlapped_tiling_nd(const Expr& e, const RuleContext& ctx) {
  if (!is_computing_map_call(e))
    return RuleResult::none("");
  Expr f;
  int d = std::min(map_depth(e->callee(), &f), 3);
  Expr body = e->callee();
  for (int i = 0; i < d; ++i)
    body = body->children[0];
  auto extents = outer_extents(ctx.type_of(arg0(e)), d); // number of windows per dimension
  RuleResult r;
  Expr x;
  ArithExpr n;
  if (match_slide_nd(arg0(e), d, &x, &n)) {
    for (int64_t k : ctx.tile_sizes) {
      if (!divides_all(k, extents))
        continue;
      Expr t = make_param();
      Expr per_tile = make_lambda({t}, call1(map_nest(d, body), slide_nd_expr(d, n, 1, t)));
      Expr computed = call1(map_nest(d, per_tile), slide_nd_expr(d, k + n - 1, k, x));
      r.alternatives.push_back({untile_expr(d, computed), {{"dims", d}, {"tile", k}}});
    }
  } else if (auto parts = match_zip_nd(arg0(e), d)) {
    // Zipped inputs: each windowed input gets its own halo, each plain input (a right-hand
    // side, coefficients) is cut into the same tiles without one.
    std::vector<std::optional<std::pair<Expr, ArithExpr>>> windowed;
    bool any = false;
    for (const auto& part : *parts) {
      Expr base;
      ArithExpr size;
      if (match_slide_nd(part, d, &base, &size)) {
        windowed.push_back(std::make_pair(base, size));
        any = true;
      } else {
        windowed.push_back(std::nullopt);
      }
    }
    if (!any)
      return RuleResult::none("");
    for (int64_t k : ctx.tile_sizes) {
      if (!divides_all(k, extents))
        continue;
      std::vector<Expr> tiles, per_tile_parts;
      Expr t = make_param();
      for (std::size_t i = 0; i < parts->size(); ++i) {
        Expr component = call1(make_get(static_cast<int>(i)), t);
        if (windowed[i]) {
          auto [base, size] = *windowed[i];
          tiles.push_back(slide_nd_expr(d, k + size - 1, k, base));
          per_tile_parts.push_back(slide_nd_expr(d, size, 1, component));
        } else {
          tiles.push_back(tile_expr(d, k, (*parts)[i]));
          per_tile_parts.push_back(component);
        }
      }
      Expr per_tile = make_lambda({t}, call1(map_nest(d, body), zip_nd_expr(d, per_tile_parts)));
      Expr computed = call1(map_nest(d, per_tile), zip_nd_expr(d, tiles));
      r.alternatives.push_back({untile_expr(d, computed), {{"dims", d}, {"tile", k}}});
    }
  } else {
    return RuleResult::none("");
  }
  if (r.alternatives.empty())
    r.why_not = "no candidate tile divides the number of windows";
  return r;
}

// stream-nd: a work-item marches along the outermost dimension over a sequence of windows,
// which the code generator turns into a window rotated in private memory (each element loaded
// once). Neighbouring work-items take neighbouring columns, so their loads coalesce.
//  2-D (column marching, segments of c rows per work-item):
//    Map^2(f) $ Slide2D(n,1) $ x
//      -> Transpose $ Map(Join) $ Map(col => Map(seg => Map(f) $ Slide(n,1) $ seg)
//                                              $ Slide(c+n-1, c) $ col)
//           $ Transpose $ Map(row => Slide(n,1) $ row) $ x
//  3-D (2.5-D: a 2-D grid of work-items marching along z, the whole column or segments of c
//  planes, so that a third grid dimension of work-items keeps a large GPU busy; optionally
//  several results along x per work-item, sharing their loads: stream_3d):
//    Map^3(f) $ Slide3D(n,1) $ x
//      -> Transpose $ Map(Transpose) $ Map(Map(march)) $ Map(Transpose) $ Transpose
//           $ Map(plane => Slide2D(n,1) $ plane) $ x
//    march = col => Map(f) $ Slide(n,1) $ col, or with segments
//    march = col => Join $ Map(seg => Map(f) $ Slide(n,1) $ seg) $ Slide(c+n-1, c) $ col

// The 2.5-D form of stream-nd (see above) with `factor` results along x per work-item and the
// column marched whole (segment 0) or in segments of `segment` planes. With factor c > 1 a
// work-item's window is n planes of n x (n+c-1) values, and each step computes c results:
//   planes  = Map(plane => Map(Transpose) $ Slide(n,1) $ Map(Slide(n+c-1, c)) $ plane) $ x
//   step    = w => Map(f) $ Transpose $ Map(Transpose) $ Map(Map(Slide(n,1))) $ w
//   march   = col => Map(step) $ Slide(n,1) $ col   (or in segments, as in 2-D)
//   result  = Transpose $ Map(Map(Join)) $ Map(Transpose) $ Map^2(march) $ columns
Expr stream_3d(const Expr& f, const Expr& x, const ArithExpr& n, int64_t factor, int64_t segment) {
  Expr plane = make_param();
  Expr plane_windows =
      factor == 1 ? slide_nd_expr(2, n, 1, plane)
                  : windows_nd_expr(
                        2,
                        [&](int level) {
                          return level == 0 ? make_slide(n, 1) : make_slide(n + factor - 1, factor);
                        },
                        plane);
  Expr planes = call1(make_map(MapKind::Map, 0, make_lambda({plane}, plane_windows)), x);
  Expr columns =
      call1(make_map(MapKind::Map, 0, make_transpose()), call1(make_transpose(), planes));
  Expr step = f;
  if (factor > 1) {
    Expr w = make_param();
    Expr split = call1(map_nest(2, make_slide(n, 1)), w); // [n][n][c][n]
    Expr regrouped =
        call1(make_transpose(), call1(make_map(MapKind::Map, 0, make_transpose()), split));
    step = make_lambda({w}, call1(make_map(MapKind::Map, 0, f), regrouped));
  }
  auto march_over = [&](const Expr& col) {
    return call1(make_map(MapKind::Map, 0, step), call1(make_slide(n, 1), col));
  };
  Expr col = make_param();
  Expr computed; // [y'][x''][z'] (factor 1) or [y'][x''][z'][c]
  if (segment == 0) {
    computed = call1(map_nest(2, make_lambda({col}, march_over(col))), columns);
  } else {
    Expr seg = make_param();
    Expr per_segment = make_lambda({seg}, march_over(seg));
    Expr per_column = make_lambda({col}, call1(make_map(MapKind::Map, 0, per_segment),
                                               call1(make_slide(segment + n - 1, segment), col)));
    computed = call1(map_nest(2, make_join()), call1(map_nest(2, per_column), columns));
  }
  Expr by_plane = call1(make_map(MapKind::Map, 0, make_transpose()), computed); // [y'][z'][x'']..
  if (factor > 1)
    by_plane = call1(map_nest(2, make_join()), by_plane);
  return call1(make_transpose(), by_plane);
}

RuleResult stream_nd(const Expr& e, const RuleContext& ctx) {
  if (!is_computing_map_call(e))
    return RuleResult::none("");
  Expr f;
  int d = map_depth(e->callee(), &f);
  if (d != 2 && d != 3)
    return RuleResult::none("");
  Expr x;
  ArithExpr n;
  if (!match_slide_nd(arg0(e), d, &x, &n))
    return RuleResult::none("");
  RuleResult r;
  if (d == 3) {
    const Type& windows = ctx.type_of(arg0(e));
    const ArithExpr& depth = windows.length();                     // outputs per column
    const ArithExpr& width = windows.element().element().length(); // outputs per row
    std::vector<int64_t> factors{1}, segments{0};
    for (int64_t factor : ctx.coarsening)
      if (factor > 1 && prove_divisible(width, factor) == Truth::Yes)
        factors.push_back(factor);
    for (int64_t c : ctx.tile_sizes)
      if (prove_divisible(depth, c) == Truth::Yes && depth.as_constant() != c)
        segments.push_back(c);
    for (int64_t factor : factors)
      for (int64_t segment : segments) {
        Params params{{"dims", 3}};
        if (segment)
          params["segment"] = segment;
        if (factor > 1)
          params["factor"] = factor;
        r.alternatives.push_back({stream_3d(f, x, n, factor, segment), params});
      }
    return r;
  }
  const ArithExpr& height = ctx.type_of(arg0(e)).length(); // outputs per column
  Expr row = make_param();
  Expr rows = call1(make_map(MapKind::Map, 0, make_lambda({row}, slide_nd_expr(1, n, 1, row))), x);
  Expr columns = call1(make_transpose(), rows); // [x][y'] of horizontal neighbourhoods
  for (int64_t c : ctx.tile_sizes) {
    if (prove_divisible(height, c) != Truth::Yes)
      continue;
    Expr seg = make_param();
    Expr march =
        make_lambda({seg}, call1(make_map(MapKind::Map, 0, f), call1(make_slide(n, 1), seg)));
    Expr col = make_param();
    Expr per_column = make_lambda(
        {col}, call1(make_map(MapKind::Map, 0, march), call1(make_slide(c + n - 1, c), col)));
    Expr computed = call1(make_map(MapKind::Map, 0, per_column), columns);
    Expr out = call1(make_transpose(), call1(make_map(MapKind::Map, 0, make_join()), computed));
    r.alternatives.push_back({out, {{"dims", 2}, {"segment", c}}});
  }
  if (r.alternatives.empty())
    r.why_not = "no candidate segment length divides the column";
  return r;
}

} // namespace

std::vector<Rule> tiling_rules() {
  return {
      {"slide-tiling", "Slide(n,s) -> Join o Map(Slide(n,s)) o Slide(u+n-s, u)", slide_tiling},
      {"tile-nd", "Map^d(f) -> untile o Map^d(Map^d(f)) o tile(k)", tile_nd},
      {"overlapped-tiling-nd",
       "Map^d(f) o SlideND(n,1) -> untile o Map^d(Map^d(f) o SlideND(n,1)) o SlideND(k+n-1,k)",
       overlapped_tiling_nd},
      {"stream-nd", "Map^d(f) o SlideND(n,1) -> work-items marching along one dimension",
       stream_nd},
  };
}

} // namespace tessera::rewrite
