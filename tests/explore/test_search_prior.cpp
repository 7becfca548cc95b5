// The lazy, prior-ordered search against a fake clock and a fake device: the order the prior
// gives (tuning database, similar programs, cost model, shallower first), the budget accounting
// of generation and measurement, the warm start from the database, and the bandit.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "../TempDir.h"
#include "core/Error.h"
#include "explore/Features.h"
#include "explore/Prior.h"
#include "explore/Search.h"
#include "explore/TuningDatabase.h"

using namespace tessera;
using namespace tessera::explore;

namespace {

using rewrite::Mapping;
using rewrite::MappingKind;
const Mapping kGlobal{MappingKind::Global};
const Mapping kCoarsened{MappingKind::CoarsenedTiles};
const Mapping kWorkGroups{MappingKind::WorkGroups};

VariantInfo info(std::vector<std::string> steps, const Mapping& mapping,
                 std::map<std::string, int64_t> params = {}) {
  return {Expr(), "", {parse_steps(steps, "a test's variant"), mapping}, std::move(params)};
}

// A variant of the fake device: its family, its rewrite steps and the medians of its points
// (work-group sizes); infinity: the point fails.
struct FakeVariant {
  VariantInfo variant;
  std::vector<double> medians;
};

// A space whose variants cost `generate_s` of the fake clock to materialize, and whose points
// cost `first_s` the first time and (1 + repeats) * launch_s each time.
struct FakeDevice : Evaluator, SearchSpace {
  std::vector<FakeVariant> variants;
  Prior prior;
  double generate_s = 0.3, first_s = 0.2, launch_s = 0.01;
  double t = 0;
  std::vector<Point> points;
  std::vector<double> point_medians;
  std::vector<std::vector<int>> listed;
  std::vector<char> generated;
  std::map<int, Measurement> results;
  std::vector<int> first_order;             // points in order of first measurement
  std::vector<std::pair<double, int>> seen; // (time, point) of every first measurement
  double max_overrun = 0;                   // worst finish past the deadline

  FakeDevice(std::vector<FakeVariant> vs, const std::vector<TunedPoint>& known = {})
      : variants(std::move(vs)) {
    std::vector<VariantInfo> infos;
    for (const auto& v : variants)
      infos.push_back(v.variant);
    prior = make_prior(infos, known, {"fake", "program", 4096});
    listed.resize(variants.size());
    generated.resize(variants.size(), 0);
  }

  // Evaluator
  double now() const override { return t; }
  bool measured(int p) const override { return results.count(p) != 0; }
  std::optional<Measurement> result(int p) const override {
    auto it = results.find(p);
    return it == results.end() ? std::nullopt : std::optional<Measurement>(it->second);
  }
  double estimate(int p, int repeats) const override {
    return (measured(p) ? 0.0 : first_s) + (1 + repeats) * launch_s;
  }
  double estimate_unlisted(int repeats) const override {
    return first_s + (1 + repeats) * launch_s;
  }
  Measurement measure(int p, int repeats) override {
    t += estimate(p, repeats);
    if (!measured(p)) {
      first_order.push_back(p);
      seen.push_back({t, p});
    }
    double m = point_medians[static_cast<std::size_t>(p)];
    results[p] = std::isfinite(m) ? Measurement{true, m, repeats} : Measurement{false, 0, repeats};
    return results[p];
  }

  // SearchSpace
  int variant_count() const override { return static_cast<int>(variants.size()); }
  int point_count() const override { return static_cast<int>(points.size()); }
  const std::vector<int>& prior_order() const override { return prior.order; }
  bool materialized(int v) const override { return generated[static_cast<std::size_t>(v)]; }
  double materialize_estimate(int v) const override { return materialized(v) ? 0 : generate_s; }
  const std::vector<int>& points_of(int v) override {
    auto i = static_cast<std::size_t>(v);
    if (!generated[i]) {
      t += generate_s;
      generated[i] = 1;
      for (std::size_t k = 0; k < variants[i].medians.size(); ++k) {
        listed[i].push_back(static_cast<int>(points.size()));
        points.push_back({v, k == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{32 << k}});
        point_medians.push_back(variants[i].medians[k]);
      }
    }
    return listed[i];
  }
  int variant_of(int p) const override { return points[static_cast<std::size_t>(p)].variant; }
  const std::string& arm_of(int v) const override {
    return prior.features[static_cast<std::size_t>(v)].arm;
  }
  const std::vector<std::string>& variant_words(int v) const override {
    return prior.features[static_cast<std::size_t>(v)].words;
  }
  std::vector<std::string> point_words(int p) const override {
    const Point& pt = points[static_cast<std::size_t>(p)];
    return explore::point_words(prior.features[static_cast<std::size_t>(pt.variant)],
                                pt.local_text());
  }
  const FeatureModel& model() const override { return prior.model; }

