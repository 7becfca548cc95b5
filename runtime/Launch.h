// Launching kernels: setting arguments, checking an NDRange against the device's and the
// kernel's limits before enqueueing it, and running it once (optionally timed through
// profiling events).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/Kernel.h"
#include "runtime/KernelArg.h"
#include "runtime/OpenCL.h"
#include "runtime/Range.h"

namespace tessera::runtime {

class Session;
struct Device;

// Sets all arguments; throws when their number differs from the kernel's or one is rejected
// (naming the argument's index and kind and the OpenCL error).
void set_args(Kernel& kernel, const std::vector<KernelArg>& args);

// Whether a work-group larger than the kernel's reported maximum (CL_KERNEL_WORK_GROUP_SIZE) is
// refused before the launch. NVIDIA's driver reports 256 for every kernel that declares no
// work-group size and runs 1024 (a 20-register 5-point stencil at 32x32 and 1024x1, H200): a
// launch leaves it to the driver's enqueue, which refuses what it cannot run; a choice among
// forms before any launch (a fused smoother's work-group, the one-launch coarse cycle's
// width, the roofline's copies) holds to the reported maximum.
enum class KernelLimit { Reported, Driver };

// Throws a tessera::Error explaining the problem when (global, local) cannot be launched:
// dimension mismatch, zero sizes, local not dividing global, work-group too large for the
// device or (with KernelLimit::Reported) the kernel, a local size over the per-dimension limit,
// a reqd_work_group_size mismatch, or more local memory than the device has.
void check_launch(const Device& device, const Kernel& kernel, const Range& global,
                  const Range& local, KernelLimit limit = KernelLimit::Reported);

// Checks (KernelLimit::Driver) and enqueues the kernel (arguments already set); returns its
// event. A work-group the driver refuses is an error that gives the kernel's reported maximum.
// `offset`: the global work offset (get_global_id counts from it; empty: from 0).
cl::Event enqueue(Session& session, Kernel& kernel, const Range& global, const Range& local = {},
                  const Range& offset = {});
// Enqueues without checking: for a launch an earlier enqueue checked (the same kernel and
// sizes), where the driver's answers would cost more than the launch (a multigrid cycle's small
// levels). With `profiled` false no event is made (an empty one is returned): an event costs
// the launch about 4 us on an H200, a third of a small level's kernel.
cl::Event enqueue_checked(Session& session, Kernel& kernel, const Range& global,
                          const Range& local = {}, const Range& offset = {}, bool profiled = true);

// Sets the arguments, launches and waits.
void run(Session& session, Kernel& kernel, const std::vector<KernelArg>& args, const Range& global,
         const Range& local = {});

// Like run (from the global work offset `offset`); returns the kernel's execution time in
// milliseconds measured by the profiling event (CL_PROFILING_COMMAND_START to _END).
double run_timed(Session& session, Kernel& kernel, const std::vector<KernelArg>& args,
                 const Range& global, const Range& local = {}, const Range& offset = {});

// The START and END times of a completed profiled event, in nanoseconds of the device's clock;
// `what` names the event in errors.
struct EventTimes {
  uint64_t start = 0, end = 0;
};
EventTimes event_times(const cl::Event& event, const std::string& what = "a profiled event");
// The START..END time of a completed profiled event, in milliseconds.
double event_ms(const cl::Event& event);

} // namespace tessera::runtime
