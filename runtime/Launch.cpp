#include "runtime/Launch.h"

#include "core/Error.h"
#include "runtime/ClError.h"
#include "runtime/Device.h"
#include "runtime/Session.h"

namespace tessera::runtime {

namespace {

std::string where(const Kernel& kernel, const Range& global, const Range& local) {
  return cat("kernel '", kernel.name, "' (global ", global.str(), ", local ", local.str(), ")");
}

// CL_KERNEL_WORK_GROUP_SIZE; 0 when the driver does not say.
std::size_t reported_work_group_limit(const Device& device, const Kernel& kernel) {
  std::size_t limit = 0;
  if (kernel.kernel.getWorkGroupInfo(device.device, CL_KERNEL_WORK_GROUP_SIZE, &limit) !=
      CL_SUCCESS)
    return 0;
  return limit;
}

} // namespace

void set_args(Kernel& kernel, const std::vector<KernelArg>& args) {
  cl_uint expected = 0;
  if (kernel.kernel.getInfo(CL_KERNEL_NUM_ARGS, &expected) == CL_SUCCESS && expected != args.size())
    user_error(cat("kernel '", kernel.name, "' takes ", expected, " arguments, got ", args.size()));
  for (std::size_t i = 0; i < args.size(); ++i) {
    int err = args[i].set(kernel.kernel, static_cast<unsigned>(i));
    if (err != CL_SUCCESS)
      user_error(cat("setting argument ", i, " of kernel '", kernel.name, "' (", args[i].describe(),
                     ") failed: ", cl_error_name(err),
                     err == CL_INVALID_ARG_SIZE
                         ? " (the kernel parameter has a different size or address space)"
                         : ""));
  }
}

void check_launch(const Device& device, const Kernel& kernel, const Range& global,
                  const Range& local, KernelLimit limit) {
  auto fail = [&](const std::string& what) {
    user_error(
        cat("cannot launch ", where(kernel, global, local), " on ", device.name, ": ", what));
  };
  if (global.empty())
    fail("the global size is empty");
  for (int i = 0; i < global.dims(); ++i)
    if (global[i] == 0)
      fail(cat("the global size is 0 in dimension ", i));
  if (!local.empty()) {
    if (local.dims() != global.dims())
      fail(cat("the local size has ", local.dims(), " dimensions but the global size has ",
               global.dims()));
    for (int i = 0; i < local.dims(); ++i) {
      if (local[i] == 0)
        fail(cat("the local size is 0 in dimension ", i));
      if (global[i] % local[i] != 0)
        fail(cat("the local size ", local[i], " does not divide the global size ", global[i],
                 " in dimension ", i));
      if (static_cast<std::size_t>(i) < device.max_work_item_sizes.size() &&
          local[i] > device.max_work_item_sizes[static_cast<std::size_t>(i)])
        fail(cat("the local size ", local[i], " in dimension ", i,
                 " exceeds the device's maximum work-item size ",
                 device.max_work_item_sizes[static_cast<std::size_t>(i)]));
    }
    if (local.total() > device.max_work_group_size)
      fail(cat("a work-group of ", local.total(), " work-items exceeds the device's maximum ",
               device.max_work_group_size));
    std::array<std::size_t, 3> required{0, 0, 0};
    const bool declared =
        kernel.kernel.getWorkGroupInfo(device.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                       &required) == CL_SUCCESS &&
        required[0] != 0;
    if (declared)
      for (int i = 0; i < 3; ++i)
        if ((i < local.dims() ? local[i] : 1) != required[static_cast<std::size_t>(i)])
          fail(cat("the kernel requires the work-group size ", required[0], "x", required[1], "x",
                   required[2], " (reqd_work_group_size)"));
    // A kernel compiled for its declared work-group is not held to CL_KERNEL_WORK_GROUP_SIZE:
    // NVIDIA's driver reports 256 for such kernels whatever their registers (a 576-item
    // reqd_work_group_size kernel using 32 registers launched and ran), and a size the device
    // cannot run still fails at the launch with its OpenCL error.
    const std::size_t kernel_limit =
        declared || limit == KernelLimit::Driver ? 0 : reported_work_group_limit(device, kernel);
    if (kernel_limit != 0 && local.total() > kernel_limit)
      fail(cat("a work-group of ", local.total(), " work-items exceeds this kernel's maximum ",
               kernel_limit, " (limited by its register or local memory use)"));
  }
  cl_ulong local_bytes = 0;
  if (kernel.kernel.getWorkGroupInfo(device.device, CL_KERNEL_LOCAL_MEM_SIZE, &local_bytes) ==
          CL_SUCCESS &&
      device.local_mem_size != 0 && local_bytes > device.local_mem_size)
    fail(cat("the kernel uses ", local_bytes, " bytes of local memory but the device has ",
             device.local_mem_size));
}

cl::Event enqueue(Session& session, Kernel& kernel, const Range& global, const Range& local,
                  const Range& offset) {
  check_launch(session.device(), kernel, global, local, KernelLimit::Driver);
  return enqueue_checked(session, kernel, global, local, offset);
}

cl::Event enqueue_checked(Session& session, Kernel& kernel, const Range& global, const Range& local,
                          const Range& offset, bool profiled) {
  cl::NDRange g = global.dims() == 1   ? cl::NDRange(global[0])
                  : global.dims() == 2 ? cl::NDRange(global[0], global[1])
                                       : cl::NDRange(global[0], global[1], global[2]);
  cl::NDRange l = local.dims() == 0   ? cl::NullRange
                  : local.dims() == 1 ? cl::NDRange(local[0])
                  : local.dims() == 2 ? cl::NDRange(local[0], local[1])
                                      : cl::NDRange(local[0], local[1], local[2]);
  cl::NDRange o = offset.dims() == 0   ? cl::NullRange
                  : offset.dims() == 1 ? cl::NDRange(offset[0])
                  : offset.dims() == 2 ? cl::NDRange(offset[0], offset[1])
                                       : cl::NDRange(offset[0], offset[1], offset[2]);
  cl::Event event;
  cl_int err = session.queue().enqueueNDRangeKernel(kernel.kernel, o, g, l, nullptr,
                                                    profiled ? &event : nullptr);
  if (err != CL_SUCCESS) {
    const std::size_t reported = reported_work_group_limit(session.device(), kernel);
    check_cl(err, cat("launching ", where(kernel, global, local), " on ", session.device().name,
                      (err == CL_INVALID_WORK_GROUP_SIZE || err == CL_OUT_OF_RESOURCES) &&
                              !local.empty() && reported != 0
                          ? cat(" (the kernel reports a maximum work-group of ", reported,
                                " work-items, from its register and local memory use)")
                          : ""));
  }
  return event;
}

void run(Session& session, Kernel& kernel, const std::vector<KernelArg>& args, const Range& global,
         const Range& local) {
  set_args(kernel, args);
  cl::Event event = enqueue(session, kernel, global, local);
  check_cl(event.wait(),
           cat("running ", where(kernel, global, local), " on ", session.device().name));
}

EventTimes event_times(const cl::Event& event, const std::string& what) {
  cl_ulong start = 0, end = 0;
  check_cl(event.getProfilingInfo(CL_PROFILING_COMMAND_START, &start),
           "reading the start time of " + what);
  check_cl(event.getProfilingInfo(CL_PROFILING_COMMAND_END, &end),
           "reading the end time of " + what);
  return {start, end};
}

double event_ms(const cl::Event& event) {
  const EventTimes t = event_times(event);
  return t.end > t.start ? static_cast<double>(t.end - t.start) * 1e-6 : 0.0;
}

double run_timed(Session& session, Kernel& kernel, const std::vector<KernelArg>& args,
                 const Range& global, const Range& local, const Range& offset) {
  set_args(kernel, args);
  cl::Event event = enqueue(session, kernel, global, local, offset);
  check_cl(event.wait(),
           cat("running ", where(kernel, global, local), " on ", session.device().name));
  return event_ms(event);
}

} // namespace tessera::runtime
