// Stencil benchmark: tessera's variants of a catalog stencil against baselines measured in the
// same run: the device's copy bandwidth, a hand-written OpenCL kernel (j2d5pt, j3d7pt), a plain
// C++ loop on the host, and tessera's plain MapGlb lowering.
//
//   ./build/bench/stencil_bench [--device SPEC] [--json FILE] [--tiles 8x16x32] j2d5pt=2048x2048
//   ...
//
// Inputs in constant memory or read as images (place-constant, place-image) are measured where the
// device allows them, as variants of the plain lowering and applied to the best variant itself
// ("best, input 0 as an image (...)"); the fastest of each placement is printed beside the best
// (--only image measures the plain lowering and the image placements only).
//
// --depth D measures the variants of D rewrites (default 1: one), with --only the way to pick a
// few of them: --depth 2 --only temporal-tiling, the separable passes fused in one kernel.
//
// --sums-from N offers the partial sums by plane (stream-nd sums=1) from windows of N points,
// to measure them where the device's threshold (compile/DeviceLimits.cpp) leaves them out.
//
// --only stream,coarsened measures only the variants whose description contains one of the
// words (the plain lowering and the baselines always run); --fused stream-temporal does the same
// for the fused variants of --steps (temporal-tiling: overlapped tiles; stream-temporal: 2.5-D
// blocking, tiles marching along the outermost dimension).
//
// GB/s counts the bytes one sweep must move: every input read once and the output written once.
// With --steps 2,3,4 it also measures overlapped temporal tiling: k steps fused into one kernel
// against k sweeps of the best single-sweep kernel, with the effective bandwidth k * bytes of a
// sweep / time (above the copy bandwidth when fusing saves more traffic than it recomputes).
// Every variant's output is compared with the plain lowering's (itself compared with the
// hand-written kernel where there is one); a mismatch is reported, never timed as a success.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/HandWrittenStencils.h"
#include "bench/StreamLimits.h"
#include "codegen/Kernel.h"
#include "codegen/Program.h"
#include "compile/DeviceLimits.h"
#include "compile/ExecutableVariants.h"
#include "compile/Execute.h"
#include "compile/KernelRunner.h"
#include "compile/Workload.h"
#include "core/Bytes.h"
#include "core/Error.h"
#include "core/Printer.h"
#include "explore/Report.h"
#include "options/BenchArgs.h"
#include "rewrite/Lower.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "runtime/Device.h"
#include "runtime/Launch.h"
#include "runtime/RooflineFile.h"
#include "runtime/Session.h"
#include "runtime/Timing.h"
#include "stencils/Catalog.h"
#include "stencils/Iterated.h"

using namespace tessera;

