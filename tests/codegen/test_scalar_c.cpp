// OpenCL C text of the scalar language (codegen/ScalarC.h).
#include <doctest/doctest.h>

#include <algorithm>

#include "codegen/ScalarC.h"
#include "core/Error.h"

using namespace tessera;
using tessera::codegen::scalar_c;

// OpenCL C text of user function bodies: a weak literal is printed in the kind it adopts (also
// as the argument of a math function), and math function arguments are converted to the kind
// the function computes in, as the interpreter does.
TEST_CASE("scalar bodies in OpenCL C") {
  ScalarExpr x = ScalarExpr::param(0);
  ScalarExpr half = ScalarExpr::constant(ScalarValue::make(ScalarKind::F64, 0.5), true);
  ScalarExpr low = ScalarExpr::call("fmax", {x, half});
  CHECK(scalar_c(low, {"x"}, {ScalarKind::F32}) == "fmax(x, 0.5f)");
  CHECK(scalar_c(low, {"x"}, {ScalarKind::F64}) == "fmax(x, 0.5)");
  CHECK(low.infer({ScalarKind::F32}, "test") == ScalarKind::F32);
  ScalarExpr root = ScalarExpr::call("sqrt", {x});
  CHECK(scalar_c(root, {"n"}, {ScalarKind::I32}) == "sqrt(((float)n))");
  ScalarExpr scale = ScalarExpr::binary(
      ScalarOp::Mul, x, ScalarExpr::constant(ScalarValue::make(ScalarKind::I32, 300), true));
  // i32 arithmetic wraps as in the interpreter: on unsigned values (signed overflow is undefined
  // in C), and a division by a non-constant in 64 bits (INT_MIN / -1).
  CHECK(scalar_c(scale, {"u"}, {ScalarKind::U8}) == "as_int((uint)u * (uint)300)");
  ScalarExpr ratio = ScalarExpr::binary(ScalarOp::Div, x, ScalarExpr::param(1));
  CHECK(scalar_c(ratio, {"a", "b"}, {ScalarKind::I32, ScalarKind::I32}) == "((int)((long)a / b))");
  CHECK(scalar_c(ratio, {"a", "b"}, {ScalarKind::F32, ScalarKind::F32}) == "(a / b)");
  ScalarExpr third = ScalarExpr::binary(
      ScalarOp::Div, x, ScalarExpr::constant(ScalarValue::make(ScalarKind::I32, 3), true));
  CHECK(scalar_c(third, {"a"}, {ScalarKind::I32}) == "(a / 3)");
  CHECK(scale.infer({ScalarKind::U8}, "test") == ScalarKind::I32);
  CHECK(scalar_c(scale, {"x"}, {ScalarKind::F32}) == "(x * 300.0f)");
  ScalarExpr pick = ScalarExpr::select(ScalarExpr::binary(ScalarOp::Lt, x, half), x, half);
  CHECK(scalar_c(pick, {"x"}, {ScalarKind::F32}) == "((x < 0.5f) ? x : 0.5f)");
  // An i32 selection's condition goes through tessera_cond (NVIDIA's integer max/min folding,
  // codegen/Portability.h); a float one does not.
  ScalarExpr y = ScalarExpr::param(1);
  ScalarExpr larger = ScalarExpr::select(ScalarExpr::binary(ScalarOp::Gt, x, y), x, y);
  CHECK(scalar_c(larger, {"a", "b"}, {ScalarKind::I32, ScalarKind::I32}) ==
        "(tessera_cond((a > b)) ? a : b)");
  CHECK(scalar_c(larger, {"a", "b"}, {ScalarKind::F32, ScalarKind::F32}) == "((a > b) ? a : b)");
}

// A sum of hundreds of terms (a 343-point stencil) must stay under the compilers' limit on
// nested parentheses (clang: 256): beyond 64 operations a left-grouped chain of + and - is
// written without its inner parentheses, which C groups the same way; shorter ones keep them.
TEST_CASE("long sums are written without nesting their parentheses") {
  auto sum_of = [](int terms) {
    ScalarExpr two = ScalarExpr::constant(ScalarValue::make(ScalarKind::F64, 2), true);
    ScalarExpr sum = ScalarExpr::param(0);
    for (int i = 1; i < terms; ++i) {
      ScalarExpr term = ScalarExpr::binary(ScalarOp::Mul, two, ScalarExpr::param(i));
      sum = ScalarExpr::binary(i % 3 ? ScalarOp::Add : ScalarOp::Sub, sum, term);
    }
    return sum;
  };
  auto depth = [](const std::string& text) {
    int open = 0, most = 0;
    for (char c : text) {
      open += c == '(' ? 1 : c == ')' ? -1 : 0;
      most = std::max(most, open);
    }
    return most;
  };
  std::vector<std::string> names;
  for (int i = 0; i < 343; ++i)
    names.push_back(cat("p", i));
  std::vector<ScalarKind> kinds(343, ScalarKind::F32);
  std::string short_sum = scalar_c(sum_of(4), names, kinds);
  CHECK(short_sum == "(((p0 + (2.0f * p1)) + (2.0f * p2)) - (2.0f * p3))");
  std::string long_sum = scalar_c(sum_of(343), names, kinds);
  CHECK(long_sum.rfind("(p0 + (2.0f * p1) + (2.0f * p2) - (2.0f * p3) + ", 0) == 0);
  CHECK(long_sum.find(" - (2.0f * p342))") == long_sum.size() - 17);
  CHECK(depth(long_sum) == 2);
  CHECK(depth(scalar_c(sum_of(65), names, kinds)) == 65); // 64 operations: as before
  CHECK(depth(scalar_c(sum_of(66), names, kinds)) == 2);
}
