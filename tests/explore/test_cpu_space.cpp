// The exploration space on a CPU device: besides the work-group sizes every device gets, the
// large, row-shaped work-groups that suit PoCL (explore/Space.h); other devices do not get them.
#include <doctest/doctest.h>

#include <algorithm>

#include "RuntimeFixture.h"
#include "dsl/Dsl.h"
#include "explore/Space.h"
#include "explore/Variants.h"
#include "runtime/DeviceTarget.h"

using namespace tessera;
using namespace tessera::explore;
using tessera::testing::test_session;

namespace {

bool has(const std::vector<std::vector<int64_t>>& sizes, const std::vector<int64_t>& size) {
  return std::find(sizes.begin(), sizes.end(), size) != sizes.end();
}

// The mean of each point and its neighbour before it along the outermost dimension, clamped,
// on a grid of any dimension.
Expr neighbour_mean(const std::vector<int64_t>& extents) {
  const int d = static_cast<int>(extents.size());
  Type t = f32();
  for (auto it = extents.rbegin(); it != extents.rend(); ++it)
    t = Type::array(t, *it);
  auto mean = user_fun("mean2", [](auto a, auto b) { return (a + b) / 2.0f; });
  Fun at_window([=](Val w) {
    Val centre = w, before = w;
    for (int k = 0; k < d; ++k) {
      centre = centre.at(1);
      before = before.at(k == 0 ? 0 : 1);
    }
    return mean(centre, before);
  });
  Val x = input("x", t);
  return program({x}, x | pad_nd(d, 1, 1, clamp) | slide_nd(d, 3, 1) | map_nd(d, at_window));
}

// The work-group sizes of the plain lowering's points in a space for `limits`.
std::vector<std::vector<int64_t>> baseline_locals(const std::vector<int64_t>& extents,
                                                  const Target& limits) {
  Problem p = make_problem("mean", neighbour_mean, extents, 1);
  Space space = build_space({p.variants[0]}, limits, "mean");
  std::vector<std::vector<int64_t>> locals;
  for (const auto& pt : space.points)
    locals.push_back(pt.local);
  return locals;
}

} // namespace

TEST_CASE("cpu space: large row-shaped work-groups only for CPU devices") {
  for (int dims = 1; dims <= 3; ++dims) {
    auto any = work_group_candidates(dims), cpu = work_group_candidates(dims, true);
    CHECK(cpu.size() > any.size());
    for (const auto& size : any)
      CHECK(has(cpu, size)); // a CPU keeps every general candidate
    for (const auto& size : cpu)
      if (!has(any, size)) {
        int64_t items = 1;
        for (auto v : size)
          items *= v;
        CHECK(items >= 512);  // the extras are large work-groups...
        CHECK(size[0] >= 64); // ...long along the contiguous dimension
      }
  }
  CHECK(has(work_group_candidates(2, true), {512, 1}));
  CHECK_FALSE(has(work_group_candidates(2), {512, 1}));
  CHECK(has(work_group_candidates(3, true), {1024, 1, 1}));
}

TEST_CASE("cpu space: the explorer's space for a CPU contains the CPU work-groups") {
  Target cpu, gpu;
  cpu.kind = DeviceKind::CPU;
  auto on_cpu = baseline_locals({1024, 1024}, cpu);
  auto on_gpu = baseline_locals({1024, 1024}, gpu);
  CHECK(has(on_cpu, {})); // auto
  CHECK(has(on_cpu, {512, 1}));
  CHECK(has(on_cpu, {256, 4}));
  CHECK(has(on_cpu, {32, 8})); // and the general ones
  CHECK_FALSE(has(on_gpu, {512, 1}));
  CHECK(on_cpu.size() > on_gpu.size());
  auto three = baseline_locals({64, 64, 64}, cpu);
  CHECK(has(three, {64, 16, 1}));
  CHECK_FALSE(has(three, {1024, 1, 1})); // does not divide 64: filtered
}

TEST_CASE("cpu space: the device's type decides") {
  auto& session = test_session();
  Target target = runtime::target_of(session.device());
  CHECK(target.cpu() == (session.device().type == "CPU"));
}
