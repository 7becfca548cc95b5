// The typing rules of the scalar language shared by its evaluator (core/Scalar.cpp) and its
// OpenCL C printer (core/ScalarToC.cpp): C's usual arithmetic conversions restricted to
// tessera's scalars, and how weak literals adopt the kind of the operands next to them.
#pragma once

#include <string>
#include <vector>

#include "core/Scalar.h"

namespace tessera::scalar_rules {

// C's usual arithmetic conversions: small integers promote to i32, then the wider kind wins.
ScalarKind promote(ScalarKind a, ScalarKind b);
const char* op_symbol(ScalarOp op); // "+", "<=", "!", ...
bool is_comparison(ScalarOp op);
bool is_logic(ScalarOp op);
bool is_weak_literal(const ScalarExpr& e);
// The kinds at which the operands of `e` are used, given their own kinds.
std::vector<ScalarKind> operand_kinds(const ScalarExpr& e, std::vector<ScalarKind> k);
// The result kind of `e` from the kinds its operands are used at; checks the operands of '%'.
ScalarKind result_kind(const ScalarExpr& e, const std::vector<ScalarKind>& k,
                       const std::string& context);

} // namespace tessera::scalar_rules
