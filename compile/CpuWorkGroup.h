// A CPU implementation's work-group for a kernel that leaves it open. PoCL vectorises a
// work-group's loop over x and pays for every work-group, and keeps the private arrays of all of
// a group's work-items on one thread's stack: left to choose, it took small cubes (a 7-point
// residual at 128^3 ran 2.7x slower than in rows), and groups of up to 4096 work-items, whose
// private arrays overflowed the stack (4 KiB a work-item crashed PoCL 3.1 in groups of 1024).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/Target.h"
#include "runtime/Range.h"

namespace tessera::explore {

// Rows along x and up to this many work-items a group: rows of at most 128 items, one row high,
// made a V(2,2)-cycle at 64^3 on PoCL 1.25x slower (BENCHMARKS.md, issue 34).
constexpr std::size_t kCpuWorkGroupItems = 512;

// Rows along x (the largest divisor of the global size that fits), then as many rows along the
// next axes as fit in kCpuWorkGroupItems work-items, and in `private_bytes_limit` bytes of the
// work-items' private arrays (`private_bytes` each; 0: none); every size divides the range.
runtime::Range cpu_work_group(const std::vector<std::size_t>& global,
                              std::size_t max_work_group_size,
                              const std::vector<std::size_t>& max_work_item_sizes,
                              int64_t private_bytes = 0, int64_t private_bytes_limit = 0);

// The work-group of a part of a kernel's range (a split launch's interior or slab): a row along
// the first axis of `part` longer than `thin`, one work-item along the others, within the same
// limits. The same shape for the parts of one form (PoCL compiles a kernel once for each
// work-group shape it is launched with).
runtime::Range cpu_part_group(std::vector<std::size_t> part, std::size_t thin,
                              std::size_t max_work_group_size,
                              const std::vector<std::size_t>& max_work_item_sizes,
                              int64_t private_bytes = 0, int64_t private_bytes_limit = 0);

} // namespace tessera::explore
