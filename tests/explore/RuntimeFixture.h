// Shared setup for the runtime tests: a private cache directory (TESSERA_CACHE_DIR) and one
// session on the default device (PoCL when installed), plus the test kernels.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "runtime/Runtime.h"
#include "tests/TempDir.h"

namespace tessera::testing {

inline runtime::Session& test_session() {
  static runtime::Session session = [] {
    auto dir = make_temp_dir("cache");
    ::setenv("TESSERA_CACHE_DIR", dir.c_str(), 1);
    return runtime::Session(runtime::select_device(""));
  }();
  return session;
}

// Both test kernels live in one program so that PoCL compiles once.
inline const std::string& test_kernels_source() {
  static const std::string source = R"CL(
__kernel void vadd(__global const float* a, __global const float* b, __global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}

// Reverses x within each work-group through local memory and scales it.
__kernel void reverse_scale(__global const float* x, __global float* y, float alpha, int n,
                            __local float* tile) {
  int g = get_global_id(0);
  int l = get_local_id(0);
  tile[l] = g < n ? x[g] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  int partner = get_local_size(0) - 1 - l;
  if (g < n) y[g] = alpha * tile[partner];
}
)CL";
  return source;
}

inline std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v)
    x = dist(rng);
  return v;
}

} // namespace tessera::testing
