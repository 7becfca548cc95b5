// The explorer's lazy space without a device: variants are generated only when asked for, the
// baseline's automatic point is point 0, the database's preferred work-group sizes come first,
// and generation time is measured once and billed once.
#include <doctest/doctest.h>

#include "dsl/Dsl.h"
#include "explore/LazySpace.h"
#include "explore/Variants.h"

using namespace tessera;
using namespace tessera::explore;

namespace {

Expr average(const std::vector<int64_t>& extents) {
  auto f = user_fun("average3", [](auto a, auto b, auto c) { return (a + b + c) / 3.0f; });
  Val x = input("x", Type::array(f32(), extents.at(0)));
  return program({x}, x | pad(1, 1, clamp) | slide(3, 1) |
                          map([=](Val w) { return f(w.at(0), w.at(1), w.at(2)); }));
}

} // namespace

TEST_CASE("lazy space: variants are generated on demand in the prior's order") {
  Problem problem = make_problem("avg", average, {4096}, 1);
  REQUIRE(problem.variants.size() > 4);
  CHECK(problem.enumeration.find("generated when the search reaches them") != std::string::npos);
  // The database knows a coarsened variant's 64-wide work-groups are best.
  int coarsened = -1;
  for (std::size_t v = 1; v < problem.variants.size() && coarsened < 0; ++v) {
    const auto& m = problem.variants[v].history.mapping;
    if (m && (m->kind == rewrite::MappingKind::Coarsened ||
              m->kind == rewrite::MappingKind::CoarsenedTiles))
      coarsened = static_cast<int>(v);
  }
  REQUIRE(coarsened > 0);
  TunedPoint known;
  known.device = "d";
  known.program_hash = "p";
  known.signature =
      variant_signature(problem.variants[static_cast<std::size_t>(coarsened)].history);
  known.local = "64";
  known.median_ms = 1;
  known.baseline_ms = 3;
  Prior prior = make_prior(problem.variants, {known}, {"avg", "p", 4096});
  CHECK(prior.order.front() == coarsened);

  LazySpace lazy(problem.variants, Target{}, "avg", prior);
  CHECK(lazy.materialized_count() == 0);
  CHECK(lazy.point_count() == 0);
  CHECK(lazy.materialize_estimate(0) > 0);
  const auto& base = lazy.points_of(0);
  REQUIRE_FALSE(base.empty());
  CHECK(base.front() == 0);
  CHECK(lazy.space().points[0].local.empty()); // the baseline: automatic work-group size
  CHECK(lazy.materialized_count() == 1);
  double generated = lazy.take_generation_seconds(0);
  CHECK(generated > 0);
  CHECK(lazy.take_generation_seconds(0) == 0); // billed once
  CHECK(lazy.materialize_estimate(1) == doctest::Approx(generated));

  const auto& points = lazy.points_of(coarsened);
  REQUIRE(points.size() > 1);
  CHECK(lazy.space().points[static_cast<std::size_t>(points.front())].local_text() == "64");
  CHECK(lazy.points_of(coarsened) == points); // materialized once
  CHECK(lazy.materialized_count() == 2);
  CHECK(lazy.arm_of(coarsened).find("mapping: coarsened") != std::string::npos);

  SpaceSnapshot snapshot = lazy.snapshot();
  CHECK(snapshot.points.size() == static_cast<std::size_t>(lazy.point_count()));
  CHECK(snapshot.order == std::vector<int>{coarsened});
  StaticSpace replayed(snapshot);
  CHECK(replayed.prior_order() == std::vector<int>{coarsened}); // only variants with points
}

TEST_CASE("lazy space: an enumeration cut by its deadline still lowers what it found of at most "
          "one rewrite step") {
  rewrite::EnumerateOptions control;
  control.deadline_seconds = 0.5;
  Problem shallow = make_problem("avg", average, {4096}, 1, control);
  // The deadline passes at once: the enumeration keeps the program itself, whose lowerings
  // (plain, reordered, vectorized, coarsened) are still made (a cut once left only the baseline).
  control.deadline_seconds = 1e-9;
  Problem cut = make_problem("avg", average, {4096}, 1, control);
  CHECK(cut.enumeration.find("deadline") != std::string::npos);
  CHECK(cut.variants.size() > 1);
  CHECK(cut.variants.size() <= shallow.variants.size());
}