  int generated_count() const {
    int n = 0;
    for (char g : generated)
      n += g;
    return n;
  }
  double best_ms() const {
    double best = INFINITY;
    for (const auto& [p, m] : results)
      if (m.ok)
        best = std::min(best, m.median_ms);
    return best;
  }
  // The time the first point within 5% of `target` was measured (infinity: never).
  double time_to(double target) const {
    for (const auto& [when, p] : seen)
      if (point_medians[static_cast<std::size_t>(p)] <= 1.05 * target)
        return when;
    return INFINITY;
  }
  // What the explorer records in the database after the run.
  std::vector<TunedPoint> tuned(const std::string& program) const {
    std::vector<TunedPoint> out;
    for (const auto& [p, m] : results) {
      const Point& pt = points[static_cast<std::size_t>(p)];
      TunedPoint tp;
      tp.device = "fake-device";
      tp.program_hash = program;
      tp.stencil = "fake";
      tp.signature =
          variant_signature(variants[static_cast<std::size_t>(pt.variant)].variant.history);
      tp.words = point_words(p);
      tp.local = pt.local_text();
      tp.status = m.ok ? PointStatus::Ok : PointStatus::Failed;
      tp.median_ms = m.median_ms;
      tp.baseline_ms = point_medians[0];
      out.push_back(tp);
    }
    return out;
  }
};

// Depth 1: the baseline and `n` tiled or coarsened variants with four work-group sizes each;
// tile=32 coarsened is the fastest, with work-group size 128.
std::vector<FakeVariant> depth1(int n = 12) {
  std::vector<FakeVariant> vs{{info({}, kGlobal), {10, 11, 12, 10.5}}};
  for (int i = 0; i < n; ++i) {
    int64_t tile = int64_t{4} << (i % 4);
    bool coarse = i % 2 == 0;
    Mapping mapping = coarse ? kCoarsened : kWorkGroups;
    double ms = coarse ? 9.0 - tile / 8.0 : 9.5;
    vs.push_back({info({cat("tile-nd at [1] {dims=2, tile=", tile, "}")}, mapping,
                       {{"dims", 2}, {"tile", tile}}),
                  {ms, ms * 1.1, ms * 0.8, ms * 1.2}});
  }
  return vs;
}

// Depth 2: depth 1 and `n` two-step variants, none faster than depth 1's best.
std::vector<FakeVariant> depth2(int n) {
  auto vs = depth1();
  for (int i = 0; i < n; ++i)
    vs.push_back({info({cat("tile-nd at [1] {dims=2, tile=", 4 << (i % 4), "}"),
                        cat("split-join at [1,0] {chunk=", 2 << (i % 3), "}")},
                       kCoarsened, {{"dims", 2}, {"tile", 4 << (i % 4)}, {"chunk", 2 << (i % 3)}}),
                  {9.5 + i % 5, 9.6 + i % 5}});
  return vs;
}

int variant_of_first(const FakeDevice& d, std::size_t k) {
  return d.points[static_cast<std::size_t>(d.first_order.at(k))].variant;
}

} // namespace

