#include "codegen/RollingKernel.h"

#include "codegen/Emitter.h"
#include "codegen/ScalarC.h"
#include "core/Error.h"

namespace tessera::codegen {

RollingGeometry::RollingGeometry(const TimeTiling& tiling, Boundary b,
                                 const std::vector<int64_t>& extents)
    : d(tiling.dims), r(tiling.radius), boundary(b), wrap(b.kind == Boundary::Wrap) {
  if (d < 2 || d > 3 || static_cast<int>(extents.size()) != d)
    user_error(cat("rolling tiling: 2 or 3 dimensions, got ", extents.size()));
  for (int l = 0; l < d; ++l) {
    N[l] = extents[static_cast<std::size_t>(l)];
    W[l] = std::min(tiling.tile[static_cast<std::size_t>(l)], N[l]);
    if (W[l] < r)
      user_error(cat("rolling tiling: the tile width ", W[l], " of dimension ", l,
                     " is below the radius ", r, " (a tile at the edge copies r rows of its own)"));
    if (!wrap && N[l] <= 2 * r)
      user_error(cat("rolling tiling: the extent ", N[l], " of dimension ", l,
                     " needs to exceed twice the radius ", r));
    m[l] = (N[l] + W[l] - 1) / W[l];
  }
}

int64_t RollingGeometry::slice_points(int64_t h) const {
  int64_t points = 1;
  for (int l = 1; l < d; ++l)
    points *= slice_extent(l, h);
  return points;
}

std::pair<int64_t, int64_t> RollingGeometry::range(int l, int64_t i, int64_t t, int64_t h) const {
  int64_t lo = i * W[l] - (h - t) * r;
  int64_t hi = (i == m[l] - 1 ? N[l] : (i + 1) * W[l]) + (h - t) * r;
  if (wrap)
    return {lo, hi};
  return {std::max<int64_t>(lo, 0), std::min(hi, N[l])};
}

int64_t RollingGeometry::evaluations(int64_t h) const {
  int64_t total = 0;
  for (int64_t t = 1; t <= h; ++t) {
    int64_t level = 1;
    for (int l = 0; l < d; ++l) {
      int64_t points = 0;
      for (int64_t i = 0; i < m[l]; ++i) {
        auto [lo, hi] = range(l, i, t, h);
        points += hi - lo;
      }
      level *= points;
    }
    total += level;
  }
  return total;
}

namespace {

std::string s(int64_t v) {
  return std::to_string(v);
}

// The writer: a kernel of one loop over the strip's steps, in it one block per level.
class RollingWriter {
public:
  explicit RollingWriter(const RollingKernelSpec& spec);
  Kernel write();

private:
  Block prologue() const;
  Stmt level(int64_t t) const;
  Stmt load_row() const;
  Stmt compute_row(int64_t t) const;
  Block inner_ghosts(int64_t t) const;
  Block outer_ghosts(int64_t t) const;
  // Loops over the inner dimensions l = 1..d-1 of [lo[l], hi[l]) around `body`.
  Stmt inner_loops(const std::vector<std::string>& lo, const std::vector<std::string>& hi,
                   Block body) const;
  std::vector<std::string> level_lo(int64_t t) const;
  std::vector<std::string> level_hi(int64_t t) const;
  // The inner ranges of level t with the boundary's ghosts on the sides at the grid's edge.
  std::vector<std::string> ghost_lo(int64_t t) const;
  std::vector<std::string> ghost_hi(int64_t t) const;
  std::string slice_index(const std::vector<std::string>& p) const;
  std::string grid_index(const std::string& row, const std::vector<std::string>& p) const;
  std::string slot(const std::string& row) const {
    return "((" + row + " + " + s(RK_) + ") % " + s(R_) + ")";
  }
  // The boundary's source of index q outside [0, n) and the value written there from `from`.
  std::string source(const std::string& q, int64_t n) const;
  std::string ghost_value(const std::string& from) const;

