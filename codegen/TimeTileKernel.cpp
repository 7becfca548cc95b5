// The kernel of a time-tiled program for bands of h levels, one work-group per tile: launched
// once per number of inverted dimensions of the diamond phases (its argument `inverted`) or
// per parallelogram wavefront (`wave`).
//
// Per level t a work-group
//   1. loads into local memory the part of its window (its range at t plus r on each side) that
//      it did not compute itself at t-1: from the band's input (t = 1) or from the compact edge
//      buffer (TimeTileGeometry::edge_points), where earlier launches left the edges of their
//      tiles;
//   2. copies the edges of its level t-1 that later launches read (the 2r points inside each
//      edge they depend on) from local memory to the edge buffer;
//   3. fills the window's positions outside the grid from their boundary source positions (as
//      the unfused step's Pad does with the whole level t-1), or the constant;
//   4. computes f on every point of its range into local memory, the last level to the band's
//      output.
// Per band a tile reads its window of the grid once, writes its range once, and moves only the
// edges through global memory in between. Local memory holds two levels (ping-pong), each
// indexed from the window's origin of the level that reads it.
#include <bit>
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

// The flat index of the grid position p<0..d-1> (wrapped into the grid for periodic grids), or
// with `edge` >= 0 of the position in an edge slot: dimension `edge` is the slot coordinate q
// (extent 4r), the others grid coordinates.
std::string grid_index(const TimeTileGeometry& g, int edge = -1, const std::string& q = "") {
  std::string index;
  for (int l = 0; l < g.d; ++l) {
    std::string p = "p" + s(l), N = s(l == edge ? 4 * g.r : g.N[l]);
    if (l == edge)
      p = "(" + q + ")";
    else if (g.wrap)
      p = "((" + p + " % " + N + " + " + N + ") % " + N + ")";
    index = index.empty() ? p : "(" + index + ")*" + N + " + " + p;
  }
  return index;
}

