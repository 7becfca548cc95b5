// Diagnostic: OpenCL rect operations on a buffer over 2^31 bytes (NVIDIA), each timed.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#include <CL/opencl.hpp>
#include <chrono>
#include <cstdio>
#include <unistd.h>
#include <vector>
using clk = std::chrono::steady_clock;
int main(int argc, char** argv) {
  size_t nz = atoi(argv[1]), ny = 1024, nx = 1024, eb = 4; // extended extents
  std::vector<cl::Platform> ps;
  cl::Platform::get(&ps);
  std::vector<cl::Device> ds;
  ps[0].getDevices(CL_DEVICE_TYPE_ALL, &ds);
  cl::Context ctx(ds[0]);
  cl::CommandQueue q(ctx, ds[0]);
  size_t bytes = nz * ny * nx * eb;
  printf("buffer %zu bytes (%s 2^31)\n", bytes, bytes > (1ull << 31) ? ">" : "<=");
  cl::Buffer big(ctx, CL_MEM_READ_WRITE, bytes), big2(ctx, CL_MEM_READ_WRITE, bytes);
  std::vector<char> host(16ull << 20);
  alarm(100);
  auto t = [&](const char* what, auto f) {
    auto t0 = clk::now();
    f();
    q.finish();
    printf("%-40s %.3f s\n", what, std::chrono::duration<double>(clk::now() - t0).count());
    fflush(stdout);
  };
  size_t row = nx * eb, slice = row * ny;
  t("fill", [&] { q.enqueueFillBuffer(big, 0.0f, 0, bytes); });
  for (size_t z : {size_t(4), nz / 2, nz - 8}) {
    char name[64];
    snprintf(name, 64, "read_rect 4 slices at z=%zu", z);
    t(name, [&] {
      q.enqueueReadBufferRect(big, CL_TRUE, {0, 0, z}, {0, 0, 0}, {row, ny, 4}, row, slice, row,
                              slice, host.data());
    });
    snprintf(name, 64, "write_rect 4 slices at z=%zu", z);
    t(name, [&] {
      q.enqueueWriteBufferRect(big, CL_TRUE, {0, 0, z}, {0, 0, 0}, {row, ny, 4}, row, slice, row,
                               slice, host.data());
    });
  }
  t("copy_rect interior z 8..nz-8", [&] {
    q.enqueueCopyBufferRect(big, big2, {0, 0, 8}, {0, 0, 0}, {row, ny, nz - 16}, row, slice, row,
                            slice);
  });
  t("copy_rect offset (4,4,4) inner", [&] {
    q.enqueueCopyBufferRect(big, big2, {4 * eb, 4, 4}, {0, 0, 0}, {row - 8 * eb, ny - 8, nz - 8},
                            row, slice, row - 8 * eb, (row - 8 * eb) * (ny - 8));
  });
  t("copy_rect to offset z=nz-8", [&] {
    q.enqueueCopyBufferRect(big2, big, {0, 0, 0}, {0, 0, nz - 8}, {row, ny, 8}, row, slice, row,
                            slice);
  });
  printf("ok\n");
}
