#include "multigrid/HelmholtzFv4.h"

#include <map>
#include <optional>

#include "core/Error.h"
#include "multigrid/Formula.h"

namespace tessera::multigrid::detail {

namespace {

using Offset = std::vector<int>;

constexpr int kReachU = 3;    // a ghost two cells out reads cells up to 3 from the point
constexpr int kReachBeta = 4; // a face coefficient's quartic extrapolation reads 4 faces on
constexpr int kInside = 100;  // the side code of a cell 2 or more cells from both boundaries
// The interior form reads no ghost: u up to 2 cells away, beta one face along a tangent. Its
// windows that narrow make its kernel exact 2 cells from the edges, so that the slabs the whole
// form runs on around it are 2 cells deep, not 4.
constexpr int kInteriorReachU = 2;
constexpr int kInteriorReachBeta = 1;
// apply_BCs_v4's two ghosts (times 1/12) from the four cells inside, the nearest first.
constexpr double kGhost[2][4] = {{-77, 43, -17, 3}, {-505, 335, -145, 27}};

// A term of the operator that may be absent: the diagonal is the operator applied to u_p's
// indicator, where most reads contribute nothing (left out rather than multiplied by zero).
struct Term {
  std::optional<Sym> s;
};
Term operator+(const Term& a, const Term& b) {
  if (!a.s)
    return b;
  if (!b.s)
    return a;
  return {*a.s + *b.s};
}
Term operator-(const Term& a) {
  return a.s ? Term{-*a.s} : a;
}
Term operator-(const Term& a, const Term& b) {
  if (!b.s)
    return a;
  if (!a.s)
    return -b;
  return {*a.s - *b.s};
}
Term operator*(const Sym& w, const Term& t) {
  return t.s ? Term{w * *t.s} : t;
}

// The u offsets a point reads (within `reach`, in at most two dimensions at once) and the face
// coefficients' (beta_k at p or p + e_k, moved along one tangential dimension within `reach`).
std::vector<Offset> u_offsets(int d, int reach) {
  std::vector<Offset> all;
  Offset o(static_cast<std::size_t>(d), -reach);
  while (true) {
    int moved = 0;
    for (int x : o)
      moved += x != 0;
    if (moved <= 2)
      all.push_back(o);
    int k = d - 1;
    while (k >= 0 && o[k] == reach)
      o[k--] = -reach;
    if (k < 0)
      return all;
    ++o[k];
  }
}

std::vector<Offset> beta_offsets(int d, int k, int reach) {
  std::vector<Offset> all;
  for (int normal = 0; normal <= 1; ++normal) {
    Offset o(static_cast<std::size_t>(d), 0);
    o[k] = normal;
    all.push_back(o);
    for (int j = 0; j < d; ++j)
      for (int t = -reach; t <= reach; ++t)
        if (j != k && t != 0) {
          Offset m = o;
          m[j] = t;
          all.push_back(m);
        }
  }
  return all;
}

// The formula's view of one point: its parameters (u reads, f, alpha, beta reads, the side code
// of each dimension, then what the update reads besides) and how to read u and beta at offsets,
// ghosts resolved.
struct Fv4Point {
  const std::vector<Sym>& v;
  int d;
  int64_t n;
  ScalarKind kind;
  const std::map<Offset, int>& u_at;
  const std::vector<std::map<Offset, int>>& beta_at;
  int f, alpha, code; // parameter positions
  bool indicator = false;
  // Bit k: the point is 2 or more cells from both boundaries along dimension k (no ghost is
  // read along it); every bit: the interior form.
  unsigned inside = 0;
  bool inside_along(int k) const { return (inside >> k & 1u) != 0; }

  Sym typed(double x) const { return Sym(ScalarExpr::constant(ScalarValue::make(kind, x), false)); }
  // The side code of dimension k: i for the first two cells, i - n for the last two.
  Sym at(int k, int value) const { return v[static_cast<std::size_t>(code + k)] == value; }
  Sym select_term(const Sym& cond, const Term& a, const Term& b) const {
    if (!a.s && !b.s)
      return typed(0);
    return select(cond, a.s ? *a.s : typed(0), b.s ? *b.s : typed(0));
  }