TEST_CASE("features: a signature names a variant at every position; words describe its shape") {
  const rewrite::Step tile{"tile-nd", {1}, {{"dims", 2}, {"tile", 16}}};
  CHECK(variant_key({{tile}, kCoarsened}) ==
        nlohmann::json::parse(R"({"steps": [{"rule": "tile-nd", "params": {"dims": 2,
          "tile": 16}}], "mapping": {"kind": "coarsened-tiles"}})"));
  CHECK(variant_signature({{tile}, kCoarsened}) ==
        R"({"mapping":{"kind":"coarsened-tiles"},"steps":[{"params":{"dims":2,"tile":16},)"
        R"("rule":"tile-nd"}]})");
  rewrite::Step elsewhere = tile;
  elsewhere.position = {0, 1};
  CHECK(variant_signature({{elsewhere}, kCoarsened}) == variant_signature({{tile}, kCoarsened}));
  // The dimensions a tiling step decides are not part of the mapping's key.
  Mapping coarsened2 = kCoarsened;
  coarsened2.dims = 2;
  CHECK(variant_signature({{tile}, coarsened2}) == variant_signature({{tile}, kCoarsened}));
  // Version 2's words of the same derivation read as the same key.
  CHECK(signature_from_text("tile-nd {dims=2, tile=16} | mapping: coarsened", "test") ==
        variant_signature({{tile}, coarsened2}));
  CHECK(signature_from_text("plain", "test") == variant_signature({}));
  CHECK_THROWS_WITH_AS(signature_from_text("tile-nd {dims=two}", "a tuned point"),
                       doctest::Contains("'two' in the step 'tile-nd {dims=two}'"), Error);
  VariantFeatures f = variant_features(
      info({"tile-nd at [1] {dims=2, tile=16}"}, kCoarsened, {{"dims", 2}, {"tile", 16}}),
      int64_t{1} << 20);
  CHECK(f.family == "tiled");
  CHECK(f.arm == "tile-nd | mapping: coarsened");
  CHECK(f.steps == 1);
  CHECK(f.outputs_per_item == 256); // a 16x16 tile per work-item
  CHECK(f.work_items == 4096);
  std::set<std::string> words(f.words.begin(), f.words.end());
  for (const char* w : {"family:tiled", "rule:tile-nd", "rule:mapping: coarsened", "tile=16",
                        "items~4^6", "steps=1"})
    CHECK(words.count(w) == 1);
}

TEST_CASE("feature model: faster words predict higher, few observations are shrunk") {
  FeatureModel m;
  CHECK(m.predict({"tile=16"}) == 0.0);
  m.add({"tile=16", "family:tiled"}, 2.0);
  double one = m.predict({"tile=16"});
  m.add({"tile=16", "family:tiled"}, 2.0);
  m.add({"tile=64", "family:tiled"}, 0.5);
  CHECK(one > 0);
  CHECK(one < std::log(2.0));          // shrunk towards the baseline
  CHECK(m.predict({"tile=16"}) > one); // more evidence, less shrinkage
  CHECK(m.predict({"tile=64"}) < 0);   // slower than the baseline
  m.add({"rule:broken"}, 0.0);         // a failure counts as much slower
  CHECK(m.predict({"rule:broken"}) < m.predict({"tile=64"}));
  CHECK(m.support({"tile=16", "unknown"}) == 2);
}

