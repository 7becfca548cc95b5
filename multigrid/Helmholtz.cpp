#include "multigrid/Helmholtz.h"

#include <functional>

#include "core/Error.h"
#include "multigrid/Formula.h"
#include "multigrid/HelmholtzFv4.h"
#include "multigrid/HelmholtzReads.h"

namespace tessera::multigrid {

using namespace detail;

namespace {

// One application of the operator at a point, over the values its formula reads (v). Under
// quadratic_dirichlet, `side` is the position in v of dimension 0's side code (-1 beside the low
// boundary, 1 beside the high one, 0 inside); the ghost read there is replaced by HPGMG-FV's
// quadratic extrapolation, and the diagonal takes its dependence on u_p.
struct Point {
  const std::vector<Sym>& v;
  HelmholtzReads r;
  HelmholtzCoefficients c;
  double h2inv;
  ScalarKind kind;
  int side = -1;         // -1: the ghosts the Pad boundary reads
  bool one_cell = false; // quadratic_dirichlet on a 1-cell grid: the linear ghost -u_p
  Sym low(int k) const {
    if (side < 0)
      return v[1 + 2 * k];
    return select(v[side + k] == -1, -2.5 * v[0] + 0.5 * v[2 + 2 * k], v[1 + 2 * k]);
  }
  Sym high(int k) const {
    if (side < 0)
      return v[2 + 2 * k];
    return select(v[side + k] == 1, -2.5 * v[0] + 0.5 * v[1 + 2 * k], v[2 + 2 * k]);
  }
  // a alpha u - b/h^2 sum_k (...).
  Sym apply() const {
    // The thesis's order of the terms, so that its kernels round as before.
    Sym flux = v[r.beta_high(0)] * (high(0) - v[0]) - v[r.beta_low(0)] * (v[0] - low(0));
    for (int k = 1; k < r.d; ++k)
      flux = flux + v[r.beta_high(k)] * (high(k) - v[0]) - v[r.beta_low(k)] * (v[0] - low(k));
    // a = 0: alpha left out, so its load is dropped (one array less a sweep); the same value but
    // for the sign of a zero result.
    if (c.a == 0)
      return -(c.b * h2inv * flux);
    return c.a * v[r.alpha()] * v[0] - c.b * h2inv * flux;
  }
  // The diagonal D; without quadratic_dirichlet the faces' sum, ghosts left out (the thesis's).
  Sym diagonal() const {
    Sym faces = v[r.beta_low(0)] + v[r.beta_high(0)];
    for (int k = 1; k < r.d; ++k)
      faces = faces + v[r.beta_low(k)] + v[r.beta_high(k)];
    if (one_cell)
      faces = faces + faces;                   // each ghost -u_p doubles its face's weight
    for (int k = 0; side >= 0 && k < r.d; ++k) // a ghost -5/2 u_p: 7/2 its face's coefficient
      faces = faces + 2.5 * (cast(kind, v[side + k] == -1) * v[r.beta_low(k)] +
                             cast(kind, v[side + k] == 1) * v[r.beta_high(k)]);
    if (c.a == 0)
      return c.b * h2inv * faces;
    return c.a * v[r.alpha()] + c.b * h2inv * faces;
  }
};

using PointBody = std::function<Sym(const Point&)>;

// Per dimension k an i32 grid: -1 on the cells beside the low boundary, 1 beside the high one.
Val boundary_side(const Level& level, int k) {
  const int d = level.dims;
  const int64_t last = level.n - 1;
  Fun side =
      formula(cat("boundarySide", k), std::vector<ScalarKind>(d, ScalarKind::I32),
              [=](const std::vector<Sym>& idx) {
                return cast(ScalarKind::I32, idx[k] == last) - cast(ScalarKind::I32, idx[k] == 0);
              });
  return index_grid(level, side);
}

Expr helmholtz_operator(const Level& level, Boundary bc, HelmholtzCoefficients c,
                        const std::string& name, std::vector<ScalarKind> extra_kinds,
                        std::vector<Val> extras, const PointBody& body, PointOutput output = {}) {
  const int d = level.dims;
  const bool quadratic = c.quadratic_dirichlet;
  if (quadratic && bc.kind != Boundary::Antisymmetric)
    user_error(cat("the quadratic Dirichlet boundary replaces the antisymmetric ghost of a "
                   "cell-centred grid; got the boundary ",
                   bc.to_string()));
  if (quadratic && !level.box.empty())
    user_error("the quadratic Dirichlet boundary runs on a whole grid on one device, not on a "
               "rank's block");
  const bool sides = quadratic && level.n >= 2;
  if (sides)
    for (int k = 0; k < d; ++k) {
      extras.push_back(boundary_side(level, k));
      extra_kinds.push_back(ScalarKind::I32);
    }
  const Boundary outer =
      c.outer_beta ? Boundary::constant(ScalarValue::make(level.kind, *c.outer_beta)) : clamp;
  Val u = grid_input("u", level), f = grid_input("f", level), alpha = grid_input("alpha", level);
  std::vector<Val> inputs{u, f, alpha};
  std::vector<Val> zipped{u | pad_nd(d, 1, 1, adapt(bc, level)) | slide_nd(d, 3, 1), f, alpha};
  for (int k = 0; k < d; ++k) {
    Val beta = grid_input("beta" + std::to_string(k), level);
    inputs.push_back(beta);
    zipped.push_back(beta | pad_nd(d, 1, 1, outer) | slide_nd(d, 3, 1));
  }
  zipped.insert(zipped.end(), extras.begin(), extras.end());
  HelmholtzReads r{d};
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(r.count()), level.kind);
  kinds.insert(kinds.end(), extra_kinds.begin(), extra_kinds.end());
  const double h2inv = 1.0 / (level.h() * level.h());
  const int side = sides ? static_cast<int>(kinds.size()) - d : -1;
  const ScalarKind kind = level.kind;
  const bool one_cell = quadratic && level.n < 2;
  Fun point = formula(name, kinds, [=](const std::vector<Sym>& v) {
    return body(Point{v, r, c, h2inv, kind, side, one_cell});
  });
  Fun apply([=](Val t) {
    Val nbh = t.get(0);
    std::vector<Val> args{at_offset(nbh, std::vector<int>(d, 0), 1)};
    for (const auto& o : star_offsets(d))
      args.push_back(at_offset(nbh, o, 1));
    args.push_back(t.get(1));
    args.push_back(t.get(2));
    for (int k = 0; k < d; ++k) {
      std::vector<int> high(d, 0);
      high[k] = 1;
      args.push_back(at_offset(t.get(3 + k), std::vector<int>(d, 0), 1));
      args.push_back(at_offset(t.get(3 + k), high, 1));
    }
    for (int i = 3 + d; i < static_cast<int>(zipped.size()); ++i)
      args.push_back(t.get(i));
    return point.apply(args);
  });
  return point_program(level, inputs, zip_nd(d, zipped), apply, output);
}

// f - A u at each point (the 2nd-order form), written as `output`.
Expr helmholtz_residual_program(const Level& level, Boundary bc, HelmholtzCoefficients c,
                                PointOutput output) {
  return helmholtz_operator(
      level, bc, c, "helmholtzResidual", {}, {},
      [](const Point& p) { return p.v[p.r.f()] - p.apply(); }, output);
}

} // namespace

