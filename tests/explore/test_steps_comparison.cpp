// explore --steps K: the fastest variant fusing all K steps against K sweeps of the best single
// sweep, in the report's JSON and text.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "explore/Report.h"
#include "explore/StepsComparison.h"

using namespace tessera;
using namespace tessera::explore;

namespace {

PointResult point(int id, double ms, Derivation history, double fraction = 0.5) {
  PointResult p;
  p.id = id;
  p.status = PointStatus::Ok;
  p.median_ms = ms;
  p.history = std::move(history);
  p.fraction_of_copy = fraction;
  return p;
}

} // namespace

TEST_CASE("steps comparison: the best variant fusing all K steps against K single sweeps") {
  Report single, fused;
  single.points = {point(0, 2.0, {{}, rewrite::Mapping{}}),
                   point(1, 1.5, {parse_steps({"stream-nd {dims=3}"}, "test")})};
  fused.points = {
      point(0, 9.0, {{}, rewrite::Mapping{}}), // K launches
      point(1, 2.0,
            {parse_steps({"temporal-tiling at [1] {dims=3, steps=2, tile=8}"},
                         "test")}), // fuses 2 of 4
      point(2, 4.0, {parse_steps({"stream-temporal at [1] {steps=4, tile=16}"}, "test")}, 0.3),
      point(3, 5.0, {parse_steps({"temporal-tiling at [1] {dims=3, steps=4, tile=8}"}, "test")}),
  };
  fused.points[3].status = PointStatus::Mismatch; // never compared
  StepsComparison c = compare_steps(4, single, fused);
  CHECK(c.single_ms == 1.5);
  CHECK(c.sweeps_ms == 6.0);
  REQUIRE(c.fused_ms);
  CHECK(*c.fused_ms == 4.0);
  CHECK(c.fused_variant.find("stream-temporal") != std::string::npos);
  CHECK(c.speedup == doctest::Approx(1.5));
  CHECK(c.fused_fraction_of_copy == doctest::Approx(1.2)); // 4 sweeps' bytes in the fused time
  std::string text = format_steps_comparison(c);
  CHECK(text.find("4 x 1.500 ms = 6.000 ms") != std::string::npos);
  CHECK(text.find("1.50x the 4 sweeps") != std::string::npos);

  fused.copy_gb_per_s = 100;
  fused.stencil = "j3d7pt";
  fused.size = {8, 8, 8};
  fused.steps = c;
  Report back = report_from_json(report_to_json(fused));
  REQUIRE(back.steps);
  CHECK(*back.steps->fused_ms == 4.0);
  CHECK(back.steps->single_variant == c.single_variant);
  CHECK(format_report(back).find("best fused: 4.000 ms") != std::string::npos);
}

TEST_CASE("steps comparison: without a fused variant it says why; bad JSON is rejected") {
  Report single, fused;
  single.points = {point(0, 1.0, {})};
  fused.points = {point(0, 3.0, {{}, rewrite::Mapping{}})};
  StepsComparison c = compare_steps(3, single, fused);
  CHECK(!c.fused_ms);
  CHECK(c.note.find("no variant fusing all 3 steps") != std::string::npos);
  nlohmann::json j = steps_comparison_to_json(c);
  j["steps"] = 1;
  CHECK_THROWS_WITH_AS(steps_comparison_from_json(j, "r.json"),
                       doctest::Contains("\"steps\" must be a whole number of at least 2"), Error);
  j["steps"] = 3;
  j["sweeps_ms"] = "fast";
  CHECK_THROWS_WITH_AS(steps_comparison_from_json(j, "r.json"),
                       doctest::Contains("\"sweeps_ms\" must be a non-negative number"), Error);
}

TEST_CASE("steps comparison: the best time of each fused form, kept through the JSON report") {
  Report single, fused;
  single.points = {point(0, 1.0, {parse_steps({"stream-nd {dims=3}"}, "test")})};
  fused.points = {
      point(0, 3.0, {parse_steps({"stream-temporal at [1] {steps=4, tile=16}"}, "test")}),
      point(1, 2.5, {parse_steps({"stream-temporal at [1] {steps=4, tile=32}"}, "test")}),
      point(2, 2.0,
            {parse_steps({"stream-temporal at [1] {registers=1, steps=4, tile=32}"}, "test")}),
      point(3, 5.0, {parse_steps({"temporal-tiling at [1] {dims=3, steps=4, tile=8}"}, "test")}),
      point(4, 1.0,
            {parse_steps({"temporal-tiling at [1] {dims=3, steps=2, tile=8}"},
                         "test")}), // fuses 2 of 4
  };
  StepsComparison c = compare_steps(4, single, fused);
  CHECK(fused_form(fused.points[2].history.rule_steps()) == "stream-temporal registers");
  CHECK(c.fused_by_form == std::map<std::string, double>{{"stream-temporal", 2.5},
                                                         {"stream-temporal registers", 2.0},
                                                         {"temporal-tiling", 5.0}});
  std::string text = format_steps_comparison(c);
  CHECK(text.find("stream-temporal registers 2.000 ms (2.00x)") != std::string::npos);
  CHECK(steps_comparison_from_json(steps_comparison_to_json(c), "r.json").fused_by_form ==
        c.fused_by_form);
  nlohmann::json j = steps_comparison_to_json(c);
  j["fused_by_form"]["temporal-tiling"] = -1;
  CHECK_THROWS_WITH_AS(steps_comparison_from_json(j, "r.json"),
                       doctest::Contains("\"temporal-tiling\" must be a non-negative number"),
                       Error);
}
