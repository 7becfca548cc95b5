// The default lowering's work-group on a GPU (OperatorSpec::gpu_work_group): used where it fits
// the kernel's range, never on a CPU, never where a size does not divide the range.
#include <doctest/doctest.h>

#include "compile/CpuWorkGroup.h"
#include "multigrid/Tuning.h"

using namespace tessera;
using namespace tessera::multigrid;

TEST_CASE(
    "default_work_group: the GPU's work-group where it divides the range, else the driver's") {
  const runtime::Range grid(512, 512, 512);
  CHECK(default_work_group({16, 8, 2}, grid, "GPU") == runtime::Range(16, 8, 2));
  CHECK(default_work_group({16, 8, 2}, grid, "ACCELERATOR") == runtime::Range(16, 8, 2));
  CHECK(default_work_group({16, 8, 2}, grid, "CPU").empty()); // PoCL: its own rows
  CHECK(default_work_group({}, grid, "GPU").empty());
  CHECK(default_work_group({16, 8, 2}, runtime::Range(8, 8, 8), "GPU").empty());   // 16 > 8
  CHECK(default_work_group({16, 8, 2}, runtime::Range(48, 24, 3), "GPU").empty()); // 2 !| 3
  CHECK(default_work_group({16, 8, 2}, runtime::Range(48, 24, 6), "GPU") ==
        runtime::Range(16, 8, 2));
  CHECK(default_work_group({16, 8}, grid, "GPU").empty()); // not the range's dimensions
  CHECK(default_work_group({16, 0, 2}, grid, "GPU").empty());
}

TEST_CASE("cpu_work_group: rows along x, then rows along y and z up to 512 work-items") {
  const std::vector<std::size_t> any{4096, 4096, 4096};
  auto group = [&](std::vector<std::size_t> global, std::size_t most = 4096) {
    return explore::cpu_work_group(global, most, any);
  };
  CHECK(group({64, 64, 64}) == runtime::Range::of({64, 8, 1}));
  CHECK(group({256, 256, 256}) == runtime::Range::of({256, 2, 1}));
  CHECK(group({1024, 1024}) == runtime::Range::of({512, 1}));
  // Short rows (the slab of a split launch across x): rows along y and z fill the group.
  CHECK(group({1, 62, 62}) == runtime::Range::of({1, 62, 2}));
  // A prime extent: its whole length, or 1 where it does not fit.
  CHECK(group({61, 64, 64}) == runtime::Range::of({61, 8, 1}));
  CHECK(group({521, 4}) == runtime::Range::of({1, 4}));
  // The device's limits.
  CHECK(group({64, 64, 64}, 128) == runtime::Range::of({64, 2, 1}));
  CHECK(explore::cpu_work_group({64, 64, 64}, 4096, {16, 16, 16}) ==
        runtime::Range::of({16, 16, 2}));
  // Every group divides its range.
  for (std::vector<std::size_t> g : {std::vector<std::size_t>{30, 18, 7}, {9, 9, 9}, {2, 3, 5}}) {
    runtime::Range r = group(g);
    std::size_t items = 1;
    for (int a = 0; a < 3; ++a) {
      CHECK(g[a] % r[a] == 0);
      items *= r[a];
    }
    CHECK(items <= explore::kCpuWorkGroupItems);
  }
  // Private arrays: the group holds at most kCpuPrivateBytesPerGroup of them (4 KiB each: 256).
  CHECK(explore::cpu_work_group({64, 64, 64}, 4096, any, 4096, kCpuPrivateBytesPerGroup) ==
        runtime::Range::of({64, 4, 1}));
  CHECK(explore::cpu_work_group({32, 128}, 4096, any, 1 << 21, kCpuPrivateBytesPerGroup) ==
        runtime::Range::of({1, 1}));
}