namespace {

const char* const kUsage =
    "usage: stencil_bench [--device SPEC] [--json FILE] [--tiles AxBx..] [--steps 2x3x4] "
    "[--only WORD,...] [--fused WORD,...] [--depth D] [--sums-from POINTS] NAME=AxB ...";

struct Measurement {
  std::string label, program;
  double ms = 0, gbps = 0, fraction = 0;
  bool ok = true;
  std::string error;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double max_error(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst =
        std::max(worst, std::fabs(double(a[i]) - b[i]) / std::max(1.0, std::fabs(double(b[i]))));
  return worst;
}

std::string history_text(const rewrite::Variant& v) {
  std::string s;
  auto add = [&](const std::string& text) { s += (s.empty() ? "" : "; ") + text; };
  for (const auto& step : v.history)
    add(rewrite::describe(step));
  if (v.mapping)
    add(explore::mapping_line(*v.mapping));
  for (const auto& step : v.after_mapping)
    add(rewrite::describe(step));
  return s.empty() ? "plain" : s;
}

// Whether a variant's description contains one of the --only words (all variants without any).
bool selected(const std::string& description, const std::vector<std::string>& only) {
  if (only.empty())
    return true;
  for (const auto& word : only)
    if (description.find(word) != std::string::npos)
      return true;
  return false;
}

// An explicit work-group size for a kernel of `dims` launch dimensions: `size` cut to them.
std::array<int64_t, 3> local_size_for(int dims, std::array<int64_t, 3> size) {
  for (int d = std::max(dims, 0); d < 3; ++d)
    size[static_cast<std::size_t>(d)] = 0;
  return size;
}

std::string local_label(const std::array<int64_t, 3>& size) {
  return cat(" [local ", size[0], "x", size[1], "]");
}

// A fused kernel's measurement of k steps (`bytes`: what k sweeps move), printed and kept.
void record_fused(Measurement& m, double bytes, double copy_gbps, const std::string& limits,
                  nlohmann::json& out) {
  m.gbps = m.ok ? bytes / (m.ms * 1e6) : 0;
  m.fraction = m.gbps / copy_gbps;
  std::printf("  %-78s %9.3f ms %8.1f GB/s eff. %6.1f%% of copy%s%s\n",
              m.label.substr(0, 78).c_str(), m.ms, m.gbps, 100 * m.fraction, limits.c_str(),
              m.ok ? "" : ("  FAILED: " + m.error).c_str());
  out["measurements"].push_back({{"label", m.label},
                                 {"program", m.program},
                                 {"ms", m.ms},
                                 {"effective_gbps", m.gbps},
                                 {"fraction_of_copy", m.fraction},
                                 {"ok", m.ok},
                                 {"error", m.error}});
}

// k steps fused by temporal tiling against k sweeps of the best single-sweep kernel. The
// reference is the plain single-sweep kernel applied k times (itself checked above).
nlohmann::json bench_temporal(runtime::Session& session, double copy_gbps, const std::string& name,
                              const std::vector<int64_t>& extents,
                              const std::vector<int64_t>& tiles, int k, const std::vector<float>& x,
                              const std::vector<float>& one_sweep, double best_single_ms,
                              const std::vector<std::string>& fused_only) {
  std::vector<ArithExpr> ext(extents.begin(), extents.end());
  double bytes = 2.0 * 4.0 * static_cast<double>(x.size());
  std::map<std::string, int64_t> sizes;
  auto plain =
      codegen::generate_kernel(rewrite::lower_default(stencils::find_stencil(name).build(ext)));
  std::vector<float> reference = one_sweep;
  for (int s = 1; s < k; ++s)
    reference = explore::execute_flat(session, plain, {&reference}, sizes, {0, 1}).output;
  double sweeps_ms = k * best_single_ms;
  std::printf("  -- %d steps: %d sweeps of the best single-sweep kernel %.3f ms = %.1f GB/s "
              "effective (%.1f%% of copy)\n",
              k, k, sweeps_ms, k * bytes / (sweeps_ms * 1e6),
              100 * k * bytes / (sweeps_ms * 1e6) / copy_gbps);
  nlohmann::json out = {{"steps", k}, {"sweeps_ms", sweeps_ms}};
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = tiles;
  options.temporal_steps = {k};
  auto variants = explore::executable_variants(stencils::iterated_stencil(name, ext, k), options);
  runtime::TimingOptions timing{2, 7};
  double best_ms = 1e30;
  std::string best_label;
  // Work-groups are tried with a few explicit sizes too (MapLcl then loops over its extent,
  // which may exceed the device's work-group limit).
  const std::vector<std::array<int64_t, 3>> local_sizes =
      extents.size() == 3
          ? std::vector<std::array<int64_t, 3>>{{32, 4, 2}, {16, 8, 4}, {32, 8, 1}}
          : std::vector<std::array<int64_t, 3>>{{32, 8, 1}, {32, 4, 1}, {64, 4, 1}, {16, 16, 1}};
  // 2.5-D blocking (stream-temporal) runs one-dimensional work-groups over its tile; the
  // register window's own is one work-item per column of its region (up to 1024), and smaller
  // groups own several columns per work-item (more registers each, fewer work-items).
  const std::vector<std::array<int64_t, 3>> stream_sizes{{128, 1, 1}, {512, 1, 1}};
  const std::vector<std::array<int64_t, 3>> register_sizes{{256, 1, 1}, {512, 1, 1}};
  for (std::size_t i = 0; i < variants.variants.size(); ++i) {
    const auto& v = variants.variants[i];
    bool fused = false, streamed = false, registers = false;
    rewrite::Params stream_params;
    for (const auto& step : v.history) {
      fused |= step.rule == "temporal-tiling" || step.rule == "stream-temporal";
      streamed |= step.rule == "stream-temporal";
      registers |= step.rule == "stream-temporal" && step.params.count("registers");
      if (step.rule == "stream-temporal")
        stream_params = step.params;
    }
    if (!fused || !selected(history_text(v), fused_only))
      continue;
    auto first = codegen::generate_kernel(v.program);
    bool tunable = first.launch.dims > 0;
    const auto& sizes_tried = registers ? register_sizes : streamed ? stream_sizes : local_sizes;
    for (std::size_t l = 0; l <= (tunable ? sizes_tried.size() : 0); ++l) {
      codegen::CodegenOptions co;
      // The form first (labels are cut at 78 characters; 2.5-D blocking's in short).
      std::string label = cat("v", i,
                              registers  ? " [registers] "
                              : streamed ? " [local] "
                                         : " ",
                              streamed ? bench::stream_text(stream_params) : history_text(v));
      std::string limits; // after the numbers, uncut
      if (l > 0 && streamed) {
        co.local_size = sizes_tried[l - 1];
        label += cat(" [local ", co.local_size[0], "]");
      } else if (l > 0) {
        co.local_size = local_size_for(first.launch.dims, local_sizes[l - 1]);
        label += local_label(co.local_size);
      }
      Measurement m{label, print(v.program)};
      try {
        auto kernel = codegen::generate_kernel(v.program, co);
        if (streamed)
          limits = bench::stream_limits(session, kernel, stream_params, k,
                                        stencils::find_stencil(name).radius, extents[0]);
        auto run = explore::execute_flat(session, kernel, {&x}, sizes, {0, 1});
        bool slow = run.timing.median_ms > 2 * sweeps_ms;
        if (!slow)
          run = explore::execute_flat(session, kernel, {&x}, sizes, timing);
        m.ms = run.timing.median_ms;
        if (slow)
          m.label += " (one launch: slow)";
        double err = max_error(run.output, reference);
        if (err > 1e-4) {
          m.ok = false;
          m.error = cat("max relative difference ", err, " from ", k, " single sweeps");
        }
      } catch (const Error& e) {
        m.ok = false;
        m.error = e.what();
      }
      record_fused(m, k * bytes, copy_gbps, limits, out);
      if (m.ok && m.ms < best_ms) {
        best_ms = m.ms;
        best_label = m.label + limits;
      }
    }
  }
  if (best_ms < 1e30)
    std::printf("  best fused (%d steps): %s\n  %.3f ms, %.1f GB/s effective = %.1f%% of copy; "
                "%.2fx faster than %d sweeps\n",
                k, best_label.c_str(), best_ms, k * bytes / (best_ms * 1e6),
                100 * k * bytes / (best_ms * 1e6) / copy_gbps, sweeps_ms / best_ms, k);
  out["best_ms"] = best_ms;
  out["best"] = best_label;
  out["speedup_over_sweeps"] = best_ms < 1e30 ? sweeps_ms / best_ms : 0;
  return out;
}

// One stencil's single-sweep measurements and what they share.
struct StencilRun {
  runtime::Session& session;
  explore::Workload& workload;
  double copy_gbps, bytes;
  runtime::TimingOptions timing{2, 7};
  nlohmann::json out;
  std::vector<float> reference;     // the hand-written kernel's output, where there is one
  std::vector<double> baseline_out; // the plain lowering's
  double baseline_ms = 0;

