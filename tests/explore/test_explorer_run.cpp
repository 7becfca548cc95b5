// The explorer on the default device (PoCL) with hand-lowered 1-D programs: correct variants are
// timed, a wrong one is a recorded mismatch, one the code generator rejects is a recorded
// failure; the trusted-variant reference for large grids; checkpoints, interruption and resume.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "RuntimeFixture.h"
#include "codegen/Kernel.h"
#include "compile/KernelRunner.h"
#include "compile/Workload.h"
#include "core/Error.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "explore/ComputeCeiling.h"
#include "explore/Explorer.h"
#include "explore/Variants.h"
#include "rewrite/Lower.h"

using namespace tessera;
using namespace tessera::explore;
using tessera::testing::test_session;

namespace {

Fun average3() {
  return user_fun("average3", [](auto a, auto b, auto c) { return (a + b + c) / 3.0; });
}

Expr stencil(int64_t n, const std::function<Fun(Fun)>& mapping, bool wrong = false) {
  auto f = wrong ? user_fun("skewed", [](auto a, auto b, auto c) { return (a + b + c + c) / 4.0; })
                 : average3();
  Val x = input("x", Type::array(f32(), ArithExpr(n)));
  Fun point([f](Val nb) { return f(nb.at(0), nb.at(1), nb.at(2)); });
  return program({x}, x | pad(1, 1, clamp) | slide(3, 1) | mapping(point));
}

VariantInfo variant(Expr program, Derivation history) {
  return {program, print(program), std::move(history), {}};
}

rewrite::Mapping coarsened(int64_t factor) {
  rewrite::Mapping m{rewrite::MappingKind::Coarsened};
  m.factor = factor;
  return m;
}

Problem problem(int64_t n) {
  Problem p;
  p.name = "avg1d";
  p.extents = {n};
  p.program = stencil(n, [](Fun f) { return map(f); });
  auto glb = [](Fun f) { return map_glb(0, f); };
  p.variants.push_back(variant(stencil(n, glb), {{}, rewrite::Mapping{}}));
  p.variants.push_back(
      variant(stencil(n, [](Fun f) { return split(8) >> map_glb(0, map_seq(f)) >> join(); }),
              {{}, coarsened(8)}));
  p.variants.push_back(variant(stencil(n, glb, true), {{rewrite::Step{"wrong-arithmetic"}}}));
  p.variants.push_back(
      variant(stencil(n, [](Fun f) { return map_lcl(0, f); }), {{rewrite::Step{"maplcl-alone"}}}));
  p.small_extents = {256};
  p.small_program = stencil(256, [](Fun f) { return map(f); });
  p.small_baseline = stencil(256, glb);
  return p;
}

ExploreOptions quick_options() {
  ExploreOptions o;
  o.budget_s = 30;
  o.strategy = Strategy::Exhaustive;
  o.repeats = 2;
  o.roofline = runtime::RooflineOptions{.max_bytes = std::size_t{1} << 20};
  return o;
}

const PointResult* point_of_variant(const Report& r, int v) {
  for (const auto& p : r.points)
    if (p.variant == v)
      return &p;
  return nullptr;
}

} // namespace

TEST_CASE("workload: flat random inputs are the interpreter's random inputs") {
  Expr p = stencil(100, [](Fun f) { return map(f); });
  auto flat = random_host_inputs(p, 3);
  auto data = random_inputs(p, 3);
  REQUIRE(flat.size() == 1);
  CHECK(flat[0].values == data[0].flatten());
  using Values = std::vector<double>;
  CHECK(max_relative_difference(Values{1, 2, NAN}, Values{1, 2, NAN}) == 0);
  CHECK(std::isinf(max_relative_difference(Values{1, NAN}, Values{1, 2})));
  CHECK(max_relative_difference(Values{2.0001}, Values{2}) == doctest::Approx(0.00005));
  CHECK_FALSE(has_nonzero({0, 0, NAN}));
}

