#include "multigrid/LineRelaxation.h"

#include "core/Error.h"
#include "dsl/Tridiagonal.h"
#include "multigrid/Formula.h"
#include "multigrid/HelmholtzReads.h"

namespace tessera::multigrid {

using namespace detail;

namespace {

// The scalars a row of the line system reads at one point, as formula parameters: the
// operator's reads, then the point's index in each dimension (i32).
struct RowReads : HelmholtzReads {
  int index(int k) const { return HelmholtzReads::count() + k; }
  int count() const { return HelmholtzReads::count() + d; }
};

// The ghost beside a point on the boundary as an affine function of the point's value: x_ghost =
// scale x_end + shift.
struct Ghost {
  double scale, shift;
};
Ghost line_ghost(const Boundary& bc) {
  switch (bc.kind) {
  case Boundary::Antisymmetric:
    return {-1, 0};
  case Boundary::Mirror:
  case Boundary::Clamp:
    return {1, 0};
  case Boundary::Constant:
    return {0, bc.value.as_double()};
  case Boundary::Fixed:
    user_error("line relaxation: the fixed boundary is a time step's; a boundary value problem "
               "takes antisymmetric, mirror, clamp or constant boundaries here");
  case Boundary::Wrap:
    break;
  }
  user_error("line relaxation solves each line as a tridiagonal system: periodic (wrap) "
             "boundaries would need a cyclic solve; use antisymmetric, mirror, clamp or "
             "constant boundaries, or a point smoother");
}

// Swaps levels j and j+1 of a grid (a view).
Val swap_levels(Val x, int j) {
  return j == 0 ? x | transpose() : x | map_nd(j, transpose());
}
// Moves level `axis` of a d-level grid to the innermost level by adjacent swaps, or back.
Val axis_to_innermost(Val x, int d, int axis) {
  for (int j = axis; j + 1 < d; ++j)
    x = swap_levels(x, j);
  return x;
}
Val innermost_to_axis(Val x, int d, int axis) {
  for (int j = d - 2; j >= axis; --j)
    x = swap_levels(x, j);
  return x;
}

} // namespace

int line_axis(int dims, char name) {
  int from_innermost = name == 'x' ? 0 : name == 'y' ? 1 : name == 'z' ? 2 : -1;
  if (from_innermost < 0 || from_innermost >= dims)
    user_error(cat("a ", dims, "-D grid has no lines along '", name, "' (",
                   dims == 1   ? "x"
                   : dims == 2 ? "x or y"
                               : "x, y or z",
                   ")"));
  return dims - 1 - from_innermost;
}

std::optional<int> line_smoother_axis(SmootherKind smoother, int dims) {
  switch (smoother) {
  case SmootherKind::LineX:
    return line_axis(dims, 'x');
  case SmootherKind::LineY:
    return line_axis(dims, 'y');
  case SmootherKind::LineZ:
    return line_axis(dims, 'z');
  case SmootherKind::GaussSeidel:
  case SmootherKind::Jacobi:
    break;
  }
  return std::nullopt;
}

namespace {

// The coefficients and the right-hand side of one row of an updated line's system.
struct LineRow {
  Fun lower, upper, diagonal, rhs;
};

LineRow line_row(const Level& level, const Ghost& ghost, const HelmholtzCoefficients& c, int axis,
                 int colour, const RowReads& r) {
  const int d = level.dims;
  const double hb = c.b / (level.h() * level.h());
  const int64_t last = level.n - 1;
  // Row of point p on an updated line (the other points: x_p = u_p):
  //   -w x_{p-e} + D x_p - e x_{p+e} = f_p + hb sum_{k != axis} (beta_k[p+e_k] u_{p+e_k}
  //                                                            + beta_k[p] u_{p-e_k}),
  // w = hb beta_axis[p], e = hb beta_axis[p+e]. Where a neighbour in any dimension is a ghost of
  // p itself (p on the boundary), ghost = scale x_p + shift moves -hb beta scale onto the
  // diagonal and hb beta shift onto the right-hand side.
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(r.count()), level.kind);
  for (int k = 0; k < d; ++k)
    kinds[static_cast<std::size_t>(r.index(k))] = ScalarKind::I32;
  auto on = [=](const std::vector<Sym>& v) {
    Sym sum = Sym(colour);
    for (int k = 0; k < d; ++k)
      if (k != axis)
        sum = sum + v[r.index(k)];
    return sum % 2 == 0;
  };
  auto at_low = [=](const std::vector<Sym>& v, int k) { return v[r.index(k)] == 0; };
  auto at_high = [=](const std::vector<Sym>& v, int k) {
    return v[r.index(k)] == static_cast<int>(last);
  };
  // sum over the boundary faces of p of beta times weight.
  auto boundary_faces = [=](const std::vector<Sym>& v) {
    Sym sum = Sym(0.0);
    for (int k = 0; k < d; ++k)
      sum = sum + select(at_low(v, k), v[r.beta_low(k)], Sym(0.0)) +
            select(at_high(v, k), v[r.beta_high(k)], Sym(0.0));
    return sum;
  };
  Fun lower = formula("lineLower", kinds, [=](const std::vector<Sym>& v) {
    return select(on(v), -hb * v[r.beta_low(axis)], Sym(0.0));
  });
  Fun upper = formula("lineUpper", kinds, [=](const std::vector<Sym>& v) {
    return select(on(v), -hb * v[r.beta_high(axis)], Sym(0.0));
  });
  Fun diagonal = formula("lineDiagonal", kinds, [=](const std::vector<Sym>& v) {
    Sym faces = v[r.beta_low(0)] + v[r.beta_high(0)];
    for (int k = 1; k < d; ++k)
      faces = faces + v[r.beta_low(k)] + v[r.beta_high(k)];
    Sym diag = c.a * v[r.alpha()] + hb * faces;
    if (ghost.scale != 0)
      diag = diag - ghost.scale * hb * boundary_faces(v);
    return select(on(v), diag, Sym(1.0));
  });
  Fun rhs = formula("lineRhs", kinds, [=](const std::vector<Sym>& v) {
    Sym sum = v[r.f()];
    for (int k = 0; k < d; ++k)
      if (k != axis) {
        // A ghost of p itself is on the diagonal: its old value is not read.
        Sym low = v[1 + 2 * k], high = v[2 + 2 * k];
        if (ghost.scale != 0) {
          low = select(at_low(v, k), Sym(0.0), low);
          high = select(at_high(v, k), Sym(0.0), high);
        }
        sum = sum + hb * (v[r.beta_high(k)] * high + v[r.beta_low(k)] * low);
      }
    if (ghost.shift != 0) { // the constant ghosts along the line (the others are read from u)
      Sym ends = select(at_low(v, axis), v[r.beta_low(axis)], Sym(0.0)) +
                 select(at_high(v, axis), v[r.beta_high(axis)], Sym(0.0));
      sum = sum + ghost.shift * hb * ends;
    }
    return select(on(v), sum, v[0]);
  });
  return {lower, upper, diagonal, rhs};
}

} // namespace

