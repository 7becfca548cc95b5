// HPGMG-FV's interpolations of its 4th-order build: interpolation_v4 (volume-averaged quartic, at
// the start of each F-cycle level) on the coarse grid with the ghosts of apply_BCs_v4
// (HelmholtzFv4.h; faces, edges and corners), and interpolation_v2 (volume-averaged quadratic, in
// V-cycles) with those of apply_BCs_v2 (the quadratic ghost -5/2 x_0 + 1/2 x_1). Interpolation
// and ghosts are tensor products of 1-D operators, so a fine point's value is
// sum_{a,b,c} w_0[a] w_1[b] w_2[c] e[I + (a, b, c)] over the coarse offsets -r..r, each w_k the
// 1-D weights of the point's parity with the ghosts folded in, chosen by the coarse cell's place
// along k.
#include <vector>

#include "core/Error.h"
#include "multigrid/Formula.h"
#include "multigrid/Helmholtz.h"

namespace tessera::multigrid {

namespace {

// One of HPGMG's 1-D interpolations: the even (low) child's weights of the coarse offsets
// -h..h (the odd child's are their mirror), and each ghost layer's weights of the cells inside,
// the nearest first.
struct Scheme {
  const char* name;
  int reach; // of the coarse offsets a fine point reads, ghosts resolved
  std::vector<double> even;
  std::vector<std::vector<double>> ghosts;
  int min_cells;
  int half() const { return static_cast<int>(even.size() / 2); } // h: the offsets -h..h
};
const Scheme kQuartic{"prolongQuartic",
                      3,
                      {-3.0 / 128, 22.0 / 128, 1, -22.0 / 128, 3.0 / 128},
                      {{-77.0 / 12, 43.0 / 12, -17.0 / 12, 3.0 / 12},
                       {-505.0 / 12, 335.0 / 12, -145.0 / 12, 27.0 / 12}},
                      4};
const Scheme kQuadratic{"prolongVolumeQuadratic", 1, {1.0 / 8, 1, -1.0 / 8}, {{-2.5, 0.5}}, 2};
// A coarse cell's place along a dimension: the first two, inside, the last two.
constexpr int kPlaces = 5;

// The 1-D weights of coarse offsets -reach..reach for the place and parity, on nc cells.
std::vector<double> weights(const Scheme& s, int place, int parity, int64_t nc) {
  const int half = s.half();
  const bool inner = place == 2;
  const int64_t ci = place < 2 ? place : place == 3 ? nc - 2 : nc - 1;
  std::vector<double> w(static_cast<std::size_t>(2 * s.reach + 1), 0.0);
  for (int t = -half; t <= half; ++t) {
    const double wt = s.even[static_cast<std::size_t>(parity == 0 ? t + half : half - t)];
    const int64_t at = ci + t;
    if (inner || (at >= 0 && at < nc)) {
      w[static_cast<std::size_t>(t + s.reach)] += wt;
      continue;
    }
    const auto& ghost = s.ghosts[static_cast<std::size_t>(at < 0 ? -at - 1 : at - nc)];
    for (std::size_t m = 0; m < ghost.size(); ++m) {
      const int64_t cell = at < 0 ? static_cast<int64_t>(m) : nc - 1 - static_cast<int64_t>(m);
      w[static_cast<std::size_t>(cell - ci + s.reach)] += wt * ghost[m];
    }
  }
  return w;
}

// Per dimension k an i32 grid on the fine level: 2 * (the coarse cell's place) + the parity.
Val place_codes(const Level& fine, int64_t nc, int k) {
  const int c = static_cast<int>(nc);
  Fun code = formula(cat("quarticPlace", k), std::vector<ScalarKind>(fine.dims, ScalarKind::I32),
                     [=](const std::vector<Sym>& idx) {
                       const Sym& i = idx[static_cast<std::size_t>(k)];
                       const Sym ci = i / 2;
                       const Sym place = select(
                           ci == 0, 0,
                           select(ci == 1, 1, select(ci == c - 1, 4, select(ci == c - 2, 3, 2))));
                       return place * 2 + i % 2;
                     });
  return index_grid(fine, code);
}

// A typed constant of the fine grid's kind.
using Constant = std::function<Sym(double)>;

// The weight of tap `a` chosen by a point's code along a dimension (2 * place + parity) from
// `table` (by code), the inside codes tested last so that they decide first.
Sym place_weight(const std::vector<std::vector<double>>& table, const Sym& code, int a,
                 const Constant& typed) {
  const auto at = static_cast<std::size_t>(a);
  Sym value = typed(table[0][at]);
  for (int c : {9, 8, 7, 6, 3, 2, 1, 5, 4})
    value = select(code == c, typed(table[static_cast<std::size_t>(c)][at]), value);
  return value;
}
// The weight of a dimension's tap a (its coarse offset a - half) from the point's code along it.
using TapWeight = std::function<Sym(const Sym& code, int a, const Constant& typed)>;
// How a dimension weighs its taps: `code`, the i32 grid on the fine level whose value chooses
// the weights; the coarse offsets -half..half it reads (half <= the windows' reach).
struct AxisWeights {
  Val code;
  int half;
  TapWeight weight;
};

// u + sum_{a,b,c} w_0(a) w_1(b) w_2(c) e[I + (a, b, c)]: a tensor product over windows of
// (2 reach + 1)^3 coarse values, dimension by dimension, innermost first, each dimension reading
// its own taps (axes[k].half of them each side).
Expr tensor_interpolation(const Level& coarse, const std::string& name, int reach,
                          const std::vector<AxisWeights>& axes) {
  const int d = coarse.dims, taps = 2 * reach + 1;
  Level fine = coarse;
  fine.n = 2 * coarse.n;
  Val u = grid_input("u", fine), e = grid_input("e", coarse);
  Val windows =
      e | pad_nd(d, reach, reach, zero_boundary(coarse)) | slide_nd(d, taps, 1) | duplicate_nd(d);
  const int count = taps * taps * taps;
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(count + 1), fine.kind);
  for (int k = 0; k < d; ++k)
    kinds.push_back(ScalarKind::I32);
  const ScalarKind kind = fine.kind;
  Fun interpolate = formula(name, kinds, [=](const std::vector<Sym>& v) {
    const Constant typed = [&](double x) {
      return Sym(ScalarExpr::constant(ScalarValue::make(kind, x), false));
    };
    std::vector<std::vector<Sym>> w(static_cast<std::size_t>(d));
    std::vector<int> half(static_cast<std::size_t>(d));
    for (std::size_t k = 0; k < w.size(); ++k) {
      half[k] = axes[k].half;
      for (int a = 0; a <= 2 * half[k]; ++a)
        w[k].push_back(axes[k].weight(v[static_cast<std::size_t>(count + 1) + k], a, typed));
    }
    auto e_at = [&](int a, int b, int c) { // taps of each dimension's own range
      a += reach - half[0], b += reach - half[1], c += reach - half[2];
      return v[static_cast<std::size_t>(1 + (a * taps + b) * taps + c)];
    };
    Sym total = typed(0);
    for (int a = 0; a <= 2 * half[0]; ++a) {
      Sym plane = typed(0);
      for (int b = 0; b <= 2 * half[1]; ++b) {
        Sym line = w[2][0] * e_at(a, b, 0);
        for (int c = 1; c <= 2 * half[2]; ++c)
          line = line + w[2][static_cast<std::size_t>(c)] * e_at(a, b, c);
        plane = b == 0 ? w[1][0] * line : plane + w[1][static_cast<std::size_t>(b)] * line;
      }
      total = a == 0 ? w[0][0] * plane : total + w[0][static_cast<std::size_t>(a)] * plane;
    }
    return v[0] + total;
  });
  std::vector<Val> zipped{u, windows};
  for (const AxisWeights& axis : axes)
    zipped.push_back(axis.code);
  Fun apply([=](Val t) {
    std::vector<Val> args{t.get(0)};
    for (const Val& x : block_elements(t.get(1), d, taps))
      args.push_back(x);
    for (int k = 0; k < d; ++k)
      args.push_back(t.get(2 + k));
    return interpolate.apply(args);
  });
  return program({u, e}, zip_nd(d, zipped) | map_nd(d, apply));
}

} // namespace

