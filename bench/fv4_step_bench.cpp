// HPGMG-FV's 4th-order red-black step on the interior: the two half-sweeps' interiors as the
// solver ran them before (colour pairs on whole rows, 32x4x1 work-groups: a launch a colour)
// against the one-pass step (multigrid/Fv4Step.h) in tiles of several shapes, with the copy
// bandwidth measured in the same run:
//
//   ./build/bench/fv4_step_bench [--device SPEC] [--launches K] [--shapes 32x16x128,...] 256 512
//
// A shape is TILE_XxTILE_YxGROUP; its segments are the solver's choice for it. The device time
// of one step (the median of 5 runs of K), the share of copy of the bytes a step on the interior
// must move (u, f and three betas read, the new grid written: HPGMG's a = 0 leaves alpha unread)
// and the speed-up over the half-sweeps. The pass reads the red points 1 cell from the boundary
// from its shell grid, which this benchmark does not fill (the solver's red half-sweep around the
// interior does), and the half-sweeps' interiors leave the points around them unwritten: the
// outputs are compared on the points 4 or more cells in, whose values depend on neither, and one
// that differs in any bit is printed as FAILED, never timed as a success.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "Fv4Bench.h"
#include "codegen/Kernel.h"
#include "core/Error.h"
#include "multigrid/Fv4Step.h"
#include "multigrid/HelmholtzFv4.h"
#include "multigrid/Layout.h"
#include "options/BenchArgs.h"
#include "rewrite/Lower.h"
#include "runtime/Bandwidth.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

const char* const kUsage =
    "usage: fv4_step_bench [--device SPEC] [--launches K] [--shapes 32x16x128,...] "
    "[--segment-factors 1,4] SIZE...";

struct Args {
  std::string device;
  int launches = 6;
  std::vector<std::vector<int64_t>> shapes{{32, 16, 128}, {32, 16, 256}, {32, 8, 128}, {64, 8, 256},
                                           {32, 32, 256}, {16, 16, 128}, {64, 16, 256}};
  std::vector<int64_t> segment_factors{1, 4};
  std::vector<int64_t> sizes;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto value = [&] { return bench::option_value(argc, argv, i, kUsage); };
    if (s == "--device")
      a.device = value();
    else if (s == "--launches")
      a.launches = static_cast<int>(
          std::clamp<int64_t>(bench::whole_number(value(), "--launches", kUsage), 1, 1 << 16));
    else if (s == "--shapes") {
      a.shapes.clear();
      for (const std::string& g : bench::split_list(value())) {
        a.shapes.push_back(bench::whole_numbers(g, "shape", kUsage));
        const auto& t = a.shapes.back();
        if (t.size() != 3 || t[0] % 2 != 0 || t[0] < 2 || t[1] < 1 || t[2] < 1)
          user_error(cat("bad shape '", g, "': expected TILE_XxTILE_YxGROUP, an even tile width"));
      }
    } else if (s == "--segment-factors") {
      a.segment_factors.clear();
      for (const std::string& f : bench::split_list(value()))
        a.segment_factors.push_back(bench::whole_number(f, "--segment-factors", kUsage));
      for (int64_t f : a.segment_factors)
        if (f < 1 || f > 64)
          user_error(cat("a segment factor of ", f, " is outside 1..64"));
    } else if (!s.empty() && s[0] != '-')
      a.sizes.push_back(bench::whole_number(s, "size", kUsage));
    else
      user_error(kUsage);
  }
  if (a.sizes.empty())
    user_error(kUsage);
  for (int64_t n : a.sizes)
    if (n < 16 || n > 1024)
      user_error(cat("size ", n, " is outside 16..1024; ", kUsage));
  return a;
}

// The half-sweep of `colour`'s interior as the solver's GPU runs it: a work-item a pair of
// points along x on whole rows.
codegen::Kernel pairs_kernel(const Level& level, int colour) {
  codegen::CodegenOptions options{.interior_only = true,
                                  .colour_parity = colour,
                                  .colour_pair_copy = "u",
                                  .interior_rows = true};
  return codegen::generate_kernel(
      rewrite::lower_default(detail::fv4_gsrb_half_sweep(level, bench::hpgmg_fv4_coefficients(),
                                                         colour, {detail::Fv4Region::Interior})),
      options);
}

