#include "tools/InterpreterMemory.h"

#include "core/Error.h"
#include "tools/HostMemory.h"

namespace tessera::tools {

namespace {

constexpr double kBytesPerValueAndDimension = 1200;

} // namespace

double interpreter_bytes(const Expr& program, std::size_t points) {
  const auto inputs = input_types(program);
  const std::size_t dims = inputs.empty() ? 1 : inputs.front().shape().size();
  return kBytesPerValueAndDimension * static_cast<double>(inputs.size() * dims) *
         static_cast<double>(points);
}

void check_fixed_size_interpreter(const Expr& program, std::size_t points,
                                  const std::string& size) {
  const double needed = interpreter_bytes(program, points);
  const double available = available_memory();
  if (available > 0 && needed > 0.8 * available)
    user_error(cat("the program's sizes are constants (", size,
                   "), so the reference interpreter "
                   "checks it on the whole grid, which needs about ",
                   gigabytes(needed), " of host memory (", points, " points, ",
                   input_types(program).size(), " inputs), more than the ",
                   gigabytes(0.8 * available),
                   " this process can use: save the program with size "
                   "variables (--size gives their values; a small grid of the same program then "
                   "checks it), or at a smaller size"));
}

} // namespace tessera::tools
