// CLBlast on the memory plan's buffers: Nrm2, Dot and Axpy against host loops, f32 and f64.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "../Helpers.h"
#include "multigrid/Blas.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

TEST_CASE("multigrid blas: nrm2, dot and axpy on device buffers match host loops") {
  static auto* session = new runtime::Session(runtime::Session::from_env());
  for (auto kind : {ScalarKind::F64, ScalarKind::F32}) {
    CAPTURE(static_cast<int>(kind));
    const std::size_t n = 1000;
    auto x = testing::random_values(n, 1), y = testing::random_values(n, 2);
    DeviceMemory memory(*session);
    BufferId bx = memory.allocate("x", kind, n), by = memory.allocate("y", kind, n);
    auto upload = [&](BufferId id, const std::vector<double>& v) {
      if (kind == ScalarKind::F64)
        memory.buffer(id).write(v.data(), n * sizeof(double));
      else {
        std::vector<float> f(v.begin(), v.end());
        memory.buffer(id).write(f.data(), n * sizeof(float));
      }
    };
    upload(bx, x);
    upload(by, y);
    Blas blas(memory);
    double norm = 0, dot = 0;
    for (std::size_t i = 0; i < n; ++i) {
      norm += x[i] * x[i];
      dot += x[i] * y[i];
    }
    const double tolerance = kind == ScalarKind::F64 ? 1e-12 : 1e-5;
    CHECK(blas.nrm2(bx) == doctest::Approx(std::sqrt(norm)).epsilon(tolerance));
    // Of a range (a rank's own points within its box): elements 100 to 699.
    double part = 0;
    for (std::size_t i = 100; i < 700; ++i)
      part += x[i] * x[i];
    CHECK(blas.nrm2(bx, 100, 600) == doctest::Approx(std::sqrt(part)).epsilon(tolerance));
    CHECK_THROWS(blas.nrm2(bx, 500, 501)); // past the end
    CHECK(blas.dot(bx, by) == doctest::Approx(dot).epsilon(tolerance * 10));
    blas.axpy(-2.5, bx, by); // y -= 2.5 x
    std::vector<double> out(n);
    if (kind == ScalarKind::F64)
      memory.buffer(by).read(out.data(), n * sizeof(double));
    else {
      std::vector<float> f(n);
      memory.buffer(by).read(f.data(), n * sizeof(float));
      out.assign(f.begin(), f.end());
    }
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i)
      worst = std::max(worst, std::abs(out[i] - (y[i] - 2.5 * x[i])));
    CHECK(worst < 10 * tolerance);
    // Mismatched buffers are refused, not read out of bounds.
    BufferId shorter = memory.allocate("z", kind, n / 2);
    CHECK_THROWS(blas.dot(bx, shorter));
  }
}
