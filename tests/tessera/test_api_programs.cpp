// The public C++ API's path for programs of kernels (an iterated stencil's variants): emitted,
// written as files and run on user buffers, checked against the interpreter; the derivation
// iterated step by step; the limits run_kernel and make_problem name.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tessera/tessera.h"
#include "tests/Helpers.h"
#include "tests/TempDir.h"

using namespace tessera;
using testing::error_of;

namespace {

Expr sum3(const Type& element) {
  auto add3 = user_fun("add3", [](auto a, auto b, auto c) { return a + 2.0 * b - c; });
  Val x = input("x", Type::array(element, size("N")));
  return program({x}, x | pad(1, 1, clamp) | slide(3, 1) |
                          map([&](Val w) { return add3(w.at(0), w.at(1), w.at(2)); }));
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST_CASE("api: a program of kernels is written as files and run on user buffers") {
  Expr steps = iterate_steps(at_size(sum3(f32()), {40}), 3);
  VariantList list = enumerate_variants(steps, 0);
  const VariantInfo& v = list.variants[0];
  codegen::KernelProgram kp = emit_program(v, {.kernel_name = "s3"});
  REQUIRE(kp.launches.size() == 3);

  auto dir = testing::make_temp_dir("tessera-api-program");
  write_kernel_files(kp, v, (dir / "s3.cl").string(), (dir / "s3.launch.json").string());
  CHECK(read_text(dir / "s3.cl") == program_file(kp, v));
  CHECK(nlohmann::json::parse(read_text(dir / "s3.launch.json")) == launch_description(kp, v));
  // Tessera/Kernel.h alone makes the description usable (it returns nlohmann::json).
  CHECK(launch_description(kp, v).dump().find("\"launches\"") != std::string::npos);

  auto device = open_device();
  auto in = testing::random_f32({40}, 5);
  auto expected = evaluate(steps, {in}).flatten();
  std::vector<double> flat = in.flatten();
  RunResult run = run_kernel(device, kp, {std::vector<float>(flat.begin(), flat.end())}, {}, 2);
  REQUIRE(run.output.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    REQUIRE(std::fabs(run.output[i] - expected[i]) <= 1e-5 * std::max(1.0, std::fabs(expected[i])));
  CHECK(run.kernel_ms > 0);
  CHECK(run_kernel(device, kp, std::vector<Data>{in}).flatten().size() == expected.size());
  CHECK(error_of([&] {
          run_kernel(device, kp, std::vector<std::vector<float>>{});
        }).find("takes 1 input buffers") != std::string::npos);
}

TEST_CASE("api: VariantInfo::history is iterable as its lines") {
  VariantList list = enumerate_variants(at_size(sum3(f32()), {64}), 1);
  REQUIRE(list.variants.size() > 2);
  for (const auto& v : list.variants) {
    std::vector<std::string> read;
    for (const std::string& step : v.history)
      read.push_back(step);
    CHECK(read == v.history.lines());
    CHECK(v.history.size() == read.size());
  }
}

TEST_CASE("api: run_kernel on float buffers names its limit for f64 kernels; Data runs them") {
  Expr p = at_size(sum3(f64()), {24});
  VariantList list = enumerate_variants(p, 0);
  codegen::Kernel k = emit_kernel(list.variants[0], {.kernel_name = "d"});
  auto device = open_device();
  std::string message = error_of([&] { run_kernel(device, k, {std::vector<float>(24, 1.0f)}); });
  CHECK(message.find("runs f32 kernels") != std::string::npos);
  CHECK(message.find("std::vector<Data>") != std::string::npos);
  CHECK(message.find("execute_flat") == std::string::npos); // no internal function named
  Data in = Data::from_flat(ScalarKind::F64, {24}, std::vector<double>(24, 0.25));
  CHECK(run_kernel(device, k, {in}).flatten() == evaluate(p, {in}).flatten());
}

TEST_CASE("api: make_problem refuses extents the kernels cannot take") {
  std::string message = error_of([] { make_problem("s", sum3(f32()), {int64_t{1} << 40}, 0); });
  CHECK(message.find("extent 0 is 1099511627776, expected 1 to 2^31 - 1") != std::string::npos);
  CHECK(error_of([] { make_problem("s", sum3(f32()), {0}, 0); }).find("expected 1 to") !=
        std::string::npos);
}

TEST_CASE("api: a program of kernels' file builds as one OpenCL program") {
  auto device = open_device();
  // Three steps of one stencil: the kernels share their helpers, written once.
  Expr three = iterate_steps(at_size(sum3(f32()), {40}), 3);
  VariantList three_list = enumerate_variants(three, 0);
  const VariantInfo& plain = three_list.variants[0];
  codegen::KernelProgram kp = emit_program(plain, {.kernel_name = "s3"});
  REQUIRE(kp.kernels.size() == 2);
  std::string text = program_file(kp, plain);
  CHECK(text.find("float add3(") == text.rfind("float add3("));
  for (const auto& k : kp.kernels)
    CHECK_NOTHROW(device.build_kernel(text, k.name));
  // Two steps whose functions share a name but not a definition: the second kernel's is
  // renamed within its own section.
  Val x = input("x", Type::array(f32(), 32));
  auto first = user_fun("step", [](auto a, auto b, auto c) { return a + b + c; });
  auto second = user_fun("step", [](auto a, auto b, auto c) { return a - b * c; });
  auto apply = [](const Fun& f) { return [f](Val w) { return f(w.at(0), w.at(1), w.at(2)); }; };
  Expr two = program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map(apply(first)) |
                              pad(1, 1, clamp) | slide(3, 1) | map(apply(second)));
  VariantList two_list = enumerate_variants(two, 0);
  const VariantInfo& both = two_list.variants[0];
  codegen::KernelProgram kernels = emit_program(both, {.kernel_name = "two"});
  REQUIRE(kernels.kernels.size() == 2);
  text = program_file(kernels, both);
  INFO(text);
  CHECK(text.find("#define fn_step fn_step_two_s1") != std::string::npos);
  for (const auto& k : kernels.kernels)
    CHECK_NOTHROW(device.build_kernel(text, k.name));
}
