#include "tools/Problem.h"

namespace tessera::tools {

explore::Problem make_problem(const stencils::StencilInfo& info,
                              const std::vector<int64_t>& extents, int depth,
                              rewrite::EnumerateOptions control) {
  return explore::make_problem(info.name, extents, info.build, depth, std::move(control));
}

} // namespace tessera::tools
