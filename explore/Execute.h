// Running a generated kernel on host data: binds the size variables from the inputs' lengths,
// uploads the inputs, launches with the kernel's launch description and reads the result back
// as Data shaped like the program's result type. This is what checks a kernel against the
// reference interpreter.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "core/Data.h"
#include "explore/runtime/Session.h"

namespace tessera::explore {

struct Execution {
  Data output;
  double kernel_ms = 0; // from profiling events
  std::map<std::string, int64_t> sizes;
};

Execution execute(runtime::Session& session, const codegen::Kernel& kernel,
                  const std::vector<Data>& inputs);

// Largest absolute difference relative to max(1, |reference|) over all scalars; throws Error
// when the shapes differ.
double max_relative_error(const Data& result, const Data& reference);

} // namespace tessera::explore
