// place-image: 2-D and 3-D f32 inputs read as OpenCL images. Each placement matches the
// interpreter on PoCL; the sampler does the boundary only where that is exactly the Pad's
// semantics (clamp: CLK_ADDRESS_CLAMP_TO_EDGE, constant 0: CLK_ADDRESS_CLAMP), every other Pad
// reads in bounds with its own index logic; the device's image limits are the side conditions.
#include <doctest/doctest.h>

#include "compile/Workload.h"
#include "core/Json.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "rewrite/Rule.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"
#include "stencils/WithBoundary.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

ImageLimits device_like(int64_t max_extent = 8192) {
  return {true, max_extent, max_extent, max_extent, max_extent, max_extent};
}

RuleResult place_image(const Expr& program, ImageLimits limits = device_like()) {
  static const Rule rule = place_image_rule();
  TypeChecker types;
  types.apply(program, input_types(program));
  RuleContext ctx;
  ctx.types = &types;
  ctx.target.images = limits;
  return rule.apply(program, ctx);
}

Expr catalog_program(const std::string& name, const std::vector<ArithExpr>& extents,
                     const Boundary& b) {
  return lower_default(stencils::with_boundary(stencils::find_stencil(name).build(extents), b));
}

std::size_t count(const std::string& text, const std::string& word) {
  std::size_t n = 0;
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
    ++n;
  return n;
}

} // namespace

TEST_CASE("place-image: every placement of 2-D and 3-D stencils matches the interpreter") {
  struct Case {
    Boundary boundary;
    const char* addressing; // the sampler's addressing mode
    bool sampler_pads;      // whether the sampler does the Pads (no index logic left)
  };
  const std::vector<Case> cases = {{clamp, "CLK_ADDRESS_CLAMP_TO_EDGE", true},
                                   {constant(0.0f), "CLK_ADDRESS_CLAMP", true},
                                   {constant(1.5f), "CLK_ADDRESS_NONE", false},
                                   {mirror, "CLK_ADDRESS_NONE", false},
                                   {wrap, "CLK_ADDRESS_NONE", false}};
  const std::vector<std::pair<std::string, std::vector<ArithExpr>>> stencils = {
      {"j2d5pt", {12, 20}}, {"j2d9pt", {16, 10}}, {"j3d7pt", {6, 8, 10}}, {"j3d27pt", {8, 6, 6}}};
  for (const auto& [name, extents] : stencils)
    for (const auto& c : cases) {
      CAPTURE(name);
      CAPTURE(c.boundary.to_string());
      Expr program = catalog_program(name, extents, c.boundary);
      auto inputs = random_inputs(program, 11);
      auto r = place_image(program);
      REQUIRE(r.alternatives.size() == 1);
      const auto& alt = r.alternatives[0];
      auto kernel = testing::check_kernel(alt.replacement, inputs);
      auto plain = codegen::generate_kernel(program);
      CHECK(kernel.source.find(cat("image", extents.size(), "d_t")) != std::string::npos);
      CHECK(kernel.source.find(c.addressing) != std::string::npos);
      CHECK(kernel.source.find("const __global") == std::string::npos);
      // Clamp pads print as min/max (or a select); the sampler leaves none of them.
      if (c.sampler_pads)
        CHECK(kernel.source.find("?") == std::string::npos);
      else
        CHECK(count(kernel.source, "?") + count(kernel.source, "min(") ==
              count(plain.source, "?") + count(plain.source, "min("));
      // The placement survives JSON.
      Expr back = load_expr(save_expr(alt.replacement));
      CHECK(codegen::generate_kernel(back).source == kernel.source);
    }
}

TEST_CASE("place-image: a Pad that is not directly over the image keeps its index logic") {
  // The padded array is x shifted by one (drop) and transposed: the sampler's clamp at x's
  // edge would differ from the Pad's clamp at the shifted array's edge.
  Val x = input("x", array_of(f32(), {10, 14}));
  auto add = add_fun();
  Fun point([=](Val nbh) { return add(add(nbh.at(0).at(1), nbh.at(1).at(0)), nbh.at(2).at(2)); });
  for (auto b : {clamp, constant(0.0f)}) {
    Expr shifted =
        lower_default(program({x}, x | drop_nd(2, 1, 0) | transpose() | pad_nd(2, 1, 1, b) |
                                       slide_nd(2, 3, 1) | map_nd(2, point)));
    auto inputs = random_inputs(shifted, 4);
    auto r = place_image(shifted);
    REQUIRE(r.alternatives.size() == 1);
    auto kernel = testing::check_kernel(r.alternatives[0].replacement, inputs);
    CHECK(kernel.source.find("read_imagef") != std::string::npos);
  }
}

TEST_CASE("place-image: side conditions from the device and the input's type") {
  Expr program = catalog_program("j2d5pt", {12, 20}, Boundary::clamp());
  CHECK(place_image(program, ImageLimits{}).why_not.find("no image support") != std::string::npos);
  auto small = place_image(program, device_like(16));
  CHECK(small.alternatives.empty());
  CHECK(small.why_not.find("largest image") != std::string::npos);
  Expr one_d = catalog_program("j1d3pt", {32}, Boundary::clamp());
  CHECK(place_image(one_d).alternatives.empty());
  CHECK_THROWS_WITH_AS(
      make_placed_input(make_param("v", array_of(f32(), {8})), AddressSpace::ImageClamp),
      doctest::Contains("2-D or 3-D f32"), Error);
  CHECK_THROWS_WITH_AS(make_to_mem(AddressSpace::Image, make_transpose()),
                       doctest::Contains("program inputs"), Error);
  // Without image support (the default) the lowered variants have no image placement; with it
  // they do.
  EnumerateOptions options;
  options.depth = 0;
  auto describe_all = [&](const EnumerateOptions& o) {
    std::string all;
    for (const auto& v :
         lowered_variants(stencils::find_stencil("j2d5pt").build({16, 16}), o).variants) {
      for (const auto& step : v.history)
        all += step.rule + "\n";
      REQUIRE(v.mapping);
      all += describe(*v.mapping) + "\n";
    }
    return all;
  };
  CHECK(describe_all(options).find("as an image") == std::string::npos);
  options.target.images = device_like();
  CHECK(describe_all(options).find("input 0 as an image (clamp to edge)") != std::string::npos);
}

TEST_CASE("place-image: the explorer's workload and execute_flat make the image on the host") {
  Expr plain = catalog_program("j3d7pt", {6, 8, 10}, clamp);
  auto r = place_image(plain);
  REQUIRE(r.alternatives.size() == 1);
  auto kernel = codegen::generate_kernel(r.alternatives[0].replacement);
  auto& session = testing::test_session();
  explore::Workload workload(session, plain, 3);
  std::vector<double> expected = evaluate(plain, workload.input_data()).flatten();
  auto built = session.build_kernel(kernel.source, kernel.name);
  std::vector<double> got = workload.run(kernel, built);
  REQUIRE(got.size() == expected.size());
  std::vector<float> x(workload.inputs()[0].values.begin(), workload.inputs()[0].values.end());
  auto flat = explore::execute_flat(session, kernel, {&x}, {});
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(got[i] == doctest::Approx(expected[i]).epsilon(1e-6));
    CHECK(flat.output[i] == doctest::Approx(expected[i]).epsilon(1e-6));
  }
}
