#include "tools/Problem.h"

namespace tessera::tools {

explore::Problem make_problem(const stencils::StencilInfo& info,
                              const std::vector<int64_t>& extents, int depth) {
  auto build = [&](const std::vector<int64_t>& at) {
    return info.build(std::vector<ArithExpr>(at.begin(), at.end()));
  };
  return tessera::make_problem(info.name, build, extents, depth);
}

} // namespace tessera::tools
