// The public C++ API (tessera/*.h): sizes bound and checked, variants with families, kernel
// files whose wrapped source still builds and agrees with the interpreter, launch descriptions,
// and runs on user buffers with their errors.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tessera/tessera.h"
#include "tests/Helpers.h"

using namespace tessera;
using tessera::testing::has;
using testing::error_of;

namespace {

Expr sum3(Boundary boundary) {
  auto add3 = user_fun("add3", [](auto a, auto b, auto c) { return a + 2.0 * b - c; });
  Val x = input("x", Type::array(f32(), size("N")));
  return program({x}, x | pad(1, 1, boundary) | slide(3, 1) |
                          map([&](Val w) { return add3(w.at(0), w.at(1), w.at(2)); }));
}

std::vector<float> to_floats(const std::vector<double>& v) {
  return {v.begin(), v.end()};
}

} // namespace

TEST_CASE("api: at_size binds size variables and explains what it cannot bind") {
  Expr p = sum3(clamp);
  CHECK(type_check(p).to_string() == "[f32]_N");
  CHECK(type_check(at_size(p, {10})).to_string() == "[f32]_10");
  CHECK(grid_extents(p).size() == 1);
  CHECK(has(error_of([&] { at_size(p, {4, 4}); }), "has 1 dimensions, got 2 extents"));
  CHECK(has(error_of([&] { at_size(p, {0}); }), "must be positive"));
  CHECK(has(error_of([&] { at_size(at_size(p, {8}), {9}); }), "the constant 8, got 9"));
  CHECK(has(error_of([&] { iterate_steps(p, 0); }), "at least 1"));
  Expr steps = iterate_steps(at_size(p, {12}), 3);
  auto in = testing::random_f32({12}, 3);
  Data once = evaluate(at_size(p, {12}), {in});
  CHECK(evaluate(steps, {in}).flatten() ==
        evaluate(at_size(p, {12}), {evaluate(at_size(p, {12}), {once})}).flatten());
}

TEST_CASE("api: variants carry histories and families") {
  VariantList list = enumerate_variants(at_size(sum3(wrap), {64}), 1);
  REQUIRE(list.variants.size() > 2);
  CHECK(variant_family(list.variants[0].history) == "plain");
  std::set<std::string> families;
  for (const auto& v : list.variants)
    families.insert(variant_family(v.history));
  CHECK(families.count("tiled"));
  CHECK(families.count("coarsened"));
  using rewrite::Mapping, rewrite::MappingKind;
  CHECK(variant_family({{{"temporal-tiling", {1}, {{"steps", 2}}}},
                        Mapping{MappingKind::CoarsenedTiles}}) == "temporal");
  CHECK(variant_family({{}, Mapping{MappingKind::LocalMemory}}) == "local-memory");
  CHECK(variant_family(
            {{{"tile-nd", {1}, {{"dims", 2}, {"tile", 16}}}}, Mapping{MappingKind::LocalMemory}}) ==
        "local-memory"); // the mapping's family comes first
  CHECK(variant_family({{{"tile-nd", {1}, {{"dims", 2}, {"tile", 16}}}},
                        Mapping{MappingKind::WorkGroups}}) == "tiled");
  CHECK(explore::variant_families().back() == "plain");
  CHECK(has(error_of([] { enumerate_variants(sum3(clamp), -1); }), "at least 0"));
}

