// The typing rules of the scalar language shared by its three readers: type inference and
// evaluation (core/Scalar.cpp, core/ScalarEval.cpp), JSON (core/ScalarJson.cpp) and the OpenCL C
// printer (codegen/ScalarC.cpp). Weak literals (written without a type) adopt the kind of the
// operands next to them, so that `0.5 * x` stays f32 when x is f32.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/Scalar.h"

namespace tessera::scalar {

const std::map<std::string, int>& math_functions(); // name -> arity
// C's usual arithmetic conversions, restricted to tessera's scalars.
ScalarKind promote(ScalarKind a, ScalarKind b);
const char* op_symbol(ScalarOp op); // "+", "<=", "&&", ...
const char* op_name(ScalarOp op);   // the JSON name: "add", "le", ...
bool is_comparison(ScalarOp op);
bool is_logic(ScalarOp op);
bool is_weak_literal(const ScalarExpr& e);
// The kinds at which the operands of `e` are used, given their own kinds (in place: a span, so
// that the interpreter's evaluation of each node needs no allocation).
void use_operand_kinds(const ScalarExpr& e, std::span<ScalarKind> k);
// The result kind of `e` from the kinds its operands are used at.
ScalarKind result_kind(const ScalarExpr& e, std::span<const ScalarKind> k,
                       const std::string& context);
// The kind of every node of a body (by ScalarExpr::identity) for its parameters' kinds, by
// infer's rules; a node shared by several terms is typed once, so that a body built as a DAG of
// shared terms (multigrid's boundary formulas) is walked once, not once per path.
using NodeKinds = std::unordered_map<const void*, ScalarKind>;
ScalarKind infer_into(const ScalarExpr& e, const std::vector<ScalarKind>& params,
                      const std::string& context, NodeKinds& kinds);
// An integer result wrapped to `kind` like OpenCL C (two's complement).
ScalarValue make_int(ScalarKind kind, int64_t value);
// A double converted to an integer without undefined behaviour (NaN gives 0, saturating).
int64_t to_int64(double value);

} // namespace tessera::scalar
