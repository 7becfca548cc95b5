// One comparison of an output with its reference (compile/Agreement.h) for `tessera run`, the
// explorer and run_variant's users (issue 33: run reported MISMATCH at 4.9e-5, which the
// explorer's 1e-4 accepts).
#include <doctest/doctest.h>

#include <cmath>

#include "explore/Explorer.h"
#include "explore/Report.h"
#include "tessera/tessera.h"

using namespace tessera;

TEST_CASE("agreement: a difference between 1e-5 and 1e-4 is accepted everywhere") {
  std::vector<double> reference{2.0, -0.5, 0.25, 100.0};
  std::vector<double> close = reference, far = reference;
  close[3] *= 1 + 4.9e-5; // relative 4.9e-5: what `tessera run` once called a MISMATCH
  far[3] *= 1 + 1.1e-4;
  double d = max_relative_difference(close, reference);
  CHECK(d == doctest::Approx(4.9e-5).epsilon(1e-6));
  CHECK(within_tolerance(d));
  CHECK_FALSE(within_tolerance(max_relative_difference(far, reference)));
  // The f32 buffers of run_variant are compared by the same function.
  std::vector<float> close_f(close.begin(), close.end());
  CHECK(within_tolerance(max_relative_difference(close_f, reference)));
  CHECK_FALSE(within_tolerance(NAN));
  close[0] = NAN;
  CHECK(std::isinf(max_relative_difference(close, reference)));
  CHECK(std::isinf(max_relative_difference(std::vector<double>{1.0}, reference)));
  // The explorer and its report use the one tolerance by default.
  CHECK(kTolerance == 1e-4);
  CHECK(explore::ExploreOptions{}.tolerance == kTolerance);
  CHECK(explore::Report{}.tolerance == kTolerance);
}