  // Printed and kept in `out`.
  Measurement record(Measurement m) {
    m.gbps = m.ok ? bytes / (m.ms * 1e6) : 0;
    m.fraction = m.gbps / copy_gbps;
    std::printf("  %-78s %9.3f ms %8.1f GB/s %6.1f%% of copy%s\n", m.label.substr(0, 78).c_str(),
                m.ms, m.gbps, 100 * m.fraction, m.ok ? "" : ("  FAILED: " + m.error).c_str());
    out["measurements"].push_back({{"label", m.label},
                                   {"program", m.program},
                                   {"ms", m.ms},
                                   {"gbps", m.gbps},
                                   {"fraction_of_copy", m.fraction},
                                   {"ok", m.ok},
                                   {"error", m.error}});
    return m;
  }

  // Generates, builds and times one kernel of `program` and compares its output with the plain
  // lowering's (the first measurement: with the hand-written kernel's); true when it ran once
  // only, being far slower than the plain lowering.
  bool measure(const Expr& program, const codegen::CodegenOptions& cg, bool first, Measurement& m) {
    bool slow = false;
    try {
      // One kernel, or a program of several (the passes of separate-axes): every launch timed.
      auto kernel = codegen::generate_program(program, cg);
      auto built = explore::build_program(session, kernel);
      // A first single launch; variants far slower than the plain lowering are not repeated.
      auto t = workload.time(kernel, built, {0, 1});
      slow = baseline_ms > 0 && t.median_ms > 4 * baseline_ms;
      if (!slow)
        t = workload.time(kernel, built, timing);
      m.ms = t.median_ms;
      if (slow)
        m.label += " (one launch: slow)";
      double err = 0;
      if (first) {
        baseline_out = workload.run(kernel, built);
        baseline_ms = m.ms;
        if (!reference.empty())
          err = explore::max_relative_difference(
              baseline_out, std::vector<double>(reference.begin(), reference.end()));
      } else if (!baseline_out.empty()) {
        err = workload.run_and_compare(kernel, built, baseline_out);
      }
      if (!explore::within_tolerance(err)) {
        m.ok = false;
        m.error = cat("max relative difference ", err);
      }
    } catch (const Error& e) {
      m.ok = false;
      m.error = e.what();
    }
    return slow;
  }
};

// The host loop and the hand-written kernel of j2d5pt and j3d7pt (none for the others); the
// kernel's output becomes run.reference.
void measure_hand_written(StencilRun& run, const std::string& name,
                          const std::vector<int64_t>& extents, const std::vector<float>& x) {
  if (name != "j2d5pt" && name != "j3d7pt")
    return;
  std::vector<float> host(x.size());
  auto t0 = std::chrono::steady_clock::now();
  if (name == "j2d5pt")
    bench::j2d5pt_loop(x, host, int(extents[0]), int(extents[1]));
  else
    bench::j3d7pt_loop(x, host, int(extents[0]), int(extents[1]), int(extents[2]));
  const double loop_ms =
      run.record({"plain C++ loop (host, 1 thread)", "", seconds_since(t0) * 1e3}).ms;
  runtime::Buffer<float> in(run.session, x), o(run.session, x.size());
  auto kernel =
      run.session.build_kernel(name == "j2d5pt" ? bench::kJ2d5pt : bench::kJ3d7pt, name + "_hand");
  std::vector<runtime::KernelArg> args{in, o};
  runtime::Range global;
  if (name == "j2d5pt") {
    args.push_back(int32_t(extents[0]));
    args.push_back(int32_t(extents[1]));
    global = runtime::Range(extents[1], extents[0]);
  } else {
    for (auto e : extents)
      args.push_back(int32_t(e));
    global = runtime::Range(extents[2], extents[1], extents[0]);
  }
  auto t = runtime::time_kernel(run.session, kernel, args, global, {}, run.timing);
  run.reference = o.read();
  Measurement hand{"hand-written OpenCL kernel", "", t.median_ms};
  hand.ok = max_error(run.reference, host) <= 1e-5;
  if (!hand.ok)
    hand.error = "differs from the host loop";
  run.out["hand_ms"] = run.record(hand).ms;
  run.out["host_loop_ms"] = loop_ms;
}

// The fastest variant, and the fastest of each input placement (printed beside it).
struct Best {
  double ms = 1e30;
  std::string label;
  Expr program;
  codegen::CodegenOptions options;
  std::map<std::string, Measurement> placed = {{"as an image", {"", "", 1e30}},
                                               {"in constant memory", {"", "", 1e30}}};
  void placement(const Measurement& m) {
    for (auto& [word, best] : placed)
      if (m.ok && m.label.find(word) != std::string::npos && m.ms < best.ms)
        best = m;
  }
};

// Every variant (the --only ones; the first, the plain lowering, always), those whose
// work-group size is left to the implementation also with a few explicit sizes.
Best measure_variants(StencilRun& run, const rewrite::LoweredVariants& variants,
                      const std::vector<std::string>& only) {
  const std::vector<std::array<int64_t, 3>> local_sizes = {
      {32, 8, 1}, {64, 4, 1}, {128, 1, 1}, {256, 1, 1}};
  Best best;
  for (std::size_t i = 0; i < variants.variants.size(); ++i) {
    const auto& v = variants.variants[i];
    if (i > 0 && !selected(history_text(v), only))
      continue;
    // A program of several kernels keeps each kernel's own work-groups; one that does not
    // generate is measured once, which records why.
    int dims = 0;
    try {
      auto plain = codegen::generate_program(v.program);
      if (plain.launches.size() == 1 && plain.kernels[0].launch.local[0] == 0)
        dims = plain.kernels[0].launch.dims;
    } catch (const Error&) {
    }
    bool tunable = dims > 0;
    for (std::size_t l = 0; l <= (tunable ? local_sizes.size() : 0); ++l) {
      codegen::CodegenOptions options;
      std::string label = cat("v", i, " ", history_text(v));
      if (l > 0) {
        options.local_size = local_size_for(dims, local_sizes[l - 1]);
        label += local_label(options.local_size);
      }
      Measurement m{label, print(v.program)};
      if (run.measure(v.program, options, i == 0 && l == 0, m))
        tunable = false; // slow: no point trying other work-group sizes
      run.record(m);
      if (m.ok && m.ms < best.ms)
        best = {m.ms, m.label, v.program, options, best.placed};
      best.placement(m);
    }
  }
  return best;
}

// The best variant itself with its input in constant memory or read as an image, where the
// device allows it (same work-group size).
void measure_placements(StencilRun& run, Best& best, const Target& target) {
  if (!best.program)
    return;
  TypeChecker types;
  types.apply(best.program, input_types(best.program));
  rewrite::RuleContext ctx;
  ctx.types = &types;
  ctx.target = target;
  auto rules = rewrite::placement_rules();
  rules.push_back(rewrite::place_image_rule());
  for (const auto& rule : rules)
    for (const auto& alt : rule.apply(best.program, ctx).alternatives) {
      std::string placed = rule.name == "place-image"
                               ? cat("as an image (",
                                     rewrite::image_addressing_name(
                                         static_cast<AddressSpace>(alt.params.at("space"))),
                                     ")")
                               : "in constant memory";
      Measurement m{cat("best, input ", alt.params.at("input"), " ", placed),
                    print(alt.replacement)};
      run.measure(alt.replacement, best.options, false, m);
      run.record(m);
      best.placement(m);
    }
}

void print_best(StencilRun& run, const Best& best) {
  std::printf(
      "  best: %s\n  best vs plain MapGlb lowering: %.2fx; best %.1f GB/s = %.1f%% of copy\n",
      best.label.c_str(), run.baseline_ms / best.ms, run.bytes / (best.ms * 1e6),
      100 * run.bytes / (best.ms * 1e6) / run.copy_gbps);
  if (run.out.contains("hand_ms"))
    std::printf("  best vs hand-written kernel: %.2fx\n",
                run.out["hand_ms"].get<double>() / best.ms);
  for (const auto& [word, m] : best.placed) {
    if (m.label.empty()) {
      std::printf(
          "  best input %s: none measured (the device or the input does not allow it, or --only "
          "left it out)\n",
          word.c_str());
      continue;
    }
    std::printf("  best input %s: %.3f ms (%.2fx the best) %s\n", word.c_str(), m.ms,
                m.ms / best.ms, m.label.c_str());
    run.out["placements"][word] = {{"label", m.label}, {"ms", m.ms}};
  }
  run.out["baseline_ms"] = run.baseline_ms;
  run.out["best_ms"] = best.ms;
  run.out["best"] = best.label;
}

// What the command line chose to measure of every stencil.
struct Selection {
  std::vector<int64_t> tiles{8, 16, 32, 64};
  std::vector<int> steps;
  int depth = 1;
  std::vector<std::string> only, fused_only;
  int64_t sums_from = 0; // the partial sums offered from windows of this many points (0: default)
};

nlohmann::json bench_stencil(runtime::Session& session, double copy_gbps, uint64_t cache_bytes,
                             const std::string& name, const std::vector<int64_t>& extents,
                             const Selection& choice) {
  const auto& [tiles, steps, depth, only, fused_only, sums_from] = choice;
  const auto& info = stencils::find_stencil(name);
  std::vector<ArithExpr> ext(extents.begin(), extents.end());
  Expr program = info.build(ext);
  std::size_t cells = 1;
  for (auto e : extents)
    cells *= static_cast<std::size_t>(e);
  if (info.inputs != 1)
    user_error(name + ": the benchmark handles single-input stencils");
  double bytes = 2.0 * 4.0 * static_cast<double>(cells);
  // The variants run on the explorer's workload: the input uploaded once, every output read back
  // into one buffer and compared as it is read (a 512^3 check costs a fraction of a second).
  explore::Workload workload(session, program, 7);
  const auto& input = workload.inputs().at(0).values;
  std::vector<float> x(input.begin(), input.end()); // for the host loop and the hand-written kernel
  std::string size;
  for (auto e : extents)
    size += (size.empty() ? "" : "x") + std::to_string(e);
  std::printf("\n== %s %s: %zu cells, %.1f MB per sweep%s ==\n", name.c_str(), size.c_str(), cells,
              bytes / 1e6,
              explore::fits_in_cache(bytes, cache_bytes) ? " (fits in the cache: cache-resident)"
                                                         : "");
  StencilRun run{session, workload, copy_gbps, bytes};
  run.out = {{"stencil", name}, {"extents", extents}, {"bytes_per_sweep", bytes}};
  measure_hand_written(run, name, extents, x);
  rewrite::EnumerateOptions options;
  options.depth = depth;
  options.tile_sizes = tiles;
  // The placements (constant memory, images) where this device allows them.
  explore::apply_device_limits(options, session.device());
  if (sums_from > 0)
    options.plane_sums_min_points = sums_from;
  auto variants = explore::executable_variants(program, options);
  std::printf("  %zu variants (%s)\n", variants.variants.size(), variants.stats.summary().c_str());
  Best best = measure_variants(run, variants, only);
  measure_placements(run, best, options.target);
  print_best(run, best);
  for (int k : steps)
    run.out["temporal"].push_back(bench_temporal(
        session, copy_gbps, name, extents, tiles, k, x,
        std::vector<float>(run.baseline_out.begin(), run.baseline_out.end()), best.ms, fused_only));
  return run.out;
}

} // namespace

int main(int argc, char** argv) try {
  // Line by line even into a file: a run stopped by a time limit keeps what it measured.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string device, json_path;
  Selection choice;
  auto& [tiles, steps, depth, only, fused_only, sums_from] = choice;
  std::vector<std::pair<std::string, std::vector<int64_t>>> runs;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--device" && a + 1 < argc)
      device = argv[++a];
    else if (arg == "--json" && a + 1 < argc)
      json_path = argv[++a];
    else if (arg == "--tiles" && a + 1 < argc) {
      tiles.clear();
      for (auto t : bench::whole_numbers(argv[++a], "--tiles", kUsage))
        tiles.push_back(t);
    } else if (arg == "--steps" && a + 1 < argc) {
      for (auto k : bench::whole_numbers(argv[++a], "--steps", kUsage))
        steps.push_back(static_cast<int>(k));
    } else if (arg == "--depth" && a + 1 < argc) {
      depth = static_cast<int>(bench::whole_number(argv[++a], "--depth", kUsage));
      if (depth < 1 || depth > 3)
        user_error(cat("--depth: expected 1, 2 or 3, got ", depth, "\n", kUsage));
    } else if (arg == "--sums-from" && a + 1 < argc) {
      sums_from = bench::whole_number(argv[++a], "--sums-from", kUsage);
    } else if ((arg == "--only" || arg == "--fused") && a + 1 < argc) {
      for (auto& word : bench::split_list(argv[++a]))
        (arg == "--only" ? only : fused_only).push_back(word);
    } else if (arg.find('=') != std::string::npos)
      runs.push_back({arg.substr(0, arg.find('=')),
                      bench::whole_numbers(arg.substr(arg.find('=') + 1), "size", kUsage)});
    else
      user_error(kUsage);
  }
  if (runs.empty())
    runs = {{"j2d5pt", {1024, 1024}}, {"j3d7pt", {128, 128, 128}}};
  auto session = runtime::Session::from_env(device);
  auto copy = runtime::device_roofline(session, runtime::roofline_options_from_env());
  std::printf("device: %s\ncopy roofline: %.1f GB/s (bytes read + written; %s, buffers of %s%s%s)"
              "\nlast-level cache %s: problems that fit in it are cache-resident, not bounded by "
              "the roofline\n",
              session.device().description().c_str(), copy.gb_per_s, copy.method.c_str(),
              tessera::format_bytes(copy.buffer_bytes).c_str(), copy.limited_by.empty() ? "" : "; ",
              copy.limited_by.c_str(), tessera::format_bytes(copy.cache_bytes).c_str());
  nlohmann::json report = {{"device", session.device().description()},
                           {"copy_gbps", copy.gb_per_s},
                           {"cache_bytes", copy.cache_bytes}};
  for (const auto& [name, extents] : runs)
    report["stencils"].push_back(
        bench_stencil(session, copy.gb_per_s, copy.cache_bytes, name, extents, choice));
  if (!json_path.empty())
    std::ofstream(json_path) << report.dump(2) << "\n";
  return 0;
} catch (const tessera::Error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