TEST_CASE("api: kernel files are wrapped at 100 columns, build, and agree with the interpreter") {
  Expr p = at_size(sum3(mirror), {96});
  VariantList list = enumerate_variants(p, 1);
  auto device = open_device();
  auto in = testing::random_f32({96}, 7);
  auto expected = evaluate(p, {in}).flatten();
  int checked = 0;
  for (const auto& v : list.variants) {
    auto check_lines = [](const std::string& file) {
      std::istringstream lines(file);
      for (std::string line; std::getline(lines, line);)
        REQUIRE_MESSAGE(line.size() <= 100, line);
      CHECK(has(file, "//   x: the program's input 'x' [f32]_96: 96 f32 values"));
    };
    std::vector<float> out;
    if (variant_family(v.history) == "split-launch") { // two kernels: a program file
      CHECK(has(error_of([&] { emit_kernel(v, {}); }), "use tessera::emit_program"));
      codegen::KernelProgram program = emit_program(v, {.kernel_name = "sum3"});
      std::string file = program_file(program, v);
      check_lines(file);
      CHECK(has(file, "sum3_interior on 94 work-items from offset 1 reads input 0"));
      out = run_kernel(device, program, {to_floats(in.flatten())}).output;
    } else {
      codegen::Kernel k = emit_kernel(v, {.kernel_name = "sum3"});
      std::string file = kernel_file(k, v);
      check_lines(file);
      k.source = file; // the wrapped, commented file is what users build
      out = run_kernel(device, k, {to_floats(in.flatten())}).output;
    }
    REQUIRE(out.size() == expected.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      REQUIRE(std::fabs(out[i] - expected[i]) <= 1e-5 * std::max(1.0, std::fabs(expected[i])));
    ++checked;
  }
  CHECK(checked == static_cast<int>(list.variants.size()));
}

TEST_CASE("api: wrap_lines keeps comments comments and preprocessor lines continued") {
  std::string long_comment = "// " + std::string(60, 'a') + " " + std::string(60, 'b');
  std::string wrapped = wrap_lines(long_comment + "\n#define X " + std::string(50, 'c') + " " +
                                   std::string(50, 'd') + "\n");
  CHECK(wrapped == "// " + std::string(60, 'a') + "\n//   " + std::string(60, 'b') +
                       "\n#define X " + std::string(50, 'c') + " \\\n    " + std::string(50, 'd') +
                       "\n");
  CHECK(has(error_of([] { wrap_lines("x", 5); }), "below 20"));
}

TEST_CASE("api: launch descriptions and runs on user buffers") {
  Expr p = sum3(constant(0.5f));
  VariantList symbolic = enumerate_variants(p, 0);
  codegen::Kernel k = emit_kernel(symbolic.variants[0], {.kernel_name = "s", .local = {8}});
  auto j = launch_description(k, symbolic.variants[0]);
  CHECK(j["global"][0] == "((N + 7) / 8) * 8"); // rounded up to whole work-groups
  CHECK(j["local"][0] == 8);
  CHECK(j["arguments"][2]["role"] == "size");
  CHECK(j["arguments"][2]["name"] == "N");

  auto device = open_device();
  auto in = testing::random_f32({40}, 9);
  auto out = run_kernel(device, k, {to_floats(in.flatten())}, {{"N", 40}}).output;
  auto expected = evaluate(at_size(p, {40}), {in}).flatten();
  REQUIRE(out.size() == expected.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    CHECK(out[i] == doctest::Approx(expected[i]).epsilon(1e-5));
  CHECK(has(error_of([&] { run_kernel(device, k, {to_floats(in.flatten())}); }), "the size N"));
  CHECK(has(error_of([&] { run_kernel(device, k, {}, {{"N", 40}}); }), "takes 1 input buffers"));
  CHECK(has(error_of([&] {
              run_kernel(device, k, {std::vector<float>(3)}, {{"N", 40}});
            }),
            "needs 40 values, got 3"));
  CHECK(has(error_of([&] { emit_kernel(symbolic.variants[0], {.local = {0}}); }), "positive"));
}

TEST_CASE("api: a program of kernels is emitted as one file that lists every launch") {
  Expr steps = iterate_steps(at_size(sum3(clamp), {32}), 3);
  VariantList list = enumerate_variants(steps, 0);
  const auto& v = list.variants[0];
  CHECK(has(error_of([&] { emit_kernel(v); }), "use tessera::emit_program"));
  codegen::KernelProgram kp = emit_program(v, {.kernel_name = "s3"});
  REQUIRE(kp.launches.size() == 3);
  std::string file = program_file(kp, v);
  std::istringstream lines(file);
  for (std::string line; std::getline(lines, line);)
    REQUIRE_MESSAGE(line.size() <= 100, line);
  CHECK(has(file, "in 3 launches"));
  for (const auto& k : kp.kernels)
    CHECK(has(file, "// Kernel " + k.name + ", generated by tessera."));
  auto j = launch_description(kp, v);
  CHECK(j["format"] == "tessera-launch");
  CHECK(j["kernels"].size() == kp.kernels.size());
  REQUIRE(j["launches"].size() == 3);
  CHECK(j["launches"][0]["inputs"][0]["input"] == 0);
  CHECK(j["launches"][0]["output"]["buffer"].is_number());
  CHECK(j["launches"][2]["output"] == "output");
}

TEST_CASE("api: best_variant and best_local_size read the report") {
  explore::Problem problem = make_problem("s", sum3(clamp), {64}, 0);
  explore::Report report;
  CHECK(has(error_of([&] { best_variant(problem, report); }), "no best point"));
  report.points.push_back({});
  report.points[0].id = 0;
  report.points[0].variant = static_cast<int>(problem.variants.size()) - 1;
  report.points[0].local = "16";
  report.best = 0;
  CHECK(best_variant(problem, report).text == problem.variants.back().text);
  CHECK(best_local_size(report) == std::vector<int64_t>{16});
  report.points[0].variant = 999;
  CHECK(has(error_of([&] { best_variant(problem, report); }), "another problem"));
}
