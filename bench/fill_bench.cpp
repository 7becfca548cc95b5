// How fast a device buffer is set to zero, by each way OpenCL offers (issue 34: the multigrid
// cycle's zero fills ran at 17x their bound on an H200): clEnqueueFillBuffer with patterns of
// 1 to 128 bytes (runtime::enqueue_fill widens every pattern to 128 bytes, for NVIDIA's 32-bit
// fill counts), and a kernel that stores zeros, 8 bytes a work-item. Printed: the median time
// and GB/s written, and the ratio to the device's copy bandwidth measured in the same run (a
// copy moves twice the bytes; a fill writes them once). Every way's result is read back and
// checked to be zero (a buffer first filled with ones); a failure prints FAILED.
//
//   ./build/bench/fill_bench [--device SPEC] [--sizes-mib 16,128,1024] [--repeats 10]
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/Error.h"
#include "options/BenchArgs.h"
#include "runtime/Buffer.h"
#include "runtime/ClError.h"
#include "runtime/Launch.h"
#include "runtime/Roofline.h"
#include "runtime/Session.h"

using namespace tessera;

namespace {

const char* kZeroKernel = "__kernel void zero(__global ulong* p) { p[get_global_id(0)] = 0; }";

double median_ms(int repeats, const std::function<cl::Event()>& enqueue) {
  std::vector<double> ms;
  for (int i = 0; i <= repeats; ++i) {
    cl::Event e = enqueue();
    runtime::check_cl(e.wait(), "waiting for a fill");
    if (i > 0) // the first run pays for first use
      ms.push_back(runtime::event_ms(e));
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

bool all_zero(runtime::Session& s, const cl::Buffer& b, std::size_t bytes) {
  std::vector<unsigned char> host(bytes);
  runtime::check_cl(s.queue().enqueueReadBuffer(b, CL_TRUE, 0, bytes, host.data()), "reading");
  return std::all_of(host.begin(), host.end(), [](unsigned char c) { return c == 0; });
}

void ones(runtime::Session& s, const cl::Buffer& b, std::size_t bytes) {
  const uint8_t one = 1;
  runtime::check_cl(s.queue().enqueueFillBuffer(b, one, 0, bytes), "filling with ones");
  s.queue().finish();
}

} // namespace

int main(int argc, char** argv) try {
  bench::SizeSweepArgs args{"", {16, 128, 1024}, 10};
  if (!bench::parse_size_sweep_args(argc, argv, args)) {
    std::fprintf(stderr, "usage: fill_bench [--device SPEC] [--sizes-mib 16,128,1024] "
                         "[--repeats 10] (repeats at least 1)\n");
    return 2;
  }
  const int repeats = args.repeats;
  auto session = runtime::Session::from_env(args.device);
  std::printf("device: %s\n", session.device().description().c_str());
  cl::Program program(session.context(), kZeroKernel);
  runtime::check_cl(program.build(), "building the zero kernel");
  cl::Kernel zero(program, "zero");
  bool ok = true;
  for (uint64_t mib : args.sizes_mib) {
    const std::size_t bytes = mib << 20;
    cl::Buffer b(session.context(), CL_MEM_READ_WRITE, bytes);
    const auto copy = runtime::measure_roofline(session, bytes, {});
    std::printf("%zu MiB: copy %.1f GB/s\n", mib, copy.gb_per_s);
    auto report = [&](const std::string& way, double ms) {
      const double gbs = static_cast<double>(bytes) / (ms * 1e6);
      const bool zeroed = all_zero(session, b, bytes);
      ok = ok && zeroed;
      std::printf("  %-28s %9.4f ms %8.1f GB/s  %5.2fx copy%s\n", way.c_str(), ms, gbs,
                  gbs / copy.gb_per_s, zeroed ? "" : "  FAILED: not zero");
      ones(session, b, bytes);
    };
    for (std::size_t pattern : {1, 4, 8, 16, 128}) {
      ones(session, b, bytes);
      const std::vector<unsigned char> z(pattern, 0);
      report("clEnqueueFillBuffer " + std::to_string(pattern) + " B", median_ms(repeats, [&] {
               cl::Event e;
               runtime::check_cl(clEnqueueFillBuffer(session.queue()(), b(), z.data(), pattern, 0,
                                                     bytes, 0, nullptr, &e()),
                                 "filling");
               return e;
             }));
    }
    ones(session, b, bytes);
    const uint64_t z8 = 0;
    report("enqueue_fill (8 B widened)", median_ms(repeats, [&] {
             return runtime::enqueue_fill(session.queue(), b, bytes, &z8, 8, "a buffer");
           }));
    zero.setArg(0, b);
    report("zero kernel (8 B a work-item)", median_ms(repeats, [&] {
             cl::Event e;
             runtime::check_cl(session.queue().enqueueNDRangeKernel(zero, cl::NullRange,
                                                                    cl::NDRange(bytes / 8),
                                                                    cl::NullRange, nullptr, &e),
                               "launching the zero kernel");
             return e;
           }));
  }
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
