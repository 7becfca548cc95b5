#include "tessera/Device.h"

namespace tessera {

runtime::Session open_device(const std::string& spec) {
  return runtime::Session::from_env(spec);
}

} // namespace tessera