Expr helmholtz_line_half_sweep(const Level& level, Boundary bc, HelmholtzCoefficients c, int axis,
                               int colour) {
  const int d = level.dims;
  if (colour != 0 && colour != 1)
    user_error(cat("a red-black colour is 0 (red) or 1 (black), got ", colour));
  if (axis < 0 || axis >= d)
    user_error(cat("a ", d, "-D grid has lines along dimensions 0 to ", d - 1, ", got ", axis));
  if (c.quadratic_dirichlet || c.outer_beta)
    user_error("line relaxation supports the Pad boundaries and clamped face coefficients, not "
               "HPGMG-FV's quadratic Dirichlet boundary: use the point smoother gsrb");
  const Ghost ghost = line_ghost(bc);
  RowReads r{d};

  const LineRow row = line_row(level, ghost, c, axis, colour, r);
  const Fun &lower = row.lower, &upper = row.upper, &diagonal = row.diagonal, &rhs = row.rhs;

  Val u = grid_input("u", level), f = grid_input("f", level), alpha = grid_input("alpha", level);
  std::vector<Val> inputs{u, f, alpha};
  std::vector<Val> zipped{u | pad_nd(d, 1, 1, adapt(bc, level)) | slide_nd(d, 3, 1), f, alpha};
  for (int k = 0; k < d; ++k) {
    Val beta = grid_input("beta" + std::to_string(k), level);
    inputs.push_back(beta);
    zipped.push_back(beta | pad_nd(d, 1, 1, clamp) | slide_nd(d, 3, 1));
  }
  std::vector<ScalarKind> index_kinds(static_cast<std::size_t>(d), ScalarKind::I32);
  for (int k = 0; k < d; ++k)
    zipped.push_back(
        index_grid(level, formula(cat("index", k), index_kinds,
                                  [=](const std::vector<Sym>& idx) { return idx[k]; })));

  // The scalars of one point, in RowReads order.
  auto reads = [=](Val t) {
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
    for (int k = 0; k < d; ++k)
      args.push_back(t.get(3 + d + k));
    return args;
  };
  const ScalarKind kind = level.kind;
  Fun solve_line([=](Val line) {
    return thomas_solve(
        line,
        [=](Val t) {
          auto args = reads(t);
          return TridiagonalRow{lower.apply(args), diagonal.apply(args), upper.apply(args),
                                rhs.apply(args)};
        },
        kind);
  });
  Val lines = axis_to_innermost(zip_nd(d, zipped), d, axis);
  Val solved = d == 1 ? lines | solve_line : lines | map_nd(d - 1, solve_line);
  return program(inputs, innermost_to_axis(solved, d, axis));
}

} // namespace tessera::multigrid
