// The nesting limit (core/Expr.h, kMaxExprDepth): a program nested deeper than tessera's passes
// can recurse over is refused with an Error where it is loaded (before the reader recurses) and
// where it is built, and one at the limit loads, prints, saves and type-checks (issue 30: a file
// of 20,000 nested Pads crashed `show --program` with SIGSEGV).
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <string>

#include "core/Error.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "primitives/TypeCheck.h"
#include "tests/DeepProgram.h"
#include "tests/Helpers.h"
#include "tests/TempDir.h"

using namespace tessera;
using tessera::testing::error_of;
using tessera::testing::has;

TEST_CASE("nesting: a file of 20,000 nested Pads is refused with a message, not a crash") {
  auto dir = testing::make_temp_dir("tessera-nesting");
  auto path = (dir / "deep.json").string();
  std::ofstream(path) << testing::nested_pads_json(20000);
  std::string error = error_of([&] { load_expr_file(path); });
  CHECK(has(error, "nested deeper than " + std::to_string(kMaxExprDepth) + " levels"));
  CHECK(has(error, "deep.json"));
  // Just past the limit: the message names no 20 KB JSON pointer.
  error = error_of([&] { load_expr(testing::nested_pads_json(kMaxExprDepth - 1)); });
  CHECK(has(error, "nested deeper than " + std::to_string(kMaxExprDepth) + " levels"));
  CHECK(error.size() < 200);
}

TEST_CASE("nesting: a program at the limit loads, prints, saves and type-checks") {
  Expr program = load_expr(testing::nested_pads_json(kMaxExprDepth - 2));
  CHECK(program->height == kMaxExprDepth); // the lambda, the Pads' calls, the parameter
  CHECK(has(print(program), "Pad(1,1,clamp) o Pad(1,1,clamp)"));
  CHECK(save_expr(load_expr(save_expr(program))) == save_expr(program));
  Type t = infer_type(program);
  CHECK(has(t.to_string(), std::to_string(16 + 2 * (kMaxExprDepth - 2))));
}

TEST_CASE("nesting: the builders refuse a program deeper than the limit") {
  Expr x = make_param("x", Type::array(Type::scalar(ScalarKind::F32), 16));
  Expr e = x;
  std::string error = error_of([&] {
    for (int i = 0; i < kMaxExprDepth; ++i)
      e = make_call(make_pad(1, 1, Boundary::clamp()), {e});
  });
  CHECK(has(error, "nested deeper than " + std::to_string(kMaxExprDepth) + " levels"));
  CHECK(e->height == kMaxExprDepth); // the deepest built
}