TEST_CASE("workload: run_and_compare is max_relative_difference of the output, on many threads") {
  // 2^24 points: the comparison runs on several threads where the machine has several cores.
  const int64_t n = int64_t{1} << 24;
  Expr glb = stencil(n, [](Fun f) { return map_glb(0, f); });
  Workload workload(test_session(), glb);
  auto kernel = codegen::generate_kernel(glb);
  auto built = test_session().build_kernel(kernel.source, kernel.name);
  std::vector<double> reference = workload.run(kernel, built);
  REQUIRE(has_nonzero(reference));
  CHECK(workload.run_and_compare(kernel, built, reference) == 0);
  std::vector<double> off = reference;
  off[n - 3] += 4; // in the last thread's chunk
  double expected = 4 / std::max(1.0, std::fabs(off[n - 3]));
  CHECK(workload.run_and_compare(kernel, built, off) == doctest::Approx(expected));
  CHECK(workload.run_and_compare(kernel, built, off) ==
        max_relative_difference(workload.run(kernel, built), off));
  off[5] = NAN; // a NaN where the output has a number
  CHECK(std::isinf(workload.run_and_compare(kernel, built, off)));
  off.pop_back();
  CHECK(std::isinf(workload.run_and_compare(kernel, built, off)));
}

TEST_CASE("space: work-group sizes are filtered by the device's limits and divisibility") {
  Problem p = problem(4096);
  Target limits;
  limits.max_work_group_size = 256;
  limits.max_work_item_sizes = {128, 1, 1};
  Space space = build_space(p.variants, limits, "avg1d");
  REQUIRE(space.points.size() >= 2);
  CHECK(space.points[0].variant == 0);
  CHECK(space.points[0].local.empty());
  for (const auto& pt : space.points)
    if (!pt.local.empty())
      CHECK(pt.local[0] <= 128);
  CHECK(space.filtered.count("work-group size over the device's limit in dimension 0") == 1);
  // The MapLcl-alone variant cannot be generated: kept as one point that will fail.
  CHECK_FALSE(space.generation_errors[3].empty());
  // 4096 / 8 = 512 work-items for the coarsened variant: 32..128 divide it, 1024 does not.
  Space wide = build_space(p.variants, Target{}, "avg1d");
  int coarsened = 0;
  for (const auto& pt : wide.points)
    coarsened += pt.variant == 1;
  CHECK(coarsened == 1 + 5); // auto, 32, 64, 128, 256, 512
}

TEST_CASE("explorer: checks every variant against the interpreter and keeps the fastest") {
  auto& session = test_session();
  Problem p = problem(4096);
  std::vector<std::size_t> checkpoints;
  ExploreOptions o = quick_options();
  o.on_checkpoint = [&](const Report& r) { checkpoints.push_back(r.points.size()); };
  Report r = explore::explore(session, p, o);
  CHECK(r.check_method == "the reference interpreter");
  CHECK(r.complete);
  CHECK(r.points.size() == r.space_points);
  CHECK(checkpoints.size() >= r.points.size());
  CHECK(r.copy_gb_per_s > 0);
  const PointResult* base = r.find(0);
  REQUIRE(base);
  CHECK(base->status == PointStatus::Ok);
  CHECK(base->local == "auto");
  CHECK(base->median_ms > 0);
  CHECK(base->gb_per_s > 0);
  CHECK(base->gcells_per_s > 0);
  CHECK(base->fraction_of_copy > 0);
  CHECK(base->kernel_hash.size() == 16);
  CHECK(base->max_error <= 1e-4);
  REQUIRE(point_of_variant(r, 2));
  CHECK(point_of_variant(r, 2)->status == PointStatus::Mismatch);
  CHECK(point_of_variant(r, 2)->max_error > 1e-4);
  REQUIRE(point_of_variant(r, 3));
  CHECK(point_of_variant(r, 3)->status == PointStatus::Failed);
  CHECK(point_of_variant(r, 3)->error.find("MapLcl") != std::string::npos);
  REQUIRE(r.best);
  CHECK(r.find(*r.best)->status == PointStatus::Ok);
  CHECK(r.find(*r.best)->variant <= 1);
  CHECK(r.speedup > 0);
  CHECK(r.strategies.size() == 5); // the measured run and every strategy replayed
  CHECK(r.elapsed_s <= o.budget_s);
}

