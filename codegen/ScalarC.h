// OpenCL C text of the scalar language: type names and user function bodies.
#pragma once

#include <string>
#include <vector>

#include "core/Scalar.h"

namespace tessera::codegen {

// "float", "double", "int", "uchar", "bool".
std::string scalar_c_type(ScalarKind kind);
// The body `e` as an OpenCL C expression over parameters with the given names and kinds. Weak
// literals are printed in the kind they adopt, so that float code stays float.
std::string scalar_c(const ScalarExpr& e, const std::vector<std::string>& names,
                     const std::vector<ScalarKind>& kinds);

} // namespace tessera::codegen
