// Every lowered expression of the thesis (Listings 2.1-2.5, 2.7, 2.8, 2.10, 3.1-3.4, 4.1)
// generates a kernel that builds on PoCL and matches the interpreter on random data, at
// several sizes including sizes that are not powers of two.
#include <doctest/doctest.h>

#include "core/RandomData.h"
#include "stencils/Thesis.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using namespace tessera::stencils;
using tessera::testing::check_kernel;

namespace {

const double kA = 0.8, kB = 1.3, kH2inv = 4.0;

Data interpolation_weights_1d() {
  return Data::from_flat(ScalarKind::F32, {2}, {0.25, 0.75});
}

Data interpolation_weights_3d() {
  std::vector<double> w;
  for (double a : {0.25, 0.75})
    for (double b : {0.25, 0.75})
      for (double c : {0.25, 0.75})
        w.push_back(a * b * c);
  return Data::from_flat(ScalarKind::F32, {2, 2, 2}, w);
}

// A red-black colour mask: 1 where (i + j + k) is even.
Data colour_mask(int64_t n) {
  std::vector<double> m;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k)
        m.push_back((i + j + k) % 2 == 0 ? 1.0 : 0.0);
  return Data::from_flat(ScalarKind::F32, {n, n, n}, m);
}

void check_random(const Expr& p, uint32_t seed, double tolerance = 1e-6) {
  check_kernel(p, random_inputs(p, seed), {}, tolerance);
}

} // namespace

TEST_CASE("Listings 2.1-2.3: restriction in 1, 2 and 3 dimensions") {
  for (int64_t n : {10, 64})
    check_random(restrict_1d(n), 1);
  for (int64_t n : {6, 16})
    check_random(restrict_2d(n), 2);
  for (int64_t n : {6, 8})
    check_random(restrict_3d(n), 3);
}

TEST_CASE("Listings 2.4 and 2.5: prolongation in 1 and 3 dimensions") {
  for (int64_t n : {5, 16}) {
    Expr p = prolong_1d(n);
    check_kernel(p, {random_value(Type::array(f32(), n), 4), interpolation_weights_1d()});
  }
  for (int64_t n : {3, 5}) {
    Expr p = prolong_3d(n);
    check_kernel(p, {random_value(array_of(f32(), {n, n, n}), 5), interpolation_weights_3d()}, {},
                 1e-5);
  }
}

TEST_CASE("Listings 2.7 and 2.8: multiple inputs and the 3-D residual") {
  for (int64_t n : {7, 32})
    check_random(multi_input_1d(n), 6);
  for (int64_t n : {5, 8})
    check_random(residual_3d(n, kA, kB, kH2inv), 7, 1e-5);
}

TEST_CASE("Listing 2.10: the red-black Gauss-Seidel smoother, with a mask and with Generate") {
  for (int64_t n : {5, 6}) {
    Expr p = gsrb_smooth_3d(n, kA, kB, kH2inv);
    auto inputs = random_inputs(p, 8);
    inputs.back() = colour_mask(n);
    check_kernel(p, inputs, {}, 1e-5);
    check_random(gsrb_smooth_3d_generated(n, kA, kB, kH2inv, 1), 9, 1e-5);
  }
}

TEST_CASE("Listings 3.1-3.4 and 4.1: tiling, overlapped and temporal tiling (local memory)") {
  check_random(tiled_restrict_1d(24, 6), 10);
  check_random(tiled_restrict_1d(40, 8), 11);
  check_random(overlapped_tiling_1d(24, 6), 12);
  check_random(overlapped_tiling_1d(30, 10), 13);
  for (int64_t n : {13, 32}) {
    check_random(temporal_tiling_1d(n), 14, 1e-5);
    check_random(temporal_tiling_1d_optimized(n), 15, 1e-5);
  }
  check_random(spatial_tiling_2d(8, 4), 16, 1e-5);
  check_random(spatial_tiling_2d(12, 4), 17, 1e-5);
}
