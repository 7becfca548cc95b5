// Overlapped temporal tiling: k time steps of a stencil fused into one kernel.
//
// A step is  S(a) = Map^d(f) $ SlideND(2r+1, 1) $ PadND(r, r, b) $ a, or with constant inputs
// (a right-hand side) zipped to the neighbourhoods:  Map^d(f) $ ZipND(SlideND $ PadND $ a, c..).
// The rule matches k such steps in a row (the same radius, boundary kind and constant inputs; the
// function and a constant boundary's value may differ from step to step, as in the passes of
// separate-axes) and computes S^k(x) tile by tile: a tile of T^d results reads a tile of the input
// with a halo of k*r and recomputes the intermediate steps on its halo, shrinking by r per step.
//
// The boundary is handled at every step, as in the unfused program. The intermediate value at
// a position p outside the grid is the value at the boundary's source position b(p), not a
// value computed from further-out input (padding the input once by k*r would compute that, and
// change the result near the boundary). So:
//   - layer 1 (the first step's values on the tile plus a halo of (k-1)r) is computed from the
//     first step's neighbourhoods padded by (k-1)r with b: PadND(b) $ Map^d(f) $ W equals
//     Map^d(f) $ PadND(b) $ W for the position-remapping boundaries, so a value in the halo is
//     f of the neighbourhood of its source position;
//   - layer j+1 reads layer j through TileSlide, the neighbourhoods of a tile with the boundary
//     applied to each neighbourhood's centre (primitives/TileSlide.cpp);
//   - constant(c): positions outside the grid hold c; layers are computed as for clamp and a
//     flag tile (PadND(constant 0) of ones) selects c outside the grid;
//   - antisymmetric: a position outside the grid holds the negated value at its mirror position
//     (negated once per dimension it lies outside), and PadND(b) o Map^d(f) = Map^d(f) o PadND(b)
//     holds only for an odd f. So layers are computed as for mirror (the value at the mirror
//     position) and a sign tile (PadND(antisymmetric) of ones: -1 or 1) negates them outside
//     the grid; a negation is exact, so the results stay bit-identical;
//   - wrap: padding the input once by k*r is exact (a periodic grid has no boundary), which is
//     the thesis's form (Listings 3.3/3.4), and it is used for wrap only.
//
//   S^k(x) -> untile $ Map^d(tile => layers..) $ ZipND(SlideND(T + 2(k-1)r, T) $ PadND((k-1)r)
//                                                       $ W1, const tiles.., flags.., t_0..)
#include "core/Error.h"
#include "core/Substitute.h"
#include "rewrite/Normalize.h"
#include "rewrite/Pattern.h"
#include "rewrite/Shapes.h"
#include "rewrite/rules/Rules.h"
#include "rewrite/rules/StencilStep.h"
#include "rewrite/rules/StencilSteps.h"

