// Grid transfers: restriction to the coarser level, interpolation of a coarse correction added
// to the fine grid, and the point-wise updates (add, precision conversion).
#include <cmath>
#include <optional>

#include "core/Error.h"
#include "multigrid/BoxNesting.h"
#include "multigrid/Formula.h"

namespace tessera::multigrid {

using namespace detail;

namespace {

// The fine box within the refinement of the coarse box: the refinement starts 2 hc below the
// fine block, the fine box hf below it.
Val to_fine_box(Val refined, const Level& coarse, const Level& fine) {
  for (int k = 0; k < coarse.dims; ++k) {
    const auto [lo, hi] = refined_excess(coarse, fine, k);
    refined = trim(refined, k, lo, hi);
  }
  return refined;
}

// The same box one level finer or coarser, with the same halos (a level's own box on one rank).
Level finer_box(const Level& coarse) {
  Level fine = coarse;
  fine.n = coarse.centring == Centring::Cell ? 2 * coarse.n : 2 * coarse.n + 1;
  for (std::size_t k = 0; k < coarse.box.size(); ++k)
    fine.box[k] = 2 * coarse.box[k] - halo_below(coarse, static_cast<int>(k)) -
                  halo_above(coarse, static_cast<int>(k));
  return fine;
}

Level coarser_box(const Level& fine) {
  Level coarse = fine.coarser();
  coarse.halo_lo = fine.halo_lo;
  coarse.halo_hi = fine.halo_hi;
  coarse.box = fine.box;
  for (std::size_t k = 0; k < fine.box.size(); ++k) {
    const int64_t lo = halo_below(fine, static_cast<int>(k)),
                  hi = halo_above(fine, static_cast<int>(k));
    coarse.box[k] = (fine.box[k] - lo - hi) / 2 + lo + hi;
  }
  return coarse;
}

// Per dimension, the weights of the coarse values at offsets -1, 0, 1 for a fine point of
// parity p (0: the coarse cell's low child, at -1/4 of a coarse cell; 1: the high child).
constexpr double kQuadraticWeights[2][3] = {{5.0 / 32, 30.0 / 32, -3.0 / 32},
                                            {-3.0 / 32, 30.0 / 32, 5.0 / 32}};

// The weight of the 3^d neighbourhood's element c for a fine point of parity code `code`: per
// dimension k the weight of its offset in {0, 1, 2} (row-major).
Sym quadratic_weight(int c, const Sym& code, int d) {
  std::optional<Sym> w;
  for (int k = 0; k < d; ++k) {
    int o = c;
    for (int j = d - 1; j > k; --j)
      o /= 3;
    o %= 3;
    Sym wk = select(parity_bit(code, k, d) == 0, Sym(kQuadraticWeights[0][o]),
                    Sym(kQuadraticWeights[1][o]));
    w = w ? *w * wk : wk;
  }
  return *w;
}

// prolong_quadratic's values on a whole grid, computed in pairs along x: the two fine points of a
// coarse cell's row read the same 3^d coarse values, so a work-item computing both loads each
// once. On an H200 the loads, not the bytes, bounded the form of one point a work-item: full
// multigrid's F(3,3) at 512^3 spent 2.89 ms interpolating, 2.50 in pairs (BENCHMARKS.md).
Expr prolong_quadratic_pairs(const Level& coarse, const Level& fine, Boundary bc, bool add) {
  const int d = coarse.dims;
  Val u = grid_input("u", fine), e = grid_input("e", coarse);
  // Per fine row (outer dimensions) the coarse windows along x; the parity of the outer indices
  // (x's bit 0: the first of each pair).
  Val windows = e | pad_nd(d, 1, 1, adapt(bc, coarse)) | slide_nd(d, 3, 1);
  Fun first_of_pair = split(2) >> map(at(0));
  Val outer_parity = parity_grid(fine);
  Val u_pairs = u;
  if (d > 1) {
    windows = windows | duplicate_nd(d - 1);
    outer_parity = outer_parity | map_nd(d - 1, first_of_pair);
    u_pairs = u | map_nd(d - 1, split(2));
  } else {
    outer_parity = outer_parity | first_of_pair;
    u_pairs = u | split(2);
  }
  int count = 1;
  for (int k = 0; k < d; ++k)
    count *= 3;
  const int first = add ? 2 : 0; // the coarse values' first argument, after the pair of u
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(first + count), fine.kind);
  kinds.push_back(ScalarKind::I32); // the outer parity code
  kinds.push_back(ScalarKind::I32); // the point's place in its pair
  Fun interpolate = formula("prolongQuadraticPair", kinds, [=](const std::vector<Sym>& v) {
    const Sym& place = v[first + count + 1];
    const Sym code = v[first + count] + place;
    std::optional<Sym> sum;
    if (add)
      sum = select(place == 0, v[0], v[1]);
    for (int c = 0; c < count; ++c) {
      Sym term = cast(fine.kind, quadratic_weight(c, code, d)) * v[first + c];
      sum = sum ? *sum + term : term;
    }
    return *sum;
  });
  Fun pair([=](Val t) {
    const Val window = t.get(add ? 1 : 0), parity = t.get(add ? 2 : 1);
    return generate(2, Fun([=](Val place) {
                      std::vector<Val> args;
                      if (add) {
                        args.push_back(t.get(0).at(0));
                        args.push_back(t.get(0).at(1));
                      }
                      for (const Val& x : block_elements(window, d, 3))
                        args.push_back(x);
                      args.push_back(parity);
                      args.push_back(place);
                      return interpolate.apply(args);
                    }));
  });
  std::vector<Val> zipped{windows, outer_parity};
  if (add)
    zipped.insert(zipped.begin(), u_pairs);
  Val rows = zip_nd(d, zipped) | map_nd(d, pair);
  Val result = d > 1 ? rows | map_nd(d - 1, join()) : rows | join();
  return add ? program({u, e}, result) : program({e}, result);
}

// u + the tensor-product quadratic interpolation of e (without `add`: the interpolation alone),
// in pairs on a whole grid (above), else here:
// every fine point reads the 3^d coarse neighbourhood of its coarse cell I/2 (windows duplicated
// along each dimension), and the parity of its index selects the weights.
Expr prolong_quadratic(const Level& coarse, const Level& fine, Boundary bc, bool add) {
  if (fine.box.empty())
    return prolong_quadratic_pairs(coarse, fine, bc, add);
  const int d = coarse.dims;
  Val u = grid_input("u", fine), e = grid_input("e", coarse);
  Val windows = to_fine_box(
      e | pad_nd(d, 1, 1, adapt(bc, coarse)) | slide_nd(d, 3, 1) | duplicate_nd(d), coarse, fine);
  int count = 1;
  for (int k = 0; k < d; ++k)
    count *= 3;
  const int first = add ? 1 : 0; // the coarse values' first argument, after u
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(first + count), fine.kind);
  kinds.push_back(ScalarKind::I32);
  Fun interpolate = formula("prolongQuadratic", kinds, [=](const std::vector<Sym>& v) {
    const Sym& code = v[first + count];
    std::optional<Sym> sum;
    if (add)
      sum = v[0];
    for (int c = 0; c < count; ++c) {
      Sym term = cast(fine.kind, quadratic_weight(c, code, d)) * v[first + c];
      sum = sum ? *sum + term : term;
    }
    return *sum;
  });
  Fun apply([=](Val t) {
    std::vector<Val> args;
    if (add)
      args.push_back(t.get(0));
    for (const Val& x : block_elements(t.get(first), d, 3))
      args.push_back(x);
    args.push_back(t.get(first + 1));
    return interpolate.apply(args);
  });
  if (!add)
    return program({e}, zip_nd(d, {windows, parity_grid(fine)}) | map_nd(d, apply));
  return program({u, e}, zip_nd(d, {u, windows, parity_grid(fine)}) | map_nd(d, apply));
}

} // namespace

