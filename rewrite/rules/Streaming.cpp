// stream-nd: a work-item marches along the outermost dimension over a sequence of windows,
// which the code generator turns into a window rotated in private memory (each element loaded
// once). Neighbouring work-items take neighbouring columns, so their loads coalesce.
//  2-D (column marching, segments of c rows per work-item):
//    Map^2(f) $ Slide2D(n,1) $ x
//      -> Transpose $ Map(Join) $ Map(col => Map(seg => Map(f) $ Slide(n,1) $ seg)
//                                              $ Slide(c+n-1, c) $ col)
//           $ Transpose $ Map(row => Slide(n,1) $ row) $ x
//    With factor c > 1 (a GPU) a work-item computes c results along x a step from its rows'
//    n + c - 1 values (Map(Slide(n+c-1, c)) instead of Map(Slide(n,1))), the step regrouping
//    its window [n][n+c-1] as c windows (Transpose $ Map(Slide(n,1))), and the results put back
//    with Transpose $ Join $ Map(Transpose) $ Map(Join); with sums=1 the rows' partial sums.
//  3-D (2.5-D: a 2-D grid of work-items marching along z, the whole column or segments of c
//  planes, so that a third grid dimension of work-items keeps a large GPU busy; optionally
//  several results along x per work-item, sharing their loads):
//    Map^3(f) $ Slide3D(n,1) $ x
//      -> Transpose $ Map(Transpose) $ Map(Map(march)) $ Map(Transpose) $ Transpose
//           $ Map(plane => Slide2D(n,1) $ plane) $ x
//    march = col => Map(f) $ Slide(n,1) $ col, or with segments
//    march = col => Join $ Map(seg => Map(f) $ Slide(n,1) $ seg) $ Slide(c+n-1, c) $ col
//  With factor c > 1 results along x a work-item's window is n planes of n x (n+c-1) values,
//  and each step computes c results:
//    planes  = Map(plane => Map(Transpose) $ Slide(n,1) $ Map(Slide(n+c-1, c)) $ plane) $ x
//    step    = w => Map(f) $ Transpose $ Map(Transpose) $ Map(Map(Slide(n,1))) $ w
//    result  = Transpose $ Map(Map(Join)) $ Map(Transpose) $ Map^2(march) $ columns
//  With sums=1 (one input of floating-point values) f is first split by plane
//  (rewrite/rules/PlaneSums.h): the march keeps n partial sums instead of n planes (with a
//  factor, n for each of the c results along x, sharing the planes' rows).
//  With sums=1 and rows=c > 1 a work-item computes c results along y (register blocking: the
//  c outputs share the loads of their plane's n + c - 1 rows):
//    planes  = Map(plane => Map(Transpose) $ Slide(n+c-1, c) $ Map(Slide(n,1)) $ plane) $ x
//    step    = w => Map(f) $ Transpose $ Map(Slide(n,1)) $ w
//    result  = Transpose $ Join $ Map(Transpose) $ Map(Map(Transpose)) $ Map(Transpose)
//                $ Map^2(march) $ columns
//
// Zipped inputs (a smoother with a right-hand side: Map^d(f) $ ZipND(SlideND(n,1) $ x, c)):
// every input is cut into columns the same way and the columns are zipped, so that a step
// sees the same tuple as f did. A windowed input marches with its own window (Slide(n_i, 1));
// a plain one contributes one element per step (Split(c) where a windowed one has
// Slide(c+n-1, c), Split(factor) along x where a windowed one has Slide(n+factor-1, factor)).
#include "core/Error.h"
#include "rewrite/Pattern.h"
#include "rewrite/Shapes.h"
#include "rewrite/rules/PlaneSums.h"
#include "rewrite/rules/Rules.h"
#include "rewrite/rules/Windows.h"

namespace tessera::rewrite {

namespace {

// The inputs of a stencil, each cut and marched the same way (see above).
struct Marching {
  std::vector<StencilInput> inputs;
  bool zipped = false;

