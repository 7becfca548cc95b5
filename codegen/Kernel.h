// The result of code generation: one OpenCL kernel and how to launch it.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/Expr.h"
#include "core/Target.h"
#include "core/Type.h"
#include "primitives/TypeCheck.h"

namespace tessera::codegen {

struct KernelParam {
  enum Role { Input, Output, Size } role = Input;
  std::string name;
  Type type = i32(); // Input/Output: the array type; Size: i32
  ScalarKind element = ScalarKind::I32;
  ArithExpr element_count;                   // Input/Output: number of scalars in the buffer
  AddressSpace space = AddressSpace::Global; // Input: Global, or Constant (__constant)
  // Input: the kernel also writes it (a scratch buffer between launches, codegen/TimeTiled.h):
  // a host must not create it read-only.
  bool written = false;
};

struct LaunchConfig {
  int dims = 1;
  std::array<ArithExpr, 3> global{ArithExpr(1), ArithExpr(1), ArithExpr(1)};
  // 0 means "let the OpenCL implementation choose" (global sizes are then exact).
  std::array<int64_t, 3> local{0, 0, 0};
};

struct Kernel {
  std::string name;
  std::string source;
  std::vector<KernelParam> params;
  LaunchConfig launch;
  Type output_type = f32();
  int64_t local_memory_bytes = 0;
  // The private arrays a work-item declares, in bytes (a CPU implementation keeps them for every
  // work-item of a group on one thread's stack: Target::max_private_bytes_per_group).
  int64_t private_bytes = 0;
  std::string program_text; // the program in Lift notation
  // Conditions on the size arguments that could not be decided when the kernel was generated
  // (e.g. (M - 3) % 2 == 0 for Slide(3,2) over [f32]_M): whoever binds the sizes must check
  // them (check_assumptions), or the kernel computes a result of the wrong shape.
  std::vector<Assumption> size_conditions;
  // Generated with CodegenOptions::in_place: the output may be the buffer of the input named
  // in_place_input.
  bool in_place = false;
  std::string in_place_input;
  // Generated with CodegenOptions::interior_only: the interior version exists and is exact on
  // the work-items at least this far from both ends of the global range along every axis (0:
  // no interior version; the kernel is then not one to launch).
  int64_t interior_margin = 0;
  // Generated with CodegenOptions::colour_parity applied: work-item i along x computes the point
  // x = 2 i + (the parity of the other indices plus colour_parity), within the interior alone.
  bool colour_strided = false;
  // Generated with interior_only, the interior guarded by its condition (CodegenOptions::
  // interior_rows, and every colour-strided kernel): it may run on whole rows along x.
  bool interior_rows = false;
  // CodegenOptions::index_gaps as generated.
  std::array<std::array<int64_t, 2>, 3> index_gaps{};
  // A description of the kernel's interface and launch, for users and reports.
  std::string describe() const;
};

struct CodegenOptions {
  std::string kernel_name = "tessera_kernel";
  // Size variables replaced by constants in the generated code; the others become arguments.
  std::map<std::string, int64_t> baked_sizes;
  // Work-group size per dimension; 0: the MapLcl extent inside MapWrg, unspecified for MapGlb.
  std::array<int64_t, 3> local_size{0, 0, 0};
  // Generate an interior without boundary conditionals plus a boundary part, where possible.
  bool split_interior = true;
  // The kernel may be launched with its output buffer also its input named `in_place_input`:
  // neither pointer is restrict-qualified (the others keep it), and each result element is stored
  // only where it differs from what the output holds (`if (out[i] != v) out[i] = v;`, scalar stores
  // only). So a red-black half-sweep, whose result keeps the other colour's values, writes the
  // points of its colour alone. Exact for programs whose changed elements are read by no other
  // element's result (the caller's to know: red-black half-sweeps, where an updated point reads
  // only the other colour).
  bool in_place = false;
  std::string in_place_input = "u";
  // The interior version of the split alone, without its condition and without the boundary
  // part: launched on the work-items Kernel::interior_margin or more from every end of the
  // range (a global offset), while the whole kernel computes the rest, so that a CPU's
  // vectoriser sees a work-item loop without the branch. Plain kernels only (one work-item per
  // point, every axis a MapGlb, no work-group size).
  bool interior_only = false;
  // With interior_only, where >= 0: only the points whose index sum plus colour_parity is even
  // are computed, one work-item each (half as many along x; Kernel::colour_strided says whether
  // it applied). Exact only where the program leaves the other points as they are and the kernel
  // runs in place (the caller's to know: an in-place red-black half-sweep of that colour), so
  // that skipping them changes nothing; a CPU's half-sweep then computes half the points.
  int colour_parity = -1;
  // With colour_parity on a kernel that does not run in place: each work-item also stores the
  // other point of its pair along x (gid0 ^ 1), where that point is in the interior, with the
  // value there of the input of this name (of the output's type): an out-of-place red-black
  // half-sweep whose other colour keeps its values, on half the work-items, each of them busy
  // (a GPU's warp otherwise computes one colour on every other lane). Empty: no copy.
  std::string colour_pair_copy;
  // With interior_only: the interior body guarded by its own condition, so that a launch may
  // span whole rows along x (each row's work-items from 0: a GPU's warps aligned with the rows,
  // and any work-group width that divides the row; Kernel::interior_rows).
  bool interior_rows = false;
  // Per MapGlb dimension (OpenCL's x first), {at, skip}: work-item i computes index i where
  // i < at, else i + skip (skip 0: none), so that one launch of 2 * at work-items covers both ends
  // of a range of 2 * at + skip points and skips its middle (a split launch's parts around the
  // interior grouped by the dimensions they lie within it along: multigrid/Program.h). Plain
  // kernels only (one work-item per point, every axis a MapGlb, no work-group size, not
  // interior_only).
  std::array<std::array<int64_t, 2>, 3> index_gaps{};
  // The device the kernel is for (its private-array limit and the streaming forms' local memory);
  // the portable target by default.
  Target target;
};

// Generates the kernel of a lowered program (a lambda over typed inputs whose maps are
// MapGlb/MapWrg/MapLcl/MapSeq). Throws Error naming what cannot be generated and why.
Kernel generate_kernel(const Expr& program, const CodegenOptions& options = {});

} // namespace tessera::codegen
