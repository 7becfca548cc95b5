// `tessera explore --devices` on two PoCL devices (POCL_DEVICES="pthread pthread": two CPU
// devices of one host, enough to check the dealing out of the variants, the merge of the
// reports and a device that fails). The built binary runs in a process of its own, because
// PoCL reads POCL_DEVICES once, when the platform is first opened.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <sys/wait.h>

#include "../explore/RuntimeFixture.h"

namespace fs = std::filesystem;

namespace {

struct Run {
  int status = -1;
  nlohmann::json report;
};

Run explore_two_devices(const std::string& extra_env) {
  fs::path dir = tessera::testing::make_temp_dir("explore-devices");
  fs::path json = dir / "devices.json";
  std::string command = "POCL_DEVICES='pthread pthread' POCL_MAX_PTHREAD_COUNT=1 "
                        "TESSERA_ROOFLINE_BYTES=8388608 TESSERA_CACHE_DIR='" +
                        (dir / "cache").string() + "' " + extra_env +
                        " '" TESSERA_BINARY
                        "' explore j2d5pt --size 64x64 --depth 1 --devices all --budget 60 "
                        "--repeats 2 --json '" +
                        json.string() + "' > '" + (dir / "out.txt").string() + "' 2>&1";
  Run run;
  int raw = std::system(command.c_str());
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  if (fs::exists(json))
    run.report = nlohmann::json::parse(std::ifstream(json));
  return run;
}

} // namespace

TEST_CASE("explore --devices deals the variants out to two devices and merges their reports") {
  Run run = explore_two_devices("");
  REQUIRE(run.status == 0);
  const auto& devices = run.report.at("devices");
  REQUIRE(devices.size() == 2);
  // Variant 0 (the plain lowering, every device's reference) on both; every other on one.
  std::multiset<int> dealt;
  for (const auto& d : devices) {
    CHECK(d.at("variants").at(0) == 0);
    for (std::size_t i = 1; i < d.at("variants").size(); ++i)
      dealt.insert(d.at("variants")[i].get<int>());
    REQUIRE_FALSE(d.at("best").is_null());
  }
  CHECK(dealt.size() == std::set<int>(dealt.begin(), dealt.end()).size());
  CHECK(dealt.size() >= 2);
  // The merged best is the faster of the two devices' bests.
  const auto& best = run.report.at("best");
  const int on = best.at("device").get<int>();
  for (const auto& d : devices)
    CHECK(best.at("median_ms").get<double>() <= d.at("best").at("median_ms").get<double>());
  CHECK(best.at("variant") == devices.at(on).at("best").at("variant"));
}

TEST_CASE("explore --devices: a failing device is named, the other's results are kept") {
  Run run = explore_two_devices("TESSERA_FAIL_DEVICE=1");
  CHECK(run.status == 1);
  REQUIRE(run.report.is_object());
  const auto& devices = run.report.at("devices");
  REQUIRE(devices.size() == 2);
  CHECK_FALSE(devices[0].at("best").is_null());
  CHECK(devices[0].count("error") == 0);
  CHECK(devices[1].at("error").get<std::string>().find("injected") != std::string::npos);
  CHECK(devices[1].at("best").is_null());
  CHECK(run.report.at("best").at("device") == 0);
}
