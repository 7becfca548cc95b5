// A red-black Gauss-Seidel step as one wavefront (multigrid/Wavefront.h) against the two
// half-sweeps out of place and in place, with the copy bandwidth measured in the same run:
//
//   ./build/bench/wavefront_bench [--device SPEC] [--f32] [--steps K] [--shapes 32x8,32x16x0x4]
//                                 256 512
//
// Per size (3-D, cell-centred Poisson, homogeneous Dirichlet): K steps of each form (the
// wavefront in local memory for tiles of even width, the general one for every tile) from the same
// random grid, the device time of one step (the median of 5 runs of K steps), GB/s of the bytes
// the form must move (out of place: u and f read, u written per half-sweep; in place: half of u
// written; the wavefront: u and f read and u written once a pass of one or more steps) and the
// same bytes as a share of the copy roofline, and the speed-up over the out-of-place
// half-sweeps. Every wavefront's result is compared with the half-sweeps'; one that differs in
// any bit is printed as FAILED, never timed. --compiler-log prints the device compiler's log of
// each wavefront and of the red half-sweep (on NVIDIA built with -cl-nv-verbose: registers and
// spills). --shapes: tiles TXxTY, optionally with the segments (0 for the device's default), the
// rows of the tile each work-item computes and the steps a pass (TXxTYxSxRxK); the device's
// default shapes of one and two steps a pass always run first.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "core/Error.h"
#include "multigrid/Layout.h"
#include "multigrid/Operators.h"
#include "multigrid/Wavefront.h"
#include "options/BenchArgs.h"
#include "rewrite/Lower.h"
#include "runtime/Bandwidth.h"
#include "runtime/OpenCL.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

struct Args {
  std::string device;
  ScalarKind kind = ScalarKind::F64;
  int steps = 4;
  std::vector<WavefrontShape> shapes;
  std::vector<int64_t> sizes;
  bool compiler_log = false;
};

const char* const kUsage = "usage: wavefront_bench [--device SPEC] [--f32] [--steps K] "
                           "[--compiler-log] [--shapes 16x8,32x4x16,32x16x0x4x2] SIZE...";

WavefrontShape parse_shape(const std::string& text) {
  std::vector<int64_t> parts = bench::whole_numbers(text, "shape", kUsage);
  const std::size_t given = parts.size();
  parts.resize(std::max<std::size_t>(given, 5), 0);
  if (given < 4)
    parts[3] = 1;
  if (given < 5)
    parts[4] = 1;
  if (given > 5 || parts[0] < 2 || parts[0] % 2 != 0 || parts[1] < 1 || parts[2] < 0 ||
      parts[3] < 1 || parts[1] % parts[3] != 0 || parts[4] < 1 || parts[4] > kMostWavefrontSteps)
    user_error(cat("bad shape '", text,
                   "': expected TXxTY[xSEGMENTS[xROWS[xSTEPS]]] with TX even, 0 segments for the "
                   "device's default, ROWS dividing TY, 1 to ",
                   kMostWavefrontSteps, " steps a pass, e.g. 16x8x5 or 32x16x0x4x2"));
  return {parts[0], parts[1], parts[2], parts[3], static_cast<int>(parts[4])};
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto value = [&] { return bench::option_value(argc, argv, i, kUsage); };
    if (s == "--device")
      a.device = value();
    else if (s == "--f32")
      a.kind = ScalarKind::F32;
    else if (s == "--compiler-log")
      a.compiler_log = true;
    else if (s == "--steps")
      a.steps = static_cast<int>(
          std::clamp<int64_t>(bench::whole_number(value(), "--steps", kUsage), 0, 1 << 20));
    else if (s == "--shapes") {
      for (const std::string& shape : bench::split_list(value()))
        a.shapes.push_back(parse_shape(shape));
    } else if (!s.empty() && s[0] != '-')
      a.sizes.push_back(bench::whole_number(s, "size", kUsage));
    else
      user_error(kUsage);
  }
  if (a.sizes.empty() || a.steps < 1)
    user_error(kUsage);
  for (int64_t n : a.sizes)
    if (n < 8)
      user_error(cat("size ", n, " is below 8; ", kUsage));
  return a;
}

// The median device time of one step over 5 runs of `schedule`: its steps after the first (the
// copy of the start grid) over `steps`.
double step_ms(const Schedule& schedule, DeviceMemory& memory, int steps) {
  schedule.run(memory); // warm: builds, first launches
  std::vector<double> ms;
  for (int r = 0; r < 5; ++r) {
    Breakdown by_label;
    schedule.run(memory, &by_label);
    double total = 0;
    for (const auto& [label, t] : by_label)
      if (label != "start")
        total += t.ms;
    ms.push_back(total / steps);
  }
  std::sort(ms.begin(), ms.end());
  return ms[2];
}

// The device compiler's log of `source` (NVIDIA: with its register and spill counts).
void print_compiler_log(runtime::Session& session, const std::string& what,
                        const std::string& source) {
  const runtime::Device& device = session.device();
  const bool nvidia = device.platform_name.find("NVIDIA") != std::string::npos;
  cl::Program program(session.context(), source);
  std::string log;
  (void)program.build({device.device}, nvidia ? "-cl-nv-verbose" : ""); // a failure: its log
  program.getBuildInfo(device.device, CL_PROGRAM_BUILD_LOG, &log);
  std::printf("  compiler log of %s:\n%s\n", what.c_str(), log.c_str());
}

void report(const char* form, double ms, double bytes, double copy_gbps, double against) {
  const double gbps = bytes / (ms * 1e6);
  std::printf("  %-56s %8.3f ms  %7.1f GB/s  %5.1f%% of copy  %.2fx\n", form, ms, gbps,
              100 * gbps / copy_gbps, against / ms);
}

