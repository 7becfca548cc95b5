// Every variant that is offered can be generated and run through every public path (issue 33).
//
// The catalog's stencils at depth 1, as one step and as 2 and 3 fused time steps (those whose
// result has their input's type), at sizes where a whole grid no longer fits a work-item's
// private memory (48x40, 12^3: the earlier steps of a tiled program cannot be computed
// sequentially per work-item there) and where tiles divide the extents:
// - the lazy space the explorer searches (its variants generated only when searched) holds nothing
// the code generator rejects: it is the space `enumerate_variants` offers;
// - no kernel that enumerate_variants offers exceeds the portable limits (explore/Space.h);
// - every variant's program file and launch description are written, and the description names
//   every launch's per-launch arguments and the buffers a kernel writes;
// - a deterministic sample runs through run_variant on PoCL on non-zero data, its files are
//   written, and it agrees with the reference interpreter within the one tolerance
//   (compile/Agreement.h): in catalog order, the first variant of each (dimensions, steps,
//   family, one launch or several, one kernel or a program of kernels). Running all
//   2,400 would take many minutes on a cold PoCL cache; the sample has every kind of kernel the
//   generator writes for each number of dimensions and steps. The one-step programs' sample is
//   in the default tier, the 2- and 3-step programs' in the extended one (CMakeLists.txt).
// - every variant, not a sample, at small sizes (16x16, 8^3, 64: dividing; 13x11, 7x6x5, 61: tiles
//   and vector lanes with a remainder) runs through run_variant against the interpreter, is
//   found by its name and has its files written: one step (about 900 variants: ctest's entry
//   test_api/test_offered_variants/1) and 2 and 3 fused steps (about 3,200: .../steps23, built
//   with -cl-opt-disable); both in the extended tier (CMakeLists.txt). The 2- and 3-step walk once
//   found time-tiling variants of 128 work-items that aborted the process on PoCL (heap corruption)
//   or disagreed: PoCL miscompiled their kernels at -O2, which now avoid it with barriers
//   (docs/reliability.md; tests/codegen/test_time_tiling.cpp probes it at -O2).
#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "codegen/Program.h"
#include "compile/Agreement.h"
#include "compile/KernelRunner.h"
#include "compile/Workload.h"
#include "explore/Variants.h"
#include "primitives/Interpreter.h"
#include "rewrite/Variants.h"
#include "stencils/Catalog.h"
#include "tessera/tessera.h"
#include "tests/Helpers.h"
#include "tests/TempDir.h"

using namespace tessera;