namespace {

const Scheme& scheme_of(int order) {
  if (order != 2 && order != 4)
    user_error(cat("HPGMG-FV's interpolations are interpolation_v2 (order 2) and interpolation_v4 "
                   "(order 4), got order ",
                   order));
  return order == 4 ? kQuartic : kQuadratic;
}

} // namespace

// Along every dimension the weights of the coarse cell's place and the fine point's parity,
// the ghosts folded in (`weights`).
Expr prolong_hpgmg_fv(const Level& coarse, int order) {
  const Scheme& scheme = scheme_of(order);
  if (coarse.dims != 3 || coarse.centring != Centring::Cell || coarse.n < scheme.min_cells ||
      !coarse.box.empty())
    user_error(cat("HPGMG-FV's interpolation_v", order,
                   " runs from a whole cell-centred 3-D grid "
                   "of at least ",
                   scheme.min_cells, " cells per side, got ", coarse.describe()));
  Level fine = coarse;
  fine.n = 2 * coarse.n;
  std::vector<std::vector<double>> table; // by code: 2 * place + parity
  for (int c = 0; c < 2 * kPlaces; ++c)
    table.push_back(weights(scheme, c / 2, c % 2, coarse.n));
  std::vector<AxisWeights> axes;
  for (int k = 0; k < coarse.dims; ++k)
    axes.push_back({place_codes(fine, coarse.n, k), scheme.reach,
                    [=](const Sym& code, int a, const Constant& typed) {
                      return place_weight(table, code, a, typed);
                    }});
  return tensor_interpolation(coarse, scheme.name, scheme.reach, axes);
}

