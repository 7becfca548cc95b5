// Kernels whose work-items keep private arrays, on a CPU: PoCL keeps the arrays of every
// work-item of a group on one thread's stack, and the residual norm's vectorised variant at 128^3
// (4 KiB a work-item) crashed `solve --tune explore` there in the group PoCL chose itself. Open
// work-groups are now chosen within Target::max_private_bytes_per_group (launch_range), and
// larger explicit ones are not explored.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "codegen/Kernel.h"
#include "compile/CpuWorkGroup.h"
#include "compile/ExecutableVariants.h"
#include "compile/Execute.h"
#include "compile/KernelRunner.h"
#include "explore/Space.h"
#include "multigrid/Operators.h"
#include "runtime/DeviceTarget.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

TEST_CASE("private arrays on a CPU: work-groups within the stack budget, the variant that "
          "crashed PoCL runs and agrees with the plain lowering") {
  auto& session = testing::multigrid_session();
  const Level level{3, 128, ScalarKind::F64, Centring::Cell};
  const Expr program =
      residual_square_sums(level, Boundary::antisymmetric(), SquareSumAxis::Innermost);
  rewrite::EnumerateOptions options;
  options.depth = 1;
  const auto variants = explore::executable_variants(program, options);
  const Target target = runtime::target_of(session.device());
  codegen::CodegenOptions codegen_options;
  codegen_options.target = target;
  const codegen::Kernel plain =
      codegen::generate_kernel(variants.variants.at(0).program, codegen_options);
  std::vector<Data> inputs;
  for (uint32_t seed : {11u, 12u})
    inputs.push_back(Data::from_flat(ScalarKind::F64, level.sizes(),
                                     testing::random_values(level.points(), seed)));
  const std::vector<double> expected = explore::execute(session, plain, inputs).output.flatten();
  REQUIRE(std::count_if(expected.begin(), expected.end(), [](double x) { return x != 0; }) > 0);
  int with_arrays = 0;
  for (const auto& v : variants.variants) {
    const codegen::Kernel k = codegen::generate_kernel(v.program, codegen_options);
    // Only those whose work-groups PoCL could make too large (it chooses up to 4096 items).
    if (k.private_bytes * 4096 <= target.max_private_bytes_per_group || k.launch.local[0] != 0 ||
        with_arrays == 2) // two of them: each run moves 32 MiB through the host
      continue;
    ++with_arrays;
    CAPTURE(k.source);
    const explore::LaunchRange range = explore::launch_range(k, {}, &target);
    if (target.cpu()) {
      CHECK(range.local.dims() == range.global.dims()); // (without it, the run below crashed)
      CHECK(static_cast<int64_t>(range.local.total()) * k.private_bytes <=
            target.max_private_bytes_per_group);
    }
    const std::vector<double> got = explore::execute(session, k, inputs).output.flatten();
    REQUIRE(got.size() == expected.size());
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      worst = std::max(worst, std::abs(got[i] - expected[i]) / std::abs(expected[i]));
    CHECK(worst <= 1e-12);
  }
  CHECK(with_arrays > 0);
}

TEST_CASE("private arrays on a CPU: explicit work-groups beyond the budget are not explored") {
  Target cpu;
  cpu.kind = DeviceKind::CPU;
  codegen::Kernel k;
  k.launch.dims = 1;
  k.launch.global[0] = ArithExpr(4096);
  k.private_bytes = 4096;
  // 256 work-items of 4 KiB fill 1 MiB; 512 do not fit.
  CHECK(explore::work_group_unusable({256}, k, cpu).empty());
  const std::string why = explore::work_group_unusable({512}, k, cpu);
  CHECK(why.find("private arrays (4096 bytes each)") != std::string::npos);
  Target gpu = cpu;
  gpu.kind = DeviceKind::GPU;
  CHECK(explore::work_group_unusable({512}, k, gpu).empty()); // registers, not one stack
}