namespace {

std::vector<int64_t> walk_extents(int dims) {
  if (dims == 1)
    return {1536};
  if (dims == 2)
    return {48, 40};
  return {12, 12, 12};
}

// The stencil at the walk's size and `steps` time steps, or null when it does not iterate
// (several inputs, or a result of another type).
Expr walk_program(const stencils::StencilInfo& info, int steps,
                  const std::vector<int64_t>& extents) {
  Expr p = info.build(std::vector<ArithExpr>(extents.begin(), extents.end()));
  if (steps == 1)
    return p;
  try {
    return iterate_steps(p, steps);
  } catch (const Error&) {
    return {};
  }
}

std::string label(const stencils::StencilInfo& info, int steps, std::size_t variant) {
  return cat(info.name, " steps ", steps, " variant ", variant);
}

bool needs_program_form(const codegen::KernelProgram& program) {
  return program.launches.size() > 1 || !program.buffers.empty() ||
         !program.launches[0].arguments.empty();
}

// Random non-zero inputs of the program's input types (0/1 cells for integer grids).
std::vector<Data> random_inputs(const Expr& program) {
  std::vector<Data> data;
  uint32_t seed = 11;
  for (const Type& type : input_types(program)) {
    std::vector<int64_t> shape;
    for (const auto& e : type.shape())
      shape.push_back(*e.as_constant());
    Data d = testing::random_f32(shape, seed++);
    ScalarKind kind = type.innermost().scalar_kind();
    if (kind != ScalarKind::F32) {
      auto values = d.flatten();
      for (auto& v : values)
        v = v > 0 ? 1 : 0;
      d = Data::from_flat(kind, shape, values);
    }
    data.push_back(std::move(d));
  }
  return data;
}

// The variant run as a user runs it: run_variant on flat f32 buffers, run_kernel on Data for
// other element types.
std::vector<double> run_as_user(runtime::Session& device, const explore::VariantInfo& variant,
                                const std::vector<Data>& inputs) {
  if (input_types(variant.program).front().innermost().scalar_kind() != ScalarKind::F32)
    return run_kernel(device, emit_program(variant), inputs).flatten();
  std::vector<std::vector<float>> flat;
  for (const auto& in : inputs) {
    auto values = in.flatten();
    flat.emplace_back(values.begin(), values.end());
  }
  auto out = run_variant(device, variant, flat);
  return {out.begin(), out.end()};
}

// The launch description of a program of kernels names each launch's own argument values and
// marks the buffers its kernels write.
void check_description(const codegen::KernelProgram& kernels, const nlohmann::json& j) {
  if (!needs_program_form(kernels)) {
    CHECK(j.contains("kernel"));
    return;
  }
  REQUIRE(j.contains("launches"));
  REQUIRE(j["launches"].size() == kernels.launches.size());
  for (std::size_t l = 0; l < kernels.launches.size(); ++l) {
    const auto& launch = kernels.launches[l];
    for (const auto& [name, value] : launch.arguments)
      CHECK(j["launches"][l]["arguments"][name] == value);
    const auto& kernel = kernels.kernels[launch.kernel];
    for (std::size_t a = 0; a < kernel.params.size(); ++a)
      if (kernel.params[a].written)
        CHECK(j["kernels"][launch.kernel]["arguments"][a]["access"] == "read-write");
  }
}

// The explorer's lazy space (its variants generated on demand) offers only what generates: the
// variants that enumerate_variants did not return (beyond the portable limits, which the
// explorer filters by its device's instead) generate too.
void check_lazy_space(const stencils::StencilInfo& info, int steps,
                      const std::vector<explore::VariantInfo>& offered) {
  std::set<std::string> generated;
  for (const auto& v : offered)
    generated.insert(v.text);
  auto build = [&](const std::vector<int64_t>& e) { return walk_program(info, steps, e); };
  auto lazy = explore::make_problem(info.name, build, walk_extents(info.dims), 1).variants;
  for (std::size_t i = 0; i < lazy.size(); ++i)
    if (!generated.count(lazy[i].text)) {
      INFO(label(info, steps, i), " of the explorer's space: ", lazy[i].text);
      CHECK_NOTHROW(emit_program(lazy[i]));
    }
}

struct SampleCounts {
  int ran = 0, described = 0, single_launch_programs = 0;
};

// The programs of `steps_list` steps: every variant described, the sample run (see the top).
SampleCounts run_sample(const std::vector<int>& steps_list) {
  auto device = open_device();
  auto dir = testing::make_temp_dir("tessera-offered");
  SampleCounts counts;
  auto& [ran, described, single_launch_programs] = counts;
  std::set<std::string> sampled; // dims, steps, family, launches: run the first one
  for (const auto& info : stencils::catalog())
    for (int steps : steps_list) {
      Expr p = walk_program(info, steps, walk_extents(info.dims));
      if (!p)
        continue;
      auto inputs = random_inputs(p);
      std::vector<double> expected; // the interpreter's, when a variant of p runs
      auto list = enumerate_variants(p, 1).variants;
      check_lazy_space(info, steps, list);
      for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& v = list[i];
        INFO(label(info, steps, i), ": ", v.text);
        codegen::KernelProgram kernels = emit_program(v, {.kernel_name = "walk"});
        CHECK(is_one_kernel(kernels) == !needs_program_form(kernels));
        single_launch_programs += kernels.launches.size() == 1 && !is_one_kernel(kernels);
        check_description(kernels, launch_description(kernels, v));
        ++described;
        CHECK(explore::beyond_limits(kernels, Target{}) == "");
        std::string key = cat(info.dims, "/", steps, "/", variant_family(v.history), "/",
                              kernels.launches.size() > 1, is_one_kernel(kernels));
        if (!sampled.insert(key).second)
          continue;
        if (expected.empty()) {
          expected = evaluate(p, inputs).flatten();
          REQUIRE(explore::has_nonzero(expected));
        }
        auto file = dir / cat(info.name, "_", steps, "_", i, ".cl");
        write_kernel_files(kernels, v, file.string(), file.string() + ".json");
        double difference = max_relative_difference(run_as_user(device, v, inputs), expected);
        CHECK_MESSAGE(explore::within_tolerance(difference), "difference ", difference);
        ++ran;
      }
    }
  MESSAGE(ran, " variants run, ", described, " described, ", single_launch_programs,
          " single-launch programs of kernels");
  return counts;
}

} // namespace

TEST_CASE("offered variants: generated, written and run through the public paths, one step") {
  const SampleCounts counts = run_sample({1});
  CHECK(counts.ran >= 20);
  CHECK(counts.described > 500);
}

