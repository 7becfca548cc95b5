// The status of a measured point: an enum in the code, spelled "ok", "failed", "mismatch" only
// in the report and tuning-database JSON (the format is unchanged); other spellings are errors
// in a report and skipped records in the tuning database.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../TempDir.h"
#include "core/Error.h"
#include "explore/Features.h"
#include "explore/PointStatus.h"
#include "explore/Report.h"
#include "explore/TuningDatabase.h"

using namespace tessera;
using namespace tessera::explore;

namespace {

PointResult point_with(int id, PointStatus status) {
  PointResult p;
  p.id = id;
  p.key = cat("k", id);
  p.status = status;
  p.max_error = status == PointStatus::Mismatch ? 0.25 : 0.0;
  p.error = status == PointStatus::Failed ? "build failed" : "";
  p.median_ms = status == PointStatus::Ok ? 1.5 : 0.0;
  p.repeats = status == PointStatus::Ok ? 3 : 0;
  return p;
}

} // namespace

TEST_CASE("point status: the JSON spellings and back") {
  CHECK(to_string(PointStatus::Ok) == "ok");
  CHECK(to_string(PointStatus::Failed) == "failed");
  CHECK(to_string(PointStatus::Mismatch) == "mismatch");
  for (auto s : {PointStatus::Ok, PointStatus::Failed, PointStatus::Mismatch})
    CHECK(point_status_from_string(to_string(s), "here") == s);
  std::string message;
  try {
    point_status_from_string("OK", "r.json: point 3");
  } catch (const Error& e) {
    message = e.what();
  }
  CHECK(message == "r.json: point 3: \"status\" is 'OK', expected ok, failed or mismatch");
}

TEST_CASE("point status: a report keeps the spelling and reads it back") {
  Report r;
  r.stencil = "j1d3pt";
  r.size = {64};
  r.copy_gb_per_s = 10;
  r.points = {point_with(0, PointStatus::Ok), point_with(1, PointStatus::Failed),
              point_with(2, PointStatus::Mismatch)};
  nlohmann::json j = report_to_json(r);
  CHECK(j["points"][0]["status"] == "ok");
  CHECK(j["points"][1]["status"] == "failed");
  CHECK(j["points"][2]["status"] == "mismatch");
  CHECK(j["points"][2]["max_error"] == 0.25);
  CHECK_FALSE(j["points"][1].contains("max_error")); // a failed point has no error measure
  Report back = report_from_json(j, "r.json");
  REQUIRE(back.points.size() == 3);
  CHECK(back.points[0].status == PointStatus::Ok);
  CHECK(back.points[0].median_ms == 1.5);
  CHECK(back.points[1].status == PointStatus::Failed);
  CHECK(back.points[1].error == "build failed");
  CHECK(back.points[2].status == PointStatus::Mismatch);
  CHECK(back.points[2].max_error == 0.25);
}

TEST_CASE("point status: a tuning record with an unknown status is skipped, the others kept") {
  auto dir = tessera::testing::make_temp_dir("tessera-point-status");
  auto path = dir / "tuning.json";
  TunedPoint a;
  a.device = "d";
  a.program_hash = "h";
  a.signature = variant_signature({{}, rewrite::Mapping{rewrite::MappingKind::Global}});
  a.status = PointStatus::Mismatch;
  TunedPoint b = a;
  b.signature = variant_signature({{}, rewrite::Mapping{rewrite::MappingKind::CoarsenedTiles}});
  b.status = PointStatus::Ok;
  record_tuned_points(path, {a, b});
  auto both = read_tuned_points(path, "d");
  REQUIRE(both.size() == 2);
  int mismatches = 0;
  for (const auto& p : both)
    mismatches += p.status == PointStatus::Mismatch;
  CHECK(mismatches == 1);

  nlohmann::json db;
  std::ifstream(path) >> db;
  for (auto& p : db["points"])
    if (p["status"] == "mismatch")
      p["status"] = "great";
  std::ofstream(path) << db.dump();
  auto kept = read_tuned_points(path, "d");
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].signature == b.signature);
  CHECK(kept[0].status == PointStatus::Ok);
}
