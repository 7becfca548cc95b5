// Restriction and interpolation on a rank's box (Level::halo_lo, halo_hi: the distributed
// solver's levels) against the whole grid's: on the block's own points the box's result equals
// the whole grid's (Reference.h's loops), for halos of 1 to 3 points on both sides or one side
// (a global edge on the other), split along either dimension of a 2-D grid, and for fine and
// coarse boxes whose halos differ (the distributed solver's wider coarse halos); through the
// interpreter and as the kernel of the default lowering on the test device.
#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <tuple>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "Reference.h"
#include "codegen/Kernel.h"
#include "compile/Execute.h"
#include "multigrid/Operators.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"

using namespace tessera;
using namespace tessera::multigrid;
namespace mg = tessera::testing::mg;

namespace {

// A 2-D grid's rows or columns [lo, hi) along dimension `along`.
struct Slab {
  int along;
  int64_t lo, hi;
};

// The extents of a slab of a grid of extents `of`.
std::vector<int64_t> extents(const Slab& s, std::vector<int64_t> of) {
  of[s.along] = s.hi - s.lo;
  return of;
}

// The slab of a row-major grid of extents `of`, row-major.
mg::Grid cut(const mg::Grid& g, const std::vector<int64_t>& of, const Slab& s) {
  const auto e = extents(s, of);
  mg::Grid out;
  for (int64_t i = 0; i < e[0]; ++i)
    for (int64_t j = 0; j < e[1]; ++j)
      out.push_back(g[(i + (s.along == 0 ? s.lo : 0)) * of[1] + j + (s.along == 1 ? s.lo : 0)]);
  return out;
}

// The box's level: global side n (the mesh width), the slab `block` extended by the halos.
Level box_level(int64_t n, const Slab& block, int64_t lo, int64_t hi) {
  Level level{2, n, ScalarKind::F64, Centring::Cell};
  level.box = extents(Slab{block.along, block.lo - lo, block.hi + hi}, {n, n});
  level.halo_lo = {0, 0};
  level.halo_hi = {0, 0};
  level.halo_lo[block.along] = lo;
  level.halo_hi[block.along] = hi;
  return level;
}

// The grids the tests cut boxes from: 24^2 fine cells over 12^2 coarse ones.
constexpr int64_t fine_n = 24, coarse_n = 12;

// A rank's fine block of 8 rows or columns at `offset` along `along` and the coarse block of 4
// under it, with the fine box's halos (flo, fhi) and the coarse box's (clo, chi): the blocks, the
// slabs the boxes' inputs are cut from, and the boxes' levels.
struct Blocks {
  Slab fine_block, coarse_block, fine_box, coarse_box;
  Level fine, coarse;
};

Blocks blocks_at(int along, int64_t offset, int64_t flo, int64_t fhi, int64_t clo, int64_t chi) {
  Blocks b{{along, offset, offset + 8},
           {along, offset / 2, offset / 2 + 4},
           {along, offset - flo, offset + 8 + fhi},
           {along, offset / 2 - clo, offset / 2 + 4 + chi},
           {},
           {}};
  b.fine = box_level(fine_n, b.fine_block, flo, fhi);
  b.coarse = box_level(coarse_n, b.coarse_block, clo, chi);
  return b;
}

// The program's result on the box (interpreter and kernel) restricted to the block's own
// points, against the whole grid's result there.
void check_block(const Expr& program, const std::vector<Data>& inputs, const Level& box,
                 const Slab& block, int64_t lo, const mg::Grid& whole) {
  if (auto* collected = testing::collected_kernels()) {
    collected->push_back(codegen::generate_kernel(rewrite::lower_default(program)));
    return;
  }
  const mg::Grid expected = cut(whole, {box.n, box.n}, block);
  const Slab own{block.along, lo, lo + block.hi - block.lo};
  auto own_points = [&](const std::vector<double>& out) {
    REQUIRE(static_cast<int64_t>(out.size()) == box.box[0] * box.box[1]);
    return cut(out, box.box, own);
  };
  auto close = [&](const std::vector<double>& got) {
    REQUIRE(got.size() == expected.size());
    double diff = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      diff = std::max(diff, std::abs(got[i] - expected[i]));
    return diff;
  };
  CHECK(close(own_points(evaluate(program, inputs).flatten())) <= 1e-12);
  codegen::Kernel kernel = codegen::generate_kernel(rewrite::lower_default(program));
  auto run = explore::execute(testing::multigrid_session(), kernel, inputs);
  CHECK(close(own_points(run.output.flatten())) <= 1e-12);
}

} // namespace