// The element of the edge buffer for dimension l, the value level `level` (1..h-1, a C
// expression), the cut of slot `slot` at position `at` and the position p<0..d-1> next to it.
std::string edge_element(const TimeTileGeometry& g, int64_t h, int l, const std::string& level,
                         const std::string& slot, const std::string& at) {
  // q: [c - (t+2)r, c - tr) -> [0, 2r), [c + tr, c + (t+2)r) -> [2r, 4r).
  std::string e = "(p" + s(l) + " - (" + at + "))", t = "(" + level + ")", R = s(g.r);
  std::string q =
      e + " < 0 ? " + e + " + (" + t + " + 2)*" + R + " : " + e + " - " + t + "*" + R + " + 2*" + R;
  return "levels[" + s(g.edge_offset(l, h)) + " + (" + t + " - 1)*" + s(g.edge_level_points(l)) +
         " + (" + slot + ")*" + s(g.edge_slot_points(l)) + " + " + grid_index(g, l, q) + "]";
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

// Runs `body` for every position p<l> of the box [lo<l>, hi<l>) (a few points wide in some
// dimension: edge strips): one work-item walks it as a loop nest; several share one loop over
// the flattened box (the row-and-column split of open_box_loops would leave most of them idle).
void strip_loops(std::ostringstream& o, int d, const std::vector<std::string>& lo,
                 const std::vector<std::string>& hi, int64_t LS, std::string indent,
                 const std::string& body) {
  std::string close;
  if (LS == 1) {
    for (int l = 0; l < d; ++l) {
      o << indent << "for (int p" << l << " = " << lo[static_cast<std::size_t>(l)] << "; p" << l
        << " < " << hi[static_cast<std::size_t>(l)] << "; ++p" << l << ") {\n";
      close = indent + "}\n" + close;
      indent += "  ";
    }
  } else {
    o << indent << "{\n";
    std::string count = "1";
    for (int l = 0; l < d; ++l) {
      o << indent << "  const int e" << l << " = max(0, " << hi[static_cast<std::size_t>(l)]
        << " - (" << lo[static_cast<std::size_t>(l)] << "));\n";
      count += "*e" + s(l);
    }
    o << indent << "  for (int f = lid; f < " << count << "; f += " << LS << ") {\n";
    o << indent << "    int rest = f;\n";
    for (int l = d - 1; l >= 0; --l)
      o << indent << "    const int p" << l << " = " << lo[static_cast<std::size_t>(l)] << " + rest"
        << (l ? " % e" + s(l) : "") << ";" << (l ? " rest /= e" + s(l) + ";" : "") << "\n";
    close = indent + "  }\n" + indent + "}\n";
    indent += "    ";
  }
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);)
    o << indent << line << "\n";
  o << close;
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
    << (wavefront ? ", const int wave" : ", const int inverted") << ") {\n";
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
    // The launch runs the phases with `inverted` inverted dimensions, their tiles one after the
    // other in the numbering of the work-groups.
    k << "  int phase = -1;\n";
    for (int phase = 0; phase < (1 << d); ++phase) {
      int64_t tiles = 1;
      for (int l = 0; l < d; ++l)
        tiles *= g.diamond_tiles(l, phase >> l & 1);
      k << "  if (phase < 0 && inverted == " << std::popcount(static_cast<unsigned>(phase))
        << ") { if (group < " << tiles << ") phase = " << phase << "; else group -= " << tiles
        << "; }\n";
    }
    k << "  if (phase < 0) return; // a launch is as wide as the widest set of phases\n";
    for (int l = d - 1; l >= 0; --l) {
      std::string count = "((phase >> " + s(l) + " & 1) ? " + s(g.diamond_tiles(l, true)) + " : " +
                          s(g.diamond_tiles(l, false)) + ")";
      k << "  const int i" << l << " = group % " << count << "; group /= " << count << ";\n";
    }
  }
  // The cuts whose edge slots the tile reads: a diamond inverted in dimension l reads both sides
  // of its cut; a parallelogram reads the cut at its left and, on a torus, the last tile the
  // cut at N (slot 0) at its right.
  for (int l = 0; l < d; ++l) {
    std::string i = "i" + s(l), W = s(g.W[l]), L = s(l);
    if (wavefront)
      k << "  const int rlc" << L << " = " << i << "*" << W << ", rls" << L << " = " << i << ", rrc"
        << L << " = " << i << " == " << g.m[l] - 1 << " ? " << g.N[l] << " : (" << i << " + 1)*"
        << W << ", rrs" << L << " = (" << i << " + 1) % " << g.m[l] << ";\n";
    else
      k << "  const int rlc" << L << " = " << (g.wrap ? i : "(" + i + " + 1)") << "*" << W
        << ", rls" << L << " = rlc" << L << " / " << W << ", rrc" << L << " = rlc" << L << ", rrs"
        << L << " = rls" << L << ";\n";
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
  // The window, and its part inside the grid (what is loaded; all of it on a torus).
  std::vector<std::string> window_lo, window_hi, clip_lo, clip_hi, lo, hi;
  for (int l = 0; l < d; ++l) {
    std::string L = s(l), N = s(g.N[l]);
    window_lo.push_back("o" + L);
    window_hi.push_back("o" + L + " + n" + L);
    clip_lo.push_back(g.wrap ? "o" + L : "max(o" + L + ", 0)");
    clip_hi.push_back(g.wrap ? "o" + L + " + n" + L : "min(o" + L + " + n" + L + ", " + N + ")");
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
  // Runs `body` for every position of the box [base_lo<m>, base_hi<m>) with dimension l in
  // [from, to) (l < 0: all).
  auto window_loops = [&](const std::vector<std::string>& base_lo,
                          const std::vector<std::string>& base_hi, int l, const std::string& from,
                          const std::string& to, const std::string& body) {
    auto a = base_lo, b = base_hi;
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
  // later the strips of its window outside its range at t-1 (none for upright diamonds), from
  // the edge buffer, relative to the cut rc<l> they face (slot rs<l>).
  std::string at = "const int at = " + grid_index(g) + ";\n";
  std::string store = "prev[" + box_index(g, box, "p", "o") + "] = ";
  k << "    if (t == 1) {\n";
  window_loops(clip_lo, clip_hi, -1, "", "", store + "in[" + grid_index(g) + "];");
  k << "    }";
  // Runs `body` on a strip of [from, to) in dimension l and [lo<m>, hi<m>) in the others.
  auto strip = [&](const std::vector<std::string>& base_lo, const std::vector<std::string>& base_hi,
                   int l, const std::string& from, const std::string& to, const std::string& body) {
    auto a = base_lo, b = base_hi;
    a[static_cast<std::size_t>(l)] = from;
    b[static_cast<std::size_t>(l)] = to;
    strip_loops(k, d, a, b, LS, "      ", body);
  };
  k << (wavefront ? " else {\n" : " else if (phase != 0) {\n");
  for (int l = 0; l < d; ++l) {
    std::string L = s(l);
    auto load = [&](const std::string& side) {
      return store + edge_element(g, h, l, "t - 1", "r" + side + "s" + L, "r" + side + "c" + L) +
             ";";
    };
    std::string from = clip_lo[static_cast<std::size_t>(l)],
                to = clip_hi[static_cast<std::size_t>(l)];
    strip(clip_lo, clip_hi, l, from, "min(own_lo" + L + ", " + to + ")", load("l"));
    strip(clip_lo, clip_hi, l, "max(own_hi" + L + ", " + from + ")", to, load("r"));
  }
  k << "    }\n";
  // One work-item per tile needs no barriers (on a CPU device they split the kernel into
  // regions whose live values go through memory).
  const std::string barrier = LS > 1 ? "barrier(CLK_LOCAL_MEM_FENCE);\n" : "";
  k << "    " << barrier;
  // 2. The edges of level t-1 that later launches read, from local memory to the edge buffer:
  // the 2r points inside each edge of a dimension in which the tile is upright (diamonds) or
  // that faces a later tile (parallelograms: the right edge, and on a torus the first tile's
  // left edge, which the last tile reads).
  if (h > 1) {
    k << "    if (t > 1) {\n";
    std::vector<std::string> own_lo, own_hi;
    for (int l = 0; l < d; ++l) {
      own_lo.push_back("own_lo" + s(l));
      own_hi.push_back("own_hi" + s(l));
    }
    std::string value = " = prev[" + box_index(g, box, "p", "o") + "];";
    for (int l = 0; l < d; ++l) {
      std::string L = s(l), i = "i" + L, m1 = s(g.m[l] - 1);
      std::string upright = wavefront ? "" : "!(phase >> " + L + " & 1) && ";
      std::string left =
          wavefront ? (g.wrap ? i + " == 0" : "") : upright + (g.wrap ? "1" : i + " > 0");
      std::string right = wavefront ? i + " < " + m1 : upright + (g.wrap ? "1" : i + " < " + m1);
      if (!left.empty()) {
        k << "      if (" << left << ") {\n";
        strip(own_lo, own_hi, l, "own_lo" + L,
              "min(own_lo" + L + " + 2*" + R + ", own_hi" + L + ")",
              edge_element(g, h, l, "t - 1", i, i + "*" + s(g.W[l])) + value);
        k << "      }\n";
      }
      k << "      if (" << right << ") {\n";
      strip(own_lo, own_hi, l, "max(own_hi" + L + " - 2*" + R + ", own_lo" + L + ")", "own_hi" + L,
            edge_element(g, h, l, "t - 1", "(" + i + " + 1) % " + s(g.m[l]),
                         "(" + i + " == " + m1 + " ? " + s(g.N[l]) + " : (" + i + " + 1)*" +
                             s(g.W[l]) + ")") +
                value);
      k << "      }\n";
    }
    k << "    }\n";
  }
  // 3. Positions outside the grid: the boundary of level t-1 (no such positions on a torus).
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
      window_loops(window_lo, window_hi, l, "o" + L, "min(0, o" + L + " + n" + L + ")",
                   ghost.str());
      window_loops(window_lo, window_hi, l, "max(" + N + ", o" + L + ")", "o" + L + " + n" + L,
                   ghost.str());
    }
    k << "      " << barrier << "    }\n";
  }
  // 4. The tile's points at level t: the last level to the output, the others to local memory
  // (two loops: no test of t per point, nothing but the store in the loop, which vectorises).
  auto compute_loop = [&](const std::string& keep) {
    std::string indent = "      ";
    std::string close = open_box_loops(k, d, lo, hi, LS, indent);
    for (int l = 0; l < d; ++l)
      k << indent << "const int w" << l << " = p" << l << " - " << R << " - o" << l << ";\n";
    k << indent << T << " res;\n" << point;
    std::istringstream lines(keep);
    for (std::string line; std::getline(lines, line);)
      k << indent << line << "\n";
    k << close;
  };
  k << "    if (t == " << h << ") {\n";
  compute_loop(at + "out[at] = res;");
  k << "    } else {\n";
  compute_loop("cur[" + box_index(g, box, "p", "next_o") + "] = res;");
  k << "    }\n";
  k << "    box_prev = cur;\n    box_cur = prev;\n  }\n}\n";

  Kernel kernel;
  kernel.name = spec.name;
  kernel.source = "// Generated by tessera.\n" + emitter.helpers_source() + k.str();
  Type flat = Type::array(Type::scalar(spec.element), spec.level_points);
  kernel.params = {
      {KernelParam::Input, "in", spec.grid, spec.element, spec.grid_points},
      {KernelParam::Input, "levels", flat, spec.element, spec.level_points, AddressSpace::Global,
       /*written=*/true},
      {KernelParam::Output, "out", spec.grid, spec.element, spec.grid_points},
  };
  kernel.params.push_back(
      {KernelParam::Size, wavefront ? "wave" : "inverted", i32(), ScalarKind::I32, 1});
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
