// stream-temporal (2.5-D blocking): the fused kernels of k steps run on PoCL and match the
// interpreter's unfused steps, for radius 1 and 2, every boundary, k = 2..8 and grids that the
// tiles do not divide; the primitive's own semantics agree with the unfused program exactly.
#include <doctest/doctest.h>

#include "codegen/Program.h"
#include "compile/ExecutableVariants.h"
#include "compile/Execute.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "core/StarStencil.h"
#include "rewrite/Variants.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/rewrite/StreamTemporalCases.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

const std::vector<Boundary>& all_boundaries() {
  static const std::vector<Boundary> b{clamp, mirror, wrap, antisymmetric, constant(0.75f)};
  return b;
}

// How many fused forms were checked, of each window.
struct Checked {
  int local = 0, registers = 0;
  bool operator==(const Checked&) const = default;
};

// The fused forms of `program` (k steps) generated, run on PoCL and compared with the unfused
// program under the interpreter. To keep the suite fast only the segmented forms are run unless
// `all_forms` (a segment meets both ends of the grid as well as another segment). `local`: the
// work-group size (0: the kernel's own).
std::vector<Alternative> checked_forms(const Expr& program, int k,
                                       const std::vector<int64_t>& tiles, bool all_forms) {
  auto forms = testing::stream_temporal_forms(program, k, tiles);
  if (!all_forms)
    std::erase_if(forms, [](const Alternative& a) { return !a.params.count("segment"); });
  return forms;
}

codegen::CodegenOptions form_options(int64_t local) {
  codegen::CodegenOptions options;
  options.local_size = {local, 0, 0};
  return options;
}

// The kernels check_fused_forms runs, to be built together.
std::vector<codegen::KernelProgram> fused_form_kernels(const Expr& program, int k,
                                                       const std::vector<int64_t>& tiles,
                                                       bool all_forms = false, int64_t local = 0) {
  std::vector<codegen::KernelProgram> all;
  for (const auto& form : checked_forms(program, k, tiles, all_forms))
    all.push_back(codegen::generate_program(make_lambda(program->params(), form.replacement),
                                            form_options(local)));
  return all;
}

Checked check_fused_forms(const Expr& program, int k, const std::vector<int64_t>& tiles,
                          bool all_forms = false, int64_t local = 0) {
  auto forms = checked_forms(program, k, tiles, all_forms);
  testing::build_together(fused_form_kernels(program, k, tiles, all_forms, local));
  auto inputs = random_inputs(program, 7);
  Data expected = evaluate(program, inputs);
  bool any_nonzero = false;
  for (double v : expected.flatten())
    any_nonzero |= v != 0;
  CHECK(any_nonzero);
  Checked checked;
  for (const auto& form : forms) {
    Expr fused = make_lambda(program->params(), form.replacement);
    CAPTURE(print(fused));
    // The primitive's reference semantics: the same operations in the same order.
    CHECK(evaluate(fused, inputs).flatten() == expected.flatten());
    CHECK(structurally_equal(load_expr(save_expr(fused)), fused)); // saved and loaded
    codegen::KernelProgram kernels = codegen::generate_program(fused, form_options(local));
    auto run = explore::execute(testing::test_session(), kernels, inputs);
    const std::string& source = kernels.kernels.front().source;
    INFO(source);
    if (form.params.count("registers")) { // named registers, none indexed at run time
      CHECK(source.find("blk_reg0_0_0") != std::string::npos);
      CHECK(source.find("blk_reg0[") == std::string::npos);
    }
    CHECK(explore::max_relative_error(run.output, expected) <= 1e-5);
    ++(form.params.count("registers") ? checked.registers : checked.local);
  }
  return checked;
}

} // namespace

TEST_CASE("stream-temporal 2-D: radius 1 and 2, every boundary, k = 2..8, partial tiles") {
  struct Case {
    int r;
    Boundary b;
    int k;
  };
  std::vector<Case> cases;
  for (int r : {1, 2}) // every boundary at both radii with two steps
    for (const Boundary& b : all_boundaries())
      cases.push_back({r, b, 2});
  for (int k = 3; k <= 8; ++k) // deeper k, each with another boundary and radius
    cases.push_back({1 + k % 2, all_boundaries()[static_cast<std::size_t>(k) % 5], k});
  auto program_of = [](const Case& c) {
    int kr = c.k * c.r;
    // Reflections reach k*r: the grid is wider; tiles of 12 and segments of 4kr divide nothing.
    std::vector<ArithExpr> extents{ArithExpr(5 * kr + 1), ArithExpr(2 * kr + 13)};
    return testing::iterated_test_stencil(2, c.r, c.b, c.k, extents, c.k % 2 == 0);
  };
  std::vector<codegen::KernelProgram> all; // every case's kernels as one program
  for (const Case& c : cases)
    for (auto& k : fused_form_kernels(program_of(c), c.k, {3, 4 * c.k * c.r}, c.k == 2 && c.r == 1))
      all.push_back(std::move(k));
  testing::build_together(all);
  for (const Case& c : cases) {
    int kr = c.k * c.r;
    CAPTURE(c.r);
    CAPTURE(c.b.to_string());
    CAPTURE(c.k);
    Expr program = program_of(c);
    bool all_forms = c.k == 2 && c.r == 1; // whole columns too
    // Both windows: the test stencil is a star.
    int n = all_forms ? 2 : 1;
    CHECK(check_fused_forms(program, c.k, {3, 4 * kr}, all_forms) == Checked{n, n});
  }
}

