#include "peers/HalidePeer.h"

#include <algorithm>
#include <chrono>

#include "core/Error.h"

#ifdef TESSERA_HAVE_HALIDE
#include <Halide.h>
#endif

namespace tessera::peers {

#ifndef TESSERA_HAVE_HALIDE

bool halide_available() {
  return false;
}

HalideRun run_halide(const LinearStencil&, const std::vector<float>&, const std::array<int64_t, 3>&,
                     const std::string& schedule, int, int, uint64_t) {
  HalideRun r;
  r.schedule = schedule;
  r.error = "this build has no Halide (scripts/install-bench-deps.sh installs libhalide14-0-dev)";
  return r;
}

#else

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Loads an autoscheduler plugin once (Halide 14 registers it by name when loaded).
void load_autoscheduler(const std::string& name) {
  static std::vector<std::string> loaded;
  if (std::find(loaded.begin(), loaded.end(), name) != loaded.end())
    return;
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
  Halide::load_plugin(std::string(TESSERA_HALIDE_PLUGIN_DIR) + "/libautoschedule_" + lower + ".so");
  loaded.push_back(name);
}

} // namespace

bool halide_available() {
  return true;
}

HalideRun run_halide(const LinearStencil& s, const std::vector<float>& x,
                     const std::array<int64_t, 3>& e, const std::string& schedule, int repeats,
                     int threads, uint64_t cache_bytes) {
  using namespace Halide;
  HalideRun run;
  run.schedule = schedule;
  try {
    const int dims = s.dims;
    ImageParam in(Float(32), dims, "in");
    Var i("i"), j("j"), k("k");
    std::vector<Var> vars{i, j, k};
    vars.resize(static_cast<std::size_t>(dims));
    Func clamped = BoundaryConditions::repeat_edge(in);
    Expr sum = s.bias;
    for (const auto& t : s.taps) {
      std::vector<Expr> at;
      for (int d = 0; d < dims; ++d) // Halide's dimension 0 is the innermost (i)
        at.push_back(vars[static_cast<std::size_t>(d)] + t.offset[static_cast<std::size_t>(2 - d)]);
      sum = sum + t.weight * clamped(at);
    }
    Func out("out");
    out(vars) = sum;
    Region estimates;
    for (int d = 0; d < dims; ++d)
      estimates.push_back({0, static_cast<int>(e[static_cast<std::size_t>(2 - d)])});
    in.set_estimates(estimates);
    out.set_estimates(estimates);
    Pipeline pipeline(out);
    Target target = get_jit_target_from_environment();
    auto t0 = Clock::now();
    if (schedule == "hand") {
      Var outer("outer"), inner("inner");
      if (dims == 1)
        out.split(i, outer, inner, 1 << 14).parallel(outer).vectorize(inner, 16);
      else if (dims == 2)
        out.split(j, outer, inner, 8).parallel(outer).vectorize(i, 16);
      else // y-bands streaming through the planes: three planes of a band stay in L2
        out.split(j, outer, inner, 16).reorder(i, inner, k, outer).parallel(outer).vectorize(i, 16);
    } else {
      load_autoscheduler(schedule);
      pipeline.auto_schedule(schedule, target, MachineParams(threads, cache_bytes, 40));
    }
    pipeline.compile_jit(target);
    run.compile_s = seconds_since(t0);
    std::vector<int> sizes;
    for (int d = 0; d < dims; ++d)
      sizes.push_back(static_cast<int>(e[static_cast<std::size_t>(2 - d)]));
    Buffer<float> input(const_cast<float*>(x.data()), sizes);
    run.out.assign(x.size(), 0.0f);
    Buffer<float> output(run.out.data(), sizes);
    in.set(input);
    pipeline.realize(output); // warm-up (first touch, thread pool)
    std::vector<double> samples;
    for (int r = 0; r < repeats; ++r) {
      auto t = Clock::now();
      pipeline.realize(output);
      samples.push_back(seconds_since(t) * 1e3);
    }
    std::sort(samples.begin(), samples.end());
    run.median_ms = samples[samples.size() / 2];
  } catch (const Halide::Error& err) {
    run.error = err.what();
    run.out.clear();
  }
  return run;
}

#endif

} // namespace tessera::peers
