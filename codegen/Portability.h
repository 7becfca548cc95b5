// What every generated kernel starts with so that it computes the right values on every OpenCL
// implementation it may be built by. The kernel files are written once (tessera emit,
// write_kernel_files) and built later by a device that the code generator does not know, so the
// workarounds are preprocessor conditions on the building compiler's own macros, not choices of
// the host.
#pragma once

#include <string>

namespace tessera::codegen {

// PoCL 3.1 (LLVM 15), with its default work-group method (loopvec), swaps lanes of a load in
// kernels whose pointers are `restrict`-qualified (2x2 work-groups reading a row-major array:
// tests/codegen/test_pocl_restrict.cpp keeps the probe). On PoCL (which defines
// POCL_DEVICE_ADDRESS_BITS for every kernel it builds) `restrict` is defined away; every other
// compiler keeps it.
// NVIDIA's OpenCL (driver 580, H100 and H200) folds compositions of 32-bit integer max/min over
// negated values wrongly at its default optimisation (max(max(a % 7, -a), min(a * a, a)) gave
// a % 7 for a = -94; -cl-opt-disable or 64-bit arithmetic give the right value: seed 3105 case
// 423 and seeds 6005, 6009, 6010 of tessera_fuzz on an H200). The condition of every selection
// of an i32 value is written tessera_cond(c): on NVIDIA (which defines __NV_CL_C_VERSION and the
// cl_nv_device_attribute_query extension's macro) a volatile the optimiser cannot see through,
// elsewhere c itself.
std::string portability_preamble();

} // namespace tessera::codegen
