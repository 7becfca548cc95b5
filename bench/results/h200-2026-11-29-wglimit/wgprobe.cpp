// Probe: does NVIDIA's OpenCL refuse work-groups above CL_KERNEL_WORK_GROUP_SIZE, and what does
// reqd_work_group_size or -cl-nv-maxrregcount change?
#define CL_HPP_TARGET_OPENCL_VERSION 300
#define CL_HPP_MINIMUM_OPENCL_VERSION 200

#include <CL/opencl.hpp>
#include <cstdio>
#include <string>
#include <vector>
static const char* body = R"(
void NAME(__global const float* restrict in, __global float* restrict out, int n) {
  int x = get_global_id(0), y = get_global_id(1);
  int xm = max(x - 1, 0), xp = min(x + 1, n - 1), ym = max(y - 1, 0), yp = min(y + 1, n - 1);
  out[y * n + x] = 0.2f * (in[y * n + x] + in[y * n + xm] + in[y * n + xp] + in[ym * n + x] + in[yp * n + x]);
})";
int main() {
  std::vector<cl::Platform> ps;
  cl::Platform::get(&ps);
  cl::Device dev;
  for (auto& p : ps) {
    std::vector<cl::Device> ds;
    p.getDevices(CL_DEVICE_TYPE_GPU, &ds);
    if (!ds.empty()) {
      dev = ds[0];
      break;
    }
  }
  printf("device %s, max wg %zu\n", dev.getInfo<CL_DEVICE_NAME>().c_str(),
         dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>());
  cl::Context ctx(dev);
  cl::CommandQueue q(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
  const int n = 8192;
  std::vector<float> h(size_t(n) * n, 1.0f);
  cl::Buffer in(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, h.size() * 4, h.data()),
      out(ctx, CL_MEM_READ_WRITE, h.size() * 4);
  struct Case {
    const char* label;
    std::string attr;
    std::string opts;
    size_t lx, ly;
  };
  std::vector<Case> cases = {
      {"plain 16x16", "", "", 16, 16},
      {"plain 32x32", "", "", 32, 32},
      {"plain 1024x1", "", "", 1024, 1},
      {"reqd 32x32", "__attribute__((reqd_work_group_size(32, 32, 1))) ", "", 32, 32},
      {"reqd 1024x1", "__attribute__((reqd_work_group_size(1024, 1, 1))) ", "", 1024, 1},
      {"maxrreg64 32x32", "", "-cl-nv-maxrregcount=64", 32, 32},
      {"verbose plain", "", "-cl-nv-verbose", 16, 16}};
  for (auto& c : cases) {
    std::string name = "k";
    std::string src = "__kernel " + c.attr + std::string(body);
    src.replace(src.find("NAME"), 4, name);
    cl::Program prog(ctx, src);
    if (prog.build({dev}, c.opts.c_str()) != CL_SUCCESS) {
      printf("%s: build failed: %s\n", c.label,
             prog.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev).c_str());
      continue;
    }
    cl::Kernel k(prog, "k");
    size_t wg = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev);
    cl_ulong priv = k.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(dev);
    k.setArg(0, in);
    k.setArg(1, out);
    k.setArg(2, n);
    std::string log = prog.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev);
    double best = 1e30;
    cl_int err = CL_SUCCESS;
    for (int r = 0; r < 10 && err == CL_SUCCESS; ++r) {
      cl::Event e;
      err = q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n, n), cl::NDRange(c.lx, c.ly),
                                   nullptr, &e);
      if (err == CL_SUCCESS) {
        e.wait();
        double ms = (e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                     e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                    1e-6;
        if (ms < best)
          best = ms;
      }
    }
    printf("%s: CL_KERNEL_WORK_GROUP_SIZE %zu, private %lu B, launch %s (err %d), best %.4f ms\n",
           c.label, wg, (unsigned long)priv, err == CL_SUCCESS ? "ok" : "REFUSED", err,
           err == CL_SUCCESS ? best : -1.0);
    if (!c.opts.empty() && c.opts.find("verbose") != std::string::npos)
      printf("log: %s\n", log.c_str());
  }
}
