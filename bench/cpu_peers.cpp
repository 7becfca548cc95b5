// tessera on the CPU beside what a user would otherwise write, for the catalog's stencils and
// the multigrid layer's operators, all measured in one run on the
// machine's CPU at a size far beyond its last-level cache (by default every input and the output
// of one sweep together 8x the cache):
//   - tessera's best explored variant on PoCL (the explorer with --budget seconds per stencil);
//   - a naive hand-written OpenCL kernel on PoCL (peers/NaiveOpenCL.h);
//   - a plain C++ loop nest at -O3 -march=native with OpenMP on all cores (peers/OpenMPLoop.h);
//   - Halide 14 JIT-compiled for the host, hand-scheduled and autoscheduled (peers/HalidePeer.h);
//   - the copy roofline of the OpenCL device (runtime/Roofline.h) and an OpenMP copy on the host.
// Every output is compared with tessera's (max abs and relative difference) on random data
// before its time counts; a mismatch is printed as FAILED. Ratios are peer time / tessera time
// (above 1: tessera is faster).
//
//   ./build/bench/cpu_peers [--device SPEC] [--budget 60] [--footprint-mib M] [--repeats 5]
//                           [--size2 AxB] [--size3 AxBxC] (explicit grids instead of M)
//                           [--threads N] [--autoschedulers Mullapudi2016,Adams2019]
//                           [--json FILE] [catalog | multigrid | j2d5pt mg_jacobi_2d ...]
// (default: the catalog stencils below and every multigrid operator of
// peers/MultigridOperators.h: smoothers, residual, restrictions, prolongation in 2-D and 3-D).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compile/Workload.h"
#include "core/Bytes.h"
#include "core/Error.h"
#include "explore/Explorer.h"
#include "explore/Report.h"
#include "explore/Variants.h"
#include "options/BenchArgs.h"
#include "peers/HalideProcess.h"
#include "peers/MultigridOperators.h"
#include "peers/NaiveOpenCL.h"
#include "peers/OpenMPLoop.h"
#include "peers/Taps.h"
#include "runtime/Buffer.h"
#include "runtime/CacheSize.h"
#include "runtime/DeviceTarget.h"
#include "runtime/Launch.h"
#include "runtime/RooflineFile.h"
#include "runtime/Session.h"
#include "stencils/Catalog.h"

using namespace tessera;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  std::string device;
  double budget_s = 60;
  double footprint_mib = 0; // 0: 8x the last-level cache
  int repeats = 5;
  int threads = 0; // 0: all cores
  std::vector<std::string> autoschedulers{"Mullapudi2016", "Adams2019"};
  std::string json;
  bench::GridSizes sizes; // explicit grids by dimension count; else from the footprint
  std::vector<std::string> stencils;
  std::filesystem::path halide_helper; // halide_peer beside this program
};

// Extents of a grid of about `cells` cells: multiples of 64 (2-D) or 32 (3-D) per side, so
// that the explorer's tile sizes divide them.
std::vector<int64_t> grid_for(int dims, double cells) {
  int64_t step = dims == 1 ? 1024 : dims == 2 ? 64 : 32;
  // Rounded up, so that the grid is at least the footprint asked for (8x the cache by default).
  int64_t side = static_cast<int64_t>(std::ceil(std::pow(cells, 1.0 / dims) / step - 1e-9)) * step;
  return std::vector<int64_t>(static_cast<std::size_t>(dims), std::max(side, step));
}

struct Result {
  std::string name;
  double ms = 0;
  double max_abs = 0, max_rel = 0; // against tessera's output
  bool ok = true;
  std::string note;
};

// Differences relative to the largest output value: operators with large coefficients (the
// residual's 1/h^2) cancel terms of that size, so a float sum in another order differs by a few
// ulps of the terms, not of the (small) result.
void compare(Result& r, const std::vector<float>& out, const std::vector<float>& reference) {
  double scale = 1;
  for (float v : reference)
    scale = std::max(scale, std::fabs(double(v)));
  for (std::size_t i = 0; i < reference.size(); ++i)
    r.max_abs = std::max(r.max_abs, std::fabs(double(out[i]) - reference[i]));
  r.max_rel = r.max_abs / scale;
  if (out.size() != reference.size() || !(r.max_rel <= 1e-5)) {
    r.ok = false;
    r.note = "FAILED: differs from tessera's output";
  }
}