// PoCL parses and links a program in its build (about 0.1 s each, its OpenCL header included):
// the search hands the points it measures next to the measurer, which builds their kernels as
// one program (Evaluator::build_ahead); each point still reports a build time, its share.
TEST_CASE("explorer: on PoCL the points measured next are built ahead as one program") {
  runtime::Session session(runtime::Session::from_env()); // its own build cache, counted alone
  auto five_point = [](const std::vector<int64_t>& e) {   // a Jacobi step of the 2-D Laplacian
    auto f = user_fun("five", [](auto c, auto n, auto s, auto w, auto e) {
      return 0.5f * c + 0.125f * (n + s + w + e);
    });
    Fun at([=](Val w) {
      return f(w.at(1).at(1), w.at(0).at(1), w.at(2).at(1), w.at(1).at(0), w.at(1).at(2));
    });
    Val x = input("x", Type::array(Type::array(f32(), e[1]), e[0]));
    return program({x}, x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) | map_nd(2, at));
  };
  Problem p = make_problem("five", five_point, {64, 64}, 1);
  ExploreOptions o = quick_options();
  o.strategy = Strategy::Halving;
  Report r = explore::explore(session, p, o);
  std::set<std::string> kernels; // the distinct kernels measured
  double build_ms = 0;
  for (const auto& point : r.points) {
    CHECK(point.status == PointStatus::Ok);
    kernels.insert(point.kernel_hash);
    build_ms += point.build_ms;
  }
  REQUIRE(kernels.size() >= 16);
  CHECK(build_ms > 0);
  REQUIRE(r.best);
  const runtime::CacheStats stats = session.cache().stats();
  MESSAGE(kernels.size() << " kernels measured, " << stats.compiled << " programs compiled");
  if (session.device().is_pocl())
    CHECK(stats.compiled * 2 <= kernels.size());
  else // another driver builds each kernel alone
    CHECK(stats.compiled + stats.disk_hits >= kernels.size());
}

// What a driver other than PoCL gets (build_together): each kernel its own program, several
// built at once on host threads. PoCL builds them here, each alone, as another driver would.
TEST_CASE("kernels built in parallel: each its own program, one that fails left to its own build") {
  runtime::Session session(runtime::Session::from_env()); // its own build cache, counted alone
  std::vector<codegen::Kernel> kernels;
  for (float weight : {0.25f, 0.5f, 0.75f, 1.5f, 2.5f}) {
    auto scaled = user_fun("scaled", [=](auto a) { return weight * a; });
    Val x = input("x", Type::array(f32(), 64));
    kernels.push_back(codegen::generate_kernel(
        rewrite::lower_default(program({x}, x | map(Fun([=](Val v) { return scaled(v); }))))));
  }
  codegen::Kernel broken = kernels.front();
  broken.source += "\n__kernel void broken(__global float* x) { x[0] = undeclared; }\n";
  kernels.insert(kernels.begin() + 2, broken);
  CHECK_FALSE(explore::build_in_parallel(session, kernels, 1)); // one thread: nothing ahead
  CHECK(explore::build_in_parallel(session, kernels, 4));
  for (const auto& k : kernels)
    CHECK(session.cache().in_memory(k.source) == (&k != &kernels[2]));
  CHECK(session.cache().stats().compiled == 5);
  // The broken kernel's own build says what is wrong.
  CHECK_THROWS_WITH_AS(session.build_kernel(broken.source, broken.name),
                       doctest::Contains("undeclared"), tessera::Error);
}

TEST_CASE("explorer: large grids are checked against the trusted variant") {
  auto& session = test_session();
  Problem p = problem(4096);
  ExploreOptions o = quick_options();
  o.interpreter_limit = 1000; // 4096 points count as large here
  Report r = explore::explore(session, p, o);
  CHECK(r.check_method.find("trusted") != std::string::npos);
  CHECK(r.check_size == std::vector<int64_t>{256});
  CHECK(point_of_variant(r, 1)->status == PointStatus::Ok);
  CHECK(point_of_variant(r, 2)->status == PointStatus::Mismatch);
  // A trusted variant that disagrees with the interpreter is refused.
  Problem bad = problem(4096);
  bad.small_baseline = stencil(
      256, [](Fun f) { return map_glb(0, f); }, true);
  CHECK_THROWS_WITH_AS(explore::explore(session, bad, o),
                       doctest::Contains("disagrees with the interpreter"), Error);
}

