// Diagnostic: runs kernel k(const int* x, int* out) of FILE over x.bin, prints out.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#include <CL/opencl.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>
int main(int argc, char** argv) {
  std::ifstream f(argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  std::ifstream xf(argv[2], std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(xf)), {});
  size_t n = raw.size() / 4;
  std::vector<cl::Platform> ps;
  cl::Platform::get(&ps);
  std::vector<cl::Device> ds;
  ps[0].getDevices(CL_DEVICE_TYPE_ALL, &ds);
  cl::Context ctx(ds[0]);
  cl::CommandQueue q(ctx, ds[0]);
  cl::Program p(ctx, ss.str());
  if (p.build({ds[0]}, argc > 3 ? argv[3] : "") != CL_SUCCESS) {
    puts(p.getBuildInfo<CL_PROGRAM_BUILD_LOG>(ds[0]).c_str());
    return 1;
  }
  cl::Buffer x(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, raw.size(), raw.data()),
      out(ctx, CL_MEM_WRITE_ONLY, raw.size());
  cl::Kernel k(p, "k");
  k.setArg(0, x);
  k.setArg(1, out);
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n));
  std::vector<int> o(n);
  q.enqueueReadBuffer(out, CL_TRUE, 0, raw.size(), o.data());
  printf("%s%s:", argv[1], argc > 3 ? argv[3] : "");
  for (int v : o)
    printf(" %d", v);
  printf("\n");
}
