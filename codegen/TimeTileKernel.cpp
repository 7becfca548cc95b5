// One kernel of a time-tiled program: the tiles of one diamond phase (or one parallelogram
// wavefront) computing the h levels of a band, one work-group per tile.
//
// Per level t a work-group
//   1. loads into local memory the part of its window (its range at t plus r on each side) that
//      it did not compute itself at t-1: from the band's input (t = 1) or from the global
//      buffer of level t-1, where earlier launches left the edges of their tiles;
//   2. fills the window's positions outside the grid from their boundary source positions (as
//      the unfused step's Pad does with the whole level t-1), or the constant;
//   3. computes f on every point of its range into local memory, writes the points that later
//      launches read (within 2r of an edge they depend on) to the level buffer, and the last
//      level to the band's output.
// Local memory holds two levels (ping-pong), each indexed from the window's origin of the level
// that reads it.
#include <sstream>

#include "codegen/Emitter.h"
#include "codegen/TimeTiled.h"
#include "core/Error.h"

namespace tessera::codegen {

namespace {

std::string s(int64_t v) {
  return std::to_string(v);
}

// The C expressions of a tile's range [lo, hi) in dimension l at level `t` (a C expression),
// the tile index being the variable i<l>.
std::pair<std::string, std::string> range_text(const TimeTileGeometry& g, int phase, int l,
                                               const std::string& t) {
  std::string i = "i" + s(l), W = s(g.W[l]), N = s(g.N[l]), m1 = s(g.m[l] - 1);
  std::string tr = "(" + t + ")*" + s(g.r);
  std::string hi_cut = "(" + i + " == " + m1 + " ? " + N + " : (" + i + " + 1)*" + W + ")";
  if (phase < 0) { // parallelogram
    std::string lo = g.wrap ? "(" + i + " == 0 ? " + tr + " : " + i + "*" + W + " - " + tr + ")"
                            : "(" + i + " == 0 ? 0 : " + i + "*" + W + " - " + tr + ")";
    std::string hi = "(" + i + " == " + m1 + " ? " + N + (g.wrap ? " + " + tr : "") + " : (" + i +
                     " + 1)*" + W + " - " + tr + ")";
    return {lo, hi};
  }
  if (phase >> l & 1) { // inverted diamond around a cut
    std::string c = g.wrap ? i + "*" + W : "(" + i + " + 1)*" + W;
    return {"(" + c + " - " + tr + ")", "(" + c + " + " + tr + ")"};
  }
  std::string lo = g.wrap ? "(" + i + "*" + W + " + " + tr + ")"
                          : "(" + i + "*" + W + " + (" + i + " > 0 ? " + tr + " : 0))";
  std::string hi = g.wrap ? "(" + hi_cut + " - " + tr + ")"
                          : "(" + hi_cut + " - (" + i + " < " + m1 + " ? " + tr + " : 0))";
  return {lo, hi};
}

// The flat index of the grid position p<0..d-1> (wrapped into the grid for periodic grids).
std::string grid_index(const TimeTileGeometry& g) {
  std::string index;
  for (int l = 0; l < g.d; ++l) {
    std::string p = "p" + s(l);
    if (g.wrap)
      p = "((" + p + " % " + s(g.N[l]) + " + " + s(g.N[l]) + ") % " + s(g.N[l]) + ")";
    index = index.empty() ? p : "(" + index + ")*" + s(g.N[l]) + " + " + p;
  }
  return index;
}

// The flat index in a local box with origin o<l> of the position q<l>.
std::string box_index(const TimeTileGeometry& g, const std::array<int64_t, 3>& box,
                      const std::string& q, const std::string& o) {
  std::string index;
  for (int l = 0; l < g.d; ++l) {
    std::string rel = "(" + q + s(l) + " - " + o + s(l) + ")";
    index = index.empty() ? rel : "(" + index + ")*" + s(box[l]) + " + " + rel;
  }
  return index;
}

// Declares p<l> from the linear index `q` over a box of extents n<l> starting at `origin`<l>
// (the innermost dimension fastest).
void decompose(std::ostringstream& o, const TimeTileGeometry& g, const std::string& indent,
               const std::string& q, const std::string& extent, const std::string& origin) {
  o << indent << "int rest = " << q << ";\n";
  for (int l = g.d - 1; l >= 0; --l) {
    std::string n = extent + s(l);
    if (l > 0)
      o << indent << "const int p" << l << " = " << origin << l << " + rest % " << n
        << "; rest /= " << n << ";\n";
    else
      o << indent << "const int p0 = " << origin << "0 + rest;\n";
  }
}

// The neighbourhood of the point whose window starts at w<l> in the local box `prev`.
View neighbourhood_view(const TimeTileGeometry& g, const std::array<int64_t, 3>& box,
                        ScalarKind kind) {
  auto memory = std::make_shared<Memory>();
  memory->name = "prev";
  memory->space = AddressSpace::Local;
  memory->element = kind;
  Type type = Type::scalar(kind);
  for (int l = g.d - 1; l >= 0; --l)
    type = Type::array(type, box[l]);
  memory->type = type;
  // [e0, e1, ..] -> prev[w0 + e0, w1 + e1, ..]: Drop(w_l) at every level.
  std::function<View(int, View)> window = [&](int l, View sub) -> View {
    ArithExpr w = ArithExpr::var("w" + s(l), 0, box[l] - (2 * g.r + 1));
    if (l == g.d - 1)
      return drop_view(sub, w);
    std::string row = "row" + s(l);
    return drop_view(map_view(window(l + 1, index_view(sub, ArithExpr::var(row))), row), w);
  };
  return window(0, memory_view(memory));
}

Type neighbourhood_type(const TimeTileGeometry& g, ScalarKind kind) {
  Type type = Type::scalar(kind);
  for (int l = 0; l < g.d; ++l)
    type = Type::array(type, 2 * g.r + 1);
  return type;
}

} // namespace

Kernel time_tile_kernel(const TimeTileKernelSpec& spec) {
  const TimeTileGeometry& g = spec.geometry;
  const int d = g.d;
  const int phase = spec.phase;
  const bool wavefront = phase < 0;
  const int64_t h = spec.band;
  const int64_t LS = spec.local_size;
  const std::string T = opencl_name(spec.element);
  const std::string R = s(g.r);
  auto box = g.box(phase, h);
  int64_t box_size = 1;
  for (int l = 0; l < d; ++l)
    box_size *= box[l];

  Emitter emitter(spec.f, {});
  std::string point =
      emitter.point_statements(spec.f, neighbourhood_view(g, box, spec.element),
                               neighbourhood_type(g, spec.element), "res", spec.element, 4);

  std::ostringstream k;
  k << "\n__kernel void " << spec.name << "(const __global " << T << "* restrict in, __global " << T
    << "* restrict levels, __global " << T << "* restrict out"
    << (wavefront ? ", const int wave" : "") << ") {\n";
  k << "  __local " << T << " box_a[" << box_size << "], box_b[" << box_size << "];\n";
  k << "  __local " << T << "* prev = box_a;\n  __local " << T << "* cur = box_b;\n";
  k << "  const int lid = get_local_id(0);\n  int group = get_group_id(0);\n";
  // The tile's index per dimension.
  if (wavefront) {
    // Tiles (i0, .., i_{d-1}) with i0 + .. + i_{d-1} = wave: the group numbers the outer ones.
    k << "  int sum = 0;\n";
    for (int l = d - 2; l >= 0; --l)
      k << "  const int i" << l << " = group % " << g.m[l] << "; group /= " << g.m[l]
        << "; sum += i" << l << ";\n";
    k << "  const int i" << d - 1 << " = wave - sum;\n";
    k << "  if (i" << d - 1 << " < 0 || i" << d - 1 << " >= " << g.m[d - 1] << ") return;\n";
  } else {
    for (int l = d - 1; l >= 0; --l) {
      int64_t count = g.diamond_tiles(l, phase >> l & 1);
      k << "  const int i" << l << " = group % " << count << "; group /= " << count << ";\n";
    }
  }
  k << "  for (int t = 1; t <= " << h << "; ++t) {\n";
  for (int l = 0; l < d; ++l) {
    auto [lo, hi] = range_text(g, phase, l, "t");
    auto [plo, phi] = range_text(g, phase, l, "t - 1");
    auto [nlo, nhi] = range_text(g, phase, l, "t + 1");
    k << "    const int lo" << l << " = " << lo << ", hi" << l << " = " << hi << ";\n";
    k << "    const int own_lo" << l << " = " << plo << ", own_hi" << l << " = " << phi << ";\n";
    k << "    const int o" << l << " = lo" << l << " - " << R << ", n" << l << " = hi" << l
      << " - lo" << l << " + 2*" << R << ";\n";
    k << "    const int next_o" << l << " = " << nlo << " - " << R << ";\n";
    k << "    const int c" << l << " = max(hi" << l << " - lo" << l << ", 0);\n";
  }
  std::string window_count, count, own, inside, crosses, exported;
  for (int l = 0; l < d; ++l) {
    std::string L = s(l), N = s(g.N[l]);
    auto join = [](std::string& to, const std::string& op, const std::string& what) {
      to = to.empty() ? what : to + op + what;
    };
    join(window_count, "*", "n" + L);
    join(count, "*", "c" + L);
    join(own, " && ", "p" + L + " >= own_lo" + L + " && p" + L + " < own_hi" + L);
    join(inside, " && ", "p" + L + " >= 0 && p" + L + " < " + N);
    join(crosses, " || ", "o" + L + " < 0 || o" + L + " + n" + L + " > " + N);
    // Later launches read the points within 2r of the edges of this tile that face tiles they
    // compute: every edge of a parallelogram, the edges of a diamond's upright dimensions.
    if (wavefront || !(phase >> l & 1))
      join(exported, " || ",
           "p" + L + " < lo" + L + " + 2*" + R + " || p" + L + " >= hi" + L + " - 2*" + R);
  }
  // 1. What the tile did not compute at t-1 comes from global memory.
  k << "    for (int q = lid; q < " << window_count << "; q += " << LS << ") {\n";
  decompose(k, g, "      ", "q", "n", "o");
  std::string load_condition = "(t == 1 || !(" + own + "))";
  if (!g.wrap)
    load_condition += " && " + inside;
  k << "      if (" << load_condition << ") {\n";
  k << "        const int at = " << grid_index(g) << ";\n";
  k << "        prev[" << box_index(g, box, "p", "o") << "] = t == 1 ? in[at] : levels[(t - 2)*"
    << spec.grid_points << " + at];\n      }\n    }\n";
  k << "    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n";
  // 2. Positions outside the grid: the boundary of level t-1 (no such positions on a torus).
  if (!g.wrap) {
    k << "    if (" << crosses << ") {\n";
    k << "      for (int q = lid; q < " << window_count << "; q += " << LS << ") {\n";
    decompose(k, g, "        ", "q", "n", "o");
    k << "        if (!(" << inside << ")) {\n";
    std::string value;
    if (g.boundary.kind == Boundary::Constant) {
      value = ScalarValue::make(spec.element, g.boundary.value.as_double()).to_string();
    } else {
      k << "          int sign = 1;\n";
      for (int l = 0; l < d; ++l) {
        std::string p = "p" + s(l), N = s(g.N[l]);
        if (g.boundary.kind == Boundary::Clamp)
          k << "          const int s" << l << " = clamp(" << p << ", 0, " << N << " - 1);\n";
        else // mirror and antisymmetric: -1 -> 0, N -> N-1
          k << "          const int s" << l << " = " << p << " < 0 ? -1 - " << p << " : (" << p
            << " >= " << N << " ? 2*" << N << " - 1 - " << p << " : " << p << ");\n";
        if (g.boundary.kind == Boundary::Antisymmetric)
          k << "          if (s" << l << " != " << p << ") sign = -sign;\n";
      }
      value = "prev[" + box_index(g, box, "s", "o") + "]";
      if (g.boundary.kind == Boundary::Antisymmetric)
        value = "(sign < 0 ? -" + value + " : " + value + ")";
    }
    k << "          prev[" << box_index(g, box, "p", "o") << "] = " << value << ";\n";
    k << "        }\n      }\n      barrier(CLK_LOCAL_MEM_FENCE);\n    }\n";
  }
  // 3. The tile's points at level t.
  k << "    for (int q = lid; q < " << count << "; q += " << LS << ") {\n";
  decompose(k, g, "      ", "q", "c", "lo");
  for (int l = 0; l < d; ++l)
    k << "      const int w" << l << " = p" << l << " - " << R << " - o" << l << ";\n";
  k << "      " << T << " res;\n" << point;
  k << "      const int at = " << grid_index(g) << ";\n";
  k << "      if (t == " << h << ") {\n        out[at] = res;\n      } else {\n";
  k << "        cur[" << box_index(g, box, "p", "next_o") << "] = res;\n";
  if (!exported.empty())
    k << "        if (" << exported << ") levels[(t - 1)*" << spec.grid_points << " + at] = res;\n";
  k << "      }\n    }\n";
  k << "    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n";
  k << "    __local " << T << "* swap = prev; prev = cur; cur = swap;\n  }\n}\n";

  Kernel kernel;
  kernel.name = spec.name;
  kernel.source = "// Generated by tessera.\n" + emitter.helpers_source(point) + k.str();
  Type flat = Type::array(Type::scalar(spec.element), spec.level_points);
  kernel.params = {
      {KernelParam::Input, "in", spec.grid, spec.element, spec.grid_points},
      {KernelParam::Input, "levels", flat, spec.element, spec.level_points},
      {KernelParam::Output, "out", spec.grid, spec.element, spec.grid_points},
  };
  if (wavefront)
    kernel.params.push_back({KernelParam::Size, "wave", i32(), ScalarKind::I32, 1});
  kernel.launch.dims = 1;
  kernel.launch.global[0] = spec.groups * LS;
  kernel.launch.local = {LS, 0, 0};
  kernel.output_type = spec.grid;
  kernel.local_memory_bytes = 2 * box_size *
                              (spec.element == ScalarKind::F64  ? 8
                               : spec.element == ScalarKind::U8 ? 1
                                                                : 4);
  kernel.program_text = spec.program_text;
  return kernel;
}

} // namespace tessera::codegen
