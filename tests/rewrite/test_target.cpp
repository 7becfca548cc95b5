// The target model (core/Target.h): the rules, the code generator and the enumeration read the
// device's limits from it, its defaults are the portable limits, and a device's target is made
// from what the device reports (runtime::target_of).
#include <doctest/doctest.h>

#include "codegen/Program.h"
#include "compile/DeviceLimits.h"
#include "compile/ExecutableVariants.h"
#include "core/Error.h"
#include "runtime/DeviceTarget.h"
#include "stencils/Iterated.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/rewrite/StreamTemporalCases.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

std::vector<Alternative> stream_forms(const Expr& program, int64_t k, const Target& target,
                                      std::string* why = nullptr) {
  TypeChecker types;
  types.apply(program, input_types(program));
  RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = {16};
  ctx.temporal_steps = {k};
  ctx.target = target;
  RuleResult r = stream_temporal_rule().apply(program->body(), ctx);
  if (why)
    *why = r.why_not;
  return r.alternatives;
}

int register_forms(const std::vector<Alternative>& forms) {
  int n = 0;
  for (const auto& f : forms)
    n += f.params.count("registers") ? 1 : 0;
  return n;
}

std::size_t barriers(const std::string& source) {
  std::size_t n = 0;
  for (auto at = source.find("barrier("); at != std::string::npos;
       at = source.find("barrier(", at + 1))
    ++n;
  return n;
}

} // namespace

TEST_CASE("target: the portable defaults are the limits the rules and the explorer assumed") {
  Target t;
  CHECK(t.kind == DeviceKind::Other);
  CHECK(t.max_work_group_size == 1024);
  CHECK(t.max_work_item_sizes == std::array<int64_t, 3>{1024, 1024, 64});
  CHECK(t.local_memory_bytes == 32 * 1024);
  CHECK(t.stream_local_bytes == 48 * 1024);
  CHECK(t.max_constant_bytes == 64 * 1024);
  CHECK(t.max_constant_args == 8);
  CHECK_FALSE(t.images.supported);
  CHECK(t.registers_per_group == 65536);
  CHECK(t.register_window_values == 128);
  CHECK(t.max_private_elements == 1024);
}

TEST_CASE("target: stream-temporal plans its windows for the target's local memory") {
  // 3-D, tiles of 16x16, k = 6: the centre planes of the register window need 18 KiB, the
  // local window's 2r+1 planes 56 KiB.
  Expr program = testing::iterated_test_stencil(3, 1, clamp, 6, {33, 17, 17}, false);
  Target portable;
  CHECK(register_forms(stream_forms(program, 6, portable)) >= 1);
  Target small;
  small.stream_local_bytes = 16 * 1024;
  std::string why;
  CHECK(stream_forms(program, 6, small, &why).empty());
  CHECK(why.find("more than 16 KiB of local memory") != std::string::npos);
  // Fewer registers per work-group: the register window's columns would not fit.
  Target few_registers;
  few_registers.registers_per_group = 4096;
  CHECK(register_forms(stream_forms(program, 6, few_registers)) == 0);
}

TEST_CASE("target: the code generator double-buffers the register window where the target fits") {
  Expr program = testing::iterated_test_stencil(3, 1, clamp, 6, {33, 17, 17}, false);
  int checked = 0;
  for (const auto& form : stream_forms(program, 6, Target{})) {
    if (!form.params.count("registers"))
      continue;
    ++checked;
    Expr fused = make_lambda(program->params(), form.replacement);
    codegen::CodegenOptions options;
    CHECK(barriers(codegen::generate_program(fused, options).kernels.front().source) == 1);
    options.target.stream_local_bytes = 32 * 1024; // 2 x 18 KiB do not fit
    CHECK(barriers(codegen::generate_program(fused, options).kernels.front().source) == 2);
  }
  CHECK(checked > 0);
}

TEST_CASE("target: private arrays are limited by the target, in the code generator and rules") {
  Val rows = input("rows", Type::array(Type::array(f32(), 600), 4));
  Fun copy = user_fun("copy", [](auto a) { return a; });
  Expr big = program({rows}, rows | map_glb(0, Fun([=](Val row) {
                                              return row | to_private(map_seq(copy)) |
                                                     reduce_seq(add_fun(), 0.0f);
                                            })));
  CHECK_NOTHROW(codegen::generate_program(big));
  codegen::CodegenOptions options;
  options.target.max_private_elements = 512;
  CHECK_THROWS_WITH_AS(codegen::generate_program(big, options),
                       doctest::Contains("private array of 600 elements per work-item (at most "
                                         "512)"),
                       Error);
  // The enumeration refuses such lowerings before the code generator, by the same limit.
  Expr steps = stencils::iterated_stencil("j2d5pt", {64, 64}, 2);
  EnumerateOptions enumerate;
  enumerate.depth = 1;
  enumerate.tile_sizes = {16};
  enumerate.temporal_steps = {2};
  auto portable = explore::executable_variants(steps, enumerate);
  enumerate.target.max_private_elements = 64;
  auto tight = explore::executable_variants(steps, enumerate);
  CHECK(tight.variants.size() < portable.variants.size());
}

TEST_CASE("target: several devices share the least of each limit") {
  Target a, b;
  a.kind = b.kind = DeviceKind::CPU;
  a.pocl = true;
  a.local_memory_bytes = 512 * 1024;
  b.max_work_item_sizes = {256, 256, 256};
  a.images = {true, 8192, 8192, 2048, 2048, 2048};
  Target c = common_target(a, b);
  CHECK(c.kind == DeviceKind::CPU);
  CHECK_FALSE(c.pocl);
  CHECK(c.local_memory_bytes == 32 * 1024);
  CHECK(c.max_work_item_sizes == std::array<int64_t, 3>{256, 256, 64});
  CHECK_FALSE(c.images.supported);
  b.kind = DeviceKind::GPU;
  CHECK(common_target(a, b).kind == DeviceKind::Other);
}

TEST_CASE("target: a device's target is what it reports") {
  const runtime::Device& d = testing::test_session().device();
  Target t = runtime::target_of(d);
  CHECK(t.cpu() == (d.type == "CPU"));
  CHECK(t.pocl == d.is_pocl());
  CHECK(t.max_work_group_size == static_cast<int64_t>(d.max_work_group_size));
  CHECK(t.local_memory_bytes == static_cast<int64_t>(d.local_mem_size));
  CHECK(t.stream_local_bytes == std::min<int64_t>(48 * 1024, t.local_memory_bytes));
  CHECK(t.max_constant_bytes == static_cast<int64_t>(d.max_constant_buffer_size));
  CHECK(t.images.supported == d.image_support);
  EnumerateOptions options;
  explore::apply_device_limits(options, d);
  CHECK(options.target == t);
}