void bench_size(runtime::Session& session, const Args& a, int64_t n, double copy_gbps) {
  const Level level{3, n, a.kind, Centring::Cell};
  const Boundary bc = Boundary::antisymmetric();
  const auto red = codegen::generate_kernel(rewrite::lower_default(gsrb_half_sweep(level, bc, 0)));
  const auto black =
      codegen::generate_kernel(rewrite::lower_default(gsrb_half_sweep(level, bc, 1)));
  DeviceMemory memory(session);
  const BufferId u0 = memory.allocate("u0", a.kind, level.points());
  const BufferId u1 = memory.allocate("u1", a.kind, level.points());
  const BufferId f = memory.allocate("f", a.kind, level.points());
  const BufferId start = memory.allocate("start", a.kind, level.points());
  std::vector<double> values(static_cast<std::size_t>(level.points()));
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<double>((i * 7919) % 1000) / 1000.0;
  write_values(memory, start, values);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<double>((i * 104729) % 997) / 997.0;
  write_values(memory, f, values);
  const double grid = static_cast<double>(level.points()) * (a.kind == ScalarKind::F64 ? 8 : 4);
  auto red_k = compile(session, red, {}, "red"), black_k = compile(session, black, {}, "black");
  if (a.compiler_log)
    print_compiler_log(session, "the red half-sweep", red.source);

  // K steps of each form from `start`; the result in u0.
  Schedule apart;
  apart.copy("start", start, u0);
  for (int k = 0; k < a.steps; ++k) {
    apart.launch("red", red_k, {u0, f}, u1);
    apart.launch("black", black_k, {u1, f}, u0);
  }
  const double apart_ms = step_ms(apart, memory, a.steps);
  const std::vector<double> expected = read_values(memory, u0);
  std::printf("%lld^3 %s, %d steps a run\n", static_cast<long long>(n),
              a.kind == ScalarKind::F64 ? "f64" : "f32", a.steps);
  report("two half-sweeps out of place", apart_ms, 6 * grid, copy_gbps, apart_ms);

  codegen::CodegenOptions in_place;
  in_place.in_place = true;
  auto red_in = compile(
      session,
      codegen::generate_kernel(rewrite::lower_default(gsrb_half_sweep(level, bc, 0)), in_place), {},
      "red in place");
  auto black_in = compile(
      session,
      codegen::generate_kernel(rewrite::lower_default(gsrb_half_sweep(level, bc, 1)), in_place), {},
      "black in place");
  Schedule here;
  here.copy("start", start, u0);
  for (int k = 0; k < a.steps; ++k) {
    here.launch("red", red_in, {u0, f}, u0);
    here.launch("black", black_in, {u0, f}, u0);
  }
  report("two half-sweeps in place", step_ms(here, memory, a.steps), 5 * grid, copy_gbps, apart_ms);

  // The device's default shapes of one and two steps a pass first.
  std::vector<WavefrontShape> shapes{wavefront_shape(session.device(), level.sizes(), 1),
                                     wavefront_shape(session.device(), level.sizes(), 2)};
  for (WavefrontShape s : a.shapes) {
    if (s.segments == 0)
      s.segments = wavefront_shape(session.device(), level.sizes(), s.steps).segments;
    shapes.push_back(s);
  }
  std::erase_if(shapes, [&](const WavefrontShape& s) {
    std::string why;
    if (a.steps % s.steps != 0)
      why = cat("its steps a pass do not divide the ", a.steps, " steps a run");
    else if (!wavefront_fits(session.device(), s, a.kind))
      why = cat("its ", wavefront_local_bytes(s, a.kind),
                " bytes of local memory do not fit the device's ", session.device().local_mem_size);
    if (!why.empty())
      std::printf("  %lldx%lld of %d steps a pass: skipped (%s)\n",
                  static_cast<long long>(s.tile_x), static_cast<long long>(s.tile_y), s.steps,
                  why.c_str());
    return !why.empty();
  });
  std::vector<std::shared_ptr<CompiledKernel>> kernels;
  for (const WavefrontShape& shape : shapes)
    kernels.push_back(poisson_wavefront_kernel(session, red, level, bc, 0, shape));
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& kernel = kernels[i];
    if (a.compiler_log)
      print_compiler_log(session, kernel->variant, kernel->code.source);
    Schedule one;
    one.copy("start", start, u0);
    const int passes = a.steps / shapes[i].steps;
    for (int k = 0; k < passes; ++k)
      one.launch_over("wavefront", kernel, {k % 2 ? u1 : u0, f, k % 2 ? u0 : u1}, 3 * grid);
    const double ms = step_ms(one, memory, a.steps);
    const std::vector<double> got = read_values(memory, passes % 2 ? u1 : u0);
    const std::string form = kernel->variant;
    if (got != expected) {
      std::printf("  %-56s FAILED: differs from the half-sweeps\n", form.c_str());
      continue;
    }
    report(form.c_str(), ms, 3 * grid / shapes[i].steps, copy_gbps, apart_ms);
  }
}

} // namespace

int main(int argc, char** argv) try {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const Args a = parse(argc, argv);
  auto session = runtime::Session::from_env(a.device);
  auto copy = runtime::measure_copy_bandwidth(session, std::size_t{1} << 30);
  std::printf("device: %s\ncopy bandwidth: %.1f GB/s (1 GiB buffers)\n",
              session.device().description().c_str(), copy.gb_per_s);
  for (int64_t n : a.sizes)
    bench_size(session, a, n, copy.gb_per_s);
  return 0;
} catch (const tessera::Error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
