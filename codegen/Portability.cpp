#include "codegen/Portability.h"

namespace tessera::codegen {

std::string portability_preamble() {
  return "#ifdef POCL_DEVICE_ADDRESS_BITS\n"
         "#define restrict /* PoCL 3.1 miscompiles restrict-qualified kernels (tessera issue 30) "
         "*/\n"
         "#endif\n";
}

} // namespace tessera::codegen
