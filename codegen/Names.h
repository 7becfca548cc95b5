// Names in generated OpenCL C: identifiers made from user-given names, the names OpenCL C and
// the generator reserve, and the parameters of user functions.
#pragma once

#include <string>
#include <vector>

#include "core/Scalar.h"

namespace tessera::codegen {

// `name` with every character that cannot appear in a C identifier replaced by '_' (and a
// prefix when it would start with a digit).
std::string sanitize(const std::string& name);

// A valid OpenCL C identifier for kernels named after `name` (a stencil's): characters that
// cannot appear in one replaced by '_', and "k_" before a name that starts with a digit or is an
// OpenCL C keyword or type name.
std::string kernel_identifier(const std::string& name);

// Names the generator itself uses or OpenCL C reserves (keywords, types, built-in functions).
bool is_reserved(const std::string& name);

// The parameter names of a user function's C definition: the names it was given (made valid
// and distinct, never a reserved name such as a math function the body may call), else a, b,
// c, ... and p26, p27, ...
std::vector<std::string> user_fun_param_names(const UserFunDef& def, std::size_t count);

} // namespace tessera::codegen