TEST_CASE("explorer: resumed points re-timed before any new one keep their bandwidth") {
  // Interrupted while its last point was measured: complete, but the finalists were not
  // re-timed. The resumed run re-times them first (the bandwidth used to come out 0).
  auto& session = test_session();
  Problem p = problem(4096);
  std::atomic<bool> stop{false};
  ExploreOptions o = quick_options();
  o.stop = &stop;
  o.on_checkpoint = [&](const Report& r) {
    if (r.points.size() + 1 >= r.space_points)
      stop = true;
  };
  Report first = explore::explore(session, p, o);
  REQUIRE(first.interrupted);
  ExploreOptions again = quick_options();
  again.resume = first;
  Report resumed = explore::explore(session, p, again);
  CHECK(resumed.complete);
  CHECK_FALSE(resumed.interrupted);
  CHECK_FALSE(resumed.confirmation.empty());
  for (const auto& q : resumed.points) {
    CAPTURE(q.key);
    if (q.status == PointStatus::Ok)
      CHECK(q.gb_per_s > 0);
  }
}

TEST_CASE("explorer: an interrupted run keeps its report and --resume continues it") {
  auto& session = test_session();
  Problem p = problem(4096);
  std::atomic<bool> stop{false};
  std::optional<Report> last_written;
  ExploreOptions o = quick_options();
  o.stop = &stop;
  o.on_checkpoint = [&](const Report& r) {
    last_written = r;
    if (r.points.size() >= 3)
      stop = true;
  };
  Report first = explore::explore(session, p, o);
  CHECK(first.interrupted);
  CHECK(first.points.size() == 3);
  REQUIRE(last_written);
  CHECK(last_written->points.size() == 3);

  ExploreOptions again = quick_options();
  again.resume = report_from_json(report_to_json(first));
  Report resumed = explore::explore(session, p, again);
  CHECK_FALSE(resumed.interrupted);
  CHECK(resumed.runs == 2);
  CHECK(resumed.complete);
  // The points of the first run were reused, not measured again.
  for (const auto& old : first.points) {
    const PointResult* now = resumed.find(old.id);
    REQUIRE(now);
    CHECK(now->key == old.key);
    CHECK(now->finished_at_s == old.finished_at_s);
  }
  // A complete report, or other options, cannot be continued exactly: refused.
  ExploreOptions done = quick_options();
  done.resume = resumed;
  CHECK_THROWS_WITH_AS(explore::explore(session, p, done),
                       doctest::Contains("cannot resume: the report is complete"), Error);
  ExploreOptions deeper = quick_options();
  deeper.depth = 2;
  deeper.resume = first;
  CHECK_THROWS_WITH_AS(explore::explore(session, p, deeper),
                       doctest::Contains("explored with --depth 1, this run asks for --depth 2"),
                       Error);
  // A report of another problem cannot be resumed.
  Problem other = problem(2048);
  ExploreOptions wrong = quick_options();
  wrong.resume = first;
  CHECK_THROWS_WITH_AS(explore::explore(session, other, wrong), doctest::Contains("cannot resume"),
                       Error);
}

TEST_CASE("explorer: a version-1 report (its mappings history steps) loads and resumes") {
  // Two points of problem(4096) (variants 0 and 1, local auto), interrupted, as a tessera of
  // version-1 reports wrote them: the mapping a step "mapping: ..." of each point's history.
  Report old = read_report(std::string(TESSERA_SOURCE_DIR) +
                           "/tests/explore/data/avg1d-v1-interrupted.json");
  Problem p = problem(4096);
  REQUIRE(old.points.size() == 2);
  std::set<rewrite::MappingKind> kinds;
  for (const auto& q : old.points) {
    // Each point's derivation, read back, is its variant's: the mapping typed, the rest steps.
    CHECK(q.history == p.variants.at(static_cast<std::size_t>(q.variant)).history);
    if (q.history.mapping)
      kinds.insert(q.history.mapping->kind);
  }
  CHECK(kinds == std::set{rewrite::MappingKind::Global, rewrite::MappingKind::Coarsened});
  CHECK(old.find(old.points[0].id)->history.lines() == std::vector<std::string>{"mapping: global"});

  auto& session = test_session();
  old.device_name = session.device().name; // measured on another machine's PoCL
  ExploreOptions again = quick_options();
  again.resume = old;
  Report resumed = explore::explore(session, p, again);
  CHECK(resumed.runs == 2);
  CHECK(resumed.complete);
  CHECK(resumed.points.size() > old.points.size());
  for (const auto& q : old.points) {
    // Reused, not measured again.
    auto same = std::find_if(resumed.points.begin(), resumed.points.end(),
                             [&](const PointResult& r) { return r.key == q.key; });
    REQUIRE(same != resumed.points.end());
    CHECK(same->finished_at_s == q.finished_at_s);
    CHECK(same->history == q.history);
  }
  nlohmann::json written = report_to_json(resumed);
  CHECK(written["version"] == 3);
  CHECK(written["points"][0].contains("mapping"));
}

