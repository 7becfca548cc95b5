// The compute ceiling: the measured multiply-add peak (kept in the roofline's file), the
// interpreter's count of a program's flops, and reports that carry both (version 3) while older
// reports still read. No test here depends on a timing beyond "positive".
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "RuntimeFixture.h"
#include "core/FlopCount.h"
#include "core/Scalar.h"
#include "explore/ComputeCeiling.h"
#include "explore/Report.h"
#include "runtime/ComputePeak.h"
#include "runtime/RooflineFile.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::runtime;
using tessera::testing::make_temp_dir;
using tessera::testing::test_session;
namespace fs = std::filesystem;

TEST_CASE("compute peak: measured on the default device, kept beside the copy roofline") {
  fs::path file = make_temp_dir("compute-peak") / "roofline.json";
  RooflineOptions options;
  options.file = file;
  options.max_bytes = std::size_t{4} << 20;
  options.timing = {0, 1};
  Roofline first = device_roofline(test_session(), options);
  CHECK_FALSE(first.from_file);
  CHECK(first.compute.f32_gflops > 0);
  CHECK((first.compute.f64_gflops > 0) == test_session().device().supports_double);
  Roofline second = device_roofline(test_session(), options); // read, not measured
  CHECK(second.from_file);
  CHECK(second.compute.f32_gflops == doctest::Approx(first.compute.f32_gflops));
  CHECK(second.compute.f64_gflops == doctest::Approx(first.compute.f64_gflops));
  CHECK(describe(second.compute).find("GFLOP/s") != std::string::npos);

  // An entry written before the compute peak: the peak alone is measured and added.
  nlohmann::json doc;
  std::ifstream(file) >> doc;
  for (auto& [identity, entry] : doc["devices"].items()) {
    entry.erase("f32_gflops");
    entry.erase("f64_gflops");
    entry["gb_per_s"] = 1234.5; // so that a full re-measurement would show
  }
  std::ofstream(file) << doc.dump();
  Roofline upgraded = device_roofline(test_session(), options);
  CHECK(upgraded.gb_per_s == doctest::Approx(1234.5)); // the copy roofline kept
  CHECK(upgraded.compute.f32_gflops > 0);
  CHECK(device_roofline(test_session(), options).compute.f32_gflops ==
        doctest::Approx(upgraded.compute.f32_gflops)); // and stored
}

TEST_CASE("flop count: floating arithmetic and math calls count, integers and comparisons not") {
  using E = ScalarExpr;
  const E a = E::param(0), b = E::param(1);
  const E body = E::binary(ScalarOp::Add, E::binary(ScalarOp::Mul, a, b), E::call("sqrt", {a}));
  const E compare = E::binary(ScalarOp::Lt, a, b);
  const auto f = [](double v) { return ScalarValue::make(ScalarKind::F32, v); };
  const auto i = [](double v) { return ScalarValue::make(ScalarKind::I32, v); };
  FlopCount outer;
  {
    FlopCount count;
    body.evaluate({f(2), f(3)});
    CHECK(count.flops() == 3);
    compare.evaluate({f(2), f(3)});
    E::binary(ScalarOp::Add, a, b).evaluate({i(2), i(3)});
    CHECK(count.flops() == 3);
  }
  CHECK(outer.flops() == 0); // the innermost counter counts
  body.evaluate({f(2), f(3)});
  CHECK(outer.flops() == 3);
}

namespace {

explore::Report report_with_compute() {
  explore::Report r;
  r.stencil = "box3d4r";
  r.size = {64, 64, 64};
  r.device_name = "gpu";
  r.copy_gb_per_s = 100;
  r.footprint_bytes = 2.0 * 64 * 64 * 64 * 4;
  r.peak_gflops = 1000;
  r.peak_precision = "f32";
  r.flops_per_output = 1458; // 729 multiply-adds
  explore::PointResult p;
  p.status = explore::PointStatus::Ok;
  p.median_ms = 1;
  p.gcells_per_s = 0.5;            // 729 GFLOP/s: 72.9% of the peak
  p.gb_per_s = p.gcells_per_s * 8; // 4 GB/s: 4% of the copy roofline
  p.fraction_of_copy = 0.04;
  r.points = {p};
  r.best = r.baseline = 0;
  return r;
}

} // namespace

TEST_CASE("report: the compute ceiling and each point's bound, written, read and printed") {
  explore::Report r = report_with_compute();
  CHECK(explore::point_gflops(r, r.points[0]) == doctest::Approx(729));
  CHECK(explore::point_bound(r, r.points[0]) == "arithmetic");
  CHECK(explore::arithmetic_intensity(r) == doctest::Approx(1458.0 / 8));
  std::string text = explore::format_report(r);
  CHECK(text.find("compute peak 1000.0 GFLOP/s (f32") != std::string::npos);
  CHECK(text.find("the ceiling is arithmetic") != std::string::npos);
  CHECK(text.find("72.9% of peak; bound by arithmetic") != std::string::npos);
  auto json = explore::report_to_json(r);
  CHECK(json["version"] == 3);
  CHECK(json["points"][0]["bound"] == "arithmetic");
  explore::Report back = explore::report_from_json(json);
  CHECK(back.peak_gflops == doctest::Approx(1000));
  CHECK(back.peak_precision == "f32");
  CHECK(back.flops_per_output == doctest::Approx(1458));
  CHECK(explore::point_bound(back, back.points[0]) == "arithmetic");

  CHECK(text.find("of the compute peak") == std::string::npos); // 72.9%: no note
  // A variant faster than the program's flops allow (a separable box's passes): said why.
  r.points[0].gcells_per_s = 1.25; // 1822.5 GFLOP/s of the program's flops
  const std::string above = explore::format_report(r);
  CHECK(above.find("note: the best's arithmetic rate is 182.") != std::string::npos);
  CHECK(above.find("% of the compute peak: it counts the program's flops") != std::string::npos);
  r.points[0].gcells_per_s = 0.5;

  r.flops_per_output = 9; // a 5-point stencil: bytes bound it
  CHECK(explore::point_bound(r, r.points[0]) == "bytes");
  CHECK(explore::format_report(r).find("the ceiling is bytes") != std::string::npos);
}

TEST_CASE("report: a version-2 report (no compute ceiling) still reads, with none") {
  auto json = explore::report_to_json(report_with_compute());
  json["version"] = 2;
  json.erase("compute");
  for (auto& p : json["points"]) {
    p.erase("bound");
    p.erase("gflops_per_s");
  }
  explore::Report old = explore::report_from_json(json);
  CHECK(old.peak_gflops == 0);
  CHECK(old.flops_per_output == 0);
  CHECK(explore::point_bound(old, old.points[0]).empty());
  CHECK(explore::compute_summary(old).empty());
  CHECK(explore::format_report(old).find("GFLOP/s") == std::string::npos);
}
