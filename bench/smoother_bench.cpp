// Multigrid smoothers fused over k steps by 2.5-D blocking (stream-temporal) against k separate
// steps, with the copy bandwidth measured in the same run:
//
//   ./build/bench/smoother_bench [--device SPEC] [--size N] [--steps K] [--tiles 8x16]
//
// Red-black Gauss-Seidel: k fused steps (2k half-sweeps, the colour masks alternating) against
// k launches of the solver's one-kernel step (gsrb_step) and 2k half-sweep launches (the speedup
// is over the faster of the two); weighted
// Jacobi with its right-hand side: k fused steps against k launches. 3-D, f32, cell-centred,
// homogeneous Dirichlet (antisymmetric). Every fused kernel is compared with the separate
// steps; a mismatch is printed as FAILED, never timed as a success. GB/s counts the bytes of
// k separate steps (u and f read, u written, per step).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "compile/Execute.h"
#include "core/Error.h"
#include "multigrid/Operators.h"
#include "options/BenchArgs.h"
#include "rewrite/Lower.h"
#include "rewrite/rules/StencilStep.h"
#include "runtime/Bandwidth.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

const char* const kUsage =
    "usage: smoother_bench [--device SPEC] [--size N] [--steps K] [--tiles 8x16]";

struct Setup {
  runtime::Session& session;
  double copy_gbps;
  double step_bytes;
  std::vector<float> u, f;
};

// k launches of `kernel` (u, f) -> u: the result and the time of one launch.
std::pair<std::vector<float>, double> separate(Setup& s, const Expr& step, int launches) {
  auto kernel = codegen::generate_kernel(rewrite::lower_default(step));
  std::vector<float> u = s.u;
  double ms = 0;
  for (int i = 0; i < launches; ++i) {
    auto run = explore::execute_flat(s.session, kernel, {&u, &s.f}, {}, {2, 7});
    ms = run.timing.median_ms;
    u = run.output;
  }
  return {u, ms};
}

double max_error(const std::vector<float>& a, const std::vector<float>& b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    e = std::max(e,
                 std::abs(static_cast<double>(a[i]) - b[i]) / std::max(1.0, std::abs(1.0 * b[i])));
  return e;
}

void fused(Setup& s, const char* name, const Expr& program, int64_t steps, int k,
           const std::vector<int64_t>& tiles, const std::vector<float>& reference,
           double separate_ms) {
  TypeChecker types;
  types.apply(program, input_types(program));
  rewrite::RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = tiles;
  ctx.temporal_steps = {steps};
  double best = 1e30;
  for (const auto& form :
       rewrite::stream_temporal_rule().apply(program->body(), ctx).alternatives) {
    Expr lowered = rewrite::lower_default(make_lambda(program->params(), form.replacement));
    for (int64_t local : {0, 128, 256, 512}) {
      codegen::CodegenOptions co;
      co.local_size = {local, 0, 0};
      std::string label =
          cat(name, form.params.count("registers") ? " regs" : " lmem", " tile ",
              form.params.at("tile"), "x", form.params.at("tile_inner"),
              form.params.count("segment") ? cat(" seg ", form.params.at("segment")) : "",
              " group ", local ? std::to_string(local) : "auto");
      try {
        auto kernel = codegen::generate_kernel(lowered, co);
        auto run = explore::execute_flat(s.session, kernel, {&s.u, &s.f}, {}, {2, 7});
        double err = max_error(run.output, reference);
        double ms = run.timing.median_ms, gbps = k * s.step_bytes / (ms * 1e6);
        std::printf("  %-48s %9.3f ms %8.1f GB/s eff. %6.1f%% of copy  %.2fx  %lld KiB local%s\n",
                    label.c_str(), ms, gbps, 100 * gbps / s.copy_gbps, separate_ms / ms,
                    static_cast<long long>(kernel.local_memory_bytes / 1024),
                    err > 1e-4 ? cat("  FAILED: max relative difference ", err).c_str() : "");
        if (err <= 1e-4)
          best = std::min(best, ms);
      } catch (const Error& e) {
        std::printf("  %-48s FAILED: %s\n", label.c_str(), e.what());
      }
    }
  }
  if (best < 1e30)
    std::printf("  best fused %s: %.3f ms = %.1f%% of copy in effective bandwidth; %.2fx the "
                "separate steps (%.3f ms)\n",
                name, best, 100 * k * s.step_bytes / (best * 1e6) / s.copy_gbps, separate_ms / best,
                separate_ms);
}

} // namespace

int main(int argc, char** argv) try {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string device;
  int64_t n = 64;
  int k = 2;
  std::vector<int64_t> tiles{8, 16};
  for (int a = 1; a + 1 < argc; a += 2) {
    std::string arg = argv[a], value = argv[a + 1];
    if (arg == "--device")
      device = value;
    else if (arg == "--size")
      n = bench::whole_number(value, "--size", kUsage);
    else if (arg == "--steps")
      k = static_cast<int>(
          std::clamp<int64_t>(bench::whole_number(value, "--steps", kUsage), 0, 1 << 20));
    else if (arg == "--tiles")
      tiles = bench::whole_numbers(value, "--tiles", kUsage);
    else
      user_error(kUsage);
  }
  if (argc % 2 == 0 || n < 4 || k < 1)
    user_error(cat(kUsage, " (N >= 4, K >= 1)"));
  auto session = runtime::Session::from_env(device);
  auto copy = runtime::measure_copy_bandwidth(session, std::size_t{256} << 20);
  std::printf("device: %s\ncopy bandwidth: %.1f GB/s\n", session.device().description().c_str(),
              copy.gb_per_s);
  Level level{3, n, ScalarKind::F32, Centring::Cell};
  Boundary bc = Boundary::antisymmetric();
  std::size_t cells = static_cast<std::size_t>(n * n * n);
  Setup s{session, copy.gb_per_s, 3.0 * 4.0 * static_cast<double>(cells), {}, {}};
  for (std::size_t i = 0; i < cells; ++i) {
    s.u.push_back(static_cast<float>((i * 7919) % 1000) / 1000.0f);
    s.f.push_back(static_cast<float>((i * 104729) % 997) / 997.0f);
  }
  std::printf("%lld^3, %d steps\n", static_cast<long long>(n), k);
  auto [gs, gs_ms] = separate(s, gsrb_step(level, bc), k);
  auto [halves, half_ms] = separate(s, gsrb_half_sweep(level, bc, 0), 1);
  std::printf("  separate Gauss-Seidel: %d x gsrb_step %.3f ms = %.3f ms; 2k half-sweeps about "
              "%.3f ms\n",
              k, gs_ms, k * gs_ms, 2 * k * half_ms);
  // Against the faster of the two separate forms (the solver's default is the half-sweeps).
  fused(s, "gsrb", gsrb_steps(level, bc, k), 2 * k, k, tiles, gs,
        std::min(k * gs_ms, 2 * k * half_ms));
  double omega = 6.0 / 7.0;
  auto [jac, jac_ms] = separate(s, jacobi(level, bc, omega), k);
  std::printf("  separate Jacobi: %d x %.3f ms = %.3f ms\n", k, jac_ms, k * jac_ms);
  fused(s, "jacobi", jacobi_steps(level, bc, omega, k), k, k, tiles, jac, k * jac_ms);
  return 0;
} catch (const tessera::Error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