Expr helmholtz_residual(const Level& level, Boundary bc, HelmholtzCoefficients c) {
  if (uses_fv4(level, c))
    return fv4_residual(level, c, false);
  return helmholtz_residual_program(level, bc, c, {});
}

Expr helmholtz_residual_restricted(const Level& fine, Boundary bc, HelmholtzCoefficients c) {
  if (uses_fv4(fine, c))
    return fv4_residual(fine, c, true, {});
  return helmholtz_residual_program(fine, bc, c, {PointOutput::Average});
}

Expr helmholtz_residual_square_sums(const Level& level, Boundary bc, HelmholtzCoefficients c,
                                    SquareSumAxis axis) {
  if (uses_fv4(level, c)) // its interior and slabs are separate launches (interior_build)
    internal_error("the 4th-order residual has no square sums");
  return helmholtz_residual_program(level, bc, c, {PointOutput::SquareSums, axis});
}

Expr helmholtz_jacobi(const Level& level, Boundary bc, HelmholtzCoefficients c, double omega) {
  if (!(omega > 0 && omega < 2))
    user_error(cat("weighted Jacobi needs 0 < omega < 2, got ", omega));
  if (uses_fv4(level, c))
    return fv4_jacobi(level, c, omega);
  return helmholtz_operator(level, bc, c, "helmholtzJacobi", {}, {}, [=](const Point& p) {
    return p.v[0] + omega * (p.v[p.r.f()] - p.apply()) / p.diagonal();
  });
}

Expr helmholtz_gsrb_half_sweep(const Level& level, Boundary bc, HelmholtzCoefficients c,
                               int colour) {
  if (colour != 0 && colour != 1)
    user_error(cat("a red-black colour is 0 (red) or 1 (black), got ", colour));
  if (uses_fv4(level, c))
    return fv4_gsrb_half_sweep(level, c, colour);
  return helmholtz_operator(level, bc, c, "helmholtzGsrb", {ScalarKind::I32},
                            {colour_grid(level, colour)}, [](const Point& p) {
                              Sym updated = p.v[0] + (p.v[p.r.f()] - p.apply()) / p.diagonal();
                              return select(p.v[p.r.count()] != 0, updated, p.v[0]);
                            });
}

Expr restrict_face_coefficient(const Level& fine, int k) {
  const int d = fine.dims;
  if (k < 0 || k >= d)
    user_error(
        cat("a ", d, "-D grid has face coefficients in dimensions 0 to ", d - 1, ", got ", k));
  fine.coarser(); // checks that the grid coarsens
  const int count = 1 << (d - 1);
  Val beta = grid_input("beta" + std::to_string(k), fine);
  Fun mean = formula("faceAverage", std::vector<ScalarKind>(count, fine.kind), [=](const auto& v) {
    Sym sum = v[0];
    for (int i = 1; i < count; ++i)
      sum = sum + v[i];
    return sum * (1.0 / count);
  });
  // The block's elements whose index in dimension k is 0 (the coarse cell's low face).
  Fun apply([=](Val block) {
    std::vector<Val> faces;
    for (const auto& corner : corners(d))
      if (corner[k] == 0) {
        Val v = block;
        for (int c : corner)
          v = v.at(c);
        faces.push_back(v);
      }
    return mean.apply(faces);
  });
  return program({beta}, beta | slide_nd(d, 2, 2) | map_nd(d, apply));
}

} // namespace tessera::multigrid
