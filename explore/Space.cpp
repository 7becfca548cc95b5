#include "explore/Space.h"

#include <algorithm>
#include <sstream>

#include "codegen/SplitLaunch.h"
#include "core/Error.h"

namespace tessera::explore {

std::string size_text(const std::vector<int64_t>& extents) {
  std::ostringstream s;
  for (std::size_t i = 0; i < extents.size(); ++i)
    s << (i ? "x" : "") << extents[i];
  return s.str();
}

std::string Point::local_text() const {
  return local.empty() ? "auto" : size_text(local);
}

std::size_t Space::filtered_count() const {
  std::size_t n = 0;
  for (const auto& [reason, count] : filtered)
    n += count;
  return n;
}

std::vector<std::vector<int64_t>> work_group_candidates(int dims, bool cpu) {
  std::vector<std::vector<int64_t>> sizes, large;
  switch (dims) {
  case 1:
    sizes = {{32}, {64}, {128}, {256}, {512}, {1024}};
    large = {{2048}, {4096}}; // where a CPU device allows them
    break;
  case 2:
    sizes = {{32, 8}, {64, 4}, {128, 1}, {256, 1}, {16, 16}, {64, 16}, {1024, 1}};
    large = {{512, 1}, {256, 4}, {512, 2}, {128, 8}};
    break;
  default:
    sizes = {{32, 4, 1}, {64, 2, 1}, {128, 1, 1}, {256, 1, 1}, {16, 8, 2}, {8, 8, 4}, {32, 8, 4}};
    large = {{512, 1, 1}, {1024, 1, 1}, {256, 4, 1}, {64, 16, 1}, {128, 8, 1}};
    break;
  }
  if (cpu)
    sizes.insert(sizes.end(), large.begin(), large.end());
  return sizes;
}

codegen::CodegenOptions codegen_options(const Point& point, const std::string& kernel_name,
                                        const Target& target) {
  codegen::CodegenOptions options;
  options.target = target;
  options.kernel_name = kernel_name;
  for (std::size_t d = 0; d < point.local.size() && d < 3; ++d)
    options.local_size[d] = point.local[d];
  return options;
}

bool is_split_launch(const VariantInfo& variant) {
  return variant.history.mapping &&
         variant.history.mapping->kind == rewrite::MappingKind::SplitLaunch;
}

codegen::KernelProgram generate_variant(const VariantInfo& variant,
                                        const codegen::CodegenOptions& options) {
  if (is_split_launch(variant))
    return codegen::generate_split_program(variant.program, options);
  return codegen::generate_program(variant.program, options);
}

std::string work_group_unusable(const std::vector<int64_t>& local, const codegen::Kernel& kernel,
                                const Target& target) {
  int64_t total = 1;
  for (std::size_t d = 0; d < local.size(); ++d) {
    total *= local[d];
    if (d < target.max_work_item_sizes.size() && local[d] > target.max_work_item_sizes[d])
      return cat("work-group size over the device's limit in dimension ", d);
    auto global = kernel.launch.global[d].as_constant();
    if (!global || *global % local[d] != 0)
      return "work-group size does not divide the global size";
  }
  if (total > target.max_work_group_size)
    return "work-group size over the device's maximum";
  if (target.private_arrays_on_one_stack() &&
      total * kernel.private_bytes > target.max_private_bytes_per_group)
    return cat("its work-items' private arrays (", kernel.private_bytes,
               " bytes each) would overflow a CPU thread's stack in a work-group this large (at "
               "most ",
               target.max_private_bytes_per_group, " bytes a work-group)");
  return "";
}

namespace {

int64_t local_memory_bytes(const codegen::KernelProgram& program) {
  int64_t most = 0;
  for (const auto& k : program.kernels)
    most = std::max(most, k.local_memory_bytes);
  return most;
}

// Why `local` cannot be used for some kernel of the program, or "" when it can be for all.
std::string unusable(const std::vector<int64_t>& local, const codegen::KernelProgram& program,
                     const Target& target) {
  for (const auto& k : program.kernels)
    if (std::string why = work_group_unusable(local, k, target); !why.empty())
      return why;
  return "";
}

} // namespace

std::string beyond_limits(const codegen::KernelProgram& program, const Target& target) {
  if (int64_t bytes = local_memory_bytes(program); bytes > target.local_memory_bytes)
    return cat("needs ", bytes, " bytes of local memory, more than ", target.local_memory_bytes);
  for (const auto& k : program.kernels) {
    int64_t total = 1;
    for (int d = 0; d < k.launch.dims; ++d) {
      int64_t local = std::max<int64_t>(1, k.launch.local[d]);
      total *= local;
      const auto dim = static_cast<std::size_t>(d);
      if (dim < target.max_work_item_sizes.size() && local > target.max_work_item_sizes[dim])
        return cat("kernel ", k.name, " launches work-groups of ", local,
                   " work-items in dimension ", d, ", more than ", target.max_work_item_sizes[dim]);
    }
    if (total > target.max_work_group_size)
      return cat("kernel ", k.name, " launches work-groups of ", total, " work-items, more than ",
                 target.max_work_group_size);
  }
  return "";
}

std::vector<int> add_variant_points(Space& space, int variant, const std::string& kernel_name) {
  const Target& target = space.target;
  const auto v = static_cast<std::size_t>(variant);
  if (variant < 0 || v >= space.variants.size())
    user_error(
        cat("variant ", variant, " is not in the space (", space.variants.size(), " variants)"));
  space.kernels.resize(space.variants.size());
  space.generation_errors.resize(space.variants.size());
  std::vector<int> ids;
  auto add = [&](std::vector<int64_t> local) {
    ids.push_back(static_cast<int>(space.points.size()));
    space.points.push_back({variant, std::move(local)});
  };
  std::optional<codegen::KernelProgram>& kernel = space.kernels[v];
  try {
    kernel = generate_variant(space.variants[v], codegen_options(Point{}, kernel_name, target));
  } catch (const Error& e) {
    space.generation_errors[v] = e.what();
  }
  if (!kernel) {
    add({}); // kept as a point so that the report shows why it failed
    return ids;
  }
  if (v > 0 && local_memory_bytes(*kernel) > target.local_memory_bytes) {
    ++space.filtered["needs more local memory than the device has"];
    return ids;
  }
  // The launch that writes the result decides the work-group sizes tried.
  const codegen::Kernel& last = kernel->kernels[kernel->launches.back().kernel];
  bool automatic = true;
  for (const auto& k : kernel->kernels)
    for (int d = 0; d < k.launch.dims; ++d)
      automatic &= k.launch.local[d] == 0;
  if (!automatic && v > 0) {
    // The variant fixes its work-group size: it must fit the device.
    std::vector<int64_t> fixed;
    for (int d = 0; d < last.launch.dims; ++d)
      fixed.push_back(std::max<int64_t>(1, last.launch.local[d]));
    std::string why = work_group_unusable(fixed, last, target);
    if (!why.empty()) {
      ++space.filtered[why];
      return ids;
    }
  }
  add({});
  // A split launch's parts each take the work-group their shape needs (launch_range): one point.
  if (!automatic || is_split_launch(space.variants[v]))
    return ids;
  for (const auto& local : work_group_candidates(last.launch.dims, target.cpu())) {
    std::string why = unusable(local, *kernel, target);
    if (why.empty())
      add(local);
    else
      ++space.filtered[why];
  }
  return ids;
}

Space build_space(std::vector<VariantInfo> variants, const Target& target,
                  const std::string& kernel_name) {
  if (variants.empty())
    user_error("the exploration space has no variants");
  Space space;
  space.target = target;
  space.variants = std::move(variants);
  for (std::size_t v = 0; v < space.variants.size(); ++v)
    add_variant_points(space, static_cast<int>(v), kernel_name);
  return space;
}

} // namespace tessera::explore