Expr restrict_average(const Level& fine) {
  return restrict_average(fine, coarser_box(fine));
}

Expr restrict_average(const Level& fine, const Level& coarse) {
  const int d = fine.dims;
  fine.coarser(); // checks that the grid coarsens
  Val r = grid_input("r", fine);
  Val children = children_of_coarse_box(r, coarse, fine);
  Fun mean = average_formula(1 << d, fine.kind);
  Fun apply([=](Val block) { return mean.apply(block_elements(block, d, 2)); });
  return program({r}, children | slide_nd(d, 2, 2) | map_nd(d, apply));
}

Expr restrict_full_weighting(const Level& fine) {
  if (fine.centring != Centring::Vertex)
    user_error("full-weighting restriction is for vertex-centred grids (n = 2^k - 1); use the "
               "2^d average on cell-centred grids");
  fine.coarser(); // checks that the grid coarsens
  const int d = fine.dims;
  int count = 1;
  for (int k = 0; k < d; ++k)
    count *= 3;
  Val r = grid_input("r", fine);
  Fun weighted = formula("fullWeighting", std::vector<ScalarKind>(count, fine.kind),
                         [=](const std::vector<Sym>& v) {
                           auto term = [&](int code) {
                             double w = 1;
                             for (int k = 0, rest = code; k < d; ++k, rest /= 3)
                               w *= rest % 3 == 1 ? 0.5 : 0.25;
                             return w * v[code];
                           };
                           Sym sum = term(0);
                           for (int code = 1; code < count; ++code)
                             sum = sum + term(code);
                           return sum;
                         });
  Fun apply([=](Val block) { return weighted.apply(block_elements(block, d, 3)); });
  return program({r}, r | slide_nd(d, 3, 2) | map_nd(d, apply));
}

Expr prolong_add(const Level& coarse, Interpolation kind, Boundary bc) {
  return prolong_add(coarse, finer_box(coarse), kind, bc);
}

