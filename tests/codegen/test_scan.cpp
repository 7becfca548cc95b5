// The Scan primitive: its type rule, interpreter semantics, printing, JSON, and kernels (one
// work-item per line, a sequential loop) against the interpreter.
#include <doctest/doctest.h>

#include "core/Json.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using tessera::testing::check_kernel;
using tessera::testing::random_f32;

namespace {

auto running = user_fun("running", {"state", "x"}, [](auto s, auto x) { return 0.5 * s + x; });

} // namespace

TEST_CASE("Scan and ScanBackward: the recurrence in both directions, type rule, print, JSON") {
  Val x = input("x", Type::array(f32(), 5));
  Expr forward = program({x}, x | scan(running, 1.0f));
  Expr backward = program({x}, x | scan_backward(running, 1.0f));
  std::vector<double> v{0.5, -1, 2, 0.25, 3};
  Data in = testing::f32_array(v);
  std::vector<double> f = evaluate(forward, {in}).flatten(), r = evaluate(backward, {in}).flatten();
  double s = 1, t = 1;
  for (std::size_t i = 0; i < v.size(); ++i) {
    s = static_cast<float>(static_cast<float>(0.5 * s) + v[i]);
    CHECK(f[i] == doctest::Approx(s));
    std::size_t j = v.size() - 1 - i;
    t = static_cast<float>(static_cast<float>(0.5 * t) + v[j]);
    CHECK(r[j] == doctest::Approx(t));
  }
  CHECK(print(forward).find("Scan(running, 1") != std::string::npos);
  CHECK(print(backward).find("ScanBackward(running, 1") != std::string::npos);
  for (const Expr& p : {forward, backward}) {
    Expr back = load_expr(save_expr(p));
    CHECK(structurally_equal(back, p));
  }
  CHECK_FALSE(structurally_equal(forward, backward));
  // A function whose result is not the state's type is refused with both types named.
  auto to_int = user_fun("toInt", [](auto s, auto x) { return cast(ScalarKind::I32, s + x); });
  CHECK_THROWS_WITH_AS(x | scan(to_int, 0.0f), doctest::Contains("the type of the initial state"),
                       Error);
}

TEST_CASE("a Scan of each line runs as one work-item per line, in both directions") {
  const int64_t m = 6, n = 37;
  Val x = input("x", array_of(f32(), {m, n}));
  for (bool backward : {false, true}) {
    CAPTURE(backward);
    Fun line_scan = backward ? scan_backward(running, 0.25f) : scan(running, 0.25f);
    Expr p = program({x}, x | map(line_scan));
    auto kernel = check_kernel(rewrite::lower_default(p), {random_f32({m, n}, 7)});
    CHECK(kernel.source.find("state") != std::string::npos);
  }
  // Lines along the outer dimension: the scan over the transposed grid, written back transposed.
  Expr columns = program({x}, x | transpose() | map(scan(running, 0.0f)) | transpose());
  check_kernel(rewrite::lower_default(columns), {random_f32({m, n}, 8)});
}
