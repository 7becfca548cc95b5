// Code generation report: the size of every thesis kernel, whether its interior is free of
// clamps, and the median time to generate the 3-D multigrid kernels from their lowered
// expressions (target: under 5 ms each).
//
//   ./build/bench/codegen_bench
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "stencils/Thesis.h"

using namespace tessera;
using namespace tessera::stencils;

namespace {

struct Entry {
  const char* listing;
  const char* name;
  std::function<Expr()> build;
};

int count_lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

// The interior branch of a kernel split into interior and boundary, or "" when not split.
std::string interior_of(const std::string& source) {
  auto start = source.find("if (gid");
  auto split = source.find("} else {");
  if (start == std::string::npos || split == std::string::npos)
    return "";
  return source.substr(start, split - start);
}

double median_generation_ms(const std::function<Expr()>& build, int repeats) {
  Expr program = build();
  std::vector<double> samples;
  for (int i = 0; i < repeats; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    auto kernel = codegen::generate_kernel(program);
    auto t1 = std::chrono::steady_clock::now();
    if (kernel.source.empty())
      std::abort();
    samples.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    std::fprintf(stderr, "error: unknown argument %s; usage: codegen_bench (no arguments)\n",
                 argv[1]);
    return 2;
  }
  const double a = 0.8, b = 1.3, h2inv = 4.0;
  std::vector<Entry> entries = {
      {"2.1", "restrict_1d (n=256)", [] { return restrict_1d(256); }},
      {"2.2", "restrict_2d (n=256)", [] { return restrict_2d(256); }},
      {"2.3", "restrict_3d (n=256)", [] { return restrict_3d(256); }},
      {"2.4", "prolong_1d (n=128)", [] { return prolong_1d(128); }},
      {"2.5", "prolong_3d (n=64 -> 128^3)", [] { return prolong_3d(64); }},
      {"2.7", "multi_input_1d (n=256)", [] { return multi_input_1d(256); }},
      {"2.8", "residual_3d (n=128)", [=] { return residual_3d(128, a, b, h2inv); }},
      {"2.10", "gsrb_smooth_3d (n=128)", [=] { return gsrb_smooth_3d(128, a, b, h2inv); }},
      {"2.10", "gsrb_smooth_3d_generated",
       [=] { return gsrb_smooth_3d_generated(128, a, b, h2inv, 0); }},
      {"3.1", "tiled_restrict_1d (tile 64)", [] { return tiled_restrict_1d(4096, 64); }},
      {"3.2", "overlapped_tiling_1d (tile 64)", [] { return overlapped_tiling_1d(4096, 64); }},
      {"3.3", "temporal_tiling_1d", [] { return temporal_tiling_1d(4096); }},
      {"3.4", "temporal_tiling_1d_optimized", [] { return temporal_tiling_1d_optimized(4096); }},
      {"4.1", "spatial_tiling_2d (tile 16)", [] { return spatial_tiling_2d(256, 16); }},
  };
  std::printf("%-8s %-32s %8s %6s %-24s\n", "listing", "kernel", "chars", "lines", "interior");
  for (const auto& e : entries) {
    auto kernel = codegen::generate_kernel(e.build());
    std::string interior = interior_of(kernel.source);
    const char* verdict =
        interior.empty() ? "not split"
        : (interior.find("min(") == std::string::npos && interior.find("max(") == std::string::npos)
            ? "split, no clamps"
            : "split, clamps remain";
    std::printf("%-8s %-32s %8zu %6d %-24s\n", e.listing, e.name, kernel.source.size(),
                count_lines(kernel.source), verdict);
  }
  auto prolong = codegen::generate_kernel(prolong_3d(64));
  std::printf("\n3-D prolongation (Listing 2.5, 128^3 output): %zu characters; Lift's kernel has "
              "over 13,000: ratio %.2f (target <= 0.33)\n",
              prolong.source.size(), prolong.source.size() / 13000.0);

  std::printf("\nmedian generation time over 51 runs (target < 5 ms):\n");
  for (const auto& e : entries) {
    std::string name = e.name;
    if (name.find("_3d") == std::string::npos)
      continue;
    std::printf("  %-32s %8.3f ms\n", e.name, median_generation_ms(e.build, 51));
  }
  return 0;
}