TEST_CASE("prior: this program's winners first, then similar programs', then shallower first") {
  std::vector<VariantInfo> vs{
      info({}, kGlobal),
      info({"tile-nd at [1] {tile=8}", "split-join at [0] {chunk=2}"}, kCoarsened),
      info({"tile-nd at [1] {tile=8}"}, kCoarsened),
      info({"tile-nd at [1] {tile=16}"}, kCoarsened),
      info({"tile-nd at [1] {tile=32}"}, kCoarsened),
      info({"tile-nd at [1] {tile=64}"}, kWorkGroups)};
  SUBCASE("no database: shallower variants first, in enumeration order within a family") {
    Prior p = make_prior(vs, {}, {"s", "h", 1024});
    CHECK(p.order == std::vector<int>{2, 3, 4, 5, 1});
    CHECK(p.summary.find("no earlier points") != std::string::npos);
  }
  SUBCASE("no database: equal variants one family at a time in turn") {
    std::vector<VariantInfo> mixed{
        info({}, kGlobal), info({"tile-nd at [1] {tile=8}"}, kCoarsened),
        info({"tile-nd at [1] {tile=16}"}, kCoarsened),
        info({"stream-nd at [1] {dims=2, segment=16}"}, Mapping{MappingKind::Streaming}),
        info({"tile-nd at [1] {tile=32}"}, kCoarsened)};
    Prior p = make_prior(mixed, {}, {"s", "h", 1024});
    CHECK(p.features[1].family != p.features[3].family);
    CHECK(p.order == std::vector<int>{1, 3, 2, 4});
  }
  SUBCASE("no database: partial sums by plane (offered for large windows alone) first") {
    std::vector<VariantInfo> with_sums = vs;
    with_sums.push_back(info({"stream-nd at [1] {dims=2, segment=16, sums=1}"},
                             Mapping{MappingKind::Streaming}, {{"sums", 1}}));
    Prior p = make_prior(with_sums, {}, {"s", "h", 1024});
    CHECK(p.order == std::vector<int>{6, 2, 3, 4, 5, 1});
  }
  SUBCASE("no database: the partial sums blocked along y before the unblocked ones") {
    std::vector<VariantInfo> with_rows = vs;
    with_rows.push_back(info({"stream-nd at [1] {dims=3, segment=16, sums=1}"},
                             Mapping{MappingKind::Streaming}, {{"sums", 1}}));
    with_rows.push_back(info({"stream-nd at [1] {dims=3, rows=4, segment=16, sums=1}"},
                             Mapping{MappingKind::Streaming}, {{"rows", 4}, {"sums", 1}}));
    Prior p = make_prior(with_rows, {}, {"s", "h", 1024});
    CHECK(p.order == std::vector<int>{7, 6, 2, 3, 4, 5, 1});
  }
  SUBCASE("no database: the partial sums blocked along x, then along y, before the rest") {
    std::vector<VariantInfo> along_x = vs;
    along_x.push_back(info({"stream-nd at [1] {dims=3, segment=4, sums=1}"},
                           Mapping{MappingKind::Streaming}, {{"sums", 1}}));
    along_x.push_back(info({"stream-nd at [1] {dims=3, rows=4, segment=4, sums=1}"},
                           Mapping{MappingKind::Streaming}, {{"rows", 4}, {"sums", 1}}));
    along_x.push_back(info({"stream-nd at [1] {dims=3, factor=2, segment=4, sums=1}"},
                           Mapping{MappingKind::Streaming}, {{"factor", 2}, {"sums", 1}}));
    Prior p = make_prior(along_x, {}, {"s", "h", 1024});
    CHECK(p.order == std::vector<int>{8, 7, 6, 2, 3, 4, 5, 1});
  }
  SUBCASE("no database: separable passes (offered where the weights factor) first") {
    std::vector<VariantInfo> with_axes = vs;
    with_axes.push_back(info({"separate-axes at [1] {axes=2}"}, kGlobal, {{"axes", 2}}));
    Prior p = make_prior(with_axes, {}, {"s", "h", 1024});
    CHECK(p.features[6].family == "separable");
    CHECK(p.order == std::vector<int>{6, 2, 3, 4, 5, 1});
  }
  SUBCASE("no database: on a CPU the split launch among the first, elsewhere by its depth") {
    std::vector<VariantInfo> both = vs;
    both.push_back(info({"stream-nd at [1] {dims=2, segment=16, sums=1}"},
                        Mapping{MappingKind::Streaming}, {{"sums", 1}}));
    both.push_back(info({}, Mapping{MappingKind::SplitLaunch}));
    // On a CPU beside the partial sums (shallower: first), elsewhere after them.
    CHECK(make_prior(both, {}, {"s", "h", 1024, true}).order ==
          std::vector<int>{7, 6, 2, 3, 4, 5, 1});
    CHECK(make_prior(both, {}, {"s", "h", 1024, false}).order ==
          std::vector<int>{6, 7, 2, 3, 4, 5, 1});
  }
  SUBCASE("the database's points of this program, then of similar programs") {
    auto point = [](std::string program, std::string signature, double ms, std::string local) {
      TunedPoint t;
      t.device = "d";
      t.program_hash = std::move(program);
      t.stencil = "s";
      t.signature = std::move(signature);
      t.median_ms = ms;
      t.baseline_ms = 10;
      t.local = std::move(local);
      return t;
    };
    std::vector<TunedPoint> known{
        point("h", variant_signature(vs[1].history), 5, "64x4"),
        point("h", variant_signature(vs[1].history), 4, "32x8"),
        point("h", variant_signature(vs[3].history), 8, "auto"),
        point("h", variant_signature(vs[4].history), 20, "auto"), // slower than the baseline
        point("other size", variant_signature(vs[5].history), 6, "auto"),
    };
    Prior p = make_prior(vs, known, {"s", "h", 1024});
    CHECK(p.order == std::vector<int>{1, 3, 5, 2, 4});
    CHECK(p.from_program == 2);
    CHECK(p.from_similar == 1);
    CHECK(p.preferred_locals[1] == std::vector<std::string>{"32x8", "64x4"});
    CHECK(p.model.observations() == known.size());
  }
}

