// stream-temporal: k steps of a 2-D or 3-D stencil fused by 2.5-D blocking (N.5-D blocking:
// AN5D, EBISU). A work-group takes a tile of the inner dimensions (a 2-D tile in 3-D, a 1-D
// tile in 2-D) and marches along the outermost dimension; every time level keeps a circular
// window of 2r+1 planes in local memory, and step t+1 of plane z is computed as soon as step t
// has planes z-r..z+r. Each input plane is loaded once per tile, and halo work is redundant
// only in the blocked dimensions (and at the ends of a segment when the march is split into
// segments to keep a large device busy). A star-shaped stencil (core/StarStencil.h) is also
// offered the register window (registers=1): each work-item's column in registers, only the
// centre plane of each level in local memory, hence larger tiles or deeper k; box stencils keep
// the local window only.
//
//   S^k $ x  ->  StreamSteps(d, k, r, segment, tiles.., b[, registers])(f) $ (x, consts..)
//
// The boundary of every step is the unfused program's (codegen/StreamSteps.cpp says how).
// Tiles need not divide the grid: the last tile of a dimension is partial.
#include "core/Error.h"
#include "core/StarStencil.h"
#include "rewrite/rules/StencilStep.h"

namespace tessera::rewrite {

namespace {

// The marching segments tried: the whole extent, and the largest candidate tile size that is
// shorter than the extent and at least 4kr (so that the 2kr planes a segment recomputes at
// its ends stay a minority of its work).
std::vector<int64_t> segments_for(const std::vector<int64_t>& sizes, int64_t extent, int64_t kr) {
  std::vector<int64_t> segments{0};
  int64_t best = 0;
  for (int64_t c : sizes)
    if (c >= 4 * kr && c < extent)
      best = std::max(best, c);
  if (best > 0)
    segments.push_back(best);
  return segments;
}

// The in-plane tiles tried (outermost first): square, and 4x wider in the contiguous
// dimension in 3-D; in 2-D one dimension, 4x the candidate size (rows of a plane are long).
std::vector<std::vector<int64_t>> tiles_for(int d, const std::vector<int64_t>& sizes,
                                            const std::vector<int64_t>& extents) {
  std::vector<std::vector<int64_t>> tiles;
  for (int64_t t : sizes) {
    if (d == 2) {
      if (4 * t <= extents[1])
        tiles.push_back({4 * t});
      continue;
    }
    for (int64_t widen : {int64_t{1}, int64_t{4}})
      if (t <= extents[1] && t * widen <= extents[2])
        tiles.push_back({t, t * widen});
  }
  return tiles;
}

// The constants of k steps (chain outermost first) as StreamSteps takes them: the smallest
// number of phases m such that step t reads the constants of step t % m (steps counted from
// the first applied), then the groups in the order the steps apply them.
std::pair<int64_t, std::vector<Expr>> phased_consts(const std::vector<StencilStep>& chain,
                                                    int64_t k) {
  auto applied = [&](int64_t t) -> const StencilStep& {
    return chain[static_cast<std::size_t>(k - 1 - t)];
  };
  int64_t m = 1;
  for (; m < k; ++m) {
    bool periodic = true;
    for (int64_t t = 0; periodic && t + m < k; ++t)
      for (std::size_t c = 0; periodic && c < applied(t).consts.size(); ++c)
        periodic = structurally_equal(applied(t).consts[c], applied(t + m).consts[c]);
    if (periodic)
      break;
  }
  std::vector<Expr> consts;
  for (int64_t t = 0; t < m; ++t)
    consts.insert(consts.end(), applied(t).consts.begin(), applied(t).consts.end());
  return {m, consts};
}

RuleResult stream_temporal(const Expr& e, const RuleContext& ctx) {
  // Steps may read different constants (the colours of red-black Gauss-Seidel).
  std::vector<StencilStep> chain = match_steps(e, 8, StepsAlike::EqualButConsts);
  if (chain.empty())
    return RuleResult::none("");
  const StencilStep& top = chain.front();
  if (top.d < 2)
    return RuleResult::none("a 1-D stencil (2.5-D blocking streams 2-D and 3-D grids)");
  if (chain.size() < 2)
    return RuleResult::none("a single stencil step (stream-temporal fuses two or more)");
  auto r = top.r.as_constant();
  std::vector<int64_t> extents;
  for (const auto& n : extents_of(ctx.type_of(e), top.d))
    if (auto c = n.as_constant())
      extents.push_back(*c);
  if (!r || extents.size() != static_cast<std::size_t>(top.d))
    return RuleResult::none("the radius and the grid's extents must be constants");
  const Type& element = ctx.type_of(e).innermost();
  if (!element.is_scalar())
    return RuleResult::none("the grid must hold scalars");
  const int64_t bytes = element.scalar_kind() == ScalarKind::F64 ? 8 : 4;
  // A star-shaped stencil is also offered the register window; a box stencil (j3d27pt) is not,
  // and keeps the local form.
  const bool star = star_shaped(top.f, top.d, *r);
  RuleResult result;
  std::string why = "no candidate number of steps";
  for (int64_t k : ctx.temporal_steps) {
    if (k < 2 || k > static_cast<int64_t>(chain.size()))
      continue;
    const StencilStep& first = chain[static_cast<std::size_t>(k - 1)];
    const int64_t kr = k * *r;
    bool reflects = top.boundary.kind != Boundary::Clamp && top.boundary.kind != Boundary::Constant;
    if (reflects && *std::min_element(extents.begin(), extents.end()) < kr) {
      why = "the grid is smaller than the fused steps' reach (k*r) for a reflecting boundary";
      continue;
    }
    for (const auto& tile : tiles_for(top.d, ctx.tile_sizes, extents)) {
      int64_t plane = 1;
      for (int64_t t : tile)
        plane *= t + 2 * kr;
      // Local memory of k-1 time levels plus the input (2r+1 planes each, or the centre plane
      // with registers), beyond which a variant cannot run on the target.
      const Target& target = ctx.target;
      std::vector<StreamWindow> windows;
      if (k * (2 * *r + 1) * plane * bytes <= target.stream_local_bytes)
        windows.push_back(StreamWindow::Local);
      else
        why = cat("the time levels of every candidate tile need more than ",
                  target.stream_local_bytes / 1024, " KiB of local memory");
      // Registers: k planes of local memory, k x owned x (2r+1) + owned values per work-item
      // (the register window may take half of a work-item's share of the group's registers).
      const int64_t group = stream_steps_work_group(tile, StreamWindow::Registers, kr);
      const int64_t owned = (plane + group - 1) / group;
      if (star && k * plane * bytes <= target.stream_local_bytes &&
          (k * (2 * *r + 1) + 1) * owned <=
              std::min(target.register_window_values, target.registers_per_group / 2 / group))
        windows.push_back(StreamWindow::Registers);
      for (StreamWindow window : windows)
        for (int64_t segment : segments_for(ctx.tile_sizes, extents[0], kr)) {
          auto [phases, consts] = phased_consts(chain, k);
          std::vector<Expr> args{first.input};
          args.insert(args.end(), consts.begin(), consts.end());
          Expr fused = make_call(
              make_stream_steps(top.d, k, *r, top.boundary, tile, segment, phases, top.f, window),
              args);
          Params params{{"steps", k}, {"tile", tile.front()}};
          if (phases > 1)
            params["phases"] = phases;
          if (tile.size() > 1)
            params["tile_inner"] = tile.back();
          if (segment)
            params["segment"] = segment;
          if (window == StreamWindow::Registers)
            params["registers"] = 1;
          result.alternatives.push_back({fused, params});
        }
    }
  }
  if (result.alternatives.empty())
    result.why_not = why;
  return result;
}

} // namespace

Rule stream_temporal_rule() {
  Rule rule{"stream-temporal",
            "S^k $ x -> StreamSteps(k): tiles of the inner dimensions march along the outermost, "
            "2r+1 planes per time level in local memory, or (star stencils, registers=1) each "
            "work-item's column in registers and the centre plane in local memory; boundary per "
            "step",
            stream_temporal};
  // The in-plane tile is a candidate in 3-D but 4x one in 2-D (tiles_for): a count the program
  // decides from the candidates; the segment is the largest fitting candidate.
  rule.params = {
      {.name = "steps", .source = ParamDomain::Source::TemporalSteps},
      // 3-D: a candidate size; 2-D: 4x one (rows of a plane are long).
      {.name = "tile", .values = {1, 4}, .source = ParamDomain::Source::TileSizeMultiple},
      {.name = "tile_inner", .source = ParamDomain::Source::ProgramCount, .optional = true},
      {.name = "segment", .source = ParamDomain::Source::TileSizes, .optional = true},
      {.name = "phases", .source = ParamDomain::Source::ProgramCount, .optional = true},
      {.name = "registers", .values = {1}, .optional = true}};
  // It matches a call of the top step's map (match_steps).
  return at_kinds(with_family(std::move(rule), "temporal"), {NodeKind::Call});
}

} // namespace tessera::rewrite