// The extended tier (CMakeLists.txt): the 3-D forms (2-D covers every boundary and k).
TEST_CASE("stream-temporal 3-D: radius 1 and 2, every boundary, partial tiles and segments" *
          doctest::test_suite("extended")) {
  for (int r : {1, 2})
    for (const Boundary& b : all_boundaries()) {
      int k = r == 1 && b.kind == Boundary::Mirror ? 4 : 2; // one deeper case
      int kr = k * r;
      std::vector<ArithExpr> extents{ArithExpr(5 * kr + 1), ArithExpr(kr + 3), ArithExpr(kr + 5)};
      CAPTURE(r);
      CAPTURE(b.to_string());
      CAPTURE(k);
      Expr program = testing::iterated_test_stencil(3, r, b, k, extents, r == 1);
      // Tiles of 3x3 (partial), and segments of 4kr (partial).
      int n = k > 2 ? 2 : 1;
      CHECK(check_fused_forms(program, k, {3, 4 * kr}, k > 2) == Checked{n, n});
    }
}

TEST_CASE("stream-temporal 3-D deep k: only the register window fits 48 KiB of local memory") {
  // Tiles of 16x16 (partial in 17x17) at k = 6 and 8: 2r+1 planes per level need 56 and 96 KiB,
  // the centre plane per level 18 and 32 KiB. Segments of 32 (the whole march too at k = 8).
  for (int k : {6, 8}) {
    CAPTURE(k);
    const Boundary b = k == 8 ? antisymmetric : clamp;
    Expr program = testing::iterated_test_stencil(3, 1, b, k, {33, 17, 17}, k == 8);
    CHECK(check_fused_forms(program, k, {16, 32}, k == 8) == Checked{0, k == 8 ? 2 : 1});
  }
}

TEST_CASE("the register window's centre planes are double-buffered where both halves fit") {
  // One barrier per plane of the march with two halves, two with one: tiles of 16x16 at
  // k = 6 need 2 x 18 KiB, at k = 8 2 x 32 KiB (more than 48 KiB).
  for (int k : {6, 8}) {
    CAPTURE(k);
    Expr program = testing::iterated_test_stencil(3, 1, clamp, k, {33, 17, 17}, false);
    int registers = 0;
    for (const auto& form : testing::stream_temporal_forms(program, k, {16})) {
      if (!form.params.count("registers"))
        continue;
      ++registers;
      Expr fused = make_lambda(program->params(), form.replacement);
      auto kernels = codegen::generate_program(fused, {});
      const auto& kernel = kernels.kernels.front();
      std::size_t barriers = 0;
      for (auto at = kernel.source.find("barrier("); at != std::string::npos;
           at = kernel.source.find("barrier(", at + 1))
        ++barriers;
      CHECK(barriers == (k == 6 ? 1u : 2u));
      CHECK(kernel.local_memory_bytes == (k == 6 ? 2 * 6 * 28 * 28 * 4 : 8 * 32 * 32 * 4));
    }
    CHECK(registers > 0);
  }
}

TEST_CASE("stream-temporal with several columns per work-item (work-groups of 16)") {
  struct Case {
    int d, r;
    Boundary b;
    int k;
  };
  // Work-groups of 16 below the region's columns: each work-item owns several, at every level.
  for (const Case& c : {Case{3, 1, antisymmetric, 3}, Case{3, 2, constant(0.75f), 2},
                        Case{2, 1, wrap, 5}, Case{2, 2, mirror, 4}}) {
    int kr = c.k * c.r;
    CAPTURE(c.d);
    CAPTURE(c.r);
    CAPTURE(c.b.to_string());
    std::vector<ArithExpr> extents = c.d == 3 ? std::vector<ArithExpr>{5 * kr + 1, kr + 3, kr + 5}
                                              : std::vector<ArithExpr>{5 * kr + 1, 2 * kr + 13};
    Expr program = testing::iterated_test_stencil(c.d, c.r, c.b, c.k, extents, true);
    CHECK(check_fused_forms(program, c.k, {3, 4 * kr}, false, 16) == Checked{1, 1});
  }
}

