#include "peers/OpenMPLoop.h"

#include <algorithm>
#include <vector>

#include "core/Error.h"

namespace tessera::peers {

namespace {

inline int64_t clamp_index(int64_t i, int64_t n) {
  return std::min(std::max<int64_t>(i, 0), n - 1);
}

constexpr int kMaxTaps = 64;

void sweep(const LinearStencil& s, const float* x, float* out, const std::array<int64_t, 3>& e) {
  const int taps = static_cast<int>(s.taps.size());
  std::vector<float> weight(static_cast<std::size_t>(taps));
  std::vector<int> di(static_cast<std::size_t>(taps));
  for (int t = 0; t < taps; ++t) {
    weight[static_cast<std::size_t>(t)] = s.taps[static_cast<std::size_t>(t)].weight;
    di[static_cast<std::size_t>(t)] = s.taps[static_cast<std::size_t>(t)].offset[2];
  }
  const int64_t D = e[0], H = e[1], W = e[2], r = s.radius;
  const float bias = s.bias;
#pragma omp parallel for collapse(2) schedule(dynamic, 8) // robust to a loaded machine
  for (int64_t k = 0; k < D; ++k)
    for (int64_t j = 0; j < H; ++j) {
      const float* row[kMaxTaps];
      float w[kMaxTaps];
      int shift[kMaxTaps];
      for (int t = 0; t < taps; ++t) {
        const auto& o = s.taps[static_cast<std::size_t>(t)].offset;
        row[t] = x + (clamp_index(k + o[0], D) * H + clamp_index(j + o[1], H)) * W;
        w[t] = weight[static_cast<std::size_t>(t)];
        shift[t] = di[static_cast<std::size_t>(t)];
      }
      float* o = out + (k * H + j) * W;
      const int64_t begin = std::min(r, W), end = std::max(begin, W - r);
      const float* src[kMaxTaps]; // each tap's row, shifted: contiguous in i
      for (int t = 0; t < taps; ++t)
        src[t] = row[t] + shift[t];
      // Chunks of the row that stay in L1 while every tap is added to them: each tap's pass is
      // a plain vectorised multiply-add over contiguous floats.
      for (int64_t c = begin; c < end; c += 512) {
        const int64_t stop = std::min(end, c + 512);
        for (int64_t i = c; i < stop; ++i)
          o[i] = bias;
        for (int t = 0; t < taps; ++t) {
          const float* in = src[t];
          const float wt = w[t];
          for (int64_t i = c; i < stop; ++i)
            o[i] += wt * in[i];
        }
      }
      for (int64_t i = 0; i < W; i = (i + 1 == begin ? end : i + 1)) {
        float sum = bias;
        for (int t = 0; t < taps; ++t)
          sum += w[t] * row[t][clamp_index(i + shift[t], W)];
        o[i] = sum;
      }
    }
}

} // namespace

void openmp_sweep(const LinearStencil& s, const float* x, float* out,
                  const std::array<int64_t, 3>& e) {
  if (s.taps.size() > kMaxTaps)
    user_error(cat(s.name, ": the OpenMP loop handles up to ", kMaxTaps, " taps, the stencil has ",
                   s.taps.size()));
  sweep(s, x, out, e);
}

void openmp_copy(const float* from, float* to, std::size_t count) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < count; ++i)
    to[i] = from[i];
}

} // namespace tessera::peers
