// HPGMG-FV's interpolation_v4 (operators/interpolation_v4.c): the volume-averaged quartic
// interpolation its 4th-order build uses at the start of each F-cycle level, on the coarse grid
// with the ghosts of apply_BCs_v4 (HelmholtzFv4.h; faces, edges and corners). Both are tensor
// products of 1-D operators, so a fine point's value is sum_{a,b,c} w_0[a] w_1[b] w_2[c]
// e[I + (a, b, c)] over the coarse offsets -3..3, each w_k the 1-D weights of the point's parity
// with the ghosts folded in, chosen by the coarse cell's place along k.
#include <array>

#include "core/Error.h"
#include "multigrid/Formula.h"
#include "multigrid/Helmholtz.h"

namespace tessera::multigrid {

using namespace detail;

namespace {

constexpr int kReach = 3; // a ghost two cells out is made from cells up to 3 from the coarse cell
constexpr int kTaps = 2 * kReach + 1;
// The even (low) child's weights of coarse offsets -2..2; the odd child's are their mirror.
constexpr double kEven[5] = {-3.0 / 128, 22.0 / 128, 1, -22.0 / 128, 3.0 / 128};
constexpr double kGhost[2][4] = {{-77, 43, -17, 3}, {-505, 335, -145, 27}}; // times 1/12
// A coarse cell's place along a dimension: the first two, inside, the last two.
constexpr int kPlaces = 5;

// The 1-D weights of coarse offsets -3..3 for the place and parity, on a grid of nc cells.
std::array<double, kTaps> weights(int place, int parity, int64_t nc) {
  const bool inner = place == 2;
  const int64_t ci = place < 2 ? place : place == 3 ? nc - 2 : nc - 1;
  std::array<double, kTaps> w{};
  for (int t = -2; t <= 2; ++t) {
    const double wt = parity == 0 ? kEven[t + 2] : kEven[2 - t];
    const int64_t at = ci + t;
    if (inner || (at >= 0 && at < nc)) {
      w[static_cast<std::size_t>(t + kReach)] += wt;
      continue;
    }
    const int ghost = at < 0 ? static_cast<int>(-at) - 1 : static_cast<int>(at - nc);
    for (int m = 0; m < 4; ++m) {
      const int64_t cell = at < 0 ? m : nc - 1 - m;
      w[static_cast<std::size_t>(cell - ci + kReach)] += wt * kGhost[ghost][m] / 12;
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

} // namespace

Expr prolong_quartic_fv4(const Level& coarse) {
  if (coarse.dims != 3 || coarse.centring != Centring::Cell || coarse.n < 4 || !coarse.box.empty())
    user_error(cat("HPGMG-FV's quartic interpolation runs from a whole cell-centred 3-D grid of at "
                   "least 4 cells per side, got ",
                   coarse.describe()));
  const int d = coarse.dims;
  const int64_t nc = coarse.n;
  Level fine = coarse;
  fine.n = 2 * nc;
  Val u = grid_input("u", fine), e = grid_input("e", coarse);
  Val windows = e | pad_nd(d, kReach, kReach, zero_boundary(coarse)) | slide_nd(d, kTaps, 1) |
                duplicate_nd(d);
  std::array<std::array<double, kTaps>, 2 * kPlaces> table;
  for (int c = 0; c < 2 * kPlaces; ++c)
    table[static_cast<std::size_t>(c)] = weights(c / 2, c % 2, nc);
  const int count = kTaps * kTaps * kTaps;
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(count + 1), fine.kind);
  for (int k = 0; k < d; ++k)
    kinds.push_back(ScalarKind::I32);
  const ScalarKind kind = fine.kind;
  Fun interpolate = formula("prolongQuartic", kinds, [=](const std::vector<Sym>& v) {
    auto typed = [&](double x) {
      return Sym(ScalarExpr::constant(ScalarValue::make(kind, x), false));
    };
    // w[k][a]: the weight of coarse offset a - kReach along k, selected by the code.
    std::vector<std::vector<Sym>> w(static_cast<std::size_t>(d));
    for (int k = 0; k < d; ++k) {
      const Sym& code = v[static_cast<std::size_t>(count + 1 + k)];
      for (int a = 0; a < kTaps; ++a) {
        Sym value = typed(table[2 * 2][static_cast<std::size_t>(a)]); // inside, even
        for (int c = 2 * kPlaces - 1; c >= 0; --c)
          if (c != 2 * 2)
            value = select(code == c,
                           typed(table[static_cast<std::size_t>(c)][static_cast<std::size_t>(a)]),
                           value);
        w[static_cast<std::size_t>(k)].push_back(value);
      }
    }
    // Dimension by dimension, innermost first: 49 sums of 7, then 7, then 1.
    auto e_at = [&](int a, int b, int c) {
      return v[static_cast<std::size_t>(1 + (a * kTaps + b) * kTaps + c)];
    };
    Sym total = typed(0);
    for (int a = 0; a < kTaps; ++a) {
      Sym plane = typed(0);
      for (int b = 0; b < kTaps; ++b) {
        Sym line = w[2][0] * e_at(a, b, 0);
        for (int c = 1; c < kTaps; ++c)
          line = line + w[2][static_cast<std::size_t>(c)] * e_at(a, b, c);
        plane = b == 0 ? w[1][0] * line : plane + w[1][static_cast<std::size_t>(b)] * line;
      }
      total = a == 0 ? w[0][0] * plane : total + w[0][static_cast<std::size_t>(a)] * plane;
    }
    return v[0] + total;
  });
  std::vector<Val> zipped{u, windows};
  for (int k = 0; k < d; ++k)
    zipped.push_back(place_codes(fine, nc, k));
  Fun apply([=](Val t) {
    std::vector<Val> args{t.get(0)};
    for (const Val& x : block_elements(t.get(1), d, kTaps))
      args.push_back(x);
    for (int k = 0; k < d; ++k)
      args.push_back(t.get(2 + k));
    return interpolate.apply(args);
  });
  return program({u, e}, zip_nd(d, zipped) | map_nd(d, apply));
}

} // namespace tessera::multigrid