template <class F> double median_wall_ms(int repeats, F&& run) {
  run(); // warm-up
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    auto t0 = Clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// tessera's best variant: explored within the budget, then re-run on the workload's random
// inputs (which every peer gets too) and timed like the peers, after one warm-up.
Result tessera_best(runtime::Session& session, const peers::OperatorAt& op,
                    const std::vector<int64_t>& extents, const Options& o,
                    std::vector<std::vector<float>>& x, std::vector<float>& out,
                    std::string& best_text) {
  explore::Problem problem = explore::make_problem(
      op.name, [&](const std::vector<int64_t>& e) { return op.build(e, e); }, extents, 1);
  explore::ExploreOptions eo;
  eo.budget_s = o.budget_s;
  eo.repeats = o.repeats;
  explore::Report report = explore::explore(session, problem, eo);
  const explore::PointResult* best = report.best ? report.find(*report.best) : nullptr;
  if (!best || best->status != explore::PointStatus::Ok)
    user_error(cat(op.name, ": the explorer found no working variant"));
  best_text = cat("v", best->variant, " local=", best->local, " ", best->program);
  codegen::CodegenOptions co;
  auto local = explore::parse_local_size(best->local);
  for (std::size_t d = 0; d < local.size() && d < 3; ++d)
    co.local_size[d] = local[d];
  co.target = runtime::target_of(session.device());
  auto kernel =
      explore::generate_variant(problem.variants[static_cast<std::size_t>(best->variant)], co);
  explore::Workload workload(session, problem.program, eo.seed);
  x.clear();
  for (const auto& input : workload.inputs())
    x.emplace_back(input.values.begin(), input.values.end());
  auto built = explore::build_program(session, kernel);
  auto values = workload.run(kernel, built);
  out.assign(values.begin(), values.end());
  Result r{"tessera best (PoCL)"};
  r.ms = workload.time(kernel, built, {1, o.repeats}).median_ms;
  r.note =
      cat(report.points.size(), " points explored in ", static_cast<int>(report.elapsed_s), " s");
  return r;
}

Result naive_opencl(runtime::Session& session, const peers::LinearStencil& s,
                    const std::vector<std::vector<float>>& x, const std::vector<float>& reference,
                    int repeats) {
  std::vector<runtime::Buffer<float>> in;
  for (const auto& values : x)
    in.emplace_back(session, values);
  runtime::Buffer<float> o(session, s.out_cells());
  auto kernel = session.build_kernel(peers::naive_opencl_source(s), "naive_" + s.name);
  std::vector<runtime::KernelArg> args(in.begin(), in.end());
  args.push_back(o);
  Result r{"naive OpenCL kernel (PoCL)"};
  r.ms = runtime::time_kernel(session, kernel, args, runtime::Range(s.out[2], s.out[1], s.out[0]),
                              {}, {1, repeats})
             .median_ms;
  compare(r, o.read(), reference);
  return r;
}

// Bytes moved per cell of the grid an operator is known by (its inputs read once, its output
// written once, f32), from the extents of its grids at n = 64.
double bytes_per_cell(const peers::OperatorAt& op) {
  std::vector<int64_t> e(static_cast<std::size_t>(op.dims), 64);
  double cells = 0, known = std::pow(64.0, op.dims);
  auto count = [](const std::vector<int64_t>& g) {
    double c = 1;
    for (auto v : g)
      c *= static_cast<double>(v);
    return c;
  };
  for (const auto& g : op.inputs(e))
    cells += count(g);
  cells += count(op.output(e));
  return 4.0 * cells / known;
}

// The table of one operator (times, GB/s, GCells/s, share of the roofline, peer / tessera) and
// its JSON.
nlohmann::json print_results(const std::string& name, const std::vector<int64_t>& extents,
                             double bytes, double cells, bool resident,
                             const std::string& best_text, const std::vector<Result>& results,
                             const runtime::Roofline& roofline) {
  const double tessera_ms = results[0].ms;
  nlohmann::json j = {{"stencil", name},
                      {"extents", extents},
                      {"bytes_per_sweep", bytes},
                      {"cache_resident", resident},
                      {"tessera_best", best_text}};
  std::printf("  %-34s %10s %9s %9s %9s %8s  %s\n", "implementation", "ms", "GB/s", "GCells/s",
              resident ? "%cache-res" : "%roofline", "vs tess.", "check / note");
  for (const auto& r : results) {
    double gbps = r.ok && r.ms > 0 ? bytes / (r.ms * 1e6) : 0;
    std::printf("  %-34s %10.3f %9.2f %9.3f %8.1f%% %7.2fx  max abs diff %.2g; %s\n",
                r.name.c_str(), r.ok ? r.ms : 0.0, gbps,
                r.ok && r.ms > 0 ? cells / (r.ms * 1e6) : 0.0, 100 * gbps / roofline.gb_per_s,
                r.ok && tessera_ms > 0 ? r.ms / tessera_ms : 0.0, r.max_abs, r.note.c_str());
    j["results"].push_back({{"name", r.name},
                            {"ms", r.ms},
                            {"gb_per_s", gbps},
                            {"gcells_per_s", r.ms > 0 ? cells / (r.ms * 1e6) : 0.0},
                            {"fraction_of_roofline", gbps / roofline.gb_per_s},
                            {"time_vs_tessera", r.ms / tessera_ms},
                            {"max_abs_diff", r.max_abs},
                            {"ok", r.ok},
                            {"note", r.note}});
  }
  return j;
}

nlohmann::json bench_operator(runtime::Session& session, const runtime::Roofline& roofline,
                              const peers::OperatorAt& op, const Options& o,
                              double footprint_bytes) {
  auto extents = o.sizes.of(op.dims);
  if (extents.empty())
    extents = grid_for(op.dims, footprint_bytes / bytes_per_cell(op));
  auto taps = peers::linear_operator(op, extents);
  const double cells = static_cast<double>(taps.out_cells());
  const double bytes = taps.bytes_per_sweep(); // compulsory traffic of one sweep
  std::string size;
  for (auto v : extents)
    size += (size.empty() ? "" : "x") + std::to_string(v);
  bool resident = explore::fits_in_cache(bytes, roofline.cache_bytes);
  std::printf("\n== %s %s: %.0f Mcells out, %.1f MiB per sweep = %.1fx the %s cache%s ==\n",
              op.name.c_str(), size.c_str(), cells / 1e6, bytes / (1 << 20),
              roofline.cache_bytes ? bytes / double(roofline.cache_bytes) : 0.0,
              tessera::format_bytes(roofline.cache_bytes).c_str(),
              resident ? " (CACHE-RESIDENT)" : "");

  std::vector<std::vector<float>> x;
  std::vector<float> reference;
  std::string best_text;
  std::vector<Result> results;
  results.push_back(tessera_best(session, op, extents, o, x, reference, best_text));
  std::printf("  tessera's best: %s\n", best_text.substr(0, 160).c_str());
  results.push_back(naive_opencl(session, taps, x, reference, o.repeats));
  {
    std::vector<float> out(taps.out_cells());
    std::vector<const float*> in;
    for (const auto& v : x)
      in.push_back(v.data());
    Result r{cat("C++ loop, OpenMP ", o.threads, " threads")};
    r.ms = median_wall_ms(o.repeats, [&] { peers::openmp_sweep(taps, in, out.data()); });
    compare(r, out, reference);
    results.push_back(r);
  }
  std::vector<std::string> schedules{"hand"};
  schedules.insert(schedules.end(), o.autoschedulers.begin(), o.autoschedulers.end());
  for (const std::string& schedule : schedules) {
    auto h = peers::run_halide_process(o.halide_helper, taps, x, schedule, o.repeats, o.threads,
                                       roofline.cache_bytes);
    Result r{cat("Halide 14, ", schedule == "hand" ? "hand schedule" : schedule)};
    r.ms = h.median_ms;
    if (h.error.empty()) {
      compare(r, h.out, reference);
      r.note += (r.note.empty() ? "" : "; ") + cat("compiled in ", h.compile_s, " s");
    } else {
      r.ok = false;
      r.note = "not measured: " + h.error.substr(0, h.error.find('\n'));
    }
    results.push_back(r);
  }
  return print_results(op.name, extents, bytes, cells, resident, best_text, results, roofline);
}

// A catalog stencil or a multigrid operator (peers/MultigridOperators.h) by its name.
peers::OperatorAt operator_named(const std::string& name) {
  if (name.rfind("mg_", 0) == 0)
    return peers::find_multigrid_operator(name);
  return peers::catalog_operator(stencils::find_stencil(name));
}

Options parse(int argc, char** argv) {
  Options o;
  auto value = [&](int& a) -> std::string {
    if (a + 1 >= argc)
      user_error(cat(argv[a], " needs a value"));
    return argv[++a];
  };
  const std::string usage =
      cat("usage: cpu_peers [--device SPEC] [--budget S] [--footprint-mib M] ",
          bench::size_options_usage(), " [--repeats R] [--threads N] ",
          "[--autoschedulers A,B] [--json FILE] [STENCIL ...]");
  auto whole = [&](const std::string& text, const std::string& what) {
    return static_cast<int>(
        std::clamp<int64_t>(bench::whole_number(text, what, usage), INT_MIN, INT_MAX));
  };
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--device")
      o.device = value(a);
    else if (arg == "--budget")
      o.budget_s = bench::decimal_number(value(a), arg, usage);
    else if (arg == "--footprint-mib")
      o.footprint_mib = bench::decimal_number(value(a), arg, usage);
    else if (arg == "--repeats")
      o.repeats = whole(value(a), arg);
    else if (arg == "--threads")
      o.threads = whole(value(a), arg);
    else if (arg == "--autoschedulers")
      o.autoschedulers = bench::split_list(value(a));
    else if (arg == "--json")
      o.json = value(a);
    else if (bench::parse_size_option(
                 arg, [&] { return value(a); }, o.sizes))
      continue;
    else if (!arg.empty() && arg[0] != '-')
      o.stencils.push_back(arg);
    else
      user_error(usage);
  }
  if (o.budget_s <= 0 || o.repeats < 1 || o.footprint_mib < 0 || o.threads < 0)
    user_error("--budget, --repeats and --footprint-mib must be positive, --threads at least 0");
  // "catalog" and "multigrid" name the groups; nothing names both.
  std::vector<std::string> names;
  const std::vector<std::string> catalog{"j2d5pt",  "j2d9pt", "gaussian", "j3d7pt",
                                         "j3d27pt", "heat3d", "poisson3d"};
  if (o.stencils.empty())
    o.stencils = {"catalog", "multigrid"};
  for (const auto& name : o.stencils) {
    auto group = name == "catalog"     ? catalog
                 : name == "multigrid" ? peers::multigrid_operator_names()
                                       : std::vector<std::string>{name};
    names.insert(names.end(), group.begin(), group.end());
  }
  o.stencils = names;
  for (const auto& name : o.stencils)
    operator_named(name); // an unknown name fails before any measurement
  if (o.threads == 0)
    o.threads = omp_get_num_procs();
  o.halide_helper = std::filesystem::path(argv[0]).parent_path() / "halide_peer";
  return o;
}

} // namespace

