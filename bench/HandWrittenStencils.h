// stencil_bench's hand-written baselines of j2d5pt and j3d7pt: OpenCL kernels of one work-item
// a point with clamped indices, and the same stencils as plain single-threaded C++ loops.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tessera::bench {

inline const char* const kJ2d5pt = R"(
__kernel void j2d5pt_hand(const __global float* restrict x, __global float* restrict out,
                          const int H, const int W) {
  const int j = get_global_id(0), i = get_global_id(1);
  const int n = max(i - 1, 0), s = min(i + 1, H - 1), w = max(j - 1, 0), e = min(j + 1, W - 1);
  out[i * W + j] = (5.0f * x[n * W + j] + 12.0f * x[i * W + w] + 15.0f * x[i * W + j] +
                    5.0f * x[s * W + j] + 12.0f * x[i * W + e]) / 118.0f;
})";

inline const char* const kJ3d7pt = R"(
__kernel void j3d7pt_hand(const __global float* restrict x, __global float* restrict out,
                          const int D, const int H, const int W) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  const long plane = (long)H * W;
  const long c = k * plane + (long)j * W + i;
  const float e = x[c - i + min(i + 1, W - 1)], w = x[c - i + max(i - 1, 0)];
  const float s = x[c + ((long)min(j + 1, H - 1) - j) * W], n = x[c + ((long)max(j - 1, 0) - j) * W];
  const float b = x[c + ((long)min(k + 1, D - 1) - k) * plane];
  const float f = x[c + ((long)max(k - 1, 0) - k) * plane];
  out[c] = 0.161f * e + 0.162f * w + 0.163f * s + 0.164f * n + 0.165f * b + 0.166f * f - 1.67f * x[c];
})";

// The same stencils as plain C++ loops (single-threaded), for the host baseline.
inline void j2d5pt_loop(const std::vector<float>& x, std::vector<float>& out, int H, int W) {
  for (int i = 0; i < H; ++i)
    for (int j = 0; j < W; ++j) {
      int n = std::max(i - 1, 0), s = std::min(i + 1, H - 1), w = std::max(j - 1, 0),
          e = std::min(j + 1, W - 1);
      out[i * W + j] = (5.0f * x[n * W + j] + 12.0f * x[i * W + w] + 15.0f * x[i * W + j] +
                        5.0f * x[s * W + j] + 12.0f * x[i * W + e]) /
                       118.0f;
    }
}

inline void j3d7pt_loop(const std::vector<float>& x, std::vector<float>& out, int D, int H, int W) {
  auto at = [&](int k, int j, int i) { return x[(static_cast<std::size_t>(k) * H + j) * W + i]; };
  for (int k = 0; k < D; ++k)
    for (int j = 0; j < H; ++j)
      for (int i = 0; i < W; ++i)
        out[(static_cast<std::size_t>(k) * H + j) * W + i] =
            0.161f * at(k, j, std::min(i + 1, W - 1)) + 0.162f * at(k, j, std::max(i - 1, 0)) +
            0.163f * at(k, std::min(j + 1, H - 1), i) + 0.164f * at(k, std::max(j - 1, 0), i) +
            0.165f * at(std::min(k + 1, D - 1), j, i) + 0.166f * at(std::max(k - 1, 0), j, i) -
            1.67f * at(k, j, i);
}

} // namespace tessera::bench