namespace tessera::rewrite {

namespace {

using Step = StencilStep;

// An nd array of the tile indices of dimension `dim`: element (t_0, .., t_{d-1}) is t_dim.
Expr tile_index_grid(const std::vector<ArithExpr>& tiles, int dim) {
  std::vector<Expr> params;
  for (std::size_t i = 0; i < tiles.size(); ++i)
    params.push_back(make_param());
  Expr value = params[static_cast<std::size_t>(dim)];
  for (int i = static_cast<int>(tiles.size()) - 1; i >= 0; --i) {
    Expr gen = make_generate(tiles[static_cast<std::size_t>(i)],
                             make_lambda({params[static_cast<std::size_t>(i)]}, value));
    value = make_call(gen, {});
  }
  return value;
}

// An nd array of i32 ones of the given extents (the inside of a flag grid).
Expr ones_grid(const std::vector<ArithExpr>& extents) {
  Expr value = make_literal(ScalarValue::make(ScalarKind::I32, 1));
  for (int i = static_cast<int>(extents.size()) - 1; i >= 0; --i)
    value = make_call(
        make_generate(extents[static_cast<std::size_t>(i)], make_lambda({make_param()}, value)),
        {});
  return value;
}

// (flag, v) -> flag != 0 ? v : c
Expr inside_or(const ScalarValue& c) {
  auto def = std::make_shared<UserFunDef>();
  def->name = "inside_or_constant";
  def->arity = 2;
  def->body = ScalarExpr::select(
      ScalarExpr::binary(ScalarOp::Ne, ScalarExpr::param(0),
                         ScalarExpr::constant(ScalarValue::make(ScalarKind::I32, 0), false)),
      ScalarExpr::param(1), ScalarExpr::constant(c, true)); // weak: c adapts to the grid
  return make_user_fun(def);
}

// (sign, v) -> sign < 0 ? -v : v
Expr negated_outside() {
  auto def = std::make_shared<UserFunDef>();
  def->name = "negated_outside";
  def->arity = 2;
  def->body = ScalarExpr::select(
      ScalarExpr::binary(ScalarOp::Lt, ScalarExpr::param(0),
                         ScalarExpr::constant(ScalarValue::make(ScalarKind::I32, 0), false)),
      ScalarExpr::unary(ScalarOp::Neg, ScalarExpr::param(1)), ScalarExpr::param(1));
  return make_user_fun(def);
}

// Map^d(f) over `arg`; with a flag tile, c outside the grid: Map^d(q => sel(q.1, f(q.0))); with
// a sign tile (antisymmetric), the value negated outside the grid.
Expr apply_step(const Step& s, const Expr& arg, const Expr& flags) {
  if (!flags)
    return call1(map_nest(s.d, s.f), arg);
  Expr q = make_param();
  Expr value = call1(s.f, call1(make_get(0), q));
  Expr outside = negates_outside(s.boundary) ? negated_outside() : inside_or(s.boundary.value);
  Expr selected = make_call(outside, {call1(make_get(1), q), std::move(value)});
  return call1(map_nest(s.d, make_lambda({q}, selected)), zip_nd_expr(s.d, {arg, flags}));
}

// Overlapping tiles of T[l] + 2*halo elements with step T[l] in each level l.
Expr tiles_with_halo(int d, const std::vector<int64_t>& T, const ArithExpr& halo, const Expr& x) {
  return windows_nd_expr(
      d,
      [&](int l) {
        int64_t t = T[static_cast<std::size_t>(l)];
        return make_slide(t + 2 * halo, t);
      },
      x);
}

// The fused form of the k steps `steps` (innermost first, of one shape: StepsAlike::SameShape),
// with tiles of T[l] results in dimension l.
Expr fuse(const std::vector<Step>& steps, const std::vector<int64_t>& T,
          const std::vector<ArithExpr>& N) {
  const Step& s = steps.back();        // the shape every step shares
  const Expr& x = steps.front().input; // the grid the first step reads
  const Expr& first_windows = steps.front().windows;
  const int k = static_cast<int>(steps.size());
  // Layer j: step j's function; outside the grid, the value the next step pads it with.
  auto layer_step = [&](int j) {
    Step layer = steps[static_cast<std::size_t>(j)];
    layer.boundary = steps[static_cast<std::size_t>(std::min(j + 1, k - 1))].boundary;
    return layer;
  };
  const int d = s.d;
  const ArithExpr& r = s.r;
  std::vector<ArithExpr> tiles;
  for (std::size_t l = 0; l < N.size(); ++l)
    tiles.push_back(N[l] / T[l]);
  // Tiles of the constant inputs for layer j (0-based: layer j has halo (k-1-j)r).
  auto const_tiles = [&](const Expr& c, const ArithExpr& halo, Boundary b) {
    return tiles_with_halo(d, T, halo, pad_nd_expr(d, halo, halo, b, c));
  };
  std::vector<Expr> outer; // zipped per tile: the tile, constant tiles, flag tiles, indices
  Expr per_tile;
  Expr p = make_param();
  // Without constant inputs a wrap tile is the only component: no Zip around it.
  const bool tile_only = s.boundary.kind == Boundary::Wrap && s.consts.empty();
  auto component = [&](std::size_t i) {
    return tile_only ? p : call1(make_get(static_cast<int>(i)), p);
  };

  if (s.boundary.kind == Boundary::Wrap) {
    ArithExpr halo = k * r;
    outer.push_back(tiles_with_halo(d, T, halo, pad_nd_expr(d, halo, halo, s.boundary, x)));
    for (int j = 0; j < k; ++j)
      for (const auto& c : s.consts)
        outer.push_back(const_tiles(c, (k - 1 - j) * r, s.boundary));
    Expr layer = component(0);
    std::size_t next = 1;
    for (int j = 0; j < k; ++j) {
      Expr win = slide_nd_expr(d, s.n, 1, layer);
      if (!s.consts.empty()) {
        std::vector<Expr> parts{win};
        for (std::size_t c = 0; c < s.consts.size(); ++c)
          parts.push_back(component(next++));
        win = zip_nd_expr(d, parts);
      }
      layer = apply_step(layer_step(j), win, {});
    }
    per_tile = make_lambda({p}, layer);
  } else {
    const bool constant = s.boundary.kind == Boundary::Constant;
    const bool flagged = constant || negates_outside(s.boundary); // flag or sign tiles
    Boundary positions = constant                      ? Boundary::clamp()
                         : negates_outside(s.boundary) ? Boundary::mirror()
                                                       : s.boundary;
    // Flags are 1 inside the grid, 0 (constant) or -1 (antisymmetric, per dimension) outside.
    Boundary flag_boundary =
        constant ? Boundary::constant(ScalarValue::make(ScalarKind::I32, 0)) : s.boundary;
    ArithExpr h1 = (k - 1) * r;
    outer.push_back(tiles_with_halo(d, T, h1, pad_nd_expr(d, h1, h1, positions, first_windows)));
    std::vector<std::vector<std::size_t>> const_index(k); // layer -> components
    for (int j = 1; j < k; ++j)
      for (const auto& c : s.consts) {
        const_index[j].push_back(outer.size());
        outer.push_back(const_tiles(c, (k - 1 - j) * r, positions));
      }
    std::vector<std::size_t> flag_index(k, 0);
    if (flagged)
      for (int j = 0; j + 1 < k; ++j) {
        flag_index[j] = outer.size();
        ArithExpr halo = (k - 1 - j) * r;
        outer.push_back(
            tiles_with_halo(d, T, halo, pad_nd_expr(d, halo, halo, flag_boundary, ones_grid(N))));
      }
    std::vector<Expr> tile_index;
    for (int i = 0; i < d; ++i) {
      tile_index.push_back(component(outer.size()));
      outer.push_back(tile_index_grid(tiles, i));
    }
    auto flags = [&](int j) { return flagged && j + 1 < k ? component(flag_index[j]) : Expr(); };
    Expr layer = apply_step(layer_step(0), component(0), flags(0));
    for (int j = 1; j < k; ++j) {
      ArithExpr halo = (k - j) * r; // of the layer read
      Expr win = windows_nd_expr(
          d,
          [&](int level) {
            Expr a = make_param();
            auto l = static_cast<std::size_t>(level);
            Expr slide = make_tile_slide(s.n, r, N[l], T[l], halo, positions);
            return make_lambda({a}, make_call(slide, {a, tile_index[level]}));
          },
          layer);
      if (!s.consts.empty()) {
        std::vector<Expr> parts{win};
        for (auto c : const_index[j])
          parts.push_back(component(c));
        win = zip_nd_expr(d, parts);
      }
      layer = apply_step(layer_step(j), win, flags(j));
    }
    per_tile = make_lambda({p}, layer);
  }
  Expr computed =
      call1(map_nest(d, per_tile), outer.size() == 1 ? outer[0] : zip_nd_expr(d, outer));
  return untile_expr(d, computed);
}

RuleResult temporal_tiling(const Expr& e, const RuleContext& ctx) {
  std::vector<Step> chain = match_steps(e, 8, StepsAlike::SameShape);
  if (chain.empty())
    return RuleResult::none("");
  if (chain.size() < 2)
    return RuleResult::none("a single stencil step (temporal tiling fuses two or more)");
  const Step* top = &chain.front();
  const int d = top->d;
  // A step keeps the extents of its grid (the matched nodes are normalised copies: the type
  // checker knows only e).
  auto N = extents_of(ctx.type_of(e), d);
  RuleResult result;
  std::string why;
  for (int64_t k : ctx.temporal_steps) {
    if (k < 2 || k > static_cast<int64_t>(chain.size()))
      continue;
    const std::vector<Step> steps(chain.rend() - k, chain.rend()); // innermost first
    // Square tiles T^d, and in 2-D/3-D tiles 4x wider in the innermost (contiguous)
    // dimension, whose rows make longer coalesced reads.
    for (int64_t T : ctx.tile_sizes)
      for (int64_t widen : {int64_t{1}, int64_t{4}}) {
        if (widen > 1 && d == 1)
          continue;
        std::vector<int64_t> tile(static_cast<std::size_t>(d), T);
        tile.back() = T * widen;
        bool fits = true;
        for (std::size_t l = 0; l < N.size(); ++l) {
          fits = fits && prove_divisible(N[l], tile[l]) == Truth::Yes &&
                 prove_lt(tile[l], N[l]) == Truth::Yes;
          if (top->boundary.kind != Boundary::Clamp && top->boundary.kind != Boundary::Constant)
            fits = fits && prove_le(k * top->r, N[l]) == Truth::Yes;
        }
        // TileSlide reads the boundary's source positions inside the tile: T >= (k-1)r.
        fits = fits && prove_le((k - 1) * top->r, T) == Truth::Yes;
        if (!fits) {
          why = "no candidate tile divides the grid and covers the halo of the fused steps";
          continue;
        }
        Expr fused = fuse(steps, tile, N);
        Params params{{"dims", d}, {"steps", k}, {"tile", T}};
        if (widen > 1)
          params["tile_inner"] = T * widen;
        result.alternatives.push_back({fused, params});
      }
  }
  if (result.alternatives.empty())
    result.why_not = why.empty() ? "no candidate number of steps" : why;
  return result;
}

} // namespace

std::optional<StencilSteps> match_stencil_steps(const Expr& e) {
  auto top = match_step(e);
  if (!top)
    return std::nullopt;
  StencilSteps chain{top->d, top->f, top->r, top->boundary, top->input, 1, !top->consts.empty()};
  while (chain.count < 8) {
    auto next = match_step(chain.input);
    if (!next || !steps_alike(*next, *top, StepsAlike::Equal))
      break;
    chain.input = next->input;
    ++chain.count;
  }
  return chain;
}

std::vector<Rule> temporal_rules() {
  // Both match a call of the top step's map (match_steps).
  return {at_kinds(with_family(
                       {"temporal-tiling",
                        "S^k $ x -> untile o Map^d(tile => k steps, halo shrinking by r, boundary "
                        "per step) o tiles with halo k*r",
                        temporal_tiling,
                        tiles_dims_param(),
                        {{.name = "dims", .values = {1, 2, 3}},
                         {.name = "steps", .source = ParamDomain::Source::TemporalSteps},
                         {.name = "tile", .source = ParamDomain::Source::TileSizes},
                         // 4x the tile (the contiguous dimension's wider tiles)
                         {.name = "tile_inner",
                          .source = ParamDomain::Source::ProgramCount,
                          .optional = true}}},
                       "temporal"),
                   {NodeKind::Call}),
          stream_temporal_rule()};
}

} // namespace tessera::rewrite
