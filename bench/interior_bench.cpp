// The interior launch of a split operator (Schedule::launch_split) under work-groups, its rows
// aligned or not, with the copy bandwidth measured in the same run:
//
//   ./build/bench/interior_bench [--device SPEC] [--launches K] [--groups 32x4x2,64x4x1] 256 512
//
// Per size: HPGMG-FV's 4th-order red half-sweep and residual (f64; their interior forms, which
// read no ghost: HelmholtzFv4.h) on random data, launched on the points 2 or more cells from
// every boundary in two ways: offset (the launch starts 2 cells in along every axis: the driver
// chooses the work-group, the rows' first point 16 bytes past a cache line) and whole rows (the
// launch spans each row along x, the kernel guarded to the interior: CodegenOptions::
// interior_rows), the latter with the driver's work-group and each of --groups (one that does
// not divide the launch is skipped); and marching along z (the rewrite system's stream-nd with
// the streaming mapping: a work-item a column, its window's planes in registers, guarded to the
// interior along x and y, launched on whole rows), with the driver's work-group and each of
// --groups' x and y; and, for the half-sweep, as colour pairs (a work-item a pair of points along
// x: it computes the one of the colour and copies the other, CodegenOptions::colour_pair_copy),
// on half as many work-items along x. The solver does not march: on an H200 it measured 0.91-1.03x
// the offset launch where whole rows with 32x4x1 measured 1.23-1.31x (BENCHMARKS.md). The device
// time of one launch (the median of 5 runs of K), GB/s of the bytes the interior must move (every
// input read once, the output written once) and the same as a share of copy, and the speed-up over
// the offset launch. Every launch's output is compared with the offset launch's on the interior
// (and, but for the march, which computes the planes outside it along z too, everywhere); one that
// differs in any bit is printed as FAILED, never timed as a success.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "Fv4Bench.h"
#include "codegen/Kernel.h"
#include "core/Error.h"
#include "multigrid/HelmholtzFv4.h"
#include "multigrid/Layout.h"
#include "options/BenchArgs.h"
#include "rewrite/Enumerate.h"
#include "rewrite/Lower.h"
#include "rewrite/MapLevels.h"
#include "rewrite/rules/Rules.h"
#include "runtime/Bandwidth.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

const char* const kUsage =
    "usage: interior_bench [--device SPEC] [--launches K] [--groups 32x4x2,64x4x1] SIZE...";

struct Args {
  std::string device;
  int launches = 6;
  std::vector<std::vector<int64_t>> groups{{32, 4, 2}, {32, 4, 1}, {32, 8, 1},  {64, 4, 1},
                                           {32, 2, 4}, {64, 2, 2}, {128, 2, 1}, {32, 4, 4}};
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
          std::clamp<int64_t>(bench::whole_number(value(), "--launches", kUsage), 0, 1 << 16));
    else if (s == "--groups") {
      a.groups.clear();
      for (const std::string& g : bench::split_list(value())) {
        a.groups.push_back(bench::whole_numbers(g, "work-group", kUsage));
        if (a.groups.back().size() != 3)
          user_error(cat("bad work-group '", g, "': expected XxYxZ, e.g. 32x4x2"));
      }
    } else if (!s.empty() && s[0] != '-')
      a.sizes.push_back(bench::whole_number(s, "size", kUsage));
    else
      user_error(kUsage);
  }
  if (a.sizes.empty() || a.launches < 1)
    user_error(kUsage);
  for (int64_t n : a.sizes)
    if (n < 8 || n > 1024)
      user_error(cat("size ", n, " is outside 8..1024; ", kUsage));
  return a;
}

// The program's 3-D march of whole columns: stream-nd's alternative without segments, coarsening
// or partial sums, lowered by the streaming mapping.
Expr marching_along_z(const Expr& program) {
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {};
  options.coarsening = {};
  options.plane_sums_min_points = INT64_MAX;
  for (const auto& v : rewrite::enumerate(program, {rewrite::stream_nd_rule()}, options).variants)
    if (v.history.size() == 1 && v.history.front().params == rewrite::Params{{"dims", 3}}) {
      rewrite::Mapping streaming{rewrite::MappingKind::Streaming};
      streaming.dims = 3;
      if (Expr lowered = rewrite::apply_mapping(v.program, streaming))
        return lowered;
    }
  internal_error("stream-nd offers no march of whole columns");
}

struct Operator {
  const char* name;
  Expr program;
};