  // u at offset o, the ghosts of dimensions `axis` on replaced by apply_BCs_v4's extrapolation
  // (on an edge, along both dimensions). With `indicator`, u_p's coefficient in that value.
  Term u(Offset o, int axis = 0) const {
    int k = axis;
    while (k < d && (o[static_cast<std::size_t>(k)] == 0 || inside_along(k)))
      ++k;
    if (k == d) {
      if (!indicator)
        return {v[static_cast<std::size_t>(u_at.at(o))]};
      for (int x : o)
        if (x != 0)
          return {};
      return {typed(1)};
    }
    const int ok = o[static_cast<std::size_t>(k)];
    Term value = u(o, k + 1); // the point is far enough from the boundary along k
    // The points whose read lands in a ghost: i = 0 .. -ok-1 (low side), n-1 .. n-ok (high).
    for (int step = 0; step < std::abs(ok); ++step) {
      const int ghost = std::abs(ok) - step - 1; // 0: the ghost next to the boundary, 1: beyond
      Term combo;
      for (int m = 0; m < 4; ++m) {
        Offset inside = o;
        inside[static_cast<std::size_t>(k)] = ok < 0 ? m - step : step - m;
        combo = combo + typed(kGhost[ghost][m]) * u(inside, k + 1);
      }
      combo = typed(1.0 / 12) * combo;
      if (combo.s || value.s)
        value = {select_term(at(k, ok < 0 ? step : -(step + 1)), combo, value)};
    }
    return value;
  }

  // beta_k at offset o (o_k in {0, 1}, at most one tangential move of 1), a read beyond the
  // domain along the tangential dimension extrapolated from the faces inside.
  Sym beta(int k, const Offset& o) const {
    const auto& index = beta_at[static_cast<std::size_t>(k)];
    const Sym direct = v[static_cast<std::size_t>(index.at(o))];
    for (int j = 0; j < d; ++j) {
      const int t = o[static_cast<std::size_t>(j)];
      if (j == k || t == 0 || inside_along(j))
        continue;
      static const std::vector<double> quartic{5, -10, 10, -5, 1}, cubic{4, -6, 4, -1};
      const std::vector<double>& w = n >= 5 ? quartic : cubic;
      Sym sum = typed(0);
      for (std::size_t m = 0; m < w.size(); ++m) {
        Offset inside = o;
        inside[static_cast<std::size_t>(j)] = t < 0 ? static_cast<int>(m) : -static_cast<int>(m);
        const Sym b = v[static_cast<std::size_t>(index.at(inside))];
        sum = m == 0 ? typed(w[m]) * b : sum + typed(w[m]) * b;
      }
      return select(at(j, t < 0 ? 0 : -1), sum, direct);
    }
    return direct;
  }

  Offset unit(int k, int times = 1) const {
    Offset o(static_cast<std::size_t>(d), 0);
    o[static_cast<std::size_t>(k)] = times;
    return o;
  }
  static Offset plus(Offset a, const Offset& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
      a[i] += b[i];
    return a;
  }

