// The exploration space: rewrite variants x numeric parameters, filtered by the device.
//
// A point is (variant, work-group size). The rewrite variants already carry their tile sizes
// and coarsening factors (rewrite::EnumerateOptions); the explorer adds the work-group size of
// kernels whose launch leaves it to the implementation (launch.local = 0, "auto"): such a
// kernel is tried with auto and with every candidate of work_group_candidates(dims) that the
// device allows (total and per-dimension limits) and that divides the global size. Kernels
// that fix their work-group size (MapWrg/MapLcl) have one point. A variant whose kernel needs
// more local memory than the device has is filtered out.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "codegen/Program.h"
#include "core/Expr.h"
#include "core/Target.h"
#include "explore/Derivation.h"

namespace tessera::explore {

// One executable variant of the program (see rewrite::lowered_variants).
struct VariantInfo {
  Expr program;                          // lowered
  std::string text;                      // print(program), Lift notation
  Derivation history;                    // the rewrite steps and the mapping (explore/Derivation.h)
  std::map<std::string, int64_t> params; // the rule steps' parameters merged (tile, chunk, ...)
};

struct Point {
  int variant = 0;
  std::vector<int64_t> local;     // empty: the implementation chooses (auto)
  std::string local_text() const; // "auto", "32x8"
};

struct Space {
  // The device the points are for (runtime::target_of), or the portable target that
  // enumerate_variants (no device in sight) holds every variant to: its work-group limits
  // filter the points, its local memory the variants, and the kernels are generated for it.
  Target target;
  std::vector<VariantInfo> variants;
  // Per variant: its kernels with default options (one launch, or one per stage of a program
  // that one kernel cannot compute), or why they could not be generated.
  std::vector<std::optional<codegen::KernelProgram>> kernels;
  std::vector<std::string> generation_errors;
  std::vector<Point> points; // points[0] is the baseline: variant 0 with local = auto
  // (a space materialized lazily, explore/LazySpace.h, lists the points of the variants
  // generated so far; kernels of the others are empty)
  std::map<std::string, std::size_t> filtered; // reason -> number of points left out
  std::size_t filtered_count() const;
};

// "4096x4096" (also for work-group sizes).
std::string size_text(const std::vector<int64_t>& extents);

// Work-group sizes tried for kernels with an automatic work-group size, per number of
// dimensions (dimension 0 first, the contiguous one). On a CPU also few large work-groups, long
// along dimension 0 (whole rows of 512 or 1024 work-items, a few rows deep): fewer, larger
// loops for PoCL's work-group vectoriser and less scheduling per work-group.
std::vector<std::vector<int64_t>> work_group_candidates(int dims, bool cpu = false);

// The code generator's options for a point (sizes are baked: the programs have constant sizes).
codegen::CodegenOptions codegen_options(const Point& point, const std::string& kernel_name,
                                        const Target& target);

// Whether the variant's mapping is split-launch (rewrite/Mapping.h).
bool is_split_launch(const VariantInfo& variant);

// The kernels of a variant: codegen::generate_program, or for the split-launch mapping the split
// launch's program (codegen/SplitLaunch.h). Error from the code generator, naming why.
codegen::KernelProgram generate_variant(const VariantInfo& variant,
                                        const codegen::CodegenOptions& options);

// Why a kernel of the program cannot run on `target`: its fixed work-group size (over the total
// or a dimension's limit) or its local memory; "" when every kernel can.
std::string beyond_limits(const codegen::KernelProgram& program, const Target& target);

// Why work-groups of `local` cannot be used for `kernel` on `target` (a size over a limit or not
// dividing the range; on a CPU, the work-items' private arrays beyond
// Target::max_private_bytes_per_group), or "" when they can.
std::string work_group_unusable(const std::vector<int64_t>& local, const codegen::Kernel& kernel,
                                const Target& target);

// Generates the variant's default kernel into space.kernels and appends its points to
// space.points (or counts them in space.filtered) by the limits of space.target; returns the new
// points' ids. A variant that cannot be generated gets one point (the report says why). Variant 0
// (the baseline) keeps its automatic point whatever the limits.
std::vector<int> add_variant_points(Space& space, int variant,
                                    const std::string& kernel_name = "tessera_kernel");

// Generates every variant's default kernel and lists the points. Variant 0 must be the
// baseline; its auto point is always kept (even when a limit would filter it) as points[0].
Space build_space(std::vector<VariantInfo> variants, const Target& target,
                  const std::string& kernel_name = "tessera_kernel");

} // namespace tessera::explore
