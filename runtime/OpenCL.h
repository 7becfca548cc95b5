// The one place that includes the OpenCL C++ bindings, so that every file of tessera sees the
// same configuration. Exceptions of the bindings stay off: calls return error codes, which
// tessera turns into tessera::Error with the code's name (see ClError.h).
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 200
#endif
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif

#include <CL/opencl.hpp>
