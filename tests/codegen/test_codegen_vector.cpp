// Vector loads and stores: the vectorize-4 lowering (rewrite/rules/Lowering.cpp) gives each
// work-item 4 neighbouring results of the innermost dimension, and the code generator reads and
// writes them with vload4/vstore4 (codegen/Vector.h). The kernels match the interpreter on
// PoCL; where the pattern does not hold the rule says why, or the generator prints scalar code.
#include <doctest/doctest.h>

#include <random>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Enumerate.h"
#include "rewrite/Lower.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/rewrite/RandomPrograms.h"

using namespace tessera;
using tessera::testing::check_kernel;
using tessera::testing::random_f32;

namespace {

const rewrite::Rule& vectorize_rule() {
  static const std::vector<rewrite::Rule> rules = rewrite::lowering_rules();
  for (const auto& r : rules)
    if (r.name == "vectorize-4")
      return r;
  FAIL("no rule vectorize-4");
  return rules.front();
}

rewrite::RuleResult apply_rule(const Expr& program) {
  TypeChecker types;
  types.apply(program, input_types(program));
  rewrite::RuleContext ctx;
  ctx.types = &types;
  return vectorize_rule().apply(program, ctx);
}

// The program vectorised by the rule and completed by the default lowering.
Expr vectorized(const Expr& program) {
  auto r = apply_rule(program);
  INFO(r.why_not);
  REQUIRE(r.alternatives.size() == 1);
  CHECK(r.alternatives[0].params.at("lanes") == 4);
  return rewrite::lower_default(r.alternatives[0].replacement);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// The part of a kernel before its boundary version ("} else {"), i.e. the interior.
std::string interior_of(const std::string& source) {
  return source.substr(0, source.find("} else {"));
}

} // namespace

TEST_CASE("vectorised catalog stencils in 1-D, 2-D and 3-D use vload4/vstore4 and match the "
          "interpreter") {
  struct Case {
    const char* name;
    std::vector<ArithExpr> extents;
    double tolerance;
  };
  // Innermost extents of at least 3 chunks of 4 (more than twice the radius), so that there is
  // an interior without boundary handling.
  const std::vector<Case> cases = {
      {"j1d3pt", {64}, 1e-6},       {"j1d7pt", {32}, 1e-6},          {"j2d5pt", {16, 16}, 1e-6},
      {"j2d9pt", {12, 16}, 1e-6},   {"gaussian", {8, 20}, 1e-6},     {"grad2d", {16, 16}, 1e-5},
      {"j3d7pt", {8, 8, 16}, 1e-6}, {"j3d13pt", {8, 6, 20}, 1e-6},   {"j3d27pt", {4, 6, 12}, 1e-6},
      {"heat3d", {6, 8, 16}, 1e-6}, {"poisson3d", {6, 6, 12}, 1e-6},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Expr p = stencils::find_stencil(c.name).build(c.extents);
    Expr v = vectorized(p);
    CAPTURE(print(v));
    auto k = check_kernel(v, random_inputs(v, 7), {}, c.tolerance);
    INFO(k.source);
    CHECK(k.source.find("vstore4(") != std::string::npos);
    CHECK(k.source.find("vload4(") != std::string::npos);
    // 4 results per work-item: a quarter of the work-items of the plain lowering.
    ArithExpr innermost = c.extents.back();
    CHECK(k.launch.global[0] == innermost / 4);
    // The interior reads rows of 4 with vload4 only: no boundary handling, no gathers.
    REQUIRE(k.source.find("} else {") != std::string::npos);
    std::string interior = interior_of(k.source);
    CHECK(interior.find("(float4)(x[") == std::string::npos);
    CHECK(interior.find("min(") == std::string::npos);
  }
}

TEST_CASE("vectorised at innermost lengths that are not a multiple of 4: the interior's vector "
          "loads and stores, the last work-item's lanes stored one by one") {
  struct Case {
    const char* name;
    std::vector<ArithExpr> extents;
  };
  const std::vector<Case> cases = {
      {"j1d3pt", {61}},    {"j1d7pt", {30}},       {"j2d5pt", {16, 18}},    {"gaussian", {9, 21}},
      {"j2d9pt", {7, 23}}, {"j3d7pt", {6, 7, 13}}, {"j3d27pt", {5, 4, 11}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Expr v = vectorized(stencils::find_stencil(c.name).build(c.extents));
    CAPTURE(print(v));
    auto k = check_kernel(v, random_inputs(v, 11));
    INFO(k.source);
    const int64_t n = c.extents.back().value();
    CHECK(k.launch.global[0] == ArithExpr((n + 3) / 4));
    std::string interior = interior_of(k.source);
    CHECK(interior.find("vload4(") != std::string::npos);
    CHECK(interior.find("vstore4(lanes0, 0, out + ") != std::string::npos);
    CHECK(count(interior, "if (") == 1); // the interior's own test: no guarded store inside
    // At the edge: one vector store where all 4 lanes are inside, else one store per lane.
    std::string boundary = k.source.substr(k.source.find("} else {"));
    CHECK(boundary.find(cat("if ((4 * gid0) < ", n - 3, ") vstore4(")) != std::string::npos);
    CHECK(boundary.find(cat("if (!((4 * gid0) < ", n - 3, ")) { out[")) != std::string::npos);
  }
}

TEST_CASE("the vectorised j2d5pt kernel: vector arithmetic, vload4 per neighbour, one vstore4") {
  Expr v = vectorized(stencils::find_stencil("j2d5pt").build({16, 16}));
  auto k = codegen::generate_kernel(v);
  INFO(k.source);
  // The weighted sum is computed on float4 directly; the scalar function is not needed.
  CHECK(k.source.find(
            "float4 jacobi5_v4(float4 jm1, float4 im1, float4 c, float4 ip1, float4 jp1)") !=
        std::string::npos);
  CHECK(k.source.find("float jacobi5(") == std::string::npos);
  std::string interior = interior_of(k.source);
  CHECK(count(interior, "vload4(0, x + ") == 5);
  CHECK(count(interior, "vstore4(") == 1);
  CHECK(interior.find("min(") == std::string::npos);
  CHECK(interior.find("max(") == std::string::npos);
  // Clamped columns at the edges are gathered lane by lane; clamped rows stay vector loads.
  std::string boundary = k.source.substr(k.source.find("} else {"));
  CHECK(boundary.find("(float4)(x[") != std::string::npos);
  CHECK(count(boundary, "vload4(") >= 3);
  CHECK(k.launch.global[0] == ArithExpr(4));
  CHECK(k.launch.global[1] == ArithExpr(16));
}

TEST_CASE("user functions that are not plain arithmetic run per lane in their vector version") {
  // grad2d divides by a square root: math functions keep the scalar function per lane.
  Expr v = vectorized(stencils::find_stencil("grad2d").build({8, 8}));
  auto k = check_kernel(v, random_inputs(v, 3), {}, 1e-5);
  CHECK(k.source.find("float4 grad_v4(") != std::string::npos);
  CHECK(k.source.find("grad(jm1.s0, im1.s0, c.s0, ip1.s0, jp1.s0)") != std::string::npos);
  // Comparisons and selects on i32 cells (life, with a constant 0 boundary) too.
  Expr life = vectorized(stencils::find_stencil("life").build({8, 16}));
  std::vector<double> cells = testing::random_values(8 * 16, 4);
  for (auto& c : cells)
    c = c > 0.2 ? 1 : 0;
  auto kl = check_kernel(life, {Data::from_flat(ScalarKind::I32, {8, 16}, cells)}, {}, 0);
  INFO(kl.source);
  CHECK(kl.source.find("int4 lifeRule_v4(") != std::string::npos);
  CHECK(kl.source.find("vload4(0, x + ") != std::string::npos);
  CHECK(kl.source.find("vstore4(") != std::string::npos);
}

TEST_CASE("a reduction per output point accumulates on vectors") {
  // out[i] = sum of x[i-1..i+1] (constant boundary) scaled, with ReduceSeq: the accumulator is a
  // float4, the padding a guarded read outside the interior.
  for (Boundary b : {clamp, mirror, wrap, constant(0.25f), antisymmetric}) {
    CAPTURE(b.to_string());
    Val x = input("x", Type::array(f32(), 32));
    auto scale = user_fun("scale", [](auto a) { return a * 0.5; });
    Expr p =
        program({x}, x | pad(1, 1, b) | slide(3, 1) |
                         map(Fun([&](Val w) { return w | reduce(add_fun(), 0.0f) | map(scale); })));
    Expr v = vectorized(p);
    auto k = check_kernel(v, {random_f32({32}, 5)});
    INFO(k.source);
    CHECK(k.source.find(" = (float4)(0.0f);") != std::string::npos); // the accumulator
    CHECK(k.source.find("add_v4(") != std::string::npos);
    CHECK(k.source.find("vstore4(") != std::string::npos);
    CHECK(count(interior_of(k.source), "vload4(") >= 1);
  }
}

TEST_CASE("random stencil programs vectorised by the rule match the interpreter on PoCL") {
  // Random dimensions, sizes, radii, boundaries, zipped inputs, pointwise maps and layout noise
  // (tests/rewrite/RandomPrograms.h): wherever the rule fires, the kernel is checked.
  std::mt19937 rng(2024);
  int checked = 0, vector_kernels = 0;
  for (int attempt = 0; attempt < 400 && checked < 40; ++attempt) {
    auto rp = testing::random_program(rng);
    auto r = apply_rule(rp.program);
    if (r.alternatives.empty())
      continue;
    CAPTURE(rp.family);
    CAPTURE(print(rp.program));
    Expr v = rewrite::lower_default(r.alternatives[0].replacement);
    CAPTURE(print(v));
    // A pointwise map after the stencil is a second launch (codegen/Stages.h); the vectorised
    // result is written by the last one.
    auto k =
        testing::check_program(v, random_inputs(v, static_cast<uint32_t>(attempt))).kernels.back();
    vector_kernels += k.source.find("vstore4(") != std::string::npos;
    ++checked;
  }
  CHECK(checked == 40);
  CHECK(vector_kernels == checked);
}

TEST_CASE("vectorize-4 does not fire where 4 neighbouring results are not contiguous, and says "
          "why") {
  SUBCASE("the innermost length is less than 4 (another constant length takes a remainder)") {
    auto r = apply_rule(stencils::find_stencil("j2d5pt").build({16, 3}));
    CHECK(r.alternatives.empty());
    CHECK(r.why_not.find("innermost length 3 is less than 4") != std::string::npos);
    auto r1 = apply_rule(stencils::find_stencil("j1d3pt").build({30}));
    REQUIRE(r1.alternatives.size() == 1);
    CHECK(print(r1.alternatives[0].replacement).find("Drop(0,2)") != std::string::npos);
  }
  SUBCASE("a symbolic length is not known to be a multiple of 4") {
    auto r = apply_rule(stencils::find_stencil("j1d3pt").build({size("N")}));
    CHECK(r.alternatives.empty());
    CHECK(r.why_not.find("not a multiple of 4") != std::string::npos);
  }
  SUBCASE("the result is transposed: its innermost computed dimension is strided") {
    Val x = input("x", array_of(f32(), {8, 8}));
    auto neg = user_fun("neg", [](auto a) { return -a; });
    Expr p = program({x}, x | map(map(neg)) | transpose());
    auto r = apply_rule(p);
    CHECK(r.alternatives.empty());
    CHECK(r.why_not.find("Transpose rearranges the result") != std::string::npos);
  }
  SUBCASE("elements of several scalars not computed by a nested Map") {
    // Each output element is a pair (Split(2) of a row): lanes would be 2 scalars apart.
    Val x = input("x", Type::array(f32(), 16));
    Expr p =
        program({x}, x | slide(2, 2) | map(Fun([](Val w) { return w | reduce(add_fun(), 0.0f); })) |
                         map(Fun([](Val s) { return s | split(1); })) | join());
    auto r = apply_rule(p);
    INFO(print(p));
    INFO(r.why_not);
    CHECK(r.alternatives.empty());
  }
  SUBCASE("bool results have no vector type") {
    Val x = input("x", Type::array(f32(), 16));
    auto positive = user_fun("positive", [](auto a) { return a > 0.0; });
    auto r = apply_rule(program({x}, x | map(positive)));
    CHECK(r.alternatives.empty());
    CHECK(r.why_not.find("vector types") != std::string::npos);
  }
  SUBCASE("already lowered programs and non-programs") {
    auto r = apply_rule(stencils::find_stencil("restrict3d").build({8, 8, 8}));
    CHECK(r.alternatives.empty());
    CHECK(r.why_not.find("not computed by a Map") != std::string::npos);
    // Only the program's root is a place for the rule.
    Expr p = stencils::find_stencil("j1d3pt").build({16});
    TypeChecker types;
    types.apply(p, input_types(p));
    rewrite::RuleContext ctx;
    ctx.types = &types;
    CHECK(vectorize_rule().apply(p->body(), ctx).alternatives.empty());
  }
}

TEST_CASE("the generator prints scalar code where lanes are not contiguous or not aligned") {
  auto neg = user_fun("neg", [](auto a) { return -a; });
  SUBCASE("results transposed after the unrolled map: lanes are a row apart") {
    Val x = input("x", array_of(f32(), {8, 8}));
    Expr p =
        program({x}, x | map_glb(1, Fun([&](Val row) {
                                   return row | split(4) | map_glb(0, map_seq_unroll(neg)) | join();
                                 })) |
                         transpose());
    auto k = check_kernel(p, random_inputs(p, 1));
    CHECK(k.source.find("vstore4") == std::string::npos);
    CHECK(k.source.find("vload4") == std::string::npos);
  }
  SUBCASE("lanes of two scalars each: 4 results are 2 apart") {
    Val x = input("x", Type::array(f32(), 16));
    Expr p = program({x}, x | split(2) | split(4) | map_glb(0, map_seq_unroll(map_seq(neg))) |
                              join() | join());
    auto k = check_kernel(p, random_inputs(p, 2));
    CHECK(k.source.find("vstore") == std::string::npos);
  }
  SUBCASE("3 lanes: OpenCL has vectors of 3 but no aligned stores of them") {
    Val x = input("x", Type::array(f32(), 12));
    Expr p = program({x}, x | split(3) | map_glb(0, map_seq_unroll(neg)) | join());
    auto k = check_kernel(p, random_inputs(p, 2));
    CHECK(k.source.find("vstore") == std::string::npos);
  }
  SUBCASE("a bool result per lane") {
    Val x = input("x", Type::array(f32(), 8));
    auto positive = user_fun("positive", [](auto a) { return a > 0.0; });
    Expr p = program({x}, x | split(4) | map_glb(0, map_seq_unroll(positive)) | join());
    auto k = check_kernel(p, random_inputs(p, 3), {}, 0);
    CHECK(k.source.find("vstore4") == std::string::npos);
  }
}

TEST_CASE("lane mode that meets a scan inside the lanes prints the scalar code instead") {
  // The lanes pass the checks before lane mode (one f32 each, stored contiguously); the scan
  // inside is found while their statements are built (Emitter::cannot_vectorise).
  Val x = input("x", Type::array(f32(), 32));
  auto scale = user_fun("scale", [](auto a) { return a * 0.5; });
  Expr p = program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map(Fun([&](Val w) {
                          return w | scan(add_fun(), 0.0f) | reduce(add_fun(), 0.0f) | map(scale);
                        })));
  Expr v = vectorized(p);
  auto k = check_kernel(v, {random_f32({32}, 6)});
  INFO(k.source);
  CHECK(k.source.find("vstore") == std::string::npos);
  CHECK(k.source.find("float4") == std::string::npos);
  CHECK(k.source.find("state") != std::string::npos); // the scan's scalar state
}

TEST_CASE("other lane counts: vload8/vstore8 and vload2/vstore2") {
  Val x = input("x", Type::array(f32(), 64));
  auto avg = user_fun("avg", [](auto a, auto b, auto c) { return (a + b + c) / 3.0; });
  for (int64_t lanes : {2, 8, 16}) {
    CAPTURE(lanes);
    Expr p = program(
        {x},
        x | pad(1, 1, clamp) | slide(3, 1) | split(lanes) |
            map_glb(0, map_seq_unroll(Fun([&](Val w) { return avg(w.at(0), w.at(1), w.at(2)); }))) |
            join());
    auto k = check_kernel(p, random_inputs(p, 4));
    INFO(k.source);
    CHECK(k.source.find(cat("vstore", lanes, "(")) != std::string::npos);
    CHECK(k.source.find(cat("vload", lanes, "(")) != std::string::npos);
  }
}

TEST_CASE("a 2-D stencil tiled in local memory is vectorised inside its work-items") {
  // MapWrg over tiles, MapLcl over chunks of 4 of a tile row: lanes read the local tile with
  // vload4 and write global memory with vstore4.
  Val x = input("x", array_of(f32(), {8, 16}));
  auto sum3 = user_fun("sum3", [](auto a, auto b, auto c) { return a + b + c; });
  Expr p = program({x}, x | map_wrg(1, Fun([&](Val row) {
                                      Val padded =
                                          row | pad(1, 1, clamp) | map_lcl(0, to_local(id_fun()));
                                      return padded | slide(3, 1) | split(4) |
                                             map_lcl(0, map_seq_unroll(Fun([&](Val w) {
                                                       return sum3(w.at(0), w.at(1), w.at(2));
                                                     }))) |
                                             join();
                                    })));
  codegen::CodegenOptions options;
  options.local_size = {4, 1, 1};
  auto k = check_kernel(p, random_inputs(p, 9), options);
  INFO(k.source);
  CHECK(k.source.find("vstore4(") != std::string::npos);
  CHECK(k.source.find("vload4(0, tile0 + ") != std::string::npos);
}

TEST_CASE("vector kinds: double4, int4 and uchar4, exact per lane") {
  auto smooth = user_fun("smooth", [](auto a, auto b, auto c) { return (a + 2 * b + c) * 0.25; });
  auto peak = user_fun("peak", [](auto a, auto b, auto c) { return pow(fmax(a, c), b); });
  auto divmod = user_fun("divmod", [](auto a, auto b, auto c) { return (a + c) / 3 + b % 5; });
  struct Case {
    ScalarKind kind;
    Fun f;
    const char* vector;
    const char* function;
  };
  for (const auto& c : std::vector<Case>{
           {ScalarKind::F64, smooth, "double4",
            "double4 smooth_v4(double4 a, double4 b, double4 "
            "c) { return ((("},
           {ScalarKind::F64, peak, "double4", "(double4)(peak(a.s0, b.s0, c.s0)"},
           {ScalarKind::I32, divmod, "int4", "(int4)(divmod(a.s0, b.s0, c.s0)"},
           {ScalarKind::U8, divmod, "uchar4", "(int4)(divmod(a.s0, b.s0, c.s0)"},
       }) {
    CAPTURE(to_string(c.kind));
    Val x = input("x", Type::array(Type::scalar(c.kind), 32));
    Expr p = program({x}, x | pad(1, 1, mirror) | slide(3, 1) |
                              map(Fun([&](Val w) { return c.f(w.at(0), w.at(1), w.at(2)); })));
    Expr v = vectorized(p);
    std::vector<double> values = testing::random_values(32, 11);
    for (auto& e : values)
      e = c.kind == ScalarKind::F64 ? 1.5 + e : std::floor(100 * (e + 1));
    auto k = check_kernel(v, {Data::from_flat(c.kind, {32}, values)}, {}, 1e-12);
    INFO(k.source);
    CHECK(k.source.find(c.function) != std::string::npos);
    CHECK(k.source.find(cat(c.vector, " ")) != std::string::npos);
    CHECK(k.source.find("vstore4(") != std::string::npos);
    CHECK(k.source.find("vload4(0, x + ") != std::string::npos);
  }
}

TEST_CASE("index values as data (Generate) differ per lane") {
  // out[i] = x[i] * (i % 3): the index of lane k is 4*gid0 + k.
  Val x = input("x", Type::array(f32(), 24));
  auto phase = user_fun("phase", [](auto i) { return i % 3; });
  auto weigh = user_fun("weigh", [](auto a, auto w) { return a * w; });
  Val g = generate(24, Fun([&](Val i) { return phase(i); }));
  Expr p = program({x}, zip({x, g}) | map(Fun([&](Val t) { return weigh(t.get(0), t.get(1)); })));
  Expr v = vectorized(p);
  auto k = check_kernel(v, random_inputs(v, 12));
  INFO(k.source);
  CHECK(k.source.find("phase_v4((int4)(4 * gid0, 4 * gid0 + 1, 4 * gid0 + 2, 4 * gid0 + 3))") !=
        std::string::npos);
  CHECK(k.source.find("vstore4(") != std::string::npos);
}

TEST_CASE("the enumerator produces the vectorised lowering, and its history replays") {
  Expr p = stencils::find_stencil("j2d5pt").build({16, 16});
  rewrite::EnumerateOptions options;
  options.depth = 1;
  auto e = rewrite::enumerate(p, rewrite::all_rules(), options);
  const rewrite::Variant* found = nullptr;
  for (const auto& var : e.variants)
    if (!var.history.empty() && var.history.back().rule == "vectorize-4")
      found = &var;
  REQUIRE(found != nullptr);
  CHECK(rewrite::describe(found->history.back()) == "vectorize-4 at [] {lanes=4}");
  Expr start = e.variants.front().program;
  TypeChecker types;
  types.apply(start, input_types(start));
  rewrite::RuleContext ctx;
  ctx.types = &types;
  Expr replayed = rewrite::replay(start, found->history, rewrite::all_rules(), ctx);
  CHECK(structurally_equal(replayed, found->program));
  auto k = codegen::generate_kernel(rewrite::lower_default(found->program));
  CHECK(k.source.find("vstore4(") != std::string::npos);
}

TEST_CASE("a user function named like one of its parameters keeps its per-lane calls") {
  // The vector version of `b(a, b)` calls b once per lane: its parameters may not shadow b
  // (found by tessera_fuzz, seed 2701 case 1037: "called object type 'float4' is not a function").
  Val x = input("x", array_of(f32(), {16}));
  Fun b = user_fun("b", [](auto a, auto b) { return select(a > b, a, b); });
  Expr p = program({x}, x | pad(1, 1, clamp) | slide(3, 1) |
                            map(Fun([=](Val w) { return b(b(w.at(0), w.at(1)), w.at(2)); })));
  Expr v = vectorized(p);
  auto k = check_kernel(v, random_inputs(v, 5), {}, 0);
  INFO(k.source);
  CHECK(k.source.find("float4 b_v4(float4 a, float4 b_)") != std::string::npos);
}
