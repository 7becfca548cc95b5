#include "runtime/ComputePeak.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "core/Error.h"
#include "runtime/Buffer.h"
#include "runtime/Device.h"
#include "runtime/Session.h"

namespace tessera::runtime {

namespace {

constexpr int kChains = 8;       // independent chains per work-item (latency x throughput)
constexpr int kWidth = 8;        // lanes of each chain: an explicit vector, as a CPU's SIMD
constexpr int kIterations = 256; // multiply-adds of each chain

// x <- x * a + b converges to b / (1 - a) and never overflows; the chains start apart so that
// the compiler cannot merge them, and the sum of them is written so that none is dead. PoCL
// vectorises scalar chains across work-items poorly (19.5 GFLOP/s on 2 cores where a stencil
// reached 29), hence vectors of 8.
std::string peak_source(const std::string& type) {
  const std::string vec = cat(type, kWidth);
  std::ostringstream s;
  if (type == "double")
    s << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  s << "__kernel void fma_peak(__global " << type << "* out, " << type << " a, " << type
    << " b) {\n  const size_t g = get_global_id(0);\n";
  for (int c = 0; c < kChains; ++c)
    s << "  " << vec << " x" << c << " = (" << vec << ")((" << type << ")(g % 7) + " << c << ");\n";
  s << "  for (int i = 0; i < " << kIterations << "; ++i) {\n";
  for (int c = 0; c < kChains; ++c)
    s << "    x" << c << " = mad(x" << c << ", (" << vec << ")(a), (" << vec << ")(b));\n";
  s << "  }\n  " << vec << " sum = x0";
  for (int c = 1; c < kChains; ++c)
    s << " + x" << c;
  s << ";\n  out[g] = sum.s0";
  for (int l = 1; l < kWidth; ++l)
    s << " + sum.s" << l;
  s << ";\n}\n";
  return s.str();
}

// GFLOP/s of the kernel on `type` ("float" or "double").
template <class T>
double peak_of(Session& session, const std::string& type, TimingOptions options) {
  const Device& device = session.device();
  const std::size_t items = std::max<std::size_t>(1, device.compute_units) * 4096;
  Buffer<T> out(session, items);
  auto kernel = session.build_kernel(peak_source(type), "fma_peak");
  const T a = T(0.5), b = T(1);
  auto t = time_kernel(session, kernel, {out, a, b}, Range(items), {}, options);
  // Every lane has converged to b / (1 - a) = 2 after 256 halvings of its distance.
  const double expected = 2.0 * kChains * kWidth;
  std::vector<T> host = out.read();
  for (std::size_t i : {std::size_t{0}, items / 2, items - 1})
    if (!(std::abs(static_cast<double>(host[i]) - expected) < 1e-3))
      user_error(cat("the compute peak's ", type, " kernel on ", device.name, " computed ",
                     static_cast<double>(host[i]), " instead of ", expected));
  const double flops = 2.0 * kChains * kWidth * kIterations * static_cast<double>(items);
  return t.min_ms > 0 ? flops / (t.min_ms * 1e6) : 0;
}

} // namespace

ComputePeak measure_compute_peak(Session& session, TimingOptions options) {
  ComputePeak peak;
  peak.f32_gflops = peak_of<float>(session, "float", options);
  if (session.device().supports_double)
    peak.f64_gflops = peak_of<double>(session, "double", options);
  return peak;
}

std::string describe(const ComputePeak& peak) {
  auto gflops = [](double v) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(1);
    s << v << " GFLOP/s";
    return s.str();
  };
  return cat("f32 ", gflops(peak.f32_gflops), ", f64 ",
             peak.f64_gflops > 0 ? gflops(peak.f64_gflops) : std::string("none"));
}

} // namespace tessera::runtime
