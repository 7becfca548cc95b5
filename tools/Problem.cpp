#include "tools/Problem.h"

#include "tools/InterpreterMemory.h"

namespace tessera::tools {

explore::Problem make_problem(const ProgramSource& source, const std::vector<int64_t>& extents,
                              int depth, rewrite::EnumerateOptions control) {
  auto build = [&](const std::vector<int64_t>& at) {
    const auto& sized = source.fixed_size ? extents : at;
    return source.info.build(std::vector<ArithExpr>(sized.begin(), sized.end()));
  };
  if (source.fixed_size) // its own small program: the interpreter checks the whole grid
    check_fixed_size_interpreter(build(extents), explore::cells(extents),
                                 explore::size_text(extents));
  auto problem = explore::make_problem(source.info.name, build, extents, depth, std::move(control));
  if (source.fixed_size)
    problem.small_extents = extents;
  return problem;
}

} // namespace tessera::tools