Expr prolong_add(const Level& coarse, const Level& fine, Interpolation kind, Boundary bc) {
  const int d = coarse.dims;
  if (!coarse.box.empty() && coarse.centring != Centring::Cell)
    user_error("interpolation on a box of a distributed grid needs a cell-centred grid");
  if (fine.n != (coarse.centring == Centring::Cell ? 2 * coarse.n : 2 * coarse.n + 1))
    internal_error(cat("interpolation from ", coarse.describe(), " to ", fine.describe(),
                       ", which is not the next finer grid"));
  check_boxes(coarse, fine);
  Val u = grid_input("u", fine), e = grid_input("e", coarse);

  if (kind == Interpolation::Constant) {
    if (coarse.centring != Centring::Cell)
      user_error("piecewise-constant interpolation is for cell-centred grids");
    Fun plus = formula("addCorrection", {fine.kind, fine.kind},
                       [](const std::vector<Sym>& v) { return v[0] + v[1]; });
    Fun apply([=](Val t) { return plus(t.get(0), t.get(1)); });
    return program({u, e}, zip_nd(d, {u, to_fine_box(e | duplicate_nd(d), coarse, fine)}) |
                               map_nd(d, apply));
  }

  if (kind == Interpolation::Quadratic) {
    if (coarse.centring != Centring::Cell)
      user_error("quadratic interpolation is for cell-centred grids");
    return prolong_quadratic(coarse, fine, bc, true);
  }

  // Linear: every fine point reads the 2^d window of coarse values around it. Windows W[j] of
  // the padded coarse grid, duplicated along each dimension; fine index I then sees
  //   cell-centred   W[(I+1)/2] = (e[(I-1)/2], e[(I+1)/2])  (drop one on each side),
  //   vertex-centred W[I/2]     = (e[I/2 - 1], e[I/2])      (drop the last),
  // and the parity of I selects the weights of the window's two corners per dimension.
  const bool cell = coarse.centring == Centring::Cell;
  Boundary pad_with = cell ? adapt(bc, coarse) : zero_boundary(coarse);
  Val windows = to_fine_box(e | pad_nd(d, 1, 1, pad_with) | slide_nd(d, 2, 1) | duplicate_nd(d) |
                                (cell ? drop_nd(d, 1, 1) : drop_nd(d, 0, 1)),
                            coarse, fine);
  const int count = 1 << d;
  std::vector<ScalarKind> kinds(count + 1, fine.kind);
  kinds.push_back(ScalarKind::I32);
  Fun interpolate = formula(cell ? "prolongLinear" : "prolongVertex", kinds, [=](const auto& v) {
    const Sym& code = v[count + 1];
    Sym sum = v[0];
    // cell: per dimension the corner on the fine point's side weighs 3/4, the other 1/4;
    // vertex: an even index averages both corners, an odd one takes corner 1.
    auto weight = [&](int c, int k) {
      int corner = (c >> (d - 1 - k)) & 1;
      Sym p = parity_bit(code, k, d);
      return cell ? select(p == corner, Sym(0.25), Sym(0.75))
                  : select(p == 0, Sym(0.5), Sym(corner == 1 ? 1.0 : 0.0));
    };
    for (int c = 0; c < count; ++c) {
      Sym w = weight(c, 0);
      for (int k = 1; k < d; ++k)
        w = w * weight(c, k);
      sum = sum + cast(fine.kind, w) * v[1 + c];
    }
    return sum;
  });
  Fun apply([=](Val t) {
    std::vector<Val> args{t.get(0)};
    for (const Val& x : block_elements(t.get(1), d, 2))
      args.push_back(x);
    args.push_back(t.get(2));
    return interpolate.apply(args);
  });
  return program({u, e}, zip_nd(d, {u, windows, parity_grid(fine)}) | map_nd(d, apply));
}

Expr prolong(const Level& coarse, Interpolation kind, Boundary bc) {
  return prolong(coarse, finer_box(coarse), kind, bc);
}

Expr prolong(const Level& coarse, const Level& fine, Interpolation kind, Boundary bc) {
  if (kind != Interpolation::Quadratic || coarse.centring != Centring::Cell)
    user_error("the interpolation without u + is the quadratic one of cell-centred grids (full "
               "multigrid's start of a level); the others add to u (prolong_add)");
  if (fine.n != 2 * coarse.n)
    internal_error(cat("interpolation from ", coarse.describe(), " to ", fine.describe(),
                       ", which is not the next finer grid"));
  check_boxes(coarse, fine);
  return prolong_quadratic(coarse, fine, bc, false);
}

Expr add(const Level& level) {
  Val u = grid_input("u", level), e = grid_input("e", level);
  Fun plus = formula("add", {level.kind, level.kind},
                     [](const std::vector<Sym>& v) { return v[0] + v[1]; });
  Fun apply([=](Val t) { return plus(t.get(0), t.get(1)); });
  return program({u, e}, zip_nd(level.dims, {u, e}) | map_nd(level.dims, apply));
}

Expr convert(const Level& level, ScalarKind to) {
  Val x = grid_input("x", level);
  Fun to_kind = formula(to == ScalarKind::F32 ? "toFloat" : "toDouble", {level.kind},
                        [to](const std::vector<Sym>& v) { return cast(to, v[0]); });
  return program({x}, x | map_nd(level.dims, to_kind));
}

} // namespace tessera::multigrid
