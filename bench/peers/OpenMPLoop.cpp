#include "peers/OpenMPLoop.h"

#include <algorithm>

#include "core/Error.h"

namespace tessera::peers {

namespace {

constexpr int kMaxTaps = 64;
constexpr int64_t kChunk = 512; // a chunk of the row stays in L1 while every tap is added to it

// The points of one class along a row: i = first, first + step, ... in [lo, hi) read no edge.
struct RowPlan {
  int first = 0, step = 1;
  int64_t lo = 0, hi = 0;
};

bool inside(const LinearStencil& s, const TapClass& c, int64_t i) {
  for (const auto& t : c.taps) {
    const auto m = static_cast<std::size_t>(t.input);
    int64_t at = base_index(s.scale[m], i) + t.offset[2];
    if (at < 0 || at >= s.in[m][2])
      return false;
  }
  return true;
}

// o[i] += w * in[base(i)] for the class's points in [begin, end): a loop per scale, so that
// each is a plain strided loop the compiler vectorises.
void accumulate(Scale scale, float* o, const float* in, float w, int64_t begin, int64_t end,
                int step) {
  if (scale == Scale::Same)
    for (int64_t i = begin; i < end; i += step)
      o[i] += w * in[i];
  else if (scale == Scale::Finer)
    for (int64_t i = begin; i < end; i += step)
      o[i] += w * in[2 * i];
  else
    for (int64_t i = begin; i < end; i += step)
      o[i] += w * in[i / 2];
}

void row(const LinearStencil& s, const std::vector<const float*>& x, float* out, int64_t k,
         int64_t j, const std::vector<RowPlan>& plans) {
  const int64_t W = s.out[2];
  float* o = out + (k * s.out[1] + j) * W;
  for (int ci = 0; ci < (s.parity ? 2 : 1); ++ci) {
    const auto& c = s.classes[static_cast<std::size_t>(s.class_of(k, j, ci))];
    const RowPlan& plan = plans[static_cast<std::size_t>(ci)];
    const int taps = static_cast<int>(c.taps.size());
    const float* src[kMaxTaps]; // each tap's input row, shifted by its offset along i
    float w[kMaxTaps];
    for (int t = 0; t < taps; ++t) {
      const auto& tap = c.taps[static_cast<std::size_t>(t)];
      const auto m = static_cast<std::size_t>(tap.input);
      const auto& n = s.in[m];
      auto rk = edge_read(s.edge, base_index(s.scale[m], k) + tap.offset[0], n[0]);
      auto rj = edge_read(s.edge, base_index(s.scale[m], j) + tap.offset[1], n[1]);
      src[t] = x[m] + (rk.index * n[1] + rj.index) * n[2] + tap.offset[2];
      w[t] = tap.weight * rk.sign * rj.sign;
    }
    for (int64_t begin = plan.lo; begin < plan.hi; begin += kChunk) {
      const int64_t end = std::min(plan.hi, begin + kChunk);
      for (int64_t i = begin; i < end; i += plan.step)
        o[i] = c.bias;
      for (int t = 0; t < taps; ++t)
        accumulate(s.scale[static_cast<std::size_t>(c.taps[static_cast<std::size_t>(t)].input)], o,
                   src[t], w[t], begin, end, plan.step);
    }
    // The edge points: every read along i through the boundary.
    for (int64_t i = plan.first; i < W; i += plan.step) {
      if (i >= plan.lo && i < plan.hi) {
        i = plan.hi - 1; // the class's last interior point
        continue;
      }
      float sum = c.bias;
      for (int t = 0; t < taps; ++t) {
        const auto& tap = c.taps[static_cast<std::size_t>(t)];
        const auto m = static_cast<std::size_t>(tap.input);
        auto r = edge_read(s.edge, base_index(s.scale[m], i) + tap.offset[2], s.in[m][2]);
        sum += w[t] * r.sign * src[t][r.index - tap.offset[2]];
      }
      o[i] = sum;
    }
  }
}

} // namespace

void openmp_sweep(const LinearStencil& s, const std::vector<const float*>& x, float* out) {
  for (const auto& c : s.classes)
    if (c.taps.size() > kMaxTaps)
      user_error(cat(s.name, ": the OpenMP loop handles up to ", kMaxTaps,
                     " taps, the stencil has ", c.taps.size()));
  // Per class along i: its first point and the interior [lo, hi), from the edges inwards.
  std::vector<RowPlan> plans;
  const int64_t W = s.out[2];
  for (int ci = 0; ci < (s.parity ? 2 : 1); ++ci) {
    RowPlan p{ci, s.parity ? 2 : 1};
    auto ok = [&](int64_t i) { // for the classes of every row parity
      for (int kj = 0; kj < 4; ++kj)
        if (!inside(s, s.classes[static_cast<std::size_t>(s.class_of(kj / 2, kj % 2, ci))], i))
          return false;
      return true;
    };
    int64_t lo = ci, hi = ci + ((W - 1 - ci) / p.step) * p.step; // the class's last point
    while (lo < W && !ok(lo))
      lo += p.step;
    while (hi >= lo && !ok(hi))
      hi -= p.step;
    p.lo = lo;
    p.hi = std::max(lo, hi + 1);
    plans.push_back(p);
  }
  const int64_t D = s.out[0], H = s.out[1];
#pragma omp parallel for collapse(2) schedule(dynamic, 8) // robust to a loaded machine
  for (int64_t k = 0; k < D; ++k)
    for (int64_t j = 0; j < H; ++j)
      row(s, x, out, k, j, plans);
}

void openmp_copy(const float* from, float* to, std::size_t count) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < count; ++i)
    to[i] = from[i];
}

} // namespace tessera::peers