TEST_CASE("tuning database: points merge with the file and the solver's entries stay") {
  auto dir = tessera::testing::make_temp_dir("tessera-tuning-db");
  auto path = dir / "tuning.json";
  CHECK(read_tuned_points(path, "d").empty()); // no file yet
  {
    std::ofstream out(path);
    out << R"({"format": "tessera-tuning", "version": 1, "entries": {"k": {"variant": 3}}})";
  }
  TunedPoint a;
  a.device = "d";
  a.program_hash = "h";
  a.signature = variant_signature({{{"tile-nd", {1}, {{"tile", 16}}}}, kCoarsened});
  a.words = {"tile=16"};
  a.median_ms = 2;
  a.baseline_ms = 4;
  TunedPoint b = a;
  b.device = "another device";
  record_tuned_points(path, {a, b});
  a.median_ms = 1; // measured again: replaces the older record
  record_tuned_points(path, {a});
  auto mine = read_tuned_points(path, "d");
  REQUIRE(mine.size() == 1);
  CHECK(mine[0].median_ms == 1);
  CHECK(mine[0].speedup() == doctest::Approx(4));
  CHECK(mine[0].words == std::vector<std::string>{"tile=16"});
  CHECK(read_tuned_points(path, "another device").size() == 1);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("\"entries\":{\"k\":{\"variant\":3}}") != std::string::npos);

  auto bad = dir / "report.json";
  std::ofstream(bad) << R"({"format": "tessera-report", "version": 1})";
  CHECK_THROWS_WITH_AS(read_tuned_points(bad, "d"),
                       doctest::Contains("has format 'tessera-report'"), Error);
  std::ofstream(bad) << "not json";
  CHECK_THROWS_WITH_AS(record_tuned_points(bad, {a}), doctest::Contains("is not JSON"), Error);
}

TEST_CASE("lazy search: variants are generated when reached and the budget is never overrun") {
  for (Strategy s : all_strategies()) {
    CAPTURE(to_string(s));
    FakeDevice d(depth2(300));
    const double deadline = 6.0;
    search(d, static_cast<SearchSpace&>(d), {s, deadline, 5, 3});
    // Estimates are exact here: generation and measuring together end within the deadline.
    CHECK(d.t <= deadline);
    CHECK(d.generated_count() < d.variant_count() / 4); // most were never generated
    CHECK(d.generated_count() >= 5);
    CHECK(d.first_order.front() == 0);
  }
}

TEST_CASE("lazy search: halving and bandit measure the prior's first variants first") {
  for (Strategy s : {Strategy::Halving, Strategy::Bandit}) {
    CAPTURE(to_string(s));
    FakeDevice d(depth2(100));
    search(d, static_cast<SearchSpace&>(d), {s, 8.0, 5, 1});
    std::vector<int> variants; // in order of their first point
    for (std::size_t k = 1; k < d.first_order.size(); ++k)
      if (std::find(variants.begin(), variants.end(), variant_of_first(d, k)) == variants.end())
        variants.push_back(variant_of_first(d, k));
    REQUIRE(variants.size() > 3);
    for (std::size_t k = 0; k < 3; ++k)
      CHECK(variants[k] == d.prior.order[k]);
  }
}

TEST_CASE("warm start: a deeper space at the same budget finds at least what depth 1 found") {
  auto dir = tessera::testing::make_temp_dir("tessera-warm");
  auto db = dir / "tuning.json";
  const double budget = 8.0;
  for (Strategy s : {Strategy::Halving, Strategy::Bandit}) {
    CAPTURE(to_string(s));
    FakeDevice shallow(depth1());
    search(shallow, static_cast<SearchSpace&>(shallow), {s, budget, 5, 1});
    REQUIRE(std::isfinite(shallow.best_ms()));
    record_tuned_points(db, shallow.tuned("depth 1 program"));

    // The deeper space of the same stencil (another program hash: similar, not the same), its
    // depth-2 variants enumerated among the depth-1 ones.
    auto deep_variants = depth2(500);
    std::swap(deep_variants[3], deep_variants[20]);
    FakeDevice deep(deep_variants, read_tuned_points(db, "fake-device"));
    CHECK(deep.prior.from_similar > 0);
    search(deep, static_cast<SearchSpace&>(deep), {s, budget, 5, 1});
    CHECK(deep.t <= budget);
    CHECK(deep.best_ms() <= shallow.best_ms());
    // The database's best variant is the first point after the baseline.
    const int best_signature_variant = deep.prior.order.front();
    CHECK(variant_of_first(deep, 1) == best_signature_variant);

    // The same at depth 2 without the database: all depth-1 variants come first.
    FakeDevice cold(deep_variants);
    search(cold, static_cast<SearchSpace&>(cold), {s, budget, 5, 1});
    CHECK(cold.best_ms() <= shallow.best_ms() * 1.05);
  }
}

