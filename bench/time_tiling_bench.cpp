// Time tilings of k stencil steps side by side in one run: k sweeps (the plain lowering, one
// launch per step), overlapped temporal tiling (k steps in one kernel, halos recomputed),
// diamond tiling and parallelogram tiling (programs of kernels, no redundant work), and on a CPU
// rolling tiles (one work-item a strip, codegen/RollingKernel.h).
//
//   ./build/bench/time_tiling_bench [--device SPEC] [--steps 4,8] [--tiles 16,32,64]
//       [--max 4] [--repeats 5] [--work-items 1|128] [--sweep-budget 60]
//       j1d3pt=16777216 j2d5pt=4096x4096
//
// For each stencil, size and k it times up to --max variants of each tiling (the tile widths
// --tiles, 16x wider in 1-D; band heights min(k,4) and k) and prints the fastest of each with
// its speedup over k sweeps, its effective bandwidth (k x the bytes of one sweep / time) and
// its stencil evaluations against k x N. --work-items keeps the diamond and parallelogram
// variants with that many work-items per tile (1 suits CPUs, 128 GPUs). Every variant's output is
// compared with the k sweeps' output; one that differs is printed as FAILED, never timed as a
// success. Times are the sums of the launches' profiled times (median of --repeats), and the mean
// wall time of a run of the whole program, each launch waited for (launch gaps included: a
// parallelogram's many small launches pay them). The speedups compare wall times. The k sweeps
// are the plain lowering, which may run below the memory bandwidth (on PoCL far below): so each
// variant is also compared with k ideal sweeps, each moving its bytes at the device's copy
// bandwidth (measured at the start, buffers of 256 MiB), and with k sweeps of the fastest
// single sweep the explorer finds in --sweep-budget seconds (default 60).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "codegen/Program.h"
#include "compile/DeviceLimits.h"
#include "compile/ExecutableVariants.h"
#include "compile/Workload.h"
#include "core/Error.h"
#include "explore/Evaluations.h"
#include "explore/Explorer.h"
#include "explore/Family.h"
#include "explore/VariantNames.h"
#include "explore/Variants.h"
#include "runtime/DeviceTarget.h"
#include "runtime/Roofline.h"
#include "runtime/Session.h"
#include "stencils/Iterated.h"

using namespace tessera;

namespace {

std::vector<int64_t> parse_list(const std::string& text, char separator) {
  std::vector<int64_t> values;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = std::min(text.find(separator, at), text.size());
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(text.substr(at, end - at), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != end - at || v <= 0)
      user_error("bad number list '" + text + "'");
    values.push_back(v);
    at = end + 1;
  }
  return values;
}

struct Measured {
  double ms = 0, wall_ms = 0;
  bool ok = false;
  double difference = 0;
};

// Wall time per run of the whole program: every launch waited for (launch gaps included: a
// parallelogram's many small launches pay them), timed around the timing runs themselves.
runtime::Timing timed(explore::Workload& w, const codegen::KernelProgram& program,
                      std::vector<runtime::Kernel>& built, int repeats, double* wall_ms) {
  auto timing = w.time(program, built, {1, repeats}); // warm: the runs below are too
  auto start = std::chrono::steady_clock::now();
  w.time(program, built, {0, repeats});
  *wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
      repeats;
  return timing;
}

