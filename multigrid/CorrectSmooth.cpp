// The coarse-grid correction and the first half-sweep after it as one program: v = u + P e
// (linear interpolation, cell-centred) is never stored; each point interpolates e at itself and
// at its 2d neighbours and smooths from those values. Two separate kernels read and write the
// fine grid twice more (the correction writes v, the half-sweep reads it back).
//
// Per dimension a fine index i = 2c + s (s its parity) and its neighbours i - 1, i + 1 read only
// the coarse values c - 1, c, c + 1, with these weights (the rows of kWeights):
//   s = 0:  i - 1: 3/4 1/4  0    i: 1/4 3/4  0     i + 1:  0  3/4 1/4
//   s = 1:  i - 1: 1/4 3/4  0    i:  0  3/4 1/4    i + 1:  0  1/4 3/4
// so every value the point needs comes from its coarse cell's 3^d neighbourhood, contracted one
// dimension at a time (the partial sums shared between the 2d + 1 points).
//
// The ghosts need no case of their own: a neighbour outside the grid takes u's padded value and
// the interpolation of e's padded neighbourhood there, which equals the boundary applied to v for
// the antisymmetric, mirror, clamp and wrap boundaries (the interpolation of a reflected or
// periodic coarse grid is the reflected or periodic fine one). A constant boundary is not
// offered: its ghost is the constant, not u + P e.
#include <map>
#include <optional>

#include "core/Error.h"
#include "multigrid/BoxNesting.h"
#include "multigrid/Formula.h"

namespace tessera::multigrid {

using namespace detail;

namespace {

// [parity][offset + 1][coarse position]: the weights of e[c - 1], e[c], e[c + 1].
constexpr double kWeights[2][3][3] = {{{0.75, 0.25, 0.0}, {0.25, 0.75, 0.0}, {0.0, 0.75, 0.25}},
                                      {{0.25, 0.75, 0.0}, {0.0, 0.75, 0.25}, {0.0, 0.25, 0.75}}};

// P e at offsets from the fine point (each -1, 0 or 1 per dimension), from the 3^d coarse values
// around its parent (row-major) and the parity bits of its index.
class Interpolant {
public:
  Interpolant(std::vector<Sym> coarse, std::vector<Sym> parity, ScalarKind kind)
      : coarse_(std::move(coarse)), parity_(std::move(parity)), kind_(kind) {}

  Sym at(const std::vector<int>& offset) { return partial(0, 0, offset); }

private:
  // The sum over dimensions j.. of the weighted coarse values whose positions along the
  // dimensions before j are fixed (`row`: their row-major index so far).
  Sym partial(std::size_t j, int row, const std::vector<int>& offset) {
    if (j == parity_.size())
      return coarse_[static_cast<std::size_t>(row)];
    std::vector<int> key{static_cast<int>(j), row};
    key.insert(key.end(), offset.begin() + static_cast<std::ptrdiff_t>(j), offset.end());
    if (auto found = memo_.find(key); found != memo_.end())
      return found->second;
    std::optional<Sym> sum;
    for (int p = 0; p < 3; ++p) {
      const double w0 = kWeights[0][offset[j] + 1][p], w1 = kWeights[1][offset[j] + 1][p];
      if (w0 == 0 && w1 == 0)
        continue;
      Sym weight = w0 == w1 ? Sym(w0) : select(parity_[j] == 0, Sym(w0), Sym(w1));
      Sym term = cast(kind_, weight) * partial(j + 1, row * 3 + p, offset);
      sum = sum ? *sum + term : term;
    }
    memo_.emplace(key, *sum);
    return *sum;
  }

  std::vector<Sym> coarse_, parity_;
  ScalarKind kind_;
  std::map<std::vector<int>, Sym> memo_;
};

} // namespace

std::string prolong_add_half_sweep_why_not(const Level& coarse, Boundary bc) {
  if (coarse.centring != Centring::Cell)
    return "the correction fused with a half-sweep interpolates linearly on cell-centred grids";
  if (!coarse.box.empty())
    return "the correction fused with a half-sweep runs on whole grids, not on a rank's box";
  switch (bc.kind) {
  case Boundary::Antisymmetric:
  case Boundary::Mirror:
  case Boundary::Clamp:
  case Boundary::Wrap:
    return "";
  case Boundary::Constant:
  case Boundary::Fixed:
    break;
  }
  return "the correction fused with a half-sweep needs an antisymmetric, mirror, clamp or wrap "
         "boundary (a ghost of the corrected grid is then the corrected grid's value)";
}

Expr prolong_add_half_sweep(const Level& coarse, Boundary bc, int colour) {
  if (colour != 0 && colour != 1)
    user_error(cat("a red-black colour is 0 (red) or 1 (black), got ", colour));
  if (std::string why = prolong_add_half_sweep_why_not(coarse, bc); !why.empty())
    user_error(why);
  const Level fine = finer_box(coarse);
  const int d = fine.dims;
  const double h2 = fine.h() * fine.h();
  int window = 1;
  for (int k = 0; k < d; ++k)
    window *= 3;
  const auto star = star_offsets(d);
  // u at the point and its 2d neighbours, e's 3^d neighbourhood, f, the parity code.
  const int first_e = 1 + 2 * d, at_f = first_e + window, at_code = at_f + 1;
  std::vector<ScalarKind> kinds(static_cast<std::size_t>(at_f + 1), fine.kind);
  kinds.push_back(ScalarKind::I32);
  Fun point = formula("correctHalfSweep", kinds, [=](const std::vector<Sym>& v) {
    std::vector<Sym> parity{parity_bit(v[at_code], 0, d)};
    Sym colour_sum = parity[0]; // the index sum's parity: the point's colour
    for (int k = 1; k < d; ++k) {
      parity.push_back(parity_bit(v[at_code], k, d));
      colour_sum = colour_sum + parity.back();
    }
    Interpolant correction(std::vector<Sym>(v.begin() + first_e, v.begin() + at_f), parity,
                           fine.kind);
    Sym corrected = v[0] + correction.at(std::vector<int>(d, 0));
    Sym sum = v[1] + correction.at(star[0]);
    for (int q = 1; q < 2 * d; ++q)
      sum = sum + (v[1 + q] + correction.at(star[q]));
    Sym updated = (h2 * v[at_f] + sum) / static_cast<double>(2 * d);
    return select(colour_sum % 2 == colour, updated, corrected);
  });
  Val u = grid_input("u", fine), e = grid_input("e", coarse), f = grid_input("f", fine);
  std::vector<Val> zipped{u | pad_nd(d, 1, 1, adapt(bc, fine)) | slide_nd(d, 3, 1),
                          e | pad_nd(d, 1, 1, adapt(bc, coarse)) | slide_nd(d, 3, 1) |
                              duplicate_nd(d),
                          f, parity_grid(fine)};
  Fun apply([=](Val t) {
    Val nbh = t.get(0);
    std::vector<Val> args{at_offset(nbh, std::vector<int>(d, 0), 1)};
    for (const auto& o : star)
      args.push_back(at_offset(nbh, o, 1));
    for (const Val& x : block_elements(t.get(1), d, 3))
      args.push_back(x);
    args.push_back(t.get(2));
    args.push_back(t.get(3));
    return point.apply(args);
  });
  return program({u, e, f}, zip_nd(d, zipped) | map_nd(d, apply));
}

} // namespace tessera::multigrid