namespace {

// a | f at depth `depth` (0: a | f).
Val at_depth(const Val& a, int depth, const Fun& f) {
  return depth == 0 ? a | f : a | map_nd(depth, f);
}

// The windows of 2r + 1 values of `a` along dimension k alone (zeros beyond its ends), each
// point's window as its innermost level: [n_0]..[n_{d-1}][2r + 1].
Val windows_along(const Val& a, int d, int k, int r, const Boundary& zero) {
  Val w = at_depth(a, k, pad(r, r, zero) >> slide(2 * r + 1, 1));
  for (int depth = k + 1; depth < d; ++depth) // the window level down past each one below
    w = w | map_nd(depth, transpose());
  return w;
}

// The sizes of the grid a pass along k reads: the coarse grid refined along the dimensions
// after k (the passes run innermost first).
std::vector<int64_t> pass_input_sizes(const Level& coarse, int k) {
  std::vector<int64_t> sizes(static_cast<std::size_t>(coarse.dims), coarse.n);
  for (int j = k + 1; j < coarse.dims; ++j)
    sizes[static_cast<std::size_t>(j)] = 2 * coarse.n;
  return sizes;
}

} // namespace

std::vector<int64_t> prolong_hpgmg_fv_pass_sizes(const Level& coarse, int k) {
  std::vector<int64_t> sizes = pass_input_sizes(coarse, k);
  sizes[static_cast<std::size_t>(k)] = 2 * coarse.n;
  return sizes;
}

Expr prolong_hpgmg_fv_pass(const Level& coarse, int order, int k) {
  const Scheme& scheme = scheme_of(order);
  if (coarse.dims != 3 || coarse.centring != Centring::Cell || coarse.n < scheme.min_cells ||
      !coarse.box.empty())
    user_error(cat("HPGMG-FV's interpolation_v", order,
                   " runs from a whole cell-centred 3-D grid of at least ", scheme.min_cells,
                   " cells per side, got ", coarse.describe()));
  const int d = coarse.dims;
  if (k < 0 || k >= d)
    internal_error(cat("a pass of HPGMG-FV's interpolation along dimension ", k, " of ", d));
  Level in = coarse, out = coarse;
  in.box = pass_input_sizes(coarse, k);
  out.box = prolong_hpgmg_fv_pass_sizes(coarse, k);
  const bool last = k == 0; // u + the pass along the outermost dimension
  Val t = grid_input(k == d - 1 ? "e" : "t", in), u = grid_input("u", out);
  const int r = scheme.reach, taps = 2 * r + 1;
  std::vector<std::vector<double>> table; // by code: 2 * place + parity
  for (int c = 0; c < 2 * kPlaces; ++c)
    table.push_back(weights(scheme, c / 2, c % 2, coarse.n));
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(taps + (last ? 1 : 0)), coarse.kind);
  kinds.push_back(ScalarKind::I32);
  const ScalarKind kind = coarse.kind;
  // The taps in the order the one-kernel form sums them (tensor_interpolation).
  Fun pass = formula(cat(scheme.name, "Pass", k), kinds, [=](const std::vector<Sym>& v) {
    const Constant typed = [&](double x) {
      return Sym(ScalarExpr::constant(ScalarValue::make(kind, x), false));
    };
    const std::size_t first = last ? 1 : 0;
    const Sym& code = v.back();
    Sym total = typed(0);
    for (int a = 0; a < taps; ++a) {
      const Sym term = place_weight(table, code, a, typed) * v[first + static_cast<std::size_t>(a)];
      total = a == 0 ? term : total + term;
    }
    return last ? v[0] + total : total;
  });
  // Each window twice along k: a fine point's coarse cell is its index halved.
  const Val windows = at_depth(windows_along(t, d, k, r, zero_boundary(coarse)), k,
                               split(1) >> map(pad(0, 1, clamp)) >> join());
  std::vector<Val> zipped;
  if (last)
    zipped.push_back(u);
  zipped.push_back(windows);
  zipped.push_back(place_codes(out, coarse.n, k));
  Fun apply([=](Val p) {
    std::vector<Val> args;
    int i = 0;
    if (last)
      args.push_back(p.get(i++));
    const Val window = p.get(i++);
    for (int a = 0; a < taps; ++a)
      args.push_back(window.at(a));
    args.push_back(p.get(i));
    return pass.apply(args);
  });
  std::vector<Val> inputs;
  if (last)
    inputs.push_back(u);
  inputs.push_back(t);
  return program(inputs, zip_nd(d, zipped) | map_nd(d, apply));
}

} // namespace tessera::multigrid
