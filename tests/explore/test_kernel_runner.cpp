// The kernel runner (compile/KernelRunner.h) on its own: a program of kernels bound to uploaded
// inputs runs its launches in order (intermediates included) and matches the interpreter, run
// again, enqueued or timed; the size variables come from the bound sizes; a program input bound
// with another element kind and an unbound size are refused.
#include <doctest/doctest.h>

#include "RuntimeFixture.h"
#include "Smoothed.h"
#include "compile/DeviceValues.h"
#include "compile/KernelRunner.h"
#include "compile/Workload.h"
#include "core/RandomData.h"
#include "core/Substitute.h"
#include "dsl/Dsl.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "tests/error/ErrorCheck.h"

using namespace tessera;
using namespace tessera::explore;
using tessera::testing::smoothed;
using tessera::testing::test_session;

TEST_CASE("kernel runner: a program of kernels on device buffers matches the interpreter") {
  auto& session = test_session();
  const int64_t n = 500;
  Expr p = smoothed(size("N"), 4);
  auto kernels = codegen::generate_program(rewrite::lower_default(p));
  REQUIRE(kernels.launches.size() == 4);
  auto inputs = random_inputs(substitute_sizes(p, {{"N", ArithExpr(n)}}), 3);
  std::vector<double> x = inputs.at(0).flatten();
  std::vector<double> expected = evaluate(p, inputs).flatten();
  REQUIRE(has_nonzero(expected));

  runtime::RawBuffer in = upload(session, ScalarKind::F32, x);
  runtime::RawBuffer out(session, static_cast<std::size_t>(n) * 4);
  KernelRunner runner(session, kernels);
  runner.bind_input(0, runtime::KernelArg(in), ScalarKind::F32);
  runner.bind_output(runtime::KernelArg(out));
  runner.bind_sizes({{"N", n}}, {});
  CHECK(runner.run() >= 0);
  CHECK(max_relative_difference(download(out, ScalarKind::F32, n), expected) <= 1e-6);
  // Again from a zeroed output, enqueued without waiting (the read waits for the queue).
  out.fill(std::vector<unsigned char>(4, 0).data(), 4);
  runner.enqueue();
  CHECK(max_relative_difference(download(out, ScalarKind::F32, n), expected) <= 1e-6);
  auto timing = runner.time({1, 3});
  CHECK(timing.samples_ms.size() == 3);
  CHECK(timing.min_ms <= timing.median_ms);
  CHECK_ERROR(runner.time({0, 0}), "needs at least 1 repeat, got 0");

  SUBCASE("an input of another element kind") {
    runner.bind_input(0, runtime::KernelArg(in), ScalarKind::F64);
    CHECK_ERROR(runner.run(), "input 'x' is f32, the program's input 0 is f64");
  }
  SUBCASE("a size that is not bound") {
    runner.bind_sizes({}, {});
    CHECK_ERROR(runner.run(), "the size N is not given");
    runner.bind_sizes({}, [](const codegen::Kernel& k, const std::string& size) {
      return cat(k.name, " wants ", size);
    });
    CHECK_ERROR(runner.run(), "wants N");
  }
}
