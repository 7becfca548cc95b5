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
std::string portability_preamble();

} // namespace tessera::codegen