// The wall time of the fastest single sweep the explorer finds in `budget_s` seconds (the
// device's variants of one step, each checked against the plain lowering), timed as the fused
// programs are, and its name.
std::pair<double, std::string> best_sweep(runtime::Session& session, const std::string& name,
                                          const std::vector<int64_t>& extents, double budget_s,
                                          int repeats) {
  rewrite::EnumerateOptions control;
  explore::apply_device_limits(control, session.device());
  explore::Problem problem = explore::make_problem(
      name,
      [&](const std::vector<int64_t>& e) {
        return stencils::iterated_stencil(name, std::vector<ArithExpr>(e.begin(), e.end()), 1);
      },
      extents, 1, control);
  explore::ExploreOptions eo;
  eo.budget_s = budget_s;
  eo.repeats = repeats;
  explore::Report report = explore::explore(session, problem, eo);
  const explore::PointResult* best = report.best ? report.find(*report.best) : nullptr;
  if (!best || best->status != explore::PointStatus::Ok)
    user_error(cat(name, ": the explorer found no working single sweep"));
  codegen::CodegenOptions co;
  auto local = explore::parse_local_size(best->local);
  for (std::size_t d = 0; d < local.size() && d < 3; ++d)
    co.local_size[d] = local[d];
  co.target = runtime::target_of(session.device());
  const auto& variant = problem.variants[static_cast<std::size_t>(best->variant)];
  auto kernels = explore::generate_variant(variant, co);
  auto built = explore::build_program(session, kernels);
  explore::Workload workload(session, problem.program, 1);
  double wall_ms = 0;
  timed(workload, kernels, built, repeats, &wall_ms);
  std::string label = cat(explore::variant_name(variant.history), " [local ", best->local, "]");
  std::printf("  best single sweep (%zu points explored in %.0f s): %.2f ms wall (%s)\n",
              report.points.size(), report.elapsed_s, wall_ms, label.c_str());
  return {wall_ms, label};
}

void bench(runtime::Session& session, const std::string& name, const std::vector<int64_t>& extents,
           int k, const std::vector<int64_t>& tiles, int max_per_family, int repeats,
           int64_t work_items, double copy_gb_per_s, double best_sweep_ms) {
  std::vector<ArithExpr> ext(extents.begin(), extents.end());
  Expr program = stencils::iterated_stencil(name, ext, k);
  rewrite::EnumerateOptions options;
  options.tile_sizes = tiles;
  options.temporal_steps = {k};
  // The device's limits: its local memory, and the rolling tiles on a CPU.
  explore::apply_device_limits(options, session.device());
  std::vector<explore::VariantInfo> variants;
  for (const auto& v : explore::executable_variants(program, options).variants)
    variants.push_back(explore::variant_info(v));
  explore::Problem problem;
  problem.program = program;
  problem.extents = extents;
  problem.variants = variants;

  std::string size;
  for (auto e : extents)
    size += (size.empty() ? "" : "x") + std::to_string(e);
  std::printf("\n%s %s, k = %d\n", name.c_str(), size.c_str(), k);
  explore::Workload workload(session, program, 1);
  std::vector<double> reference;
  double sweeps_ms = 0;
  std::size_t sweep_bytes = 0;
  // Per tiling, the variants with the widest tiles first (the least halo or edge traffic).
  std::vector<std::size_t> order;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    std::string family = explore::variant_family(variants[v].history);
    auto steps = variants[v].params.find("steps");
    bool fused_all = steps != variants[v].params.end() && steps->second == k;
    auto items = variants[v].params.find("work_items");
    if (work_items > 0 && items != variants[v].params.end() && items->second != work_items)
      continue;
    const auto& mapping = variants[v].history.mapping;
    const bool work_groups = mapping && (mapping->kind == rewrite::MappingKind::WorkGroups ||
                                         mapping->kind == rewrite::MappingKind::LocalMemory);
    if (v == 0 || (family == "temporal" && fused_all && work_groups) || family == "diamond" ||
        family == "parallelogram" || family == "rolling")
      order.push_back(v);
  }
  auto tile = [&](std::size_t v) {
    auto t = variants[v].params.find("tile");
    return t == variants[v].params.end() ? 0 : t->second;
  };
  std::stable_sort(order.begin() + 1, order.end(),
                   [&](std::size_t a, std::size_t b) { return tile(a) > tile(b); });
  std::map<std::string, int> tried;
  for (std::size_t v : order) {
    std::string family = explore::variant_family(variants[v].history);
    if (v > 0 && tried[family]++ >= max_per_family)
      continue;
    std::string what = v == 0 ? "k sweeps" : family;
    std::string params;
    for (const auto& [p, value] : variants[v].params)
      params += (params.empty() ? "" : ", ") + p + "=" + std::to_string(value);
    try {
      auto kernels = codegen::generate_program(variants[v].program);
      auto built = explore::build_program(session, kernels);
      Measured m;
      if (v == 0) {
        reference = workload.run(kernels, built);
        sweep_bytes = workload.bytes_moved(kernels);
      } else {
        m.difference = workload.run_and_compare(kernels, built, reference);
      }
      if (m.difference > 1e-5) {
        std::printf("  %-14s {%s}: FAILED, max relative difference %.3g to k sweeps\n",
                    what.c_str(), params.c_str(), m.difference);
        continue;
      }
      m.ms = timed(workload, kernels, built, repeats, &m.wall_ms).median_ms;
      double ideal_ms = k * static_cast<double>(sweep_bytes) / (copy_gb_per_s * 1e6);
      if (v == 0) {
        sweeps_ms = m.wall_ms;
        std::printf("  k ideal sweeps at the copy bandwidth (%.1f GB/s): %.2f ms; k sweeps of the "
                    "best single sweep: %.2f ms\n",
                    copy_gb_per_s, ideal_ms, k * best_sweep_ms);
      }
      auto evaluations = explore::stencil_evaluations(problem, variants[v]);
      double kN = static_cast<double>(k) * static_cast<double>(workload.output_cells(kernels));
      std::printf("  %-14s %8.2f ms profiled, %8.2f ms wall, %5zu launches  %5.2fx over k sweeps "
                  "(%5.2fx over ideal, %5.2fx over k best sweeps)  %6.1f GB/s effective  "
                  "evaluations %.3f x kN  {%s}\n",
                  what.c_str(), m.ms, m.wall_ms, kernels.launches.size(), sweeps_ms / m.wall_ms,
                  ideal_ms / m.wall_ms, k * best_sweep_ms / m.wall_ms,
                  k * static_cast<double>(sweep_bytes) / (m.wall_ms * 1e6), // k sweeps' bytes
                  evaluations ? static_cast<double>(*evaluations) / kN : -1.0, params.c_str());
    } catch (const Error& e) {
      std::printf("  %-14s {%s}: not run: %s\n", what.c_str(), params.c_str(), e.what());
    }
  }
}

} // namespace

