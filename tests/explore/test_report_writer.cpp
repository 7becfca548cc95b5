// The one writer of an exploration's report (explore/ReportWriter.h): what a measured point
// adds, in one place, and the checkpoint the run hands to ExploreOptions::on_checkpoint.
#include <doctest/doctest.h>

#include "explore/ReportWriter.h"

using namespace tessera;
using namespace tessera::explore;

namespace {

PointResult point(int id, PointStatus status, double median_ms, int repeats) {
  PointResult p;
  p.id = id;
  p.status = status;
  p.median_ms = median_ms;
  p.repeats = repeats;
  return p;
}

} // namespace

TEST_CASE("report writer: a measured point's trace entry, best, baseline and checkpoint") {
  ExploreOptions options;
  options.repeats = 5;
  std::vector<Report> checkpoints;
  options.on_checkpoint = [&](const Report& r) { checkpoints.push_back(r); };
  ReportWriter writer(options);
  writer.continue_after(100); // a resumed report's 100 s
  writer.finished(writer.add(point(0, PointStatus::Ok, 4.0, 5)), 1.5);
  writer.finished(writer.add(point(3, PointStatus::Failed, 0, 0)), 2.0);
  writer.finished(writer.add(point(7, PointStatus::Ok, 2.0, 5)), 3.0);
  const Report& r = writer.report();
  REQUIRE(r.points.size() == 3);
  CHECK(r.points[1].finished_at_s == 2.0);
  // Only the points that ran are traced, at the run's total time.
  REQUIRE(r.trace.size() == 2);
  CHECK(r.trace[1].t_s == 103.0);
  CHECK(r.trace[1].point == 7);
  CHECK(r.baseline == 0);
  CHECK(r.best == 7);
  CHECK(r.speedup == 2.0);
  CHECK(r.elapsed_s == 3.0);
  CHECK(r.total_elapsed_s == 103.0);
  // Every point is checkpointed, with what it added.
  REQUIRE(checkpoints.size() == 3);
  CHECK(checkpoints[0].points.size() == 1);
  CHECK(checkpoints[2].best == 7);
  // Timed again in place: the point is found by its id, and the next checkpoint has it.
  REQUIRE(writer.point(7) != nullptr);
  CHECK(writer.point(5) == nullptr);
  writer.point(7)->median_ms = 1.0;
  writer.finished(*writer.point(7), 4.0);
  CHECK(writer.report().speedup == 4.0);
  CHECK(checkpoints.back().total_elapsed_s == 104.0);
  writer.sweep_sizes(8e6, "cold");
  writer.confirmation("re-timed");
  Report taken = writer.take();
  CHECK(taken.footprint_bytes == 8e6);
  CHECK(taken.timing_regime == "cold");
  CHECK(taken.confirmation == "re-timed");
}