  // Zip(parts) when zipped, else the one part.
  Expr zip_if(const std::vector<Expr>& parts, int levels = 1) const {
    return zipped ? zip_nd_expr(levels, parts) : parts.front();
  }
  // Component i of a value holding every input's part (a tuple when zipped).
  Expr part(const Expr& v, std::size_t i) const {
    return zipped ? call1(make_get(static_cast<int>(i)), v) : v;
  }
  // Applies per_input(i, input, part i of v) to every input and zips the results.
  template <class F> Expr each(const Expr& v, const F& per_input, int levels = 1) const {
    std::vector<Expr> parts;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      parts.push_back(per_input(inputs[i], part(v, i)));
    return zip_if(parts, levels);
  }
  // One step's windows along the marching dimension: Slide(n,1) of a windowed column, the
  // column itself for a plain input.
  Expr windows(const Expr& column) const {
    return each(column, [](const StencilInput& in, const Expr& c) {
      return in.window ? call1(make_slide(*in.window, 1), c) : c;
    });
  }
  // Segments of `segment` steps: Slide(segment+n-1, segment), or Split(segment) when plain.
  Expr segments(const Expr& column, int64_t segment) const {
    return each(column, [&](const StencilInput& in, const Expr& c) {
      return in.window ? call1(make_slide(segment + *in.window - 1, segment), c)
                       : call1(make_split(segment), c);
    });
  }
};

// The step of a march that computes c results along one axis: each windowed input's window
// [n][n+c-1].. is regrouped as c windows [c][n][n].. (a plain input gives its c values).
Expr blocked_step(const Expr& f, const Marching& m) {
  Expr w = make_param();
  Expr regrouped = m.each(w, [](const StencilInput& in, const Expr& part) {
    if (!in.window)
      return part;
    return call1(make_transpose(),
                 call1(make_map(MapKind::Map, 0, make_slide(*in.window, 1)), part));
  });
  return make_lambda({w}, call1(make_map(MapKind::Map, 0, f), regrouped));
}

// How many results a work-item of the 2.5-D form computes per step, and along which axis.
struct Blocking {
  int64_t factor = 1; // results along x
  int64_t rows = 1;   // results along y
  int64_t results() const { return factor * rows; }
};

// The 2.5-D form (see above) with `b.factor` results along x or `b.rows` along y per work-item
// and the column marched whole (segment 0) or in segments of `segment` planes.
Expr stream_3d(const Expr& f, const Marching& m, Blocking b, int64_t segment) {
  const int64_t factor = b.factor;
  std::vector<Expr> all_columns;
  for (const auto& in : m.inputs) {
    Expr plane = make_param();
    Expr per_plane;
    if (in.window && b.results() == 1) {
      per_plane = slide_nd_expr(2, *in.window, 1, plane);
    } else if (in.window) {
      const ArithExpr& n = *in.window;
      // level 0 is y, level 1 is x: the blocked axis slides n + c - 1 rows (columns) by c
      per_plane = windows_nd_expr(
          2,
          [&](int level) {
            int64_t c = level == 0 ? b.rows : factor;
            return c == 1 ? make_slide(n, 1) : make_slide(n + c - 1, c);
          },
          plane);
    } else if (factor > 1) {
      per_plane = call1(make_map(MapKind::Map, 0, make_split(factor)), plane);
    } else if (b.rows > 1) { // [y''][c][x] -> [y''][x][c]
      per_plane =
          call1(make_map(MapKind::Map, 0, make_transpose()), call1(make_split(b.rows), plane));
    }
    Expr planes = per_plane
                      ? call1(make_map(MapKind::Map, 0, make_lambda({plane}, per_plane)), in.base)
                      : in.base; // a plain input, one value per step
    all_columns.push_back(
        call1(make_map(MapKind::Map, 0, make_transpose()), call1(make_transpose(), planes)));
  }
  Expr columns = m.zip_if(all_columns, 2);
  Expr step = f;
  if (b.rows > 1) { // [n][n+c-1][n] -> [n][c][n][n] -> [c][n][n][n]
    step = blocked_step(f, m);
  } else if (factor > 1) {
    Expr w = make_param();
    Expr regrouped = m.each(w, [](const StencilInput& in, const Expr& part) {
      if (!in.window)
        return part;                                                    // [c] values
      Expr split = call1(map_nest(2, make_slide(*in.window, 1)), part); // [n][n][c][n]
      return call1(make_transpose(), call1(make_map(MapKind::Map, 0, make_transpose()), split));
    });
    step = make_lambda({w}, call1(make_map(MapKind::Map, 0, f), regrouped));
  }
  auto march_over = [&](const Expr& col) {
    return call1(make_map(MapKind::Map, 0, step), m.windows(col));
  };
  Expr col = make_param();
  Expr computed; // [y'][x''][z'] (factor 1) or [y'][x''][z'][c]
  if (segment == 0) {
    computed = call1(map_nest(2, make_lambda({col}, march_over(col))), columns);
  } else {
    Expr seg = make_param();
    Expr per_segment = make_lambda({seg}, march_over(seg));
    Expr per_column =
        make_lambda({col}, call1(make_map(MapKind::Map, 0, per_segment), m.segments(col, segment)));
    computed = call1(map_nest(2, make_join()), call1(map_nest(2, per_column), columns));
  }
  Expr by_plane = call1(make_map(MapKind::Map, 0, make_transpose()), computed); // [y'][z'][x'']..
  if (b.rows > 1) { // [y''][z'][x'][c] -> [y''][z'][c][x'] -> [y''][c][z'][x'] -> [y'][z'][x']
    by_plane = call1(make_map(MapKind::Map, 0, make_transpose()),
                     call1(map_nest(2, make_transpose()), by_plane));
    by_plane = call1(make_join(), by_plane);
  }
  if (factor > 1)
    by_plane = call1(map_nest(2, make_join()), by_plane);
  return call1(make_transpose(), by_plane);
}

// Column marching in 2-D in segments of c rows, `factor` results along x a step (see above).
Expr stream_2d(const Expr& f, const Marching& m, int64_t c, int64_t factor) {
  std::vector<Expr> all_columns; // [x''][y'] of horizontal neighbourhoods (or plain values)
  for (const auto& in : m.inputs) {
    Expr rows = in.base;
    Expr row = make_param();
    if (in.window && factor == 1)
      rows =
          call1(make_map(MapKind::Map, 0, make_lambda({row}, slide_nd_expr(1, *in.window, 1, row))),
                in.base);
    else if (in.window) // n + factor - 1 columns by factor
      rows = call1(make_map(MapKind::Map, 0, make_slide(*in.window + factor - 1, factor)), in.base);
    else if (factor > 1)
      rows = call1(make_map(MapKind::Map, 0, make_split(factor)), in.base);
    all_columns.push_back(call1(make_transpose(), rows));
  }
  Expr step = factor > 1 ? blocked_step(f, m) : f;
  Expr seg = make_param();
  Expr march = make_lambda({seg}, call1(make_map(MapKind::Map, 0, step), m.windows(seg)));
  Expr col = make_param();
  Expr per_column = make_lambda({col}, call1(make_map(MapKind::Map, 0, march), m.segments(col, c)));
  Expr computed = call1(make_map(MapKind::Map, 0, per_column), m.zip_if(all_columns));
  // [x''][y'/c][c](..[factor]) -> [x''][y'](..[factor]); with a factor
  // [x''][y'][factor] -> [x''][factor][y'] -> [x'][y']; then [y'][x'] (a streamed program's
  // result ends in Transpose, which mappings_of recognises)
  Expr columns = call1(make_map(MapKind::Map, 0, make_join()), computed);
  if (factor > 1)
    columns = call1(make_join(), call1(make_map(MapKind::Map, 0, make_transpose()), columns));
  return call1(make_transpose(), columns);
}

RuleResult stream_nd(const Expr& e, const RuleContext& ctx) {
  if (!is_computing_map_call(e))
    return RuleResult::none("");
  Expr f;
  int d = map_depth(e->callee(), &f);
  if (d != 2 && d != 3)
    return RuleResult::none("");
  Marching m;
  auto inputs = match_stencil_inputs(arg0(e), d, &m.zipped);
  if (!inputs)
    return RuleResult::none("");
  m.inputs = std::move(*inputs);
  RuleResult r;
  // sums=1: the window function split by plane (rewrite/rules/PlaneSums.h), so that the march
  // adds each plane to the outputs it belongs to as it streams by (codegen/StreamSums.cpp):
  // one plane of values and n partial sums live per work-item instead of n planes. One windowed
  // input of floating-point values, one result per step.
  Expr by_plane;
  if (!m.zipped && is_floating(ctx.type_of(arg0(e)).innermost().scalar_kind()) &&
      window_points(f) >= ctx.plane_sums_min_points)
    by_plane = split_by_plane(f).function;
  if (d == 3) {
    const Type& windows = ctx.type_of(arg0(e));
    const ArithExpr& depth = windows.length();                     // outputs per column
    const ArithExpr& height = windows.element().length();          // outputs per column of a plane
    const ArithExpr& width = windows.element().element().length(); // outputs per row
    std::vector<int64_t> factors{1}, rows, segments;
    for (int64_t factor : ctx.coarsening)
      if (factor > 1 && prove_divisible(width, factor) == Truth::Yes)
        factors.push_back(factor);
    for (int64_t c : ctx.row_blocking)
      if (c > 1 && prove_divisible(height, c) == Truth::Yes && height.as_constant() != c)
        rows.push_back(c);
    for (int64_t c : ctx.tile_sizes)
      if (prove_divisible(depth, c) == Truth::Yes && depth.as_constant() != c)
        segments.push_back(c);
    // The whole column last: a search takes equal variants in this order, and on an H200 no 3-D
    // march was fastest unsegmented (a 512^3 grid of columns is too few work-items to hide a
    // march's latency: the 125-point box's blocked sums 1.43 ms whole, 0.975 ms in segments).
    segments.push_back(0);
    for (int64_t factor : factors)
      for (int64_t segment : segments) {
        Params params{{"dims", 3}};
        if (segment)
          params["segment"] = segment;
        if (factor > 1)
          params["factor"] = factor;
        r.alternatives.push_back({stream_3d(f, m, {.factor = factor}, segment), params});
        if (!by_plane)
          continue;
        // The partial sums, one result a step, or `factor` along x or `c` along y sharing
        // their planes' rows.
        params["sums"] = 1;
        r.alternatives.push_back({stream_3d(by_plane, m, {.factor = factor}, segment), params});
        // Not along both: on an H200 that was no faster than the better of the two (the radius-4
        // star 0.442 ms at rows 2 x factor 2, 0.443 at factor 2; the 27-point box 0.380 at 4 x
        // 2, 0.379 at rows 8) and tripled the space.
        if (factor > 1)
          continue;
        for (int64_t c : rows) {
          params["rows"] = c;
          r.alternatives.push_back({stream_3d(by_plane, m, {.rows = c}, segment), params});
        }
      }
    return r;
  }
  const Type& windows = ctx.type_of(arg0(e));
  const ArithExpr& height = windows.length();          // outputs per column
  const ArithExpr& width = windows.element().length(); // outputs per row
  // Results along x share their rows' loads; not offered on a CPU, where a march of whole
  // vectors lost to the overlapped tiles 3x (PoCL, the 5x5 Gaussian at 2880^2: 17.0 ms with 16
  // results a step against 6.4 ms).
  std::vector<int64_t> factors{1};
  for (int64_t factor : ctx.coarsening)
    if (factor > 1 && !ctx.target.cpu() && prove_divisible(width, factor) == Truth::Yes)
      factors.push_back(factor);
  for (int64_t c : ctx.tile_sizes)
    if (prove_divisible(height, c) == Truth::Yes)
      for (int64_t factor : factors) {
        Params params{{"dims", 2}, {"segment", c}};
        if (factor > 1)
          params["factor"] = factor;
        r.alternatives.push_back({stream_2d(f, m, c, factor), params});
        if (!by_plane)
          continue;
        params["sums"] = 1; // the partial sums by row, `factor` results sharing each row's loads
        r.alternatives.push_back({stream_2d(by_plane, m, c, factor), params});
      }
  if (r.alternatives.empty())
    r.why_not = "no candidate segment length divides the column";
  return r;
}

} // namespace

Rule stream_nd_rule() {
  MappingTraits traits = tiles_dims_param();
  // A grid of work-items around the marching map (see rewrite/Mapping.h, streaming).
  traits.streaming = [](const Params& p) {
    Mapping m{MappingKind::Streaming};
    m.dims = static_cast<int>(p.at("dims"));
    m.segment = p.count("segment") ? p.at("segment") : 0;
    // The results a step computes (along x or y), an unrolled loop inside the march.
    m.factor = p.count("factor") ? p.at("factor") : p.count("rows") ? p.at("rows") : 0;
    return m;
  };
  // It matches a call of a computing map (is_computing_map_call).
  return at_kinds(
      with_family(
          {"stream-nd",
           "Map^d(f) o SlideND(n,1) -> work-items marching along one dimension",
           stream_nd,
           traits,
           {{.name = "dims", .values = {2, 3}},
            {.name = "segment", .source = ParamDomain::Source::TileSizes, .optional = true},
            {.name = "factor", .source = ParamDomain::Source::Coarsening, .optional = true},
            {.name = "sums", .values = {1}, .optional = true},
            {.name = "rows", .source = ParamDomain::Source::RowBlocking, .optional = true}}},
          "streaming"),
      {NodeKind::Call});
}

} // namespace tessera::rewrite
