// Multigrid benchmark: time per V(2,2)-cycle of tessera's solver (3-D cell-centred Poisson,
// red-black Gauss-Seidel, f64) against baselines measured in the same run:
//   - the sum of its kernels' bandwidth bounds: the bytes each kernel of a cycle must move
//     (inputs read once, output written once) divided by the device's copy roofline (measured
//     once per device with buffers of 8x its last-level cache; --copy-mib M measures a copy of
//     M MiB instead);
//   - the fused bound: the bytes the same cycle would move with its operators fused across each
//     other (fused_cycle_bytes), at the same roofline;
//   - on the host: the same multigrid written as plain C++ loops with OpenMP (HostMultigrid.h,
//     red-black Gauss-Seidel in place, as one would write it by hand).
// The residual after each cycle of both is printed: they must converge alike.
//
//   ./build/bench/mg_bench [--device SPEC] [--cycles 6] [--tune off|explore] [--tune-budget 6]
//                          [--no-host] [--copy-mib M]
//                          [--out-of-place-gsrb | --in-place-gsrb | --wavefront-gsrb]
//                          [--unfused-residual] [--wavefront-side S] [--wavefront-steps K]
//                          [--coarse-launch 0,16,32] [--json FILE] 64 128
// (--out-of-place-gsrb: every red-black half-sweep writes a whole new grid, the default on a GPU;
// --in-place-gsrb: each stores its colour into the solution's grid, the default on a CPU;
// --wavefront-gsrb: a step's two half-sweeps as one pass (multigrid/Wavefront.h);
// --unfused-residual: the residual and its restriction as two kernels, as before that became the
// default.
// --wavefront-side S: the wavefront on levels of at least S points per side (the solver's
// SolverOptions::wavefront_side; where the wavefront applies: a GPU's levels by default).
// --wavefront-steps K: red-black steps a wavefront computes in one pass (SolverOptions::
// wavefront_steps).
// --coarse-launch S,...: each size once per side S of SolverOptions::coarse_launch_side, the
// levels of at most S per side in one launch, 0 every operator its own launch; default: the
// device's default alone.)
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "HostMultigrid.h"
#include "core/Error.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
#include "options/BenchArgs.h"
#include "runtime/Bandwidth.h"
#include "runtime/RooflineFile.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct Args {
  std::string device, json, tune = "off";
  int cycles = 6;
  double tune_budget_s = 6;
  bool host = true;
  // Where red-black half-sweeps write (SolverOptions::gauss_seidel_storage): the solver's
  // choice for the device, unless --in-place-gsrb or --out-of-place-gsrb.
  multigrid::HalfSweepStorage storage = multigrid::HalfSweepStorage::Auto;
  bool fused_residual = true; // SolverOptions::fused_residual_restriction
  std::size_t copy_mib = 0;   // 0: the device's roofline (runtime/RooflineFile.h)
  std::vector<int64_t> sizes;
  std::vector<int64_t> coarse_sides{-1}; // SolverOptions::coarse_launch_side, one run each
  int64_t wavefront_side = 0;            // SolverOptions::wavefront_side; 0: the solver's
  int wavefront_steps = 0;               // SolverOptions::wavefront_steps; 0: the solver's
};

constexpr const char* kUsage =
    "usage: mg_bench [--device SPEC] [--json FILE] [--tune off|explore] [--tune-budget S] "
    "[--cycles N] [--copy-mib M] [--no-host] [--out-of-place-gsrb | --in-place-gsrb] "
    "[--unfused-residual] [--wavefront-side S] [--wavefront-steps K] "
    "[--coarse-launch S,...] [N ...] (cells per side, default 64 128)";

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto value = [&] { return bench::option_value(argc, argv, i, kUsage); };
    auto whole = [&](const std::string& text) { return bench::whole_number(text, s, kUsage); };
    if (s == "--device")
      a.device = value();
    else if (s == "--json")
      a.json = value();
    else if (s == "--tune")
      a.tune = value();
    else if (s == "--tune-budget")
      a.tune_budget_s = bench::decimal_number(value(), s, kUsage);
    else if (s == "--cycles")
      a.cycles = static_cast<int>(std::clamp<int64_t>(whole(value()), INT_MIN, INT_MAX));
    else if (s == "--copy-mib")
      a.copy_mib = static_cast<uint64_t>(std::max<int64_t>(whole(value()), 0));
    else if (s == "--no-host")
      a.host = false;
    else if (s == "--out-of-place-gsrb")
      a.storage = multigrid::HalfSweepStorage::OutOfPlace;
    else if (s == "--in-place-gsrb")
      a.storage = multigrid::HalfSweepStorage::InPlace;
    else if (s == "--wavefront-gsrb")
      a.storage = multigrid::HalfSweepStorage::Wavefront;
    else if (s == "--unfused-residual")
      a.fused_residual = false;
    else if (s == "--wavefront-side")
      a.wavefront_side = std::max<int64_t>(whole(value()), 1);
    else if (s == "--wavefront-steps")
      a.wavefront_steps = static_cast<int>(std::clamp<int64_t>(whole(value()), 1, 1 << 20));
    else if (s == "--coarse-launch") {
      a.coarse_sides.clear();
      for (const std::string& side : bench::split_list(value()))
        a.coarse_sides.push_back(whole(side));
    } else if (!s.empty() && std::all_of(s.begin(), s.end(), ::isdigit))
      a.sizes.push_back(bench::whole_number(s, "size", kUsage));
    else
      user_error(cat(s == "--help" || s == "-h" ? "" : "unknown argument " + s + "; ", kUsage));
  }
  if (a.sizes.empty())
    a.sizes = {64, 128};
  if (a.cycles < 2)
    user_error("--cycles must be at least 2 (the first cycle is not timed)");
  return a;
}

