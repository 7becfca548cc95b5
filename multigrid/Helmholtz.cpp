#include "multigrid/Helmholtz.h"

#include "core/Error.h"
#include "multigrid/Formula.h"
#include "multigrid/HelmholtzReads.h"

namespace tessera::multigrid {

using namespace detail;

namespace {

using Reads = HelmholtzReads;

// a alpha u - b/h^2 sum_k (...), and the diagonal D.
Sym apply_l(const std::vector<Sym>& v, const Reads& r, HelmholtzCoefficients c, double h2inv) {
  Sym flux = v[r.beta_high(0)] * (v[2] - v[0]) - v[r.beta_low(0)] * (v[0] - v[1]);
  for (int k = 1; k < r.d; ++k)
    flux =
        flux + v[r.beta_high(k)] * (v[2 + 2 * k] - v[0]) - v[r.beta_low(k)] * (v[0] - v[1 + 2 * k]);
  return c.a * v[r.alpha()] * v[0] - c.b * h2inv * flux;
}
Sym diagonal(const std::vector<Sym>& v, const Reads& r, HelmholtzCoefficients c, double h2inv) {
  Sym faces = v[r.beta_low(0)] + v[r.beta_high(0)];
  for (int k = 1; k < r.d; ++k)
    faces = faces + v[r.beta_low(k)] + v[r.beta_high(k)];
  return c.a * v[r.alpha()] + c.b * h2inv * faces;
}

Expr helmholtz_operator(const Level& level, Boundary bc, const std::string& name,
                        std::vector<ScalarKind> extra_kinds, std::vector<Val> extras,
                        const Body& body) {
  const int d = level.dims;
  Val u = grid_input("u", level), f = grid_input("f", level), alpha = grid_input("alpha", level);
  std::vector<Val> inputs{u, f, alpha};
  std::vector<Val> zipped{u | pad_nd(d, 1, 1, adapt(bc, level)) | slide_nd(d, 3, 1), f, alpha};
  for (int k = 0; k < d; ++k) {
    Val beta = grid_input("beta" + std::to_string(k), level);
    inputs.push_back(beta);
    zipped.push_back(beta | pad_nd(d, 1, 1, clamp) | slide_nd(d, 3, 1));
  }
  zipped.insert(zipped.end(), extras.begin(), extras.end());
  Reads r{d};
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(r.count()), level.kind);
  kinds.insert(kinds.end(), extra_kinds.begin(), extra_kinds.end());
  Fun point = formula(name, kinds, body);
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
  return program(inputs, zip_nd(d, zipped) | map_nd(d, apply));
}

} // namespace

Expr helmholtz_residual(const Level& level, Boundary bc, HelmholtzCoefficients c) {
  const double h2inv = 1.0 / (level.h() * level.h());
  Reads r{level.dims};
  return helmholtz_operator(level, bc, "helmholtzResidual", {}, {}, [=](const std::vector<Sym>& v) {
    return v[r.f()] - apply_l(v, r, c, h2inv);
  });
}

Expr helmholtz_jacobi(const Level& level, Boundary bc, HelmholtzCoefficients c, double omega) {
  if (!(omega > 0 && omega < 2))
    user_error(cat("weighted Jacobi needs 0 < omega < 2, got ", omega));
  const double h2inv = 1.0 / (level.h() * level.h());
  Reads r{level.dims};
  return helmholtz_operator(level, bc, "helmholtzJacobi", {}, {}, [=](const auto& v) {
    return v[0] + omega * (v[r.f()] - apply_l(v, r, c, h2inv)) / diagonal(v, r, c, h2inv);
  });
}

Expr helmholtz_gsrb_half_sweep(const Level& level, Boundary bc, HelmholtzCoefficients c,
                               int colour) {
  if (colour != 0 && colour != 1)
    user_error(cat("a red-black colour is 0 (red) or 1 (black), got ", colour));
  const int d = level.dims;
  const double h2inv = 1.0 / (level.h() * level.h());
  Reads r{d};
  Fun is_updated = formula("isColour" + std::to_string(colour),
                           std::vector<ScalarKind>(d, ScalarKind::I32), [=](const auto& idx) {
                             Sym sum = idx[0];
                             for (int k = 1; k < d; ++k)
                               sum = sum + idx[k];
                             return cast(ScalarKind::I32, (sum + colour) % 2 == 0);
                           });
  return helmholtz_operator(level, bc, "helmholtzGsrb", {ScalarKind::I32},
                            {index_grid(level, is_updated)}, [=](const std::vector<Sym>& v) {
                              Sym updated = v[0] + (v[r.f()] - apply_l(v, r, c, h2inv)) /
                                                       diagonal(v, r, c, h2inv);
                              return select(v[r.count()] != 0, updated, v[0]);
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
