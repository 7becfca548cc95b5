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

HalideRun run_halide(const LinearStencil&, const std::vector<std::vector<float>>&,
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

HalideRun run_halide(const LinearStencil& s, const std::vector<std::vector<float>>& x,
                     const std::string& schedule, int repeats, int threads, uint64_t cache_bytes) {
  using namespace Halide;
  HalideRun run;
  run.schedule = schedule;
  try {
    const int dims = s.dims;
    Var i("i"), j("j"), k("k");
    std::vector<Var> vars{i, j, k};
    vars.resize(static_cast<std::size_t>(dims));
    auto extent = [&](const Extents3& e, int d) { // Halide's dimension 0 is the innermost
      return static_cast<int>(e[static_cast<std::size_t>(2 - d)]);
    };
    std::vector<ImageParam> in;
    std::vector<Func> bounded;
    for (int m = 0; m < s.inputs(); ++m) {
      in.emplace_back(Float(32), dims, cat("in", m));
      bounded.push_back(s.edge == Boundary::Clamp  ? BoundaryConditions::repeat_edge(in.back())
                        : s.edge == Boundary::Wrap ? BoundaryConditions::repeat_image(in.back())
                                                   : BoundaryConditions::mirror_image(in.back()));
    }
    std::vector<Halide::Expr> sums;
    for (const auto& c : s.classes) {
      Halide::Expr sum = c.bias;
      for (const auto& t : c.taps) {
        const auto m = static_cast<std::size_t>(t.input);
        std::vector<Halide::Expr> at;
        Halide::Expr sign = 1.0f;
        for (int d = 0; d < dims; ++d) {
          Halide::Expr v = vars[static_cast<std::size_t>(d)];
          Halide::Expr b = s.scale[m] == Scale::Same    ? v
                           : s.scale[m] == Scale::Finer ? 2 * v
                                                        : v / 2;
          at.push_back(b + t.offset[static_cast<std::size_t>(2 - d)]);
          if (s.edge == Boundary::Antisymmetric)
            sign = sign *
                   Halide::select(at.back() < 0 || at.back() >= extent(s.in[m], d), -1.0f, 1.0f);
        }
        sum = sum + t.weight * sign * bounded[m](at);
      }
      sums.push_back(sum);
    }
    Halide::Expr value = sums[0];
    if (s.parity) { // the class of a point: (k&1)*4 + (j&1)*2 + (i&1)
      Halide::Expr c = 0;
      for (int d = 0; d < dims; ++d)
        c = c + (vars[static_cast<std::size_t>(d)] % 2) * (1 << d);
      for (std::size_t cl = 1; cl < sums.size(); ++cl)
        value = Halide::select(c == static_cast<int>(cl), sums[cl], value);
    }
    Func out("out");
    out(vars) = value;
    for (int m = 0; m < s.inputs(); ++m) {
      Region estimates;
      for (int d = 0; d < dims; ++d)
        estimates.push_back({0, extent(s.in[static_cast<std::size_t>(m)], d)});
      in[static_cast<std::size_t>(m)].set_estimates(estimates);
    }
    Region estimates;
    for (int d = 0; d < dims; ++d)
      estimates.push_back({0, extent(s.out, d)});
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
    auto sizes = [&](const Extents3& e) {
      std::vector<int> v;
      for (int d = 0; d < dims; ++d)
        v.push_back(extent(e, d));
      return v;
    };
    std::vector<Buffer<float>> inputs;
    for (int m = 0; m < s.inputs(); ++m) {
      const auto mm = static_cast<std::size_t>(m);
      inputs.emplace_back(const_cast<float*>(x[mm].data()), sizes(s.in[mm]));
      in[mm].set(inputs.back());
    }
    run.out.assign(s.out_cells(), 0.0f);
    Buffer<float> output(run.out.data(), sizes(s.out));
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
