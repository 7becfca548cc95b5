// The Poisson residual and the point smoothers: (2d+1)-point neighbourhoods of u, zipped with f.
#include "core/Error.h"
#include "multigrid/Formula.h"

namespace tessera::multigrid {

using namespace detail;

namespace {

// zip(neighbourhoods of u, f, extras...) mapped by `point`, whose arguments are the centre of
// u, its 2d star neighbours, f, then the extras.
Expr star_operator(const Level& level, Boundary bc, const std::string& name,
                   std::vector<ScalarKind> extra_kinds, const std::vector<Val>& extras,
                   const Body& body, PointOutput output = {}, const Level* coarse = nullptr) {
  const int d = level.dims;
  Val u = grid_input("u", level), f = grid_input("f", level);
  std::vector<ScalarKind> kinds(2 * d + 2, level.kind);
  kinds.insert(kinds.end(), extra_kinds.begin(), extra_kinds.end());
  Fun point = formula(name, kinds, body);
  std::vector<Val> zipped{u | pad_nd(d, 1, 1, adapt(bc, level)) | slide_nd(d, 3, 1), f};
  zipped.insert(zipped.end(), extras.begin(), extras.end());
  Fun apply([=](Val t) {
    Val nbh = t.get(0);
    std::vector<Val> args{at_offset(nbh, std::vector<int>(d, 0), 1)};
    for (const auto& o : star_offsets(d))
      args.push_back(at_offset(nbh, o, 1));
    for (int i = 1; i < static_cast<int>(zipped.size()); ++i)
      args.push_back(t.get(i));
    return point.apply(args);
  });
  return point_program(level, {u, f}, zip_nd(d, zipped), apply, output, coarse);
}

// 2d u - (sum of the star neighbours), from the formula's parameters.
Sym star_difference(const std::vector<Sym>& v, int d) {
  Sym sum = v[1];
  for (int k = 2; k <= 2 * d; ++k)
    sum = sum + v[k];
  return static_cast<double>(2 * d) * v[0] - sum;
}

// f - A u at each point, written as `output` (the average to the box `coarse` where given: a
// rank's).
Expr residual_program(const Level& level, Boundary bc, PointOutput output, const Level* coarse) {
  const int d = level.dims;
  const double h2inv = 1.0 / (level.h() * level.h());
  return star_operator(
      level, bc, "residual", {}, {},
      [=](const std::vector<Sym>& v) { return v[2 * d + 1] - h2inv * star_difference(v, d); },
      output, coarse);
}

} // namespace

Expr residual(const Level& level, Boundary bc) {
  return residual_program(level, bc, {}, nullptr);
}

Expr residual_restricted(const Level& fine, Boundary bc) {
  return residual_program(fine, bc, {PointOutput::Average}, nullptr);
}

Expr residual_restricted(const Level& fine, const Level& coarse, Boundary bc) {
  // (a box and a whole grid together: an internal error, check_boxes)
  return residual_program(fine, bc, {PointOutput::Average}, &coarse);
}

int64_t square_sum_run(const Level& level, SquareSumAxis axis) {
  if (level.dims < 2)
    return 0;
  const auto sizes = level.sizes();
  if (axis == SquareSumAxis::Innermost)
    return sizes.back();
  // Short runs: an H200 summed 512^3 in runs of 8 or 16 in 0.64 ms, of 32 in 1.07 and whole
  // columns in 1.17 (too few work-items, each a long chain of loads).
  for (int64_t run = 8; run <= 64; ++run)
    if (sizes.front() % run == 0)
      return run;
  return 0;
}

Expr residual_square_sums(const Level& level, Boundary bc, SquareSumAxis axis) {
  return residual_program(level, bc, {PointOutput::SquareSums, axis}, nullptr);
}

Expr jacobi(const Level& level, Boundary bc, double omega) {
  if (!(omega > 0 && omega < 2))
    user_error(cat("weighted Jacobi needs 0 < omega < 2, got ", omega));
  const int d = level.dims;
  const double h2 = level.h() * level.h(), scale = omega / (2 * d);
  return star_operator(level, bc, "jacobi", {}, {}, [=](const std::vector<Sym>& v) {
    return v[0] + scale * (h2 * v[2 * d + 1] - star_difference(v, d));
  });
}

Expr gsrb_half_sweep(const Level& level, Boundary bc, int colour) {
  if (colour != 0 && colour != 1)
    user_error(cat("a red-black colour is 0 (red) or 1 (black), got ", colour));
  const int d = level.dims;
  const double h2 = level.h() * level.h();
  Val mask = colour_grid(level, colour);
  return star_operator(level, bc, "gsrb", {ScalarKind::I32}, {mask},
                       [=](const std::vector<Sym>& v) {
                         Sym sum = v[1];
                         for (int k = 2; k <= 2 * d; ++k)
                           sum = sum + v[k];
                         Sym updated = (h2 * v[2 * d + 1] + sum) / static_cast<double>(2 * d);
                         return select(v[2 * d + 2] != 0, updated, v[0]);
                       });
}

} // namespace tessera::multigrid