namespace {

void check_box_transfers(std::initializer_list<int64_t> halos) {
  const mg::Grid r = testing::random_values(fine_n * fine_n, 41),
                 u = testing::random_values(fine_n * fine_n, 42),
                 e = testing::random_values(coarse_n * coarse_n, 43),
                 f = testing::random_values(fine_n * fine_n, 44);
  for (int along : {0, 1})
    for (int64_t h : halos)
      // An inner block (halos on both sides), the first and the last (a global edge).
      for (auto [offset, lo, hi] :
           {std::tuple<int64_t, int64_t, int64_t>{8, h, h}, {0, 0, h}, {16, h, 0}}) {
        CAPTURE(along);
        CAPTURE(h);
        CAPTURE(offset);
        const auto [fine_block, coarse_block, fine_box, coarse_box, fine, coarse] =
            blocks_at(along, offset, lo, hi, lo, hi);
        const Data r_box =
            Data::from_flat(ScalarKind::F64, fine.box, cut(r, {fine_n, fine_n}, fine_box));
        check_block(restrict_average(fine), {r_box}, coarse, coarse_block, lo,
                    mg::restrict_average(r, {2, fine_n}));
        const Data u_box =
            Data::from_flat(ScalarKind::F64, fine.box, cut(u, {fine_n, fine_n}, fine_box));
        // The residual fused with the restriction, written to the coarse box (the distributed
        // cycle's kernel), against the whole grid's residual then average.
        check_block(
            residual_restricted(fine, coarse, Boundary::mirror()),
            {u_box, Data::from_flat(ScalarKind::F64, fine.box, cut(f, {fine_n, fine_n}, fine_box))},
            coarse, coarse_block, lo,
            mg::restrict_average(mg::residual(u, f, {2, fine_n}, fine.h(), "mirror"), {2, fine_n}));
        const std::vector<Data> in{
            u_box,
            Data::from_flat(ScalarKind::F64, coarse.box, cut(e, {coarse_n, coarse_n}, coarse_box))};
        check_block(prolong_add(coarse, Interpolation::Constant, Boundary::mirror()), in, fine,
                    fine_block, lo, mg::prolong_add(u, e, {2, coarse_n}, "constant", "mirror"));
        for (auto [bc, name] : {std::pair{Boundary::mirror(), "mirror"},
                                std::pair{Boundary::antisymmetric(), "antisymmetric"}}) {
          CAPTURE(name);
          check_block(prolong_add(coarse, Interpolation::Linear, bc), in, fine, fine_block, lo,
                      mg::prolong_add(u, e, {2, coarse_n}, "linear", name));
          check_block(prolong_add(coarse, Interpolation::Quadratic, bc), in, fine, fine_block, lo,
                      mg::prolong_add(u, e, {2, coarse_n}, "quadratic", name));
        }
      }
}

} // namespace

TEST_CASE("multigrid: restriction and interpolation on a box with halos equal the whole grid's") {
  testing::with_kernels_built_together([] { check_box_transfers({1, 2}); });
}

// The extended tier (CMakeLists.txt): a halo of 3 (odd, as 1 is).
TEST_CASE("multigrid: restriction and interpolation on a box with a halo of 3" *
          doctest::test_suite("extended")) {
  testing::with_kernels_built_together([] { check_box_transfers({3}); });
}

// The fine box with halo hf and the coarse box with hc: restriction pads (or cuts) the fine box by
// 2 hc - hf on each side, interpolation cuts (or pads, where hf > 2 hc) the refined coarse box.
TEST_CASE("multigrid: restriction and interpolation between boxes of different halos") {
  const mg::Grid r = testing::random_values(fine_n * fine_n, 51),
                 u = testing::random_values(fine_n * fine_n, 52),
                 e = testing::random_values(coarse_n * coarse_n, 53);
  const int along = 0;
  testing::with_kernels_built_together([&] {
    for (auto [hf, hc] : {std::pair<int64_t, int64_t>{1, 4}, {1, 2}, {3, 1}, {2, 3}})
      for (auto [offset, inner_lo, inner_hi] :
           {std::tuple<int64_t, bool, bool>{8, true, true}, {16, true, false}}) {
        CAPTURE(hf);
        CAPTURE(hc);
        CAPTURE(offset);
        const int64_t flo = inner_lo ? hf : 0, fhi = inner_hi ? hf : 0;
        const int64_t clo = inner_lo ? hc : 0, chi = inner_hi ? hc : 0;
        const auto [fine_block, coarse_block, fine_box, coarse_box, fine, coarse] =
            blocks_at(along, offset, flo, fhi, clo, chi);
        const Data r_box =
            Data::from_flat(ScalarKind::F64, fine.box, cut(r, {fine_n, fine_n}, fine_box));
        check_block(restrict_average(fine, coarse), {r_box}, coarse, coarse_block, clo,
                    mg::restrict_average(r, {2, fine_n}));
        const std::vector<Data> in{
            Data::from_flat(ScalarKind::F64, fine.box, cut(u, {fine_n, fine_n}, fine_box)),
            Data::from_flat(ScalarKind::F64, coarse.box, cut(e, {coarse_n, coarse_n}, coarse_box))};
        check_block(prolong_add(coarse, fine, Interpolation::Linear, Boundary::mirror()), in, fine,
                    fine_block, flo, mg::prolong_add(u, e, {2, coarse_n}, "linear", "mirror"));
        check_block(prolong_add(coarse, fine, Interpolation::Quadratic, Boundary::mirror()), in,
                    fine, fine_block, flo,
                    mg::prolong_add(u, e, {2, coarse_n}, "quadratic", "mirror"));
      }
  });
}