  const RollingKernelSpec& spec_;
  const RollingGeometry& g_;
  const int d_;
  const int64_t h_, r_, R_, RK_, S_;
  const std::string T_;
  Emitter emitter_;
  Block point_; // f of the neighbourhood at (yb, w1, w2) into res
};

// The neighbourhood of the point whose window starts at row yb - RK (of the ring `src`) and at
// w<l> of the inner dimensions: [e0][e1]..-> src[(yb + e0) % R][w1 + e1]...
View rolling_neighbourhood(const RollingGeometry& g, int64_t h, ScalarKind kind) {
  auto memory = std::make_shared<Memory>();
  memory->name = "src";
  memory->space = AddressSpace::Local;
  memory->element = kind;
  Type type = Type::scalar(kind);
  for (int l = g.d - 1; l >= 1; --l)
    type = Type::array(type, g.slice_extent(l, h));
  memory->type = Type::array(type, g.ring());
  std::function<View(int, View)> window = [&](int l, View sub) -> View {
    std::string row = "row" + s(l);
    if (l == 0) {
      ArithExpr at = (ArithExpr::var("yb", 0, int64_t{1} << 30) + ArithExpr::var(row)) % g.ring();
      return map_view(window(1, index_view(sub, at)), row);
    }
    ArithExpr w = ArithExpr::var("w" + s(l), 0, g.slice_extent(l, h) - (2 * g.r + 1));
    if (l == g.d - 1)
      return drop_view(sub, w);
    return drop_view(map_view(window(l + 1, index_view(sub, ArithExpr::var(row))), row), w);
  };
  return window(0, memory_view(memory));
}

Type neighbourhood_type(int d, int64_t r, ScalarKind kind) {
  Type type = Type::scalar(kind);
  for (int l = 0; l < d; ++l)
    type = Type::array(type, 2 * r + 1);
  return type;
}

RollingWriter::RollingWriter(const RollingKernelSpec& spec)
    : spec_(spec), g_(spec.geometry), d_(g_.d), h_(spec.band), r_(g_.r), R_(g_.ring()),
      RK_(g_.ring() * (spec.band + 1)), S_(g_.slice_points(spec.band)),
      T_(scalar_c_type(spec.element)), emitter_(spec.f, {}) {
  point_ = emitter_.point_block(spec.f, rolling_neighbourhood(g_, h_, spec.element),
                                neighbourhood_type(d_, r_, spec.element), "res", spec.element);
}

Kernel RollingWriter::write() {
  Block body = prologue();
  Block steps;
  for (int64_t t = 0; t <= h_; ++t)
    steps.push_back(level(t));
  body.push_back(
      Stmt::nest("for (int s = lo0_0; s < b0 + " + s(h_ * r_) + "; ++s)", std::move(steps)));
  Kernel kernel;
  kernel.name = spec_.name;
  kernel.source = "// Generated by tessera.\n" + emitter_.helpers_source() + "\n__kernel void " +
                  spec_.name + "(const __global " + T_ + "* restrict in, __global " + T_ +
                  "* restrict out) {\n" + print_opencl(body, 1) + "}\n";
  kernel.params = {
      {KernelParam::Input, "in", spec_.grid, spec_.element, spec_.grid_points},
      {KernelParam::Output, "out", spec_.grid, spec_.element, spec_.grid_points},
  };
  kernel.launch.dims = 1;
  kernel.launch.global[0] = g_.tiles();
  kernel.launch.local = {1, 0, 0};
  kernel.output_type = spec_.grid;
  const int64_t bytes = spec_.element == ScalarKind::F64  ? 8
                        : spec_.element == ScalarKind::U8 ? 1
                                                          : 4;
  kernel.local_memory_bytes = g_.local_points(h_) * bytes;
  kernel.program_text = spec_.program_text;
  return kernel;
}

// The rings, the tile's indices and bounds, and every level's range.
Block RollingWriter::prologue() const {
  Block b;
  for (int64_t t = 0; t < h_; ++t)
    b.push_back(Stmt::line("__local " + T_ + " ring" + s(t) + "[" + s(R_ * S_) + "];"));
  b.push_back(Stmt::line("int group = get_group_id(0);"));
  for (int l = d_ - 1; l >= 0; --l) {
    std::string i = "i" + s(l), L = s(l);
    b.push_back(Stmt::line("const int " + i + " = group % " + s(g_.m[l]) +
                           "; group /= " + s(g_.m[l]) + ";"));
    b.push_back(Stmt::line("const int a" + L + " = " + i + "*" + s(g_.W[l]) + ", b" + L + " = " +
                           i + " == " + s(g_.m[l] - 1) + " ? " + s(g_.N[l]) + " : (" + i +
                           " + 1)*" + s(g_.W[l]) + ";"));
    if (l > 0)
      b.push_back(Stmt::line("const int o" + L + " = a" + L + " - " + s((h_ + 1) * r_) + ";"));
    for (int64_t t = 0; t <= h_; ++t) {
      std::string reach = s((h_ - t) * r_), lo = "a" + L + " - " + reach,
                  hi = "b" + L + " + " + reach;
      if (!g_.wrap) {
        lo = "max(" + lo + ", 0)";
        hi = "min(" + hi + ", " + s(g_.N[l]) + ")";
      }
      b.push_back(Stmt::line("const int lo" + L + "_" + s(t) + " = " + lo + ", hi" + L + "_" +
                             s(t) + " = " + hi + ";"));
    }
  }
  return b;
}

// Level t's row s - t r, when it is in the level's range: loaded (t = 0) or computed, then its
// boundary's ghosts.
Stmt RollingWriter::level(int64_t t) const {
  std::string T = s(t);
  Block body{Stmt::line("const int y = s - " + s(t * r_) + ";")};
  Block row;
  if (t < h_)
    row.push_back(Stmt::line("__local " + T_ + "* restrict dst = ring" + T + " + " + slot("y") +
                             "*" + s(S_) + ";"));
  row.push_back(t == 0 ? load_row() : compute_row(t));
  if (t < h_ && !g_.wrap) {
    Block ghosts = inner_ghosts(t);
    row.insert(row.end(), ghosts.begin(), ghosts.end());
    ghosts = outer_ghosts(t);
    row.insert(row.end(), ghosts.begin(), ghosts.end());
  }
  body.push_back(Stmt::nest("if (y >= lo0_" + T + " && y < hi0_" + T + ")", std::move(row)));
  return Stmt::nest("", std::move(body));
}

Stmt RollingWriter::load_row() const {
  std::vector<std::string> p;
  for (int l = 0; l < d_; ++l)
    p.push_back(cat("p", l));
  return inner_loops(level_lo(0), level_hi(0),
                     {Stmt::line("dst[" + slice_index(p) + "] = in[" + grid_index("y", p) + "];")});
}

Stmt RollingWriter::compute_row(int64_t t) const {
  Block b{Stmt::line("const __local " + T_ + "* restrict src = ring" + s(t - 1) + ";"),
          Stmt::line("const int yb = y - " + s(r_) + " + " + s(RK_) + ";")};
  std::vector<std::string> p;
  for (int l = 0; l < d_; ++l)
    p.push_back(cat("p", l));
  Block point;
  for (int l = 1; l < d_; ++l)
    point.push_back(
        Stmt::line("const int w" + s(l) + " = p" + s(l) + " - " + s(r_) + " - o" + s(l) + ";"));
  point.push_back(Stmt::line(T_ + " res;"));
  point.insert(point.end(), point_.begin(), point_.end());
  point.push_back(t == h_ ? Stmt::line("out[" + grid_index("y", p) + "] = res;")
                          : Stmt::line("dst[" + slice_index(p) + "] = res;"));
  b.push_back(inner_loops(level_lo(t), level_hi(t), std::move(point)));
  return Stmt::nest("", std::move(b));
}

// The ghosts of the row just written in the inner dimensions, innermost first, each over the
// ghosts already written in the dimensions inside it (so corners take both reflections).
Block RollingWriter::inner_ghosts(int64_t t) const {
  Block b;
  for (int l = d_ - 1; l >= 1; --l) {
    std::string L = s(l), N = s(g_.N[l]);
    std::vector<std::string> lo = level_lo(t), hi = level_hi(t), g_lo = ghost_lo(t),
                             g_hi = ghost_hi(t);
    for (int m = l + 1; m < d_; ++m) {
      lo[static_cast<std::size_t>(m)] = g_lo[static_cast<std::size_t>(m)];
      hi[static_cast<std::size_t>(m)] = g_hi[static_cast<std::size_t>(m)];
    }
    std::vector<std::string> p, from;
    for (int m = 0; m < d_; ++m) {
      p.push_back(cat("p", m));
      from.push_back(m == l ? "q" : cat("p", m));
    }
    Block copy{Stmt::line("const int q = " + source("p" + L, g_.N[l]) + ";"),
               Stmt::line("dst[" + slice_index(p) +
                          "] = " + ghost_value("dst[" + slice_index(from) + "]") + ";")};
    auto side = [&](const std::string& test, const std::string& from_p, const std::string& to_p) {
      auto a = lo, z = hi;
      a[static_cast<std::size_t>(l)] = from_p;
      z[static_cast<std::size_t>(l)] = to_p;
      b.push_back(Stmt::nest("if (" + test + ")", {inner_loops(a, z, copy)}));
    };
    side("lo" + L + "_" + s(t) + " == 0", "-" + s(r_), "0");
    side("hi" + L + "_" + s(t) + " == " + N, N, N + " + " + s(r_));
  }
  return b;
}

// The r rows beyond the grid's first and last row, once the rows they copy exist: ring slots
// that no row in use holds (the ring has r spare rows).
Block RollingWriter::outer_ghosts(int64_t t) const {
  std::string T = s(t), N = s(g_.N[0]);
  std::vector<std::string> p;
  for (int l = 0; l < d_; ++l)
    p.push_back(cat("p", l));
  Block copy{
      Stmt::line("__local " + T_ + "* ghost = ring" + T + " + " + slot("g") + "*" + s(S_) + ";"),
      Stmt::line("const __local " + T_ + "* from = ring" + T + " + " + slot(source("g", g_.N[0])) +
                 "*" + s(S_) + ";"),
      inner_loops(ghost_lo(t), ghost_hi(t),
                  {Stmt::line("ghost[" + slice_index(p) +
                              "] = " + ghost_value("from[" + slice_index(p) + "]") + ";")})};
  Block b;
  b.push_back(Stmt::nest("if (y == " + s(r_ - 1) + " && lo0_" + T + " == 0)",
                         {Stmt::nest("for (int g = -" + s(r_) + "; g < 0; ++g)", copy)}));
  b.push_back(Stmt::nest(
      "if (y == " + N + " - 1)",
      {Stmt::nest("for (int g = " + N + "; g < " + N + " + " + s(r_) + "; ++g)", copy)}));
  return b;
}

Stmt RollingWriter::inner_loops(const std::vector<std::string>& lo,
                                const std::vector<std::string>& hi, Block body) const {
  for (int l = d_ - 1; l >= 1; --l) {
    std::string p = cat("p", l);
    body = {Stmt::nest("for (int " + p + " = " + lo[static_cast<std::size_t>(l)] + "; " + p +
                           " < " + hi[static_cast<std::size_t>(l)] + "; ++" + p + ")",
                       std::move(body))};
  }
  return std::move(body.front());
}

std::vector<std::string> RollingWriter::level_lo(int64_t t) const {
  std::vector<std::string> lo;
  for (int l = 0; l < d_; ++l)
    lo.push_back("lo" + s(l) + "_" + s(t));
  return lo;
}

std::vector<std::string> RollingWriter::level_hi(int64_t t) const {
  std::vector<std::string> hi;
  for (int l = 0; l < d_; ++l)
    hi.push_back("hi" + s(l) + "_" + s(t));
  return hi;
}

std::vector<std::string> RollingWriter::ghost_lo(int64_t t) const {
  std::vector<std::string> lo = level_lo(t);
  for (int l = 1; l < d_; ++l)
    lo[static_cast<std::size_t>(l)] = "(" + lo[static_cast<std::size_t>(l)] + " == 0 ? -" + s(r_) +
                                      " : " + lo[static_cast<std::size_t>(l)] + ")";
  return lo;
}

std::vector<std::string> RollingWriter::ghost_hi(int64_t t) const {
  std::vector<std::string> hi = level_hi(t);
  for (int l = 1; l < d_; ++l) {
    std::string N = s(g_.N[l]), h = hi[static_cast<std::size_t>(l)];
    hi[static_cast<std::size_t>(l)] =
        "(" + h + " == " + N + " ? " + N + " + " + s(r_) + " : " + h + ")";
  }
  return hi;
}

// The point (p1, p2) of a ring row: relative to the slice's origin o<l>, row-major.
std::string RollingWriter::slice_index(const std::vector<std::string>& p) const {
  std::string index;
  for (int l = 1; l < d_; ++l) {
    std::string rel = "(" + p[static_cast<std::size_t>(l)] + " - o" + s(l) + ")";
    index = index.empty() ? rel : "(" + index + ")*" + s(g_.slice_extent(l, h_)) + " + " + rel;
  }
  return index;
}

// The grid's flat index of (row, p1, p2), wrapped into the grid on a torus.
std::string RollingWriter::grid_index(const std::string& row,
                                      const std::vector<std::string>& p) const {
  std::string index;
  for (int l = 0; l < d_; ++l) {
    std::string q = l == 0 ? row : p[static_cast<std::size_t>(l)], N = s(g_.N[l]);
    if (g_.wrap)
      q = "((" + q + " % " + N + " + " + N + ") % " + N + ")";
    index = index.empty() ? q : "(" + index + ")*" + N + " + " + q;
  }
  return index;
}

std::string RollingWriter::source(const std::string& q, int64_t n) const {
  std::string N = s(n);
  if (g_.boundary.kind == Boundary::Clamp)
    return "clamp(" + q + ", 0, " + N + " - 1)";
  if (g_.boundary.kind == Boundary::Constant)
    return q; // not read: the constant is written
  return "(" + q + " < 0 ? -1 - " + q + " : 2*" + N + " - 1 - " + q + ")";
}

std::string RollingWriter::ghost_value(const std::string& from) const {
  if (g_.boundary.kind == Boundary::Constant)
    return ScalarValue::make(spec_.element, g_.boundary.value.as_double()).to_string();
  if (g_.boundary.kind == Boundary::Antisymmetric)
    return "-" + from;
  return from;
}

} // namespace

Kernel rolling_kernel(const RollingKernelSpec& spec) {
  return RollingWriter(spec).write();
}

} // namespace tessera::codegen
