// Parameter names of user functions in generated code: the names a user gives (made valid and
// distinct, reserved names avoided), the catalog's offsets ("jm1", "c", "ip1"), and letters
// otherwise; the kernels agree with the interpreter whatever the names.
#include <doctest/doctest.h>

#include "codegen/Names.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "stencils/Catalog.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using tessera::testing::check_kernel;
using tessera::testing::has;
using tessera::testing::random_f32;

namespace {

Expr three_point(std::vector<std::string> names) {
  auto f = user_fun("weigh", std::move(names),
                    [](auto l, auto c, auto r) { return exp(0.1 * l) + 0.5 * c - r; });
  Val x = input("x", Type::array(f32(), 32));
  return program({x}, x | pad(1, 1, mirror) | slide(3, 1) |
                          map([&](Val w) { return f(w.at(0), w.at(1), w.at(2)); }));
}

} // namespace

TEST_CASE("codegen names: a user function's given parameter names appear in its C definition") {
  auto k = check_kernel(rewrite::lower_default(three_point({"left", "centre", "right"})),
                        {random_f32({32}, 3)});
  CHECK(has(k.source, "float weigh(float left, float centre, float right)"));
  CHECK(has(k.source, "exp((0.100000001f * left))"));
}

TEST_CASE("codegen names: reserved and repeated names are changed, never shadowing a function") {
  // "exp" would hide the exp() the body calls; "out" is the generator's; two "x" collide.
  auto k =
      check_kernel(rewrite::lower_default(three_point({"exp", "x", "x"})), {random_f32({32}, 4)});
  CHECK(has(k.source, "float weigh(float exp_, float x, float x_)"));
  CHECK(has(k.source, "exp((0.100000001f * exp_))"));
}

TEST_CASE("codegen names: catalog stencils name parameters by their offsets") {
  const auto& info = stencils::find_stencil("j3d7pt");
  Expr p = info.build({ArithExpr(8), ArithExpr(8), ArithExpr(8)});
  auto k = check_kernel(rewrite::lower_default(p), {random_f32({8, 8, 8}, 5)});
  CHECK(
      has(k.source, "(float km1, float jm1, float im1, float c, float ip1, float jp1, float kp1)"));
}

TEST_CASE("codegen names: wrong parameter names are clear errors") {
  auto error_of = [](std::vector<std::string> names) {
    try {
      three_point(std::move(names));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(has(error_of({"a", "b"}), "2 parameter names for 3 parameters"));
  CHECK(has(error_of({"a", "b c", "d"}), "parameter name 'b c' is not an identifier"));
  CHECK(has(error_of({"a", "1b", "d"}), "'1b' is not an identifier"));
}

TEST_CASE("codegen names: a kernel named after a stencil gets a valid OpenCL C identifier") {
  CHECK(codegen::kernel_identifier("j2d5pt") == "j2d5pt");
  CHECK(codegen::kernel_identifier("my-blur 3x3") == "my_blur_3x3");
  CHECK(codegen::kernel_identifier("3d") == "k_3d");
  CHECK(codegen::kernel_identifier("restrict") == "k_restrict");
  CHECK(codegen::kernel_identifier("half") == "k_half");
  CHECK(codegen::kernel_identifier("sin") == "k_sin"); // a built-in function, as for parameters
  CHECK(codegen::kernel_identifier("") == "k_");
}
