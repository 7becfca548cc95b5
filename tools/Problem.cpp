#include "tools/Problem.h"

namespace tessera::tools {

explore::Problem make_problem(const stencils::StencilInfo& info,
                              const std::vector<int64_t>& extents, int depth) {
  return explore::make_problem(info.name, extents, info.build, depth);
}

} // namespace tessera::tools
