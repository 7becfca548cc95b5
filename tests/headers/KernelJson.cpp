// tessera/Kernel.h alone is enough to use what it returns: the launch description's dump() needs
// nlohmann/json.hpp, which the header includes (a forward declaration did not compile this).
#include "tessera/Kernel.h"

std::string launch_text(const tessera::codegen::Kernel& kernel,
                        const tessera::explore::VariantInfo& variant) {
  return tessera::launch_description(kernel, variant).dump(2);
}