TEST_CASE("stream-temporal is one of the explored variants of an iterated stencil") {
  Expr program = testing::iterated_test_stencil(3, 1, clamp, 2, {12, 8, 8}, false);
  EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {4};
  options.temporal_steps = {2};
  auto variants = explore::executable_variants(program, options);
  int streamed = 0;
  for (const auto& v : variants.variants)
    for (const auto& s : v.history)
      streamed += s.rule == "stream-temporal";
  // Tiles of 4x4 (4x16 is wider than the grid), whole columns, local and register windows.
  CHECK(streamed == 2);
}

TEST_CASE("stream-temporal explains why it does not apply") {
  Expr one = testing::iterated_test_stencil(2, 1, clamp, 1, {16, 16}, false);
  TypeChecker types;
  types.apply(one, input_types(one));
  RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = {4};
  ctx.temporal_steps = {2};
  auto single = stream_temporal_rule().apply(one->body(), ctx);
  CHECK(single.alternatives.empty());
  CHECK(single.why_not.find("single stencil step") != std::string::npos);
  Expr small = testing::iterated_test_stencil(2, 2, mirror, 4, {6, 16}, false);
  ctx.temporal_steps = {4};
  TypeChecker small_types;
  small_types.apply(small, input_types(small));
  ctx.types = &small_types;
  auto reach = stream_temporal_rule().apply(small->body(), ctx);
  CHECK(reach.alternatives.empty());
  CHECK(reach.why_not.find("k*r") != std::string::npos);
}

TEST_CASE("StreamSteps rejects malformed parameters with a message") {
  Expr f = make_lambda({make_param()}, make_literal(ScalarValue::make(ScalarKind::F32, 1)));
  CHECK_THROWS_WITH_AS(make_stream_steps(1, 2, 1, clamp, {}, 0, 1, f),
                       doctest::Contains("2-D or 3-D"), Error);
  CHECK_THROWS_WITH_AS(make_stream_steps(3, 2, 1, clamp, {4}, 0, 1, f),
                       doctest::Contains("need 2 tile size(s), got 1"), Error);
  CHECK_THROWS_WITH_AS(make_stream_steps(2, 0, 1, clamp, {4}, 0, 1, f),
                       doctest::Contains("at least one step"), Error);
}

TEST_CASE("the register window is offered to star stencils only") {
  Val x = input("x", array_of(f32(), {ArithExpr(12), ArithExpr(8), ArithExpr(8)}));
  auto add = user_fun("add_half", [](auto a, auto b) { return a + 0.5f * b; });
  // A point off the centre plane and off the column (a box), or on the column (a star).
  auto box = Fun([=](Val w) { return add(w.at(0).at(1).at(1), w.at(2).at(0).at(1)); });
  auto star = Fun([=](Val w) { return add(w.at(0).at(1).at(1), w.at(1).at(0).at(2)); });
  auto steps = [&](const Fun& f) {
    auto step = [&](Val v) {
      return v | pad_nd(3, 1, 1, clamp) | slide_nd(3, 3, 1) | map_nd(3, f);
    };
    return program({x}, step(step(x)));
  };
  auto registers = [](const std::vector<Alternative>& forms) {
    return std::count_if(forms.begin(), forms.end(),
                         [](const Alternative& a) { return a.params.count("registers") > 0; });
  };
  auto box_forms = testing::stream_temporal_forms(steps(box), 2, {4});
  CHECK(!box_forms.empty());
  CHECK(registers(box_forms) == 0); // j3d27pt-like: the local window only
  auto star_forms = testing::stream_temporal_forms(steps(star), 2, {4});
  CHECK(registers(star_forms) == static_cast<long>(star_forms.size()) / 2);
  // A star may read any point of the centre plane (here a corner): both windows run right.
  CHECK(check_fused_forms(steps(star), 2, {4}, true).registers >= 1);
  CHECK(!star_shaped(box_forms.front().replacement->callee()->children[0], 3, 1));
  CHECK_THROWS_WITH_AS(make_stream_steps(3, 2, 1, clamp, {4, 4}, 0, 1,
                                         box_forms.front().replacement->callee()->children[0],
                                         StreamWindow::Registers),
                       doctest::Contains("star-shaped"), Error);
}