  // operators.fv4.c's apply_op_ijk, in its order of the terms.
  Term apply(double a, double b, double h2inv) const {
    const Offset zero(static_cast<std::size_t>(d), 0);
    const Term u0 = u(zero);
    Term faces;
    for (int k = 0; k < d; ++k) {
      const Offset lo = unit(k, -1), hi = unit(k, 1);
      faces = faces + beta(k, zero) * (typed(15) * (u(lo) - u0) - (u(unit(k, -2)) - u(hi)));
      faces = faces + beta(k, hi) * (typed(15) * (u(hi) - u0) - (u(unit(k, 2)) - u(lo)));
    }
    Term cross;
    for (int k = 0; k < d; ++k)
      for (int j = 0; j < d; ++j) {
        if (j == k)
          continue;
        const Offset ej = unit(j), mj = unit(j, -1), lo = unit(k, -1);
        cross = cross +
                (beta(k, ej) - beta(k, mj)) * (u(plus(lo, ej)) - u(ej) - u(plus(lo, mj)) + u(mj));
      }
    for (int k = 0; k < d; ++k)
      for (int j = 0; j < d; ++j) {
        if (j == k)
          continue;
        const Offset ej = unit(j), mj = unit(j, -1), hi = unit(k, 1);
        cross = cross + (beta(k, plus(hi, ej)) - beta(k, plus(hi, mj))) *
                            (u(plus(hi, ej)) - u(ej) - u(plus(hi, mj)) + u(mj));
      }
    const Term flux = typed(1.0 / 12) * faces + typed(0.25 / 12) * cross;
    // a = 0 (HPGMG-FV's benchmark): the formula leaves alpha out, so the device compilers drop
    // its load (one array less a sweep). The value is the same but for the sign of a zero
    // result (0 alpha u - x against -x).
    if (a == 0)
      return -(typed(b * h2inv) * flux);
    return typed(a) * v[static_cast<std::size_t>(alpha)] * u0 - typed(b * h2inv) * flux;
  }
  Sym residual(const HelmholtzCoefficients& c, double h2inv) const {
    return v[static_cast<std::size_t>(f)] - *apply(c.a, c.b, h2inv).s;
  }
};

using UpdateBody = std::function<Sym(const Fv4Point& p, const Fv4Point& diagonal)>;

Val side_codes(const Level& level, int k) {
  const int n = static_cast<int>(level.n);
  Fun code = formula(cat("fv4Side", k), std::vector<ScalarKind>(level.dims, ScalarKind::I32),
                     [=](const std::vector<Sym>& idx) {
                       const Sym& i = idx[static_cast<std::size_t>(k)];
                       return select(i < 2, i, select(i >= n - 2, i - n, kInside));
                     });
  return index_grid(level, code);
}

Expr fv4_operator(const Level& level, const HelmholtzCoefficients& c, const std::string& name,
                  std::vector<Val> extras, const UpdateBody& body, bool restricted,
                  Fv4Region region) {
  const bool interior = region.kind == Fv4Region::Interior;
  if (!uses_fv4(level, c))
    user_error(cat("the 4th-order operator runs on grids of at least 4 cells per side with "
                   "order 4, got ",
                   level.describe()));
  if (!level.box.empty())
    user_error("the 4th-order operator runs on a whole grid on one device, not on a rank's block");
  const int d = level.dims;
  if (region.kind == Fv4Region::Slab && region.inside >= (1u << d) - 1)
    internal_error(cat("a slab of the 4th-order operator inside along every dimension (mask ",
                       region.inside, " of ", d, " dimensions): that is its interior"));
  const int reach_u = interior ? kInteriorReachU : kReachU;
  const int reach_beta = interior ? kInteriorReachBeta : kReachBeta;
  const auto u_list = u_offsets(d, reach_u);
  std::map<Offset, int> u_at;
  for (const auto& o : u_list)
    u_at.emplace(o, static_cast<int>(u_at.size()));
  Val u = grid_input("u", level), f = grid_input("f", level), alpha = grid_input("alpha", level);
  std::vector<Val> inputs{u, f, alpha};
  std::vector<Val> zipped{u | pad_nd(d, reach_u, reach_u, zero_boundary(level)) |
                              slide_nd(d, 2 * reach_u + 1, 1),
                          f, alpha};
  const Boundary outer =
      Boundary::constant(ScalarValue::make(level.kind, c.outer_beta.value_or(1)));
  std::vector<std::vector<Offset>> beta_lists;
  std::vector<std::map<Offset, int>> beta_at(static_cast<std::size_t>(d));
  int next = static_cast<int>(u_list.size()) + 2;
  for (int k = 0; k < d; ++k) {
    Val beta = grid_input("beta" + std::to_string(k), level);
    inputs.push_back(beta);
    zipped.push_back(beta | pad_nd(d, reach_beta, reach_beta, outer) |
                     slide_nd(d, 2 * reach_beta + 1, 1));
    beta_lists.push_back(beta_offsets(d, k, reach_beta));
    for (const auto& o : beta_lists.back())
      beta_at[static_cast<std::size_t>(k)].emplace(o, next++);
  }
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(next), level.kind);
  const int code = next; // the interior form reads no side code
  for (int k = 0; k < d && !interior; ++k) {
    zipped.push_back(side_codes(level, k));
    kinds.push_back(ScalarKind::I32);
  }
  for (const Val& e : extras) {
    zipped.push_back(e);
    kinds.push_back(ScalarKind::I32);
  }
  const int f_at = static_cast<int>(u_list.size()), alpha_at = f_at + 1;
  const int64_t n = level.n;
  const ScalarKind kind = level.kind;
  const unsigned every = (1u << d) - 1;
  const std::string form = fv4_form_name(name, region);
  Fun point = formula(form, kinds, [=, &u_at, &beta_at](const std::vector<Sym>& v) {
    Fv4Point p{v, d, n, kind, u_at, beta_at, f_at, alpha_at, code};
    Fv4Point diagonal = p;
    diagonal.indicator = true;
    auto with_inside = [&](unsigned mask) {
      Fv4Point a = p, b = diagonal;
      a.inside = b.inside = mask;
      return body(a, b);
    };
    if (interior)
      return with_inside(every);
    if (region.kind == Fv4Region::Slab)
      return with_inside(region.inside);
    // Most points read no ghost: their form without the side selections, chosen
    // once, so that a device branches instead of evaluating every extrapolation
    // and selecting.
    Sym is_inner = v[static_cast<std::size_t>(code)] == kInside;
    for (int k = 1; k < d; ++k)
      is_inner = is_inner && v[static_cast<std::size_t>(code + k)] == kInside;
    return select(is_inner, with_inside(every), with_inside(0));
  });
  Fun apply([=](Val t) {
    std::vector<Val> args;
    for (const auto& o : u_list)
      args.push_back(at_offset(t.get(0), o, reach_u));
    args.push_back(t.get(1));
    args.push_back(t.get(2));
    for (int k = 0; k < d; ++k)
      for (const auto& o : beta_lists[static_cast<std::size_t>(k)])
        args.push_back(at_offset(t.get(3 + k), o, reach_beta));
    for (int i = 3 + d; i < static_cast<int>(zipped.size()); ++i)
      args.push_back(t.get(i));
    return point.apply(args);
  });
  return point_program(level, inputs, zip_nd(d, zipped), apply,
                       PointOutput{restricted ? PointOutput::Average : PointOutput::Grid});
}

double h2inv_of(const Level& level) {
  return 1.0 / (level.h() * level.h());
}

} // namespace

