// Diagnostic: clEnqueueFillBuffer over more than 2^31 bytes (NVIDIA). fill BYTES PATTERN_SIZE
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#include <CL/opencl.hpp>
#include <chrono>
#include <cstdio>
#include <vector>
using clk = std::chrono::steady_clock;
int main(int argc, char** argv) {
  size_t bytes = strtoull(argv[1], 0, 10), ps = atoi(argv[2]);
  std::vector<cl::Platform> ps_;
  cl::Platform::get(&ps_);
  std::vector<cl::Device> ds;
  ps_[0].getDevices(CL_DEVICE_TYPE_ALL, &ds);
  cl::Context ctx(ds[0]);
  cl::CommandQueue q(ctx, ds[0]);
  cl::Buffer b(ctx, CL_MEM_READ_WRITE, bytes);
  unsigned char pat[128] = {7, 7, 7, 7, 7, 7, 7, 7};
  for (auto& p : pat)
    p = 7;
  auto t0 = clk::now();
  cl_int err = clEnqueueFillBuffer(q(), b(), pat, ps, 0, bytes, 0, nullptr, nullptr);
  q.finish();
  unsigned char last[4] = {0, 0, 0, 0};
  q.enqueueReadBuffer(b, CL_TRUE, bytes - 4, 4, last);
  printf("fill %zu bytes pattern %zu: err %d, %.3f s, last byte %d\n", bytes, ps, err,
         std::chrono::duration<double>(clk::now() - t0).count(), last[3]);
}