// The plain C++ multigrid's median time per cycle (cycles 2..) and relative residuals.
struct HostRun {
  double ms = 0;
  std::vector<double> relative;
};
HostRun run_host(int64_t n, const std::vector<double>& rhs, int cycles) {
  bench::HostMultigrid host(n, rhs, 2, 2);
  double initial = 0;
  for (double v : rhs)
    initial += v * v;
  initial = std::sqrt(initial);
  HostRun run;
  std::vector<double> times;
  for (int c = 0; c < cycles; ++c) {
    auto t0 = std::chrono::steady_clock::now();
    double residual = host.cycle();
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (c > 0)
      times.push_back(ms);
    run.relative.push_back(residual / initial);
  }
  run.ms = median(times);
  return run;
}

// The bytes a V(pre,post) cycle of 3-D f64 Gauss-Seidel would move with its operators fused
// across each other, as the cycle-as-one-program goal asks (a bound, not what runs today): each
// smoothing step one pass (u and f read, u written; the first step of a coarser level, from
// zeros, reads f alone), the residual with its restriction (u and f read, the coarser f
// written), the interpolation with its correction (the coarser u read, u read and written), the
// closing residual's norm within the last step; the coarsest level `coarse_sweeps` steps.
double fused_cycle_bytes(int64_t n, const SolverOptions& o) {
  const double e = 8;
  double bytes = 0;
  for (int64_t side = n;; side /= 2) {
    const double points = static_cast<double>(side) * side * side;
    const bool finest = side == n;
    if (side <= o.coarsest || side % 2 != 0) {
      bytes += e * points * (3.0 * o.coarse_sweeps - 1);
      break;
    }
    const int steps = o.pre + o.post;
    bytes += e * points * (3.0 * steps - (finest ? 0 : 1));
    bytes += e * points * (2 + 1.0 / 8); // the residual and its restriction
    bytes += e * points * (2 + 1.0 / 8); // the interpolation and its correction
  }
  return bytes;
}

} // namespace

