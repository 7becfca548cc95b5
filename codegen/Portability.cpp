#include "codegen/Portability.h"

namespace tessera::codegen {

std::string portability_preamble() {
  return "#ifdef POCL_DEVICE_ADDRESS_BITS\n"
         "#define restrict /* PoCL 3.1 miscompiles restrict-qualified kernels (tessera issue 30) "
         "*/\n"
         "#endif\n"
         "#if defined(__NV_CL_C_VERSION) || defined(cl_nv_device_attribute_query)\n"
         "/* NVIDIA's OpenCL (driver 580) folds 32-bit integer max/min of negated values wrongly\n"
         "   (tessera issue 30): an integer selection's condition goes through a volatile. */\n"
         "int tessera_cond(int c) { volatile int v = c; return v; }\n"
         "#else\n"
         "#define tessera_cond(c) (c)\n"
         "#endif\n";
}

} // namespace tessera::codegen