int main(int argc, char** argv) try {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options o = parse(argc, argv);
  omp_set_num_threads(o.threads);
  auto session = runtime::Session::from_env(o.device);
  auto roofline = runtime::device_roofline(session, runtime::roofline_options_from_env());
  double footprint = o.footprint_mib > 0 ? o.footprint_mib * (1 << 20)
                                         : 8.0 * static_cast<double>(roofline.cache_bytes);
  std::printf("device: %s\nlast-level cache %s (%s)\n", session.device().description().c_str(),
              tessera::format_bytes(roofline.cache_bytes).c_str(), roofline.cache_source.c_str());
  std::printf("copy roofline %.2f GB/s (%s, buffers of %s%s%s)\n", roofline.gb_per_s,
              roofline.method.c_str(), tessera::format_bytes(roofline.buffer_bytes).c_str(),
              roofline.limited_by.empty() ? "" : "; ", roofline.limited_by.c_str());
  {
    std::vector<float> a(static_cast<std::size_t>(footprint / 8), 1.0f), b(a.size());
    double ms = median_wall_ms(3, [&] { peers::openmp_copy(a.data(), b.data(), a.size()); });
    std::printf("host OpenMP copy of %s: %.2f GB/s (%d threads)\n",
                tessera::format_bytes(a.size() * 4).c_str(), 8.0 * a.size() / (ms * 1e6),
                o.threads);
  }
  nlohmann::json report = {{"device", session.device().description()},
                           {"roofline_gb_per_s", roofline.gb_per_s},
                           {"roofline_method", roofline.method},
                           {"cache_bytes", roofline.cache_bytes},
                           {"threads", o.threads},
                           {"budget_s", o.budget_s}};
  for (const auto& name : o.stencils)
    try {
      report["stencils"].push_back(
          bench_operator(session, roofline, operator_named(name), o, footprint));
    } catch (const tessera::Error& e) { // one operator's trouble does not end the others' run
      std::printf("  %s: not measured: %s\n", name.c_str(), e.what());
      report["stencils"].push_back({{"stencil", name}, {"error", e.what()}});
    }
  if (!o.json.empty())
    std::ofstream(o.json) << report.dump(2) << "\n";
  return 0;
} catch (const tessera::Error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