void bench_size(runtime::Session& session, const Args& a, int64_t n, double copy_gbps) {
  const Level level{3, n, ScalarKind::F64, Centring::Cell};
  const auto whole = static_cast<std::size_t>(n), m = std::size_t{2}, inner = whole - 2 * m;
  DeviceMemory memory(session);
  std::vector<BufferId> inputs;
  uint32_t seed = 7;
  for (const char* name : {"u", "f", "alpha", "beta0", "beta1", "beta2"})
    inputs.push_back(bench::positive_grid(memory, name, n * n * n, seed));
  const BufferId between = memory.allocate("between", ScalarKind::F64, n * n * n);
  const BufferId apart = memory.allocate("apart", ScalarKind::F64, n * n * n);
  const BufferId shell = memory.allocate("shell", ScalarKind::F64, n * n * n);
  const BufferId out = memory.allocate("out", ScalarKind::F64, n * n * n);
  const double bytes = 6.0 * 8.0 * static_cast<double>(inner * inner * inner);

  // The half-sweeps' interiors, a launch a colour.
  std::vector<std::shared_ptr<CompiledKernel>> colours;
  for (int colour = 0; colour < 2; ++colour)
    colours.push_back(
        compile(session, pairs_kernel(level, colour), {32, 4, 1}, cat("colour pairs ", colour)));
  const std::shared_ptr<CompiledKernel> red = colours[0];
  red->interior = red; // the one-pass kernel calls its helper
  Schedule steps;
  std::vector<BufferId> from = inputs;
  for (int i = 0; i < a.launches; ++i)
    for (int colour = 0; colour < 2; ++colour) {
      from[0] = colour == 0 ? inputs[0] : between;
      steps.launch_part("half-sweep", colours[static_cast<std::size_t>(colour)], from,
                        colour == 0 ? between : apart, runtime::Range(0, m, m),
                        runtime::Range(whole / 2, inner, inner));
    }
  const double base_ms = bench::median_launch_ms(steps, memory, a.launches);
  const std::vector<double> expected = read_values(memory, apart);
  std::printf("4th-order red-black step %lld^3 (interior %zu^3):\n", static_cast<long long>(n),
              inner);
  auto print = [&](const std::string& label, double ms) {
    const double gbps = bytes / (ms * 1e6);
    std::printf("  %-44s %8.3f ms  %7.1f GB/s  %5.1f%% of copy  %.2fx\n", label.c_str(), ms, gbps,
                100 * gbps / copy_gbps, base_ms / ms);
  };
  print("two half-sweeps, colour pairs 32x4x1", base_ms);

  for (const auto& t : a.shapes)
    for (int64_t factor : a.segment_factors) {
      Fv4StepShape shape{.tile_x = t[0], .tile_y = t[1], .group = t[2]};
      shape.segments = std::min<int64_t>(
          factor * fv4_step_segments(session.device(), level.sizes(), shape), n - 4);
      const std::string label = cat("one pass ", shape.tile_x, "x", shape.tile_y, ", group ",
                                    shape.group, ", ", shape.segments, " segments");
      if (fv4_step_local_bytes(shape, level.kind) >
          static_cast<int64_t>(session.device().local_mem_size)) {
        std::printf("  %-44s skipped: its local memory exceeds the device's\n", label.c_str());
        continue;
      }
      Schedule pass;
      std::vector<BufferId> buffers = inputs;
      buffers.push_back(shell);
      buffers.push_back(out);
      const auto k = fv4_step_kernel(session, *red, level, 0, shape);
      for (int i = 0; i < a.launches; ++i)
        pass.launch_over("pass", k, buffers, bytes);
      const double ms = bench::median_launch_ms(pass, memory, a.launches);
      const std::vector<double> got = read_values(memory, out);
      bool same = true;
      for (std::size_t i = 0; i < got.size(); ++i) {
        const std::size_t x = i % whole, y = i / whole % whole, z = i / (whole * whole);
        auto in = [&](std::size_t c) { return c >= 4 && c + 4 < whole; };
        same = same && (!(in(x) && in(y) && in(z)) || got[i] == expected[i]);
      }
      if (!same)
        std::printf("  %-44s FAILED: differs from the half-sweeps\n", label.c_str());
      else
        print(label, ms);
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
