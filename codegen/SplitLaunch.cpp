#include "codegen/SplitLaunch.h"

#include "codegen/Stages.h"
#include "codegen/TimeTiled.h"
#include "core/Error.h"

namespace tessera::codegen {

int64_t interior_row(int64_t extent) {
  if (extent <= kLongestRow)
    return extent;
  // Every multiple of kShortestRow has one: at most kShortestRow - 1 steps.
  for (int64_t row = extent;; --row)
    for (int64_t d = kShortestRow; d <= kLongestRow; ++d)
      if (row % d == 0)
        return row;
}

std::vector<LaunchPart> interior_and_slabs(const std::vector<int64_t>& global, int64_t margin,
                                           bool whole_rows) {
  const std::size_t dims = global.size();
  if (margin < 1)
    internal_error(cat("a split launch's margin must be positive, got ", margin));
  LaunchPart interior{std::vector<int64_t>(dims, margin), global};
  for (std::size_t a = 0; a < dims; ++a) {
    if (global[a] < 2 * margin + 1)
      user_error(cat("a range of ", global[a], " work-items along dimension ", a,
                     " has no interior ", margin, " from both ends (at least ", 2 * margin + 1,
                     " expected)"));
    interior.extent[a] = global[a] - 2 * margin;
  }
  if (whole_rows)
    interior.extent[0] = interior_row(interior.extent[0]);
  std::vector<LaunchPart> parts{interior};
  // From the outermost axis in: the slabs along axis a span the interior along the axes outside
  // (done already) and the whole range along those inside; the upper one is what the interior
  // leaves (wider than the margin along x where the interior's rows were rounded down).
  LaunchPart slab = interior;
  for (std::size_t a = dims; a-- > 0;) {
    for (std::size_t inner = 0; inner < a; ++inner) {
      slab.offset[inner] = 0;
      slab.extent[inner] = global[inner];
    }
    slab.extent[a] = margin;
    slab.offset[a] = 0;
    parts.push_back(slab);
    slab.offset[a] = interior.offset[a] + interior.extent[a];
    slab.extent[a] = global[a] - slab.offset[a];
    parts.push_back(slab);
    slab.offset[a] = interior.offset[a];
    slab.extent[a] = interior.extent[a];
  }
  return parts;
}

KernelProgram generate_split_program(const Expr& program, const CodegenOptions& options) {
  if (options.interior_only || options.in_place || options.colour_parity >= 0)
    internal_error("a split launch's options are the whole kernel's (no interior_only, in_place "
                   "or colour_parity)");
  for (int64_t l : options.local_size)
    if (l != 0)
      user_error("a split launch takes no work-group size: each of its parts gets the one its "
                 "shape needs when it is launched");
  const std::string no_split = "the program has no split launch: ";
  // Refused before anything is generated: the variant list asks every program.
  if (time_tile_of(program) || split_into_stages(program).size() != 1)
    user_error(cat(no_split, "it is several launches, not one kernel"));
  KernelProgram whole = generate_program(program, options); // one stage: one launch
  const Kernel& kernel = whole.kernels[0];
  std::vector<int64_t> global;
  for (int d = 0; d < kernel.launch.dims; ++d) {
    auto g = kernel.launch.global[static_cast<std::size_t>(d)].as_constant();
    if (!g)
      user_error(cat(no_split, "its global size along dimension ", d,
                     " is not a constant (bake the sizes)"));
    global.push_back(*g);
  }
  CodegenOptions interior_options = options;
  interior_options.kernel_name = options.kernel_name + "_interior";
  interior_options.interior_only = true;
  Kernel interior = generate_kernel(program, interior_options);
  const int64_t margin = interior.interior_margin;
  if (margin == 0)
    user_error(cat(no_split, "its kernel has no interior version (one work-item per point, every "
                             "axis a MapGlb, no work-group size, boundary conditionals to drop)"));
  KernelLaunch whole_launch = whole.launches[0];
  KernelProgram split = whole;
  split.kernels.insert(split.kernels.begin(), std::move(interior));
  split.launches.clear();
  split.split_margin = margin;
  for (const auto& part : interior_and_slabs(global, margin, true)) {
    KernelLaunch launch = whole_launch;
    launch.kernel = split.launches.empty() ? 0 : 1;
    launch.offset = part.offset;
    launch.extent = part.extent;
    split.launches.push_back(std::move(launch));
  }
  return split;
}

} // namespace tessera::codegen
