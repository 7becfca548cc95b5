// OpenCL error codes as names ("CL_INVALID_WORK_GROUP_SIZE") and the check that turns a
// failing call into a tessera::Error.
#pragma once

#include <string>

namespace tessera::runtime {

// The symbolic name of an OpenCL error code, e.g. -54 -> "CL_INVALID_WORK_GROUP_SIZE";
// unknown codes give "unknown OpenCL error <code>".
std::string cl_error_name(int code);

// Throws tessera::Error "<what>: CL_NAME (code)" when code is not CL_SUCCESS.
void check_cl(int code, const std::string& what);

} // namespace tessera::runtime
