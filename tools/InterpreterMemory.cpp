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
  require_host_memory(interpreter_bytes(program, points),
                      cat("the program's sizes are constants (", size,
                          "), so the reference interpreter checks it on the whole grid, which"),
                      cat(" (", points, " points, ", input_types(program).size(), " inputs)"),
                      "save the program with size variables (--size gives their values; a small "
                      "grid of the same program then checks it), or at a smaller size");
}

} // namespace tessera::tools
