// Rectangular regions moved between device buffers and packed host buffers: regions that are
// one contiguous run (whole inner rows) go as plain buffer ranges, the others through OpenCL's
// rectangle commands; both must move exactly the region's points in row-major order.
#include <doctest/doctest.h>

#include <numeric>

#include "distributed/Rect.h"
#include "tests/distributed/RankSession.h"

using namespace tessera;
using namespace tessera::distributed;

namespace {

using testing::rank_session;

// The region's points of a row-major array holding 0, 1, 2, ... (its linear indices).
std::vector<float> expected_points(const Rect& r) {
  std::vector<float> out;
  const auto& a = r.array;
  for (int64_t i = 0; i < r.extent[0]; ++i)
    for (int64_t j = 0; j < r.extent[1]; ++j)
      for (int64_t k = 0; k < r.extent[2]; ++k)
        out.push_back(static_cast<float>(((r.offset[0] + i) * a[1] + r.offset[1] + j) * a[2] +
                                         r.offset[2] + k));
  return out;
}

std::vector<Rect> regions() {
  const std::vector<int64_t> a{5, 6, 7};
  return {
      {a, {1, 0, 0}, {2, 6, 7}}, // whole planes: one run
      {a, {2, 3, 0}, {1, 2, 7}}, // whole rows of one plane: one run
      {a, {3, 4, 2}, {1, 1, 4}}, // part of one row: one run
      {a, {0, 1, 0}, {5, 4, 7}}, // whole rows of every plane: strided
      {a, {1, 2, 3}, {3, 3, 2}}, // a box inside: strided
      {a, {0, 0, 6}, {5, 6, 1}}, // one column: strided
  };
}

} // namespace

TEST_CASE("merge_whole_dims folds the dimensions a region covers whole") {
  Rect planes{{5, 6, 7}, {1, 0, 0}, {2, 6, 7}};
  Rect m = merge_whole_dims(planes);
  CHECK(m.array == std::vector<int64_t>{210});
  CHECK(m.offset == std::vector<int64_t>{42});
  CHECK(m.extent == std::vector<int64_t>{84});
  Rect rows{{5, 6, 7}, {0, 1, 0}, {5, 4, 7}};
  m = merge_whole_dims(rows);
  CHECK(m.array == std::vector<int64_t>{5, 42});
  CHECK(m.offset == std::vector<int64_t>{0, 7});
  CHECK(m.extent == std::vector<int64_t>{5, 28});
  Rect box{{5, 6, 7}, {1, 2, 3}, {3, 3, 2}};
  CHECK(merge_whole_dims(box).array == box.array);
}

TEST_CASE("regions read, written and copied exactly, contiguous or strided") {
  auto& s = rank_session();
  std::vector<float> values(5 * 6 * 7);
  std::iota(values.begin(), values.end(), 0.0f);
  const std::size_t bytes = values.size() * sizeof(float);
  cl::Buffer source(s.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, values.data());
  for (const Rect& r : regions()) {
    CAPTURE(r.offset);
    CAPTURE(r.extent);
    const auto want = expected_points(r);
    std::vector<float> got(want.size(), -1.0f);
    read_rect(s.queue(), source, r, sizeof(float), got.data());
    CHECK(got == want);

    // Written into a zeroed buffer: the region's points and nothing else.
    std::vector<float> zeros(values.size(), 0.0f);
    cl::Buffer target(s.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, zeros.data());
    write_rect(s.queue(), target, r, sizeof(float), want.data());
    std::vector<float> after(values.size(), -1.0f);
    s.queue().enqueueReadBuffer(target, CL_TRUE, 0, bytes, after.data());
    std::size_t inside = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
      inside += after[i] == values[i] && values[i] != 0.0f;
    CHECK(inside == want.size() - (want.front() == 0.0f ? 1 : 0));
    float sum = std::accumulate(after.begin(), after.end(), 0.0f);
    CHECK(sum == std::accumulate(want.begin(), want.end(), 0.0f));

    // Copied into a packed buffer of the region's extents.
    cl::Buffer packed(s.context(), CL_MEM_READ_WRITE, want.size() * sizeof(float));
    copy_rect(s.queue(), source, r, packed, whole(r.extent), sizeof(float));
    std::vector<float> copied(want.size(), -1.0f);
    s.queue().enqueueReadBuffer(packed, CL_TRUE, 0, copied.size() * sizeof(float), copied.data());
    CHECK(copied == want);
  }
}