void bench_operator(runtime::Session& session, const Args& a, const Operator& op, int64_t n,
                    double copy_gbps) {
  const Expr lowered = rewrite::lower_default(op.program);
  codegen::CodegenOptions options;
  options.interior_only = true;
  codegen::Kernel offset_code = codegen::generate_kernel(lowered, options);
  options.interior_rows = true;
  codegen::Kernel rows_code = codegen::generate_kernel(lowered, options);
  codegen::Kernel marched_code = codegen::generate_kernel(marching_along_z(op.program), options);
  const bool half_sweep = std::string(op.name).find("half-sweep") != std::string::npos;
  codegen::CodegenOptions pairs = options;
  pairs.colour_parity = 0;
  pairs.colour_pair_copy = "u";
  codegen::Kernel pairs_code = codegen::generate_kernel(lowered, pairs);
  const int64_t margin = std::max(offset_code.interior_margin, detail::kFv4InteriorMargin);
  if (offset_code.interior_margin == 0 || !rows_code.interior_rows)
    internal_error(cat(op.name, " has no interior version to launch"));

  DeviceMemory memory(session);
  std::vector<BufferId> inputs;
  uint32_t seed = 7;
  for (const auto& p : offset_code.params)
    if (p.role == codegen::KernelParam::Input)
      inputs.push_back(bench::positive_grid(memory, p.name, n * n * n, seed));
  const BufferId out = memory.allocate("out", ScalarKind::F64, n * n * n);
  const auto inner = static_cast<std::size_t>(n - 2 * margin), m = static_cast<std::size_t>(margin);
  // With a = 0 the operator does not read alpha (HelmholtzFv4.cpp): the arrays it moves.
  const std::size_t arrays_read = inputs.size() - (bench::hpgmg_fv4_coefficients().a == 0 ? 1 : 0);
  const double bytes =
      static_cast<double>(arrays_read + 1) * 8.0 * static_cast<double>(inner * inner * inner);

  enum class Launch { Offset, Rows, Marching, Pairs };
  const auto whole = static_cast<std::size_t>(n);
  // Whether `got` equals `expected` on the interior (the march) or everywhere.
  auto same = [&](const std::vector<double>& got, const std::vector<double>& expected,
                  bool interior_only) {
    for (std::size_t i = 0; i < got.size(); ++i) {
      const std::size_t x = i % whole, y = i / whole % whole, z = i / (whole * whole);
      const bool inside =
          x >= m && x < m + inner && y >= m && y < m + inner && z >= m && z < m + inner;
      if ((inside || !interior_only) && got[i] != expected[i])
        return false;
    }
    return true;
  };
  auto run = [&](const char* form, const codegen::Kernel& code, Launch how,
                 std::vector<int64_t> group, const std::vector<double>* expected,
                 double against) -> std::pair<double, std::vector<double>> {
    const bool marching = how == Launch::Marching;
    if (marching && !group.empty())
      group.resize(2); // its range is x and y
    auto k = compile(session, code, group, form);
    // Along x: the interior offset, or whole rows (a work-item a pair of points: half of them).
    const std::size_t x_from = how == Launch::Offset ? m : 0;
    std::size_t x_size = whole;
    if (how == Launch::Offset)
      x_size = inner;
    else if (how == Launch::Pairs)
      x_size = whole / 2;
    const runtime::Range offset =
        marching ? runtime::Range(x_from, m) : runtime::Range(x_from, m, m);
    const runtime::Range global =
        marching ? runtime::Range(x_size, inner) : runtime::Range(x_size, inner, inner);
    for (std::size_t d = 0; d < group.size(); ++d)
      if (global[static_cast<int>(d)] % static_cast<std::size_t>(group[d]) != 0)
        return {0, {}};
    Schedule fill, s;
    fill.fill_zero("zero", out);
    fill.run(memory);
    for (int i = 0; i < a.launches; ++i)
      s.launch_part("interior", k, inputs, out, offset, global);
    const double ms = bench::median_launch_ms(s, memory, a.launches);
    std::vector<double> got = read_values(memory, out);
    std::string label = form;
    if (!group.empty())
      label += cat(", work-group ", group[0], "x", group[1], marching ? "" : cat("x", group[2]));
    if (expected && !same(got, *expected, marching)) {
      std::printf("  %-48s FAILED: differs from the offset launch\n", label.c_str());
      return {0, {}};
    }
    const double gbps = bytes / (ms * 1e6);
    std::printf("  %-48s %8.3f ms  %7.1f GB/s  %5.1f%% of copy  %.2fx\n", label.c_str(), ms, gbps,
                100 * gbps / copy_gbps, against > 0 ? against / ms : 1.0);
    return {ms, std::move(got)};
  };
  std::printf("%s %lld^3 (interior %zu^3, %zu arrays read):\n", op.name, static_cast<long long>(n),
              inner, arrays_read);
  const auto [base_ms, base] =
      run("offset, driver's work-group", offset_code, Launch::Offset, {}, nullptr, 0);
  run("whole rows, driver's work-group", rows_code, Launch::Rows, {}, &base, base_ms);
  for (const auto& g : a.groups)
    run("whole rows", rows_code, Launch::Rows, g, &base, base_ms);
  if (half_sweep) {
    if (!pairs_code.colour_strided)
      internal_error(cat(op.name, " has no colour-strided interior"));
    run("colour pairs, driver's work-group", pairs_code, Launch::Pairs, {}, &base, base_ms);
    for (const auto& g : a.groups)
      run("colour pairs", pairs_code, Launch::Pairs, g, &base, base_ms);
  }
  run("marching along z, driver's work-group", marched_code, Launch::Marching, {}, &base, base_ms);
  std::vector<std::vector<int64_t>> planar; // --groups' x and y, each once
  for (const auto& g : a.groups)
    if (std::find(planar.begin(), planar.end(), std::vector<int64_t>{g[0], g[1]}) == planar.end())
      planar.push_back({g[0], g[1]});
  for (const auto& g : planar)
    run("marching along z", marched_code, Launch::Marching, g, &base, base_ms);
}

} // namespace

int main(int argc, char** argv) try {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const Args a = parse(argc, argv);
  auto session = runtime::Session::from_env(a.device);
  auto copy = runtime::measure_copy_bandwidth(session, std::size_t{1} << 30);
  std::printf("device: %s\ncopy bandwidth: %.1f GB/s (1 GiB buffers)\n",
              session.device().description().c_str(), copy.gb_per_s);
  const HelmholtzCoefficients c = bench::hpgmg_fv4_coefficients();
  for (int64_t n : a.sizes) {
    const Level level{3, n, ScalarKind::F64, Centring::Cell};
    const detail::Fv4Region interior{detail::Fv4Region::Interior};
    for (const Operator& op :
         {Operator{"4th-order red half-sweep", detail::fv4_gsrb_half_sweep(level, c, 0, interior)},
          Operator{"4th-order residual", detail::fv4_residual(level, c, false, interior)}})
      bench_operator(session, a, op, n, copy.gb_per_s);
  }
  return 0;
} catch (const tessera::Error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
