// tessera's public C++ API, part 3: a variant's OpenCL kernel and its launch description.
//
//   codegen::Kernel k = tessera::emit_kernel(variant, {.kernel_name = "blur"});
//   tessera::write_kernel_files(k, variant, "blur.cl", "blur.json");
// or, for any variant (an iterated stencil's is a program of kernels, one per step):
//   codegen::KernelProgram p = tessera::emit_program(variant, {.kernel_name = "heat"});
//   tessera::write_kernel_files(p, variant, "heat.cl", "heat.json");
//
// The kernel file is self-contained: a header comment gives the program in Lift notation, the
// rewrite history, the launch sizes and every argument with its name (the program's input
// names) and meaning; every line fits in 100 columns. The launch description (JSON) is what a
// plain OpenCL host program needs to run it (examples/host_runner.cpp):
//   {"format": "tessera-launch", "version": 2, "kernel": "blur", "dims": 2,
//    "global": [64, 16], "local": [16, 16] or null (the implementation chooses),
//    "arguments": [{"name": "x", "role": "input", "element": "f32", "count": 4096,
//                   "type": "[[f32]_64]_64", "access": "read", "meaning": "..."}, ...],
//    "local_memory_bytes": 0, "program": "...", "history": ["..."],
//    "mapping": {"kind": "work-groups", "dims": 2}}
// (the derivation as explore/Derivation.h writes it; version 1 had the mapping a "history" step).
// Extents over size variables appear as expressions ("N", "((N + 7) / 8) * 8"): the host passes
// the variables as int arguments (role "size") and computes the counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp> // the launch descriptions are returned as nlohmann::json

#include "codegen/Kernel.h"
#include "codegen/Program.h"
#include "explore/Space.h"

namespace tessera {

struct EmitOptions {
  std::string kernel_name = "tessera_kernel";
  // Work-group size per dimension, for kernels whose launch leaves it open (empty: open).
  std::vector<int64_t> local;
};

// The kernel of a lowered variant (rewrite::lowered_variants / enumerate_variants). Error
// naming what cannot be generated, and for a variant that needs several kernels (an iterated
// stencil, a computed argument: use emit_program).
codegen::Kernel emit_kernel(const explore::VariantInfo& variant, const EmitOptions& options = {});

// The kernels of a lowered variant: one launch, or one per step of a program of kernels
// (codegen::generate_program; the kernels are named kernel_name_s0, kernel_name_s1, ...).
codegen::KernelProgram emit_program(const explore::VariantInfo& variant,
                                    const EmitOptions& options = {});

// The kernel source with the header comment described above, lines wrapped at 100 columns.
std::string kernel_file(const codegen::Kernel& kernel, const explore::VariantInfo& variant);

// The launch description described above.
nlohmann::json launch_description(const codegen::Kernel& kernel,
                                  const explore::VariantInfo& variant);

// True when the program is one kernel alone: one launch of it on the program's inputs, without
// scratch buffers or per-launch argument values (a single-launch diamond tiling has both: it is
// described, written and run as a program of kernels).
bool is_one_kernel(const codegen::KernelProgram& program);

// A program of kernels: for one kernel (is_one_kernel) what kernel_file gives; for several, one
// source with a header listing every launch in order (its kernel, where it reads and writes),
// followed by each kernel with its own header. It builds as one OpenCL program: a helper that an
// earlier kernel defines alike is not written again; one of the same name defined otherwise is
// renamed within its kernel (#define name name_kernel ... #undef name).
std::string program_file(const codegen::KernelProgram& program,
                         const explore::VariantInfo& variant);

// For one kernel (is_one_kernel) what launch_description gives; otherwise {"format":
// "tessera-launch", "version": 2, "kernels": [each kernel's launch description], "buffers":
// [{"element", "count"}], "launches": [{"kernel": index, "inputs": [...], "output": ...,
// "arguments": {"inverted": 1}}], ...} where a buffer reference is {"input": i}, {"buffer": i}
// or "output"; "arguments" (only where a launch has them) are that launch's values of the
// kernel's size arguments; the launches run in order. An argument's "access" ("read",
// "read-write", "write") says how the kernel uses its buffer: a scratch buffer is read-write.
nlohmann::json launch_description(const codegen::KernelProgram& program,
                                  const explore::VariantInfo& variant);

// Writes kernel_file to `kernel_path` and, when `launch_path` is not empty, the launch
// description to it (both atomically: an existing file is replaced only when writing worked).
// Error, before anything is written, when a path may not be written (core/OutputPath.h) or both
// name the same file.
void write_kernel_files(const codegen::Kernel& kernel, const explore::VariantInfo& variant,
                        const std::string& kernel_path, const std::string& launch_path = "");
// The same for a program of kernels (emit_program): program_file and its launch description.
void write_kernel_files(const codegen::KernelProgram& program, const explore::VariantInfo& variant,
                        const std::string& kernel_path, const std::string& launch_path = "");

// OpenCL C source with every line longer than `width` broken at spaces between tokens:
// continuation lines are indented 4 more, comments continue as comments and preprocessor
// lines with a backslash.
std::string wrap_lines(const std::string& source, std::size_t width = 100);

} // namespace tessera
