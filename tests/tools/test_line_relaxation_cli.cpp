// `tessera solve --anisotropy EPS --smoother line-x|line-y|...`: on the anisotropic Poisson
// problem (coupling 1 along x, 0.001 along y) x-line relaxation converges fast where point
// red-black Gauss-Seidel stalls, both as printed and saved by the command.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../TempDir.h"
#include "CliRunner.h"

using namespace tessera::testing;

namespace {

nlohmann::json solve_json(const std::vector<std::string>& options, int expected_code) {
  std::string json = (make_temp_dir("tessera-line") / "solve.json").string();
  std::vector<std::string> args{"solve", "poisson2d", "--size", "64", "--anisotropy", "0.001",
                                "--pre", "1",         "--post", "1",  "--json",       json};
  args.insert(args.end(), options.begin(), options.end());
  auto r = cli(args);
  INFO(r.out << r.err);
  CHECK(r.code == expected_code);
  CHECK(has(r.out, "anisotropy 0.001"));
  CHECK(has(r.out, "factor"));
  CHECK(has(r.out, "mean convergence factor"));
  std::ifstream in(json);
  return nlohmann::json::parse(in);
}

} // namespace

TEST_CASE(
    "tessera solve: x-line relaxation on the anisotropic problem, point Gauss-Seidel stalls") {
  auto line = solve_json({"--smoother", "line-x"}, 0);
  CHECK(line["smoother"] == "line-x");
  CHECK(line["converged"] == true);
  CHECK(line["mean_convergence_factor"].get<double>() <= 0.2);
  for (const auto& c : line["cycles"])
    CHECK(c["convergence_factor"].get<double>() <= 0.2);
  CHECK(line["max_error"].get<double>() < 1e-3);

  // Point red-black Gauss-Seidel: after the smooth start, every cycle removes less than 10%.
  auto point = solve_json({"--smoother", "gsrb", "--max-cycles", "20"}, 1);
  REQUIRE(point["cycles"].size() == 20);
  CHECK(point["cycles"].back()["convergence_factor"].get<double>() > 0.9);
}

TEST_CASE("tessera solve: bad line-relaxation and anisotropy options are errors") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  for (const auto& c : std::vector<Case>{
           {{"solve", "poisson2d", "--size", "16", "--smoother", "line-z"}, "no lines along 'z'"},
           {{"solve", "poisson2d", "--size", "16", "--anisotropy", "-1"},
            "--anisotropy: expected a positive number, got '-1'"},
           {{"solve", "helmholtz2d", "--size", "16", "--anisotropy", "0.1"}, "poisson2d and"},
           {{"solve", "poisson2d", "--size", "15", "--centring", "vertex", "--smoother", "line-x"},
            "cell-centred"},
           {{"solve", "poisson1d", "--size", "16", "--smoother", "line-x"}, "one line"}}) {
    auto r = cli(c.args);
    INFO(r.out << r.err);
    CHECK(r.code == 2);
    CHECK(has(r.err, c.message));
  }
}
