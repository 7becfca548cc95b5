// Exploration over several devices: how the variants are dealt out, and a merged report of two
// shares explored on this machine's one device (as two devices of a host would).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "RuntimeFixture.h"
#include "core/Printer.h"
#include "dsl/Dsl.h"
#include "explore/DeviceShares.h"

using namespace tessera;
using namespace tessera::explore;

namespace {

Expr sum3(int64_t n, const std::function<Fun(Fun)>& mapping) {
  auto f = user_fun("sum3", [](auto a, auto b, auto c) { return a + b * 2.0f + c; });
  Val x = input("x", Type::array(f32(), ArithExpr(n)));
  Fun point([f](Val nb) { return f(nb.at(0), nb.at(1), nb.at(2)); });
  return program({x}, x | pad(1, 1, mirror) | slide(3, 1) | mapping(point));
}

Problem coarsening_problem(int64_t n, int variants) {
  Problem p;
  p.name = "sum3";
  p.extents = {n};
  p.program = sum3(n, [](Fun f) { return map(f); });
  Expr plain = sum3(n, [](Fun f) { return map_glb(0, f); });
  p.variants.push_back({plain, print(plain), {{}, rewrite::Mapping{}}, {}});
  for (int v = 1; v < variants; ++v) {
    int64_t chunk = int64_t{1} << v;
    Expr e = sum3(n, [chunk](Fun f) { return split(chunk) >> map_glb(0, map_seq(f)) >> join(); });
    rewrite::Mapping coarsened{rewrite::MappingKind::Coarsened};
    coarsened.factor = chunk;
    p.variants.push_back({e, print(e), {{}, coarsened}, {{"chunk", chunk}}});
  }
  return p;
}

} // namespace

TEST_CASE("device shares: every variant once, the baseline on every device") {
  Problem p = coarsening_problem(1024, 8);
  for (int devices : {1, 2, 3, 7, 9}) {
    auto shares = split_variants(p, devices);
    REQUIRE(shares.size() == static_cast<std::size_t>(devices));
    std::vector<int> seen(p.variants.size(), 0);
    std::size_t smallest = p.variants.size(), largest = 0;
    for (const auto& s : shares) {
      REQUIRE(s.variant_of.size() == s.problem.variants.size());
      CHECK(s.variant_of.at(0) == 0);
      for (std::size_t i = 0; i < s.variant_of.size(); ++i) {
        ++seen.at(s.variant_of[i]);
        CHECK(
            structurally_equal(s.problem.variants[i].program, p.variants[s.variant_of[i]].program));
      }
      smallest = std::min(smallest, s.problem.variants.size());
      largest = std::max(largest, s.problem.variants.size());
    }
    CHECK(seen[0] == devices);
    for (std::size_t v = 1; v < seen.size(); ++v)
      CHECK(seen[v] == 1);
    CHECK(largest - smallest <= 1);
  }
  CHECK_THROWS_WITH(split_variants(p, 0), doctest::Contains("at least one device"));
}

TEST_CASE("device shares: two shares explored and merged by device") {
  auto& session = testing::test_session();
  Problem p = coarsening_problem(4096, 5);
  auto shares = split_variants(p, 2);
  std::vector<Report> reports;
  for (const auto& s : shares) {
    ExploreOptions o;
    o.budget_s = 30;
    o.strategy = Strategy::Exhaustive;
    o.repeats = 2;
    o.roofline = runtime::RooflineOptions{};
    o.roofline->max_bytes = std::size_t{1} << 20;
    reports.push_back(tessera::explore::explore(session, s.problem, o));
  }
  auto merged = merge_reports(shares, reports);
  CHECK(merged["format"] == "tessera-explore-devices");
  REQUIRE(merged["devices"].size() == 2);
  CHECK(merged["devices"][0]["variants"] == nlohmann::json({0, 1, 3}));
  CHECK(merged["devices"][1]["variants"] == nlohmann::json({0, 2, 4}));
  REQUIRE_FALSE(merged["best"].is_null());
  // The best is the fastest of the devices' bests, numbered in the whole problem.
  int device = merged["best"]["device"];
  double best_ms = merged["best"]["median_ms"];
  for (const auto& d : merged["devices"])
    CHECK(best_ms <= d["best"]["median_ms"].get<double>());
  const Report& r = reports.at(static_cast<std::size_t>(device));
  const PointResult* point = r.find(*r.best);
  REQUIRE(point != nullptr);
  CHECK(shares[device].variant_of.at(point->variant) == merged["best"]["variant"].get<int>());
  for (const auto& d : merged["devices"])
    CHECK(d["report"]["points"].size() >= 3); // every variant of the share measured
}