int main(int argc, char** argv) try {
  Args args = parse(argc, argv);
  // The host baseline runs first, before any OpenCL device exists: PoCL's worker threads and
  // OpenMP's would otherwise compete for the cores while the other one measures.
  std::map<int64_t, HostRun> host;
  if (args.host)
    for (int64_t n : args.sizes)
      host[n] = run_host(n, manufactured_poisson(3, n, Centring::Cell).rhs, args.cycles);
  auto session = runtime::Session::from_env(args.device);
  // The device's roofline (8x its last-level cache, kept per device), unless --copy-mib asks
  // for a copy of that size.
  auto copy = args.copy_mib ? runtime::measure_copy_bandwidth(session, args.copy_mib << 20)
                            : runtime::Bandwidth{};
  if (!args.copy_mib) {
    auto roofline = runtime::device_roofline(session, runtime::roofline_options_from_env());
    copy.gb_per_s = roofline.gb_per_s;
    copy.bytes = roofline.buffer_bytes;
  }
  std::printf("device %s\ncopy bandwidth %.1f GB/s (%zu MiB buffers)\n",
              session.device().name.c_str(), copy.gb_per_s, copy.bytes >> 20);
  nlohmann::json out = {{"device", session.device().name},
                        {"copy_gb_per_s", copy.gb_per_s},
                        {"copy_mib", copy.bytes >> 20},
                        {"sizes", nlohmann::json::array()}};
  // Each size once per coarse-launch side.
  std::vector<std::pair<int64_t, int64_t>> runs;
  for (int64_t n : args.sizes)
    for (int64_t side : args.coarse_sides)
      runs.emplace_back(n, side);
  for (const auto& [n, side] : runs) {
    Problem problem = manufactured_poisson(3, n, Centring::Cell);
    SolverOptions o;
    o.gauss_seidel_storage = args.storage;
    o.fused_residual_restriction = args.fused_residual;
    o.coarse_launch_side = side;
    if (args.wavefront_side > 0)
      o.wavefront_side = args.wavefront_side;
    if (args.wavefront_steps > 0)
      o.wavefront_steps = args.wavefront_steps;
    o.max_cycles = args.cycles;
    o.tolerance = 1e-300; // time a fixed number of cycles
    // Each operator against its bound needs every kernel timed; the wall time then includes
    // the profiling events' cost (about 4 us a launch on an H200).
    o.profile_kernels = true;
    o.tuning.mode = args.tune == "explore" ? TuneMode::Explore : TuneMode::Default;
    o.tuning.budget_s = args.tune_budget_s;
    o.tuning.log = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
    Solver solver(session, problem, o);
    SolveResult r = solver.solve();
    std::vector<double> device_ms, wall_ms;
    for (std::size_t c = 1; c < r.cycles.size(); ++c) {
      device_ms.push_back(r.cycles[c].device_ms);
      wall_ms.push_back(r.cycles[c].wall_ms);
    }
    double bytes = 0;
    for (const auto& [op, b] : r.bytes_per_cycle)
      bytes += b;
    const double bound_ms = bytes / (copy.gb_per_s * 1e9) * 1e3;
    const double fused_bound_ms = fused_cycle_bytes(n, o) / (copy.gb_per_s * 1e9) * 1e3;
    const double t_device = median(device_ms), t_wall = median(wall_ms);
    std::printf("\n%lld^3 V(2,2) gsrb f64, %zu levels: tessera %.3f ms per cycle (kernels %.3f "
                "ms), bound %.3f ms -> %.2fx the bound (kernels %.2fx), mean factor %.4f\n",
                static_cast<long long>(n), r.levels.size(), t_wall, t_device, bound_ms,
                t_wall / bound_ms, t_device / bound_ms, r.mean_factor());
    std::printf("  fused bound (operators fused across each other, one pass a smoothing step) "
                "%.3f ms -> %.2fx\n",
                fused_bound_ms, t_wall / fused_bound_ms);
    std::printf("  wall %.2fx the kernels' time; coarse levels: %s\n", t_wall / t_device,
                r.coarse_launch.c_str());
    nlohmann::json ops = nlohmann::json::object();
    const double cycles = static_cast<double>(r.cycles.size());
    for (const auto& [op, t] : r.breakdown) {
      double op_bytes = r.bytes_per_cycle.count(op) ? r.bytes_per_cycle.at(op) : 0;
      double op_bound = op_bytes / (copy.gb_per_s * 1e9) * 1e3;
      std::printf("  %-17s %9.3f ms per cycle, bound %9.3f ms (%.2fx), %6.1f GB/s\n", op.c_str(),
                  t.ms / cycles, op_bound, op_bound > 0 ? t.ms / cycles / op_bound : 0,
                  op_bytes / (t.ms / cycles * 1e-3) / 1e9);
      ops[op] = {{"ms_per_cycle", t.ms / cycles}, {"bound_ms", op_bound}};
    }
    nlohmann::json entry = {{"n", n},
                            {"coarse_launch_side", side},
                            {"coarse_launch", r.coarse_launch},
                            {"tessera_ms", t_wall},
                            {"tessera_kernel_ms", t_device},
                            {"bound_ms", bound_ms},
                            {"fused_bound_ms", fused_bound_ms},
                            {"bytes_per_cycle", bytes},
                            {"mean_factor", r.mean_factor()},
                            {"operators", ops}};
    if (args.host) {
      const HostRun& h = host.at(n);
      for (std::size_t c = 0; c < h.relative.size() && c < r.cycles.size(); ++c)
        std::printf("  cycle %zu: relative residual %.3e (plain C++ %.3e)\n", c + 1,
                    r.cycles[c].relative, h.relative[c]);
      std::printf("  plain C++ + OpenMP %.3f ms per cycle: tessera is %.2fx its speed\n", h.ms,
                  h.ms / t_wall);
      entry["host_ms"] = h.ms;
      entry["speed_vs_host"] = h.ms / t_wall;
    }
    out["sizes"].push_back(entry);
  }
  if (!args.json.empty())
    std::ofstream(args.json) << out.dump(2) << "\n";
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