TEST_CASE("explorer: a roofline measured in this run is outside the budget, then read from file") {
  auto& session = test_session();
  Problem p = problem(4096);
  ExploreOptions o = quick_options();
  o.budget_s = 2;
  // A fresh file, and a roofline slow enough to take more than the budget (as the full-size one
  // takes on a CPU): a first run on a new machine must still measure points.
  auto dir = tessera::testing::make_temp_dir("roofline-budget");
  o.roofline = runtime::RooflineOptions{
      .file = dir / "roofline.json", .max_bytes = std::size_t{64} << 20, .timing = {1, 100}};
  Report first = explore::explore(session, p, o);
  CHECK(first.roofline_measure_s > 0);
  WARN_MESSAGE(first.roofline_measure_s > o.budget_s, "the roofline took less than the budget");
  const PointResult* base = first.find(0);
  REQUIRE(base);
  CHECK(base->status == PointStatus::Ok);
  CHECK(first.elapsed_s <= o.budget_s);
  CHECK(roofline_summary(first).find("outside the budget") != std::string::npos);
  CHECK(report_to_json(first)["device"]["roofline_measure_s"].get<double>() > 0);

  o.start = std::chrono::steady_clock::now();
  Report second = explore::explore(session, p, o);
  CHECK(second.roofline_measure_s == 0); // kept in the file
  CHECK(second.copy_gb_per_s == doctest::Approx(first.copy_gb_per_s));
  CHECK(roofline_summary(second).find("outside the budget") == std::string::npos);
}

TEST_CASE("explorer: a grid that fits in the cache says its times are cache times; the compute "
          "ceiling and each point's bound") {
  Report r = explore::explore(test_session(), problem(4096), quick_options());
  REQUIRE(r.cache_bytes > 0); // PoCL on a CPU: the system's last-level cache
  CHECK(r.timing_regime.find("the grid fits in the last-level cache") != std::string::npos);
  CHECK(r.timing_regime.find("times are cache times, not DRAM") != std::string::npos);
  CHECK(format_report(r).find("timing: the grid fits") != std::string::npos);
  // (a + b + c) / 3: two additions and a division per output.
  CHECK(r.flops_per_output == doctest::Approx(3));
  CHECK(r.peak_gflops > 0);
  CHECK(r.peak_precision == "f32");
  for (const auto& p : r.points)
    if (p.status == PointStatus::Ok)
      CHECK_FALSE(point_bound(r, p).empty());
}

TEST_CASE("explorer: a grid that nearly fits in the cache is timed after flushes, and says so") {
  // One sweep of avg1d 4096 moves 32 KiB: 1.3x a cache of 24 KiB.
  const char* saved = std::getenv("TESSERA_CACHE_BYTES");
  std::string keep = saved ? saved : "";
  ::setenv("TESSERA_CACHE_BYTES", "24K", 1);
  Report r = explore::explore(test_session(), problem(4096), quick_options());
  if (saved)
    ::setenv("TESSERA_CACHE_BYTES", keep.c_str(), 1);
  else
    ::unsetenv("TESSERA_CACHE_BYTES");
  CHECK(r.cache_bytes == 24 * 1024);
  CHECK(r.timing_regime.find("nearly fits in the last-level cache") != std::string::npos);
  CHECK(r.timing_regime.find("a flush of the cache (a write of 48 KiB)") != std::string::npos);
  const PointResult* base = r.find(0);
  REQUIRE(base);
  CHECK(base->status == PointStatus::Ok);
  CHECK(base->median_ms > 0);
}
