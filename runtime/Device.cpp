#include "runtime/Device.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iomanip>
#include <sstream>

#include "core/Bytes.h"
#include "core/Error.h"
#include "runtime/ClError.h"

namespace tessera::runtime {

namespace {

const char* const kPoclPlatform = "Portable Computing Language";

std::string lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// OpenCL strings often carry a trailing NUL or spaces.
std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back()))))
    s.pop_back();
  std::size_t start = 0;
  while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start])))
    ++start;
  return s.substr(start);
}

std::string type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU)
    return "GPU";
  if (type & CL_DEVICE_TYPE_CPU)
    return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  if (type & CL_DEVICE_TYPE_CUSTOM)
    return "custom";
  return "default";
}

template <cl_int Name, class T> T info(const cl::Device& device, T fallback) {
  T value{};
  if (device.getInfo(Name, &value) != CL_SUCCESS)
    return fallback;
  return value;
}

Device describe(const cl::Platform& platform, const cl::Device& device, int index,
                int platform_index, int device_index) {
  Device d;
  d.platform = platform;
  d.device = device;
  d.index = index;
  d.platform_index = platform_index;
  d.device_index = device_index;
  std::string text;
  if (platform.getInfo(CL_PLATFORM_NAME, &text) == CL_SUCCESS)
    d.platform_name = trim(text);
  if (platform.getInfo(CL_PLATFORM_VERSION, &text) == CL_SUCCESS)
    d.platform_version = trim(text);
  d.name = trim(info<CL_DEVICE_NAME>(device, std::string("?")));
  d.vendor = trim(info<CL_DEVICE_VENDOR>(device, std::string()));
  d.version = trim(info<CL_DEVICE_VERSION>(device, std::string()));
  d.driver_version = trim(info<CL_DRIVER_VERSION>(device, std::string()));
  d.type = type_name(info<CL_DEVICE_TYPE>(device, cl_device_type{0}));
  d.max_work_group_size = info<CL_DEVICE_MAX_WORK_GROUP_SIZE>(device, std::size_t{1});
  d.max_work_item_sizes =
      info<CL_DEVICE_MAX_WORK_ITEM_SIZES>(device, std::vector<std::size_t>{1, 1, 1});
  d.local_mem_size = info<CL_DEVICE_LOCAL_MEM_SIZE>(device, cl_ulong{0});
  d.global_mem_size = info<CL_DEVICE_GLOBAL_MEM_SIZE>(device, cl_ulong{0});
  d.max_mem_alloc_size = info<CL_DEVICE_MAX_MEM_ALLOC_SIZE>(device, cl_ulong{0});
  d.global_mem_cache_size = info<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>(device, cl_ulong{0});
  d.compute_units = info<CL_DEVICE_MAX_COMPUTE_UNITS>(device, cl_uint{0});
  d.max_clock_mhz = info<CL_DEVICE_MAX_CLOCK_FREQUENCY>(device, cl_uint{0});
  d.supports_double = info<CL_DEVICE_DOUBLE_FP_CONFIG>(device, cl_device_fp_config{0}) != 0;
  d.max_constant_buffer_size =
      info<CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE>(device, cl_ulong{d.max_constant_buffer_size});
  d.max_constant_args = info<CL_DEVICE_MAX_CONSTANT_ARGS>(device, cl_uint{d.max_constant_args});
  d.image_support = info<CL_DEVICE_IMAGE_SUPPORT>(device, cl_bool{CL_FALSE}) == CL_TRUE;
  if (d.image_support) {
    d.image2d_max_width = info<CL_DEVICE_IMAGE2D_MAX_WIDTH>(device, std::size_t{0});
    d.image2d_max_height = info<CL_DEVICE_IMAGE2D_MAX_HEIGHT>(device, std::size_t{0});
    d.image3d_max_width = info<CL_DEVICE_IMAGE3D_MAX_WIDTH>(device, std::size_t{0});
    d.image3d_max_height = info<CL_DEVICE_IMAGE3D_MAX_HEIGHT>(device, std::size_t{0});
    d.image3d_max_depth = info<CL_DEVICE_IMAGE3D_MAX_DEPTH>(device, std::size_t{0});
  }
  return d;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

} // namespace

std::string Device::description() const {
  std::ostringstream out;
  out << "#" << index << " [" << platform_index << ":" << device_index << "] " << name << " ("
      << platform_name << "; " << type << "; " << compute_units << " compute units; "
      << format_bytes(global_mem_size) << " global, " << format_bytes(local_mem_size)
      << " local; max work-group " << max_work_group_size << ")";
  return out.str();
}

std::string Device::identity() const {
  return cat(platform_name, " | ", platform_version, " | ", name, " | ", version, " | ",
             driver_version);
}

bool Device::is_pocl() const {
  return platform_name == kPoclPlatform;
}

