// What `tessera explore` says about its budget (tools/Budget.h): nothing when the space was
// measured, the points measured and the budget that would measure all of them otherwise, and a
// note when the enumeration was cut.
#include <doctest/doctest.h>

#include <string>

#include "tests/Helpers.h"
#include "tools/Budget.h"

using namespace tessera;
using tessera::testing::has;

namespace {

explore::PointResult point(int id, explore::PointStatus status, double cost_s, double launch_s,
                           const std::string& error = "") {
  explore::PointResult p;
  p.id = id;
  p.status = status;
  p.cost_s = cost_s;
  p.launch_s = launch_s;
  p.error = error;
  return p;
}

} // namespace

TEST_CASE("budget advice: a complete space needs none, a partial one says what budget would do") {
  explore::Report r;
  r.stencil = "j2d5pt";
  r.size = {8192, 8192};
  r.budget_s = 20;
  r.repeats = 5;
  r.warmup = 1;
  r.space_points = 261;
  r.points = {point(0, explore::PointStatus::Ok, 6.0, 0.5)};
  r.elapsed_s = 14; // 8 s of setup
  explore::Problem problem;
  problem.enumeration = "37 executable variants from ...";

  r.complete = true;
  CHECK(tools::budget_advice(r, problem, 8).empty());

  r.complete = false;
  std::string advice = tools::budget_advice(r, problem, 8);
  CAPTURE(advice);
  CHECK(has(advice, "note: the 20 s budget measured 1 of 261 points of j2d5pt 8192x8192 (a "
                    "point costs about 6 s here"));
  CHECK(has(advice, "one launch of the baseline 500 ms"));
  // 8 s of setup + 261 points x 6 s = 1574 s, rounded up to two digits.
  CHECK(has(advice, "a budget of about 1600 s would measure every point, or explore a smaller "
                    "--size"));

  // A point refused because one launch exceeded the budget left counts its launches.
  r.points.push_back(point(1, explore::PointStatus::Failed, 1.0, 2.0,
                           "not measured: one launch takes 2 s, more than the 0.5 s left"));
  advice = tools::budget_advice(r, problem, 8);
  CAPTURE(advice);
  CHECK(has(advice, "measured 2 of 261 points"));
  // (6 + 1 + 8 launches x 2 s) / 2 = 11.5 s, rounded up.
  CHECK(has(advice, "a point costs about 12 s here"));

  r.interrupted = true; // an interrupted run is continued with --resume, not given advice
  CHECK(tools::budget_advice(r, problem, 8).empty());

  problem.enumeration += "; cut by the deadline: 3 high-level variants not lowered";
  CHECK(tools::budget_advice(r, problem, 8) ==
        "note: the enumeration of variants was cut after 8 s (its share of the budget), so the "
        "space is not complete; a larger --budget enumerates more variants\n");
}

TEST_CASE("budget advice: a lazy space estimates the points of the variants it did not generate") {
  explore::Report r;
  r.stencil = "j2d5pt";
  r.size = {4096, 4096};
  r.budget_s = 10;
  r.space_variants = 100;
  r.space_materialized = 10; // every listed point measured, 90 variants never generated
  r.space_points = 2;
  r.points = {point(0, explore::PointStatus::Ok, 2.0, 0.01),
              point(1, explore::PointStatus::Ok, 2.0, 0.01)};
  r.elapsed_s = 5; // 1 s of setup
  explore::Problem problem;
  std::string advice = tools::budget_advice(r, problem, 4);
  CAPTURE(advice);
  CHECK(has(advice, "measured 2 of about 20 points"));
  // 1 s of setup + 20 points x 2 s.
  CHECK(has(advice, "a budget of about 41 s would measure every point"));
}
