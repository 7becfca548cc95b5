// The device a program is made for, as the rules, the code generator and the explorer read it:
// one plain value, made once. Without a device in sight it is the portable target (the
// defaults below: what every device tessera targets allows); from an OpenCL device,
// runtime::target_of (runtime/DeviceTarget.h) fills in what the device reports, and
// common_target gives the limits several devices share.
#pragma once

#include <array>
#include <cstdint>

namespace tessera {

enum class DeviceKind { Other, CPU, GPU };

// The device's images (place-image): none unless the device says it supports them
// (CL_DEVICE_IMAGE_SUPPORT), and the largest extents (CL_DEVICE_IMAGE2D_MAX_WIDTH, ...).
struct ImageLimits {
  bool supported = false;
  int64_t width_2d = 0, height_2d = 0;
  int64_t width_3d = 0, height_3d = 0, depth_3d = 0;
  bool operator==(const ImageLimits&) const = default;
};

// Target::max_private_bytes_per_group's value: a quarter of what crashed PoCL.
constexpr int64_t kCpuPrivateBytesPerGroup = 1 << 20;

struct Target {
  // A CPU (PoCL): it runs a work-group as a loop over its work-items, vectorised along
  // dimension 0, one work-group per core at a time; the explorer also tries large, row-shaped
  // work-groups there and the enumeration coarsening factors of whole vector widths.
  DeviceKind kind = DeviceKind::Other;
  bool pocl = false; // PoCL's device (its compiler keeps a disk cache of its own)

  // Work-groups: at most 1024 work-items, {1024, 1024, 64} per dimension (what NVIDIA, AMD
  // ROCm and Intel GPUs and PoCL all launch).
  int64_t max_work_group_size = 1024;
  std::array<int64_t, 3> max_work_item_sizes{1024, 1024, 64};

  // Local memory a work-group may allocate (CL_DEVICE_LOCAL_MEM_SIZE); portable: OpenCL's
  // minimum, 32 KiB. The explorer drops a variant whose kernels need more.
  int64_t local_memory_bytes = 32 * 1024;
  // Local memory the streaming forms are planned for (stream-temporal's windows, the register
  // window's double-buffered centre planes): 48 KiB, the least of common GPUs without an
  // opt-in, and no more than the device has. (A variant planned for more than
  // local_memory_bytes is dropped at that limit.)
  int64_t stream_local_bytes = 48 * 1024;

  // Constant memory (place-constant): bytes for all __constant inputs together and the number
  // of __constant arguments; portable: OpenCL's minimum for every device.
  int64_t max_constant_bytes = 64 * 1024;
  int max_constant_args = 8;
  ImageLimits images;

  // Registers, which OpenCL does not report: those of a GPU multiprocessor (64K on NVIDIA),
  // of which a work-group of g work-items gets at most registers_per_group / g each (the
  // register window may take half); and the register window's values per work-item beyond
  // which they would spill (255 registers per work-item on NVIDIA, also holding the rest).
  int64_t registers_per_group = 65536;
  int64_t register_window_values = 128;

  // A work-item's private arrays live in registers or, on CPU implementations, on a small
  // per-work-item stack: a big one spills on GPUs and, times the work-group size, overflows the
  // stack on PoCL (34x34 floats per work-item crashed it). The limit holds for all the arrays of
  // one intermediate together (core/WorkItemMemory.h, codegen/Storage.cpp).
  int64_t max_private_elements = 1024;
  // On a CPU, the private arrays of all of a work-group's work-items together (PoCL 3.1 keeps them
  // on one thread's stack: 4 MiB crashed it, 2 MiB ran): explicit work-groups beyond it are not
  // explored, and open ones are chosen within it (compile/CpuWorkGroup.h).
  int64_t max_private_bytes_per_group = kCpuPrivateBytesPerGroup;

  bool cpu() const { return kind == DeviceKind::CPU; }
  // Whether max_private_bytes_per_group bounds a work-group (a CPU's, or PoCL's).
  bool private_arrays_on_one_stack() const { return cpu() || pocl; }
  bool operator==(const Target&) const = default;
};

// The limits both `a` and `b` meet (one enumeration shared by several devices): the smaller of
// each limit, images only where both have them, a kind only where both are of it.
Target common_target(const Target& a, const Target& b);

} // namespace tessera