int main(int argc, char** argv) try {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string device;
  std::vector<int64_t> steps{4, 8}, tiles{16, 32, 64};
  int max_per_family = 4, repeats = 5;
  double sweep_budget_s = 60;
  int64_t work_items = 0;
  std::vector<std::pair<std::string, std::vector<int64_t>>> runs;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--device" && a + 1 < argc)
      device = argv[++a];
    else if (arg == "--steps" && a + 1 < argc)
      steps = parse_list(argv[++a], ',');
    else if (arg == "--tiles" && a + 1 < argc)
      tiles = parse_list(argv[++a], ',');
    else if (arg == "--max" && a + 1 < argc)
      max_per_family = static_cast<int>(parse_list(argv[++a], ',').at(0));
    else if (arg == "--work-items" && a + 1 < argc)
      work_items = parse_list(argv[++a], ',').at(0);
    else if (arg == "--sweep-budget" && a + 1 < argc)
      sweep_budget_s = std::stod(argv[++a]);
    else if (arg == "--repeats" && a + 1 < argc)
      repeats = static_cast<int>(parse_list(argv[++a], ',').at(0));
    else if (arg.find('=') != std::string::npos)
      runs.push_back(
          {arg.substr(0, arg.find('=')), parse_list(arg.substr(arg.find('=') + 1), 'x')});
    else
      user_error("usage: time_tiling_bench [--device SPEC] [--steps 4,8] [--tiles 16,32,64] "
                 "[--max N] [--repeats N] [--work-items N] [--sweep-budget S] NAME=AxB ...");
  }
  if (runs.empty())
    runs = {{"j1d3pt", {1 << 24}}, {"j2d5pt", {4096, 4096}}};
  auto session = runtime::Session::from_env(device);
  std::printf("device: %s\n", session.device().description().c_str());
  runtime::Roofline copy = runtime::measure_roofline(session, std::size_t{256} << 20);
  std::printf("copy bandwidth: %.1f GB/s (%s, two buffers of 256 MiB)\n", copy.gb_per_s,
              copy.method.c_str());
  for (const auto& [name, extents] : runs) {
    std::printf("\n%s:\n", name.c_str());
    double sweep_ms = best_sweep(session, name, extents, sweep_budget_s, repeats).first;
    for (auto k : steps)
      bench(session, name, extents, static_cast<int>(k), tiles, max_per_family, repeats, work_items,
            copy.gb_per_s, sweep_ms);
  }
  return 0;
} catch (const tessera::Error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
