// Several generated kernels' sources made one OpenCL program: program_file writes a program of
// kernels as one file; the compile layer builds the kernels of many programs at once
// (compile/KernelRunner.h's build_together), so that a device compiler's cost per program is
// paid once.
#pragma once

#include <string>
#include <vector>

#include "codegen/Kernel.h"

namespace tessera::codegen {

// Whether the kernels keep their names in the shared program (they differ, as a program's do) or
// each gets one of its own (name_k<index>: kernels of several programs may share a name).
enum class KernelNames { Kept, Unique };

struct SharedSources {
  std::vector<std::string> sources; // per kernel: its part of the program, in order
  std::vector<std::string> names;   // per kernel: its name in the program
  std::string text() const;         // the parts concatenated
};

// A helper that an earlier kernel defines with the same text is left out. When a kernel defines a
// name an earlier one defines otherwise, each of its helpers whose name is taken is kept and
// renamed within its source (#define name name_<kernel name> ... #undef name, or name_k<index>
// with unique kernel names): its helpers then call its own definitions.
SharedSources shared_sources(const std::vector<Kernel>& kernels,
                             KernelNames names = KernelNames::Kept);

} // namespace tessera::codegen
