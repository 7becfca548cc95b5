// `tessera solve hpgmg3d`: HPGMG-FV's 2nd-order benchmark problem and its Richardson error.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../TempDir.h"
#include "CliRunner.h"

using namespace tessera::testing;

// HPGMG-FV (hpgmg/hpgmg a93ff23, operators.fv2.c built with -DUSE_FCYCLES -DUSE_GSRB
// -DUSE_BICGSTAB -DTEST_ERROR -DUNLIMIT_FMG_ITERATIONS, `hpgmg-fv 4 1`) prints at 16^3
//   h=6.25e-02  ||error||=9.673746496688092e-05  order=0.952
// (its Richardson analysis of solutions converged to ||r||/||f|| < 1e-10).
TEST_CASE("tessera solve hpgmg3d: HPGMG-FV's error estimate and order at 16^3") {
  std::string json = (make_temp_dir("tessera-hpgmg") / "hpgmg.json").string();
  auto r = cli({"solve", "hpgmg3d", "--size", "16", "--json", json});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(has(r.out, "F(3,3) gsrb"));
  CHECK(has(r.out, "error estimate at h=1/16"));
  std::ifstream in(json);
  auto j = nlohmann::json::parse(in);
  CHECK(j["problem"] == "hpgmg3d");
  CHECK(j["order"] == 2);
  CHECK(j["converged"] == true);
  const auto& e = j["richardson"];
  CHECK(e["error"]["max"].get<double>() == doctest::Approx(9.673746496688092e-05).epsilon(1e-3));
  CHECK(e["order_max"].get<double>() == doctest::Approx(0.952).epsilon(2e-3));
  CHECK(e["error"]["l2"].get<double>() > 0);
  CHECK(e["error"]["l2"].get<double>() < e["error"]["max"].get<double>());
}
