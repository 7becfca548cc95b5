// Diamond and parallelogram tiling: k steps of a stencil as a program of kernels without
// redundant computation (core/TimeTile.h, codegen/TimeTiled.h).
//
//   S^k $ x  ->  TimeTile{diamond | parallelogram, d, r, k, h, W}(f) $ x
//
// The rules match the whole program (all k <= 8 matched steps, reading the program's input),
// because the tiling is a program of its own launches. Parameters: the band height h (the
// steps per set of launches: min(k, 4) and k) and the tile width W (ctx.tile_sizes; in 1-D 16x
// wider, since a 1-D tile is one row), with W >= 2hr, so that no tile loses its inside over a
// band; and the work-items per tile: 1 (a loop nest per tile, for CPUs) or 128 (side by side
// along the rows, for GPUs). Conditions: constant radius and extents, no constant inputs zipped to
// the neighbourhoods, and on a periodic grid N >= 2hr.
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

RuleResult time_tiling(TimeTileScheme scheme, const Expr& e, const RuleContext& ctx) {
  auto chain = match_stencil_steps(e);
  if (!chain)
    return RuleResult::none("");
  if (chain->count < 2)
    return RuleResult::none("a single stencil step (time tiling needs two or more)");
  if (ctx.below_program_body)
    return RuleResult::none("the steps are not the program's whole body (the tiling is a whole "
                            "program of kernels)");
  if (chain->input->kind != NodeKind::Param)
    return RuleResult::none("the steps do not read the program's input (the tiling is a "
                            "whole program of kernels)");
  if (chain->zipped)
    return RuleResult::none("constant inputs zipped to the neighbourhoods (a right-hand side, or "
                            "the fixed boundary's interior grid): its tiles read one grid");
  auto r = chain->r.as_constant();
  auto extents = constant_extents(ctx.type_of(e), chain->d);
  if (!r || extents.empty())
    return RuleResult::none("symbolic radius or extents");
  const int64_t k = chain->count;
  RuleResult result;
  for (int64_t h : std::set<int64_t>{std::min<int64_t>(k, 4), k})
    for (int64_t size : ctx.tile_sizes)
      for (int64_t work_group : {1, 128}) {
        int64_t W = chain->d == 1 ? 16 * size : size;
        bool fits = W >= 2 * h * *r;
        for (auto n : extents)
          fits = fits && W < n && (chain->boundary.kind != Boundary::Wrap || n >= 2 * h * *r);
        if (!fits)
          continue;
        TimeTiling t;
        t.scheme = scheme;
        t.dims = chain->d;
        t.radius = *r;
        t.steps = k;
        t.band = h;
        t.tile = {W, W, W};
        t.work_group = work_group;
        result.alternatives.push_back(
            {make_call(make_time_tile(t, chain->boundary, chain->f), {chain->input}),
             {{"steps", k}, {"band", h}, {"tile", W}, {"work_items", work_group}}});
      }
  if (result.alternatives.empty())
    result.why_not = "no tile width of at least 2 x band x radius smaller than the grid";
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
  for (auto& r : rules)
    r.node_kinds = {NodeKind::Call}; // a call of the top step's map (match_stencil_steps)
  return rules;
}

} // namespace tessera::rewrite