Fv4InteriorReads fv4_interior_reads(int dims) {
  Fv4InteriorReads reads{u_offsets(dims, kInteriorReachU), {}};
  for (int k = 0; k < dims; ++k)
    reads.beta.push_back(beta_offsets(dims, k, kInteriorReachBeta));
  return reads;
}

std::string fv4_form_name(const std::string& name, Fv4Region region) {
  return region.kind == Fv4Region::Interior ? name + "Interior"
         : region.kind == Fv4Region::Slab   ? cat(name, "Slab", region.inside)
                                            : name;
}

bool uses_fv4(const Level& level, const HelmholtzCoefficients& c) {
  if (c.order != 2 && c.order != 4)
    user_error(cat("the variable-coefficient operator has the orders 2 and 4 (HPGMG-FV's "
                   "operators.fv2.c and operators.fv4.c), got ",
                   c.order));
  if (c.order == 4 && (!c.quadratic_dirichlet || !c.outer_beta))
    user_error("the 4th-order operator is HPGMG-FV's Dirichlet form: it needs "
               "quadratic_dirichlet (its boundary on grids below 4 cells) and outer_beta");
  return c.order == 4 && level.n >= 4;
}

Expr fv4_residual(const Level& level, const HelmholtzCoefficients& c, bool restricted,
                  Fv4Region region) {
  const double h2inv = h2inv_of(level);
  return fv4_operator(
      level, c, "fv4Residual", {},
      [=](const Fv4Point& p, const Fv4Point&) { return p.residual(c, h2inv); }, restricted, region);
}

Expr fv4_jacobi(const Level& level, const HelmholtzCoefficients& c, double omega,
                Fv4Region region) {
  const double h2inv = h2inv_of(level);
  return fv4_operator(
      level, c, "fv4Jacobi", {},
      [=](const Fv4Point& p, const Fv4Point& diag) {
        const Sym u0 = p.v[static_cast<std::size_t>(p.u_at.at(Offset(p.d, 0)))];
        return u0 + p.typed(omega) * p.residual(c, h2inv) / *diag.apply(c.a, c.b, h2inv).s;
      },
      false, region);
}

Expr fv4_gsrb_half_sweep(const Level& level, const HelmholtzCoefficients& c, int colour,
                         Fv4Region region) {
  const double h2inv = h2inv_of(level);
  return fv4_operator(
      level, c, "fv4Gsrb", {colour_grid(level, colour)},
      [=](const Fv4Point& p, const Fv4Point& diag) {
        const Sym u0 = p.v[static_cast<std::size_t>(p.u_at.at(Offset(p.d, 0)))];
        const Sym updated = u0 + p.residual(c, h2inv) / *diag.apply(c.a, c.b, h2inv).s;
        return select(p.v.back() != 0, updated, u0);
      },
      false, region);
}

} // namespace tessera::multigrid::detail
