// Diamond and parallelogram tiling: k steps of a stencil as a program of kernels without
// redundant computation (core/TimeTile.h, codegen/TimeTiled.h); rolling tiling: one launch a
// band, one work-item a strip whose levels stream down it in rings of rows (a CPU's form,
// codegen/RollingKernel.h).
//
//   S^k $ x  ->  TimeTile{diamond | parallelogram | rolling, d, r, k, h, W}(f) $ x
//
// The rules match the whole program (all k <= 8 matched steps, reading the program's input),
// because the tiling is a program of its own launches. Parameters: the band height h (the
// steps per set of launches: min(k, 4) and k) and the tile width W (ctx.tile_sizes; in 1-D 16x
// wider, since a 1-D tile is one row), with W >= 2hr, so that no tile loses its inside over a
// band; and the work-items per tile: 1 (a loop nest per tile, for CPUs) or 128 (side by side
// along the rows, for GPUs). Conditions: constant radius and extents, no constant inputs zipped to
// the neighbourhoods, and on a periodic grid N >= 2hr.
#include <optional>
#include <set>

#include "core/TimeTile.h"
#include "rewrite/Pattern.h"
#include "rewrite/rules/Rules.h"
#include "rewrite/rules/StencilSteps.h"

namespace tessera::rewrite {

namespace {

std::vector<int64_t> constant_extents(const Type& t, int d) {
  std::vector<int64_t> extents;
  const Type* level = &t;
  for (int l = 0; l < d && level->is_array(); ++l, level = &level->element()) {
    auto n = level->length().as_constant();
    if (!n)
      return {};
    extents.push_back(*n);
  }
  return static_cast<int>(extents.size()) == d ? extents : std::vector<int64_t>{};
}

// The steps a time tiling replaces, or why none: the whole program's k >= 2 steps of one
// stencil of constant radius on a grid of constant extents.
struct TiledSteps {
  StencilSteps chain;
  int64_t r = 1;
  std::vector<int64_t> extents;
};
std::optional<TiledSteps> tiled_steps(const Expr& e, const RuleContext& ctx, std::string& why) {
  auto chain = match_stencil_steps(e);
  if (!chain)
    return std::nullopt;
  if (chain->count < 2)
    why = "a single stencil step (time tiling needs two or more)";
  else if (ctx.below_program_body)
    why = "the steps are not the program's whole body (the tiling is a whole program of kernels)";
  else if (chain->input->kind != NodeKind::Param)
    why = "the steps do not read the program's input (the tiling is a whole program of kernels)";
  else if (chain->zipped)
    why = "constant inputs zipped to the neighbourhoods (a right-hand side, or the fixed "
          "boundary's interior grid): its tiles read one grid";
  auto r = chain->r.as_constant();
  auto extents = constant_extents(ctx.type_of(e), chain->d);
  if (why.empty() && (!r || extents.empty()))
    why = "symbolic radius or extents";
  if (!why.empty())
    return std::nullopt;
  return TiledSteps{*chain, *r, extents};
}

RuleResult time_tiling(TimeTileScheme scheme, const Expr& e, const RuleContext& ctx) {
  std::string why;
  auto steps = tiled_steps(e, ctx, why);
  if (!steps)
    return RuleResult::none(why);
  const StencilSteps& chain = steps->chain;
  const int64_t r = steps->r, k = chain.count;
  RuleResult result;
  for (int64_t h : std::set<int64_t>{std::min<int64_t>(k, 4), k})
    for (int64_t size : ctx.tile_sizes)
      for (int64_t work_group : {1, 128}) {
        int64_t W = chain.d == 1 ? 16 * size : size;
        bool fits = W >= 2 * h * r;
        for (auto n : steps->extents)
          fits = fits && W < n && (chain.boundary.kind != Boundary::Wrap || n >= 2 * h * r);
        if (!fits)
          continue;
        TimeTiling t;
        t.scheme = scheme;
        t.dims = chain.d;
        t.radius = r;
        t.steps = k;
        t.band = h;
        t.tile = {W, W, W};
        t.work_group = work_group;
        result.alternatives.push_back(
            {make_call(make_time_tile(t, chain.boundary, chain.f), {chain.input}),
             {{"steps", k}, {"band", h}, {"tile", W}, {"work_items", work_group}}});
      }
  if (result.alternatives.empty())
    result.why_not = "no tile width of at least 2 x band x radius smaller than the grid";
  return result;
}

// Rolling tiles (a CPU's form: one work-item a tile): the band h = min(k, 4) or k; strips of 16,
// 64 or 256 outermost rows (at least two strips; two where the grid has fewer than 32); the
// innermost dimension whole where the band's rings fit in the device's local memory, else in the
// widest tiles of 4096, 2048, 1024 or 256 that do; in 3-D the middle dimension in tiles of 8 or 32
// rows.
RuleResult rolling_tiling(const Expr& e, const RuleContext& ctx) {
  std::string why;
  auto steps = tiled_steps(e, ctx, why);
  if (!steps)
    return RuleResult::none(why);
  if (!ctx.target.cpu())
    return RuleResult::none("not a CPU (rolling tiles are one work-item each: a CPU's form)");
  const StencilSteps& chain = steps->chain;
  const std::vector<int64_t>& n = steps->extents;
  const int64_t r = steps->r, k = chain.count;
  if (chain.d < 2)
    return RuleResult::none("one dimension (a rolling tile's rows would be single points)");
  for (auto extent : n)
    if (chain.boundary.kind != Boundary::Wrap && extent <= 2 * r)
      return RuleResult::none("an extent of at most twice the radius");
  const int64_t bytes = ctx.type_of(e).innermost().scalar_kind() == ScalarKind::F64 ? 8 : 4;
  RuleResult result;
  for (int64_t h : std::set<int64_t>{std::min<int64_t>(k, 4), k}) {
    auto ring_bytes = [&](int64_t middle, int64_t inner) {
      int64_t slice = inner + 2 * (h + 1) * r; // codegen::RollingGeometry::slice_extent
      if (chain.d == 3)
        slice *= middle + 2 * (h + 1) * r;
      return h * (3 * r + 1) * slice * bytes;
    };
    std::vector<int64_t> middles =
        chain.d == 3 ? std::vector<int64_t>{8, 32} : std::vector<int64_t>{1};
    for (int64_t middle : middles) {
      if (chain.d == 3 && middle > n[1])
        continue;
      int64_t inner = 0; // the widest that fits: whole rows, else 4096, 2048, 1024 or 256
      for (int64_t w : {n[static_cast<std::size_t>(chain.d - 1)], int64_t{4096}, int64_t{2048},
                        int64_t{1024}, int64_t{256}})
        if (!inner && w <= n[static_cast<std::size_t>(chain.d - 1)] && w >= r &&
            ring_bytes(middle, w) <= ctx.target.local_memory_bytes)
          inner = w;
      if (!inner)
        continue;
      std::vector<int64_t> strips;
      for (int64_t rows : {16, 64, 256})
        if (2 * rows <= n[0])
          strips.push_back(rows);
      if (strips.empty()) // a grid of fewer than 32 rows: two strips
        strips.push_back((n[0] + 1) / 2);
      for (int64_t rows : strips) {
        if (rows < r)
          continue;
        TimeTiling t;
        t.scheme = TimeTileScheme::Rolling;
        t.dims = chain.d;
        t.radius = r;
        t.steps = k;
        t.band = h;
        t.tile = {rows, chain.d == 3 ? middle : inner, inner};
        Params params{{"steps", k}, {"band", h}, {"rows", rows}, {"tile", inner}};
        if (chain.d == 3)
          params["middle"] = middle;
        result.alternatives.push_back(
            {make_call(make_time_tile(t, chain.boundary, chain.f), {chain.input}), params});
      }
    }
  }
  if (result.alternatives.empty())
    result.why_not = cat("no strip of rows whose ", chain.d == 3 ? "planes" : "rows",
                         " fit in the device's local memory (", ctx.target.local_memory_bytes,
                         " bytes) at least twice in the grid");
  return result;
}

// The chain's length k, the band (min(k, 4) or k) and the tile width (a candidate, 16x one in
// 1-D) are counts the program decides; the work-group is one work-item or 128.
const std::vector<ParamDomain> kTimeTilingParams = {
    {.name = "steps", .source = ParamDomain::Source::ProgramCount},
    {.name = "band", .source = ParamDomain::Source::ProgramCount},
    // 2-D and 3-D: a candidate size; 1-D: 16x one.
    {.name = "tile", .values = {1, 16}, .source = ParamDomain::Source::TileSizeMultiple},
    {.name = "work_items", .values = {1, 128}}};

} // namespace

std::vector<Rule> time_tiling_rules() {
  std::vector<Rule> rules = {
      with_family(
          {"diamond-tiling",
           "S^k $ x -> TimeTile{diamond}(f) $ x: per band upright then inverted diamonds, one "
           "launch each, edges through a global buffer",
           [](const Expr& e, const RuleContext& ctx) {
             return time_tiling(TimeTileScheme::Diamond, e, ctx);
           },
           {},
           kTimeTilingParams},
          "diamond"),
      with_family(
          {"parallelogram-tiling",
           "S^k $ x -> TimeTile{parallelogram}(f) $ x: per band one launch per wavefront of "
           "skewed tiles",
           [](const Expr& e, const RuleContext& ctx) {
             return time_tiling(TimeTileScheme::Parallelogram, e, ctx);
           },
           {},
           kTimeTilingParams},
          "parallelogram")};
  rules.push_back(with_family({"rolling-tiling",
                               "S^k $ x -> TimeTile{rolling}(f) $ x: one work-item a strip, the "
                               "levels streaming down it in "
                               "rings of rows, one launch a band (CPUs)",
                               rolling_tiling,
                               {},
                               {{.name = "steps", .source = ParamDomain::Source::ProgramCount},
                                {.name = "band", .source = ParamDomain::Source::ProgramCount},
                                {.name = "rows", .source = ParamDomain::Source::ProgramCount},
                                {.name = "tile", .source = ParamDomain::Source::ProgramCount}}},
                              "rolling"));
  for (auto& r : rules)
    r.node_kinds = {NodeKind::Call}; // a call of the top step's map (match_stencil_steps)
  return rules;
}

} // namespace tessera::rewrite
