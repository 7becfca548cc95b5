// The explorer and the workload with programs of kernels (codegen::generate_program): an
// iterated stencil's default lowering is one launch per step, and its points are checked against
// the reference interpreter and timed like single kernels.
#include <doctest/doctest.h>

#include "RuntimeFixture.h"
#include "Smoothed.h"
#include "compile/Workload.h"
#include "dsl/Dsl.h"
#include "explore/Explorer.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"

using namespace tessera;
using namespace tessera::explore;
using tessera::testing::smoothed;
using tessera::testing::test_session;

TEST_CASE("workload: a program of kernels runs its launches in order and matches the interpreter") {
  Expr p = smoothed(1000, 5);
  Workload workload(test_session(), p);
  auto kernels = codegen::generate_program(rewrite::lower_default(p));
  REQUIRE(kernels.launches.size() == 5);
  auto built = build_program(test_session(), kernels);
  std::vector<double> expected = evaluate(p, workload.input_data()).flatten();
  REQUIRE(has_nonzero(expected));
  CHECK(workload.run_and_compare(kernels, built, expected) <= 1e-6);
  auto timing = workload.time(kernels, built, {0, 2});
  CHECK(timing.samples_ms.size() == 2);
  CHECK(workload.output_cells(kernels) == 1000);
}

TEST_CASE("explorer: the default lowering of an iterated stencil is a checked, timed point") {
  Problem problem;
  problem.name = "smooth5";
  problem.extents = {4096};
  problem.program = smoothed(4096, 3);
  Expr lowered = rewrite::lower_default(problem.program);
  problem.variants.push_back({lowered, print(lowered), {{}, rewrite::Mapping{}}, {}});
  ExploreOptions o;
  o.budget_s = 30;
  o.strategy = Strategy::Exhaustive;
  o.repeats = 2;
  o.roofline = runtime::RooflineOptions{.max_bytes = std::size_t{1} << 20};
  Report report = explore::explore(test_session(), problem, o);
  REQUIRE(!report.points.empty());
  const PointResult* base = report.find(0);
  REQUIRE(base != nullptr);
  INFO(base->error);
  CHECK(base->status == PointStatus::Ok);
  CHECK(base->max_error <= 1e-6);
  CHECK(report.check_method == "the reference interpreter");
}