MemoryLimits usable_memory(const Device& device) {
  // A driver that reports 0 does not know: no limit.
  auto known = [](uint64_t bytes) { return bytes > 0 ? bytes : UINT64_MAX; };
  MemoryLimits limits{known(device.global_mem_size), known(device.max_mem_alloc_size)};
  if (const char* cap = std::getenv("TESSERA_DEVICE_MEMORY")) {
    const uint64_t limit = std::strtoull(cap, nullptr, 10);
    if (limit == 0)
      user_error(cat("TESSERA_DEVICE_MEMORY=", cap, ": expected a number of bytes"));
    limits.total = std::min(limits.total, limit);
    limits.largest_buffer = std::min(limits.largest_buffer, limit);
  }
  return limits;
}

std::vector<Device> list_devices() {
  // PoCL runs a work-group on one thread and keeps every work-item's private arrays on that
  // thread's stack; left to choose, it picks work-groups of thousands of work-items, and kernels
  // with private arrays then overflow the stack (a segmentation fault inside the kernel, seen
  // with 64x32). 1024, the usual GPU limit, keeps the same variants launchable on both. Set
  // before PoCL initialises; a user's value wins.
  ::setenv("POCL_MAX_WORK_GROUP_SIZE", "1024", 0);
  std::vector<cl::Platform> platforms;
  cl_int err = cl::Platform::get(&platforms);
  if (err != CL_SUCCESS)
    return {}; // CL_PLATFORM_NOT_FOUND_KHR: no ICD installed
  std::vector<Device> devices;
  int index = 0;
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    std::vector<cl::Device> found;
    if (platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &found) != CL_SUCCESS)
      continue;
    for (std::size_t d = 0; d < found.size(); ++d)
      devices.push_back(
          describe(platforms[p], found[d], index++, static_cast<int>(p), static_cast<int>(d)));
  }
  return devices;
}

std::string missing_device_message(const std::vector<Device>& devices, const std::string& spec) {
  if (devices.empty())
    return cat("no OpenCL device found", spec.empty() ? "" : cat(" (wanted \"", spec, "\")"),
               ": the OpenCL ICD loader found no platform. Install an OpenCL driver, e.g. the "
               "portable CPU implementation: apt-get install pocl-opencl-icd (check with "
               "`clinfo -l`)");
  std::ostringstream out;
  out << "no OpenCL device matches \"" << spec
      << "\" (a spec is empty, a device index N, P:D for platform P device D, or a "
         "case-insensitive substring of the device or platform name); available devices:";
  for (const auto& d : devices)
    out << "\n  " << d.index << "  [" << d.platform_index << ":" << d.device_index << "]  "
        << d.platform_name << "  /  " << d.name << "  (" << d.type << ")";
  return out.str();
}

Device select_device_among(const std::vector<Device>& devices, const std::string& raw_spec) {
  std::string spec = trim(raw_spec);
  if (devices.empty())
    user_error(missing_device_message(devices, spec));
  if (spec.empty()) {
    for (const auto& d : devices)
      if (d.platform_name == kPoclPlatform)
        return d;
    return devices.front();
  }
  if (all_digits(spec)) {
    std::size_t n = std::stoul(spec);
    if (n < devices.size())
      return devices[n];
    user_error(missing_device_message(devices, spec));
  }
  auto colon = spec.find(':');
  if (colon != std::string::npos && all_digits(spec.substr(0, colon)) &&
      all_digits(spec.substr(colon + 1))) {
    int p = std::stoi(spec.substr(0, colon));
    int d = std::stoi(spec.substr(colon + 1));
    for (const auto& dev : devices)
      if (dev.platform_index == p && dev.device_index == d)
        return dev;
    user_error(missing_device_message(devices, spec));
  }
  std::string wanted = lower(spec);
  // Device names first, so that "cpu" picks a device called "cpu-..." before a platform match.
  for (const auto& d : devices)
    if (lower(d.name).find(wanted) != std::string::npos)
      return d;
  for (const auto& d : devices)
    if (lower(d.platform_name).find(wanted) != std::string::npos ||
        lower(d.vendor).find(wanted) != std::string::npos || lower(d.type) == wanted)
      return d;
  user_error(missing_device_message(devices, spec));
}

Device select_device(const std::string& spec) {
  return select_device_among(list_devices(), spec);
}

Device select_device_from_env(const std::string& spec) {
  if (!trim(spec).empty())
    return select_device(spec);
  const char* env = std::getenv("TESSERA_DEVICE");
  if (env == nullptr || trim(env).empty())
    return select_device("");
  try {
    return select_device(env);
  } catch (const Error& e) {
    user_error(cat("TESSERA_DEVICE=\"", env, "\": ", e.what()));
  }
}

} // namespace tessera::runtime
