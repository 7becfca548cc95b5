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

// The same box one level coarser, with the same halos (a level's own box on one rank).
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

// The interpolation program over `inputs`: `body` of the values of each of `grids` (fine-shaped;
// explode turns an element into values) at every fine point; with `pairs`, on a whole grid in
// pairs along x (pairs_along_x), where the two fine points of a coarse cell's row read the same
// coarse values, which a work-item computing both loads once.
Expr interpolation_program(const Level& fine, const std::string& name,
                           const std::vector<Val>& inputs, const std::vector<Val>& grids,
                           const std::vector<Explode>& explode,
                           const std::vector<ScalarKind>& kinds, const Body& body, bool pairs) {
  const int d = fine.dims;
  if (pairs && fine.box.empty() && fine.sizes().back() % 2 == 0)
    return pairs_along_x(inputs, grids, explode, name, kinds, body, d);
  Fun point = formula(name, kinds, body);
  Fun apply([=](Val t) {
    std::vector<Val> args;
    for (std::size_t i = 0; i < explode.size(); ++i)
      for (const Val& x : explode[i](t.get(static_cast<int>(i))))
        args.push_back(x);
    return point.apply(args);
  });
  return point_program(fine, inputs, zip_nd(d, grids), apply, {});
}

Explode one_value() {
  return [](const Val& x) { return std::vector<Val>{x}; };
}

Explode block_of(int dims, int side) {
  return [=](const Val& x) { return block_elements(x, dims, side); };
}

// u + the tensor-product quadratic interpolation of e (without `add`: the interpolation alone):
// every fine point reads the 3^d coarse neighbourhood of its coarse cell I/2 (windows duplicated
// along each dimension), and the parity of its index selects the weights. The interpolation alone
// (full multigrid's start) in pairs on whole grids: on an H200 its 27 loads a point, not its
// bytes, bounded it; the F(3,3)-cycle at 512^3 spent 2.89 ms interpolating, 2.50 in pairs
// (BENCHMARKS.md). u + P e one point a work-item, as the linear form (below) measured faster.
Expr prolong_quadratic(const Level& coarse, const Level& fine, Boundary bc, bool add) {
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
  Body interpolate = [=](const std::vector<Sym>& v) {
    const Sym& code = v[first + count];
    std::optional<Sym> sum;
    if (add)
      sum = v[0];
    for (int c = 0; c < count; ++c) {
      Sym term = cast(fine.kind, quadratic_weight(c, code, d)) * v[first + c];
      sum = sum ? *sum + term : term;
    }
    return *sum;
  };
  if (!add)
    return interpolation_program(fine, "prolongQuadratic", {e}, {windows, parity_grid(fine)},
                                 {block_of(d, 3), one_value()}, kinds, interpolate, true);
  return interpolation_program(fine, "prolongQuadratic", {u, e}, {u, windows, parity_grid(fine)},
                               {one_value(), block_of(d, 3), one_value()}, kinds, interpolate,
                               false);
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
  Body interpolate = [=](const std::vector<Sym>& v) {
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
  };
  // One point a work-item: in pairs (8 loads of e for two points instead of 16, but u read and
  // written two strided elements at a time) an H200's V(2,2) at 512^3 interpolated in 1.18 ms a
  // cycle against 1.00.
  return interpolation_program(
      fine, cell ? "prolongLinear" : "prolongVertex", {u, e}, {u, windows, parity_grid(fine)},
      {one_value(), block_of(d, 2), one_value()}, kinds, interpolate, false);
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
