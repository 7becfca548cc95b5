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
//   stream-nd (Streaming.cpp): work-items marching along one dimension.
// Tiles with a remainder: where no tile size divides the extents (61, say), each one smaller
// than every (constant) extent tiles the grid padded up to its multiple, the padding's results
// dropped: Drop(0, p) $ untile $ ... $ tile(k) $ Pad(0, p, clamp) $ x per padded level (the
// padded elements repeat the last one; only dropped results read them), exact for any f.
#include <algorithm>
#include <optional>

#include "core/Error.h"
#include "core/Fields.h"
#include "core/Substitute.h"
#include "rewrite/Pattern.h"
#include "rewrite/Shapes.h"
#include "rewrite/rules/Rules.h"
#include "rewrite/rules/Windows.h"

namespace tessera::rewrite {

namespace {

// Slide(n, 1) $ x in tiles of u windows with a remainder: x padded by q (clamp) to W + q
// windows, a multiple of u, the q last windows dropped. W = L - n + 1 must be a constant above u.
std::optional<Expr> slide_tiles_with_remainder(const Expr& e, int64_t u, const ArithExpr& L) {
  const SlideFields slide = slide_fields(*e->callee());
  auto n = slide.size.as_constant(), s = slide.step.as_constant();
  if (!n || !s || *s != 1)
    return std::nullopt;
  auto windows = (L - *n + 1).as_constant();
  if (!windows || *windows <= u)
    return std::nullopt;
  const int64_t q = (u - *windows % u) % u;
  Expr padded = call1(make_pad(0, q, Boundary::clamp()), arg0(e));
  Expr tiles = call1(make_slide(u + *n - 1, u), padded);
  Expr joined = call1(make_join(), call1(make_map(MapKind::Map, 0, e->callee()), tiles));
  return call1(make_drop(0, q), joined);
}

RuleResult slide_tiling(const Expr& e, const RuleContext& ctx) {
  if (!is_call_of(e, NodeKind::Slide))
    return RuleResult::none("");
  const SlideFields slide = slide_fields(*e->callee());
  const ArithExpr &n = slide.size, &s = slide.step;
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
  if (r.alternatives.empty() && L.is_constant())
    for (int64_t u : ctx.tile_sizes)
      if (auto tiled = slide_tiles_with_remainder(e, u, L))
        r.alternatives.push_back({*tiled, {{"tile", u}}});
  if (r.alternatives.empty())
    r.why_not = cat("no tile size fits the ", (L - n + s).to_string(),
                    " windows exactly (a tile must divide their number)");
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

bool divides(int64_t k, const ArithExpr& n) {
  return prove_divisible(n, k) == Truth::Yes && prove_lt(k, n) == Truth::Yes;
}

bool divides_all(int64_t k, const std::vector<ArithExpr>& extents) {
  for (const auto& n : extents)
    if (!divides(k, n))
      return false;
  return true;
}

// Why no tile size fits: "3 is not larger than any tile size {4, 8, 16, 32, 64}" for a constant
// extent, "N has no divisor among the tile sizes {4, 8, 16, 32, 64}" for a symbolic one (a tile
// divides an extent and is smaller), else the extents together.
std::string no_common_tile(const std::vector<ArithExpr>& extents, const std::vector<int64_t>& sizes,
                           const char* what) {
  std::string list;
  for (int64_t k : sizes)
    list += cat(list.empty() ? "" : ", ", k);
  // Constant extents take tiles with a remainder: only one not above any size stops them.
  for (const auto& n : extents)
    if (auto c = n.as_constant();
        c && std::none_of(sizes.begin(), sizes.end(), [&](int64_t k) { return k < *c; }))
      return cat(what, " ", *c, " is not larger than any tile size {", list,
                 "} (tiles with a remainder need two)");
  for (const auto& n : extents)
    if (std::none_of(sizes.begin(), sizes.end(), [&](int64_t k) { return divides(k, n); }))
      return cat(what, " ", n.to_string(), " has no divisor among the tile sizes {", list, "}");
  std::string all;
  for (const auto& n : extents)
    all += cat(all.empty() ? "" : "x", n.to_string());
  return cat("no tile size among {", list, "} divides every ", what, " of ", all);
}

// The padding per level that makes every extent a multiple of k: constant extents above k only
// (two tiles at least); nullopt otherwise.
std::optional<std::vector<int64_t>> remainder_padding(int64_t k,
                                                      const std::vector<ArithExpr>& extents) {
  std::vector<int64_t> padding;
  for (const auto& n : extents) {
    auto c = n.as_constant();
    if (!c || *c <= k)
      return std::nullopt;
    padding.push_back((k - *c % k) % k);
  }
  return padding;
}

// The tile sizes of tile-nd and overlapped-tiling-nd with the padding of each level: those that
// divide every extent (no padding) or, where none does, those that fit with a remainder.
std::vector<std::pair<int64_t, std::vector<int64_t>>>
tile_choices(const std::vector<int64_t>& sizes, const std::vector<ArithExpr>& extents) {
  std::vector<std::pair<int64_t, std::vector<int64_t>>> exact, padded;
  for (int64_t k : sizes)
    if (divides_all(k, extents))
      exact.push_back({k, {}});
    else if (auto padding = remainder_padding(k, extents))
      padded.push_back({k, *padding});
  return exact.empty() ? padded : exact;
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
  for (const auto& [k, padding] : tile_choices(ctx.tile_sizes, extents)) {
    Expr tiles = tile_expr(d, k, pad_end_expr(padding, arg0(e)));
    Expr computed = call1(map_nest(d, map_nest(d, body)), tiles);
    r.alternatives.push_back(
        {drop_end_expr(padding, untile_expr(d, computed)), {{"dims", d}, {"tile", k}}});
  }
  if (r.alternatives.empty())
    r.why_not = no_common_tile(extents, ctx.tile_sizes, "extent");
  return r;
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
  bool zipped = false;
  auto inputs = match_stencil_inputs(arg0(e), d, &zipped);
  if (!inputs)
    return RuleResult::none("");
  RuleResult r;
  for (const auto& [k, padding] : tile_choices(ctx.tile_sizes, extents)) {
    // Each windowed input gets its own halo, each plain input (a right-hand side,
    // coefficients) is cut into the same tiles without one.
    std::vector<Expr> tiles, per_tile_parts;
    Expr t = make_param();
    for (std::size_t i = 0; i < inputs->size(); ++i) {
      const StencilInput& in = (*inputs)[i];
      Expr component = zipped ? call1(make_get(static_cast<int>(i)), t) : t;
      Expr base = pad_end_expr(padding, in.base);
      if (in.window) {
        tiles.push_back(slide_nd_expr(d, k + *in.window - 1, k, base));
        per_tile_parts.push_back(slide_nd_expr(d, *in.window, 1, component));
      } else {
        tiles.push_back(tile_expr(d, k, base));
        per_tile_parts.push_back(component);
      }
    }
    auto zip_if = [&](const std::vector<Expr>& parts) {
      return zipped ? zip_nd_expr(d, parts) : parts.front();
    };
    Expr per_tile = make_lambda({t}, call1(map_nest(d, body), zip_if(per_tile_parts)));
    Expr computed = call1(map_nest(d, per_tile), zip_if(tiles));
    r.alternatives.push_back(
        {drop_end_expr(padding, untile_expr(d, computed)), {{"dims", d}, {"tile", k}}});
  }
  if (r.alternatives.empty())
    r.why_not = no_common_tile(extents, ctx.tile_sizes, "number of windows");
  return r;
}

// tile-nd, overlapped-tiling-nd: the tiled dimensions, tiles of a candidate size.
std::vector<ParamDomain> tiled_nd_params(std::vector<int64_t> dims) {
  return {{.name = "dims", .values = std::move(dims)},
          {.name = "tile", .source = ParamDomain::Source::TileSizes}};
}

} // namespace

MappingTraits tiles_dims_param() {
  MappingTraits traits;
  traits.tiled_dims = [](const Params& p) { return static_cast<int>(p.at("dims")); };
  return traits;
}

std::vector<Rule> tiling_rules() {
  std::vector<Rule> tiled = {
      {"slide-tiling",
       "Slide(n,s) -> Join o Map(Slide(n,s)) o Slide(u+n-s, u)",
       slide_tiling,
       {},
       {{.name = "tile", .source = ParamDomain::Source::TileSizes}}},
      {"tile-nd", "Map^d(f) -> untile o Map^d(Map^d(f)) o tile(k)", tile_nd, tiles_dims_param(),
       tiled_nd_params({2, 3})},
      {"overlapped-tiling-nd",
       "Map^d(f) o SlideND(n,1) -> untile o Map^d(Map^d(f) o SlideND(n,1)) o SlideND(k+n-1,k)",
       overlapped_tiling_nd, tiles_dims_param(), tiled_nd_params({1, 2, 3})},
  };
  for (auto& r : tiled) {
    r.family = "tiled";
    r.node_kinds = {NodeKind::Call}; // a call of Slide or of a computing map
  }
  tiled.push_back(stream_nd_rule());
  return tiled;
}

} // namespace tessera::rewrite
