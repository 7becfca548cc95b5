// A rank runs the explored best variant of its block step when the tuning database holds one
// for its extended block's size on its device (checked against the plain step), else the plain
// lowering;
// either way the sweep gives the plain lowering's result bit for bit. One rank (MPI_COMM_SELF),
// on rank 0 only: the database is a file of its own.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

#include "compile/Agreement.h"
#include "core/Printer.h"
#include "distributed/BestVariant.h"
#include "distributed/LocalStep.h"
#include "explore/Features.h"
#include "explore/Prior.h"
#include "explore/TuningDatabase.h"
#include "explore/Variants.h"
#include "runtime/Session.h"
#include "stencils/Iterated.h"
#include "tests/TempDir.h"
#include "tests/distributed/MpiFixture.h"
#include "tests/distributed/RankSession.h"
#include "tests/distributed/SweepCases.h"

using namespace tessera;
using namespace tessera::distributed;

namespace {

explore::TunedPoint point(const std::string& device, const Expr& program,
                          const std::string& stencil, std::vector<int64_t> size,
                          const std::string& signature, double speedup = 2) {
  explore::TunedPoint p;
  p.device = explore::device_key(device);
  p.program_hash = explore::program_hash(print(program));
  p.stencil = stencil;
  p.size = std::move(size);
  p.signature = signature;
  p.median_ms = 1;
  p.baseline_ms = speedup; // against the plain lowering
  return p;
}

// A variant's derivation as the rank's note prints it.
std::string steps_text(const explore::VariantInfo& v) {
  std::string steps;
  for (const auto& line : v.history.lines())
    steps += (steps.empty() ? "" : "; ") + line;
  return steps;
}

// The key of a variant no program has.
const std::string kNoVariant = R"({"steps":[{"params":{},"rule":"no-such-rule"}]})";

} // namespace

TEST_CASE("a rank runs the explored best variant of its block step, else the plain one") {
  auto world = testing::mpi_world();
  if (world.rank() != 0)
    return;
  runtime::Session& session = testing::rank_session();
  const auto& info = stencils::find_stencil("j2d5pt");
  SweepConfig config;
  config.name = info.name;
  config.build = testing::with_boundary_builder(info, "mirror");
  config.global = {20, 16};
  config.local = {1, 1};
  config.session = &session;
  auto run = [&](const std::filesystem::path& db, std::string* lowering) {
    config.tuning_database = db;
    DistributedSweep s(Communicator::self(), config);
    s.start();
    s.run(2);
    *lowering = s.lowering();
    return s.gather();
  };
  std::string plain_note, tuned_note, missing_note;
  auto plain = run({}, &plain_note);
  CHECK(plain_note.find("plain lowering (no tuning database)") != std::string::npos);
  CHECK(testing::has_nonzero_values(plain));

  // A variant of the block step (one rank: the whole grid), recorded as the best one at its
  // size: a vectorized one, which the former rank-local step (symbolic sizes) could not run.
  Expr step = config.build({20, 16});
  auto variants = explore::enumerate_variants(step, 1).variants;
  auto vectorized = std::find_if(variants.begin(), variants.end(), [](const auto& v) {
    return explore::variant_signature(v.history).find("vector") != std::string::npos;
  });
  REQUIRE(vectorized != variants.end());
  const std::string signature = explore::variant_signature(vectorized->history);
  auto db = testing::make_temp_dir("tessera-best-variant") / "tuning.json";
  explore::record_tuned_points(
      db, {point(session.device().identity(), step, "j2d5pt", {20, 16}, signature)});
  auto tuned = run(db, &tuned_note);
  CHECK_MESSAGE(tuned_note.find("explored best variant at 20x16 (" + steps_text(*vectorized)) == 0,
                tuned_note);
  REQUIRE(tuned.size() == plain.size());
  CHECK(std::memcmp(tuned.data(), plain.data(), plain.size() * sizeof(double)) == 0);

  // Another size, or a signature the local step lacks: the plain lowering, and why.
  auto other = testing::make_temp_dir("tessera-best-variant") / "tuning.json";
  explore::record_tuned_points(
      other,
      {point(session.device().identity(), step, "j2d5pt", {20, 16}, kNoVariant),
       point(session.device().identity(), config.build({64, 64}), "j2d5pt", {64, 64}, signature)});
  auto missing = run(other, &missing_note);
  CHECK_MESSAGE(missing_note.find("have no counterpart here") != std::string::npos, missing_note);
  CHECK(std::memcmp(missing.data(), plain.data(), plain.size() * sizeof(double)) == 0);

  // A faster point the block step has no counterpart of is passed over for the fastest one it
  // has.
  auto both = testing::make_temp_dir("tessera-best-variant") / "tuning.json";
  explore::record_tuned_points(
      both, {point(session.device().identity(), step, "j2d5pt", {20, 16}, kNoVariant, 3),
             point(session.device().identity(), step, "j2d5pt", {20, 16}, signature, 1.5)});
  std::string next_note;
  auto next = run(both, &next_note);
  CHECK_MESSAGE(next_note.find("explored best variant at 20x16 (" + steps_text(*vectorized)) == 0,
                next_note);
  CHECK(next_note.find("faster ones have no counterpart") != std::string::npos);
  CHECK(std::memcmp(next.data(), plain.data(), plain.size() * sizeof(double)) == 0);

  // k = 2: a temporally blocked program of both steps, measured faster than two single steps,
  // runs once per period; measured slower, the single steps run.
  config.steps = 2;
  auto two = testing::make_temp_dir("tessera-best-variant") / "tuning.json";
  Expr both_steps = stencils::iterate_program(step, 2);
  rewrite::EnumerateOptions control;
  auto fused_variants = explore::enumerate_variants(both_steps, 1, control).variants;
  auto temporal = std::find_if(fused_variants.begin(), fused_variants.end(), [](const auto& v) {
    return explore::variant_signature(v.history).find("stream-temporal") != std::string::npos;
  });
  REQUIRE(temporal != fused_variants.end());
  const std::string fused_signature = explore::variant_signature(temporal->history);
  auto fused_point = [&](double median_ms) {
    auto p = point(session.device().identity(), both_steps, "j2d5pt", {20, 16}, fused_signature);
    p.median_ms = median_ms;
    p.baseline_ms = 4;
    return p;
  };
  auto single_point = point(session.device().identity(), step, "j2d5pt", {20, 16}, signature);
  single_point.median_ms = 1; // two steps: 2 ms
  explore::record_tuned_points(two, {single_point, fused_point(1.5)});
  std::string fused_note;
  auto plain_two = run({}, &plain_note);
  auto fused = run(two, &fused_note);
  CHECK_MESSAGE(fused_note.find("2 steps in one program: explored best variant at 20x16 (" +
                                steps_text(*temporal)) == 0,
                fused_note);
  CHECK(testing::has_nonzero_values(plain_two));
  CHECK(explore::within_tolerance(explore::max_relative_difference(fused, plain_two), 1e-5));
  auto slower = testing::make_temp_dir("tessera-best-variant") / "tuning.json";
  explore::record_tuned_points(slower, {single_point, fused_point(2.5)});
  std::string single_note;
  run(slower, &single_note);
  CHECK_MESSAGE(single_note.find("explored best variant at 20x16 (" + steps_text(*vectorized)) == 0,
                single_note);
}
