// Reports: JSON round trip, validation of bad files, atomic writes, the text summary, the plot
// and the progress bar.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "RuntimeFixture.h"
#include "core/Error.h"
#include "explore/Plot.h"
#include "explore/ProgressBar.h"
#include "explore/Report.h"
#include "tests/Helpers.h"

using namespace tessera;
using tessera::testing::error_of;
using namespace tessera::explore;
namespace fs = std::filesystem;

namespace {

Report sample_report() {
  Report r;
  r.stencil = "j2d5pt";
  r.size = {64, 64};
  r.program = "(x : [[f32]_64]_64) => ...";
  r.device_name = "cpu";
  r.device_platform = "PoCL";
  r.copy_gb_per_s = 10;
  r.date = utc_now();
  r.budget_s = 10;
  r.elapsed_s = 4;
  r.total_elapsed_s = 4;
  r.strategy = "halving";
  r.check_method = "the reference interpreter";
  r.space_variants = 2;
  r.space_points = 3;
  r.filtered = {{"work-group size does not divide the global size", 4}};
  r.space_filtered = 4;
  for (int i = 0; i < 3; ++i) {
    PointResult p;
    p.id = i;
    p.key = cat("v", i);
    p.variant = i == 0 ? 0 : 1;
    p.program = "MapGlb(0)(f) $ x";
    p.history = {{{"split-join", {1}, {{"chunk", 4}}}}, rewrite::Mapping{}};
    p.params = {{"chunk", 4}};
    p.local = i == 2 ? "32x8" : "auto";
    p.kernel_hash = "0123456789abcdef";
    p.status = i == 1 ? PointStatus::Failed : PointStatus::Ok;
    p.error = i == 1 ? "build failed:\nline 3: error" : "";
    p.median_ms = i == 0 ? 2.0 : 1.0;
    p.repeats = 5;
    p.gb_per_s = i == 0 ? 4.0 : 8.0;
    p.fraction_of_copy = p.gb_per_s / 10;
    p.launch_s = 0.002;
    p.cost_s = 0.5;
    r.points.push_back(p);
  }
  r.baseline = 0;
  r.best = 2;
  r.speedup = 2.0;
  r.strategies = {{"halving", 1.5, "measured", ""},
                  {"exhaustive", std::nullopt, "replayed", "not reached within the budget"}};
  r.trace = {{0.5, 0, 2.0, 5}, {1.5, 2, 1.0, 1}};
  return r;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_CASE("report: JSON round trip keeps every field") {
  Report r = sample_report();
  nlohmann::json j = report_to_json(r);
  CHECK(j["format"] == "tessera-report");
  CHECK(j["version"] == 3);
  CHECK(j["points"][0]["history"] == nlohmann::json::array({"split-join at [1] {chunk=4}"}));
  CHECK(j["points"][0]["mapping"] == nlohmann::json{{"kind", "global"}});
  Report back = report_from_json(j);
  CHECK(report_to_json(back) == j);
  CHECK(back.points[0].history == r.points[0].history);
  CHECK(back.points.size() == 3);
  CHECK(back.points[1].status == PointStatus::Failed);
  CHECK(back.points[1].error.find("line 3") != std::string::npos);
  CHECK(*back.best == 2);
  CHECK(back.strategies[1].time_to_5pct_s == std::nullopt);
  CHECK(back.trace.size() == 2);
}

TEST_CASE("report: invalid reports are rejected with the reason") {
  nlohmann::json good = report_to_json(sample_report());
  auto broken = [&](auto edit) {
    nlohmann::json j = good;
    edit(j);
    return error_of([&] { report_from_json(j, "r.json"); });
  };
  CHECK(broken([](auto& j) { j.erase("format"); }).find("not a tessera report") !=
        std::string::npos);
  CHECK(broken([](auto& j) { j["format"] = "tessera-expr"; }).find("not a tessera report") !=
        std::string::npos);
  CHECK(broken([](auto& j) { j["version"] = 99; }) ==
        "r.json: report version 99 is not supported (this tessera reads versions 1 to 3)");
  CHECK(broken([](auto& j) {
          j["points"][0]["mapping"] = {{"kind", "teleport"}};
        }).find("unknown mapping kind \"teleport\"") != std::string::npos);
  CHECK(broken([](auto& j) { j["points"][0]["history"] = 5; }).find("\"history\" must be") !=
        std::string::npos);
  // A version-1 history step that names no mapping.
  CHECK(broken([](auto& j) {
          j["version"] = 1;
          j["points"][0]["history"] = {"mapping: sideways"};
        }).find("\"mapping: sideways\" names no known mapping") != std::string::npos);
  CHECK(broken([](auto& j) { j.erase("points"); }).find("missing \"points\"") != std::string::npos);
  CHECK(broken([](auto& j) { j["points"][0]["status"] = "great"; }).find("status") !=
        std::string::npos);
  CHECK(broken([](auto& j) { j["points"][0].erase("median_ms"); }).find("median_ms") !=
        std::string::npos);
  CHECK(broken([](auto& j) { j["best"] = 17; }).find("point 17") != std::string::npos);
  CHECK(broken([](auto& j) { j["size"] = "big"; }).find("\"size\" has the wrong type") !=
        std::string::npos);
  CHECK(error_of([] {
          report_from_json(nlohmann::json::array(), "r.json");
        }).find("not a tessera report") != std::string::npos);
}

TEST_CASE("report: files are written atomically and read back with clear errors") {
  fs::path dir = testing::make_temp_dir("report");
  fs::path file = dir / "r.json";
  write_report(sample_report(), file.string());
  Report back = read_report(file.string());
  CHECK(back.stencil == "j2d5pt");
  // No temporary file is left behind.
  int entries = 0;
  for (auto& e : fs::directory_iterator(dir))
    entries += e.is_regular_file();
  CHECK(entries == 1);
  // A failed write (the directory does not exist) leaves nothing and says why.
  CHECK(error_of([&] {
          write_report(back, (dir / "missing" / "r.json").string());
        }).find("cannot write") != std::string::npos);
  // Unreadable and invalid files.
  CHECK(error_of([&] { read_report((dir / "none.json").string()); }).find("cannot read report") !=
        std::string::npos);
  { std::ofstream(dir / "bad.json") << "{\"format\": \"tessera-report\", "; }
  CHECK(error_of([&] { read_report((dir / "bad.json").string()); }).find("invalid JSON") !=
        std::string::npos);
  { std::ofstream(dir / "other.json") << "{\"hello\": 1}"; }
  CHECK(error_of([&] {
          read_report((dir / "other.json").string());
        }).find("not a tessera report") != std::string::npos);
}

TEST_CASE("report: the text summary names best, baseline, speedup, strategies and failures") {
  std::string text = format_report(sample_report());
  CHECK(text.find("j2d5pt 64x64") != std::string::npos);
  CHECK(text.find("2.00x faster than the plain MapGlb lowering") != std::string::npos);
  CHECK(text.find("local=32x8") != std::string::npos);
  CHECK(text.find("time to within 5% of the best") != std::string::npos);
  CHECK(text.find("build failed: ...") != std::string::npos);
  CHECK(text.find("80.0% of the copy roofline") != std::string::npos);
}

TEST_CASE("plot: gnuplot draws an SVG of the points and the roofline") {
  if (find_gnuplot().empty()) {
    MESSAGE("gnuplot is not installed: skipped");
    return;
  }
  fs::path dir = testing::make_temp_dir("plot");
  fs::path svg = dir / "r.svg";
  plot_report(sample_report(), svg.string());
  std::string text = read_text(svg);
  CHECK(text.find("<svg") != std::string::npos);
  CHECK(text.find("roofline") != std::string::npos);
  std::string script = gnuplot_script(sample_report(), "/data", "/out.svg");
  CHECK(script.find("copy = 10.0000") != std::string::npos);
  CHECK(script.find("failed or mismatch") != std::string::npos);
}

TEST_CASE("plot: families in their own colours, the best of each labelled, best so far in time") {
  Report r = sample_report();
  r.points[2].history = {{{"tile-nd", {1}, {{"dims", 2}, {"tile", 16}}}},
                         rewrite::Mapping{rewrite::MappingKind::WorkGroups}};
  std::string script = gnuplot_script(r, "/data", "/out.svg");
  CHECK(script.find("set xtics ('plain' 0, 'tiled' 1)") == std::string::npos); // in family order
  CHECK(script.find("set xtics ('tiled' 0, 'plain' 1)") != std::string::npos);
  CHECK(script.find("'/data/family0.dat' using 1:2 with points pt 7 ps 0.7 lc rgb '#ee6677' title "
                    "'tiled'") != std::string::npos);
  CHECK(script.find("'/data/family1.dat' using 1:2 with points pt 7 ps 0.7 lc rgb '#228833' title "
                    "'plain'") != std::string::npos);
  CHECK(script.find("set label 1 'v1 32x8: 8.00'") != std::string::npos); // best tiled point
  CHECK(script.find("set label 2 'v0: 4.00'") != std::string::npos);      // best plain point
  CHECK(script.find("best: v1 32x8 (tiled) 8.00 GB/s, 2.00x") != std::string::npos);
  CHECK(script.find("set multiplot layout 2,1") != std::string::npos);
  CHECK(script.find("exploration time [s]") != std::string::npos);
  CHECK(script.find("'halving (measured)' at 1.500") != std::string::npos);
  CHECK(script.find("best so far (halving, measured)") != std::string::npos);
}

TEST_CASE("plot: a missing gnuplot or an empty report is a clear error") {
  fs::path dir = testing::make_temp_dir("plot");
  ::setenv("TESSERA_GNUPLOT", "/nonexistent/gnuplot", 1);
  std::string missing = error_of([&] { plot_report(sample_report(), (dir / "r.svg").string()); });
  ::unsetenv("TESSERA_GNUPLOT");
  CHECK(missing.find("gnuplot not found") != std::string::npos);
  CHECK(missing.find("gnuplot-nox") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "r.svg"));
  Report empty = sample_report();
  empty.points.clear();
  empty.best.reset();
  empty.baseline.reset();
  if (!find_gnuplot().empty())
    CHECK(error_of([&] {
            plot_report(empty, (dir / "e.svg").string());
          }).find("no successfully measured point") != std::string::npos);
}

TEST_CASE("progress: the bar shows points, time, the best and the speedup") {
  Progress p;
  p.done = 5;
  p.total = 20;
  p.elapsed_s = 3;
  p.budget_s = 12;
  p.best_gb_per_s = 7.5;
  p.best_ms = 1;
  p.baseline_ms = 3;
  p.phase = "variants";
  std::string line = progress_line(p, 20);
  CHECK(line.rfind("[#####...............]", 0) == 0);
  CHECK(line.find("5/20 points") != std::string::npos);
  CHECK(line.find("3.0/12 s") != std::string::npos);
  CHECK(line.find("best 7.50 GB/s (3.00x)") != std::string::npos);
  std::ostringstream quiet, shown;
  {
    ProgressBar off(quiet, false);
    off.update(p);
    ProgressBar on(shown, true);
    on.update(p);
  }
  CHECK(quiet.str().empty());
  CHECK(shown.str().find("\r[") == 0);
  CHECK(shown.str().back() == '\n');
}
