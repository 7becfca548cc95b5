// One whole red-black Gauss-Seidel step in one kernel: the red half-sweep and the black one,
// with the black points computing the new red values they read in place (a radius-2 stencil).
// It reads u and f once and writes once, where two half-sweeps read and write the grid twice.
//
// Red point p (index sum even):   out = R_p = (h^2 f_p + sum of the old u around p) / (2d)
// Black point p:                  out = (h^2 f_p + sum over the neighbours q of v_q) / (2d),
//   v_q = R_q for a neighbour inside the grid (every neighbour of a black point is red);
//   for a ghost neighbour the boundary applied to the values after the red half-sweep:
//   antisymmetric -u_p, mirror and clamp u_p (the ghost mirrors p itself, black, unchanged),
//   constant c, wrap the value at the wrapped position (red, R, on grids of even side).
#include "core/Error.h"
#include "multigrid/Formula.h"

namespace tessera::multigrid {

using namespace detail;

namespace {

std::vector<int> unit(int d, int k, int o) {
  std::vector<int> v(d, 0);
  v[k] = o;
  return v;
}

std::vector<int> plus(std::vector<int> a, const std::vector<int>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] += b[i];
  return a;
}

// The offsets a step reads, each once: u within the neighbours of the neighbours, f within the
// neighbours.
struct SweepReads {
  std::vector<std::vector<int>> u, f;
  int index_of(const std::vector<std::vector<int>>& list, const std::vector<int>& o) const {
    for (std::size_t i = 0; i < list.size(); ++i)
      if (list[i] == o)
        return static_cast<int>(i);
    internal_error("an offset the Gauss-Seidel step does not read");
  }
  static void add(std::vector<std::vector<int>>& list, const std::vector<int>& o) {
    for (const auto& x : list)
      if (x == o)
        return;
    list.push_back(o);
  }
  explicit SweepReads(int d) {
    add(u, std::vector<int>(d, 0));
    add(f, std::vector<int>(d, 0));
    for (const auto& q : star_offsets(d)) {
      add(u, q);
      add(f, q);
      for (const auto& s : star_offsets(d))
        add(u, plus(q, s));
    }
  }
};

} // namespace

Expr gsrb_step(const Level& level, Boundary bc) {
  const int d = level.dims;
  if (!level.box.empty())
    user_error("the fused red-black step runs on whole grids, not on a rank's box of a "
               "distributed grid");
  if (level.n < 2)
    user_error(cat("a fused red-black step needs at least 2 points per side, got ", level.n,
                   " (use two half-sweeps)"));
  const double h2 = level.h() * level.h();
  const int64_t n = level.n;
  SweepReads reads(d);
  const int nu = static_cast<int>(reads.u.size()), nf = static_cast<int>(reads.f.size());
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(nu + nf), level.kind);
  for (int k = 0; k < d; ++k)
    kinds.push_back(ScalarKind::I32);

  Fun step = formula("gsrbStep", kinds, [=](const std::vector<Sym>& v) {
    auto u = [&](const std::vector<int>& o) { return v[reads.index_of(reads.u, o)]; };
    auto f = [&](const std::vector<int>& o) { return v[nu + reads.index_of(reads.f, o)]; };
    auto index = [&](int k) { return v[nu + nf + k]; };
    const std::vector<int> centre(d, 0);
    // The red update at offset q from the old values.
    auto red_update = [&](const std::vector<int>& q) {
      Sym sum = h2 * f(q);
      for (const auto& s : star_offsets(d))
        sum = sum + u(plus(q, s));
      return sum / static_cast<double>(2 * d);
    };
    Sym parity = index(0);
    for (int k = 1; k < d; ++k)
      parity = parity + index(k);
    Sym black_sum = h2 * f(centre);
    for (int k = 0; k < d; ++k)
      for (int o : {-1, 1}) {
        auto q = unit(d, k, o);
        Sym outside = o < 0 ? index(k) == 0 : index(k) == static_cast<int>(n - 1);
        Sym ghost = u(centre); // mirror and clamp
        switch (bc.kind) {
        case Boundary::Antisymmetric:
          ghost = -u(centre);
          break;
        case Boundary::Constant:
          ghost = cast(level.kind, Sym(bc.value.as_double()));
          break;
        case Boundary::Wrap:
          ghost = n % 2 == 0 ? red_update(q) : u(q);
          break;
        case Boundary::Mirror:
        case Boundary::Clamp:
          break;
        case Boundary::Fixed: // refused by the solver's problem check
          internal_error("a red-black sweep with the fixed boundary");
        }
        black_sum = black_sum + select(outside, ghost, red_update(q));
      }
    Sym black = black_sum / static_cast<double>(2 * d);
    return select(parity % 2 == 0, red_update(centre), black);
  });

  Val u = grid_input("u", level), f = grid_input("f", level);
  // The point's index in each dimension comes from an index grid (Generate: no memory).
  std::vector<Val> zipped{u | pad_nd(d, 2, 2, adapt(bc, level)) | slide_nd(d, 5, 1),
                          f | pad_nd(d, 1, 1, adapt(bc, level)) | slide_nd(d, 3, 1)};
  for (int k = 0; k < d; ++k)
    zipped.push_back(
        index_grid(level, formula(cat("index", k), std::vector<ScalarKind>(d, ScalarKind::I32),
                                  [k](const std::vector<Sym>& idx) { return idx[k]; })));
  Fun apply([=](Val t) {
    std::vector<Val> args;
    for (const auto& o : reads.u)
      args.push_back(at_offset(t.get(0), o, 2));
    for (const auto& o : reads.f)
      args.push_back(at_offset(t.get(1), o, 1));
    for (int k = 0; k < d; ++k)
      args.push_back(t.get(2 + k));
    return step.apply(args);
  });
  return program({u, f}, zip_nd(d, zipped) | map_nd(d, apply));
}

} // namespace tessera::multigrid
