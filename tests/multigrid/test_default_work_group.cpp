// The default lowering's work-group on a GPU (OperatorSpec::gpu_work_group): used where it fits
// the kernel's range, never on a CPU, never where a size does not divide the range.
#include <doctest/doctest.h>

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