TEST_CASE("bandit: learns which family is fast and gets there before exhaustive order") {
  // 40 work-group variants (slow) enumerated before 40 coarsened ones (fast, tile=64 fastest),
  // and the prior knows nothing: only what the run measures can move coarsened forward.
  std::vector<FakeVariant> vs{{info({}, kGlobal), {10}}};
  for (int i = 0; i < 40; ++i)
    vs.push_back({info({cat("tile-nd at [1] {tile=", 4 << (i % 5), "}")}, kWorkGroups,
                       {{"tile", 4 << (i % 5)}}),
                  {10.0 + i % 3}});
  for (int i = 0; i < 40; ++i)
    vs.push_back({info({cat("tile-nd at [1] {tile=", 4 << (i % 5), "}")}, kCoarsened,
                       {{"tile", 4 << (i % 5)}}),
                  {i == 37 ? 2.0 : 6.0 - (i % 5) * 0.5}});
  FakeDevice exhaustive(vs), bandit(vs);
  search(exhaustive, static_cast<SearchSpace&>(exhaustive), {Strategy::Exhaustive, 100, 5, 1});
  search(bandit, static_cast<SearchSpace&>(bandit), {Strategy::Bandit, 100, 5, 1});
  CHECK(bandit.best_ms() == 2.0);
  CHECK(bandit.time_to(2.0) < exhaustive.time_to(2.0));
  // The first coarsened variant is reached within the first few choices (an untried family's
  // exploration bonus), not after the 40 work-group variants.
  int first_coarsened = -1;
  for (std::size_t k = 0; k < bandit.first_order.size() && first_coarsened < 0; ++k)
    if (bandit.arm_of(variant_of_first(bandit, k)) == "tile-nd | mapping: coarsened")
      first_coarsened = static_cast<int>(k);
  CHECK(first_coarsened >= 0);
  CHECK(first_coarsened < 10);
}

TEST_CASE("tuning database: a version-1 file is converted, one of a newer version refused") {
  auto dir = tessera::testing::make_temp_dir("tessera-tuning-versions");
  auto path = dir / "tuning.json";
  {
    std::ofstream out(path);
    out << R"({"format": "tessera-tuning", "version": 1, "entries": {"k": {"variant": 3,
      "history": ["tile-nd at [1] {dims=2, tile=16}", "mapping: work-groups, local memory"]}},
      "points": [{"device": "d", "program_hash": "h", "median_ms": 1, "baseline_ms": 2,
      "signature": "tile-nd {dims=2, tile=16} | mapping: work-groups, local memory"}]})";
  }
  nlohmann::json db = read_tuning_file(path);
  CHECK(db["version"] == 3);
  const nlohmann::json& entry = db["entries"]["k"];
  CHECK(entry["variant"] == 3);
  CHECK(entry["history"] == nlohmann::json::array({"tile-nd at [1] {dims=2, tile=16}"}));
  CHECK(entry["mapping"] == nlohmann::json{{"kind", "local-memory"}, {"dims", 0}});
  // A version-1 point's signature is the key a variant of the same derivation has now.
  auto points = read_tuned_points(path, "d");
  REQUIRE(points.size() == 1);
  CHECK(points[0].signature == variant_signature({{{"tile-nd", {1}, {{"dims", 2}, {"tile", 16}}}},
                                                  Mapping{MappingKind::LocalMemory, 2}}));
  // Recording writes the file back as version 3, its entries converted.
  record_tuned_points(path, points);
  std::ifstream in(path);
  nlohmann::json written = nlohmann::json::parse(in);
  CHECK(written["version"] == 3);
  CHECK(written["points"][0]["signature"]["mapping"] == nlohmann::json{{"kind", "local-memory"}});
  CHECK(written["entries"]["k"]["mapping"]["kind"] == "local-memory");
  CHECK(written["points"].size() == 1);

  std::ofstream(path) << R"({"format": "tessera-tuning", "version": 4, "entries": {}})";
  const std::string newer = cat("tuning database '", path.string(),
                                "' has version 4; this tessera reads versions 1 to 3");
  CHECK_THROWS_WITH_AS(read_tuned_points(path, "d"), doctest::Contains(newer.c_str()), Error);
  // The solver's lenient reading refuses it too: writing would lose what it holds.
  CHECK_THROWS_WITH_AS(read_tuning_file(path, /*lenient=*/true), doctest::Contains(newer.c_str()),
                       Error);
  std::ofstream(path) << "not json";
  CHECK(read_tuning_file(path, /*lenient=*/true)["entries"].empty());
}
