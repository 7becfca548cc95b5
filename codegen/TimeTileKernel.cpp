// The kernel of a time-tiled program for bands of h levels, one work-group per tile: launched
// once per diamond phase (its argument `phase`) or parallelogram wavefront (`wave`).
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
#include "codegen/ScalarC.h"
#include "codegen/TimeTiled.h"
#include "core/Error.h"

namespace tessera::codegen {

namespace {

std::string s(int64_t v) {
  return std::to_string(v);
}

// The C expressions of a tile's range [lo, hi) in dimension l at level `t` (a C expression),
// the tile index being the variable i<l>.
std::pair<std::string, std::string> range_text(const TimeTileGeometry& g, bool wavefront, int l,
                                               const std::string& t) {
  std::string i = "i" + s(l), W = s(g.W[l]), N = s(g.N[l]), m1 = s(g.m[l] - 1);
  std::string tr = "(" + t + ")*" + s(g.r);
  std::string hi_cut = "(" + i + " == " + m1 + " ? " + N + " : (" + i + " + 1)*" + W + ")";
  if (wavefront) { // parallelogram
    std::string lo = g.wrap ? "(" + i + " == 0 ? " + tr + " : " + i + "*" + W + " - " + tr + ")"
                            : "(" + i + " == 0 ? 0 : " + i + "*" + W + " - " + tr + ")";
    std::string hi = "(" + i + " == " + m1 + " ? " + N + (g.wrap ? " + " + tr : "") + " : (" + i +
                     " + 1)*" + W + " - " + tr + ")";
    return {lo, hi};
  }
  // Diamonds: inverted around a cut in the dimensions whose bit of `phase` is set, upright in
  // the others.
  std::string c = g.wrap ? i + "*" + W : "(" + i + " + 1)*" + W;
  std::string lo = g.wrap ? "(" + i + "*" + W + " + " + tr + ")"
                          : "(" + i + "*" + W + " + (" + i + " > 0 ? " + tr + " : 0))";
  std::string hi = g.wrap ? "(" + hi_cut + " - " + tr + ")"
                          : "(" + hi_cut + " - (" + i + " < " + m1 + " ? " + tr + " : 0))";
  std::string inverted = "(phase >> " + s(l) + " & 1)";
  return {"(" + inverted + " ? " + c + " - " + tr + " : " + lo + ")",
          "(" + inverted + " ? " + c + " + " + tr + " : " + hi + ")"};
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

// Opens loops over the box [lo<l>, hi<l>) (C expressions per dimension) that declare p<l>: the
// work-items of a group take neighbouring positions of the innermost dimension (X of them, a
// power of two, a variable of the kernel) and LS/X rows of the next one; outer dimensions are
// walked by all together. Returns the closing text.
std::string open_box_loops(std::ostringstream& o, int d, const std::vector<std::string>& lo,
                           const std::vector<std::string>& hi, int64_t LS, std::string& indent) {
  std::string close;
  for (int l = 0; l < d; ++l) {
    std::string p = "p" + s(l);
    std::string start = lo[static_cast<std::size_t>(l)], step = "1";
    if (l == d - 1) {
      start += d == 1 ? " + lid" : " + lid % X";
      step = d == 1 ? s(LS) : "X";
    } else if (l == d - 2) {
      start += " + lid / X";
      step = s(LS) + " / X";
    }
    o << indent << "for (int " << p << " = " << start << "; " << p << " < "
      << hi[static_cast<std::size_t>(l)] << "; " << p << " += " << step << ") {\n";
    close = indent + "}\n" + close;
    indent += "  ";
  }
  return close;
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
  const bool wavefront = spec.scheme == TimeTileScheme::Parallelogram;
  const int64_t h = spec.band;
  const int64_t LS = spec.local_size;
  const std::string T = scalar_c_type(spec.element);
  const std::string R = s(g.r);
  std::array<int64_t, 3> box{1, 1, 1};
  for (int phase = wavefront ? -1 : 0; phase < (wavefront ? 0 : 1 << d); ++phase)
    for (int l = 0; l < d; ++l)
      box[l] = std::max(box[l], g.box(phase, h)[l]);
  int64_t box_size = 1;
  for (int l = 0; l < d; ++l)
    box_size *= box[l];

  Emitter emitter(spec.f, {});
  std::string point =
      emitter.point_statements(spec.f, neighbourhood_view(g, box, spec.element),
                               neighbourhood_type(g, spec.element), "res", spec.element, 3);

  std::ostringstream k;
  k << "\n__kernel void " << spec.name << "(const __global " << T << "* restrict in, __global " << T
    << "* restrict levels, __global " << T << "* restrict out"
    << (wavefront ? ", const int wave" : ", const int phase") << ") {\n";
  k << "  __local " << T << " box_a[" << box_size << "], box_b[" << box_size << "];\n";
  k << "  __local " << T << "* box_prev = box_a;\n  __local " << T << "* box_cur = box_b;\n";
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
      std::string count = "((phase >> " + s(l) + " & 1) ? " + s(g.diamond_tiles(l, true)) + " : " +
                          s(g.diamond_tiles(l, false)) + ")";
      k << "  const int i" << l << " = group % " << count << "; group /= " << count << ";\n";
    }
    k << "  if (group != 0) return; // a launch is as wide as the phase with the most tiles\n";
  }
  k << "  for (int t = 1; t <= " << h << "; ++t) {\n";
  // Within a level the two boxes do not overlap: restrict lets the compiler vectorise.
  k << "    __local " << T << "* restrict prev = box_prev;\n    __local " << T
    << "* restrict cur = box_cur;\n";
  for (int l = 0; l < d; ++l) {
    auto [lo, hi] = range_text(g, wavefront, l, "t");
    auto [plo, phi] = range_text(g, wavefront, l, "t - 1");
    auto [nlo, nhi] = range_text(g, wavefront, l, "t + 1");
    k << "    const int lo" << l << " = " << lo << ", hi" << l << " = " << hi << ";\n";
    k << "    const int own_lo" << l << " = " << plo << ", own_hi" << l << " = " << phi << ";\n";
    k << "    const int o" << l << " = lo" << l << " - " << R << ", n" << l << " = hi" << l
      << " - lo" << l << " + 2*" << R << ";\n";
    k << "    const int next_o" << l << " = " << nlo << " - " << R << ";\n";
  }
  std::string inside, exported;
  std::vector<std::string> window_lo, window_hi, lo, hi;
  for (int l = 0; l < d; ++l) {
    std::string L = s(l), N = s(g.N[l]);
    auto join = [](std::string& to, const std::string& op, const std::string& what) {
      to = to.empty() ? what : to + op + what;
    };
    join(inside, " && ", "p" + L + " >= 0 && p" + L + " < " + N);
    // Later launches read the points within 2r of the edges of this tile that face tiles they
    // compute: every edge of a parallelogram, the edges of a diamond's upright dimensions.
    std::string near_edge =
        "p" + L + " < lo" + L + " + 2*" + R + " || p" + L + " >= hi" + L + " - 2*" + R;
    join(exported, " || ",
         wavefront ? near_edge : "(!(phase >> " + L + " & 1) && (" + near_edge + "))");
    window_lo.push_back("o" + L);
    window_hi.push_back("o" + L + " + n" + L);
    lo.push_back("lo" + L);
    hi.push_back("hi" + L);
  }
  // Work-items side by side along the innermost dimension, as many as its usual width (a power
  // of two): the tile width, or 2hr for inverted diamonds.
  auto columns = [&](int64_t inner) {
    int64_t X = d == 1 ? LS : 1;
    while (X * 2 <= std::min(LS, inner))
      X *= 2;
    return X;
  };
  int64_t X_upright = columns(g.W[d - 1]), X_inverted = columns(2 * h * g.r);
  if (wavefront || X_upright == X_inverted)
    k << "    const int X = " << X_upright << ";\n";
  else
    k << "    const int X = (phase >> " << d - 1 << " & 1) ? " << X_inverted << " : " << X_upright
      << ";\n";
  // Runs `body` for every position of the window with dimension l in [from, to) (l < 0: all).
  auto window_loops = [&](int l, const std::string& from, const std::string& to,
                          const std::string& body) {
    auto a = window_lo, b = window_hi;
    if (l >= 0) {
      a[static_cast<std::size_t>(l)] = from;
      b[static_cast<std::size_t>(l)] = to;
    }
    std::string indent = "    ";
    std::string close = open_box_loops(k, d, a, b, LS, indent);
    std::istringstream lines(body);
    for (std::string line; std::getline(lines, line);)
      k << indent << line << "\n";
    k << close;
  };
  // 1. What the tile did not compute at t-1 comes from global memory: at t = 1 its whole window,
  // later the bands of its window outside its range at t-1 (none for upright diamonds).
  std::string at = "const int at = " + grid_index(g) + ";\n";
  std::string store = "prev[" + box_index(g, box, "p", "o") + "] = ";
  std::string guard = g.wrap ? "" : "if (" + inside + ") ";
  k << "    if (t == 1) {\n";
  window_loops(-1, "", "",
               guard + "prev[" + box_index(g, box, "p", "o") + "] = in[" + grid_index(g) + "];");
  k << "    }";
  {
    // Upright diamonds compute their whole window themselves (phase 0).
    k << (wavefront ? " else {\n" : " else if (phase != 0) {\n");
    for (int l = 0; l < d; ++l) {
      std::string L = s(l);
      std::string load =
          guard + store + "levels[(t - 2)*" + s(spec.grid_points) + " + " + grid_index(g) + "];";
      window_loops(l, "o" + L, "min(own_lo" + L + ", o" + L + " + n" + L + ")", load);
      window_loops(l, "max(own_hi" + L + ", o" + L + ")", "o" + L + " + n" + L, load);
    }
    k << "    }\n";
    k << "    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n";
  }
  // 2. Positions outside the grid: the boundary of level t-1 (no such positions on a torus).
  if (!g.wrap) {
    std::string crosses;
    for (int l = 0; l < d; ++l)
      crosses +=
          (l ? " || o" : "o") + s(l) + " < 0 || o" + s(l) + " + n" + s(l) + " > " + s(g.N[l]);
    std::ostringstream ghost;
    std::string value;
    if (g.boundary.kind == Boundary::Constant) {
      value = ScalarValue::make(spec.element, g.boundary.value.as_double()).to_string();
    } else {
      ghost << "int sign = 1;\n";
      for (int l = 0; l < d; ++l) {
        std::string p = "p" + s(l), N = s(g.N[l]);
        if (g.boundary.kind == Boundary::Clamp)
          ghost << "const int s" << l << " = clamp(" << p << ", 0, " << N << " - 1);\n";
        else // mirror and antisymmetric: -1 -> 0, N -> N-1
          ghost << "const int s" << l << " = " << p << " < 0 ? -1 - " << p << " : (" << p
                << " >= " << N << " ? 2*" << N << " - 1 - " << p << " : " << p << ");\n";
        if (g.boundary.kind == Boundary::Antisymmetric)
          ghost << "if (s" << l << " != " << p << ") sign = -sign;\n";
      }
      value = "prev[" + box_index(g, box, "s", "o") + "]";
      if (g.boundary.kind == Boundary::Antisymmetric)
        value = "(sign < 0 ? -" + value + " : " + value + ")";
    }
    ghost << store << value << ";";
    k << "    if (" << crosses << ") {\n";
    for (int l = 0; l < d; ++l) {
      std::string L = s(l), N = s(g.N[l]);
      window_loops(l, "o" + L, "min(0, o" + L + " + n" + L + ")", ghost.str());
      window_loops(l, "max(" + N + ", o" + L + ")", "o" + L + " + n" + L, ghost.str());
    }
    k << "      barrier(CLK_LOCAL_MEM_FENCE);\n    }\n";
  }
  // 3. The tile's points at level t: the last level to the output, the others to local memory
  // and their edges to the level buffer (two loops: no test of t per point).
  auto compute_loop = [&](const std::string& keep) {
    std::string indent = "      ";
    std::string close = open_box_loops(k, d, lo, hi, LS, indent);
    for (int l = 0; l < d; ++l)
      k << indent << "const int w" << l << " = p" << l << " - " << R << " - o" << l << ";\n";
    k << indent << T << " res;\n" << point << indent << at;
    std::istringstream lines(keep);
    for (std::string line; std::getline(lines, line);)
      k << indent << line << "\n";
    k << close;
  };
  k << "    if (t == " << h << ") {\n";
  compute_loop("out[at] = res;");
  k << "    } else {\n";
  std::string keep = "cur[" + box_index(g, box, "p", "next_o") + "] = res;";
  if (!exported.empty())
    keep += "\nif (" + exported + ") levels[(t - 1)*" + s(spec.grid_points) + " + at] = res;";
  compute_loop(keep);
  k << "    }\n";
  k << "    box_prev = cur;\n    box_cur = prev;\n  }\n}\n";

  Kernel kernel;
  kernel.name = spec.name;
  kernel.source = "// Generated by tessera.\n" + emitter.helpers_source(point) + k.str();
  Type flat = Type::array(Type::scalar(spec.element), spec.level_points);
  kernel.params = {
      {KernelParam::Input, "in", spec.grid, spec.element, spec.grid_points},
      {KernelParam::Input, "levels", flat, spec.element, spec.level_points},
      {KernelParam::Output, "out", spec.grid, spec.element, spec.grid_points},
  };
  kernel.params.push_back(
      {KernelParam::Size, wavefront ? "wave" : "phase", i32(), ScalarKind::I32, 1});
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