// The extended tier (CMakeLists.txt): the 2- and 3-step programs' sample at PoCL's default
// optimisation (the walk of every one of them, .../steps23, builds unoptimised).
TEST_CASE("offered variants: generated, written and run through the public paths, 2 and 3 "
          "steps" *
          doctest::test_suite("extended")) {
  const SampleCounts counts = run_sample({2, 3});
  CHECK(counts.single_launch_programs > 0); // single-launch diamonds: a scratch buffer, `inverted`
  CHECK(counts.ran > 30);
}

namespace {

// Small grids, one whose extents the tile sizes and 4 lanes divide and one they do not (tiles
// and lanes with a remainder): every variant is cheap to run, and the space keeps its families.
std::vector<std::vector<int64_t>> small_sizes(int dims) {
  if (dims == 1)
    return {{64}, {61}};
  if (dims == 2)
    return {{16, 16}, {13, 11}};
  return {{8, 8, 8}, {7, 6, 5}};
}

// TESSERA_EVERY_VARIANT_STEPS: the numbers of fused steps walked, e.g. "2,3" (default "1"; "3"
// alone, as before, means 1 to 3).
std::vector<int> walked_steps() {
  const char* text = std::getenv("TESSERA_EVERY_VARIANT_STEPS");
  const std::string list = text ? text : "1";
  if (list == "3")
    return {1, 2, 3};
  std::vector<int> steps;
  for (char c : list)
    if (c >= '1' && c <= '3')
      steps.push_back(c - '0');
    else if (c != ',')
      FAIL("TESSERA_EVERY_VARIANT_STEPS lists 1, 2 or 3 separated by commas, got \"", list, "\"");
  REQUIRE_FALSE(steps.empty());
  return steps;
}

} // namespace

// Every offered variant, not a sample, through the public paths: run with run_variant (or
// run_kernel) against the interpreter, found again by its name (the command line's --variant
// NAME), its kernel files and launch description written. Each group's kernels (a program at a
// size and number of steps) are built together (explore::build_together: PoCL's cost per
// program paid once; 82 s instead of 141 s for one step on a cold cache). One step by default
// (about 900 variants); TESSERA_EVERY_VARIANT_STEPS=2,3 walks the 2- and 3-step programs (about
// 3,200 variants; ctest runs them built with -cl-opt-disable: 2.7 min instead of about 10).
TEST_CASE("offered variants: every one at small sizes, dividing and not, agrees through "
          "run_variant" *
          doctest::test_suite("kernel-sweeps")) {
  auto device = open_device();
  auto dir = testing::make_temp_dir("tessera-every-variant");
  const auto file = dir / "variant.cl";
  int ran = 0, remainders = 0;
  for (const auto& info : stencils::catalog())
    for (int steps : walked_steps())
      for (const auto& extents : small_sizes(info.dims)) {
        Expr p;
        try {
          p = walk_program(info, steps, extents);
        } catch (const Error&) { // restrict3d and prolong3d need even sides
          continue;
        }
        if (!p)
          continue;
        auto inputs = random_inputs(p);
        const std::vector<double> expected = evaluate(p, inputs).flatten();
        REQUIRE(explore::has_nonzero(expected));
        const auto offered = enumerate_variants(p, 1);
        const auto& list = offered.variants;
        std::vector<codegen::KernelProgram> programs;
        std::vector<codegen::Kernel> kernels;
        for (const auto& v : list) {
          programs.push_back(emit_program(v));
          kernels.insert(kernels.end(), programs.back().kernels.begin(),
                         programs.back().kernels.end());
        }
        explore::build_together(device, kernels);
        for (std::size_t i = 0; i < list.size(); ++i) {
          const auto& v = list[i];
          INFO(label(info, steps, i), " at ", explore::size_text(extents), ": ", v.text);
          double difference = max_relative_difference(run_as_user(device, v, inputs), expected);
          CHECK_MESSAGE(explore::within_tolerance(difference), "difference ", difference);
          CHECK(explore::find_variant(offered, variant_name(v.history), info.name, 1) == i);
          write_kernel_files(programs[i], v, file.string(), file.string() + ".json");
          check_description(programs[i], launch_description(programs[i], v));
          remainders += v.text.find("Drop(0,") != std::string::npos;
          ++ran;
        }
      }
  MESSAGE(ran, " variants run, ", remainders, " with a remainder");
  CHECK(ran >= 900);
  CHECK(remainders > 200);
}
