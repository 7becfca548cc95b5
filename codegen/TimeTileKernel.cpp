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

// Loops over the box [lo<l>, hi<l>) (C expressions per dimension) that declare p<l>, around
// `body`: the work-items of a group take neighbouring positions of the innermost dimension (X
// of them, a power of two, a variable of the kernel) and LS/X rows of the next one; outer
// dimensions are walked by all together.
Stmt box_loops(int d, const std::vector<std::string>& lo, const std::vector<std::string>& hi,
               int64_t LS, Block body) {
  for (int l = d - 1; l >= 0; --l) {
    std::string p = "p" + s(l);
    std::string start = lo[static_cast<std::size_t>(l)], step = "1";
    if (l == d - 1) {
      start += d == 1 ? " + lid" : " + lid % X";
      step = d == 1 ? s(LS) : "X";
    } else if (l == d - 2) {
      start += " + lid / X";
      step = s(LS) + " / X";
    }
    body = {Stmt::nest("for (int " + p + " = " + start + "; " + p + " < " +
                           hi[static_cast<std::size_t>(l)] + "; " + p + " += " + step + ")",
                       std::move(body))};
  }
  return std::move(body.front());
}

// `body` for every position p<l> of the box [lo<l>, hi<l>) (a few points wide in some
// dimension: edge strips): one work-item walks it as a loop nest; several share one loop over
// the flattened box (the row-and-column split of box_loops would leave most of them idle).
Stmt strip_loops(int d, const std::vector<std::string>& lo, const std::vector<std::string>& hi,
                 int64_t LS, Block body) {
  if (LS == 1) {
    for (int l = d - 1; l >= 0; --l)
      body = {Stmt::nest("for (int p" + s(l) + " = " + lo[static_cast<std::size_t>(l)] + "; p" +
                             s(l) + " < " + hi[static_cast<std::size_t>(l)] + "; ++p" + s(l) + ")",
                         std::move(body))};
    return std::move(body.front());
  }
  Block flat, positions{Stmt::line("int rest = f;")};
  std::string count = "1";
  for (int l = 0; l < d; ++l) {
    flat.push_back(Stmt::line("const int e" + s(l) + " = max(0, " +
                              hi[static_cast<std::size_t>(l)] + " - (" +
                              lo[static_cast<std::size_t>(l)] + "));"));
    count += "*e" + s(l);
  }
  for (int l = d - 1; l >= 0; --l)
    positions.push_back(Stmt::line("const int p" + s(l) + " = " + lo[static_cast<std::size_t>(l)] +
                                   " + rest" + (l ? " % e" + s(l) : "") + ";" +
                                   (l ? " rest /= e" + s(l) + ";" : "")));
  positions.insert(positions.end(), body.begin(), body.end());
  flat.push_back(
      Stmt::nest("for (int f = lid; f < " + count + "; f += " + s(LS) + ")", std::move(positions)));
  return Stmt::nest("", std::move(flat)); // a bare block: e<l> stay local to it
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

namespace {

// The kernel as kernel IR, one method per part: the prologue (local boxes, the tile's indices,
// the cuts it reads), and per level the ranges, the window's load (1), the edges' store (2), the
// boundary's fill (3) and the computation (4), printed as every other kernel is.
class TimeTileWriter {
public:
  explicit TimeTileWriter(const TimeTileKernelSpec& spec);
  Kernel write();

private:
  std::string signature() const;
  Block prologue() const;
  Block wavefront_tile() const;
  Block diamond_tile() const;
  Block cuts() const;
  Stmt level_loop() const;
  Block level_ranges() const;
  Stmt columns() const;
  Stmt load_window() const;
  Stmt store_edges() const;
  Stmt fill_boundary() const;
  Stmt compute() const;
  Block barrier() const;
  Stmt window_loops(const std::vector<std::string>& base_lo,
                    const std::vector<std::string>& base_hi, int l, const std::string& from,
                    const std::string& to, Block body) const;
  Stmt strip(const std::vector<std::string>& base_lo, const std::vector<std::string>& base_hi,
             int l, const std::string& from, const std::string& to, Block body) const;
  Stmt compute_loop(Block keep) const;
  std::string store() const { return "prev[" + box_index(g_, box_, "p", "o") + "] = "; }

  const TimeTileKernelSpec& spec_;
  const TimeTileGeometry& g_;
  const int d_;
  const bool wavefront_;
  const int64_t h_, LS_;
  const std::string T_, R_;
  std::array<int64_t, 3> box_{1, 1, 1};
  int64_t box_size_ = 1;
  // The window, and its part inside the grid (what is loaded; all of it on a torus); the range.
  std::vector<std::string> window_lo_, window_hi_, clip_lo_, clip_hi_, lo_, hi_;
  Emitter emitter_;
  Block point_; // f of the neighbourhood at w<l> into res
};

TimeTileWriter::TimeTileWriter(const TimeTileKernelSpec& spec)
    : spec_(spec), g_(spec.geometry), d_(g_.d),
      wavefront_(spec.scheme == TimeTileScheme::Parallelogram), h_(spec.band), LS_(spec.local_size),
      T_(scalar_c_type(spec.element)), R_(s(g_.r)), emitter_(spec.f, {}) {
  for (int phase = wavefront_ ? -1 : 0; phase < (wavefront_ ? 0 : 1 << d_); ++phase)
    for (int l = 0; l < d_; ++l)
      box_[l] = std::max(box_[l], g_.box(phase, h_)[l]);
  for (int l = 0; l < d_; ++l)
    box_size_ *= box_[l];
  for (int l = 0; l < d_; ++l) {
    std::string L = s(l), N = s(g_.N[l]);
    window_lo_.push_back("o" + L);
    window_hi_.push_back("o" + L + " + n" + L);
    clip_lo_.push_back(g_.wrap ? "o" + L : "max(o" + L + ", 0)");
    clip_hi_.push_back(g_.wrap ? "o" + L + " + n" + L : "min(o" + L + " + n" + L + ", " + N + ")");
    lo_.push_back("lo" + L);
    hi_.push_back("hi" + L);
  }
  point_ = emitter_.point_block(spec.f, neighbourhood_view(g_, box_, spec.element),
                                neighbourhood_type(g_, spec.element), "res", spec.element);
}

Kernel TimeTileWriter::write() {
  Block body = prologue();
  body.push_back(level_loop());
  Kernel kernel;
  kernel.name = spec_.name;
  kernel.source = "// Generated by tessera.\n" + emitter_.helpers_source() + signature() +
                  print_opencl(body, 1) + "}\n";
  Type flat = Type::array(Type::scalar(spec_.element), spec_.level_points);
  kernel.params = {
      {KernelParam::Input, "in", spec_.grid, spec_.element, spec_.grid_points},
      {KernelParam::Input, "levels", flat, spec_.element, spec_.level_points, AddressSpace::Global,
       /*written=*/true},
      {KernelParam::Output, "out", spec_.grid, spec_.element, spec_.grid_points},
  };
  kernel.params.push_back(
      {KernelParam::Size, wavefront_ ? "wave" : "inverted", i32(), ScalarKind::I32, 1});
  kernel.launch.dims = 1;
  kernel.launch.global[0] = spec_.groups * LS_;
  kernel.launch.local = {LS_, 0, 0};
  kernel.output_type = spec_.grid;
  kernel.local_memory_bytes = 2 * box_size_ *
                              (spec_.element == ScalarKind::F64  ? 8
                               : spec_.element == ScalarKind::U8 ? 1
                                                                 : 4);
  kernel.program_text = spec_.program_text;
  return kernel;
}

std::string TimeTileWriter::signature() const {
  return "\n__kernel void " + spec_.name + "(const __global " + T_ + "* restrict in, __global " +
         T_ + "* restrict levels, __global " + T_ + "* restrict out" +
         (wavefront_ ? ", const int wave" : ", const int inverted") + ") {\n";
}

// The two local boxes (ping-pong), the work-item, the tile's index per dimension and the cuts
// it reads.
Block TimeTileWriter::prologue() const {
  std::string N = s(box_size_);
  Block b{Stmt::line("__local " + T_ + " box_a[" + N + "], box_b[" + N + "];"),
          Stmt::line("__local " + T_ + "* box_prev = box_a;"),
          Stmt::line("__local " + T_ + "* box_cur = box_b;"),
          Stmt::line("const int lid = get_local_id(0);"),
          Stmt::line("int group = get_group_id(0);")};
  Block tile = wavefront_ ? wavefront_tile() : diamond_tile();
  b.insert(b.end(), tile.begin(), tile.end());
  Block c = cuts();
  b.insert(b.end(), c.begin(), c.end());
  return b;
}

// Tiles (i0, .., i_{d-1}) with i0 + .. + i_{d-1} = wave: the group numbers the outer ones.
Block TimeTileWriter::wavefront_tile() const {
  Block b{Stmt::line("int sum = 0;")};
  for (int l = d_ - 2; l >= 0; --l)
    b.push_back(Stmt::line("const int i" + s(l) + " = group % " + s(g_.m[l]) +
                           "; group /= " + s(g_.m[l]) + "; sum += i" + s(l) + ";"));
  std::string last = "i" + s(d_ - 1);
  b.push_back(Stmt::line("const int " + last + " = wave - sum;"));
  b.push_back(
      Stmt::line("if (" + last + " < 0 || " + last + " >= " + s(g_.m[d_ - 1]) + ") return;"));
  return b;
}

// The launch runs the phases with `inverted` inverted dimensions, their tiles one after the
// other in the numbering of the work-groups.
Block TimeTileWriter::diamond_tile() const {
  Block b{Stmt::line("int phase = -1;")};
  for (int phase = 0; phase < (1 << d_); ++phase) {
    int64_t tiles = 1;
    for (int l = 0; l < d_; ++l)
      tiles *= g_.diamond_tiles(l, phase >> l & 1);
    b.push_back(Stmt::line(
        "if (phase < 0 && inverted == " + s(std::popcount(static_cast<unsigned>(phase))) +
        ") { if (group < " + s(tiles) + ") phase = " + s(phase) + "; else group -= " + s(tiles) +
        "; }"));
  }
  b.push_back(
      Stmt::line("if (phase < 0) return; // a launch is as wide as the widest set of phases"));
  for (int l = d_ - 1; l >= 0; --l) {
    std::string count = "((phase >> " + s(l) + " & 1) ? " + s(g_.diamond_tiles(l, true)) + " : " +
                        s(g_.diamond_tiles(l, false)) + ")";
    b.push_back(
        Stmt::line("const int i" + s(l) + " = group % " + count + "; group /= " + count + ";"));
  }
  return b;
}

// The cuts whose edge slots the tile reads: a diamond inverted in dimension l reads both sides
// of its cut; a parallelogram reads the cut at its left and, on a torus, the last tile the
// cut at N (slot 0) at its right.
Block TimeTileWriter::cuts() const {
  Block b;
  for (int l = 0; l < d_; ++l) {
    std::string i = "i" + s(l), W = s(g_.W[l]), L = s(l);
    if (wavefront_)
      b.push_back(Stmt::line("const int rlc" + L + " = " + i + "*" + W + ", rls" + L + " = " + i +
                             ", rrc" + L + " = " + i + " == " + s(g_.m[l] - 1) + " ? " +
                             s(g_.N[l]) + " : (" + i + " + 1)*" + W + ", rrs" + L + " = (" + i +
                             " + 1) % " + s(g_.m[l]) + ";"));
    else
      b.push_back(Stmt::line("const int rlc" + L + " = " + (g_.wrap ? i : "(" + i + " + 1)") + "*" +
                             W + ", rls" + L + " = rlc" + L + " / " + W + ", rrc" + L + " = rlc" +
                             L + ", rrs" + L + " = rls" + L + ";"));
  }
  return b;
}

// One band's levels: per level t the four parts, then the boxes swap.
Stmt TimeTileWriter::level_loop() const {
  // Within a level the two boxes do not overlap: restrict lets the compiler vectorise.
  Block b{Stmt::line("__local " + T_ + "* restrict prev = box_prev;"),
          Stmt::line("__local " + T_ + "* restrict cur = box_cur;")};
  Block ranges = level_ranges();
  b.insert(b.end(), ranges.begin(), ranges.end());
  b.push_back(columns());
  b.push_back(load_window());
  Block fence = barrier();
  b.insert(b.end(), fence.begin(), fence.end());
  if (h_ > 1)
    b.push_back(store_edges());
  if (!g_.wrap)
    b.push_back(fill_boundary());
  b.push_back(compute());
  // A barrier ends every level, although the next level's first barrier already orders its
  // reads: without it PoCL 3.1 (loops and loopvec) runs the compute loop's body once for
  // work-items past the tile's last row (p0 == hi0), writing past the output: heap corruption
  // in the host process (docs/reliability.md, tests/codegen/test_time_tiling.cpp).
  fence = barrier();
  b.insert(b.end(), fence.begin(), fence.end());
  b.push_back(Stmt::line("box_prev = cur;"));
  b.push_back(Stmt::line("box_cur = prev;"));
  return Stmt::nest("for (int t = 1; t <= " + s(h_) + "; ++t)", std::move(b));
}

// The tile's range at t, t-1 (what it computed itself) and its window's origin at t and t+1.
Block TimeTileWriter::level_ranges() const {
  Block b;
  for (int l = 0; l < d_; ++l) {
    auto [lo, hi] = range_text(g_, wavefront_, l, "t");
    auto [plo, phi] = range_text(g_, wavefront_, l, "t - 1");
    auto [nlo, nhi] = range_text(g_, wavefront_, l, "t + 1");
    std::string L = s(l);
    b.push_back(Stmt::line("const int lo" + L + " = " + lo + ", hi" + L + " = " + hi + ";"));
    b.push_back(
        Stmt::line("const int own_lo" + L + " = " + plo + ", own_hi" + L + " = " + phi + ";"));
    b.push_back(Stmt::line("const int o" + L + " = lo" + L + " - " + R_ + ", n" + L + " = hi" + L +
                           " - lo" + L + " + 2*" + R_ + ";"));
    b.push_back(Stmt::line("const int next_o" + L + " = " + nlo + " - " + R_ + ";"));
  }
  return b;
}

// Work-items side by side along the innermost dimension, as many as its usual width (a power
// of two): the tile width, or 2hr for inverted diamonds.
Stmt TimeTileWriter::columns() const {
  auto columns = [&](int64_t inner) {
    int64_t X = d_ == 1 ? LS_ : 1;
    while (X * 2 <= std::min(LS_, inner))
      X *= 2;
    return X;
  };
  int64_t X_upright = columns(g_.W[d_ - 1]), X_inverted = columns(2 * h_ * g_.r);
  if (wavefront_ || X_upright == X_inverted)
    return Stmt::line("const int X = " + s(X_upright) + ";");
  return Stmt::line("const int X = (phase >> " + s(d_ - 1) + " & 1) ? " + s(X_inverted) + " : " +
                    s(X_upright) + ";");
}

// One work-item per tile needs no barriers (on a CPU device they split the kernel into
// regions whose live values go through memory).
Block TimeTileWriter::barrier() const {
  if (LS_ > 1)
    return {Stmt::line("barrier(CLK_LOCAL_MEM_FENCE);")};
  return {};
}

// `body` for every position of the box [base_lo<m>, base_hi<m>) with dimension l in
// [from, to) (l < 0: all).
Stmt TimeTileWriter::window_loops(const std::vector<std::string>& base_lo,
                                  const std::vector<std::string>& base_hi, int l,
                                  const std::string& from, const std::string& to,
                                  Block body) const {
  auto a = base_lo, b = base_hi;
  if (l >= 0) {
    a[static_cast<std::size_t>(l)] = from;
    b[static_cast<std::size_t>(l)] = to;
  }
  return box_loops(d_, a, b, LS_, std::move(body));
}

// `body` on a strip of [from, to) in dimension l and [lo<m>, hi<m>) in the others.
Stmt TimeTileWriter::strip(const std::vector<std::string>& base_lo,
                           const std::vector<std::string>& base_hi, int l, const std::string& from,
                           const std::string& to, Block body) const {
  auto a = base_lo, b = base_hi;
  a[static_cast<std::size_t>(l)] = from;
  b[static_cast<std::size_t>(l)] = to;
  return strip_loops(d_, a, b, LS_, std::move(body));
}

// 1. What the tile did not compute at t-1 comes from global memory: at t = 1 its whole window,
// later the strips of its window outside its range at t-1 (none for upright diamonds), from
// the edge buffer, relative to the cut rc<l> they face (slot rs<l>).
Stmt TimeTileWriter::load_window() const {
  Block first{window_loops(clip_lo_, clip_hi_, -1, "", "",
                           {Stmt::line(store() + "in[" + grid_index(g_) + "];")})};
  Block later;
  for (int l = 0; l < d_; ++l) {
    std::string L = s(l);
    auto load = [&](const std::string& side) {
      return Block{Stmt::line(
          store() + edge_element(g_, h_, l, "t - 1", "r" + side + "s" + L, "r" + side + "c" + L) +
          ";")};
    };
    std::string from = clip_lo_[static_cast<std::size_t>(l)],
                to = clip_hi_[static_cast<std::size_t>(l)];
    later.push_back(
        strip(clip_lo_, clip_hi_, l, from, "min(own_lo" + L + ", " + to + ")", load("l")));
    later.push_back(
        strip(clip_lo_, clip_hi_, l, "max(own_hi" + L + ", " + from + ")", to, load("r")));
  }
  return Stmt::if_else("t == 1", std::move(first), std::move(later),
                       wavefront_ ? "" : "phase != 0");
}

// 2. The edges of level t-1 that later launches read, from local memory to the edge buffer:
// the 2r points inside each edge of a dimension in which the tile is upright (diamonds) or
// that faces a later tile (parallelograms: the right edge, and on a torus the first tile's
// left edge, which the last tile reads).
Stmt TimeTileWriter::store_edges() const {
  std::vector<std::string> own_lo, own_hi;
  for (int l = 0; l < d_; ++l) {
    own_lo.push_back("own_lo" + s(l));
    own_hi.push_back("own_hi" + s(l));
  }
  std::string value = " = prev[" + box_index(g_, box_, "p", "o") + "];";
  Block b;
  for (int l = 0; l < d_; ++l) {
    std::string L = s(l), i = "i" + L, m1 = s(g_.m[l] - 1);
    std::string upright = wavefront_ ? "" : "!(phase >> " + L + " & 1) && ";
    std::string left =
        wavefront_ ? (g_.wrap ? i + " == 0" : "") : upright + (g_.wrap ? "1" : i + " > 0");
    std::string right = wavefront_ ? i + " < " + m1 : upright + (g_.wrap ? "1" : i + " < " + m1);
    if (!left.empty())
      b.push_back(Stmt::nest(
          "if (" + left + ")",
          {strip(
              own_lo, own_hi, l, "own_lo" + L,
              "min(own_lo" + L + " + 2*" + R_ + ", own_hi" + L + ")",
              {Stmt::line(edge_element(g_, h_, l, "t - 1", i, i + "*" + s(g_.W[l])) + value)})}));
    std::string cut =
        "(" + i + " == " + m1 + " ? " + s(g_.N[l]) + " : (" + i + " + 1)*" + s(g_.W[l]) + ")";
    b.push_back(Stmt::nest(
        "if (" + right + ")",
        {strip(
            own_lo, own_hi, l, "max(own_hi" + L + " - 2*" + R_ + ", own_lo" + L + ")", "own_hi" + L,
            {Stmt::line(edge_element(g_, h_, l, "t - 1", "(" + i + " + 1) % " + s(g_.m[l]), cut) +
                        value)})}));
  }
  return Stmt::nest("if (t > 1)", std::move(b));
}

// 3. Positions outside the grid: the boundary of level t-1 (no such positions on a torus).
Stmt TimeTileWriter::fill_boundary() const {
  std::string crosses;
  for (int l = 0; l < d_; ++l)
    crosses += (l ? " || o" : "o") + s(l) + " < 0 || o" + s(l) + " + n" + s(l) + " > " + s(g_.N[l]);
  Block ghost;
  std::string value;
  if (g_.boundary.kind == Boundary::Constant) {
    value = ScalarValue::make(spec_.element, g_.boundary.value.as_double()).to_string();
  } else {
    ghost.push_back(Stmt::line("int sign = 1;"));
    for (int l = 0; l < d_; ++l) {
      std::string p = "p" + s(l), N = s(g_.N[l]);
      if (g_.boundary.kind == Boundary::Clamp)
        ghost.push_back(
            Stmt::line("const int s" + s(l) + " = clamp(" + p + ", 0, " + N + " - 1);"));
      else // mirror and antisymmetric: -1 -> 0, N -> N-1
        ghost.push_back(Stmt::line("const int s" + s(l) + " = " + p + " < 0 ? -1 - " + p + " : (" +
                                   p + " >= " + N + " ? 2*" + N + " - 1 - " + p + " : " + p +
                                   ");"));
      if (g_.boundary.kind == Boundary::Antisymmetric)
        ghost.push_back(Stmt::line("if (s" + s(l) + " != " + p + ") sign = -sign;"));
    }
    value = "prev[" + box_index(g_, box_, "s", "o") + "]";
    if (g_.boundary.kind == Boundary::Antisymmetric)
      value = "(sign < 0 ? -" + value + " : " + value + ")";
  }
  ghost.push_back(Stmt::line(store() + value + ";"));
  // A barrier after each of the sides although they write disjoint positions from the grid's
  // inside: PoCL 3.1 loses or repeats iterations of these loop nests when several share one
  // region between barriers (docs/reliability.md).
  Block b, fence = barrier();
  auto side = [&](Stmt loops) {
    b.push_back(std::move(loops));
    b.insert(b.end(), fence.begin(), fence.end());
  };
  for (int l = 0; l < d_; ++l) {
    std::string L = s(l), N = s(g_.N[l]);
    side(
        window_loops(window_lo_, window_hi_, l, "o" + L, "min(0, o" + L + " + n" + L + ")", ghost));
    side(window_loops(window_lo_, window_hi_, l, "max(" + N + ", o" + L + ")", "o" + L + " + n" + L,
                      ghost));
  }
  return Stmt::nest("if (" + crosses + ")", std::move(b));
}

// 4. The tile's points at level t: the last level to the output, the others to local memory
// (two loops: no test of t per point, nothing but the store in the loop, which vectorises).
Stmt TimeTileWriter::compute() const {
  return Stmt::if_else(
      "t == " + s(h_),
      {compute_loop(
          {Stmt::line("const int at = " + grid_index(g_) + ";"), Stmt::line("out[at] = res;")})},
      {compute_loop({Stmt::line("cur[" + box_index(g_, box_, "p", "next_o") + "] = res;")})});
}

Stmt TimeTileWriter::compute_loop(Block keep) const {
  Block body;
  for (int l = 0; l < d_; ++l)
    body.push_back(
        Stmt::line("const int w" + s(l) + " = p" + s(l) + " - " + R_ + " - o" + s(l) + ";"));
  body.push_back(Stmt::line(T_ + " res;"));
  body.insert(body.end(), point_.begin(), point_.end());
  body.insert(body.end(), keep.begin(), keep.end());
  return box_loops(d_, lo_, hi_, LS_, std::move(body));
}

} // namespace

Kernel time_tile_kernel(const TimeTileKernelSpec& spec) {
  return TimeTileWriter(spec).write();
}

} // namespace tessera::codegen
